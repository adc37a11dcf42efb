"""One Preferans deal in progress (PREFERANS.md §1–§5): auction, talon and discard, the contract,
whisting, play, misère and raspasy, and what each seat may see.

``DealState`` is an immutable value; ``apply(action)`` returns the next state or raises a
``RuleError`` with a reason, and ``legal_actions(seat)`` is the only definition of what is
allowed (``apply`` checks through it, views build buttons from it). ``view(seat)`` holds no card
that seat may not see: its own hand; the talon once the auction is over (raspasy: each talon card
as it is turned); the discard to declarer only; both defenders' hands once an open whister shows
them, and after misère's first trick; every hand once the deal is over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from games.errors import IllegalCall, IllegalClaim, IllegalPlay, NotationError, OutOfTurn, Reason
from games.preferans.actions import (
    HALF,
    PASS,
    REDROPS,
    WHIST,
    Action,
    AnswerClaim,
    Call,
    Declare,
    Discard,
    MakeClaim,
    Play,
    Redrop,
    Show,
    Undo,
    Whist,
    effective_actions,
)
from games.preferans.bids import ALL_BIDS, Bid
from games.preferans.cards import Card, Deal, Suit
from games.preferans.conditions import CHOICE, OPEN, Conditions
from games.preferans.errors import PrefReason
from games.preferans.results import Kind, Result
from games.preferans.settlement import Variant

# The actions and results are their own modules; named here too, as other tools import them.
__all__ = [
    "HALF",
    "PASS",
    "REDROPS",
    "WHIST",
    "Action",
    "AnswerClaim",
    "Call",
    "Claim",
    "DealState",
    "Declare",
    "Discard",
    "Kind",
    "MakeClaim",
    "Phase",
    "Play",
    "Redrop",
    "Result",
    "SeatView",
    "Show",
    "Trick",
    "Undo",
    "Whist",
    "effective_actions",
    "legal_everywhere",
]


class Phase(Enum):
    AUCTION = "auction"
    DISCARD = "discard"  # declarer has the talon and lays two cards away
    CONTRACT = "contract"  # declarer names the contract
    WHIST = "whist"
    SHOW = "show"  # the one whister chooses open or closed
    PLAY = "play"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Claim:
    claimant: int
    tricks: int
    responders: frozenset[int]
    accepted: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...] = ()
    talon_card: Card | None = None  # raspasy: the turned talon card that sets the suit

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)

    def winner(self, trump: Suit | None) -> int:
        """Who wins the trick (played to its end): the highest trump, else the highest of the
        talon card's suit in raspasy's first two tricks, else the highest of the suit led."""
        cards = self.plays
        if trump is not None and any(c.suit is trump for _, c in cards):
            suit = trump
        elif self.talon_card is not None and any(c.suit is self.talon_card.suit for _, c in cards):
            suit = self.talon_card.suit
        else:
            suit = cards[0][1].suit
        return max((c.rank, seat) for seat, c in cards if c.suit is suit)[1]


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat (None: a kibitzer) may see, and may do."""

    viewer: int | None
    players: int
    dealer: int
    active: tuple[int, ...]
    phase: Phase
    kind: Kind | None
    calls: tuple[Call, ...]
    declarer: int | None
    bid: Bid | None  # the highest bid so far
    contract: Bid | None
    whists: tuple[Whist, ...]
    shown: bool | None
    talon: tuple[Card, ...]  # the talon cards this seat has seen
    discard: tuple[Card, ...]  # only declarer's own view holds it
    hands: Mapping[int, frozenset[Card]]  # the hands this seat may see, as they are now
    tricks: tuple[Trick, ...]
    taken: Mapping[int, int]
    turn: int | None  # whose card or word it is
    actor: int | None  # who must press (an open whister for the passer's cards)
    legal: tuple[Action, ...]  # what the viewer may do now
    result: Result | None
    claim: Claim | None = None
    undoable_by: int | None = None  # who may ask to take back the last thing done
    variant: Variant = Variant.SOCHI  # the table's rules (what a whist or a trick short costs)
    conditions: Conditions = field(default_factory=Conditions)  # the group's switches (§8)
    floor: int = 6  # §8's exit: the lowest level this deal's auction may bid

    def cards_seen(self) -> frozenset[Card]:
        seen = {c for hand in self.hands.values() for c in hand}
        seen |= set(self.talon) | set(self.discard)
        seen |= {c for trick in self.tricks for c in trick.cards}
        return frozenset(seen)


