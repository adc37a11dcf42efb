"""What is left of a rate limiter where the outbox paces every chat: a 429 slows its chat down.

The outbox sends at its own pace (a lane a chat, the overall gate, a budget for a group's
screens) and, told ``RetryAfter``, holds the chat's next call back itself. PTB's
``AIORateLimiter`` only repeated that pacing, and scanned every group once more than 512 had a
recent call (issue #48: 0.42 ms a group call at 1,000 groups). What the outbox does not send (a
handler's ``getChatMember``, a press's answer) still keeps Telegram's word: after a 429 no call
to that chat leaves before the time it named.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.outbox import wire

# Chats remembered as slowed down at once before the ones whose time has passed are forgotten.
PRUNE_AT = 1024


class SlowDown(BaseRateLimiter[int]):
    """No pacing of its own; after a 429, a chat's calls wait out the time Telegram named (a
    group's screens, which Telegram counts apart, apart from the group's messages)."""

    def __init__(self) -> None:
        self._until: dict[tuple[object, bool], float] = {}

    async def initialize(self) -> None:
        """Nothing to start."""

    async def shutdown(self) -> None:
        """Nothing to stop."""

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        screen = "ephemeral_message_parameters" in data or "receiver_user_id" in data
        key = (data.get("chat_id"), screen)
        until = self._until.get(key)
        if until is not None:
            wait = until - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            elif self._until.get(key) == until:
                del self._until[key]
        try:
            return await callback(*args, **kwargs)
        except RetryAfter as exc:
            now = time.monotonic()
            self._until[key] = max(self._until.get(key, 0.0), now + wire.seconds(exc))
            if len(self._until) > PRUNE_AT:
                self._until = {k: t for k, t in self._until.items() if t > now}
            raise
