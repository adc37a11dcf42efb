"""Settling a pulka (PREFERANS.md §7, the Code §4.2.14): exact balances, then whole whists.

    g'_i  = gora_i + m × (T − pool_i)        m = 2 for Leningrad, 1 otherwise
    bal_i = 10 × (mean(g') − g'_i) + Σ_j (W[i][j] − W[j][i])

Both of the Code's ways to "close the mountain" give these numbers: amnesty (each gora × 10/n
written by every other player) and the average gora; a property test holds them equal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction

from games.errors import PulkaError
from games.preferans.errors import PrefReason

Number = int | Fraction


class Variant(StrEnum):
    SOCHI = "sochi"
    LENINGRAD = "leningrad"
    ROSTOV = "rostov"
    STALINGRAD = "stalingrad"  # Sochi's rates with compulsory whist on 6♠ and no half-whist (§8)

    @classmethod
    def parse(cls, text: str | Variant) -> Variant:
        if isinstance(text, Variant):
            return text
        key = str(text).strip().lower()
        key = {"сочи": "sochi", "ленинград": "leningrad", "питер": "leningrad"}.get(key, key)
        key = {"ростов": "rostov", "сталинград": "stalingrad", "сталинградка": "stalingrad"}.get(
            key, key
        )
        try:
            return cls(key)
        except ValueError:
            raise PulkaError(repr(text), PrefReason.BAD_VARIANT) from None

    @property
    def gora_factor(self) -> int:
        """m: how many gora a missing pool point is worth when the mountain is closed."""
        return 2 if self is Variant.LENINGRAD else 1


def settle(
    pool: Sequence[Number],
    gora: Sequence[Number],
    whists: Sequence[Sequence[Number]],
    target: int,
    variant: str | Variant = Variant.SOCHI,
) -> list[Fraction]:
    """Each player's exact balance in whists; they sum to zero (fractions of 1/n whist)."""
    v = Variant.parse(variant)
    n = len(pool)
    if n not in (3, 4) or len(gora) != n or len(whists) != n or any(len(r) != n for r in whists):
        raise PulkaError(f"{n} players", PrefReason.BAD_PLAYERS)
    closed = closed_gora(pool, gora, target, v)
    mean = sum(closed, Fraction(0)) / n
    return [
        10 * (mean - closed[i])
        + sum((Fraction(whists[i][j]) - Fraction(whists[j][i]) for j in range(n)), Fraction(0))
        for i in range(n)
    ]


def closed_gora(
    pool: Sequence[Number], gora: Sequence[Number], target: int, variant: str | Variant
) -> list[Fraction]:
    """g'_i: each player's gora with the pool they lacked, m gora a point, as the mountain is
    closed (the breakdown shows it, ``settle`` compares it with its mean)."""
    factor = Variant.parse(variant).gora_factor
    return [Fraction(g) + factor * (target - Fraction(p)) for p, g in zip(pool, gora, strict=True)]


def whole_whists(balances: Sequence[Fraction | int]) -> list[int]:
    """Whole whists, nothing lost (§4.2.12 as PREFERANS.md §7 pins it): the floor of each exact
    balance, then the missing units one each to the largest fractional parts, ties to the lower
    seat. The result sums to what the balances sum to (zero) and is within 1 of each."""
    exact = [Fraction(b) for b in balances]
    floors = [math.floor(b) for b in exact]
    missing = round(sum(exact) - sum(floors))
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:missing]:
        floors[i] += 1
    return floors
