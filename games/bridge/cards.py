"""Seats, sides, suits, ranks, cards and deals: the nouns every other bridge module uses.

Text forms are plain ASCII and round-trip (``Card.parse(str(card)) == card``); suit symbols
and translated rank letters belong to the views.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from games.bridge.errors import BridgeReason
from games.core import fair
from games.errors import NotationError, Reason


class Seat(IntEnum):
    """N, E, S, W in clockwise order; seat arithmetic lives here, never at call sites."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def next(self) -> Seat:
        """The seat on this seat's left, who acts after it."""
        return _SEATS[(self + 1) % 4]

    @property
    def lho(self) -> Seat:
        return self.next

    @property
    def partner(self) -> Seat:
        return _SEATS[(self + 2) % 4]

    @property
    def rho(self) -> Seat:
        return _SEATS[(self + 3) % 4]

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    def is_partner_of(self, other: Seat) -> bool:
        return self.side is other.side

    def after(self, steps: int) -> Seat:
        return _SEATS[(self + steps) % 4]

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise NotationError(repr(text), Reason.BAD_SEAT) from None

    def __str__(self) -> str:
        return self.name


# Indexing a tuple is several times cheaper than Seat(n), and replay calls this per card.
_SEATS: tuple[Seat, ...] = tuple(Seat)


class Side(StrEnum):
    """A partnership: North-South or East-West. Equal to its text, so ``{"NS": …}`` keys work."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    @classmethod
    def parse(cls, text: str) -> Side:
        key = text.strip().upper().replace("-", "").replace("/", "")
        if key in ("NS", "SN"):
            return Side.NS
        if key in ("EW", "WE"):
            return Side.EW
        raise NotationError(repr(text), BridgeReason.BAD_SIDE)

    def __str__(self) -> str:
        return self.value


class Suit(IntEnum):
    """The four suits in bidding order (clubs lowest)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        index = "CDHS".find(text.strip().upper())
        if len(text.strip()) != 1 or index < 0:
            raise NotationError(repr(text), Reason.BAD_CARD)
        return cls(index)

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    """Card ranks, 2 lowest and ace highest; the value is the pip count (J=11 … A=14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        """ASCII letter as in PBN: T for the ten."""
        return "23456789TJQKA"[self - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key == "10":
            return cls.TEN
        index = "23456789TJQKA".find(key)
        if len(key) != 1 or index < 0:
            raise NotationError(repr(text), Reason.BAD_CARD)
        return cls(index + 2)

    def __str__(self) -> str:
        return self.letter


HONOUR_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card; orders by suit, then rank. Text is suit letter then rank letter: ``SQ``, ``HT``."""

    suit: Suit
    rank: Rank

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``SQ``, ``s10`` or ``QS`` (either order); raise NotationError otherwise."""
        key = text.strip().upper()
        if len(key) < 2 or len(key) > 3:
            raise NotationError(repr(text), Reason.BAD_CARD)
        if key[0] in "CDHS":
            return cls(Suit.parse(key[0]), Rank.parse(key[1:]))
        if key[-1] in "CDHS":
            return cls(Suit.parse(key[-1]), Rank.parse(key[:-1]))
        raise NotationError(repr(text), Reason.BAD_CARD)

    @property
    def index(self) -> int:
        """0..51, clubs 2 first: a compact code for callback data and storage."""
        return self.suit * 13 + (self.rank - 2)

    @classmethod
    def from_index(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise NotationError(repr(index), Reason.BAD_CARD)
        return cls(Suit(index // 13), Rank(index % 13 + 2))

    def __str__(self) -> str:
        return f"{self.suit.letter}{self.rank.letter}"


FULL_DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Spades first, each suit high to low: the order a player holds them."""
    return tuple(sorted(cards, key=lambda c: (-c.suit, -c.rank)))


Hands = tuple[frozenset[Card], frozenset[Card], frozenset[Card], frozenset[Card]]


