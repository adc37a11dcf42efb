"""The table service: the one owner of live tables. Knows nothing of Telegram.

It takes (table id, player, action), serialises work per table with a lock, applies the action
through ``games``, writes the event to storage *before* anything is said about it, and returns
a ``Change``: a snapshot to render and the notices to post. Its cache of live tables is only a
cache: any table can be rebuilt from storage by replaying its events.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import gc
import logging
import secrets
import time
import weakref
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from games.core.protocols import Game, Match, State
from games.core.registry import find_game
from games.core.shuffle import shuffled
from games.errors import RuleError
from storage.events import replay
from storage.interface import (
    PRACTICE,
    Chat,
    ChatSettings,
    ConflictError,
    DealSummary,
    Event,
    NotFound,
    Player,
    Storage,
    Table,
    TableBundle,
    TableSettings,
    TableStatus,
)
from storage.interface import Match as StoredMatch

log = logging.getLogger(__name__)

Seat = int  # a seat index, 0.. clockwise; what a seat is called is the game UI's business

# Seconds before each attempt to bring a table back after a storage failure (about 10 minutes).
RECOVERY_DELAYS = (0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 60, 120, 120, 120, 120)


VOTE = "vote"  # an event kind of the deal's log that the rules skip
UNDO_ASK, UNDO_ANSWER, SUB_ASK, SUB_ANSWER, END = "undo", "undo_answer", "sub", "sub_answer", "end"
TAKEOVER = "takeover"  # a person asked for a robot's seat: theirs from the next deal
ROBOT = "robot"  # the player flag of a robot


class Written(Exception):
    """The action was written and stands, but what follows it failed (storage trouble while
    scoring the deal, say); the table is reloaded from its log and catches up by itself."""


class Refusal(Exception):
    """An action the table will not take now; the bot translates ``refusal.<key>``."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True, slots=True)
class Holder:
    """The person in a seat, as views need them."""

    player_id: int
    name: str
    tg_user_id: int | None
    language: str
    robot: bool = False


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table as it stands, for rendering. Hands are reached only through ``view``."""

    table_id: int
    chat: Chat
    topic_id: int | None
    settings: TableSettings
    status: TableStatus
    seats: Mapping[Seat, Holder]
    deal_no: int
    state: State[Any, Any] | None
    match: Match | None
    paused: frozenset[Seat]
    dealer_drawn: bool = False
    end_votes: frozenset[Seat] = frozenset()
    actions: int = 0  # events in the current deal: a turn timer checks nothing happened since
    last_at: float = 0.0  # when the last of them was written (epoch seconds)
    token: str = ""  # the table's deep-link token
    game: Game = dataclasses.field(default_factory=lambda: find_game("bridge"))
    players: int = 0  # seats in play: the match's, or the game's most while seating
    first_deal: int = 1  # the number of the match's first deal
    takeovers: Mapping[Seat, Holder] = dataclasses.field(default_factory=dict)

    def robot_turns(self) -> list[Seat]:
        """The robot seats that have something to do now (a call, a card, a claim to answer)."""
        state = self.state
        if state is None or state.finished or self.status is not TableStatus.PLAYING:
            return []
        return [
            seat
            for seat, holder in sorted(self.seats.items())
            if holder.robot and state.legal_actions(seat)
        ]

    def deal_in_match(self, deal_no: int) -> int:
        """A deal as players count it: from 1 in each match (the log counts per table)."""
        return deal_no - self.first_deal + 1 if deal_no >= self.first_deal else deal_no

    def check_sit(self, player_id: int, seat: Seat) -> None:
        """Refusal if the player may not take ``seat`` now (the same checks ``sit`` makes)."""
        holder = self.seats.get(seat)
        if holder is not None and holder.robot and self.seat_of(player_id) is None:
            if self.status is TableStatus.CLOSED:
                raise Refusal("table_closed")
            return  # a person may always take a robot's place (during a match: next deal)
        _check_sit(self.status, self.seats, player_id, seat)

    def view(self, viewer: Seat | None) -> Any:
        return None if self.state is None else self.state.view(viewer)

    def seat_of(self, player_id: int) -> Seat | None:
        return _seat_in(self.seats, player_id)


@dataclass(frozen=True, slots=True)
class SetAside:
    """A table that could not be restored from its log: its group is told, nothing else stops."""

    table_id: int
    chat: Chat
    topic_id: int | None
    language: str  # the table's


@dataclass(frozen=True, slots=True)
class DealFinished:
    """A deal ended and its outcome was written on the match."""

    deal_no: int
    outcome: Mapping[str, Any]  # the game's JSON result, as stored
    written: Any  # what the match wrote (bridge: score entries)
    final: State[Any, Any]
    match: Match  # after the deal
    before: Match  # as the deal was played (bridge: who was vulnerable)
    holders: Mapping[Seat, Holder] = dataclasses.field(default_factory=dict)  # who played it


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A match (a rubber, a pulka) ended and was entered in the group's ledger."""

    summary: Mapping[str, Any]  # the game's JSON summary, as stored
    entries: Mapping[int, int]  # player id -> amount
    balances: Mapping[str, Mapping[int, int]]  # unit -> player id -> running account here
    names: Mapping[int, str]
    match: Match
    unfinished: bool = False
    unit: str = "points"  # what ``entries`` count (the game's unit)


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A deal of a match as it was played, for hand records and analysis."""

    deal_no: int  # the table's count
    number: int  # the deal's number in its match
    state: State[Any, Any]  # replayed from its log: to its end, or as far as it went
    before: Match  # the match as the deal was played (bridge: who was vulnerable)
    names: Mapping[Seat, str]  # who sat where
    at: str  # when it was dealt (ISO time)


@dataclass
class UndoRequest:
    seat: Seat
    seq: int  # the event count when asked: any action since makes it moot
    allowed: set[Seat] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class UndoAsked:
    seat: Seat


@dataclass(frozen=True, slots=True)
class UndoAnswered:
    asker: Seat
    by: Seat
    allowed: bool


@dataclass
class SubRequest:
    seat: Seat
    newcomer: Holder
    agreed: set[Seat] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class SubProposed:
    seat: Seat
    leaving: str
    newcomer: str
    agreed: frozenset[Seat]


@dataclass(frozen=True, slots=True)
class SubDone:
    seat: Seat
    left: Holder
    newcomer: Holder


@dataclass(frozen=True, slots=True)
class SubRefused:
    seat: Seat
    by: Seat


@dataclass(frozen=True, slots=True)
class GameSwitched:
    """The table changed its game between matches."""

    game: str
    kept: tuple[str, ...]  # names still seated
    stood: tuple[str, ...]  # names that stood up (no such seat, or a robot)
    seats: int  # the new game's seats


@dataclass(frozen=True, slots=True)
class TakeoverAsked:
    """A person will take a robot's seat when the deal in progress ends."""

    seat: Seat
    newcomer: str


