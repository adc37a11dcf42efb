"""Rubber bridge as a plug-in game: the deal behind the common protocol (seats as indices), its
codec (one vocabulary for actions), and the rubber as a match that settles to zero."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from games.bridge.calls import Call, Contract
from games.bridge.cards import Card, Deal, Seat, Side, dealing
from games.bridge.chicago import CARRY, FIFTY, Chicago
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
from games.bridge.errors import BridgeReason
from games.bridge.rubber import Rubber, ScoreEntry, ScoreSheet
from games.bridge.scoring import Rules, honours
from games.core import fair
from games.core.base import GameBase
from games.core.protocols import Match, RandBelow, State
from games.core.review import DealReview
from games.errors import NotationError, Reason, RubberError


class BridgeCodec:
    """Action text that fits a button's data: ``call.1H``, ``call.P``, ``card.SQ``, ``claim.9``,
    ``answer.yes|no``, ``undo``. Every text reads back as the action it was made from:

    >>> [CODEC.encode(CODEC.decode(2, text)) for text in ("call.1H", "call.XX", "card.SQ")]
    ['call.1H', 'call.XX', 'card.SQ']
    >>> CODEC.decode(0, "claim.9"), CODEC.decode(1, "answer.no")
    (MakeClaim(seat=<Seat.N: 0>, tricks=9), AnswerClaim(seat=<Seat.E: 1>, accept=False))
    >>> CODEC.decode(0, "card.S1")
    Traceback (most recent call last):
    games.errors.NotationError: '1': bad_card
    """

    # The words, each written once; buttons are made from them too.
    @staticmethod
    def call(call: Call) -> str:
        return f"call.{call}"

    @staticmethod
    def card(card: Card) -> str:
        return f"card.{card}"

    @staticmethod
    def claim(tricks: int) -> str:
        return f"claim.{tricks}"

    @staticmethod
    def answer(accept: bool) -> str:
        return "answer.yes" if accept else "answer.no"

    def encode(self, action: Action) -> str:
        if isinstance(action, MakeCall):
            return self.call(action.call)
        if isinstance(action, PlayCard):
            return self.card(action.card)
        if isinstance(action, MakeClaim):
            return self.claim(action.tricks)
        if isinstance(action, AnswerClaim):
            return self.answer(action.accept)
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

    @property
    def dealer(self) -> int:
        return int(self.deal.deal.dealer)

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

    def may_act(self, seat: int) -> bool:
        """``legal_actions(seat)`` not empty, without listing them (``games.core.may_act``)."""
        who = Seat(seat)
        claim = self.deal.claim
        if claim is not None:
            return who in claim.responders and who not in claim.accepted
        return self.deal.may_act(who)

    def apply(self, action: Action) -> BridgeState:
        return BridgeState(self.deal.apply(action))

    def view(self, seat: int | None) -> SeatView:
        return self.deal.view(None if seat is None else Seat(seat))


RUBBER, CHICAGO = "rubber", "chicago"  # the forms a bridge match takes (``form``)
MatchSheet = Rubber | Chicago  # a bridge match's sheet, whichever its form


def form_of(options: Mapping[str, Any]) -> str:
    """The table's form of match: a rubber, or a Chicago (RULES.md)."""
    form = str(options.get("form", RUBBER))
    if form not in (RUBBER, CHICAGO):
        raise NotationError(repr(form), BridgeReason.BAD_RULES)
    return form


