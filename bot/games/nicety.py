"""Work a result can go without (a deal's double-dummy analysis), off the event loop: one
worker of its own, at most ``MAX_WAITING`` jobs waiting. When deals end faster than it keeps
up (many tables at once), fails, or takes longer than its time, the caller gets None and the
result goes out without it rather than late.

When robots think on queue workers (``bot.thinking.QueueThinking``), analyses go there too:
the app names that place once at start (``Nicety.elsewhere``) and clears it at stop.

A job asked for by key (``once``) is remembered a while, so what a result solved serves whoever
asks for the same again (the analysis button, the deal's review: #48's one solve a deal)."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from typing import Any, ClassVar, TypeVar

from bot.thinking import Thinking

log = logging.getLogger(__name__)

T = TypeVar("T")


class Nicety:
    MAX_WAITING = 3
    KEEP = 256  # answers remembered by key (an analysis is a few hundred bytes)
    QUEUE_TIMEOUT_S = 30.0  # on the queue, a job no worker answers in time goes without
    # A result waits for its analysis this long at most, then goes without it. A bridge solve
    # takes 0.3 s (median; 2.7 s at worst of 60 deals on a busy machine), but the worker runs
    # at the lowest priority: while other work keeps both cores busy it may get no CPU for
    # minutes, and a result waiting for it holds back everything after it in its chat.
    TIMEOUT_S = 20.0
    elsewhere: ClassVar[Thinking | None] = None  # the queue's workers, when robots use them

    def __init__(self, start: Callable[[], Executor], what: str, timeout_s: float = TIMEOUT_S):
        self._start = start  # the worker, made on the first job
        self._executor: Executor | None = None
        self.what = what
        self.timeout_s = timeout_s
        self.waiting = 0
        self._kept: OrderedDict[Hashable, asyncio.Future[Any]] = OrderedDict()

    async def run(self, work: Callable[..., T], *args: Any) -> T | None:
        if self.waiting >= self.MAX_WAITING:
            return None
        self.waiting += 1
        try:
            place = Nicety.elsewhere
            if place is not None:
                timeout = min(self.timeout_s, self.QUEUE_TIMEOUT_S)
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

    async def once(self, key: Hashable, work: Callable[..., T], *args: Any) -> T | None:
        """``run``, remembered by ``key``: a later caller for the same key gets the answer
        (waiting for it if it is still being worked out) instead of working it out again. A
        job that came to nothing is forgotten, so the next caller tries again."""
        kept = self._kept_now(key)
        if kept is not None:
            self._kept.move_to_end(key)
            found: T | None = await asyncio.shield(kept)
            if found is not None:
                return found
        future: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()
        self._kept[key] = future
        while len(self._kept) > self.KEEP:
            self._kept.popitem(last=False)
        found = None
        try:
            found = await self.run(work, *args)
        finally:
            future.set_result(found)
            if found is None and self._kept.get(key) is future:
                del self._kept[key]
        return found

    async def kept(self, key: Hashable, timeout_s: float = 30.0) -> Any | None:
        """What ``once`` found, or is finding, for ``key``: None if nobody asked for it lately,
        if it came to nothing, or if it takes longer than ``timeout_s``."""
        kept = self._kept_now(key)
        if kept is None:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(kept), timeout_s)
        except TimeoutError:
            return None

    def _kept_now(self, key: Hashable) -> asyncio.Future[Any] | None:
        """The answer kept for ``key``, if it belongs to the running event loop (a test's
        loop ends; the module's worker outlives it)."""
        kept = self._kept.get(key)
        if kept is None or kept.get_loop() is not asyncio.get_running_loop():
            return None
        return kept
