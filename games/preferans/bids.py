"""Preferans bids: the ladder 6♠ … 10NT with misère between 8NT and 9♠ (PREFERANS.md §2).

Strains rank ♠ < ♣ < ♦ < ♥ < NT (not bridge's order). Text: ``6S`` … ``10NT``, ``MIS``; Russian
words, letters and suit symbols are read too (``7♥``, ``6 пик``, ``мизер``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from games.errors import NotationError, Reason

PRICE = {6: 2, 7: 4, 8: 6, 9: 8, 10: 10}  # p: a contract's price in the pool
OBLIGATION = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}  # O: tricks the defenders must take together
MISERE_PRICE = 10


class Strain(IntEnum):
    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3
    NOTRUMP = 4

    @property
    def code(self) -> str:
        return ("S", "C", "D", "H", "NT")[self]

    @classmethod
    def parse(cls, text: str) -> Strain:
        key = text.strip().upper()
        found = STRAIN_WORDS.get(key)
        if found is None:
            raise NotationError(repr(text), Reason.BAD_CONTRACT)
        return found


STRAIN_WORDS = {
    "S": Strain.SPADES, "♠": Strain.SPADES, "П": Strain.SPADES, "ПИК": Strain.SPADES,
    "ПИКИ": Strain.SPADES,
    "C": Strain.CLUBS, "♣": Strain.CLUBS, "Т": Strain.CLUBS, "ТРЕФ": Strain.CLUBS,
    "ТРЕФЫ": Strain.CLUBS, "К": Strain.CLUBS,
    "D": Strain.DIAMONDS, "♦": Strain.DIAMONDS, "Б": Strain.DIAMONDS, "БУБ": Strain.DIAMONDS,
    "БУБНЫ": Strain.DIAMONDS,
    "H": Strain.HEARTS, "♥": Strain.HEARTS, "Ч": Strain.HEARTS, "ЧЕРВ": Strain.HEARTS,
    "ЧЕРВЫ": Strain.HEARTS,
    "NT": Strain.NOTRUMP, "N": Strain.NOTRUMP, "БК": Strain.NOTRUMP, "Б/К": Strain.NOTRUMP,
}  # fmt: skip
MISERE_WORDS = ("MIS", "MISERE", "MISÈRE", "М", "МИЗ", "МИЗЕР")
MISERE_RANK = 15  # ranks after 8NT (rank 14) and before 9♠


@dataclass(frozen=True, slots=True, order=True)
class Bid:
    """A level 6..10 and a strain, or misère (``level`` 0)."""

    rank: int  # 0 = 6♠ … 14 = 8NT, 15 = misère, 16 = 9♠ … 25 = 10NT

    @classmethod
    def of(cls, level: int, strain: Strain) -> Bid:
        if level not in PRICE:
            raise NotationError(f"{level}{strain.code}", Reason.BAD_CONTRACT)
        rank = (level - 6) * 5 + int(strain)
        return cls(rank + 1 if rank >= MISERE_RANK else rank)

    @classmethod
    def misere(cls) -> Bid:
        return cls(MISERE_RANK)

    @property
    def is_misere(self) -> bool:
        return self.rank == MISERE_RANK

    @property
    def level(self) -> int:
        """6..10; misère counts as 10 for its price but has no level of its own (0)."""
        if self.is_misere:
            return 0
        rank = self.rank - 1 if self.rank > MISERE_RANK else self.rank
        return 6 + rank // 5

    @property
    def strain(self) -> Strain | None:
        if self.is_misere:
            return None
        rank = self.rank - 1 if self.rank > MISERE_RANK else self.rank
        return Strain(rank % 5)

    @property
    def price(self) -> int:
        return MISERE_PRICE if self.is_misere else PRICE[self.level]

    @classmethod
    def parse(cls, text: str) -> Bid:
        key = text.strip().upper().replace(" ", "")
        if key in MISERE_WORDS:
            return cls.misere()
        digits = 2 if key[:2] == "10" else 1
        if not key[:digits].isascii() or not key[:digits].isdigit():
            raise NotationError(repr(text), Reason.BAD_CONTRACT)
        return cls.of(int(key[:digits]), Strain.parse(key[digits:]))

    def __str__(self) -> str:
        if self.is_misere:
            return "MIS"
        strain = self.strain
        assert strain is not None
        return f"{self.level}{strain.code}"


ALL_BIDS: tuple[Bid, ...] = tuple(Bid(rank) for rank in range(26))
