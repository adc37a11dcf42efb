"""A test-only game: two players, four cards each from eight, the higher card takes the trick
(the second to play must beat the first card if they can: the toy's own rule and refusal);
a match is won by the first to ``goal`` tricks ahead (three unless the table sets it), settled
in pips, its own unit. It stands for "a new game": it is written against ``games.core`` alone
(``GameBase`` gives what it does not change) and registered from the tests with one line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from games.core import fair
from games.core.base import GameBase
from games.core.protocols import RandBelow, State
from games.errors import IllegalPlay, NotationError, OutOfTurn, Reason


class ToyReason(StrEnum):
    """The toy's own refusal (its words: ``reason.must_beat`` in its catalogue block)."""

    MUST_BEAT = "must_beat"


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
    dealer: int = 0

    @property
    def turn(self) -> int | None:
        return None if self.finished else (self.leader + len(self.table)) % 2

    @property
    def finished(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def legal_actions(self, seat: int) -> Sequence[Lay]:
        if seat != self.turn:
            return []
        held = sorted(self.hands[seat])
        higher = [c for c in held if self.table and c > self.table[0]]
        return [Lay(seat, c) for c in higher or held]

    def apply(self, action: Lay) -> ToyState:
        if action.seat != self.turn:
            raise OutOfTurn(repr(action), Reason.NOT_YOUR_TURN)
        if action.card not in self.hands[action.seat]:
            raise IllegalPlay(repr(action), Reason.CARD_NOT_HELD)
        if action not in self.legal_actions(action.seat):
            raise IllegalPlay(repr(action), ToyReason.MUST_BEAT)
        hands = list(self.hands)
        hands[action.seat] = hands[action.seat] - {action.card}
        table = (*self.table, action.card)
        if len(table) < 2:
            return replace(self, hands=(hands[0], hands[1]), table=table)
        winner = (self.leader + table.index(max(table))) % 2
        taken = list(self.taken)
        taken[winner] += 1
        return replace(
            self, hands=(hands[0], hands[1]), leader=winner, table=(), taken=(taken[0], taken[1])
        )

    def view(self, seat: int | None) -> Mapping[str, Any]:
        hand = self.hands[seat] if seat is not None else frozenset()
        return {"hand": hand, "table": self.table, "taken": self.taken, "turn": self.turn}


class ToyCodec:
    def encode(self, action: Lay) -> str:
        return f"lay.{action.card}"

    def decode(self, seat: int, text: str) -> Lay:
        kind, _, arg = text.partition(".")
        if kind != "lay" or not arg.isdecimal() or len(arg) > 1:
            raise NotationError(repr(text), Reason.BAD_CALL)
        return Lay(seat, int(arg))


GOAL = 3  # tricks ahead that win a match, unless the table's options say otherwise


def goal_of(options: Mapping[str, Any]) -> int:
    return int(options.get("goal", GOAL))


class ToyMatch:
    def __init__(self, goal: int = GOAL) -> None:
        self.score = [0, 0]
        self.closed = False
        self.goal = goal

    @property
    def finished(self) -> bool:
        return self.closed or abs(self.score[0] - self.score[1]) >= self.goal

    def record(self, outcome: Mapping[str, Any]) -> list[int]:
        taken = [int(n) for n in outcome["taken"]]
        self.score = [self.score[0] + taken[0], self.score[1] + taken[1]]
        return taken

    def configure(self, options: Mapping[str, Any]) -> None:
        self.goal = goal_of(options)

    def close(self) -> None:
        self.closed = True

    def settle(self) -> Sequence[Fraction | int]:
        diff = self.score[0] - self.score[1]
        return [diff, -diff]

    def summary(self) -> dict[str, Any]:
        return {"score": list(self.score), "goal": self.goal}


def move(
    view: Mapping[str, Any], seed: int, budget_s: float, cores: int = 2, robots: Any = ()
) -> Lay:
    """The toy's robot (``RobotMove``'s signature, run in a worker process): the lowest card
    it may lay, beating the card led when it can."""
    hand, table = sorted(view["hand"]), tuple(view["table"])
    higher = [c for c in hand if table and c > table[0]]
    return Lay(int(view["turn"]), (higher or hand)[0])


class Toy(GameBase):
    """Only what differs from ``GameBase``: its name, unit, seats, deal and match."""

    name: str = "toy"
    aliases: tuple[str, ...] = ("игрушка",)
    unit: str = "pips"
    codec = ToyCodec()

    @property
    def seats(self) -> Sequence[int]:
        return (0, 1)

    def new_deal(
        self,
        players: int,
        dealer: int,
        randbelow: RandBelow,
        options: Mapping[str, Any] | None = None,
    ) -> Mapping[str, Any]:
        dealt = fair.deal(self.dealing(players, dealer), randbelow)
        return {"hands": [[int(c) for c in dealt[h]] for h in ("0", "1")], "dealer": dealer}

    def dealing(self, players: int, dealer: int) -> fair.Dealing:
        return fair.Dealing("0,1,2,3,4,5,6,7", "0*4,1*4")

    def start(self, players: int, payload: Mapping[str, Any]) -> ToyState:
        a, b = payload["hands"]
        dealer = int(payload["dealer"])
        return ToyState((frozenset(a), frozenset(b)), 1 - dealer, dealer=dealer)

    def new_match(self, players: int, options: Mapping[str, Any]) -> ToyMatch:
        return ToyMatch(goal_of(options))

    def outcome(self, state: State[Any, Any]) -> dict[str, Any]:
        assert isinstance(state, ToyState)
        return {"taken": list(state.taken)}


TOY = Toy()
