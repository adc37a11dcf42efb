"""Double-dummy analyses of finished deals, off the bot's process: the result post and the
analysis button share one worker (``bot.games.nicety``), a process of its own at the lowest
priority, spawned on the first deal to analyse (as the Preferans analyst is). On threads
inside the bot it took a third of the bot's CPU under load and 150-200 MB of its memory
(issue #48); a process holds neither, and the solver still uses both cores for one deal."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from bot.games.nicety import Nicety
from bot.workers import NICE, worker_pool
from games.bridge.analysis import Analysis, analyse
from games.bridge.cards import Deal


def _start() -> ProcessPoolExecutor:
    return worker_pool(1, NICE)


def new_solver() -> Nicety:
    return Nicety(_start, "double-dummy analysis")


SOLVER = new_solver()


async def solve(deal: Deal, vul: tuple[bool, bool]) -> Analysis | None:
    """A deal's double-dummy analysis from the solver's process (None when it is behind)."""
    return await SOLVER.run(analyse, deal, *vul)
