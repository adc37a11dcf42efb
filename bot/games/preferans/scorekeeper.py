"""The pulka kept for groups that play Preferans with real cards: the bot keeps the sheet, the
players the cards. As with bridge, each entered result is a deal of its own whose one event says
what was entered, written exactly as a deal played online records its outcome; an undo is
another such deal, never an erasure; the sheet is rebuilt from storage on every request.

The players are named in seat order, the first named dealing first; the deal passes clockwise
with every entry (an undo passes it back), so with four the sheet knows who sits out.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.games.keeping import ENTRY, ENTRY_UNDO, SheetKeeper
from bot.tables import Refusal
from games.errors import PulkaError, Reason
from games.preferans.cards import active_seats
from games.preferans.deal import Kind, Result
from games.preferans.entry import Entry
from games.preferans.errors import PrefReason
from games.preferans.game import PulkaMatch
from storage.interface import (
    WHISTS,
    Chat,
    ConflictError,
    NotFound,
    Player,
    Table,
    TableSettings,
    TableStatus,
)

GAME = "preferans"


@dataclass(frozen=True, slots=True)
class Finished:
    entries: Mapping[int, int]  # player id -> whists
    balances: Mapping[str, Mapping[int, int]]  # unit -> running accounts of the chat
    unfinished: bool


@dataclass(frozen=True, slots=True)
class PulkaSheet:
    """A scorekept pulka as it stands."""

    table: Table
    chat: Chat
    players: Mapping[int, Player]  # seat -> player
    match: PulkaMatch
    results: tuple[Mapping[str, Any], ...]  # the entries in force, undos applied
    count: int  # entries made, undos included: the version buttons carry
    last: str = ""  # the latest entry in the engine's text form
    finished: Finished | None = None

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def dealer(self) -> int:
        """Who deals the next deal (with four, sits it out)."""
        return len(self.results) % self.size

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(active_seats(self.size, self.dealer))

    @property
    def names(self) -> dict[int, str]:
        return {seat: p.name for seat, p in self.players.items()}


def outcome(entry: Entry, players: int, dealer: int) -> dict[str, Any]:
    """A typed or buttoned entry as the outcome a deal played online records (PulkaError or
    NotationError if it does not fit the deal)."""
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


def _match(table: Table, players: int) -> PulkaMatch:
    return PulkaMatch(players, table.settings.options)


class PulkaKeeper(SheetKeeper):
    game = GAME

    async def start(
        self,
        chat: Chat,
        topic_id: int | None,
        players: Sequence[Player],
        settings: TableSettings,
    ) -> PulkaSheet:
        """A new pulka with three or four players in seat order, the first dealing first."""
        if len(players) not in (3, 4):
            raise Refusal("pref_keeper_usage")
        options = {**settings.options, "players": len(players)}
        PulkaMatch(len(players), options)  # PulkaError for settings no pulka can have
        table_id = await self.open_new(chat, topic_id, players, replace(settings, options=options))
        return await self.sheet(table_id)

    async def sheet(self, table_id: int) -> PulkaSheet:
        """The sheet as its entries say (NotFound for a table that is not a pulka's sheet)."""
        table = await self.storage.get_table(table_id)
        if not table.scorekeeper or table.game != self.game:
            raise NotFound(f"table {table_id} is not a pulka's sheet")
        chat = await self.storage.get_chat(table.chat_id)
        players = {s: await self.storage.get_player(pid) for s, pid in sorted(table.seats.items())}
        results: list[Mapping[str, Any]] = []
        for result in await self.log.results(table):
            if not result.get("undo"):
                results.append(result)
            elif results:
                results.pop()
        match = _match(table, len(players))
        for result in results:
            match.record(result)
        return PulkaSheet(table, chat, players, match, tuple(results), table.current_deal)

    async def enter(
        self,
        table_id: int,
        expected: int,
        entry: Entry,
        player_id: int | None,
        update_key: str | None = None,
    ) -> tuple[PulkaSheet, PulkaSheet]:
        """Write one deal: the sheet before and after. ``expected`` is the count the button or
        command saw: a double tap or a stale wizard writes nothing (Refusal "stale")."""
        before = await self.sheet(table_id)
        self.log.check_open(before.table, before.count, expected)
        payload = outcome(entry, before.size, before.dealer)
        match = copy.deepcopy(before.match)
        match.record(payload)  # a RuleError refuses it before anything is written
        await self.log.write(table_id, expected, ENTRY, payload, player_id, update_key)
        after = replace(
            before,
            match=match,
            results=(*before.results, payload),
            count=expected + 1,
            last=entry.code(),
        )
        if match.finished:
            after = await self._finish(after, unfinished=False)
        return before, after

    async def undo(
        self, table_id: int, expected: int, player_id: int | None, update_key: str | None = None
    ) -> tuple[PulkaSheet, PulkaSheet]:
        before = await self.sheet(table_id)
        self.log.check_open(before.table, before.count, expected)
        if not before.results:
            raise Refusal("keeper_nothing_to_undo")
        await self.log.write(table_id, expected, ENTRY_UNDO, {"undo": True}, player_id, update_key)
        return before, await self.sheet(table_id)

    async def end(self, table_id: int) -> PulkaSheet:
        """Stop the pulka now by consent: settled by §6's rule, and it goes to the ledger."""
        sheet = await self.sheet(table_id)
        if sheet.table.status is not TableStatus.PLAYING or sheet.table.match_id is None:
            raise Refusal("keeper_closed", game=self.game)
        sheet.match.close()
        return await self._finish(sheet, unfinished=True)

    async def _finish(self, sheet: PulkaSheet, unfinished: bool) -> PulkaSheet:
        assert sheet.table.match_id is not None
        ids = {seat: player.id for seat, player in sheet.players.items()}
        amounts = sheet.match.settle()
        entries = {ids[seat]: int(amounts[seat]) for seat in ids}
        with contextlib.suppress(ConflictError):
            await self.storage.finish_match(
                sheet.table.match_id, sheet.match.summary(), entries, ids, unfinished, WHISTS
            )
        await self.storage.set_status(sheet.table.id, TableStatus.CLOSED)
        balances = await self.storage.accounts(sheet.chat.id)
        table = await self.storage.get_table(sheet.table.id)
        return replace(sheet, table=table, finished=Finished(entries, balances, unfinished))
