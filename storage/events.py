"""A deal's log and the state it stands for: the first event is the deal, then one event per
action, written in the game's own words (``Game.to_event``).

The log is the truth: ``replay`` folds a deal's events through the table's game to the exact
state it had. Event kinds the rules do not know (votes, notices) are kept and skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.core.protocols import Game, State
from storage.interface import Event

DEAL = "deal"


def replay(game: Game, players: int, events: Iterable[Event]) -> State[Any, Any]:
    """The deal's state from its log, which must start with its ``deal`` event."""
    iterator = iter(events)
    first = next(iterator, None)
    if first is None or first.kind != DEAL:
        raise ValueError("a deal's log starts with its deal event")
    state = game.start(players, first.payload)
    for event in iterator:
        action = game.from_event(event.kind, event.payload)
        if action is not None:
            state = state.apply(action)
    return state
