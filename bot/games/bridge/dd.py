"""Double-dummy analyses of finished deals, off the event loop: the result post and the
analysis button share one worker."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from games.bridge.analysis import Analysis, analyse
from games.bridge.cards import Deal

log = logging.getLogger(__name__)


class _Solver:
    """Double-dummy analyses, one deal at a time (the solver uses both cores for one deal) on
    a worker of its own, so that they never hold the shared executor's threads. Analysis is a
    nicety: when deals end faster than it keeps up (many tables at once), results go out
    without it rather than late."""

    MAX_WAITING = 3

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dds")
        self.waiting = 0

    async def analyse(self, deal: Deal, vul: tuple[bool, bool]) -> Analysis | None:
        if self.waiting >= self.MAX_WAITING:
            return None
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.executor, analyse, deal, *vul)
        except Exception:
            log.exception("double-dummy analysis failed; the result goes without it")
            return None
        finally:
            self.waiting -= 1


SOLVER = _Solver()


async def solve(deal: Deal, vul: tuple[bool, bool]) -> Analysis | None:
    """A deal's double-dummy analysis on the solver's worker (None when it is behind)."""
    return await SOLVER.analyse(deal, vul)
