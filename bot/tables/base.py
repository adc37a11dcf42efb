"""The table service's ground: live tables cached and locked, loaded from storage and brought back
after a failure, players, and the one way events are written."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.tables.model import (
    RECOVERY_DELAYS,
    VOTE,
    Change,
    DealRedrawn,
    Fairness,
    Live,
    Notice,
    Refusal,
    Revealed,
    SetAside,
    Snapshot,
    _seat_of,
    match_options,
)
from bot.tables.restore import (
    _live_from,
    _recorded,
)
from games.core.fair import commitment, seed_for
from games.errors import RuleError
from storage.events import DEAL, replay
from storage.interface import (
    Chat,
    ConflictError,
    DealSummary,
    Player,
    Storage,
    TableBundle,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

# Tables and players the service keeps in memory at most (see ``TableBase``): a process that
# served 10,000 tables in its life holds about as much as one that served 1,000 (#48). Only
# tables with no match in progress count against ``MAX_LIVE`` (one dropped is read back from
# storage at its next update); a dropped table's players go with it unless seated elsewhere.
MAX_LIVE, MAX_PLAYERS = 512, 20_000


@dataclass(frozen=True, slots=True)
class _Redraw:
    """A restored table's last finished deal, to be shown as it ended once the bot is up."""

    deal_no: int
    players: int
    options: Mapping[str, Any]  # the match's, to record its earlier deals on
    deals: Sequence[DealSummary]  # the match's deals as storage gave them at the restore


