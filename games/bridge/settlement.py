"""Settling up: each player's entry from a rubber, and the transfers that clear a set of balances.

Points are whole numbers (a rubber's result is already rounded to hundreds); money is the bot's
business (stake per 100 points). Players are any hashable ids: the rules never see Telegram users.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

from games.bridge.cards import Seat, Side
from games.core.settlement import EXACT_LIMIT, Transfer, transfers
from games.errors import Reason, SettlementError

__all__ = ["EXACT_LIMIT", "Transfer", "rubber_entries", "transfers"]

P = TypeVar("P", bound=Hashable)


def rubber_entries(
    players: Mapping[Seat, P], winner: Side | str | None, points: int
) -> dict[P, int]:
    """Each seated player's entry: +points to both winners, -points to both losers; sums to zero.

    The seed's "расчетный счет": the rounded result is credited to each member of the winning
    pair and debited to each member of the losing pair.
    """
    if len(set(players.values())) != 4 or set(players) != set(Seat):
        raise SettlementError("four different players, one per seat", Reason.SAME_PLAYER_TWICE)
    if points < 0:
        raise SettlementError(repr(points), Reason.UNBALANCED)
    if winner is None or points == 0:
        return {player: 0 for player in players.values()}
    side = winner if isinstance(winner, Side) else Side.parse(winner)
    return {player: points if seat.side is side else -points for seat, player in players.items()}


def add_balances(*ledgers: Mapping[P, int]) -> dict[P, int]:
    total: dict[P, int] = {}
    for ledger in ledgers:
        for player, amount in ledger.items():
            total[player] = total.get(player, 0) + amount
    return total
