"""Bridge's scoresheet for real cards: the shared keeper (``bot.keeping.sheets``) over the
game's own ``RubberMatch`` (a rubber or a Chicago, as the table's options say); here only how
an entry is scored: exactly as a deal played online, the same typed outcome."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.keeping.sheets import Sheet as KeptSheet
from bot.keeping.sheets import SheetKeeper
from games.bridge.cards import Seat
from games.bridge.entry import Entry
from games.bridge.game import Outcome, RubberMatch
from games.core.registry import find_game
from storage.interface import Player, Storage

Sheet = KeptSheet[RubberMatch]


def outcome(entry: Entry, sheet: Sheet) -> Mapping[str, Any]:
    """An entry is scored exactly as a deal played online: the same typed outcome."""
    return Outcome(entry.contract, entry.declarer, entry.tricks, entry.honours).to_payload()


def seated(sheet: Sheet) -> dict[Seat, Player]:
    """The four by seat, N, E, S, W (N-S against E-W)."""
    return {Seat(seat): player for seat, player in sheet.players.items()}


def keeper(storage: Storage) -> SheetKeeper[RubberMatch, Entry]:
    """Bridge's keeper: four players, in seat order N, E, S, W."""
    return SheetKeeper(storage, find_game("bridge"), outcome, (4,), "keeper_usage")