@dataclass(frozen=True, slots=True)
class EndVote:
    seat: Seat
    agree: bool


Notice = Any  # the service's notices above, and whatever a game's ``notices`` returns


@dataclass(frozen=True, slots=True)
class Change:
    snapshot: Snapshot
    notices: tuple[Notice, ...] = ()


@dataclass
class _Live:
    table: Table
    chat: Chat
    game: Game
    holders: dict[Seat, Holder]
    match_id: int | None
    match: Match | None
    deal_no: int
    state: State[Any, Any] | None
    seq: int  # events in the deal's log (rules' and votes'): the next one's key
    paused: set[Seat] = field(default_factory=set)
    dealer_drawn: bool = False
    end_votes: set[Seat] = field(default_factory=set)  # consent to stop the match now
    undo_request: UndoRequest | None = None
    sub_request: SubRequest | None = None
    last_at: float = field(default_factory=time.time)
    match_deals: set[int] = field(default_factory=set)  # deal numbers of the match
    scored: set[int] = field(default_factory=set)  # those whose result storage holds
    moves: int = 1  # the deal event and every rules action: the position buttons name
    players: int = 0  # seats in play in the match
    takeovers: dict[Seat, Holder] = field(default_factory=dict)  # robot seats people asked for

    @property
    def humans(self) -> set[Seat]:
        return {seat for seat, holder in self.holders.items() if not holder.robot}

    @property
    def table_size(self) -> int:
        """The seats of this table: its game's count for the table's options."""
        return self.game.table_size(self.table.settings.options)

    @property
    def seat_count(self) -> int:
        return self.players or self.table_size


