"""Rubber bridge as a plug-in game: the deal behind the common protocol (seats as indices), its
codec (one vocabulary for actions), and the rubber as a match that settles to zero."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.bridge.calls import Call
from games.bridge.cards import Card, Deal, Seat
from games.bridge.deal import (
    Action,
    AnswerClaim,
    DealState,
    MakeCall,
    MakeClaim,
    PlayCard,
    SeatView,
    Undo,
)
from games.bridge.rubber import Rubber
from games.bridge.scoring import Rules
from games.core.protocols import RandBelow
from games.errors import NotationError, Reason


class BridgeCodec:
    """Action text that fits a button's data: ``call.1H``, ``call.P``, ``card.SQ``, ``claim.9``,
    ``answer.yes|no``, ``undo``."""

    def encode(self, action: Action) -> str:
        if isinstance(action, MakeCall):
            return f"call.{action.call}"
        if isinstance(action, PlayCard):
            return f"card.{action.card}"
        if isinstance(action, MakeClaim):
            return f"claim.{action.tricks}"
        if isinstance(action, AnswerClaim):
            return "answer.yes" if action.accept else "answer.no"
        return "undo"

    def decode(self, seat: int, text: str) -> Action:
        who = Seat(seat)
        kind, _, arg = text.partition(".")
        if kind == "call":
            return MakeCall(who, Call.parse(arg))
        if kind == "card":
            return PlayCard(who, Card.parse(arg))
        if kind == "claim" and arg.isascii() and arg.isdecimal() and len(arg) <= 2:
            return MakeClaim(who, int(arg))
        if kind == "answer" and arg in ("yes", "no"):
            return AnswerClaim(who, arg == "yes")
        if text == "undo":
            return Undo(who)
        raise NotationError(repr(text), Reason.BAD_CALL)


CODEC = BridgeCodec()


@dataclass(frozen=True, slots=True)
class BridgeState:
    """A bridge deal as the common protocol sees it: seats 0..3 (N E S W)."""

    deal: DealState

    @property
    def turn(self) -> int | None:
        actor = self.deal.actor  # declarer presses for dummy
        return None if actor is None else int(actor)

    @property
    def finished(self) -> bool:
        return self.deal.result is not None

    def legal_actions(self, seat: int) -> Sequence[Action]:
        who = Seat(seat)
        claim = self.deal.claim
        if claim is not None:
            if who in claim.responders and who not in claim.accepted:
                return (AnswerClaim(who, True), AnswerClaim(who, False))
            return ()
        calls: list[Action] = [MakeCall(who, c) for c in self.deal.legal_calls(who)]
        cards: list[Action] = [PlayCard(who, c) for c in sorted(self.deal.legal_cards(who))]
        return (*calls, *cards)

    def apply(self, action: Action) -> BridgeState:
        return BridgeState(self.deal.apply(action))

    def view(self, seat: int | None) -> SeatView:
        return self.deal.view(None if seat is None else Seat(seat))


class RubberMatch:
    """A rubber: finished when a side wins two games, closed early as Law 80 scores it, settled
    in points per seat (the winners' result to each winner, the losers' to each loser)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.rubber = Rubber(
            Rules.parse(str(options.get("rules", "modern"))),
            int(options.get("unfinished_part_score", 100)),
        )
        self.rounded = bool(options.get("rounded", True))

    @property
    def finished(self) -> bool:
        return self.rubber.finished

    def close(self) -> None:
        self.rubber.close()

    def settle(self) -> Sequence[Fraction | int]:
        winner, points = self.rubber.result(self.rounded)
        if winner is None:
            return [0, 0, 0, 0]
        return [points if seat.side is winner else -points for seat in Seat]


class Bridge:
    name: str = "bridge"
    aliases: tuple[str, ...] = ("бридж", "rubber", "роббер")
    codec = CODEC

    @property
    def seats(self) -> Sequence[int]:
        return tuple(int(s) for s in Seat)

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        return (0, 1, 2, 3)

    def new_deal(self, players: int, dealer: int, randbelow: RandBelow) -> Mapping[str, Any]:
        deal = Deal.shuffled(Seat(dealer), randbelow)
        return {"dealer": deal.dealer.name, "pbn": deal.to_pbn()}

    def start(self, players: int, payload: Mapping[str, Any]) -> BridgeState:
        deal = Deal.from_pbn(str(payload["pbn"]), Seat.parse(str(payload["dealer"])))
        return BridgeState(DealState.new(deal))

    def new_match(self, players: int, options: Mapping[str, Any]) -> RubberMatch:
        return RubberMatch(options)


BRIDGE = Bridge()
