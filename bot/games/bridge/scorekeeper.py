"""Scorekeeping for groups that play with real cards: the bot keeps the sheet, the players the
cards. Each entered result is a deal of its own (its one event says what was entered); an undo
is another such deal, never an erasure. The sheet is rebuilt from storage on every request, so
there is nothing to lose in memory and nothing to restore after a restart.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.games.keeping import ENTRY, ENTRY_UNDO, SheetKeeper
from bot.tables import Refusal
from games.bridge.cards import Seat, Side
from games.bridge.entry import Entry
from games.bridge.game import MatchSheet, Outcome, RubberMatch
from games.bridge.rubber import ScoreEntry
from games.bridge.settlement import rubber_entries
from storage.interface import (
    Chat,
    ConflictError,
    NotFound,
    Player,
    Table,
    TableSettings,
    TableStatus,
)


@dataclass(frozen=True, slots=True)
class Finished:
    winner: Side | None
    points: int
    entries: Mapping[int, int]  # player id -> points
    balances: Mapping[str, Mapping[int, int]]  # unit -> running accounts of the chat
    unfinished: bool


@dataclass(frozen=True, slots=True)
class Sheet:
    """A scorekeeper's rubber as it stands."""

    table: Table
    chat: Chat
    players: Mapping[Seat, Player]
    rubber: MatchSheet
    count: int  # deals entered, undos included: the version buttons carry
    last: tuple[ScoreEntry, ...] = ()  # what the latest entry wrote
    last_entry: Entry | None = None
    finished: Finished | None = None

    @property
    def names(self) -> dict[int, str]:
        return {p.id: p.name for p in self.players.values()}


def _payload(entry: Entry) -> dict[str, Any]:
    """An entry is scored exactly as a deal played online: the same typed outcome."""
    return Outcome(entry.contract, entry.declarer, entry.tricks, entry.honours).to_payload()


# An entry is a deal of its own whose one event says what was entered (logs written before
# these kinds existed call it "deal"; the sheet reads deals' results, whatever the kind): see
# bot.games.keeping.


def _match(table: Table, chat: Chat) -> RubberMatch:
    """The rubber with the table's scoring options and the group's rounding."""
    return RubberMatch({**table.settings.options, "rounding": chat.settings.rounding.value})


class Scorekeeper(SheetKeeper):
    game = "bridge"

    async def start(
        self, chat: Chat, topic_id: int | None, players: Sequence[Player], settings: TableSettings
    ) -> Sheet:
        """A new sheet with the four in seat order N, E, S, W (N-S against E-W)."""
        if len(players) != 4:
            raise Refusal("keeper_usage")
        return await self.sheet(await self.open_new(chat, topic_id, players, settings))

    async def sheet(self, table_id: int) -> Sheet:
        """The sheet as its entries say (NotFound for any table that is not a scoresheet: the
        completion below would otherwise read an online deal in progress as an entry)."""
        table = await self.storage.get_table(table_id)
        if not table.scorekeeper or table.game != self.game:
            raise NotFound(f"table {table_id} is not a bridge scoresheet")
        chat = await self.storage.get_chat(table.chat_id)
        players = {Seat(s): await self.storage.get_player(pid) for s, pid in table.seats.items()}
        match = _match(table, chat)
        rubber = match.rubber
        last: list[ScoreEntry] = []
        for result in await self.log.results(table):
            if result.get("undo"):
                rubber.undo_last()
                last = []
            else:
                last = match.record(result)
        return Sheet(table, chat, players, rubber, table.current_deal, tuple(last))

    async def enter(
        self,
        table_id: int,
        expected: int,
        entry: Entry,
        player_id: int | None,
        update_key: str | None = None,
    ) -> tuple[Sheet, Sheet]:
        """Score one deal: the sheet before and after. ``expected`` is the count the button or
        command saw: a double tap or a stale wizard writes nothing (Refusal "stale").
        ``update_key`` names a typed command's Telegram update: one delivered again after a
        crash writes nothing (AlreadyApplied)."""
        before = await self.sheet(table_id)
        self.log.check_open(before.table, before.count, expected)
        payload = _payload(entry)
        match = _match(before.table, before.chat)
        match.rubber = rubber = copy.deepcopy(before.rubber)
        last = match.record(payload)  # a RuleError refuses it before anything is written
        await self.log.write(table_id, expected, ENTRY, payload, player_id, update_key)
        after = replace(
            before, rubber=rubber, count=expected + 1, last=tuple(last), last_entry=entry
        )
        if rubber.finished:
            after = await self._finish(after, unfinished=False)
        return before, after

    async def undo(
        self, table_id: int, expected: int, player_id: int | None, update_key: str | None = None
    ) -> tuple[Sheet, Sheet]:
        """Take the last entry back (itself an entry): the sheet before and after."""
        before = await self.sheet(table_id)
        self.log.check_open(before.table, before.count, expected)
        if not before.rubber.entries:
            raise Refusal("keeper_nothing_to_undo")
        await self.log.write(table_id, expected, ENTRY_UNDO, {"undo": True}, player_id, update_key)
        rubber = copy.deepcopy(before.rubber)
        rubber.undo_last()
        return before, replace(before, rubber=rubber, count=expected + 1, last=())

    async def end(self, table_id: int) -> Sheet:
        """Stop the rubber now: scored as unfinished (RULES.md), and it goes to the ledger."""
        sheet = await self.sheet(table_id)
        if sheet.table.status is not TableStatus.PLAYING or sheet.table.match_id is None:
            raise Refusal("keeper_closed", game=self.game)
        sheet.rubber.close()
        return await self._finish(sheet, unfinished=True)

    async def _finish(self, sheet: Sheet, unfinished: bool) -> Sheet:
        assert sheet.table.match_id is not None
        match = _match(sheet.table, sheet.chat)
        match.rubber = sheet.rubber
        winner, points = match.result()
        ids = {seat: player.id for seat, player in sheet.players.items()}
        entries = rubber_entries(ids, winner, points)
        with contextlib.suppress(ConflictError):
            await self.storage.finish_match(
                sheet.table.match_id,
                match.summary(),
                entries,
                {int(seat): pid for seat, pid in ids.items()},
                unfinished,
            )
        await self.storage.set_status(sheet.table.id, TableStatus.CLOSED)
        balances = await self.storage.accounts(sheet.chat.id)
        table = await self.storage.get_table(sheet.table.id)
        finished = Finished(winner, points, entries, balances, unfinished)
        return replace(sheet, table=table, finished=finished)