class TableService:
    """Owns live tables. ``randbelow`` is the shuffle's randomness (``secrets`` by default)."""

    def __init__(
        self, storage: Storage, randbelow: Callable[[int], int] = secrets.randbelow
    ) -> None:
        self.storage = storage
        self.randbelow = randbelow
        self._live: dict[int, _Live] = {}
        # A table's lock lives while someone holds or awaits it: a table nobody touches costs
        # nothing here, however many tables the bot has seen.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._players: dict[int, Player] = {}  # Telegram user id -> player
        self._usernames: dict[int, str | None] = {}  # Telegram user id -> @username
        self._recovering: dict[int, asyncio.Task[None]] = {}
        # Tables whose log does not replay: never loaded again by this process.
        self.set_aside: dict[int, SetAside] = {}
        # Told of a table brought back after a failure (the bot shows it): set by the app.
        self.on_recovered: Callable[[Change], None] | None = None

    # --- players ----------------------------------------------------------------------------

    async def player(
        self, tg_user_id: int, name: str, language: str, username: str | None = None
    ) -> Player:
        """The player for a Telegram user; storage is written only when something changed."""
        known = self._players.get(tg_user_id)
        if (
            known is not None
            and known.name == name
            and (not language or known.language == language)
            and self._usernames.get(tg_user_id) == username
        ):
            return known
        player = await self.storage.ensure_player(tg_user_id, name, language, username)
        self._players[tg_user_id] = player
        self._usernames[tg_user_id] = username
        return player

    async def reachable(self, player_id: int) -> bool:
        """The bot may write to the player privately (they started it and did not block it)."""
        return await self.storage.player_flag(player_id, "can_write")

    async def started(self, player: Player) -> list[Change]:
        """The player opened a private chat with the bot: it may write to them now, and play
        paused because they had blocked it resumes."""
        await self.storage.set_player_flag(player.id, "can_write", True)
        if player.tg_user_id is None or not await self.storage.player_flag(player.id, "blocked"):
            return []
        return await self.set_blocked(player.tg_user_id, False)

    async def player_by_username(self, username: str) -> Player | None:
        return await self.storage.player_by_username(username)

    async def tables_of(self, player_id: int) -> list[tuple[int, Chat]]:
        """The open tables the player sits at, with their groups."""
        return [
            (table.id, await self.storage.get_chat(table.chat_id))
            for table in await self.storage.tables_of_player(player_id)
        ]

    async def migrate_chat(self, old_tg_chat_id: int, new_tg_chat_id: int) -> None:
        """A group became a supergroup: same tables and ledger under its new Telegram id."""
        await self.storage.migrate_chat(old_tg_chat_id, new_tg_chat_id)
        self.forget_chat()

    # --- loading ------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _guard(self, table_id: int) -> AsyncIterator[None]:
        """The table's lock around a change. A refusal changes nothing; any other failure (a
        storage error half-way through a follow-up, say: the event is written, the next deal
        is not) drops the cached table, and a recovery reloads it from storage and completes
        what the events say is due, as a restart would, so the table is never left stuck."""
        async with self._lock(table_id):
            try:
                yield
            except (Refusal, RuleError):
                raise
            except Exception:
                self.forget(table_id)
                self._recover_later(table_id)
                raise

    async def close(self) -> None:
        """Stop recoveries in flight (a restart recovers every table anyway)."""
        for task in list(self._recovering.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _recover_later(self, table_id: int) -> None:
        if table_id in self._recovering:
            return
        task = asyncio.create_task(self._recover(table_id), name=f"recover:{table_id}")
        self._recovering[table_id] = task
        task.add_done_callback(lambda _: self._recovering.pop(table_id, None))

    async def _recover(self, table_id: int) -> None:
        for delay in RECOVERY_DELAYS:
            await asyncio.sleep(delay)
            try:
                async with self._lock(table_id):
                    live = self._live[table_id] = await self._load(table_id)
                    notices = await self._advance(live)
                    change = Change(self._snapshot(live), tuple(notices))
            except Refusal:
                return  # the table is gone
            except Exception:
                self.forget(table_id)
                log.warning("table %s: recovery failed, trying again", table_id, exc_info=True)
                continue
            log.info("table %s: recovered from storage", table_id)
            if self.on_recovered is not None:
                self.on_recovered(change)
            return
        log.error("table %s: not recovered; the next action or a restart will", table_id)

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _get(self, table_id: int) -> _Live:
        live = self._live.get(table_id)
        if live is None:
            live = await self._load(table_id)
            self._live[table_id] = live
        return live

    async def _load(self, table_id: int) -> _Live:
        if table_id in self.set_aside:
            raise Refusal("table_set_aside")
        bundles = await self.storage.load_bundles([table_id])
        if not bundles or bundles[0].table.scorekeeper:  # a scoresheet is not played here
            raise Refusal("table_closed")
        return self._restored(bundles[0])

    def _restored(self, bundle: TableBundle) -> _Live:
        """The live table from its bundle; one whose log does not replay (a changed or damaged
        event) is set aside, with one log line, so that it cannot stop anything else."""
        try:
            return _live_from(bundle)
        except Exception as exc:
            table = bundle.table
            self.set_aside[table.id] = SetAside(
                table.id, bundle.chat, table.topic_id, table.settings.language
            )
            log.error(
                "table %s: set aside, its deal %s does not replay (%s: %s)",
                table.id, table.current_deal, type(exc).__name__, str(exc)[:200],
            )  # fmt: skip
            raise Refusal("table_set_aside") from None

    def _snapshot(self, live: _Live) -> Snapshot:
        return Snapshot(
            table_id=live.table.id,
            chat=live.chat,
            topic_id=live.table.topic_id,
            settings=live.table.settings,
            status=live.table.status,
            seats=dict(live.holders),
            deal_no=live.deal_no,
            state=live.state,
            match=copy.deepcopy(live.match),
            paused=frozenset(live.paused),
            dealer_drawn=live.dealer_drawn,
            end_votes=frozenset(live.end_votes),
            actions=live.moves,
            last_at=live.last_at,
            token=live.table.token,
            game=live.game,
            players=live.seat_count,
            first_deal=min(live.match_deals, default=1),
            takeovers=dict(live.takeovers),
        )

    async def snapshot(self, table_id: int) -> Snapshot:
        async with self._lock(table_id):
            return self._snapshot(await self._get(table_id))

    async def restore_all(self) -> list[Change]:
        """After a restart: every active table loaded, and any deal or rubber that was finished
        but not yet followed up (the process died in between) completed now."""
        changes = []
        # A burst of long-lived objects: the collector's passes over them would only slow it.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for bundle in await self.storage.load_bundles():
                table_id = bundle.table.id
                async with self._lock(table_id):
                    try:
                        live = self._live[table_id] = self._restored(bundle)
                    except Refusal:
                        continue  # set aside: every other table runs
                    notices = await self._advance(live)
                    changes.append(Change(self._snapshot(live), tuple(notices)))
        finally:
            if collecting:
                gc.enable()
        return changes

    def forget_chat(self) -> None:
        """A chat's Telegram id changed: drop every cached table (they hold the old chat)."""
        self._live.clear()

    def forget(self, table_id: int) -> None:
        """Drop the cached state (always safe: the next access replays from storage)."""
        self._live.pop(table_id, None)

    # --- tables and seats -------------------------------------------------------------------------

    async def open_table(
        self,
        tg_chat_id: int,
        title: str,
        topic_id: int | None,
        language: str,
        game: str = "bridge",
    ) -> tuple[Change, bool]:
        """The chat's (topic's) table, opened for ``game`` if there is none. True if it was
        just opened, or switched to ``game`` from another (between matches; Refusal
        "switch_mid_match" during one); False if it already plays ``game``."""
        name = find_game(game).name
        chat = await self.storage.ensure_chat(tg_chat_id, title, language)
        existing = await self.storage.table_in(chat.id, topic_id)
        if existing is not None and existing.game != name:
            return await self.switch_game(existing.id, name), True
        if existing is not None:
            return Change(await self.snapshot(existing.id)), False
        settings = TableSettings(language=language)
        table = await self.storage.create_table(chat.id, topic_id, settings, game=name)
        return Change(await self.snapshot(table.id)), True

    async def switch_game(self, table_id: int, game: str) -> Change:
        """The table plays ``game`` from its next match (between matches only). Seats that
        the new game has keep their players; the others stand up, and so do robots (a robot
        plays the game it was seated for). The ledger runs on: it is the group's."""
        async with self._guard(table_id):
            live = await self._get(table_id)
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("switch_mid_match")
            if live.table.status is TableStatus.CLOSED:
                raise Refusal("table_closed")
            new = find_game(game)
            size = new.table_size(live.table.settings.options)
            stood = [
                (seat, holder)
                for seat, holder in sorted(live.holders.items())
                if seat >= size or holder.robot
            ]
            for seat, _ in stood:
                await self.storage.set_seat(table_id, seat, None)
            await self.storage.set_game(table_id, new.name)
            self.forget(table_id)
            live = self._live[table_id] = await self._load(table_id)
            kept = tuple(holder.name for _, holder in sorted(live.holders.items()))
            notice = GameSwitched(new.name, kept, tuple(h.name for _, h in stood), size)
            if len(live.holders) == live.table_size:  # every seat taken: play, as on a sit
                await self._start_match(live)
            return Change(self._snapshot(live), (notice,))

    async def played_deals(
        self, table_id: int, since: str = "", until: str = ""
    ) -> tuple[Game, list[PlayedDeal]]:
        """The deals of the table's match in progress (or its last one), or with ``since`` and
        ``until`` (ISO dates, inclusive) every deal of the table's matches dealt in that range.
        Only deals that are over: finished, or abandoned when their match was stopped; a deal
        still being bid or played is never a record (all its hands would be shown)."""
        table = await self.storage.get_table(table_id)
        game = find_game(table.game)
        chat = await self.storage.get_chat(table.chat_id)
        finished = [
            m
            for m in await self.storage.matches(chat.id, 1000)
            if m.table_id == table.id and m.game == game.name  # a table may switch games
        ]
        if since or until:
            chosen = sorted(finished, key=lambda m: m.id)
            if table.match_id is not None:
                chosen.append(await self.storage.get_match(table.match_id))
        elif table.match_id is not None:
            chosen = [await self.storage.get_match(table.match_id)]
        else:
            chosen = finished[:1]
        # Storage is read here; the replays (CPU: a whole history can be hundreds of deals)
        # run in a thread, so that a long record does not stall every other group's answers.
        matches = []
        for record in chosen:
            names = {
                seat: (await self.storage.get_player(pid)).name
                for seat, pid in record.seats.items()
            }
            deals = [
                (summary, await self.storage.events(table.id, summary.deal_no))
                for summary in await self.storage.deals(record.id)
            ]
            matches.append((record, names, deals))
        found = await asyncio.to_thread(_replay_played, game, chat, matches, since, until)
        return game, found

    async def finished_deal(
        self, table_id: int, deal_no: int, game_name: str
    ) -> tuple[Chat, State[Any, Any]]:
        """A deal of an online table of ``game_name`` that is over (all its cards may be
        shown), with its group; Refusal("unknown_action") for one still being played, never dealt,
        of another game or a scoresheet (forged data: no button of ours names it)."""
        try:
            table = await self.storage.get_table(table_id)
        except NotFound:
            raise Refusal("unknown_action") from None
        events = await self.storage.events(table_id, deal_no)
        if not events or table.scorekeeper or table.game != game_name:
            raise Refusal("unknown_action")  # never dealt here: no button of ours named it
        game = find_game(table.game)
        players = len(table.seats) or game.table_size(table.settings.options)
        try:
            state = replay(game, players, events)
        except (ValueError, RuleError):
            raise Refusal("stale") from None
        if not state.finished:
            raise Refusal("unknown_action")  # no button of ours shows a deal under way
        return await self.storage.get_chat(table.chat_id), state

    async def table_by_token(self, token: str) -> int | None:
        """The table a deep link names, if the token is one of ours."""
        table = await self.storage.table_by_token(token)
        return None if table is None or table.scorekeeper else table.id

    async def chat_language(self, tg_chat_id: int, topic_id: int | None) -> str | None:
        """The language a group (or forum topic) is spoken to in: its table's, else its
        scoresheet's, else the group's own; None for a chat the bot has not met."""
        chat = await self.storage.chat_by_tg(tg_chat_id)
        if chat is None:
            return None
        for scorekeeper in (False, True):
            table = await self.storage.table_in(chat.id, topic_id, scorekeeper=scorekeeper)
            if table is not None:
                return table.settings.language
        return chat.language

    async def table_for(self, tg_chat_id: int, topic_id: int | None) -> int | None:
        chat = await self.storage.chat_by_tg(tg_chat_id)
        if chat is None:
            return None
        table = await self.storage.table_in(chat.id, topic_id)
        return None if table is None else table.id

    async def sheet_for(self, tg_chat_id: int, topic_id: int | None) -> Table | None:
        """The scoresheet open in a group (or forum topic), of whatever game."""
        chat = await self.storage.chat_by_tg(tg_chat_id)
        if chat is None:
            return None
        return await self.storage.table_in(chat.id, topic_id, scorekeeper=True)

    async def sit(self, table_id: int, player: Player, seat: Seat) -> Change:
        async with self._guard(table_id):
            live = await self._get(table_id)
            robot = live.holders.get(seat)
            if robot is not None and robot.robot and _seat_of(live, player.id) is None:
                return await self._take_from_robot(live, player, seat)
            _check_sit(live.table.status, live.holders, player.id, seat)
            if not 0 <= seat < live.table_size:
                raise Refusal("unknown_action")
            current = _seat_of(live, player.id)
            if current is not None:
                await self.storage.set_seat(table_id, current, None)
                del live.holders[current]
            await self.storage.set_seat(table_id, seat, player.id)
            live.holders[seat] = _holder(player)
            live.paused.discard(seat)
            if len(live.holders) == live.table_size:
                await self._start_match(live)
            return Change(self._snapshot(live))

    async def _take_from_robot(self, live: _Live, player: Player, seat: Seat) -> Change:
        """A person sits in a robot's place: at once between matches; during one, from the next
        deal (the deal in progress is the robot's to finish)."""
        if live.table.status is TableStatus.CLOSED:
            raise Refusal("table_closed")
        newcomer = _holder(player)
        if live.table.status is not TableStatus.PLAYING:
            await self.storage.set_seat(live.table.id, seat, player.id)
            live.holders[seat] = newcomer
            return Change(self._snapshot(live))
        if seat in live.takeovers:
            raise Refusal("seat_taken", name=live.takeovers[seat].name)
        if any(h.player_id == player.id for h in live.takeovers.values()):
            raise Refusal("takeover_pending")  # one robot's seat per person
        payload = {"what": TAKEOVER, "seat": seat, "newcomer": dataclasses.asdict(newcomer)}
        await self._log_vote(live, player.id, payload)
        live.takeovers[seat] = newcomer
        return Change(self._snapshot(live), (TakeoverAsked(seat, newcomer.name),))

    async def _hand_over(self, live: _Live) -> list[Notice]:
        """Seat the people who asked for robots' seats (between deals)."""
        notices: list[Notice] = []
        for seat, newcomer in sorted(live.takeovers.items()):
            left = live.holders.get(seat)
            await self.storage.set_seat(live.table.id, seat, newcomer.player_id)
            live.holders[seat] = newcomer
            if left is not None:
                notices.append(SubDone(seat, left, newcomer))
        live.takeovers.clear()
        return notices

    async def seat_robot(self, table_id: int, player_id: int, seat: Seat, name: str) -> Change:
        """A seated player fills an empty seat with a robot (between matches). ``name`` is the
        robot's, in the table's language; robots are players of the group flagged as such."""
        async with self._guard(table_id):
            live = await self._get(table_id)
            if _seat_of(live, player_id) is None:
                raise Refusal("not_seated")
            if live.table.status is TableStatus.CLOSED:
                raise Refusal("table_closed")
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("rubber_in_progress")
            if not 0 <= seat < live.table_size:
                raise Refusal("unknown_action")
            if seat in live.holders:
                raise Refusal("seat_taken", name=live.holders[seat].name)
            taken = {holder.name for holder in live.holders.values()}
            number = 1
            while f"{name} {number}" in taken:
                number += 1
            robot = await self.storage.add_guest(live.chat.id, f"{name} {number}")
            await self.storage.set_player_flag(robot.id, ROBOT, True)
            await self.storage.set_seat(table_id, seat, robot.id)
            live.holders[seat] = _holder(robot, robot=True)
            if len(live.holders) == live.table_size:
                await self._start_match(live)
            return Change(self._snapshot(live))

    async def leave(self, table_id: int, player_id: int) -> Change:
        async with self._guard(table_id):
            live = await self._get(table_id)
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("leave_mid_rubber")
            await self.storage.set_seat(table_id, seat, None)
            del live.holders[seat]
            return Change(self._snapshot(live))

    async def next_rubber(self, table_id: int, player_id: int, new_partners: bool) -> Change:
        """Another match with the same players: same seats, or seats (partners) drawn again."""
        async with self._guard(table_id):
            live = await self._get(table_id)
            if _seat_of(live, player_id) is None:
                raise Refusal("not_seated")
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("rubber_in_progress")
            if len(live.holders) < live.table_size:
                raise Refusal("need_four")
            if new_partners:
                seats = sorted(live.holders)
                order = shuffled([live.holders[seat] for seat in seats], self.randbelow)
                for seat in seats:
                    await self.storage.set_seat(table_id, seat, None)
                for seat, holder in zip(seats, order, strict=True):
                    await self.storage.set_seat(table_id, seat, holder.player_id)
                live.holders = dict(zip(seats, order, strict=True))
            await self._start_match(live)
            return Change(self._snapshot(live))

    async def update_settings(self, table_id: int, settings: TableSettings) -> Change:
        async with self._guard(table_id):
            live = await self._get(table_id)
            changed = dict(live.table.settings.options) != dict(settings.options)
            if changed and live.state is not None and not live.state.finished:
                raise Refusal("settings_between_deals")
            if changed and live.match is not None:
                try:  # the game checks them (a pulka's are fixed until it ends)
                    live.match.configure(_options(settings, live.chat))
                except RuleError:
                    raise Refusal("settings_between_matches") from None
            await self.storage.update_settings(table_id, settings)
            live.table = await self.storage.get_table(table_id)
            return Change(self._snapshot(live))

    async def update_chat_settings(
        self, chat_id: int, settings: ChatSettings, table_id: int
    ) -> Change:
        """The group's money settings; every cached table of the chat sees them at once."""
        chat = await self.storage.update_chat_settings(chat_id, settings)
        for live in self._live.values():
            if live.chat.id == chat_id:
                live.chat = chat
        return Change(await self.snapshot(table_id))

    async def set_blocked(self, tg_user_id: int, blocked: bool) -> list[Change]:
        """A player blocked the bot (play pauses at their tables) or came back (it resumes)."""
        player = await self.storage.player_by_tg(tg_user_id)
        if player is None:
            return []
        await self.storage.set_player_flag(player.id, "blocked", blocked)
        await self.storage.set_player_flag(player.id, "can_write", not blocked)
        changes = []
        for table in await self.storage.tables_of_player(player.id):
            async with self._guard(table.id):
                live = await self._get(table.id)
                seat = _seat_of(live, player.id)
                if seat is None:
                    continue
                if blocked:
                    live.paused.add(seat)
                else:
                    live.paused.discard(seat)
                changes.append(Change(self._snapshot(live)))
        return changes

    # --- play ---------------------------------------------------------------------------------

    async def act(
        self, table_id: int, deal_no: int, player_id: int, text: str, at: int | None
    ) -> Change:
        """One press: an action in the game's own words (``call.1H``, ``card.SQ``: its codec's
        text) from the player's seat, made for position ``at`` of the deal (its event count
        when the button was shown).

        Refusal for the table's reasons (stale, moved on, not seated, paused); RuleError for
        the rules'. A press made for an earlier position is refused even if it would be legal
        now: a double tap must not become the lead of the next trick.
        """
        async with self._guard(table_id):
            live, seat = await self._acting(table_id, deal_no, player_id)
            if at != live.moves:
                raise Refusal("moved_on")
            action = live.game.codec.decode(seat, text)  # NotationError: a RuleError
            if live.game.by_consent(action):  # a take-back goes through its vote only
                raise Refusal("unknown_action")
            return await self._apply(live, action, seat, player_id)

    async def _in_rubber(self, table_id: int) -> _Live:
        """The live table, if a match is being played at it (Refusal "no_rubber" if not)."""
        live = await self._get(table_id)
        if live.table.status is not TableStatus.PLAYING or live.match is None:
            raise Refusal("no_rubber")
        return live

    async def _acting(self, table_id: int, deal_no: int, player_id: int) -> tuple[_Live, Seat]:
        """The live table and the player's seat, if they may act in this deal now."""
        live = await self._get(table_id)
        if deal_no != live.deal_no:
            raise stale_or_forged(deal_no, live.deal_no)
        if (
            live.state is None
            or live.state.finished
            or live.table.status is not TableStatus.PLAYING
        ):
            raise Refusal("stale")
        seat = _seat_of(live, player_id)
        if seat is None:
            raise Refusal("not_seated")
        if live.paused:
            names = ", ".join(live.holders[s].name for s in sorted(live.paused))
            raise Refusal("paused", names=names)
        return live, seat

    async def _apply(
        self, live: _Live, action: Any, seat: Seat, player_id: int, *extra: Notice
    ) -> Change:
        """Check ``action`` with the rules, write its event, then follow up. Nothing is written
        if the rules refuse it; nothing is changed if the write fails."""
        assert live.state is not None
        state = live.state.apply(action)  # RuleError propagates: nothing written
        await self._append(live, *live.game.to_event(action), player_id)
        before = live.state
        live.state = state
        live.moves += 1
        live.last_at = time.time()
        live.undo_request = None  # anything done makes an open request to take back moot
        notices: list[Notice] = list(extra)
        notices += live.game.notices(before, state, seat)
        try:
            notices += await self._advance(live)
        except Exception as exc:  # the press stands: say so, not "try again"
            raise Written() from exc
        return Change(self._snapshot(live), tuple(notices))

    async def _log_vote(self, live: _Live, player_id: int, payload: dict[str, Any]) -> None:
        """A vote (asking or answering to take back, to substitute, to stop) is an event of the
        deal's log like any other, so a restart finds it open; the rules skip it on replay."""
        await self._append(live, VOTE, payload, player_id)

    async def _append(
        self, live: _Live, kind: str, payload: Mapping[str, Any], player_id: int
    ) -> None:
        """Write the deal's next event; a racing writer's key taken means reload and retry."""
        try:
            await self.storage.append_event(
                live.table.id, live.deal_no, live.seq, kind, payload, player_id
            )
        except ConflictError:
            self.forget(live.table.id)
            raise Refusal("conflict") from None
        live.seq += 1

    async def ask_undo(self, table_id: int, deal_no: int, player_id: int) -> Change:
        """A player asks to take back their last action; those the game names decide (bridge:
        the opponents)."""
        async with self._guard(table_id):
            live, seat = await self._acting(table_id, deal_no, player_id)
            assert live.state is not None
            live.game.undo(live.state, seat)  # RuleError if it is not theirs, or too late
            open_request = live.undo_request
            if open_request is not None and open_request.seq == live.moves:
                # Asked already (by them: the same question; by another: one at a time).
                raise Refusal("already_voted" if open_request.seat == seat else "undo_pending")
            await self._log_vote(live, player_id, {"what": UNDO_ASK, "seat": seat})
            request = live.undo_request = UndoRequest(seat, live.moves)
            voters = live.game.undo_voters(live.state, seat)
            robots = sorted(s for s in voters if live.holders[s].robot)
            for robot in robots:  # a robot allows a take-back at once
                answer = {"what": UNDO_ANSWER, "seat": robot, "agree": True}
                await self._log_vote(live, live.holders[robot].player_id, answer)
                request.allowed.add(robot)
            if robots and voters <= request.allowed:
                done = UndoAnswered(seat, robots[-1], True)
                undo = live.game.undo(live.state, seat)
                return await self._apply(live, undo, seat, player_id, UndoAsked(seat), done)
            return Change(self._snapshot(live), (UndoAsked(seat),))

    async def answer_undo(self, table_id: int, deal_no: int, player_id: int, agree: bool) -> Change:
        """One of those the game names (bridge: an opponent of the asker) allows or refuses;
        all of them must allow."""
        async with self._guard(table_id):
            live, seat = await self._acting(table_id, deal_no, player_id)
            request = live.undo_request
            if request is None or request.seq != live.moves or live.state is None:
                raise Refusal("undo_stale")
            voters = live.game.undo_voters(live.state, request.seat)
            if seat not in voters:
                raise Refusal("undo_opponents")
            if agree and seat in request.allowed:
                raise Refusal("already_voted")  # a second tap changes nothing, posts nothing
            vote = {"what": UNDO_ANSWER, "seat": seat, "agree": agree}
            if not agree:
                await self._log_vote(live, player_id, vote)
                live.undo_request = None
                return Change(self._snapshot(live), (UndoAnswered(request.seat, seat, False),))
            if not voters <= request.allowed | {seat}:
                await self._log_vote(live, player_id, vote)
                request.allowed.add(seat)
                return Change(self._snapshot(live))
            request.allowed.add(seat)
            asker = live.holders[request.seat].player_id
            done = UndoAnswered(request.seat, seat, True)
            undo = live.game.undo(live.state, request.seat)
            return await self._apply(live, undo, request.seat, asker, done)

    async def propose_sub(
        self, table_id: int, proposer_id: int, seat: Seat, newcomer: Player
    ) -> Change:
        """A substitute for ``seat`` during the rubber (mid-deal too): the other players agree,
        then the newcomer holds the seat, its hand, and its share of the rubber's result."""
        async with self._guard(table_id):
            live = await self._in_rubber(table_id)
            proposer = _seat_of(live, proposer_id)
            if proposer is None:
                raise Refusal("not_seated")
            if seat not in live.holders:
                raise Refusal("sub_no_seat")
            if _seat_of(live, newcomer.id) is not None:
                raise Refusal("sub_already_seated", name=newcomer.name)
            open_request = live.sub_request
            if (
                open_request is not None
                and open_request.seat == seat
                and open_request.newcomer.player_id == newcomer.id
            ):
                raise Refusal("already_voted")  # proposed already: the others are asked
            request = SubRequest(seat, _holder(newcomer))
            if proposer != seat:
                request.agreed.add(proposer)
            await self._log_vote(
                live,
                proposer_id,
                {
                    "what": SUB_ASK,
                    "seat": seat,
                    "by": proposer,
                    "newcomer": dataclasses.asdict(request.newcomer),
                },
            )
            live.sub_request = request
            return await self._sub_progress(live)

    async def answer_sub(self, table_id: int, player_id: int, agree: bool) -> Change:
        async with self._guard(table_id):
            live = await self._get(table_id)
            request = live.sub_request
            if request is None or live.table.status is not TableStatus.PLAYING:
                raise Refusal("sub_none")
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if seat == request.seat:
                raise Refusal("sub_others_decide")
            if agree and seat in request.agreed:
                raise Refusal("already_voted")
            await self._log_vote(
                live, player_id, {"what": SUB_ANSWER, "seat": seat, "agree": agree}
            )
            if not agree:
                live.sub_request = None
                return Change(self._snapshot(live), (SubRefused(request.seat, seat),))
            request.agreed.add(seat)
            return await self._sub_progress(live)

    async def _sub_progress(self, live: _Live) -> Change:
        request = live.sub_request
        assert request is not None
        others = {s for s in live.humans if s != request.seat}  # robots agree
        if not others <= request.agreed:
            leaving = live.holders[request.seat].name
            notice: Notice = SubProposed(
                request.seat, leaving, request.newcomer.name, frozenset(request.agreed)
            )
            return Change(self._snapshot(live), (notice,))
        left = live.holders[request.seat]
        await self.storage.set_seat(live.table.id, request.seat, request.newcomer.player_id)
        live.holders[request.seat] = request.newcomer
        live.paused.discard(request.seat)
        live.sub_request = None
        return Change(self._snapshot(live), (SubDone(request.seat, left, request.newcomer),))

    async def vote_to_end(self, table_id: int, player_id: int, agree: bool) -> Change:
        """A seated player agrees (or not) to stop the match now; when all agree, it stops."""
        async with self._guard(table_id):
            live = await self._in_rubber(table_id)
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if (agree and seat in live.end_votes) or (not agree and not live.end_votes):
                raise Refusal("already_voted")  # the same answer again: nothing changes
            if live.state is not None and not live.state.finished:
                vote = {"what": END, "seat": seat, "agree": agree}
                await self._log_vote(live, player_id, vote)
            if not agree:
                live.end_votes.clear()
                return Change(self._snapshot(live), (EndVote(seat, False),))
            live.end_votes.add(seat)
            if not live.humans <= live.end_votes:  # robots agree to stop
                return Change(self._snapshot(live), (EndVote(seat, True),))
            notices = await self._end_match(live)
            return Change(self._snapshot(live), tuple(notices))

    async def end_by_admin(self, table_id: int) -> Change:
        """A group admin stops the match now (the caller checked the admin)."""
        async with self._guard(table_id):
            live = await self._in_rubber(table_id)
            notices = await self._end_match(live)
            return Change(self._snapshot(live), tuple(notices))

    async def _end_match(self, live: _Live) -> list[Notice]:
        """Settled by the game's early-stop rule (bridge: RULES.md, Law 80) from the deals
        completed; a deal in progress is abandoned, its events kept."""
        assert live.match is not None
        live.end_votes.clear()
        live.match.close()
        return await self._finish_match(live, unfinished=True)

    async def _start_match(self, live: _Live) -> None:
        """A new match at the table; the first dealer is drawn by lot."""
        seats = {seat: holder.player_id for seat, holder in live.holders.items()}
        record = await self.storage.start_match(live.table.id, seats)
        live.table = await self.storage.get_table(live.table.id)
        live.match_id = record.id
        live.players = len(seats)
        live.match = live.game.new_match(live.players, _options(live.table.settings, live.chat))
        live.match_deals, live.scored = set(), set()
        live.dealer_drawn = True
        await self._start_deal(live, self.randbelow(live.players))

    async def _start_deal(self, live: _Live, dealer: Seat) -> None:
        options = live.table.settings.options
        payload = live.game.new_deal(live.players, dealer, self.randbelow, options)
        number = live.deal_no + 1
        await self.storage.start_deal(live.table.id, number, payload, None)
        state = live.game.start(live.players, payload)
        live.deal_no, live.state, live.seq, live.moves = number, state, 1, 1
        live.last_at = time.time()
        # Votes belong to the deal they were cast in (its log keeps them across a restart):
        # a new deal starts with none open.
        live.end_votes.clear()
        live.undo_request = live.sub_request = None
        live.match_deals.add(number)

    async def _advance(self, live: _Live) -> list[Notice]:
        """Follow up a finished deal: write its outcome, then the next deal or the end of the
        match. Idempotent, so a restart after a crash at any point between these writes
        completes them."""
        state, match = live.state, live.match
        if state is None or not state.finished or match is None or live.match_id is None:
            return []
        notices: list[Notice] = []
        if live.deal_no not in live.match_deals:
            return []  # the current deal belongs to an earlier match
        if live.deal_no not in live.scored:
            outcome = live.game.outcome(state)
            await self.storage.finish_deal(live.table.id, live.deal_no, outcome)
            live.scored.add(live.deal_no)
            before = copy.deepcopy(match)
            written = match.record(outcome)
            after = copy.deepcopy(match)
            notices.append(
                DealFinished(
                    live.deal_no, outcome, written, state, after, before, dict(live.holders)
                )
            )
        if match.finished:
            notices.extend(await self._finish_match(live))
        else:
            notices.extend(await self._hand_over(live))
            live.dealer_drawn = False
            await self._start_deal(live, live.game.next_dealer(state.dealer, live.players))
        return notices

    async def _finish_match(self, live: _Live, unfinished: bool = False) -> list[Notice]:
        assert live.match is not None and live.match_id is not None
        match = live.match
        match.configure(_options(live.table.settings, live.chat))  # the group's rounding now
        players = {seat: holder.player_id for seat, holder in live.holders.items()}
        amounts = match.settle()
        entries = {players[seat]: _whole(amounts[seat]) for seat in sorted(players)}
        summary = match.summary()
        unit = PRACTICE if await self._with_robots(live) else live.game.unit
        # ConflictError: written before a restart; the ledger already holds it.
        with contextlib.suppress(ConflictError):
            await self.storage.finish_match(
                live.match_id, summary, entries, players, unfinished, unit
            )
        live.table = await self.storage.get_table(live.table.id)
        if live.table.status is TableStatus.PLAYING:
            await self.storage.set_status(live.table.id, TableStatus.OPEN)
            live.table = await self.storage.get_table(live.table.id)
        live.match_id = None
        balances = await self.storage.accounts(live.chat.id)
        if unit == PRACTICE:
            balances = {PRACTICE: await people_practice(self.storage, live.chat.id)}
        names = {h.player_id: h.name for h in live.holders.values()}
        finished = MatchFinished(
            summary, entries, balances, names, copy.deepcopy(match), unfinished, unit
        )
        return [finished, *await self._hand_over(live)]

    async def _with_robots(self, live: _Live) -> bool:
        """A robot sat in the match (at its start, or now): it is practice, not money."""
        if any(holder.robot for holder in live.holders.values()):
            return True
        assert live.match_id is not None
        started = await self.storage.get_match(live.match_id)
        for player_id in started.seats.values():
            if await self.storage.player_flag(player_id, ROBOT):
                return True
        return False


_MatchLogs = tuple[StoredMatch, Mapping[Seat, str], Sequence[tuple[DealSummary, list[Event]]]]


def _replay_played(
    game: Game,
    chat: Chat,
    matches: Sequence[_MatchLogs],
    since: str,
    until: str,
) -> list[PlayedDeal]:
    """``played_deals``'s CPU half: each match's deals replayed from their logs, the match
    rebuilt deal by deal beside them (so each deal knows the score it was played at)."""
    found: list[PlayedDeal] = []
    for record, names, deals in matches:
        players = len(record.seats)
        match = game.new_match(players, _options(TableSettings(options=record.options), chat))
        for number, (summary, events) in enumerate(deals, start=1):
            before = copy.deepcopy(match)
            if summary.result is not None:
                match.record(summary.result)
            day = events[0].at[:10] if events else ""
            if not events or (since and day < since) or (until and day > until):
                continue
            state = replay(game, players, events)
            if not state.finished and record.finished_at is None:
                continue  # under way: its hands are nobody's to see yet
            found.append(PlayedDeal(summary.deal_no, number, state, before, names, events[0].at))
    return found


def stale_or_forged(deal_no: int, current: int) -> Refusal:
    """A button of a deal other than the current one: an earlier deal's (stale), or one that
    was never dealt (no button of ours made it)."""
    return Refusal("stale" if 1 <= deal_no < current else "unknown_action")


async def people_practice(storage: Storage, chat_id: int) -> dict[int, int]:
    """The people's practice points in the group (robots' are no one's statistics)."""
    return {
        pid: points
        for pid, points in (await storage.balances(chat_id, PRACTICE)).items()
        if not await storage.player_flag(pid, ROBOT)
    }


def _options(settings: TableSettings, chat: Chat) -> dict[str, Any]:
    """The match's options: the table's for its game, and the group's rounding of money."""
    return {**settings.options, "rounding": chat.settings.rounding.value}


def _whole(amount: Any) -> int:
    """A ledger amount: matches settle in whole units of their game."""
    value = int(amount)
    if value != amount:
        raise ValueError(f"a match settled to a fraction ({amount}); the ledger keeps whole units")
    return value


def _live_from(bundle: TableBundle) -> _Live:
    """Rebuild a table from storage: the match from its deals' outcomes, the deal by replay."""
    table = bundle.table
    game = find_game(table.game)
    holders = {
        seat: _holder(bundle.players[pid], ROBOT in bundle.flags.get(pid, ()))
        for seat, pid in table.seats.items()
    }
    players = len(holders) if table.match_id is not None else 0
    match = None
    if table.match_id is not None:
        match = game.new_match(players, _options(table.settings, bundle.chat))
        for summary in bundle.match_deals:
            if summary.result is not None:
                match.record(summary.result)
    state = replay(game, players, bundle.events) if bundle.events and players else None
    rules_events = [e for e in bundle.events if e.kind != VOTE]
    paused = {
        seat
        for seat, holder in holders.items()
        if holder.tg_user_id is not None and "blocked" in bundle.flags.get(holder.player_id, ())
    }
    last_at = (
        datetime.fromisoformat(rules_events[-1].at).timestamp() if rules_events else time.time()
    )
    live = _Live(
        table,
        bundle.chat,
        game,
        holders,
        table.match_id,
        match,
        table.current_deal,
        state,
        len(bundle.events),
        paused,
        match_deals={d.deal_no for d in bundle.match_deals},
        scored={d.deal_no for d in bundle.match_deals if d.result is not None},
        last_at=last_at,
        moves=max(1, len(rules_events)),
        players=players,
    )
    _restore_votes(live, bundle.events)
    return live


def _seat_value(value: Any) -> Seat:
    """A seat as a vote records it: an index, or (logs written before the game seam, when
    bridge was the only game) a bridge seat letter."""
    if isinstance(value, str) and value in ("N", "E", "S", "W"):
        return "NESW".index(value)
    return int(value)


def _restore_votes(live: _Live, events: Sequence[Event]) -> None:
    """The votes open when the process stopped, from the deal's log: any rules action after an
    undo request makes it moot, a refusal closes a request, a substitute seated ends theirs."""
    moves = 0
    for event in events:
        if event.kind != VOTE:
            moves += 1
            live.undo_request = None
            continue
        vote = event.payload
        what, seat = vote.get("what"), _seat_value(vote.get("seat", 0))
        agree = bool(vote.get("agree", True))
        if what == UNDO_ASK:
            live.undo_request = UndoRequest(seat, moves)
        elif what == UNDO_ANSWER and live.undo_request is not None:
            if agree:
                live.undo_request.allowed.add(seat)
            else:
                live.undo_request = None
        elif what == SUB_ASK:
            live.sub_request = SubRequest(seat, Holder(**vote["newcomer"]))
            proposer = _seat_value(vote["by"])
            if proposer != seat:
                live.sub_request.agreed.add(proposer)
        elif what == SUB_ANSWER and live.sub_request is not None:
            if agree:
                live.sub_request.agreed.add(seat)
            else:
                live.sub_request = None
        elif what == TAKEOVER:
            live.takeovers[seat] = Holder(**vote["newcomer"])
        elif what == END:
            if agree:
                live.end_votes.add(seat)
            else:
                live.end_votes.clear()
    request = live.sub_request
    if request is not None and live.holders.get(request.seat) == request.newcomer:
        live.sub_request = None  # done: the newcomer holds the seat
    for seat, newcomer in list(live.takeovers.items()):
        if live.holders.get(seat) == newcomer:
            del live.takeovers[seat]  # done before the process stopped


def _check_sit(
    status: TableStatus, holders: Mapping[Seat, Holder], player_id: int, seat: Seat
) -> None:
    if status is TableStatus.CLOSED:
        raise Refusal("table_closed")
    if status is TableStatus.PLAYING:
        raise Refusal("rubber_in_progress")
    current = _seat_in(holders, player_id)
    if current == seat:
        raise Refusal("already_there")
    if seat in holders:
        raise Refusal("seat_taken", name=holders[seat].name)


def _holder(player: Player, robot: bool = False) -> Holder:
    return Holder(player.id, player.name, player.tg_user_id, player.language, robot)


def _seat_of(live: _Live, player_id: int) -> Seat | None:
    return _seat_in(live.holders, player_id)


def _seat_in(holders: Mapping[Seat, Holder], player_id: int) -> Seat | None:
    for seat, holder in holders.items():
        if holder.player_id == player_id:
            return seat
    return None
