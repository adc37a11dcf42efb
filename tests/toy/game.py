"""A test-only game: two players, four cards each from eight, the higher card takes the trick;
a match is won by the first to three tricks ahead. It stands for "a second game": it is written
against ``games.core`` alone and registered from the tests with one line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from games.core.protocols import RandBelow, State, codec_action, codec_event
from games.core.shuffle import shuffled
from games.errors import NotationError, OutOfTurn, Reason


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


class ToyMatch:
    def __init__(self) -> None:
        self.score = [0, 0]
        self.closed = False

    @property
    def finished(self) -> bool:
        return self.closed or abs(self.score[0] - self.score[1]) >= 3

    def record(self, outcome: Mapping[str, Any]) -> list[int]:
        taken = [int(n) for n in outcome["taken"]]
        self.score = [self.score[0] + taken[0], self.score[1] + taken[1]]
        return taken

    def configure(self, options: Mapping[str, Any]) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def settle(self) -> Sequence[Fraction | int]:
        diff = self.score[0] - self.score[1]
        return [diff, -diff]

    def summary(self) -> dict[str, Any]:
        return {"score": list(self.score)}


class Toy:
    name: str = "toy"
    aliases: tuple[str, ...] = ("игрушка",)
    unit: str = "points"
    codec = ToyCodec()

    @property
    def seats(self) -> Sequence[int]:
        return (0, 1)

    def table_size(self, options: Mapping[str, Any]) -> int:
        return 2

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        return (0, 1)

    def new_deal(
        self,
        players: int,
        dealer: int,
        randbelow: RandBelow,
        options: Mapping[str, Any] | None = None,
    ) -> Mapping[str, Any]:
        cards = shuffled(range(8), randbelow)
        return {"hands": [cards[:4], cards[4:]], "dealer": dealer}

    def start(self, players: int, payload: Mapping[str, Any]) -> ToyState:
        a, b = payload["hands"]
        dealer = int(payload["dealer"])
        return ToyState((frozenset(a), frozenset(b)), 1 - dealer, dealer=dealer)

    def new_match(self, players: int, options: Mapping[str, Any]) -> ToyMatch:
        return ToyMatch()

    def outcome(self, state: State[Any, Any]) -> dict[str, Any]:
        assert isinstance(state, ToyState)
        return {"taken": list(state.taken)}

    def next_dealer(self, dealer: int, players: int) -> int:
        return 1 - dealer

    def undo(self, state: State[Any, Any], seat: int) -> Any:
        raise OutOfTurn("undo", Reason.NOTHING_TO_UNDO)

    def undo_voters(self, state: State[Any, Any], seat: int) -> frozenset[int]:
        return frozenset({1 - seat})

    def by_consent(self, action: Any) -> bool:
        return False  # the toy has no take-back

    def notices(
        self, before: State[Any, Any], after: State[Any, Any], seat: int
    ) -> tuple[Any, ...]:
        return ()

    def to_event(self, action: Lay) -> tuple[str, dict[str, Any]]:
        return codec_event(self.codec, action.seat, action)

    def from_event(self, kind: str, payload: Mapping[str, Any]) -> Lay | None:
        action: Lay | None = codec_action(self.codec, kind, payload)
        return action


TOY = Toy()
