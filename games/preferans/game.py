"""Preferans as a plug-in game: its codec (one vocabulary for actions), its match (the pulka),
and the entry the registry finds by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.core import fair
from games.core.base import GameBase
from games.core.protocols import Match, RandBelow, State
from games.core.review import DealReview
from games.errors import NotationError, PulkaError, Reason
from games.preferans.bids import Bid
from games.preferans.cards import Card, Deal, active_seats, dealing
from games.preferans.conditions import Conditions, from_options
from games.preferans.deal import (
    Action,
    AnswerClaim,
    Call,
    DealState,
    Declare,
    Discard,
    Kind,
    MakeClaim,
    Play,
    Redrop,
    Result,
    Show,
    Undo,
    Whist,
)
from games.preferans.errors import PrefReason
from games.preferans.pulka import Pulka
from games.preferans.settlement import Variant


class PreferansCodec:
    """Action text, ASCII and dot-separated so it fits a button's data: ``bid.6S``, ``bid.P``,
    ``bid.MIS``, ``drop.SA.H7``, ``redrop``, ``name.7H``, ``whist.whist|pass|half``,
    ``show.open|closed``, ``card.SA``, ``claim.3``, ``answer.yes|no``. Every text reads back
    as the action it was made from:

    >>> texts = ("bid.6S", "bid.P", "bid.MIS", "drop.SA.H7", "name.7H", "whist.half", "card.D10")
    >>> [CODEC.encode(CODEC.decode(1, text)) for text in texts] == list(texts)
    True
    >>> CODEC.decode(0, "drop.SA")
    Traceback (most recent call last):
    games.errors.NotationError: 'drop.SA': bad_discard
    """

    def encode(self, action: Action) -> str:
        if isinstance(action, Call):
            return f"bid.{'P' if action.bid is None else action.bid}"
        if isinstance(action, Discard):
            return "drop." + ".".join(str(c) for c in action.cards)
        if isinstance(action, Redrop):
            return "redrop"
        if isinstance(action, Declare):
            return f"name.{action.contract}"
        if isinstance(action, Whist):
            return f"whist.{action.word}"
        if isinstance(action, Show):
            return "show.open" if action.open else "show.closed"
        if isinstance(action, MakeClaim):
            return f"claim.{action.tricks}"
        if isinstance(action, AnswerClaim):
            return "answer.yes" if action.accept else "answer.no"
        if isinstance(action, Undo):
            return "undo"
        return f"card.{action.card}"

    def decode(self, seat: int, text: str) -> Action:
        kind, _, arg = text.partition(".")
        if kind == "bid":
            return Call(seat, None if arg.upper() == "P" else Bid.parse(arg))
        if kind == "drop":
            cards = [Card.parse(t) for t in arg.split(".")]
            if len(cards) != 2:
                raise NotationError(repr(text), PrefReason.BAD_DISCARD)
            return Discard(seat, (cards[0], cards[1]))
        if kind == "name":
            return Declare(seat, Bid.parse(arg))
        if kind == "whist" and arg in ("whist", "pass", "half"):
            return Whist(seat, arg)
        if kind == "show" and arg in ("open", "closed"):
            return Show(seat, arg == "open")
        if kind == "card":
            return Play(seat, Card.parse(arg))
        if kind == "claim" and arg.isascii() and arg.isdecimal() and len(arg) <= 2:
            return MakeClaim(seat, int(arg))
        if kind == "answer" and arg in ("yes", "no"):
            return AnswerClaim(seat, arg == "yes")
        if text == "undo":
            return Undo(seat)
        if text == "redrop":
            return Redrop(seat)
        raise NotationError(repr(text), Reason.BAD_CALL)


CODEC = PreferansCodec()


def write(pulka: Pulka, result: Result, dealer: int) -> None:
    """Write a finished deal's result on the pulka (the same call a scorekeeper's entry makes)."""
    seat_out = dealer if pulka.players == 4 else None
    if result.kind is Kind.RASPASY:
        assert result.tricks is not None
        pulka.raspasy(dict(result.tricks), dealer=seat_out)
    elif result.kind is Kind.MISERE:
        assert result.declarer is not None and result.tricks is not None
        pulka.misere(result.declarer, result.tricks[result.declarer], dealer=seat_out)
    else:
        assert result.declarer is not None and result.contract is not None
        tricks = None if result.tricks is None else dict(result.tricks)
        pulka.game(result.declarer, result.contract, dict(result.whist), tricks, dealer=seat_out)


class PulkaMatch:
    """The pulka as a match: finished by §6, closed early by consent, settled in whists."""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.pulka = Pulka(
            players=players,
            target=int(options.get("target", 10)),
            variant=str(options.get("variant", "sochi")),
            conditions=from_options(options),
        )

    @property
    def finished(self) -> bool:
        return self.pulka.finished

    def record(self, outcome: Mapping[str, Any]) -> None:
        write(self.pulka, Result.from_payload(outcome), int(outcome["dealer"]))

    def configure(self, options: Mapping[str, Any]) -> None:
        """The pulka's target, variant, players and conditions are fixed once it starts
        (PREFERANS.md §8): PulkaError(OPTIONS_LOCKED) for a change, so that a table never
        shows settings its pulka is not played by."""
        pulka = self.pulka
        variant = Variant.parse(options.get("variant", pulka.variant))
        wanted = (
            int(options.get("target", pulka.target)),
            variant,
            int(options.get("players", pulka.players)),
            Conditions.of(variant, from_options(options)),
        )
        if wanted != (pulka.target, pulka.variant, pulka.players, pulka.conditions):
            raise PulkaError("the pulka's settings are fixed until it ends", Reason.OPTIONS_LOCKED)

    def close(self) -> None:
        self.pulka.close()

    def settle(self) -> Sequence[Fraction | int]:
        """Whole whists (§7's exact balances, rounded so that nothing is lost): the ledger
        keeps whole units."""
        return self.pulka.whole()

    def summary(self) -> dict[str, Any]:
        state = self.pulka.state()
        return {
            "pool": list(state["pool"]),
            "gora": list(state["gora"]),
            "balances": [str(b) for b in self.pulka.balances()],
            "whole": self.pulka.whole(),
        }


class Preferans(GameBase):
    name: str = "preferans"
    aliases: tuple[str, ...] = ("pref", "преферанс", "преф")
    unit: str = "whists"
    codec = CODEC

    @property
    def seats(self) -> Sequence[int]:
        return (0, 1, 2, 3)  # three, and an optional fourth who sits out when dealing

    def table_size(self, options: Mapping[str, Any]) -> int:
        players = int(options.get("players", 3))
        if players not in (3, 4):
            raise NotationError(repr(players), Reason.BAD_GAME)
        return players

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        return active_seats(players, dealer)

    def new_deal(
        self,
        players: int,
        dealer: int,
        randbelow: RandBelow,
        options: Mapping[str, Any] | None = None,
    ) -> Mapping[str, Any]:
        """The deal and its rules, so that its log alone replays it: the variant, the
        conditions in full, and the lowest level its auction may bid (§8's exit, from how
        many raspasy in a row ``deal_rules`` found)."""
        options = options or {}
        payload = Deal.shuffled(players, dealer, randbelow).to_payload()
        variant = Variant.parse(str(options.get("variant", "sochi")))
        rules = Conditions.of_table(options)
        floor = rules.lowest(int(options.get("raspasy_run", 0)))
        return {**payload, "variant": variant.value, "conditions": rules.text(), "floor": floor}

    def dealing(self, players: int, dealer: int) -> fair.Dealing:
        return dealing(players, dealer)

    def start(self, players: int, payload: Mapping[str, Any]) -> DealState:
        """A deal as logged; one logged before conditions existed plays by its preset."""
        deal = Deal.from_payload(payload)
        if deal.players != players:
            raise NotationError("players", Reason.BAD_DEAL)
        variant = Variant.parse(str(payload.get("variant", "sochi")))
        switches = payload.get("conditions") or {}
        if not isinstance(switches, Mapping):
            raise NotationError("conditions", Reason.BAD_DEAL)
        floor = payload.get("floor", 6)
        if not isinstance(floor, int) or isinstance(floor, bool):
            raise NotationError("floor", Reason.BAD_DEAL)
        return DealState.new(deal, variant, Conditions.of(variant, switches), floor)

    def deal_rules(self, match: Match) -> Mapping[str, Any]:
        """How many raspasy in a row the pulka has written: the next deal's exit (§8)."""
        assert isinstance(match, PulkaMatch)
        return {"raspasy_run": match.pulka.raspasy_run}

    def new_match(self, players: int, options: Mapping[str, Any]) -> PulkaMatch:
        return PulkaMatch(players, options)

    def review(
        self, state: State[Any, Any], before: Match, solved: object = None
    ) -> DealReview | None:
        """Solved by the compiled solver, so imported here: only the processes that review
        load it. ``solved`` is not read: the analysis a review repeats costs it about 20 ms
        here, against bridge's 230 ms."""
        from games.preferans.review import review

        assert isinstance(state, DealState)
        return review(state)

    def outcome(self, state: State[Any, Any]) -> dict[str, Any]:
        assert isinstance(state, DealState) and state.result is not None
        return {**state.result.to_payload(), "dealer": state.deal.dealer}

    def undo(self, state: State[Any, Any], seat: int) -> Action:
        """Take back ``seat``'s last action (OutOfTurn if it is not theirs, or too late)."""
        assert isinstance(state, DealState)
        action = Undo(seat)
        state.apply(action)
        return action

    def undo_voters(self, state: State[Any, Any], seat: int) -> frozenset[int]:
        assert isinstance(state, DealState)
        return frozenset(s for s in state.deal.active if s != seat)

    def by_consent(self, action: Any) -> bool:
        return isinstance(action, Undo)

    def notices(
        self, before: State[Any, Any], after: State[Any, Any], seat: int
    ) -> tuple[Any, ...]:
        assert isinstance(before, DealState) and isinstance(after, DealState)
        if before.claim is not None and after.claim is None and after.result is None:
            return (ClaimRejected(before.claim.claimant, seat),)
        return ()


@dataclass(frozen=True, slots=True)
class ClaimRejected:
    """A claim was refused: play goes on (the Preferans UI says so in the group)."""

    claimant: int
    by: int


PREFERANS = Preferans()