class RubberMatch:
    """A rubber (finished when a side wins two games, closed early as Law 80 scores it) or a
    Chicago (four deals), settled in points per seat: the winners' result to each winner, the
    losers' to each loser. ``rubber`` is its sheet either way, read alike.

    Options: ``form`` (rubber, chicago), ``rules`` (modern, classic), the rubber's
    ``unfinished_part_score`` (50, 100), the Chicago's ``chicago_part`` (carry, 50), and the
    group's ``rounding`` (``hundreds`` as RULES.md says, or ``exact``)."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.form = form_of(options)
        self.rubber: MatchSheet = Chicago() if self.form == CHICAGO else Rubber()
        self.rounded = True
        self.configure(options)

    @property
    def chicago(self) -> Chicago | None:
        return self.rubber if isinstance(self.rubber, Chicago) else None

    def configure(self, options: Mapping[str, Any]) -> None:
        """Between deals: a rubber's scoring may change; a Chicago's form and scoring are
        fixed once its first deal is written (RubberError OPTIONS_LOCKED)."""
        if form_of(options) != self.form:
            raise RubberError("a match's form is fixed until it ends", Reason.OPTIONS_LOCKED)
        rules = Rules.parse(str(options.get("rules", "modern")))
        self.rounded = str(options.get("rounding", "hundreds")) != "exact"
        sheet = self.rubber
        if isinstance(sheet, Chicago):
            part = str(options.get("chicago_part", CARRY))
            if part not in (CARRY, FIFTY):
                raise NotationError(repr(part), BridgeReason.BAD_RULES)
            if sheet.records and (rules, part) != (sheet.rules, sheet.part_score):
                raise RubberError("a Chicago's scoring is fixed", Reason.OPTIONS_LOCKED)
            sheet.rules, sheet.part_score = rules, part
            return
        sheet.rules = rules
        unfinished = int(options.get("unfinished_part_score", 100))
        if unfinished not in (50, 100):
            raise NotationError(repr(unfinished), BridgeReason.BAD_RULES)
        sheet.unfinished_part_score = unfinished

    @property
    def finished(self) -> bool:
        return self.rubber.finished

    def record(self, outcome: Mapping[str, Any]) -> list[ScoreEntry]:
        """Score one deal's outcome (online or entered by a scorekeeper) into the rubber. A
        Chicago's first deal says who dealt it: vulnerability follows the dealer from there."""
        played = Outcome.from_payload(outcome)
        sheet = self.rubber
        if isinstance(sheet, Chicago) and not sheet.records and played.dealer is not None:
            sheet.first_dealer = played.dealer
        return played.write(sheet)

    def close(self) -> None:
        self.rubber.close()

    def result(self) -> tuple[Side | None, int]:
        return self.rubber.result(self.rounded)

    def settle(self) -> Sequence[Fraction | int]:
        winner, points = self.result()
        if winner is None:
            return [0, 0, 0, 0]
        return [points if seat.side is winner else -points for seat in Seat]

    def summary(self) -> dict[str, Any]:
        winner, points = self.result()
        summary: dict[str, Any] = {"winner": None if winner is None else str(winner)}
        summary["points"] = points
        if self.form == CHICAGO:
            summary["form"] = CHICAGO  # /history names it
        return summary


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished deal as its rubber records it, however it was played: online (from the
    deal's state) or with real cards (a scorekeeper's entry). ``contract`` None: passed out."""

    contract: Contract | None
    declarer: Seat | None = None
    tricks: int = 0  # taken by the declarer's side
    honours: Mapping[Side, int] = field(default_factory=dict)
    dealer: Seat | None = None  # who dealt it (online deals; a Chicago's vulnerability)

    @classmethod
    def of(cls, state: DealState) -> Outcome:
        result = state.result
        assert result is not None
        dealer = state.deal.dealer
        if result.contract is None or result.declarer is None:
            return cls(None, dealer=dealer)
        held = honours(state.deal, result.contract.strain)
        return cls(result.contract, result.declarer, result.declarer_tricks, held, dealer)

    def write(self, rubber: ScoreSheet) -> list[ScoreEntry]:
        if self.contract is None or self.declarer is None:
            return rubber.record_passed_out()
        held = {str(side): points for side, points in self.honours.items() if points}
        return rubber.record(self.declarer.side, str(self.contract), self.tricks, held)

    def to_payload(self) -> dict[str, Any]:
        """As the deal's result is stored (the shape stored results have always had, and the
        dealer where it is known)."""
        dealt = {} if self.dealer is None else {"dealer": self.dealer.name}
        if self.contract is None or self.declarer is None:
            return {"contract": None, "declarer": None, "tricks": 0, "honours": {}, **dealt}
        return {
            "contract": str(self.contract),
            "declarer": self.declarer.name,
            "tricks": self.tricks,
            "honours": {str(side): points for side, points in self.honours.items() if points},
            **dealt,
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Outcome:
        dealt = payload.get("dealer")
        dealer = None if dealt is None else Seat.parse(str(dealt))
        if payload.get("contract") is None:
            return cls(None, dealer=dealer)
        return cls(
            Contract.parse(str(payload["contract"])),
            Seat.parse(str(payload["declarer"])),
            int(payload["tricks"]),
            {Side(str(side)): int(points) for side, points in payload.get("honours", {}).items()},
            dealer,
        )


def outcome(state: DealState) -> dict[str, Any]:
    """A finished deal as its rubber records it: contract, declarer, tricks and honours."""
    return Outcome.of(state).to_payload()


@dataclass(frozen=True, slots=True)
class ClaimRejected:
    """A claim was refused: play goes on (the bridge UI says so in the group)."""

    claimant: Seat
    by: Seat


class Bridge(GameBase):
    name: str = "bridge"
    aliases: tuple[str, ...] = ("бридж", "rubber", "роббер")
    unit: str = "points"
    codec = CODEC

    @property
    def practice_unit(self) -> str:
        """Bridge's practice was written as ``practice`` before any other game had one."""
        return "practice"

    @property
    def seats(self) -> Sequence[int]:
        return tuple(int(s) for s in Seat)

    def new_deal(
        self,
        players: int,
        dealer: int,
        randbelow: RandBelow,
        options: Mapping[str, Any] | None = None,
    ) -> Mapping[str, Any]:
        deal = Deal.shuffled(Seat(dealer), randbelow)
        return {"dealer": deal.dealer.name, "pbn": deal.to_pbn()}

    def dealing(self, players: int, dealer: int) -> fair.Dealing:
        return dealing(Seat(dealer))

    def start(self, players: int, payload: Mapping[str, Any]) -> BridgeState:
        deal = Deal.from_pbn(str(payload["pbn"]), Seat.parse(str(payload["dealer"])))
        return BridgeState(DealState.new(deal))

    def new_match(self, players: int, options: Mapping[str, Any]) -> RubberMatch:
        return RubberMatch(options)

    def review(
        self, state: State[Any, Any], before: Match, solved: object = None
    ) -> DealReview | None:
        """Solved with DDS, so imported here: only the processes that review load it."""
        from games.bridge.review import review

        assert isinstance(before, RubberMatch)
        rubber = before.rubber
        ns, ew = rubber.vulnerable(Side.NS), rubber.vulnerable(Side.EW)
        return review(_deal(state), ns, ew, solved)

    def outcome(self, state: State[Any, Any]) -> dict[str, Any]:
        return outcome(_deal(state))

    def next_dealer(self, dealer: int, players: int, match: Match | None = None) -> int:
        """Clockwise; at a Chicago a passed-out deal is dealt again by the same dealer."""
        if isinstance(match, RubberMatch) and match.chicago is not None:
            return int(match.chicago.dealer)
        return int(Seat(dealer).next)

    def undo(self, state: State[Any, Any], seat: int) -> Action:
        action = Undo(Seat(seat))
        _deal(state).apply(action)  # RuleError if it is not theirs to take back, or too late
        return action

    def undo_voters(self, state: State[Any, Any], seat: int) -> frozenset[int]:
        return frozenset({int(Seat(seat).lho), int(Seat(seat).rho)})

    def by_consent(self, action: Any) -> bool:
        return isinstance(action, Undo)

    def notices(
        self, before: State[Any, Any], after: State[Any, Any], seat: int
    ) -> tuple[Any, ...]:
        old, new = _deal(before), _deal(after)
        if old.claim is not None and new.claim is None and new.result is None:
            return (ClaimRejected(old.claim.claimant, Seat(seat)),)
        return ()

    def to_event(self, action: Action) -> tuple[str, dict[str, Any]]:
        return to_event(action)

    def from_event(self, kind: str, payload: Mapping[str, Any]) -> Action | None:
        return from_event(kind, payload)


