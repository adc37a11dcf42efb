"""One deal in progress: auction, play, claims, undo, and what each seat may see.

``DealState`` is an immutable value; ``apply(action)`` returns the next state or raises a
RuleError with a reason. ``DealState.replay(deal, actions)`` rebuilds any state from its actions,
which is how the bot restores a table from its event log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, TypeVar

from games.bridge.auction import AuctionState
from games.bridge.calls import Call, Contract
from games.bridge.cards import Card, Deal, Seat, Side, Suit
from games.bridge.errors import BridgeReason
from games.bridge.play import PlayState, Trick
from games.errors import IllegalClaim, IllegalPlay, OutOfTurn, Reason

T = TypeVar("T")


class Phase(Enum):
    AUCTION = "auction"
    PLAY = "play"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class MakeCall:
    seat: Seat
    call: Call


@dataclass(frozen=True, slots=True)
class PlayCard:
    """``seat`` is who acts: declarer plays dummy's cards."""

    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class MakeClaim:
    """``tricks`` is how many of the remaining tricks the claimant's side will take (0 concedes)."""

    seat: Seat
    tricks: int


@dataclass(frozen=True, slots=True)
class AnswerClaim:
    seat: Seat
    accept: bool


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back ``seat``'s last call or card before anyone acted after it (agreed at the table)."""

    seat: Seat


Action = MakeCall | PlayCard | MakeClaim | AnswerClaim | Undo


@dataclass(frozen=True, slots=True)
class Claim:
    """A pending claim or concession and who has accepted it so far."""

    claimant: Seat
    tricks: int
    responders: frozenset[Seat]
    accepted: frozenset[Seat] = frozenset()


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: passed out, or a contract with declarer's total tricks."""

    contract: Contract | None
    declarer: Seat | None
    declarer_tricks: int = 0
    claimed: bool = False

    @property
    def passed_out(self) -> bool:
        return self.contract is None

    @property
    def declaring_side(self) -> Side | None:
        return None if self.declarer is None else self.declarer.side


