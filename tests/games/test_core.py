"""Games as plug-ins: every game found by name and driven through the same protocol, and a tiny
test-only game registered from here to show a new game needs nothing but itself and one line."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.core.protocols import Game, State
from games.core.registry import find_game, games, register
from games.errors import Reason, RuleError
from tests.toy.game import TOY, Toy, ToyState


def drive(game: Game, players: int, seed: int) -> State[Any, Any]:
    """A deal played to the end by asking only the protocol: whose turn, what is legal."""
    rng = random.Random(seed)
    state = game.start(players, game.new_deal(players, rng.randrange(players), rng.randrange))
    for _ in range(2000):
        if state.finished:
            return state
        seat = state.turn
        options = list(state.legal_actions(seat)) if seat is not None else []
        if not options:  # a claim waiting for answers: anyone with something to do
            options = [a for s in game.seats for a in state.legal_actions(s)]
        action = rng.choice(options)
        assert game.codec.decode(action.seat, game.codec.encode(action)) == action  # type: ignore[attr-defined]
        state = state.apply(action)
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize(("name", "players"), [("bridge", 4), ("preferans", 3), ("pref", 4)])
def test_each_game_plays_through_the_protocol(name: str, players: int) -> None:
    game = find_game(name)
    assert isinstance(game, Game)
    for seed in range(15):
        state = drive(game, players, seed)
        assert isinstance(state, State) and state.finished
    match = game.new_match(players, {})
    assert not match.finished
    match.close()
    assert sum(match.settle()) == 0


def test_names_and_aliases() -> None:
    assert find_game("Бридж") is find_game("bridge")
    assert find_game("ПРЕФ") is find_game("preferans")
    with pytest.raises(RuleError) as refused:
        find_game("poker")
    assert refused.value.reason is Reason.BAD_GAME


def test_a_new_game_plugs_in_with_one_registration() -> None:
    if "toy" not in {g.name for g in games()}:
        register(TOY)
    game = find_game("игрушка")
    assert game.name == "toy" and isinstance(game, Game)
    final = drive(game, 2, 3)
    assert isinstance(final, ToyState) and sum(final.taken) == 4
    with pytest.raises(ValueError):
        register(Toy())  # one name, one game


def test_each_game_writes_its_robot_practice_in_its_own_unit() -> None:
    """A match a robot sat in goes to the game's own practice unit (``practice_<unit>``), so a
    new game's practice is never written in bridge's; bridge keeps ``practice``, as always."""
    from tests.toy.game import TOY

    assert find_game("bridge").practice_unit == "practice"
    assert find_game("preferans").practice_unit == "practice_whists"
    assert TOY.practice_unit == "practice_pips"
