"""Double-dummy analysis of finished Preferans deals for the result post, off the event loop.

The solver is pure Python: in a thread it would take the interpreter lock from the tables, so
it runs in a process of its own (spawned once, on the first deal to analyse) at the robots'
low priority. Analysis is a nicety: when deals end faster than it keeps up, results go out
without it rather than late; a deal that takes too long is given up."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from bot.games.nicety import Nicety
from bot.games.preferans.views import bid_text
from bot.i18n import Translator
from bot.workers import NICE, worker_pool
from games.preferans.analysis import Analysis, GameAnalysis, MisereAnalysis, analyse
from games.preferans.deal import DealState, Kind


def _start() -> ProcessPoolExecutor:
    return worker_pool(1, NICE)


ANALYST = Nicety(_start, "Preferans analysis")


async def analysis_of(state: DealState) -> Analysis | None:
    """A finished deal's analysis from the analyst's process (None for a raspasy, which has
    nothing to ask the solver, and when the analyst is behind)."""
    if state.kind not in (Kind.GAME, Kind.MISERE):
        return None
    return await ANALYST.run(analyse, state)


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
