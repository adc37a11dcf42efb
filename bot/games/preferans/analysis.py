"""Double-dummy analysis of finished Preferans deals for the result post, off the event loop.

The solver is pure Python: in a thread it would take the interpreter lock from the tables, so
it runs in a process of its own (spawned once, on the first deal to analyse) at the robots'
low priority. Analysis is a nicety: when deals end faster than it keeps up, results go out
without it rather than late; a deal that takes too long is given up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from bot.games.preferans.views import bid_text
from bot.i18n import Translator
from games.preferans.analysis import Analysis, GameAnalysis, MisereAnalysis, analyse
from games.preferans.deal import DealState, Kind

log = logging.getLogger(__name__)

NICENESS = 19  # as the robots': the people's answers first


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, NICENESS)


class _Analyst:
    MAX_WAITING = 3
    TIMEOUT_S = 20.0

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self.waiting = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fork of a process with running threads (SQLite's, the loop's) is unsafe
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=_lower_priority)
        return self._pool

    async def analyse(self, state: DealState) -> Analysis | None:
        if state.kind not in (Kind.GAME, Kind.MISERE):
            return None  # a raspasy: nothing to ask the solver
        if self.waiting >= self.MAX_WAITING:
            return None
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            work = loop.run_in_executor(self._executor(), analyse, state)
            return await asyncio.wait_for(work, self.TIMEOUT_S)
        except Exception:
            log.exception("Preferans analysis failed; the result goes without it")
            return None
        finally:
            self.waiting -= 1


ANALYST = _Analyst()


def analysis_lines(found: Analysis | None, t: Translator) -> list[str]:
    """One line each, in the players' words: what the game made with every card in view and
    the best game, whether whisting paid; whether the misère could be caught."""
    if found is None:
        return []
    if isinstance(found, MisereAnalysis):
        if found.caught:
            return [t("pref.analysis.misere_caught")]
        return [t("pref.analysis.misere_safe")]
    assert isinstance(found, GameAnalysis)
    best = (
        t("pref.analysis.best", contract=bid_text(found.best, t))
        if found.best is not None
        else t("pref.analysis.no_game")
    )
    key = "pref.analysis.whist_paid" if found.whisting_paid else "pref.analysis.whist_unpaid"
    return [
        t("pref.analysis.game", contract=bid_text(found.contract, t), count=found.makes)
        + " · "
        + best,
        t(key, count=found.defence, obligation=found.obligation),
    ]