RULE_KINDS = ("call", "card", "claim", "claim_answer", "undo")


def to_event(action: Action) -> tuple[str, dict[str, Any]]:
    """(kind, payload) for one action: the kinds bridge logs have had from the start."""
    seat = action.seat.name
    if isinstance(action, MakeCall):
        return "call", {"seat": seat, "call": str(action.call)}
    if isinstance(action, PlayCard):
        return "card", {"seat": seat, "card": str(action.card)}
    if isinstance(action, MakeClaim):
        return "claim", {"seat": seat, "tricks": action.tricks}
    if isinstance(action, AnswerClaim):
        return "claim_answer", {"seat": seat, "accept": action.accept}
    return "undo", {"seat": seat}


def from_event(kind: str, payload: Mapping[str, Any]) -> Action | None:
    if kind not in RULE_KINDS:
        return None
    seat = Seat.parse(str(payload["seat"]))
    if kind == "call":
        return MakeCall(seat, Call.parse(str(payload["call"])))
    if kind == "card":
        return PlayCard(seat, Card.parse(str(payload["card"])))
    if kind == "claim":
        return MakeClaim(seat, int(payload["tricks"]))
    if kind == "claim_answer":
        return AnswerClaim(seat, bool(payload["accept"]))
    return Undo(seat)


def _deal(state: State[Any, Any]) -> DealState:
    assert isinstance(state, BridgeState)
    return state.deal


BRIDGE = Bridge()
