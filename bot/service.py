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

from games.bridge.calls import Call
from games.bridge.cards import Card, Deal, Seat, Side
from games.bridge.deal import (
    Action,
    AnswerClaim,
    DealResult,
    DealState,
    MakeCall,
    MakeClaim,
    PlayCard,
    SeatView,
    Undo,
)
from games.bridge.rubber import Rubber, ScoreEntry
from games.bridge.scoring import Rules, honours
from games.bridge.settlement import rubber_entries
from games.core.shuffle import shuffled
from games.errors import RuleError
from storage.events import deal_payload, encode, replay
from storage.interface import (
    Chat,
    ChatSettings,
    ConflictError,
    Event,
    Player,
    Rounding,
    Storage,
    Table,
    TableBundle,
    TableSettings,
    TableStatus,
)

log = logging.getLogger(__name__)

# Seconds before each attempt to bring a table back after a storage failure (about 10 minutes).
RECOVERY_DELAYS = (0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 60, 120, 120, 120, 120)


VOTE = "vote"  # an event kind of the deal's log that the rules skip
UNDO_ASK, UNDO_ANSWER, SUB_ASK, SUB_ANSWER, END = "undo", "undo_answer", "sub", "sub_answer", "end"


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
    state: DealState | None
    rubber: Rubber | None
    paused: frozenset[Seat]
    dealer_drawn: bool = False
    end_votes: frozenset[Seat] = frozenset()
    actions: int = 0  # events in the current deal: a turn timer checks nothing happened since
    last_at: float = 0.0  # when the last of them was written (epoch seconds)
    token: str = ""  # the table's deep-link token

    def check_sit(self, player_id: int, seat: Seat) -> None:
        """Refusal if the player may not take ``seat`` now (the same checks ``sit`` makes)."""
        _check_sit(self.status, self.seats, player_id, seat)

    def view(self, viewer: Seat | None) -> SeatView | None:
        return None if self.state is None else self.state.view(viewer)

    def seat_of(self, player_id: int) -> Seat | None:
        return _seat_in(self.seats, player_id)

    def vulnerable(self, side: Side) -> bool:
        return self.rubber is not None and self.rubber.vulnerable(side)


@dataclass(frozen=True, slots=True)
class DealFinished:
    deal_no: int
    result: DealResult
    entries: tuple[ScoreEntry, ...]
    final: DealState
    rubber: Rubber
    vulnerable: tuple[bool, bool]  # N-S, E-W as the deal was played


@dataclass(frozen=True, slots=True)
class RubberFinished:
    winner: Side | None
    points: int
    entries: Mapping[int, int]  # player id -> points
    balances: Mapping[int, int]  # player id -> running account in this chat
    names: Mapping[int, str]
    rubber: Rubber
    unfinished: bool = False


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
class EndVote:
    seat: Seat
    agree: bool


@dataclass(frozen=True, slots=True)
class ClaimRejected:
    claimant: Seat
    by: Seat


Notice = (
    DealFinished
    | RubberFinished
    | ClaimRejected
    | EndVote
    | UndoAsked
    | UndoAnswered
    | SubProposed
    | SubDone
    | SubRefused
)


@dataclass(frozen=True, slots=True)
class Change:
    snapshot: Snapshot
    notices: tuple[Notice, ...] = ()


