"""A stored deal's review from plain data, in a worker process (``bot.reviews`` sends it): the
one place that finds the game by name, so that ``games.core.review`` stays below the registry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core.base import recorded
from games.core.registry import find_game


def review_deal(
    game_name: str,
    players: int,
    options: Mapping[str, Any],
    outcomes: Sequence[Mapping[str, Any]],
    events: Sequence[tuple[str, Mapping[str, Any], int | None]],
    solved: object = None,
) -> tuple[dict[str, Any], dict[int, int]]:
    """A stored deal's review from plain data, for a worker process: the match rebuilt from
    the outcomes of its deals before this one (as the deal was played), the deal from its log
    (``(kind, payload, player id)``, its deal event first). Returns the review ({} for a game
    without one) and each seat's player: whoever made that seat's first action (its first
    call: every seat calls), so a robot, a substitute and dummy's presser are told apart.
    ``solved``: what the result post solved of the deal already (``Game.review``)."""
    game = find_game(game_name)
    match = recorded(game, players, options, outcomes)
    (_, first, _), *rest = events
    state = game.start(players, first)
    holders: dict[int, int] = {}
    for kind, payload, player_id in rest:
        action = game.from_event(kind, payload)
        if action is None:
            continue
        seat = getattr(action, "seat", None)
        if isinstance(seat, int) and player_id is not None:
            holders.setdefault(int(seat), player_id)
        state = state.apply(action)
    found = game.review(state, match, solved)
    return ({} if found is None else found.to_payload()), holders
