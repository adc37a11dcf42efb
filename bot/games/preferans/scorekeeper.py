"""The pulka kept for groups that play Preferans with real cards: the shared keeper
(``bot.keeping.sheets``) over the game's own ``PulkaMatch``; here only how an entry reads as
the outcome a deal played online records.

The players are named in seat order, the first named dealing first; the deal passes clockwise
with every entry (an undo passes it back), so with four the sheet knows who sits out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.keeping.sheets import Sheet, SheetKeeper
from games.core.registry import find_game
from games.errors import PulkaError, Reason
from games.preferans.cards import active_seats
from games.preferans.deal import Kind, Result
from games.preferans.entry import Entry
from games.preferans.errors import PrefReason
from games.preferans.game import PulkaMatch
from storage.interface import Storage, TableSettings

GAME = "preferans"


PulkaSheet = Sheet[PulkaMatch]


def dealer_of(sheet: PulkaSheet) -> int:
    """Who deals the next deal (with four, sits it out)."""
    return len(sheet.results) % sheet.size


def active_of(sheet: PulkaSheet) -> tuple[int, ...]:
    """The three who play the next deal."""
    return tuple(active_seats(sheet.size, dealer_of(sheet)))


def seat_names(sheet: PulkaSheet) -> dict[int, str]:
    """Each seat's player's name."""
    return {seat: p.name for seat, p in sheet.players.items()}


def outcome(entry: Entry, sheet: PulkaSheet) -> dict[str, Any]:
    """A typed or buttoned entry as the outcome a deal played online records (PulkaError or
    NotationError if it does not fit the deal)."""
    players, dealer = sheet.size, dealer_of(sheet)
    if entry.dealer is not None and entry.dealer != dealer:
        raise PulkaError(f"dealer {entry.dealer}, not {dealer}", PrefReason.BAD_DEALER)
    active = list(active_seats(players, dealer))
    tricks = entry.tricks
    if entry.kind == "raspasy":
        if tricks is None or len(tricks) != len(active):
            raise PulkaError(repr(tricks), Reason.BAD_TRICKS)
        result = Result(Kind.RASPASY, None, None, {}, dict(zip(active, tricks, strict=True)))
    elif entry.kind == "misere":
        assert entry.declarer is not None and tricks is not None
        result = Result(Kind.MISERE, entry.declarer, None, {}, {entry.declarer: tricks[0]})
    else:
        declarer = entry.declarer
        assert declarer is not None and entry.whist is not None
        if declarer not in active:
            raise PulkaError(repr(declarer), Reason.BAD_SEAT)
        at = active.index(declarer)
        first, second = active[(at + 1) % 3], active[(at + 2) % 3]
        by_seat = None
        if tricks is not None:
            if len(tricks) != len(active):
                raise PulkaError(repr(tricks), Reason.BAD_TRICKS)
            by_seat = dict(zip(active, tricks, strict=True))
        whist = {first: entry.whist[0], second: entry.whist[1]}
        result = Result(Kind.GAME, declarer, entry.contract, whist, by_seat)
    return {**result.to_payload(), "dealer": dealer}


def _prepare(settings: TableSettings, players: int) -> TableSettings:
    """A pulka's sheet knows its number of players; settings no pulka can have are refused
    (PulkaError) before the sheet is opened."""
    options = {**settings.options, "players": players}
    PulkaMatch(players, options)
    return replace(settings, options=options)


def keeper(storage: Storage) -> SheetKeeper[PulkaMatch, Entry]:
    """Preferans's keeper: three or four players in seat order, the first dealing first."""
    return SheetKeeper(
        storage, find_game(GAME), outcome, (3, 4), "pref_keeper_usage", prepare=_prepare
    )
