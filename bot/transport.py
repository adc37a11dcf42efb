"""The Bot API transport's wrappers: getUpdates without the keyboards under pressed buttons,
and no call at all from a process that may have lost its lease.

Every callback query carries the whole message whose button was pressed, keyboard included: up
to 38 buttons for a bidding box. PTB turns each into objects that no handler here reads, and in
the load benchmark that parsing was the largest single cost of an update (a third of the CPU at
1,000 tables). This wrapper drops ``reply_markup`` from those messages before PTB sees them;
everything else in the update is untouched.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

_TOKEN_IN_URL = re.compile(r"/bot[^/\s]+/")
_JSON = {"Content-Type": "application/json"}


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

    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        """The wrapped object's parse: PTB asks the outermost one (``SlimUpdates`` slims and
        counts the updates in its parse, under ``Fenced`` too)."""
        parsed: dict[str, Any] = self._inner.parse_json_payload(payload)
        return parsed

    def gate(self, allowed: Callable[[], bool]) -> None:
        """The innermost transport checks ``allowed`` as late as it can before a request
        leaves (see ``AiohttpRequest.gate``)."""
        gate = getattr(self._inner, "gate", None)
        if gate is not None:
            gate(allowed)

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


class Handling:
    """The updates handed to the application and not yet handled (``done``), so that the next
    ``getUpdates`` (whose offset confirms to Telegram every update before it) waits for them:
    a process frozen or killed with updates fetched but unhandled leaves them unconfirmed, and
    its successor gets them again. A handler longer than ``HOLD_S`` (a long record, say) is
    not waited for: that update alone would be at most once at a takeover."""

    HOLD_S = 1.0

    def __init__(self) -> None:
        self._open: set[int] = set()
        self._idle = asyncio.Event()  # set while nothing handed over is unhandled
        self._idle.set()

    def taken(self, update_ids: list[int]) -> None:
        if update_ids:
            self._open.update(update_ids)
            self._idle.clear()

    def done(self, update_id: int) -> None:
        self._open.discard(update_id)
        if not self._open:
            self._idle.set()

    async def settled(self) -> None:
        """Until every update handed over is handled, for at most ``HOLD_S`` (at once when
        they are: no task nor timer for the common case, a poll after its updates' handlers)."""
        if self._idle.is_set():
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.HOLD_S):
                await self._idle.wait()


class SlimUpdates(_Wrapper):
    """Wraps the request object that makes ``getUpdates`` calls (see the module); with
    ``handling``, a call waits until the updates it would confirm are handled; with ``held``,
    until that returns (among several active processes only the poll lease's holder polls,
    ``bot.shards``)."""

    def __init__(self, inner: BaseRequest, handling: Handling | None = None) -> None:
        super().__init__(inner)
        self.handling = handling
        self.held: Callable[[], Awaitable[object]] | None = None

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
        polling = url.endswith("/getUpdates")
        if polling and self.held is not None:
            await self.held()
        if polling and self.handling is not None:
            await self.handling.settled()  # its offset confirms what was handed over before
        return await super().do_request(
            url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
        )

    def parse_json_payload(self, payload: bytes) -> dict[str, Any]:  # type: ignore[override]
        """PTB's parse of a reply (this object carries only ``getUpdates``), slimmed as it is
        read: the reply is parsed once, not parsed, written and parsed again."""
        data = super().parse_json_payload(payload)  # the wrapped transport's own parse
        ids = slim(data)
        if self.handling is not None:
            self.handling.taken(ids)
        return data


def slim(data: dict[str, Any]) -> list[int]:
    """Drops the keyboards under pressed buttons from a parsed ``getUpdates`` reply (in
    place), and returns its updates' ids (none for an error's reply).

    >>> reply = {"ok": True, "result": [{"update_id": 7, "callback_query": {"id": "q",
    ...     "message": {"message_id": 5, "reply_markup": {"inline_keyboard": []}}}}]}
    >>> slim(reply), reply["result"][0]["callback_query"]["message"]
    ([7], {'message_id': 5})
    >>> slim({"ok": False, "error_code": 409, "description": "Conflict"})
    []
    """
    result = data.get("result")
    if not isinstance(result, list):
        return []
    ids = []
    for update in result:
        if not isinstance(update, dict):
            continue
        if isinstance(update.get("update_id"), int):
            ids.append(update["update_id"])
        query = update.get("callback_query")
        message = query.get("message") if isinstance(query, dict) else None
        if isinstance(message, dict):
            message.pop("reply_markup", None)
    return ids


class Fenced(_Wrapper):
    """Makes a call only while ``allowed()``: an active process that was frozen past its lease
    (its standby may be active now) makes none, not even getUpdates, until it has renewed the
    lease, which it cannot if the lease was taken; then it leaves (bot.standby)."""

    def __init__(self, inner: BaseRequest, allowed: Callable[[], bool]) -> None:
        super().__init__(inner)
        self._allowed = allowed
        self.gate(allowed)  # checked again as the request leaves

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
        answer = await super().do_request(
            url, method, request_data, read_timeout, write_timeout, connect_timeout, pool_timeout
        )
        if not self._allowed():
            # Frozen while it was on the way: whatever it did, this process may not count it
            # done (record a message as shown, confirm updates): its successor does that.
            raise NetworkError("answered after the lease's time: dropped")
        return answer