@dataclass(frozen=True, slots=True)
class Deal:
    """The four hands as dealt, and who dealt. Enough to rebuild, replay and export a deal."""

    dealer: Seat
    hands: Hands

    def __post_init__(self) -> None:
        cards = [c for hand in self.hands for c in hand]
        if len(self.hands) != 4 or any(len(h) != 13 for h in self.hands) or len(set(cards)) != 52:
            raise NotationError("a deal needs four hands of 13 distinct cards", Reason.BAD_DEAL)

    def hand(self, seat: Seat) -> frozenset[Card]:
        return self.hands[seat]

    def holder(self, card: Card) -> Seat:
        for seat in Seat:
            if card in self.hands[seat]:
                return seat
        raise NotationError(str(card), Reason.BAD_CARD)  # unreachable for a valid deal

    @classmethod
    def shuffled(cls, dealer: Seat, randbelow: Callable[[int], int]) -> Deal:
        """A fresh deal: the pack shuffled by ``randbelow`` and dealt as ``dealing`` says
        (``fair.deal``, the very lines ``fair.py`` checks with).

        The caller supplies the randomness (the fair stream in the bot) so that this module
        stays deterministic and tests can pass their own.
        """
        dealt = fair.deal(dealing(dealer), randbelow)
        return cls(dealer, _four([{Card.parse(c) for c in dealt[seat.name]} for seat in Seat]))

    def to_pbn(self) -> str:
        """PBN ``[Deal]`` text starting with the dealer: ``N:AKQ.JT9.876.5432 ...``, which
        ``from_pbn`` reads back.

        >>> text = "E:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432"
        >>> Deal.from_pbn(text).to_pbn() == text, Deal.from_pbn(text).dealer
        (True, <Seat.E: 1>)
        """
        parts = [hand_pbn(self.hands[self.dealer.after(step)]) for step in range(4)]
        return f"{self.dealer.name}:" + " ".join(parts)

    @classmethod
    def from_pbn(cls, text: str, dealer: Seat | None = None) -> Deal:
        """Read PBN deal text; the first seat named is taken as dealer unless one is given."""
        try:
            first_text, rest = text.strip().split(":", 1)
            first = Seat.parse(first_text)
            hand_texts = rest.split()
            if len(hand_texts) != 4:
                raise ValueError
            hands: list[set[Card]] = [set(), set(), set(), set()]
            for step, hand_text in enumerate(hand_texts):
                suit_texts = hand_text.split(".")
                if len(suit_texts) != 4:
                    raise ValueError
                seat = first.after(step)
                for suit, ranks in zip(reversed(Suit), suit_texts, strict=True):
                    for letter in ranks:
                        hands[seat].add(Card(suit, Rank.parse(letter)))
        except (ValueError, NotationError):
            raise NotationError(repr(text), Reason.BAD_DEAL) from None
        return cls(dealer if dealer is not None else first, _four(hands))

    def with_dealer(self, dealer: Seat) -> Deal:
        return Deal(dealer, self.hands)


def hand_pbn(cards: Iterable[Card]) -> str:
    """One hand (any number of cards) as PBN writes it: ``AKQ.JT9.876.5432``, spades first."""
    held = list(cards)
    return ".".join(
        "".join(r.letter for r in sorted((c.rank for c in held if c.suit is suit), reverse=True))
        for suit in reversed(Suit)
    )


def dealing(dealer: Seat) -> fair.Dealing:
    """How bridge deals (``games.core.fair``): the pack clubs to spades, each 2 to the ace,
    one card at a time clockwise from dealer's left."""
    order = ",".join(dealer.after(k).name for k in range(1, 5))
    return fair.Dealing("CDHS:2,3,4,5,6,7,8,9,T,J,Q,K,A", order)


def _four(hands: list[set[Card]]) -> Hands:
    return (frozenset(hands[0]), frozenset(hands[1]), frozenset(hands[2]), frozenset(hands[3]))