class TableBase:
    """Owns live tables: the cache, the locks, loading and restoring, the players, writing
    events. ``randbelow`` is the shuffle's randomness (``secrets`` by default)."""

    def __init__(
        self,
        storage: Storage,
        randbelow: Callable[[int], int] = secrets.randbelow,
        fair_key: bytes | None = None,
    ) -> None:
        self.storage = storage
        self.randbelow = randbelow
        # Deals are shuffled from seeds drawn from this key, each committed to before its deal
        # (``games.core.fair``); None: from ``randbelow`` (a test's or benchmark's fixed run).
        self.fair_key = fair_key
        # The tables and players kept in memory, least recently used first, and how many:
        # beyond these, tables with no match in progress and players not seen lately are
        # dropped (storage holds them all; the next update loads them again).
        self._live: OrderedDict[int, Live] = OrderedDict()
        self.max_live, self.max_players = MAX_LIVE, MAX_PLAYERS
        # A table's lock lives while someone holds or awaits it: a table nobody touches costs
        # nothing here, however many tables the bot has seen.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._players: OrderedDict[int, Player] = OrderedDict()  # Telegram user id -> player
        self._usernames: dict[int, str | None] = {}  # Telegram user id -> @username
        self._recovering: dict[int, asyncio.Task[None]] = {}
        # Tables whose log does not replay: never loaded again by this process.
        self.set_aside: dict[int, SetAside] = {}
        # Restored tables whose match's last finished deal is to be shown again as it ended.
        self._to_redraw: dict[int, _Redraw] = {}
        # Told of a table brought back after a failure (the bot shows it): set by the app.
        self.on_recovered: Callable[[Change], None] | None = None
        # Told of tables dropped from memory (the outbox forgets their messages): by the app.
        self.on_dropped: Callable[[set[int]], None] | None = None
        # Whether this process serves a group's tables (by its Telegram id): several active
        # processes share the groups (``bot.shards``); None: this one serves every group.
        self.owns: Callable[[int], bool] | None = None

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
            self._players.move_to_end(tg_user_id)
            return known
        player = await self.storage.ensure_player(tg_user_id, name, language, username)
        self._players[tg_user_id] = player
        self._players.move_to_end(tg_user_id)
        self._usernames[tg_user_id] = username
        while len(self._players) > self.max_players:
            self._forget_player(next(iter(self._players)))
        return player

    def _forget_player(self, tg_user_id: int) -> None:
        """Drop a player from memory: storage has them, read again at their next press."""
        self._players.pop(tg_user_id, None)
        self._usernames.pop(tg_user_id, None)

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
                try:
                    live = await self._get(table.id)
                except Refusal:
                    continue  # another process serves that group; its own sends tell it
                seat = _seat_of(live, player.id)
                if seat is None:
                    continue
                if blocked:
                    live.paused.add(seat)
                else:
                    live.paused.discard(seat)
                changes.append(Change(self._snapshot(live)))
        return changes

    async def resume_if_back(self, table_id: int) -> Snapshot | None:
        """A paused table whose players storage says are back (their /start reached another
        process, ``bot.shards``) resumes, and is shown (``on_recovered``); the snapshot of a
        table still paused, None otherwise."""
        async with self._guard(table_id):
            live = await self._get(table_id)
            if not live.paused:
                return None
            await self._back(live)
            snap = self._snapshot(live)
        if snap.paused:
            return snap
        if self.on_recovered is not None:
            self.on_recovered(Change(snap))
        return None

    async def _back(self, live: Live) -> None:
        """Seats paused for players storage says are back (their /start may have reached
        another process, ``bot.shards``) are paused no more."""
        for seat in sorted(live.paused):
            if not await self.storage.player_flag(live.holders[seat].player_id, "blocked"):
                live.paused.discard(seat)

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

    async def _get(self, table_id: int) -> Live:
        live = self._live.get(table_id)
        if live is None:
            live = await self._load(table_id)
            self._live[table_id] = live
            self._trim()
        else:
            self._live.move_to_end(table_id)
        if self.owns is not None and not self.owns(live.chat.tg_chat_id):
            # Another process serves the group now (a robot's or a timer's late work here):
            # nothing is done, nothing kept.
            self._live.pop(table_id, None)
            raise Refusal("elsewhere")
        return live

    def _trim(self) -> None:
        """Drop the least recently used tables past ``max_live`` that have no match in
        progress and that nothing is changing (a match's tables stay: their timers, robots and
        votes are about them). A bounded look, so a crowd of matches costs nothing here."""
        excess = len(self._live) - self.max_live
        if excess <= 0:
            return
        dropped: list[int] = []
        for looked, (table_id, live) in enumerate(self._live.items()):
            if len(dropped) >= excess or looked >= excess + 256:
                break
            lock = self._locks.get(table_id)
            busy = (lock is not None and lock.locked()) or table_id in self._recovering
            if live.match_id is None and not busy:
                dropped.append(table_id)
        if not dropped:  # a crowd of matches: nothing to let go, nobody to look up
            return
        gone = {h.tg_user_id for t in dropped for h in self._live.pop(t).holders.values()}
        gone -= {h.tg_user_id for live in self._live.values() for h in live.holders.values()}
        for tg_user_id in gone:  # seated nowhere in memory: read again at their next press
            if tg_user_id is not None:
                self._forget_player(tg_user_id)
        if self.on_dropped is not None:
            self.on_dropped(set(dropped))

    async def _load(self, table_id: int) -> Live:
        if table_id in self.set_aside:
            raise Refusal("table_set_aside")
        bundles = await self.storage.load_bundles([table_id])
        if not bundles or bundles[0].table.scorekeeper:  # a scoresheet is not played here
            raise Refusal("table_closed")
        return self._restored(bundles[0])

    def _restored(self, bundle: TableBundle) -> Live:
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

    def _snapshot(self, live: Live) -> Snapshot:
        return Snapshot(
            table_id=live.table.id,
            chat=live.chat,
            topic_id=live.table.topic_id,
            settings=live.table.settings,
            status=live.table.status,
            seats=dict(live.holders),
            deal_no=live.deal_no,
            state=live.state,
            match=live.shown_match(),
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
            commitments=self._commitments(live),
        )

    @staticmethod
    async def _heard(live: Live, heard: int | None, step: Awaitable[T]) -> T:
        """``step``, a person's press, with ``heard`` (its update id) as the table's latest:
        a press the table refuses leaves the one before, so refused presses cannot pick the
        value the next deal is shuffled with."""
        if heard is None:
            return await step
        before, live.heard = live.heard, heard
        try:
            return await step
        except BaseException:
            live.heard = before
            raise

    def _commitments(self, live: Live) -> Mapping[int, str]:
        if self.fair_key is None:
            return {}
        deal_no, table = live.deal_no, live.table
        if live.committed is None or live.committed[0] != deal_no:
            key = self.fair_key
            made = {
                n: commitment(seed_for(key, table.id, n, table.token))
                for n in (deal_no, deal_no + 1)
            }
            live.committed = (deal_no, made)  # read only: every snapshot of the deal shares it
        return live.committed[1]

    async def snapshot(self, table_id: int) -> Snapshot:
        async with self._lock(table_id):
            return self._snapshot(await self._get(table_id))

    async def revealed(self, table_id: int, deal_no: int | None = None) -> Revealed | None:
        """The table's last finished deal that was dealt fairly (or its deal ``deal_no``),
        for ``/fair``: a deal in progress, or stopped part-way (its cards never all shown),
        is never revealed."""
        async with self._lock(table_id):
            live = await self._get(table_id)
            game, players, latest = live.game, live.seat_count, live.deal_no
        numbers = range(latest, max(0, latest - 3), -1)
        if deal_no is not None:
            numbers = range(deal_no, deal_no - 1, -1) if 0 < deal_no <= latest else range(0)
        for number in numbers:
            events = await self.storage.events(table_id, number)
            if not events or events[0].kind != DEAL:
                continue  # a scorekeeper's entry: no cards were dealt
            fair = Fairness.of(number, events[0].payload)
            if fair is None:
                return None
            try:
                state = replay(game, players, events)
            except (RuleError, ValueError, KeyError):
                continue  # another game's deal (the table switched games since)
            if state.finished:
                return Revealed(fair, game.dealing(players, state.dealer))
        return None

    async def restore_all(self, only: Callable[[int], bool] | None = None) -> list[Change]:
        """After a restart: every active table loaded (of the groups this process serves),
        and any deal or rubber that was finished but not yet followed up (the process died in
        between) completed now. ``only``: of the groups it names (by Telegram id) alone."""
        changes = []
        # A burst of long-lived objects: the collector's passes over them would only slow it.
        collecting = gc.isenabled()
        gc.disable()
        try:
            for bundle in await self.storage.load_bundles():
                table_id = bundle.table.id
                group = bundle.chat.tg_chat_id
                if (self.owns is not None and not self.owns(group)) or (
                    only is not None and not only(group)
                ):
                    continue
                async with self._lock(table_id):
                    try:
                        live = self._live[table_id] = self._restored(bundle)
                    except Refusal:
                        continue  # set aside: every other table runs
                    notices = await self._advance(live)
                    before = live.deal_no - 1
                    if before in live.scored and live.match is not None:
                        # shown again once the bot is up (``redraw_finished``), not now:
                        # replaying 1,000 deals more would double the time to the first poll
                        options = match_options(bundle.table.settings, bundle.chat)
                        self._to_redraw[table_id] = _Redraw(
                            before, live.seat_count, options, bundle.match_deals
                        )
                    changes.append(Change(self._snapshot(live), tuple(notices)))
        finally:
            if collecting:
                gc.enable()
        return changes

    async def redraw_finished(self) -> AsyncIterator[Change]:
        """After a restore, each table's last finished deal of its match as it ended
        (``DealRedrawn``): the previous process may have died before its players' keyboards
        were taken away. One table at a time, under its lock, so that play goes on meanwhile."""
        while self._to_redraw:
            table_id, due = self._to_redraw.popitem()
            async with self._lock(table_id):
                live = self._live.get(table_id)
                if live is None:
                    continue
                try:
                    events = await self.storage.events(table_id, due.deal_no)
                    final = replay(live.game, due.players, events)
                except Exception:  # a log the rules no longer read: its screens stay as they are
                    log.warning("table %s: deal %s not redrawn", table_id, due.deal_no)
                    continue
                if final.finished:
                    before = _recorded(live.game, due.players, due.options, due.deals, due.deal_no)
                    notice = DealRedrawn(due.deal_no, final, before)
                    yield Change(self._snapshot(live), (notice,))

    def forget_chat(self) -> None:
        """A chat's Telegram id changed: drop every cached table (they hold the old chat)."""
        self._live.clear()

    def cached_in(self, groups: Callable[[int], bool]) -> dict[int, int]:
        """The tables this process keeps in memory whose group ``groups`` names (by Telegram
        id): table id -> the group's Telegram id."""
        return {
            table_id: live.chat.tg_chat_id
            for table_id, live in self._live.items()
            if groups(live.chat.tg_chat_id)
        }

    def forget(self, table_id: int) -> None:
        """Drop the cached state (always safe: the next access replays from storage)."""
        self._live.pop(table_id, None)

    async def _log_vote(self, live: Live, player_id: int, payload: dict[str, Any]) -> None:
        """A vote (asking or answering to take back, to substitute, to stop) is an event of the
        deal's log like any other, so a restart finds it open; the rules skip it on replay."""
        await self._append(live, VOTE, payload, player_id)

    async def _append(
        self, live: Live, kind: str, payload: Mapping[str, Any], player_id: int
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

    async def _advance(self, live: Live) -> list[Notice]:
        """A deal just ended (or was found ended at a restore): record it, deal the next one
        or settle the match. The match's life (``MatchLife``) says how: the service, which
        holds it, answers."""
        raise NotImplementedError