class _GatedTransport:
    """A connection's transport that writes only while ``allowed()``: the check and the write
    are one synchronous step, so no freeze can fall between them. Refused, the connection is
    aborted (no part of the request leaves) and the request fails."""

    def __init__(self, inner: asyncio.Transport, allowed: Callable[[], bool]) -> None:
        self._inner = inner
        self._allowed = allowed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _check(self) -> None:
        if not self._allowed():
            self._inner.abort()
            raise ConnectionResetError("not the active process now (its lease is not renewed)")

    def write(self, data: Any) -> None:
        self._check()
        self._inner.write(data)

    def writelines(self, chunks: Any) -> None:
        self._check()
        self._inner.writelines(chunks)


class _GatedConnector(aiohttp.TCPConnector):
    """aiohttp's connector whose connections write through ``_GatedTransport``."""

    def __init__(self, allowed: Callable[[], bool], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._allowed = allowed

    async def _create_connection(self, req: Any, traces: Any, timeout: Any) -> Any:
        proto = await super()._create_connection(req, traces, timeout)
        if proto.transport is not None:
            proto.transport = _GatedTransport(proto.transport, self._allowed)  # type: ignore[assignment]
        return proto


class AiohttpRequest(BaseRequest):
    """PTB's request contract on aiohttp's client, instead of httpx: the same calls, status
    codes, timeouts and errors (``TimedOut``, ``NetworkError``), the token never in an error's
    text. Chosen by ``bench/load --http``: see docs/benchmarks.md for the CPU a press costs
    on each (httpx with httpcore and anyio spends most of the bot's CPU on its own locks,
    events and pool scans)."""

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
        json_bodies: bool = True,
    ) -> None:
        self._pool_size = connection_pool_size
        self._json = json_bodies  # False: forms, as PTB's own clients send (bench.floor)
        self._read, self._write, self._connect = read_timeout, write_timeout, connect_timeout
        self._pool, self._media_write = pool_timeout, media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._allowed: Callable[[], bool] | None = None

    def gate(self, allowed: Callable[[], bool]) -> None:
        """``allowed`` is asked again at the very moment a request's bytes are handed to the
        socket (``_GatedTransport``): a process frozen anywhere between the call's own check
        and that moment sends nothing when it wakes without its lease."""
        self._allowed = allowed

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        """Nothing yet: the pooled session opens once Telegram has answered a call (a rejected
        token at start must leave no session open behind the one-line error)."""

    def _new_session(self, pool: int) -> aiohttp.ClientSession:
        connector = (
            aiohttp.TCPConnector(limit=pool, ttl_dns_cache=300)
            if self._allowed is None
            else _GatedConnector(self._allowed, limit=pool, ttl_dns_cache=300)
        )
        return aiohttp.ClientSession(
            connector=connector,
            headers={"User-Agent": self.USER_AGENT},
            skip_auto_headers=("Accept-Encoding",),
        )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

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
        files = request_data.multipart_data if request_data and request_data.contains_files else {}
        read = self._read if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = self._connect if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = self._pool if isinstance(pool_timeout, DefaultValue) else pool_timeout
        write = write_timeout
        if isinstance(write, DefaultValue):
            write = self._media_write if files else self._write
        # aiohttp counts the wait for a pooled connection in ``connect``; a write is bounded by
        # the whole call (the socket's reads start once the request is written).
        timeout = aiohttp.ClientTimeout(
            total=None if read is None or write is None else read + write + (connect or 0),
            connect=None if connect is None and pool is None else (connect or 0) + (pool or 0),
            sock_read=read,
        )
        body: aiohttp.FormData | dict[str, str] | bytes | None = None
        headers: dict[str, str] | None = None
        if request_data is not None:
            if files:
                form = aiohttp.FormData()
                for name, value in request_data.json_parameters.items():
                    form.add_field(name, value)
                for name, part in files.items():
                    if isinstance(part, tuple):
                        filename, content, mimetype = part
                        form.add_field(name, content, filename=filename, content_type=mimetype)
                    else:
                        form.add_field(name, part)
                body = form
            elif not self._json:
                body = request_data.json_parameters
            else:
                # one JSON body, as Telegram takes any call without a file: a form encoded
                # each field's JSON and then the form (bench.floor: 0.5 ms a call less). The
                # fields go as they are, a keyboard as an object: PTB's ``json_payload`` writes
                # each as a string of JSON inside the JSON (44 -> 24 us an edit with a keyboard)
                body = json.dumps(request_data.parameters).encode()
                headers = _JSON
        try:
            if self._session is None or self._session.closed:
                async with (
                    self._new_session(1) as session,  # closed whatever the answer
                    session.request(
                        method, url, data=body, headers=headers, timeout=timeout
                    ) as res,
                ):
                    answer = res.status, await res.read()
                if answer[0] == 200 and (self._session is None or self._session.closed):
                    self._session = self._new_session(self._pool_size)
                return answer
            async with self._session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as res:
                return res.status, await res.read()
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            # aiohttp may name the URL, which holds the token: the error says its kind only
            text = _TOKEN_IN_URL.sub("/bot<token>/", str(err).replace(url, "<Bot API URL>"))
            raise NetworkError(f"aiohttp.{type(err).__name__}: {text}") from err
