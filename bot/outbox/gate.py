"""The overall cap on calls a second (``OVERALL_RATE_PER_SECOND``): under it the most urgent
call goes first (posts and the prompt of the player on turn, then the group's table, then the
screens of players who are waiting)."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time


class Gate:
    """At most ``rate`` calls a second across every chat, the most urgent first. A waiter can
    be made more urgent while it waits (a waiting player's screen that became their prompt)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.next_at = 0.0
        self._heap: list[tuple[int, int, asyncio.Future[None]]] = []
        self._by_key: dict[object, tuple[int, asyncio.Future[None]]] = {}
        self._order = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self.waited: dict[int, int] = {}  # calls that had to wait, by priority (benchmarks)

    async def acquire(self, priority: int, key: object = None) -> None:
        if self.rate <= 0:
            return
        now = time.monotonic()
        if not self._heap and now >= self.next_at:
            self.next_at = now + 1 / self.rate
            return
        self.waited[priority] = self.waited.get(priority, 0) + 1
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (priority, next(self._order), future))
        if key is not None:
            self._by_key[key] = (priority, future)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._release(), name="outbox:gate")
        try:
            await future
        finally:
            if key is not None and self._by_key.get(key, (0, None))[1] is future:
                del self._by_key[key]

    def crowded(self) -> bool:
        """Whether calls are waiting for their turn under the cap now."""
        return any(not future.done() for _, _, future in self._heap)

    def hurry(self, key: object, priority: int) -> None:
        """The waiter of ``key`` goes with ``priority`` if that is more urgent."""
        found = self._by_key.get(key)
        if found is not None and priority < found[0] and not found[1].done():
            heapq.heappush(self._heap, (priority, next(self._order), found[1]))
            self._by_key[key] = (priority, found[1])

    async def _release(self) -> None:
        while self._heap:
            wait = self.next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            _, _, future = heapq.heappop(self._heap)
            if future.done():
                continue  # let go earlier (a hurried waiter's older entry), or cancelled
            future.set_result(None)
            self.next_at = max(time.monotonic(), self.next_at) + 1 / self.rate
