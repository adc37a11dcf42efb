"""Settling up, for any game: the fewest transfers that clear a set of balances.

Players are any hashable ids (the rules never see Telegram users); amounts are whole units of
whatever the game settles in (bridge points, Preferans whists).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from games.errors import Reason, SettlementError

P = TypeVar("P", bound=Hashable)

# Above this many players the exact search (2**n subsets) gives way to greedy matching.
EXACT_LIMIT = 12


@dataclass(frozen=True, slots=True)
class Transfer(Generic[P]):
    payer: P
    payee: P
    amount: int


def transfers(balances: Mapping[P, int]) -> list[Transfer[P]]:
    """Payments that bring every balance to zero (debtors pay creditors), as few as practical.

    The fewest transfers split the players into as many zero-sum groups as possible (each group
    of k then needs k-1 payments). Up to EXACT_LIMIT players with non-zero balances that split is
    found exactly; beyond, equal opposite pairs are matched first and the rest greedily.
    """
    if sum(balances.values()) != 0:
        raise SettlementError(repr(dict(balances)), Reason.UNBALANCED)
    people = sorted((p for p, b in balances.items() if b), key=lambda p: (-balances[p], str(p)))
    groups = _zero_sum_groups(people, balances) if len(people) <= EXACT_LIMIT else [people]
    result: list[Transfer[P]] = []
    for group in groups:
        result.extend(_greedy({p: balances[p] for p in group}))
    return result


def _greedy(balances: Mapping[P, int]) -> list[Transfer[P]]:
    """Match equal opposite amounts first, then the largest debtor pays the largest creditor."""
    left = dict(balances)
    result: list[Transfer[P]] = []
    debtors = [p for p, b in left.items() if b < 0]
    for debtor in debtors:
        for creditor, b in left.items():
            if b > 0 and b == -left[debtor]:
                result.append(Transfer(debtor, creditor, b))
                left[debtor] = left[creditor] = 0
                break
    while True:
        creditors = sorted((p for p, b in left.items() if b > 0), key=lambda p: -left[p])
        payers = sorted((p for p, b in left.items() if b < 0), key=lambda p: left[p])
        if not creditors or not payers:
            break
        creditor, debtor = creditors[0], payers[0]
        amount = min(left[creditor], -left[debtor])
        result.append(Transfer(debtor, creditor, amount))
        left[creditor] -= amount
        left[debtor] += amount
    return result


def _zero_sum_groups(people: list[P], balances: Mapping[P, int]) -> list[list[P]]:
    """Split into the largest number of zero-sum groups (dynamic programming over subsets)."""
    n = len(people)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + balances[people[low.bit_length() - 1]]
    # best[mask]: most zero-sum groups that the players in ``mask`` can form when sums[mask] == 0.
    best = [0] * (1 << n)
    choice = [0] * (1 << n)
    for mask in range(1, 1 << n):
        if sums[mask] != 0:
            continue
        # The lowest player in mask belongs to some zero-sum sub-group ``sub``.
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        best[mask], choice[mask] = 1, mask
        while True:
            group = sub | low
            if group != mask and sums[group] == 0 and best[mask ^ group] + 1 > best[mask]:
                best[mask], choice[mask] = best[mask ^ group] + 1, group
            if sub == 0:
                break
            sub = (sub - 1) & rest
    groups: list[list[P]] = []
    mask = full
    while mask:
        group = choice[mask]
        groups.append([people[i] for i in range(n) if group >> i & 1])
        mask ^= group
    return groups
