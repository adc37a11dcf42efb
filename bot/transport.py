"""The Bot API transport's wrappers: getUpdates without the keyboards under pressed buttons,
and no call at all from a process that may have lost its lease.

Every callback query carries the whole message whose button was pressed, keyboard included: up
to 38 buttons for a bidding box. PTB turns each into objects that no handler here reads, and in
the load benchmark that parsing was the largest single cost of an update (a third of the CPU at
1,000 tables). This wrapper drops ``reply_markup`` from those messages before PTB sees them;
everything else in the update is untouched.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from telegram.error import NetworkError
from telegram.request import BaseRequest, RequestData


class _Wrapper(BaseRequest):
    """A request object around another: what a wrapper does not change, it forwards."""

    def __init__(self, inner: BaseRequest) -> None:
        self._inner = inner

    @property
    def read_timeout(self) -> float | None:
        return self._inner.read_timeout

    async def initialize(self) -> None:
        await self._inner.initialize()

    async def shutdown(self) -> None:
        await self._inner.shutdown()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        return await self._inner.do_request(
            url,
            method,
            request_data,
            read_timeout=read_timeout,
            write_timeout=write_timeout,
            connect_timeout=connect_timeout,
            pool_timeout=pool_timeout,
        )


class SlimUpdates(_Wrapper):
    """Wraps the request object that makes ``getUpdates`` calls."""

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        status, body = await super().do_request(
            url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
        )
        if status != 200 or not url.endswith("/getUpdates"):
            return status, body
        return status, slim(body)


def slim(body: bytes) -> bytes:
    data = json.loads(body)
    result = data.get("result")
    if not isinstance(result, list):
        return body
    for update in result:
        query = update.get("callback_query") if isinstance(update, dict) else None
        message = query.get("message") if isinstance(query, dict) else None
        if isinstance(message, dict):
            message.pop("reply_markup", None)
    return json.dumps(data).encode()


class Fenced(_Wrapper):
    """Makes a call only while ``allowed()``: an active process that was frozen past its lease
    (its standby may be active now) makes none, not even getUpdates, until it has renewed the
    lease, which it cannot if the lease was taken; then it leaves (bot.standby)."""

    def __init__(self, inner: BaseRequest, allowed: Callable[[], bool]) -> None:
        super().__init__(inner)
        self._allowed = allowed

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if not self._allowed():
            raise NetworkError("not the active process now (its lease is not renewed): no call")
        return await super().do_request(
            url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
        )