@dataclass(frozen=True, slots=True)
class DealState:
    """Everything about one deal so far. Build with ``DealState.new`` or ``replay``."""

    deal: Deal
    auction: AuctionState
    play: PlayState | None = None
    claim: Claim | None = None
    result: DealResult | None = None
    history: tuple[Action, ...] = field(default=())
    # What was worked out from this (immutable) state once, for the next ask: a press asks
    # whose turn it is a dozen times and draws up to five views of the same state. Not part
    # of the value (equality, hash, repr), and every new state starts without it.
    _memo: dict[str, Any] = field(init=False, default_factory=dict, compare=False, repr=False)

    def _once(self, key: str, work: Callable[[], T]) -> T:
        memo = self._memo
        if key not in memo:
            memo[key] = work()
        return memo[key]  # type: ignore[no-any-return]

    @classmethod
    def new(cls, deal: Deal) -> DealState:
        return cls(deal, AuctionState(deal.dealer))

    @classmethod
    def replay(cls, deal: Deal, actions: Iterable[Action]) -> DealState:
        state = cls.new(deal)
        for action in actions:
            state = state.apply(action)
        return state

    # --- what the table looks like -------------------------------------------------------

    @property
    def phase(self) -> Phase:
        if self.result is not None:
            return Phase.FINISHED
        if self.play is not None:
            return Phase.PLAY
        return Phase.AUCTION

    @property
    def contract(self) -> Contract | None:
        return self._once("contract", lambda: self.auction.contract)

    @property
    def declarer(self) -> Seat | None:
        return self._once("declarer", lambda: self.auction.declarer)

    @property
    def dummy(self) -> Seat | None:
        return None if self.play is None else self.play.dummy

    @property
    def turn(self) -> Seat | None:
        """The seat whose call or card is next (dummy's seat when a card from dummy is due)."""
        return self._once("turn", self._turn)

    def _turn(self) -> Seat | None:
        if self.result is not None or self.claim is not None:
            return None
        if self.play is not None:
            return self.play.turn
        return self.auction.turn

    @property
    def actor(self) -> Seat | None:
        """Who must act next: the seat in turn, or declarer when it is dummy's turn."""
        return self._once("actor", self._actor)

    def _actor(self) -> Seat | None:
        turn = self.turn
        if turn is None or self.play is None:
            return turn
        return self.play.declarer if turn is self.play.dummy else turn

    @property
    def dummy_exposed(self) -> bool:
        return self.play is not None and self.play.opening_lead_made

    def legal_calls(self, seat: Seat) -> tuple[Call, ...]:
        if self.phase is not Phase.AUCTION or self.auction.turn is not seat:
            return ()
        return self.auction.legal_calls()

    def legal_cards(self, seat: Seat) -> frozenset[Card]:
        """The cards ``seat`` may play now, dummy's included when declarer acts for dummy."""
        if self.play is None or self.result is not None or self.claim is not None:
            return frozenset()
        if self.actor is not seat:
            return frozenset()
        return self.play.legal_cards()

    def may_act(self, seat: Seat) -> bool:
        """Whether ``seat`` has a call or a card to make now (``legal_calls`` or ``legal_cards``
        not empty), without listing them: a screen asks it of every seat at every press. A
        pass is legal whenever a call is due, and the seat that must play holds a card."""
        if self.phase is Phase.AUCTION:
            return self.auction.turn is seat
        return (
            self.play is not None
            and self.result is None
            and self.claim is None
            and self.actor is seat
        )

    def can_claim(self, seat: Seat) -> bool:
        return (
            self.play is not None
            and self.result is None
            and self.claim is None
            and seat is not self.play.dummy
        )

    # --- actions ----------------------------------------------------------------------

    def apply(self, action: Action) -> DealState:
        """The state after ``action``; a RuleError with a reason if it is not allowed now."""
        if isinstance(action, Undo):
            return self._undo(action)
        if self.result is not None:
            raise OutOfTurn(str(action), Reason.DEAL_OVER)
        if isinstance(action, MakeCall):
            nxt = self._call(action)
        elif isinstance(action, PlayCard):
            nxt = self._card(action)
        elif isinstance(action, MakeClaim):
            nxt = self._claim(action)
        else:
            nxt = self._answer(action)
        return replace(nxt, history=(*self.history, action))

    def _call(self, action: MakeCall) -> DealState:
        if self.play is not None:
            raise OutOfTurn(str(action.call), Reason.WRONG_PHASE)
        if self.auction.turn is not action.seat:
            raise OutOfTurn(str(action.call), Reason.NOT_YOUR_TURN)
        auction = self.auction.apply(action.call)
        if not auction.is_over:
            return replace(self, auction=auction)
        contract, declarer = auction.contract, auction.declarer
        if contract is None or declarer is None:
            return replace(self, auction=auction, result=DealResult(None, None))
        play = PlayState.start(self.deal, declarer, contract.strain.suit)
        return replace(self, auction=auction, play=play)

    def _card(self, action: PlayCard) -> DealState:
        if self.play is None:
            raise OutOfTurn(str(action.card), Reason.WRONG_PHASE)
        if self.claim is not None:
            raise OutOfTurn(str(action.card), Reason.CLAIM_PENDING)
        if action.seat is self.play.dummy:
            raise IllegalPlay(str(action.card), BridgeReason.DUMMY_CANNOT_ACT)
        if self.actor is not action.seat:
            raise OutOfTurn(str(action.card), Reason.NOT_YOUR_TURN)
        play = self.play.apply(action.card)
        if play.is_over:
            result = DealResult(self.contract, play.declarer, play.declarer_tricks)
            return replace(self, play=play, result=result)
        return replace(self, play=play)

    def _claim(self, action: MakeClaim) -> DealState:
        if self.play is None:
            raise OutOfTurn("claim", Reason.WRONG_PHASE)
        if self.claim is not None:
            raise IllegalClaim("claim", Reason.CLAIM_PENDING)
        if action.seat is self.play.dummy:
            raise IllegalClaim("claim", BridgeReason.DUMMY_CANNOT_ACT)
        if not 0 <= action.tricks <= self.play.tricks_left:
            raise IllegalClaim(str(action.tricks), BridgeReason.CLAIM_TOO_MANY)
        declarer = self.play.declarer
        if action.seat.side is declarer.side:
            responders = frozenset((declarer.next, declarer.rho))
        else:
            responders = frozenset((declarer,))
        return replace(self, claim=Claim(action.seat, action.tricks, responders))

    def _answer(self, action: AnswerClaim) -> DealState:
        claim = self.claim
        if claim is None or self.play is None:
            raise IllegalClaim("answer", Reason.NO_CLAIM)
        if action.seat not in claim.responders:
            raise IllegalClaim("answer", Reason.NOT_A_RESPONDER)
        if action.seat in claim.accepted:
            raise IllegalClaim("answer", BridgeReason.ALREADY_ANSWERED)
        if not action.accept:
            return replace(self, claim=None)
        accepted = claim.accepted | {action.seat}
        if accepted != claim.responders:
            return replace(self, claim=replace(claim, accepted=accepted))
        play = self.play
        if claim.claimant.side is play.declarer.side:
            declarer_tricks = play.declarer_tricks + claim.tricks
        else:
            declarer_tricks = play.declarer_tricks + play.tricks_left - claim.tricks
        result = DealResult(self.contract, play.declarer, declarer_tricks, claimed=True)
        return replace(self, claim=None, result=result)

    def _undo(self, action: Undo) -> DealState:
        """Drop ``seat``'s last call or card if it is the last thing done in the deal.

        Claims are not undone (they are answered); a finished deal is not reopened, except that
        the 13th card or the call that ended the auction may be taken back like any other.
        """
        refused = self.undo_refusal(action.seat)
        if refused is not None:
            raise OutOfTurn("undo", refused)
        state = DealState.replay(self.deal, self._kept()[:-1])
        return replace(state, history=(*self.history, action))

    def undo_refusal(self, seat: Seat) -> Reason | None:
        """Why ``seat`` may not take back its last action now (None: it may): the one
        definition both ``apply`` and the views' take-back buttons use."""
        kept = self._kept()
        if not kept or self.claim is not None:
            return Reason.NOTHING_TO_UNDO
        last = kept[-1]
        if not isinstance(last, MakeCall | PlayCard) or last.seat is not seat:
            return Reason.NOTHING_TO_UNDO
        if self.result is not None and self.result.claimed:
            return Reason.DEAL_OVER
        return None

    def _kept(self) -> tuple[Action, ...]:
        return self._once("kept", lambda: tuple(effective_actions(self.history)))

    # --- views ------------------------------------------------------------------------

    def view(self, viewer: Seat | None) -> SeatView:
        """What ``viewer`` may see (None: a kibitzer in the group).

        No hand but the viewer's own, dummy's once the opening lead is faced (Law 41D), and a
        claimant's while the claim stands (Law 68: a claim is made with the hand faced).
        Showing the whole deal after it ends is the caller's explicit choice, from ``deal``.
        """
        hands: dict[Seat, frozenset[Card]] = {}
        play = self.play
        claimant = None if self.claim is None else self.claim.claimant
        shown = self.dummy if self.dummy_exposed else None
        for seat in Seat:
            if seat is viewer or seat is shown or (seat is claimant and viewer is not None):
                hands[seat] = self.deal.hand(seat) if play is None else play.hand(seat)
        legal_cards: frozenset[Card] = frozenset()
        legal_calls: tuple[Call, ...] = ()
        if viewer is not None:
            legal_cards = self.legal_cards(viewer)
            legal_calls = self.legal_calls(viewer)
        return SeatView(
            viewer=viewer,
            hands=hands,
            legal_calls=legal_calls,
            legal_cards=legal_cards,
            undoable=viewer is not None and self.undo_refusal(viewer) is None,
            **self._once("public", self._public),
        )

    def _public(self) -> dict[str, Any]:
        """The part of a view every seat and the kibitzer share."""
        play = self.play
        tricks_won = {side: 0 for side in Side}
        if play is not None:
            tricks_won = {side: play.tricks_won(side) for side in Side}
        return {
            "dealer": self.deal.dealer,
            "phase": self.phase,
            "calls": self.auction.calls,
            "contract": self.contract,
            "declarer": self.declarer,
            "dummy": self.dummy,
            "tricks": () if play is None else play.tricks,
            "trump": None if play is None else play.trump,
            "turn": self.turn,
            "actor": self.actor,
            "tricks_won": tricks_won,
            "claim": self.claim,
            "result": self.result,
        }


@dataclass(frozen=True, slots=True)
class SeatView:
    """The deal as one seat (or a kibitzer) sees it. Holds no card the viewer may not see."""

    viewer: Seat | None
    dealer: Seat
    phase: Phase
    calls: tuple[Call, ...]
    contract: Contract | None
    declarer: Seat | None
    dummy: Seat | None
    hands: Mapping[Seat, frozenset[Card]]
    tricks: tuple[Trick, ...]
    trump: Suit | None
    turn: Seat | None
    actor: Seat | None
    tricks_won: Mapping[Side, int]
    claim: Claim | None
    result: DealResult | None
    legal_calls: tuple[Call, ...]
    legal_cards: frozenset[Card]
    undoable: bool = False  # the viewer may ask to take back its last action now


def effective_actions(history: Iterable[Action]) -> list[Action]:
    """The actions that stand once each Undo has taken back the action before it."""
    kept: list[Action] = []
    for action in history:
        if isinstance(action, Undo):
            kept.pop()
        else:
            kept.append(action)
    return kept
