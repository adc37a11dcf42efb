"""One scorekeeper for every game: each entered result is a deal of its own whose one event says
what was entered, written exactly as a deal played online records its outcome; an undo is
another such deal, never an erasure. The sheet is the game's own match (``Game.new_match``)
replayed from the entries on every request, so there is nothing to lose in memory and nothing
to restore after a restart; a finished sheet goes to the ledger through the same function as
a match played online (``bot.tables.write_result``)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar, cast

from bot.tables import Refusal, match_options, write_result
from games.core.protocols import Game, Match
from storage.interface import (
    Chat,
    ConflictError,
    NotFound,
    Player,
    Storage,
    Table,
    TableSettings,
    TableStatus,
)

ENTRY, ENTRY_UNDO = "entry", "entry_undo"


class EntryLog:
    """A scoresheet's entries in storage."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def results(self, table: Table) -> list[Mapping[str, Any]]:
        """Every entry's result in order (``{"undo": True}`` for an undo), completing one whose
        process was killed between its two writes: the event says it all."""
        if table.match_id is None:
            return []
        found = []
        for summary in await self.storage.deals(table.match_id):
            result = summary.result
            if result is None:
                events = await self.storage.events(table.id, summary.deal_no)
                result = dict(events[0].payload) if events else {"undo": True}
                await self.storage.finish_deal(table.id, summary.deal_no, result)
            found.append(result)
        return found

    @staticmethod
    def check_open(table: Table, count: int, expected: int) -> None:
        """Refusal unless the sheet is open and has the ``expected`` number of entries (what the
        button or command saw: a double tap or a stale wizard writes nothing)."""
        if table.status is not TableStatus.PLAYING or table.match_id is None:
            raise Refusal("keeper_closed", game=table.game)
        if expected != count:
            raise Refusal("stale")

    async def write(
        self,
        table_id: int,
        expected: int,
        kind: str,
        payload: Mapping[str, Any],
        player_id: int | None,
        update_key: str | None,
    ) -> None:
        """Entry number ``expected + 1``; Refusal "stale" if another got there first;
        AlreadyApplied if ``update_key`` (a typed command's update) was applied before."""
        number = expected + 1
        try:
            await self.storage.start_deal(
                table_id, number, payload, player_id, update_key, kind=kind
            )
        except ConflictError:
            raise Refusal("stale") from None
        await self.storage.finish_deal(table_id, number, payload)


class Entry(Protocol):
    def code(self) -> str: ...


M = TypeVar("M", bound=Match)
E = TypeVar("E", bound=Entry)


@dataclass(frozen=True, slots=True)
class Finished:
    entries: Mapping[int, int]  # player id -> the game's units
    balances: Mapping[str, Mapping[int, int]]  # unit -> running accounts of the chat
    unfinished: bool


@dataclass(frozen=True, slots=True)
class Sheet(Generic[M]):
    """A kept match as it stands."""

    table: Table
    chat: Chat
    players: Mapping[int, Player]  # seat -> player, in seat order
    match: M
    results: tuple[Mapping[str, Any], ...]  # the entries in force, undos applied
    count: int  # entries made, undos included: the version buttons carry
    last: Any = ()  # what the latest entry wrote (its match's answer); nothing after an undo
    finished: Finished | None = None

    @property
    def size(self) -> int:
        return len(self.players)

    @property
    def names(self) -> dict[int, str]:
        """Each player's name by player id."""
        return {p.id: p.name for p in self.players.values()}


# An entry as the outcome a deal played online records, for the sheet it is entered on (a
# RuleError if it does not fit): each game's own.
Outcome = Callable[[E, "Sheet[Any]"], Mapping[str, Any]]


