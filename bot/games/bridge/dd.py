"""Double-dummy analyses of finished deals, off the event loop: the result post and the
analysis button share one worker (``bot.games.nicety``): one deal at a time (the solver uses
both cores for one deal), on a thread of its own, so that it never holds the shared
executor's threads."""

from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor

from bot.games.nicety import Nicety
from games.bridge.analysis import Analysis, analyse
from games.bridge.cards import Deal


def _yield() -> None:
    """The solver's thread (and the threads DDS starts from it, which inherit it) at the
    lowest priority: an analysis is a nicety, and at the bot's own priority it took the CPU
    from the robots' moves (bench.load at 10 robot tables: move p90 1.1 to 3.4 s run to run)."""
    with contextlib.suppress(OSError, AttributeError):  # Linux keeps niceness per thread
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


def new_solver() -> Nicety:
    return Nicety(
        lambda: ThreadPoolExecutor(max_workers=1, thread_name_prefix="dds", initializer=_yield),
        "double-dummy analysis",
    )


SOLVER = new_solver()


async def solve(deal: Deal, vul: tuple[bool, bool]) -> Analysis | None:
    """A deal's double-dummy analysis on the solver's worker (None when it is behind)."""
    return await SOLVER.run(analyse, deal, *vul)
