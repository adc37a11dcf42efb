"""The play of the cards: opening lead, following suit, trick winners, tricks per side.

``PlayState.legal_cards`` is the only definition of what may be played; ``PlayState.apply``
checks through it. Who *presses* for dummy (declarer) is the deal's concern, not this module's.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bridge.cards import Card, Deal, Seat, Side, Suit
from games.errors import IllegalPlay, Reason


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick in order of play: the leader and the cards played from the leader clockwise."""

    leader: Seat
    cards: tuple[Card, ...] = ()

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == 4

    @property
    def suit_led(self) -> Suit | None:
        return self.cards[0].suit if self.cards else None

    @property
    def next_seat(self) -> Seat:
        return self.leader.after(len(self.cards))

    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple((self.leader.after(i), card) for i, card in enumerate(self.cards))

    def winner(self, trump: Suit | None) -> Seat:
        """The highest trump if any was played, else the highest card of the suit led."""
        if not self.is_complete:
            raise ValueError("the trick is not complete")
        led = self.cards[0].suit

        def strength(card: Card) -> int:
            if card.suit is trump:
                return 100 + card.rank
            return card.rank if card.suit is led else 0

        best = max(range(4), key=lambda i: strength(self.cards[i]))
        return self.leader.after(best)

    def add(self, card: Card) -> Trick:
        return Trick(self.leader, (*self.cards, card))


@dataclass(frozen=True, slots=True)
class PlayState:
    """Cards held and tricks played in a suit or no-trump contract with a given declarer."""

    deal: Deal
    declarer: Seat
    trump: Suit | None
    tricks: tuple[Trick, ...] = ()

    @classmethod
    def start(cls, deal: Deal, declarer: Seat, trump: Suit | None) -> PlayState:
        """The player on declarer's left leads to the first trick."""
        return cls(deal, declarer, trump, (Trick(declarer.next),))

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def current(self) -> Trick:
        return self.tricks[-1]

    @property
    def completed(self) -> tuple[Trick, ...]:
        return tuple(t for t in self.tricks if t.is_complete)

    @property
    def is_over(self) -> bool:
        return len(self.tricks) == 13 and self.tricks[-1].is_complete

    @property
    def turn(self) -> Seat | None:
        """The seat whose card is to be played next (dummy's seat when dummy is to play)."""
        return None if self.is_over else self.current.next_seat

    @property
    def opening_lead_made(self) -> bool:
        return bool(self.tricks[0].cards)

    @property
    def cards_played(self) -> int:
        return sum(len(t.cards) for t in self.tricks)

    def played_by(self, seat: Seat) -> frozenset[Card]:
        return frozenset(c for t in self.tricks for s, c in t.plays() if s is seat)

    def hand(self, seat: Seat) -> frozenset[Card]:
        """The cards ``seat`` still holds."""
        return self.deal.hand(seat) - self.played_by(seat)

    def tricks_won(self, side: Side) -> int:
        return sum(1 for t in self.completed if t.winner(self.trump).side is side)

    @property
    def declarer_tricks(self) -> int:
        return self.tricks_won(self.declarer.side)

    @property
    def tricks_left(self) -> int:
        """Tricks not yet complete, the one in progress included."""
        return 13 - len(self.completed)

    def legal_cards(self) -> frozenset[Card]:
        """The cards the seat in turn may play: the suit led if it has any, else any card."""
        seat = self.turn
        if seat is None:
            return frozenset()
        hand = self.hand(seat)
        led = self.current.suit_led
        if led is not None:
            following = frozenset(c for c in hand if c.suit is led)
            if following:
                return following
        return hand

    def check_card(self, card: Card) -> None:
        seat = self.turn
        if seat is None:
            raise IllegalPlay(str(card), Reason.DEAL_OVER)
        if card not in self.hand(seat):
            raise IllegalPlay(str(card), Reason.CARD_NOT_HELD)
        if card not in self.legal_cards():
            raise IllegalPlay(str(card), Reason.MUST_FOLLOW_SUIT)

    def apply(self, card: Card) -> PlayState:
        """The state after the seat in turn plays ``card``; the trick's winner leads next."""
        self.check_card(card)
        trick = self.current.add(card)
        tricks = (*self.tricks[:-1], trick)
        if trick.is_complete and len(tricks) < 13:
            tricks = (*tricks, Trick(trick.winner(self.trump)))
        return PlayState(self.deal, self.declarer, self.trump, tricks)