class SheetKeeper(Generic[M, E]):
    """A game's scorekeeper: its sheets are tables of ``game`` kept for real cards, their
    entries in an ``EntryLog``, replayed through the game's match. ``sizes``: how many players
    a sheet seats (else the refusal ``usage``); ``prepare``: the settings a new sheet gets
    from the table's and its number of players (it may refuse them)."""

    def __init__(
        self,
        storage: Storage,
        game: Game,
        outcome: Outcome[E],
        sizes: Sequence[int],
        usage: str,
        prepare: Callable[[TableSettings, int], TableSettings] = lambda settings, _: settings,
    ) -> None:
        self.storage = storage
        self.log = EntryLog(storage)
        self.rules = game
        self.game = game.name
        self.outcome = outcome
        self.sizes = tuple(sizes)
        self.usage = usage
        self.prepare = prepare

    async def open_sheet(self, chat_id: int, topic_id: int | None) -> Table | None:
        """The sheet open in this group or topic, of whatever game (one at a time)."""
        return await self.storage.table_in(chat_id, topic_id, scorekeeper=True)

    async def chat(self, tg_chat_id: int, title: str, language: str) -> Chat:
        return await self.storage.ensure_chat(tg_chat_id, title, language)

    async def known(self, username: str) -> Player | None:
        """A Telegram player named by @username, if the bot has met them."""
        return await self.storage.player_by_username(username)

    async def guest(self, chat_id: int, name: str) -> Player:
        """A player without Telegram, by name, reused within the group."""
        return await self.storage.add_guest(chat_id, name)

    async def table_settings(self, chat: Chat, topic_id: int | None) -> TableSettings:
        """A new sheet takes the settings of the online table of its game here, if any."""
        online = await self.storage.table_in(chat.id, topic_id)
        if online is not None and online.game == self.game:
            return online.settings
        return TableSettings(language=chat.language)

    async def open_new(
        self, chat: Chat, topic_id: int | None, players: Sequence[Player], settings: TableSettings
    ) -> int:
        """A new sheet (its table id) with ``players`` in seat order and its match started."""
        if len({p.id for p in players}) != len(players):
            raise Refusal("keeper_same_player", game=self.game)
        open_sheet = await self.open_sheet(chat.id, topic_id)
        if open_sheet is not None:  # its own command stops it
            raise Refusal("keeper_already_open", game=open_sheet.game)
        table = await self.storage.create_table(
            chat.id, topic_id, settings, scorekeeper=True, game=self.game
        )
        seats = {seat: player.id for seat, player in enumerate(players)}
        for seat, pid in seats.items():
            await self.storage.set_seat(table.id, seat, pid)
        await self.storage.start_match(table.id, seats)
        return table.id

    async def start(
        self, chat: Chat, topic_id: int | None, players: Sequence[Player], settings: TableSettings
    ) -> Sheet[M]:
        """A new sheet with ``players`` in seat order (bridge: N, E, S, W; Preferans: the
        first named deals first)."""
        if len(players) not in self.sizes:
            raise Refusal(self.usage)
        settings = self.prepare(settings, len(players))
        return await self.sheet(await self.open_new(chat, topic_id, players, settings))

    def _match(self, table: Table, chat: Chat, players: int) -> M:
        # The game's own match type: its keeper was made for this game (``M``).
        return cast(M, self.rules.new_match(players, match_options(table.settings, chat)))

    async def sheet(self, table_id: int) -> Sheet[M]:
        """The sheet as its entries say (NotFound for any table that is not this game's sheet:
        the completion in ``EntryLog`` would otherwise read an online deal as an entry)."""
        table = await self.storage.get_table(table_id)
        if not table.scorekeeper or table.game != self.game:
            raise NotFound(f"table {table_id} is not a {self.game} scoresheet")
        chat = await self.storage.get_chat(table.chat_id)
        players = {s: await self.storage.get_player(pid) for s, pid in sorted(table.seats.items())}
        results: list[Mapping[str, Any]] = []
        undone = False
        for result in await self.log.results(table):
            undone = bool(result.get("undo"))
            if not undone:
                results.append(result)
            elif results:
                results.pop()
        match = self._match(table, chat, len(players))
        last: Any = ()
        for result in results:
            last = match.record(result)
        if undone or not results:
            last = ()
        return Sheet(table, chat, players, match, tuple(results), table.current_deal, last)

    async def enter(
        self,
        table_id: int,
        expected: int,
        entry: E,
        player_id: int | None,
        update_key: str | None = None,
    ) -> tuple[Sheet[M], Sheet[M]]:
        """Score one deal: the sheet before and after. ``expected`` is the count the button or
        command saw: a double tap or a stale wizard writes nothing (Refusal "stale").
        ``update_key`` names a typed command's Telegram update: one delivered again after a
        crash writes nothing (AlreadyApplied)."""
        before = await self.sheet(table_id)
        self.log.check_open(before.table, before.count, expected)
        payload = self.outcome(entry, before)
        match = copy.deepcopy(before.match)
        last = match.record(payload)  # a RuleError refuses it before anything is written
        await self.log.write(table_id, expected, ENTRY, payload, player_id, update_key)
        after = replace(
            before,
            match=match,
            results=(*before.results, payload),
            count=expected + 1,
            last=last,
        )
        if match.finished:
            after = await self._finish(after, unfinished=False)
        return before, after

    async def undo(
        self, table_id: int, expected: int, player_id: int | None, update_key: str | None = None
    ) -> tuple[Sheet[M], Sheet[M]]:
        """Take the last entry back (itself an entry): the sheet before and after."""
        before = await self.sheet(table_id)
        self.log.check_open(before.table, before.count, expected)
        if not before.results:
            raise Refusal("keeper_nothing_to_undo")
        await self.log.write(table_id, expected, ENTRY_UNDO, {"undo": True}, player_id, update_key)
        return before, await self.sheet(table_id)

    async def end(self, table_id: int) -> Sheet[M]:
        """Stop the match now by consent: scored as the game scores an unfinished one (a rubber
        by RULES.md, a pulka by §6), and it goes to the ledger."""
        sheet = await self.sheet(table_id)
        if sheet.table.status is not TableStatus.PLAYING or sheet.table.match_id is None:
            raise Refusal("keeper_closed", game=self.game)
        sheet.match.close()
        return await self._finish(sheet, unfinished=True)

    async def _finish(self, sheet: Sheet[M], unfinished: bool) -> Sheet[M]:
        assert sheet.table.match_id is not None
        players = {seat: player.id for seat, player in sheet.players.items()}
        entries = await write_result(
            self.storage, sheet.table.match_id, sheet.match, players, unfinished, self.rules.unit
        )
        await self.storage.set_status(sheet.table.id, TableStatus.CLOSED)
        balances = await self.storage.accounts(sheet.chat.id)
        table = await self.storage.get_table(sheet.table.id)
        return replace(sheet, table=table, finished=Finished(entries, balances, unfinished))
