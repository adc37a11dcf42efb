"""Double-dummy analyses of finished deals, off the bot's process: the result post, the
analysis button and the deal's review share one solve (``bot.games.nicety``'s ``once``: the
review used to solve the deal's table again, four fifths of its cost), in a process of its own
at the lowest priority, spawned on the first deal to analyse (as the Preferans analyst is). On
threads inside the bot it took a third of the bot's CPU under load and 150-200 MB of its
memory (issue #48); a process holds neither, and the solver still uses both cores for one deal."""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bot.games.nicety import Nicety
from bot.workers import NICE, worker_pool
from games.bridge.analysis import Analysis, analyse
from games.bridge.cards import Deal, Seat


def _start() -> ProcessPoolExecutor:
    return worker_pool(1, NICE)


def new_solver() -> Nicety:
    return Nicety(_start, "double-dummy analysis")  # a result waits for it ``Nicety.TIMEOUT_S``


SOLVER = new_solver()


async def solve(deal: Deal, vul: tuple[bool, bool]) -> Analysis | None:
    """A deal's double-dummy analysis from the solver's process (None when it is behind),
    solved once for everyone who asks."""
    found = await SOLVER.once(deal.to_pbn(), analyse, deal, *vul)
    if found is not None and found.vulnerable != vul:  # kept at another vulnerability
        found = await SOLVER.run(analyse, deal, *vul)
    return found


async def solved(payload: Mapping[str, Any]) -> Analysis | None:
    """For the review of the deal dealt by ``payload`` (its deal event's): the analysis its
    result solved or is solving, if any; the review checks the vulnerability."""
    deal = Deal.from_pbn(str(payload["pbn"]), Seat.parse(str(payload["dealer"])))
    found = await SOLVER.kept(deal.to_pbn())
    return found if isinstance(found, Analysis) else None
