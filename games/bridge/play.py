"""The play of the cards: opening lead, following suit, trick winners, tricks per side.

``PlayState.legal_cards`` is the only definition of what may be played; ``PlayState.apply``
checks through it. Who *presses* for dummy (declarer) is the deal's concern, not this module's.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bridge.cards import Card, Deal, Hands, Seat, Side, Suit
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
    """Cards held and tricks played in a suit or no-trump contract with a given declarer.

    ``held`` and ``won`` are kept alongside the tricks (rather than derived on each call) because
    replaying thousands of tables at start-up walks this code for every card.
    """

    deal: Deal
    declarer: Seat
    trump: Suit | None
    tricks: tuple[Trick, ...]
    held: Hands
    won: tuple[int, int]  # completed tricks won by N-S, E-W

    @classmethod
    def start(cls, deal: Deal, declarer: Seat, trump: Suit | None) -> PlayState:
        """The player on declarer's left leads to the first trick."""
        return cls(deal, declarer, trump, (Trick(declarer.next),), deal.hands, (0, 0))

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

    def hand(self, seat: Seat) -> frozenset[Card]:
        """The cards ``seat`` still holds."""
        return self.held[seat]

    def tricks_won(self, side: Side) -> int:
        return self.won[0] if side is Side.NS else self.won[1]

    @property
    def declarer_tricks(self) -> int:
        return self.tricks_won(self.declarer.side)

    @property
    def tricks_left(self) -> int:
        """Tricks not yet complete, the one in progress included."""
        return 13 - self.won[0] - self.won[1]

    def legal_cards(self) -> frozenset[Card]:
        """The cards the seat in turn may play: the suit led if it has any, else any card."""
        seat = self.turn
        if seat is None:
            return frozenset()
        hand = self.held[seat]
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
        if card not in self.held[seat]:
            raise IllegalPlay(str(card), Reason.CARD_NOT_HELD)
        if card not in self.legal_cards():
            raise IllegalPlay(str(card), Reason.MUST_FOLLOW_SUIT)

    def apply(self, card: Card) -> PlayState:
        """The state after the seat in turn plays ``card``; the trick's winner leads next."""
        self.check_card(card)
        seat = self.current.next_seat
        trick = self.current.add(card)
        tricks = (*self.tricks[:-1], trick)
        held = list(self.held)
        held[seat] = held[seat] - {card}
        won = self.won
        if trick.is_complete:
            winner = trick.winner(self.trump)
            won = (won[0] + 1, won[1]) if winner.side is Side.NS else (won[0], won[1] + 1)
            if len(tricks) < 13:
                tricks = (*tricks, Trick(winner))
        hands: Hands = (held[0], held[1], held[2], held[3])
        return PlayState(self.deal, self.declarer, self.trump, tricks, hands, won)
