"""Strains, bids, calls and contracts, with text forms that round-trip.

A *call* is a pass, a bid, a double or a redouble; a *bid* is only a level plus a strain.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum

from games.bridge.cards import Suit
from games.errors import NotationError, Reason


class Strain(IntEnum):
    """A suit or no-trump, in bidding order: clubs < diamonds < hearts < spades < NT."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    @property
    def code(self) -> str:
        return ("C", "D", "H", "S", "NT")[self]

    @property
    def suit(self) -> Suit | None:
        """The trump suit, or None at no-trump."""
        return None if self is Strain.NOTRUMP else Suit(int(self))

    @property
    def is_major(self) -> bool:
        return self in (Strain.HEARTS, Strain.SPADES)

    @classmethod
    def parse(cls, text: str) -> Strain:
        key = text.strip().upper()
        aliases = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4, "N": 4}
        if key not in aliases:
            raise NotationError(repr(text), Reason.BAD_CALL)
        return cls(aliases[key])

    def __str__(self) -> str:
        return self.code


class Doubling(IntEnum):
    """Undoubled, doubled or redoubled; the value is the power of two on trick points."""

    NONE = 0
    DOUBLED = 1
    REDOUBLED = 2

    @property
    def code(self) -> str:
        return ("", "X", "XX")[self]

    @property
    def multiplier(self) -> int:
        return 1 << int(self)


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    """A level (1..7, tricks over six) and a strain; orders as bids rank in the auction."""

    level: int
    strain: Strain

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise NotationError(repr(self.level), Reason.BAD_CALL)

    @property
    def rank(self) -> int:
        """0 for 1C up to 34 for 7NT: one number that orders bids."""
        return (self.level - 1) * 5 + self.strain

    @classmethod
    def from_rank(cls, rank: int) -> Bid:
        return cls(rank // 5 + 1, Strain(rank % 5))

    @classmethod
    def parse(cls, text: str) -> Bid:
        key = text.strip().upper()
        if len(key) < 2 or key[0] not in "0123456789":
            raise NotationError(repr(text), Reason.BAD_CALL)
        return cls(int(key[0]), Strain.parse(key[1:]))

    def __str__(self) -> str:
        return f"{self.level}{self.strain.code}"


ALL_BIDS: tuple[Bid, ...] = tuple(Bid.from_rank(r) for r in range(35))


class CallKind(Enum):
    PASS = "P"
    BID = "BID"
    DOUBLE = "X"
    REDOUBLE = "XX"


@dataclass(frozen=True, slots=True)
class Call:
    """One call of the auction. Text: ``P``, ``X``, ``XX``, ``1C`` … ``7NT``."""

    kind: CallKind
    bid: Bid | None = None

    def __post_init__(self) -> None:
        if (self.kind is CallKind.BID) != (self.bid is not None):
            raise NotationError("a bid call carries a bid and no other call does", Reason.BAD_CALL)

    @classmethod
    def make_bid(cls, level: int, strain: Strain) -> Call:
        return cls(CallKind.BID, Bid(level, strain))

    @classmethod
    def parse(cls, text: str) -> Call:
        key = text.strip().upper()
        if key in ("P", "PASS"):
            return PASS
        if key in ("X", "D", "DBL", "DOUBLE"):
            return DOUBLE
        if key in ("XX", "R", "RDBL", "REDOUBLE"):
            return REDOUBLE
        return cls(CallKind.BID, Bid.parse(key))

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    def __str__(self) -> str:
        if self.bid is not None:
            return str(self.bid)
        return self.kind.value


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)
ALL_CALLS: tuple[Call, ...] = (PASS, DOUBLE, REDOUBLE, *(Call(CallKind.BID, b) for b in ALL_BIDS))


@dataclass(frozen=True, slots=True)
class Contract:
    """The final bid with its doubling, e.g. ``4HX``. The declarer is kept apart (see Auction)."""

    level: int
    strain: Strain
    doubling: Doubling = Doubling.NONE

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise NotationError(repr(self.level), Reason.BAD_CONTRACT)

    @property
    def bid(self) -> Bid:
        return Bid(self.level, self.strain)

    @property
    def tricks_needed(self) -> int:
        return self.level + 6

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Read ``3NT``, ``4S``, ``4SX``, ``7NTXX`` (case and spaces ignored)."""
        key = text.strip().upper().replace(" ", "")
        doubling = Doubling.NONE
        if key.endswith("XX"):
            doubling, key = Doubling.REDOUBLED, key[:-2]
        elif key.endswith("X"):
            doubling, key = Doubling.DOUBLED, key[:-1]
        try:
            bid = Bid.parse(key)
        except NotationError:
            raise NotationError(repr(text), Reason.BAD_CONTRACT) from None
        return cls(bid.level, bid.strain, doubling)

    def __str__(self) -> str:
        return f"{self.level}{self.strain.code}{self.doubling.code}"
