"""Games as plug-ins: every game found by name and driven through the same protocol, and a tiny
test-only game registered from here to show a new game needs nothing but itself and one line."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest

from games.core.protocols import Game, RandBelow, State
from games.core.registry import find_game, games, register
from games.core.shuffle import shuffled
from games.errors import OutOfTurn, Reason, RuleError


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


# --- a toy game: two players, four cards each, higher card takes the trick ---------------------


@dataclass(frozen=True, slots=True)
class Lay:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class ToyState:
    hands: tuple[frozenset[int], frozenset[int]]
    leader: int = 0
    table: tuple[int, ...] = ()
    taken: tuple[int, int] = (0, 0)

    @property
    def turn(self) -> int | None:
        return None if self.finished else (self.leader + len(self.table)) % 2

    @property
    def finished(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def legal_actions(self, seat: int) -> Sequence[Lay]:
        return [Lay(seat, c) for c in sorted(self.hands[seat])] if seat == self.turn else []

    def apply(self, action: Lay) -> ToyState:
        if action not in self.legal_actions(action.seat):
            raise OutOfTurn(repr(action), Reason.NOT_YOUR_TURN)
        hands = list(self.hands)
        hands[action.seat] = hands[action.seat] - {action.card}
        table = (*self.table, action.card)
        if len(table) < 2:
            return replace(self, hands=(hands[0], hands[1]), table=table)
        winner = (self.leader + table.index(max(table))) % 2
        taken = list(self.taken)
        taken[winner] += 1
        return ToyState((hands[0], hands[1]), winner, (), (taken[0], taken[1]))

    def view(self, seat: int | None) -> Mapping[str, Any]:
        return {"hand": self.hands[seat] if seat is not None else frozenset(), "table": self.table}


class ToyCodec:
    def encode(self, action: Lay) -> str:
        return f"lay.{action.card}"

    def decode(self, seat: int, text: str) -> Lay:
        return Lay(seat, int(text.removeprefix("lay.")))


class ToyMatch:
    def __init__(self) -> None:
        self.score = [0, 0]
        self.closed = False

    @property
    def finished(self) -> bool:
        return self.closed or max(self.score) >= 3

    def close(self) -> None:
        self.closed = True

    def settle(self) -> Sequence[Fraction | int]:
        diff = self.score[0] - self.score[1]
        return [diff, -diff]


class Toy:
    name: str = "toy"
    aliases: tuple[str, ...] = ("игрушка",)
    codec = ToyCodec()

    @property
    def seats(self) -> Sequence[int]:
        return (0, 1)

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        return (0, 1)

    def new_deal(self, players: int, dealer: int, randbelow: RandBelow) -> Mapping[str, Any]:
        cards = shuffled(range(8), randbelow)
        return {"hands": [cards[:4], cards[4:]], "leader": dealer}

    def start(self, players: int, payload: Mapping[str, Any]) -> ToyState:
        a, b = payload["hands"]
        return ToyState((frozenset(a), frozenset(b)), int(payload["leader"]))

    def new_match(self, players: int, options: Mapping[str, Any]) -> ToyMatch:
        return ToyMatch()


def test_a_new_game_plugs_in_with_one_registration() -> None:
    if "toy" not in {g.name for g in games()}:
        register(Toy())
    game = find_game("игрушка")
    assert game.name == "toy" and isinstance(game, Game)
    final = drive(game, 2, 3)
    assert isinstance(final, ToyState) and sum(final.taken) == 4
    with pytest.raises(ValueError):
        register(Toy())  # one name, one game
