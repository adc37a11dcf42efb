"""The 32-card pack (7 to ace) and a deal: ten cards to each active player, two to the talon.

Seats are indices 0..n-1 clockwise (n = 3, or 4 with the dealer sitting out). Card text is ASCII
(``SA``, ``H10``, ``D7``); suit symbols and Russian ranks belong to views. The shuffle's
randomness comes from the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum

from games.core import fair
from games.errors import NotationError, Reason
from games.preferans.bids import Strain


class Suit(IntEnum):
    """In bidding order: ♠ < ♣ < ♦ < ♥."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def code(self) -> str:
        return "SCDH"[self]

    @property
    def strain(self) -> Strain:
        return Strain(int(self))

    @classmethod
    def of(cls, strain: Strain) -> Suit | None:
        return None if strain is Strain.NOTRUMP else cls(int(strain))


class Rank(IntEnum):
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        return {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(int(self), str(int(self)))


RANK_CODES = {r.code: r for r in Rank} | {"T": Rank.TEN}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    suit: Suit
    rank: Rank

    @classmethod
    def parse(cls, text: str) -> Card:
        key = text.strip().upper()
        suit = "SCDH".find(key[:1]) if key else -1
        rank = RANK_CODES.get(key[1:])
        if suit < 0 or rank is None:
            raise NotationError(repr(text), Reason.BAD_CARD)
        return cls(Suit(suit), rank)

    def __str__(self) -> str:
        return f"{self.suit.code}{self.rank.code}"


PACK: tuple[Card, ...] = tuple(Card(s, r) for s in Suit for r in Rank)


def active_seats(players: int, dealer: int | None) -> tuple[int, ...]:
    """The three who play a deal, in seat order: with four, the dealer sits out."""
    return tuple(i for i in range(players) if not (players == 4 and i == dealer))


def dealing(players: int, dealer: int) -> fair.Dealing:
    """How Preferans deals (``games.core.fair``): the pack spades, clubs, diamonds, hearts,
    each 7 to the ace; ten cards to each seat in play in seat order (with four the dealer sits
    out), the last two to the talon."""
    order = ",".join(f"{seat}*10" for seat in active_seats(players, dealer))
    return fair.Dealing("SCDH:7,8,9,10,J,Q,K,A", order + ",talon*2")


@dataclass(frozen=True, slots=True)
class Deal:
    """Who holds what when a deal starts. ``players`` is 3 or 4; ``dealer`` deals (and sits out
    with four)."""

    players: int
    dealer: int
    hands: Mapping[int, frozenset[Card]]
    talon: tuple[Card, Card]

    def __post_init__(self) -> None:
        cards = [c for h in self.hands.values() for c in h] + list(self.talon)
        if (
            self.players not in (3, 4)
            or not 0 <= self.dealer < self.players
            or sorted(self.hands) != list(self.active)
            or any(len(h) != 10 for h in self.hands.values())
            or sorted(cards) != sorted(PACK)
        ):
            raise NotationError("a deal of 3 × 10 cards and a talon of 2", Reason.BAD_DEAL)

    @property
    def active(self) -> tuple[int, ...]:
        return active_seats(self.players, self.dealer)

    def left_of(self, seat: int) -> int:
        """The next active seat clockwise (skipping a sitting-out dealer)."""
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if nxt in self.active:
                return nxt
        raise AssertionError("no active seat")

    @property
    def first_hand(self) -> int:
        """Left of the dealer: bids first and leads to the first trick of every deal."""
        return self.left_of(self.dealer)

    @classmethod
    def shuffled(cls, players: int, dealer: int, randbelow: Callable[[int], int]) -> Deal:
        """A fresh deal: the pack shuffled by ``randbelow`` and dealt as ``dealing`` says
        (``fair.deal``, the very lines ``fair.py`` checks with)."""
        dealt = fair.deal(dealing(players, dealer), randbelow)
        first, second = (Card.parse(c) for c in dealt.pop("talon"))
        hands = {int(seat): frozenset(map(Card.parse, cards)) for seat, cards in dealt.items()}
        return cls(players, dealer, hands, (first, second))

    def to_payload(self) -> dict[str, object]:
        return {
            "players": self.players,
            "dealer": self.dealer,
            "hands": {str(s): " ".join(map(str, sorted(h))) for s, h in self.hands.items()},
            "talon": " ".join(map(str, self.talon)),
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, object]) -> Deal:
        hands_raw = payload["hands"]
        assert isinstance(hands_raw, Mapping)
        hands = {int(s): frozenset(_cards(str(text))) for s, text in hands_raw.items()}
        talon = tuple(_cards(str(payload["talon"])))
        if len(talon) != 2:
            raise NotationError("talon", Reason.BAD_DEAL)
        players, dealer = payload["players"], payload["dealer"]
        assert isinstance(players, int) and isinstance(dealer, int)
        return cls(players, dealer, hands, (talon[0], talon[1]))


def _cards(text: str) -> Iterable[Card]:
    return [Card.parse(word) for word in text.split()]


def sort_hand(cards: Iterable[Card]) -> list[Card]:
    """By suit (♠ ♣ ♦ ♥), high to low within a suit."""
    return sorted(cards, key=lambda c: (c.suit, -c.rank))
