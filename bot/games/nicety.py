"""Work a result can go without (a deal's double-dummy analysis), off the event loop: one
worker of its own, at most ``MAX_WAITING`` jobs waiting. When deals end faster than it keeps
up (many tables at once), fails, or takes longer than its time, the caller gets None and the
result goes out without it rather than late.

When robots think on queue workers (``bot.thinking.QueueThinking``), analyses go there too:
the app names that place once at start (``Nicety.elsewhere``) and clears it at stop."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, ClassVar, TypeVar

from bot.thinking import Thinking

log = logging.getLogger(__name__)

T = TypeVar("T")


class Nicety:
    MAX_WAITING = 3
    QUEUE_TIMEOUT_S = 30.0  # on the queue, a job no worker answers in time goes without
    elsewhere: ClassVar[Thinking | None] = None  # the queue's workers, when robots use them

    def __init__(self, start: Callable[[], Executor], what: str, timeout_s: float | None = None):
        self._start = start  # the worker, made on the first job
        self._executor: Executor | None = None
        self.what = what
        self.timeout_s = timeout_s
        self.waiting = 0

    async def run(self, work: Callable[..., T], *args: Any) -> T | None:
        if self.waiting >= self.MAX_WAITING:
            return None
        self.waiting += 1
        try:
            place = Nicety.elsewhere
            if place is not None:
                timeout = min(self.timeout_s or self.QUEUE_TIMEOUT_S, self.QUEUE_TIMEOUT_S)
                answer: T = await asyncio.wait_for(place.run(self.what, work, *args), timeout)
                return answer
            if self._executor is None:
                self._executor = self._start()
            loop = asyncio.get_running_loop()
            job = loop.run_in_executor(self._executor, work, *args)
            return await asyncio.wait_for(job, self.timeout_s)
        except Exception:
            log.exception("%s failed; the result goes without it", self.what)
            return None
        finally:
            self.waiting -= 1