@dataclass
class _Live:
    table: Table
    chat: Chat
    holders: dict[Seat, Holder]
    rubber_id: int | None
    rubber: Rubber | None
    deal_no: int
    state: DealState | None
    seq: int  # events in the deal's log (rules' and votes'): the next one's key
    paused: set[Seat] = field(default_factory=set)
    dealer_drawn: bool = False
    end_votes: set[Seat] = field(default_factory=set)  # consent to stop the rubber now
    undo_request: UndoRequest | None = None
    sub_request: SubRequest | None = None
    last_at: float = field(default_factory=time.time)
    rubber_deals: set[int] = field(default_factory=set)  # deal numbers of the rubber
    scored: set[int] = field(default_factory=set)  # those whose result storage holds
    moves: int = 1  # the deal event and every rules action: the position buttons name


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
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._players: dict[int, Player] = {}  # Telegram user id -> player
        self._usernames: dict[int, str | None] = {}  # Telegram user id -> @username
        self._recovering: dict[int, asyncio.Task[None]] = {}
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
        bundles = await self.storage.load_bundles([table_id])
        if not bundles or bundles[0].table.scorekeeper:  # a scoresheet is not played here
            raise Refusal("table_closed")
        return _live_from(bundles[0])

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
            rubber=copy.deepcopy(live.rubber),
            paused=frozenset(live.paused),
            dealer_drawn=live.dealer_drawn,
            end_votes=frozenset(live.end_votes),
            actions=live.moves,
            last_at=live.last_at,
            token=live.table.token,
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
                    live = self._live[table_id] = _live_from(bundle)
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
        self, tg_chat_id: int, title: str, topic_id: int | None, language: str
    ) -> tuple[Change, bool]:
        """The chat's (topic's) table, opened if there is none. True if it was just opened."""
        chat = await self.storage.ensure_chat(tg_chat_id, title, language)
        existing = await self.storage.table_in(chat.id, topic_id)
        if existing is not None:
            return Change(await self.snapshot(existing.id)), False
        table = await self.storage.create_table(chat.id, topic_id, TableSettings(language=language))
        return Change(await self.snapshot(table.id)), True

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

    async def sit(self, table_id: int, player: Player, seat: Seat) -> Change:
        async with self._guard(table_id):
            live = await self._get(table_id)
            _check_sit(live.table.status, live.holders, player.id, seat)
            current = _seat_of(live, player.id)
            if current is not None:
                await self.storage.set_seat(table_id, current.name, None)
                del live.holders[current]
            await self.storage.set_seat(table_id, seat.name, player.id)
            live.holders[seat] = _holder(player)
            live.paused.discard(seat)
            if len(live.holders) == 4:
                await self._start_rubber(live)
            return Change(self._snapshot(live))

    async def leave(self, table_id: int, player_id: int) -> Change:
        async with self._guard(table_id):
            live = await self._get(table_id)
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("leave_mid_rubber")
            await self.storage.set_seat(table_id, seat.name, None)
            del live.holders[seat]
            return Change(self._snapshot(live))

    async def next_rubber(self, table_id: int, player_id: int, new_partners: bool) -> Change:
        """Another rubber with the same four: same seats, or partners drawn again."""
        async with self._guard(table_id):
            live = await self._get(table_id)
            if _seat_of(live, player_id) is None:
                raise Refusal("not_seated")
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("rubber_in_progress")
            if len(live.holders) < 4:
                raise Refusal("need_four")
            if new_partners:
                people = list(live.holders.values())
                order = shuffled(people, self.randbelow)
                for seat in Seat:
                    await self.storage.set_seat(table_id, seat.name, None)
                for seat, holder in zip(Seat, order, strict=True):
                    await self.storage.set_seat(table_id, seat.name, holder.player_id)
                live.holders = dict(zip(Seat, order, strict=True))
            await self._start_rubber(live)
            return Change(self._snapshot(live))

    async def update_settings(self, table_id: int, settings: TableSettings) -> Change:
        async with self._guard(table_id):
            live = await self._get(table_id)
            if (
                live.state is not None
                and live.state.result is None
                and (
                    live.table.settings.rules != settings.rules
                    or live.table.settings.unfinished_part_score != settings.unfinished_part_score
                )
            ):
                raise Refusal("settings_between_deals")
            await self.storage.update_settings(table_id, settings)
            live.table = await self.storage.get_table(table_id)
            if live.rubber is not None:
                live.rubber.rules = Rules.parse(settings.rules)
                live.rubber.unfinished_part_score = settings.unfinished_part_score
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
        self, table_id: int, deal_no: int, player_id: int, kind: str, arg: str, at: int | None
    ) -> Change:
        """One press: a call, a card, a claim or an answer to one, from the player's seat, made
        for position ``at`` of the deal (its event count when the button was shown).

        Refusal for the table's reasons (stale, moved on, not seated, paused); RuleError for
        the rules'. A press made for an earlier position is refused even if it would be legal
        now: a double tap must not become the lead of the next trick.
        """
        async with self._guard(table_id):
            live, seat = await self._acting(table_id, deal_no, player_id)
            if at != live.moves:
                raise Refusal("moved_on")
            return await self._apply(live, _action(seat, kind, arg), seat, player_id)

    async def _in_rubber(self, table_id: int) -> _Live:
        """The live table, if a rubber is being played at it (Refusal "no_rubber" if not)."""
        live = await self._get(table_id)
        if live.table.status is not TableStatus.PLAYING or live.rubber is None:
            raise Refusal("no_rubber")
        return live

    async def _acting(self, table_id: int, deal_no: int, player_id: int) -> tuple[_Live, Seat]:
        """The live table and the player's seat, if they may act in this deal now."""
        live = await self._get(table_id)
        if (
            live.state is None
            or deal_no != live.deal_no
            or live.state.result is not None
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
        self, live: _Live, action: Action, seat: Seat, player_id: int, *extra: Notice
    ) -> Change:
        """Check ``action`` with the rules, write its event, then follow up. Nothing is written
        if the rules refuse it; nothing is changed if the write fails."""
        assert live.state is not None
        state = live.state.apply(action)  # RuleError propagates: nothing written
        await self._append(live, *encode(action), player_id)
        before = live.state
        live.state = state
        live.moves += 1
        live.last_at = time.time()
        live.undo_request = None  # anything done makes an open request to take back moot
        notices: list[Notice] = list(extra)
        if before.claim is not None and state.claim is None and state.result is None:
            notices.append(ClaimRejected(before.claim.claimant, seat))
        notices += await self._advance(live)
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
        """A player asks to take back their last call or card; the opponents decide."""
        async with self._guard(table_id):
            live, seat = await self._acting(table_id, deal_no, player_id)
            assert live.state is not None
            live.state.apply(Undo(seat))  # RuleError if it is not theirs, or too late
            await self._log_vote(live, player_id, {"what": UNDO_ASK, "seat": seat.name})
            live.undo_request = UndoRequest(seat, live.moves)
            return Change(self._snapshot(live), (UndoAsked(seat),))

    async def answer_undo(self, table_id: int, deal_no: int, player_id: int, agree: bool) -> Change:
        """An opponent of the asker allows or refuses; both must allow."""
        async with self._guard(table_id):
            live, seat = await self._acting(table_id, deal_no, player_id)
            request = live.undo_request
            if request is None or request.seq != live.moves:
                raise Refusal("undo_stale")
            if seat.side is request.seat.side:
                raise Refusal("undo_opponents")
            vote = {"what": UNDO_ANSWER, "seat": seat.name, "agree": agree}
            if not agree:
                await self._log_vote(live, player_id, vote)
                live.undo_request = None
                return Change(self._snapshot(live), (UndoAnswered(request.seat, seat, False),))
            if len(request.allowed | {seat}) < 2:
                await self._log_vote(live, player_id, vote)
                request.allowed.add(seat)
                return Change(self._snapshot(live))
            request.allowed.add(seat)
            asker = live.holders[request.seat].player_id
            done = UndoAnswered(request.seat, seat, True)
            return await self._apply(live, Undo(request.seat), request.seat, asker, done)

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
            request = SubRequest(seat, _holder(newcomer))
            if proposer is not seat:
                request.agreed.add(proposer)
            await self._log_vote(
                live,
                proposer_id,
                {
                    "what": SUB_ASK,
                    "seat": seat.name,
                    "by": proposer.name,
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
            if seat is request.seat:
                raise Refusal("sub_others_decide")
            await self._log_vote(
                live, player_id, {"what": SUB_ANSWER, "seat": seat.name, "agree": agree}
            )
            if not agree:
                live.sub_request = None
                return Change(self._snapshot(live), (SubRefused(request.seat, seat),))
            request.agreed.add(seat)
            return await self._sub_progress(live)

    async def _sub_progress(self, live: _Live) -> Change:
        request = live.sub_request
        assert request is not None
        others = {s for s in live.holders if s is not request.seat}
        if request.agreed < others:
            leaving = live.holders[request.seat].name
            notice: Notice = SubProposed(
                request.seat, leaving, request.newcomer.name, frozenset(request.agreed)
            )
            return Change(self._snapshot(live), (notice,))
        left = live.holders[request.seat]
        await self.storage.set_seat(live.table.id, request.seat.name, request.newcomer.player_id)
        live.holders[request.seat] = request.newcomer
        live.paused.discard(request.seat)
        live.sub_request = None
        return Change(self._snapshot(live), (SubDone(request.seat, left, request.newcomer),))

    async def vote_to_end(self, table_id: int, player_id: int, agree: bool) -> Change:
        """A seated player agrees (or not) to stop the rubber now; with all four, it stops."""
        async with self._guard(table_id):
            live = await self._in_rubber(table_id)
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if live.state is not None and live.state.result is None:
                vote = {"what": END, "seat": seat.name, "agree": agree}
                await self._log_vote(live, player_id, vote)
            if not agree:
                live.end_votes.clear()
                return Change(self._snapshot(live), (EndVote(seat, False),))
            live.end_votes.add(seat)
            if len(live.end_votes) < 4:
                return Change(self._snapshot(live), (EndVote(seat, True),))
            notices = await self._end_rubber(live)
            return Change(self._snapshot(live), tuple(notices))

    async def end_by_admin(self, table_id: int) -> Change:
        """A group admin stops the rubber now (the caller checked the admin)."""
        async with self._guard(table_id):
            live = await self._in_rubber(table_id)
            notices = await self._end_rubber(live)
            return Change(self._snapshot(live), tuple(notices))

    async def _end_rubber(self, live: _Live) -> list[Notice]:
        """Scored as an unfinished rubber (RULES.md, Law 80) from the deals completed; a deal in
        progress is abandoned, its events kept."""
        assert live.rubber is not None
        live.end_votes.clear()
        live.rubber.close()
        return await self._finish_rubber(live, unfinished=True)

    async def _start_rubber(self, live: _Live) -> None:
        """A new rubber at the table; the first dealer is drawn by lot."""
        seats = {seat.name: holder.player_id for seat, holder in live.holders.items()}
        record = await self.storage.start_rubber(live.table.id, live.table.settings.rules, seats)
        live.table = await self.storage.get_table(live.table.id)
        live.rubber_id = record.id
        live.rubber = Rubber(live.table.settings.rules, live.table.settings.unfinished_part_score)
        live.rubber_deals, live.scored = set(), set()
        dealer = Seat(self.randbelow(4))
        live.dealer_drawn = True
        await self._start_deal(live, dealer)

    async def _start_deal(self, live: _Live, dealer: Seat) -> None:
        deal = Deal.shuffled(dealer, self.randbelow)
        number = live.deal_no + 1
        await self.storage.start_deal(live.table.id, number, deal_payload(deal), None)
        live.deal_no, live.state, live.seq, live.moves = number, DealState.new(deal), 1, 1
        live.last_at = time.time()
        # Votes belong to the deal they were cast in (its log keeps them across a restart):
        # a new deal starts with none open.
        live.end_votes.clear()
        live.undo_request = live.sub_request = None
        live.rubber_deals.add(number)

    async def _advance(self, live: _Live) -> list[Notice]:
        """Follow up a finished deal: score it, then the next deal or the end of the rubber.

        Idempotent, so a restart after a crash at any point between these writes completes them.
        """
        state = live.state
        if state is None or state.result is None or live.rubber is None or live.rubber_id is None:
            return []
        notices: list[Notice] = []
        if live.deal_no not in live.rubber_deals:
            return []  # the current deal belongs to an earlier rubber
        if live.deal_no not in live.scored:
            result_payload = _result_payload(state)
            await self.storage.finish_deal(live.table.id, live.deal_no, result_payload)
            live.scored.add(live.deal_no)
            vul = (live.rubber.vulnerable(Side.NS), live.rubber.vulnerable(Side.EW))
            entries = record_result(live.rubber, result_payload)
            rubber = copy.deepcopy(live.rubber)
            notices.append(
                DealFinished(live.deal_no, state.result, tuple(entries), state, rubber, vul)
            )
        if live.rubber.finished:
            notices.extend(await self._finish_rubber(live))
        else:
            live.dealer_drawn = False
            await self._start_deal(live, state.deal.dealer.next)
        return notices

    async def _finish_rubber(self, live: _Live, unfinished: bool = False) -> list[Notice]:
        assert live.rubber is not None and live.rubber_id is not None
        rubber = live.rubber
        winner, points = rubber.result(live.chat.settings.rounding is Rounding.HUNDREDS)
        players = {seat: holder.player_id for seat, holder in live.holders.items()}
        entries = rubber_entries(players, winner, points)
        seats = {seat.name: pid for seat, pid in players.items()}
        # ConflictError: written before a restart; the ledger already holds it.
        with contextlib.suppress(ConflictError):
            await self.storage.finish_rubber(
                live.rubber_id, winner, points, entries, seats, unfinished
            )
        live.table = await self.storage.get_table(live.table.id)
        if live.table.status is TableStatus.PLAYING:
            await self.storage.set_status(live.table.id, TableStatus.OPEN)
            live.table = await self.storage.get_table(live.table.id)
        live.rubber_id = None
        balances = await self.storage.balances(live.chat.id)
        names = {h.player_id: h.name for h in live.holders.values()}
        return [
            RubberFinished(
                winner, points, entries, balances, names, copy.deepcopy(rubber), unfinished
            )
        ]


def _live_from(bundle: TableBundle) -> _Live:
    """Rebuild a table from storage: the rubber from its deals' results, the deal by replay."""
    table = bundle.table
    holders = {Seat.parse(s): _holder(bundle.players[pid]) for s, pid in table.seats.items()}
    rubber = None
    if table.rubber_id is not None:
        rubber = Rubber(table.settings.rules, table.settings.unfinished_part_score)
        for summary in bundle.rubber_deals:
            if summary.result is not None:
                record_result(rubber, summary.result)
    state = replay(bundle.events) if bundle.events else None
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
        holders,
        table.rubber_id,
        rubber,
        table.current_deal,
        state,
        len(bundle.events),
        paused,
        rubber_deals={d.deal_no for d in bundle.rubber_deals},
        scored={d.deal_no for d in bundle.rubber_deals if d.result is not None},
        last_at=last_at,
        moves=max(1, len(rules_events)),
    )
    _restore_votes(live, bundle.events)
    return live


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
        what, seat = vote.get("what"), Seat.parse(str(vote.get("seat", "N")))
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
            proposer = Seat.parse(str(vote["by"]))
            if proposer is not seat:
                live.sub_request.agreed.add(proposer)
        elif what == SUB_ANSWER and live.sub_request is not None:
            if agree:
                live.sub_request.agreed.add(seat)
            else:
                live.sub_request = None
        elif what == END:
            if agree:
                live.end_votes.add(seat)
            else:
                live.end_votes.clear()
    request = live.sub_request
    if request is not None and live.holders.get(request.seat) == request.newcomer:
        live.sub_request = None  # done: the newcomer holds the seat


def _check_sit(
    status: TableStatus, holders: Mapping[Seat, Holder], player_id: int, seat: Seat
) -> None:
    if status is TableStatus.CLOSED:
        raise Refusal("table_closed")
    if status is TableStatus.PLAYING:
        raise Refusal("rubber_in_progress")
    current = _seat_in(holders, player_id)
    if current is seat:
        raise Refusal("already_there")
    if seat in holders:
        raise Refusal("seat_taken", name=holders[seat].name)


def _holder(player: Player) -> Holder:
    return Holder(player.id, player.name, player.tg_user_id, player.language)


def _seat_of(live: _Live, player_id: int) -> Seat | None:
    return _seat_in(live.holders, player_id)


def _seat_in(holders: Mapping[Seat, Holder], player_id: int) -> Seat | None:
    for seat, holder in holders.items():
        if holder.player_id == player_id:
            return seat
    return None


def _action(seat: Seat, kind: str, arg: str) -> Action:
    if kind == "call":
        return MakeCall(seat, Call.parse(arg))
    if kind == "card":
        return PlayCard(seat, Card.parse(arg))
    if kind == "claim":
        if not arg.isdecimal() or len(arg) > 2:
            raise Refusal("unknown_action")
        return MakeClaim(seat, int(arg))
    if kind == "claim_answer":
        return AnswerClaim(seat, arg == "y")
    raise Refusal("unknown_action")


def _result_payload(state: DealState) -> dict[str, Any]:
    result = state.result
    assert result is not None
    if result.contract is None or result.declarer is None:
        return {"contract": None, "declarer": None, "tricks": 0, "honours": {}}
    held = honours(state.deal, result.contract.strain)
    return {
        "contract": str(result.contract),
        "declarer": result.declarer.name,
        "tricks": result.declarer_tricks,
        "honours": {str(side): points for side, points in held.items()},
    }


def record_result(rubber: Rubber, result: Mapping[str, Any]) -> list[ScoreEntry]:
    """Score one deal's stored result (online or entered by a scorekeeper) into the rubber."""
    if result.get("contract") is None:
        return rubber.record_passed_out()
    side = Seat.parse(str(result["declarer"])).side
    return rubber.record(side, str(result["contract"]), int(result["tricks"]), result["honours"])