@dataclass(frozen=True, slots=True)
class DealState:
    deal: Deal
    variant: Variant = Variant.SOCHI
    calls: tuple[Call, ...] = ()
    declarer: int | None = None
    kind: Kind | None = None
    hands: Mapping[int, frozenset[Card]] = field(default_factory=dict)
    discard: tuple[Card, ...] = ()
    contract: Bid | None = None
    whists: tuple[Whist, ...] = ()
    shown: bool | None = None
    tricks: tuple[Trick, ...] = ()
    claim: Claim | None = None
    result: Result | None = None
    history: tuple[Action, ...] = ()
    conditions: Conditions = field(default_factory=Conditions)  # the pulka's (§8)
    floor: int = 6  # §8's exit: the lowest level this deal's auction may bid

    @classmethod
    def new(
        cls,
        deal: Deal,
        variant: str | Variant = Variant.SOCHI,
        conditions: Conditions | None = None,
        floor: int = 6,
    ) -> DealState:
        """A deal about to be bid, under ``conditions`` (the variant's preset if None) and,
        after raspasy, with ``floor`` the lowest level (§8's exit)."""
        v = Variant.parse(variant)
        rules = Conditions.of(v) if conditions is None else conditions
        if floor not in (6, 7, 8):
            raise NotationError(repr(floor), Reason.BAD_DEAL)
        return cls(deal, v, hands=dict(deal.hands), conditions=rules, floor=floor)

    @classmethod
    def replay(
        cls,
        deal: Deal,
        actions: Iterable[Action],
        variant: str | Variant = Variant.SOCHI,
        conditions: Conditions | None = None,
        floor: int = 6,
    ) -> DealState:
        state = cls.new(deal, variant, conditions, floor)
        for action in actions:
            state = state.apply(action)
        return state

    # --- where the deal stands --------------------------------------------------------------

    @property
    def active(self) -> tuple[int, ...]:
        return self.deal.active

    @property
    def passed(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.calls if c.bid is None)

    @property
    def bid(self) -> Bid | None:
        bids = [c.bid for c in self.calls if c.bid is not None]
        return bids[-1] if bids else None

    @property
    def phase(self) -> Phase:
        if self.result is not None:
            return Phase.FINISHED
        if self.kind is None:
            return Phase.AUCTION
        if self.kind is Kind.RASPASY:
            return Phase.PLAY
        if len(self.discard) < 2:
            return Phase.DISCARD
        if self.contract is None:
            return Phase.CONTRACT
        if self.kind is Kind.GAME and not self._whisting_done():
            return Phase.WHIST
        if self.kind is Kind.GAME and self.shown is None and len(self._whisters()) == 1:
            return Phase.SHOW
        return Phase.PLAY

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def defenders(self) -> tuple[int, int]:
        """First (left of declarer) and second defender."""
        assert self.declarer is not None
        first = self.deal.left_of(self.declarer)
        return first, self.deal.left_of(first)

    @property
    def trump(self) -> Suit | None:
        if self.kind is not Kind.GAME or self.contract is None or self.contract.strain is None:
            return None
        return Suit.of(self.contract.strain)

    @property
    def taken(self) -> dict[int, int]:
        counts = dict.fromkeys(self.active, 0)
        for trick in self.tricks:
            if len(trick.plays) == 3:
                counts[self._winner(trick)] += 1
        return counts

    @property
    def turn(self) -> int | None:
        """The seat whose call, word or card it is."""
        phase = self.phase
        if phase is Phase.AUCTION:
            return self._next_caller()
        if phase in (Phase.DISCARD, Phase.CONTRACT):
            return self.declarer
        if phase is Phase.WHIST:
            return self._next_whister()
        if phase is Phase.SHOW:
            return self._whisters()[0]
        if phase is Phase.PLAY:
            trick = self.current_trick()
            return self.order_from(trick.leader)[len(trick.plays)]
        return None

    @property
    def actor(self) -> int | None:
        """Who must press for ``turn``: an open whister plays the passer's cards."""
        turn = self.turn
        if (
            turn is not None
            and self.phase is Phase.PLAY
            and self.shown
            and self.declarer is not None
            and turn != self.declarer
        ):
            return self._whisters()[0]
        return turn

    # --- legality: the one definition ------------------------------------------------------

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        claim = self.claim
        if claim is not None:
            if seat in claim.responders and seat not in claim.accepted:
                return (AnswerClaim(seat, True), AnswerClaim(seat, False))
            return ()
        if self.actor != seat:
            return ()
        phase = self.phase
        if phase is Phase.AUCTION:
            return tuple(Call(seat, bid) for bid in self._legal_bids(seat))
        if phase is Phase.DISCARD:
            held = sorted(self.hands[seat])
            return tuple(Discard(seat, (a, b)) for i, a in enumerate(held) for b in held[i + 1 :])
        if phase is Phase.CONTRACT:
            floor = self.bid
            assert floor is not None
            names = tuple(Declare(seat, b) for b in ALL_BIDS if not b.is_misere and b >= floor)
            redrops = sum(isinstance(a, Redrop) for a in effective_actions(self.history))
            return (*names, Redrop(seat)) if redrops < REDROPS else names
        if phase is Phase.WHIST:
            return tuple(Whist(seat, word) for word in self._whist_words(seat))
        if phase is Phase.SHOW:
            return (Show(seat, True), Show(seat, False))
        if phase is Phase.PLAY:
            turn = self.turn
            assert turn is not None
            plays: tuple[Action, ...] = tuple(
                Play(seat, card) for card in sorted(self.legal_cards(turn))
            )
            return plays + tuple(MakeClaim(seat, n) for n in self.claimable(seat))
        return ()

    # --- claims -----------------------------------------------------------------------------

    def tricks_left(self) -> int:
        return 10 - sum(self.taken.values())

    def claimable(self, seat: int) -> tuple[int, ...]:
        """The claims ``seat`` may make now: declarer, or a whister, on play in a game or a
        misère (raspasy is played out). Pinned: the claim must settle every number the pulka
        needs, so against two whisters declarer may only claim all the tricks left (how the
        defenders would split the rest decides their whists), and the whister claims for the
        defence (the passer's tricks count only together with the whister's)."""
        if self.phase is not Phase.PLAY or self.actor != seat or self.declarer is None:
            return ()
        if self.current_trick().plays:
            return ()  # between tricks only
        left = self.tricks_left()
        if seat == self.declarer:
            if self.kind is Kind.GAME and len(self._whisters()) == 2:
                return (left,)
            return tuple(range(left, -1, -1))
        if self.kind is Kind.GAME and len(self._whisters()) == 1 and seat in self._whisters():
            return tuple(range(left, -1, -1))
        return ()

    def _claim_responders(self, claimant: int) -> frozenset[int]:
        assert self.declarer is not None
        if claimant != self.declarer:
            return frozenset({self.declarer})
        if self.kind is Kind.GAME and self.shown:
            return frozenset(self._whisters())  # the open whister answers for the defence
        return frozenset(self.defenders)

    def _after_claim(self, action: MakeClaim) -> DealState:
        claim = Claim(action.seat, action.tricks, self._claim_responders(action.seat))
        return replace(self, claim=claim)

    def _after_answer(self, action: AnswerClaim) -> DealState:
        claim = self.claim
        assert claim is not None
        if not action.accept:
            return replace(self, claim=None)  # rejected: play goes on
        claim = replace(claim, accepted=claim.accepted | {action.seat})
        if claim.accepted != claim.responders:
            return replace(self, claim=claim)
        assert self.declarer is not None
        left = self.tricks_left()
        mine = claim.tricks if claim.claimant == self.declarer else left - claim.tricks
        tricks = self.taken
        tricks[self.declarer] += mine
        first, _second = self.defenders
        whisters = self._whisters()
        tricks[whisters[0] if whisters else first] += left - mine
        kind = self.kind
        assert kind is not None
        whist = self._final_whists() if kind is Kind.GAME else {}
        contract = self.contract
        result = Result(kind, self.declarer, contract, whist, tricks, bool(self.shown), True)
        return replace(self, claim=None, result=result)

    def legal_cards(self, seat: int) -> frozenset[Card]:
        """The cards ``seat``'s hand may play to the current trick (follow suit; if void,
        trump; raspasy's turned talon card sets the suit of tricks 1 and 2)."""
        if self.phase is not Phase.PLAY or self.turn != seat:
            return frozenset()
        hand = self.hands[seat]
        trick = self.current_trick()
        wanted = self._suit_to_follow(trick, seat)
        if wanted is not None:
            suited = frozenset(c for c in hand if c.suit is wanted)
            if suited:
                return suited
            trump = self.trump
            if trump is not None:
                trumps = frozenset(c for c in hand if c.suit is trump)
                if trumps:
                    return trumps
        return frozenset(hand)

    def _suit_to_follow(self, trick: Trick, seat: int) -> Suit | None:
        """The suit ``seat`` must play if it can. Raspasy's turned talon card sets the suit of
        tricks 1 and 2; a player without it follows the first hand's card (pinned: if nobody
        has the talon suit, the first hand's card sets the suit)."""
        talon = trick.talon_card
        if talon is not None and any(c.suit is talon.suit for c in self.hands[seat]):
            return talon.suit
        return trick.cards[0].suit if trick.cards else None

    # --- applying -------------------------------------------------------------------------

    def apply(self, action: Action) -> DealState:
        if self.result is not None:
            raise OutOfTurn(repr(action), Reason.DEAL_OVER)
        if isinstance(action, Undo):
            return self._undo(action)
        if self.claim is not None:
            if isinstance(action, AnswerClaim):
                if action not in self.legal_actions(action.seat):
                    raise IllegalClaim(repr(action), Reason.NOT_A_RESPONDER)
                state = replace(self, history=(*self.history, action))
                return state._after_answer(action)
            raise IllegalClaim(repr(action), Reason.CLAIM_PENDING)
        if isinstance(action, AnswerClaim):
            raise IllegalClaim(repr(action), Reason.NO_CLAIM)
        if isinstance(action, Discard):  # the two cards in either order
            low, high = sorted(action.cards)
            action = Discard(action.seat, (low, high))
        if action.seat != self.actor:
            raise OutOfTurn(repr(action), Reason.NOT_YOUR_TURN)
        legal = self.legal_actions(action.seat)
        if action not in legal:
            raise self._refusal(action)
        if isinstance(action, MakeClaim):
            return replace(self, history=(*self.history, action))._after_claim(action)
        state = replace(self, history=(*self.history, action))
        if isinstance(action, Call):
            return replace(state, calls=(*self.calls, action))._after_call()
        if isinstance(action, Discard):
            hand = self.hands[action.seat] - set(action.cards)
            return replace(state, hands={**self.hands, action.seat: hand}, discard=action.cards)
        if isinstance(action, Redrop):
            hand = self.hands[action.seat] | set(self.discard)
            return replace(state, hands={**self.hands, action.seat: hand}, discard=())
        if isinstance(action, Declare):
            named = replace(state, contract=action.contract)
            return replace(named, shown=False) if named._compulsory() else named
        if isinstance(action, Whist):
            return replace(state, whists=(*self.whists, action))._after_whist()
        if isinstance(action, Show):
            return replace(state, shown=action.open)
        assert isinstance(action, Play)
        return state._after_play(action)

    def _refusal(self, action: Action) -> Exception:
        phase = self.phase
        if isinstance(action, Call) and phase is Phase.AUCTION:
            if action.bid is not None and action.bid.is_misere:
                return IllegalCall(repr(action), PrefReason.MISERE_NOT_FIRST)
            if action.bid is not None and action.bid.level < self.floor:
                return IllegalCall(repr(action), PrefReason.BELOW_EXIT)
            return IllegalCall(repr(action), Reason.INSUFFICIENT_BID)
        if isinstance(action, Discard) and phase is Phase.DISCARD:
            return IllegalPlay(repr(action), PrefReason.BAD_DISCARD)
        if isinstance(action, Declare) and phase is Phase.CONTRACT:
            return IllegalCall(repr(action), PrefReason.CONTRACT_BELOW_BID)
        if isinstance(action, Whist) and phase is Phase.WHIST:
            return IllegalCall(repr(action), PrefReason.BAD_WHIST)
        if isinstance(action, Play) and phase is Phase.PLAY:
            turn = self.turn
            assert turn is not None
            if action.card not in self.hands[turn]:
                return IllegalPlay(repr(action), Reason.CARD_NOT_HELD)
            trick = self.current_trick()
            wanted = self._suit_to_follow(trick, turn)
            if wanted is not None and any(c.suit is wanted for c in self.hands[turn]):
                return IllegalPlay(repr(action), Reason.MUST_FOLLOW_SUIT)
            return IllegalPlay(repr(action), PrefReason.MUST_TRUMP)
        if isinstance(action, MakeClaim) and phase is Phase.PLAY:
            return IllegalClaim(repr(action), PrefReason.CANNOT_CLAIM)
        return OutOfTurn(repr(action), Reason.WRONG_PHASE)

    # --- auction ----------------------------------------------------------------------------

    def _next_caller(self) -> int | None:
        order = self.order_from(self.deal.first_hand)
        if not self.calls:
            return order[0]
        last = self.calls[-1].seat
        for step in range(1, 4):
            seat = order[(order.index(last) + step) % 3]
            if seat not in self.passed:
                return seat
        return None

    def _legal_bids(self, seat: int) -> list[Bid | None]:
        top = self.bid
        misere_taken = any(c.bid is not None and c.bid.is_misere for c in self.calls)
        first_call = all(c.seat != seat for c in self.calls)
        bids: list[Bid | None] = [None]
        for bid in ALL_BIDS:
            if top is not None and bid <= top:
                continue
            if bid.is_misere and (not first_call or misere_taken):
                continue
            if not bid.is_misere and bid.level < self.floor:
                continue  # §8: after raspasy the auction starts at the exit
            bids.append(bid)
        return bids

    def _after_call(self) -> DealState:
        passed = self.passed
        if len(passed) == 3:
            return replace(self, kind=Kind.RASPASY)
        top = self.bid
        if len(passed) == 2 and top is not None:
            declarer = next(s for s in self.active if s not in passed)
            hand = self.hands[declarer] | set(self.deal.talon)  # the talon, shown to all
            misere = top.is_misere
            return replace(
                self,
                declarer=declarer,
                kind=Kind.MISERE if misere else Kind.GAME,
                contract=top if misere else None,  # misère stays misère: nothing to name
                hands={**self.hands, declarer: hand},
            )
        return self

    # --- whisting ---------------------------------------------------------------------------

    def _whisting_done(self) -> bool:
        return self._next_whister() is None

    def _compulsory(self) -> bool:
        """§8: whisting this contract is compulsory, so nobody is asked (both whist)."""
        return (
            self.kind is Kind.GAME
            and self.contract is not None
            and self.conditions.compulsory_on(self.contract)
        )

    def _next_whister(self) -> int | None:
        if self._compulsory():
            return None
        first, second = self.defenders
        words = [w.word for w in self.whists]
        if not words:
            return first
        if len(words) == 1:
            return second
        if len(words) == 2 and words == [PASS, HALF]:
            return first  # the first defender's second chance
        return None

    def _whist_words(self, seat: int) -> list[str]:
        first, _second = self.defenders
        words = [w.word for w in self.whists]
        assert self.contract is not None
        if seat == first:
            return [WHIST, PASS]
        if words == [PASS] and self.contract.level in (6, 7) and self.conditions.half_whist:
            return [WHIST, PASS, HALF]
        return [WHIST, PASS]

    def _final_whists(self) -> dict[int, str]:
        first, second = self.defenders
        if self._compulsory():
            return {first: WHIST, second: WHIST}
        words = [w.word for w in self.whists]
        if words == [PASS, HALF, WHIST]:
            return {first: WHIST, second: PASS}  # the half-whister becomes a passer
        if words == [PASS, HALF, PASS]:
            return {first: PASS, second: HALF}
        return {first: words[0], second: words[1]}

    def _whisters(self) -> list[int]:
        if self.kind is not Kind.GAME or not self._whisting_done():
            return []
        return [s for s, w in self._final_whists().items() if w == WHIST]

    def _after_whist(self) -> DealState:
        if not self._whisting_done():
            return self
        if not self._whisters():  # nobody whists: paid as made, not played
            return replace(
                self,
                result=Result(Kind.GAME, self.declarer, self.contract, self._final_whists(), None),
            )
        if len(self._whisters()) == 2:
            return replace(self, shown=False)  # two whisters: each plays their own cards
        if self.conditions.whist_play != CHOICE:  # §8: the lone whister is not asked
            return replace(self, shown=self.conditions.whist_play == OPEN)
        return self

    # --- play -------------------------------------------------------------------------------

    def order_from(self, leader: int) -> list[int]:
        """The three active seats in playing order from ``leader``."""
        order = [leader]
        while len(order) < 3:
            order.append(self.deal.left_of(order[-1]))
        return order

    def _new_trick(self, index: int) -> Trick:
        talon_led = self.kind is Kind.RASPASY and self.variant is not Variant.ROSTOV
        if index == 0 or (talon_led and index == 1):  # the talon sets tricks 1 and 2
            leader = self.deal.first_hand
        else:
            leader = self._winner(self.tricks[-1])
        talon_card = None
        if self.kind is Kind.RASPASY and index < 2 and self.variant is not Variant.ROSTOV:
            talon_card = self.deal.talon[index]
        return Trick(leader, (), talon_card)

    def current_trick(self) -> Trick:
        """The trick being played, or the next one (empty, with its leader) after a full one."""
        if not self.tricks or len(self.tricks[-1].plays) == 3:
            return self._new_trick(len(self.tricks))
        return self.tricks[-1]

    def _winner(self, trick: Trick) -> int:
        return trick.winner(self.trump)

    def _after_play(self, action: Play) -> DealState:
        turn = self.turn
        assert turn is not None
        trick = self.current_trick()
        played = replace(trick, plays=(*trick.plays, (turn, action.card)))
        before = self.tricks[:-1] if self._opened() is not None else self.tricks
        tricks = (*before, played)
        hands = {**self.hands, turn: self.hands[turn] - {action.card}}
        state = replace(self, tricks=tricks, hands=hands)
        if len(tricks) == 10 and len(played.plays) == 3:
            return replace(state, result=state._play_result())
        return state

    def _opened(self) -> Trick | None:
        """The last trick if it is still open (fewer than three cards)."""
        if self.tricks and len(self.tricks[-1].plays) < 3:
            return self.tricks[-1]
        return None

    def _play_result(self) -> Result:
        taken = self.taken
        if self.kind is Kind.RASPASY:
            return Result(Kind.RASPASY, None, None, {}, taken)
        if self.kind is Kind.MISERE:
            return Result(Kind.MISERE, self.declarer, Bid.misere(), {}, taken)
        return Result(
            Kind.GAME, self.declarer, self.contract, self._final_whists(), taken, bool(self.shown)
        )

    # --- what a seat may see ----------------------------------------------------------------

    def visible_hands(self, viewer: int | None) -> dict[int, frozenset[Card]]:
        if self.result is not None:
            return dict(self.deal.hands)  # the full deal as dealt, once it is over
        shown: dict[int, frozenset[Card]] = {}
        if viewer is not None and viewer in self.hands:
            shown[viewer] = self.hands[viewer]
        if self.declarer is not None:
            first, second = self.defenders
            first_trick_over = bool(self.tricks) and len(self.tricks[0].plays) == 3
            open_defence = (self.kind is Kind.GAME and self.shown) or (
                self.kind is Kind.MISERE and first_trick_over
            )
            if open_defence:
                shown[first], shown[second] = self.hands[first], self.hands[second]
        return shown

    def visible_talon(self) -> tuple[Card, ...]:
        if self.result is not None:
            return self.deal.talon
        if self.kind is Kind.RASPASY:
            if self.variant is Variant.ROSTOV:
                return ()  # the talon stays closed
            done = sum(1 for t in self.tricks if len(t.plays) == 3)
            return self.deal.talon[: min(done + 1, 2)]  # each card turned as its trick begins
        if self.kind is not None:
            return self.deal.talon
        return ()

    def view(self, viewer: int | None) -> SeatView:
        actor = self.actor
        return SeatView(
            viewer=viewer,
            players=self.deal.players,
            dealer=self.deal.dealer,
            active=self.active,
            phase=self.phase,
            kind=self.kind,
            calls=self.calls,
            declarer=self.declarer,
            bid=self.bid,
            contract=self.contract,
            whists=self.whists,
            shown=self.shown,
            talon=self.visible_talon(),
            discard=self.discard if viewer is not None and viewer == self.declarer else (),
            hands=self.visible_hands(viewer),
            tricks=self.tricks,
            taken=self.taken,
            turn=self.turn,
            actor=actor,
            legal=self.legal_actions(viewer) if viewer is not None else (),
            result=self.result,
            claim=self.claim,
            undoable_by=self.undoable_by(),
            variant=self.variant,
            conditions=self.conditions,
            floor=self.floor,
        )

    # --- taking back ----------------------------------------------------------------------------

    def undoable_by(self) -> int | None:
        """Who pressed the last thing done, if it may be taken back: a call, a contract named, a
        whist word, open or closed, a card. Not a discard (the talon has been seen), nor a
        claim (it is answered). The open whister takes back the passer's card they played."""
        if self.result is not None or self.claim is not None:
            return None
        kept = effective_actions(self.history)
        if not kept or not isinstance(kept[-1], Call | Declare | Whist | Show | Play):
            return None
        last = kept[-1]
        if isinstance(last, Play) and self.shown:
            passers = {w.seat for w in self.whists if w.word == PASS}
            whisters = [w.seat for w in self.whists if w.word == WHIST]
            if last.seat in passers and len(whisters) == 1:
                return whisters[0]
        return last.seat

    def _undo(self, action: Undo) -> DealState:
        if self.undoable_by() != action.seat:
            raise OutOfTurn("undo", Reason.NOTHING_TO_UNDO)
        kept = effective_actions(self.history)
        state = DealState.replay(self.deal, kept[:-1], self.variant, self.conditions, self.floor)
        return replace(state, history=(*self.history, action))


def legal_everywhere(state: DealState) -> Sequence[Action]:
    """Every legal action of whoever must act (for tests and robots)."""
    if state.claim is not None:
        return [a for seat in sorted(state.claim.responders) for a in state.legal_actions(seat)]
    actor = state.actor
    return () if actor is None else state.legal_actions(actor)
