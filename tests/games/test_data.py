"""The rules' values as data (``games.core.data``), as robots' questions and answers cross the
queue: every seat's view at every step of random deals of both games, the finished deals, and
the analyses come back equal; anything that is not the rules' data is refused, unbuilt."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.bridge.analysis import analyse
from games.bridge.cards import Deal, Seat
from games.core import data
from games.core.registry import find_game
from games.preferans.analysis import analyse as pref_analyse


def _views_of(name: str, players: int, seed: int) -> list[Any]:
    """Every seat's view (and the table's) at every step of a random deal, and its end."""
    game = find_game(name)
    rng = random.Random(seed)
    # Preferans under a group's conditions after raspasy (PREFERANS.md §8): they travel too.
    options = {"variant": "stalingrad", "exit": "6-7-8", "raspasy_run": seed % 3}
    dealt = game.new_deal(players, rng.randrange(players), rng.randrange, options)
    state = game.start(players, dealt)
    seen: list[Any] = []
    for _ in range(400):
        seen += [state.view(seat) for seat in (*range(players), None)]
        if state.finished:
            seen.append(state)
            return seen
        seat = state.turn
        options = list(state.legal_actions(seat)) if seat is not None else []
        if not options:
            options = [a for s in game.seats for a in state.legal_actions(s)]
        action = rng.choice(options)
        seen.append(action)
        state = state.apply(action)
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize(("name", "players"), [("bridge", 4), ("preferans", 3), ("preferans", 4)])
def test_views_actions_and_deals_come_back_equal(name: str, players: int) -> None:
    for seed in range(4):
        for value in _views_of(name, players, seed):
            assert data.loads(data.dumps(value)) == value


def test_analyses_come_back_equal() -> None:
    deal = Deal.shuffled(Seat.E, random.Random(2).randrange)
    found = analyse(deal, True, False)
    assert data.loads(data.dumps(found)) == found
    found_any = 0
    for seed in range(12):
        result = pref_analyse(_views_of("preferans", 3, seed)[-1])
        found_any += result is not None
        assert data.loads(data.dumps(result)) == result
    assert found_any  # some deal was a game or a misère, not a raspasy


@pytest.mark.parametrize(
    "text",
    [
        '{"c": "os:system", "f": {}}',
        '{"c": "subprocess:Popen", "f": {"args": "true"}}',
        '{"e": "builtins:object", "v": 1}',
        '{"c": "games.core.data:NotData", "f": {}}',  # not a dataclass
        '{"e": "games.core.data:enum.Enum", "v": 1}',  # reachable from the rules, not theirs
        '{"c": "games.bridge.cards:Card", "f": {"suit": 9}}',  # the constructor refuses it
        '{"x": 1}',
        "\\u0080garbage",
        '{"t": 5}',
    ],
)
def test_anything_else_is_refused(text: str) -> None:
    with pytest.raises(data.NotData):
        data.loads(text)


def test_only_works_marked_remote_are_found() -> None:
    assert data.find_work(data.work_name(analyse)) is analyse
    for name in ("os:system", "games.core.data:loads", "builtins:eval"):
        with pytest.raises(data.NotData):
            data.find_work(name)
