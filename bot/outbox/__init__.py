"""The outbox: the only code that sends table content to Telegram (its overall cap in ``gate``,
what it holds per message and per chat in ``queue``, the calls' shapes in ``wire``).

Per kept message it holds only the latest wanted content; per chat it sends in order, at most
one call per ``interval`` (a few seconds in groups, about one a second in private chats), skips
an edit that changes nothing, and after ``RetryAfter`` sends the latest content, never a backlog.
It needs no persistence: after a restart the bot re-renders every table and the outbox brings
Telegram up to date, editing the messages whose ids storage kept.

Telegram's limits are per chat (its Bot API maintainer's words: about 20 sends and edits a
minute in a group, about one a second in a private chat, answers to presses free). The
operator's overall cap (``OVERALL_RATE_PER_SECOND``) is a safety valve on top: under it the
``Gate`` lets the most urgent call go first: posts (results, replies) and the prompt of the
player on turn, then the group's table, then the screens of players who are waiting.

A player's screen may be an ephemeral message in the group (``bot.outbox.ephemeral``): those
go in a lane of their own per group, paced by a budget of calls a minute (``ephemeral_rate``,
Telegram does not say whether they count against the group's), the prompt of the player on
turn first. A refused one is handed to ``on_ephemeral_refused`` (the player's screen goes to
their private chat); a group whose ephemeral calls Telegram keeps slowing down
(``THROTTLED``) is handed to ``on_ephemeral_throttled``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any

from telegram import Bot, InputFile
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    EndPointNotFound,
    Forbidden,
    NetworkError,
    RetryAfter,
    TimedOut,
)
from telegram.warnings import PTBUserWarning

from bot.outbox import ephemeral, wire
from bot.outbox.ephemeral import Ephemeral
from bot.outbox.gate import Gate
from bot.outbox.queue import Budget, KeepId, LaneId, _Edit, _File, _Keep, _Kept, _Lane, _Post
from bot.outbox.wire import _Unreachable
from bot.rendered import TABLE, URGENT, WAITING, Content, Rendered
from storage.interface import Storage

log = logging.getLogger(__name__)

# The outbox calls these two methods through ``Bot.do_api_request`` on purpose (see _attempt).
warnings.filterwarnings(
    "ignore",
    message=r"Please use 'Bot\.(sendMessage|editMessageText|sendPhoto|sendDocument|deleteMessage)'",
    category=PTBUserWarning,
)

# Kept messages remembered at once. Each deal adds a few (the table, four hands); the least
# recently wanted are forgotten first, never one that is queued or being sent. A forgotten one
# that is wanted again finds its message id in storage and is edited, as after a restart.
MAX_KEEPS = 20_000
# Telegram out of reach after a call's retries: the chat's queue waits this long, doubling up
# to the most, and then tries the same message again (never dropping it, never claiming it
# was shown).
OUTAGE_PAUSE, OUTAGE_MAX = 2.0, 60.0
DIGEST_SECONDS = 1.0  # how long an edited message's digest may wait to be written (``_remember``)
# A group's ephemeral calls answered 429 this many times within THROTTLE_WINDOW seconds: the
# group's screens go back to private chats (``on_ephemeral_throttled``).
THROTTLED, THROTTLE_WINDOW = 3, 120.0


@dataclass
class Stats:
    """Calls made, by kind of chat; read by tests and benchmarks."""

    group_calls: int = 0
    private_calls: int = 0
    ephemeral_calls: int = 0  # in groups, to one member each (not in group_calls)
    skipped: int = 0
    retry_after: int = 0


class Outbox:
    def __init__(
        self,
        bot: Bot,
        storage: Storage,
        group_interval: float = 4.0,
        private_interval: float = 1.0,
        on_blocked: Callable[[int], Awaitable[None]] | None = None,
        on_migrated: Callable[[int, int], Awaitable[None]] | None = None,
        overall_rate: float = 0.0,
        ephemeral_rate: float = 60.0,
        live_interval: float = 0.0,
    ) -> None:
        self.bot = bot
        self.gate = Gate(overall_rate)  # 0: no cap of the outbox's own
        self.storage = storage
        self.group_interval = group_interval
        self.private_interval = private_interval
        self.on_blocked = on_blocked
        self.on_migrated = on_migrated
        self.ephemeral_rate = ephemeral_rate  # a group's ephemeral calls a minute
        # Seconds between edits of a waiting player's screen in their private chat (0: as
        # often as the chat's pace allows): the others' play coalesces meanwhile, and the
        # screen that becomes their prompt goes at once.
        self.live_interval = live_interval
        self.rich_off = False  # Telegram does not know rich messages: text only
        # (table id, group, receiver) of an ephemeral message Telegram refused to show.
        self.on_ephemeral_refused: Callable[[int, int, int], Awaitable[None]] | None = None
        self.on_ephemeral_throttled: Callable[[int], Awaitable[None]] | None = None
        self.stats = Stats()
        # (chat id, priority, seconds from wanted to shown) of each delivery, when a benchmark
        # asks for them by setting a list here (a screen in the group: its player's id).
        self.delays: list[tuple[int, int, float]] | None = None
        self.max_keeps = MAX_KEEPS
        self._lanes: dict[LaneId, _Lane] = {}
        self._tickets: dict[Ephemeral, tuple[str, float]] = {}  # a press allowing a send
        self._budgets: dict[int, Budget] = {}  # a group's ephemeral budget, while it is spent
        self._renewing: set[KeepId] = set()  # renewed before this process remembered them
        self._keeps: OrderedDict[KeepId, _Kept] = OrderedDict()  # least recently wanted first
        self._sending: set[KeepId] = set()
        self._correcting = False
        self._digests: dict[KeepId, tuple[int, int, str]] = {}  # edited, not yet written
        self._flusher: asyncio.Task[None] | None = None

    # --- what callers want --------------------------------------------------------------------

    def update(
        self, table_id: int, key: str, chat_id: int, thread_id: int | None, content: Content
    ) -> None:
        """Like ``want``, for a kept message this process has shown: never posts one anew (a
        message that was never sent has nothing to correct)."""
        if (table_id, key) in self._keeps:
            self.want(table_id, key, chat_id, thread_id, content)

    def want(
        self,
        table_id: int,
        key: str,
        chat_id: int,
        thread_id: int | None,
        content: Content,
        priority: int = TABLE,
        receiver: int | None = None,
        may_post: bool = True,
    ) -> None:
        """Make the kept message ``key`` of the table show ``content`` (posted if it is new);
        ``priority`` under the overall cap (``URGENT`` for the prompt of the player on turn,
        ``WAITING`` for a screen that only follows the others' play). With ``receiver``, an
        ephemeral message in the group for that member alone, posted only if ``may_post`` or
        the member's press allows it (``ticket``), else only edited."""
        keep = (table_id, key)
        kept = self._keeps.get(keep)
        later = None if isinstance(content, Rendered) else content
        if later is not None:
            content = kept.wanted if kept is not None else Rendered("")
        assert isinstance(content, Rendered)
        if kept is None:
            kept = self._keeps[keep] = _Kept(chat_id, thread_id, content, priority=priority)
            kept.later = later
            kept.since = time.monotonic()
            kept.only_edit = self._correcting
            kept.receiver, kept.may_post = receiver, may_post
            if keep in self._renewing:
                self._renewing.discard(keep)
                kept.renew = True
        elif self._correcting:
            return  # this process shows it already: it is up to date, or will be
        else:
            if kept.receiver != receiver:  # another member's message: not the one shown
                kept.message_id, kept.sent, kept.receiver = None, None, receiver
            kept.may_post = may_post
            kept.only_edit = False
            if kept.since is None or priority < kept.priority:
                kept.since = time.monotonic()  # a prompt is timed from when it became one
            kept.chat_id, kept.thread_id, kept.wanted = chat_id, thread_id, content
            kept.later = later
            kept.priority = priority
            self._keeps.move_to_end(keep)
            self.gate.hurry(keep, priority)
        lane = self._lane(chat_id, receiver is not None)
        queued = keep not in lane.pending
        if queued:
            lane.pending.add(keep)
            lane.queue.append(_Keep(keep))
        # A waiting screen wanted again while it waits for its pace changes nothing there, nor
        # does one queued anew while its lane dozes until that pace: woken, the lane would
        # find it paced and doze again until the same time.
        wake = queued or priority != WAITING
        if wake and lane.wake is not None and priority == WAITING:
            wake = not self._paced(lane, _Keep(keep))
        self._kick(lane, wake=wake)
        if len(self._keeps) > self.max_keeps:
            self._evict()

    def _busy_keeps(self) -> set[KeepId]:
        """The kept messages being sent or waiting in a lane to be: never forgotten."""
        return self._sending | {k for lane in self._lanes.values() for k in lane.pending}

    def _evict(self) -> None:
        """Forget the least recently wanted kept messages that nothing is waiting to send."""
        busy = self._busy_keeps()
        for keep in list(self._keeps):
            if len(self._keeps) <= self.max_keeps:
                return
            if keep not in busy:
                del self._keeps[keep]

    def busy_with(self, table_ids: set[int], chat_ids: set[int]) -> bool:
        """Whether anything of these tables, or for these chats, waits to be sent or is being
        sent (a process letting a group go to another finishes its sends first)."""
        if any(keep[0] in table_ids for keep in self._sending):
            return True
        for lane in self._lanes.values():
            if lane.chat_id in chat_ids and (lane.queue or lane.working):
                return True
            if any(keep[0] in table_ids for keep in lane.pending):
                return True
        return False

    def let_go(self, table_ids: set[int]) -> None:
        """Forget what this process knows of these tables' messages: another process shows
        them now, and if they come back here, storage says where their messages are."""
        for lane in self._lanes.values():
            gone = {keep for keep in lane.pending if keep[0] in table_ids}
            if gone:
                lane.pending -= gone
                lane.queue = type(lane.queue)(
                    op for op in lane.queue if not (isinstance(op, _Keep) and op.keep in gone)
                )
        for keep in [k for k in self._keeps if k[0] in table_ids]:
            del self._keeps[keep]  # what it showed last is written still (``_flush``)

    def forget_tables(self, table_ids: set[int]) -> None:
        """Forget these tables' messages that show what was wanted and wait for nothing (the
        tables left memory): one wanted again finds its message in storage, as after a
        restart. Any still to be sent stays."""
        busy = self._busy_keeps()
        for keep in [k for k in self._keeps if k[0] in table_ids and k not in busy]:
            if not self._keeps[keep].changed():
                del self._keeps[keep]

    @contextlib.contextmanager
    def correcting(self) -> Iterator[None]:
        """While inside, ``want`` only corrects messages already in their chat (storage holds
        their ids) and nothing is posted: a restart's redraw of what may have been left
        behind, which must never show a message twice or to someone new."""
        self._correcting = True
        try:
            yield
        finally:
            self._correcting = False

    def post(
        self,
        chat_id: int,
        thread_id: int | None,
        content: Rendered | Coroutine[Any, Any, Rendered],
        in_order: bool = False,
    ) -> None:
        """A new message (a deal's result, a notice), sent in order after what is queued. One
        still to be made (a deal's analysis, worked out off the event loop) is started now and
        keeps its place, as ``post_file`` does. A post goes ahead of edits queued before it
        unless ``in_order``: a deal's result follows the table's last version (its last
        trick), never the other way round."""
        if self._correcting:
            if not isinstance(content, Rendered):
                content.close()
            return
        lane = self._lane(chat_id)
        made = content if isinstance(content, Rendered) else asyncio.ensure_future(content)
        lane.queue.append(_Post(made, thread_id, in_order=in_order))
        self._kick(lane)

    def edit(self, chat_id: int, message_id: int, content: Rendered) -> None:
        """Show ``content`` in a message the outbox does not keep (one a button was pressed
        on), in order after what is queued for the chat."""
        if self._correcting:
            return
        lane = self._lane(chat_id)
        lane.queue.append(_Edit(message_id, content))
        self._kick(lane)

    def post_file(
        self,
        chat_id: int,
        thread_id: int | None,
        method: str,
        field: str,
        file: InputFile | Coroutine[Any, Any, InputFile],
        caption: str = "",
    ) -> None:
        """A picture or a document, sent in order after what is queued for the chat. A file
        still to be made (a picture drawn off the event loop) is started now and keeps its
        place: the chat's later messages wait for it, so a result and its sheet arrive
        together."""
        if self._correcting:
            if not isinstance(file, InputFile):
                file.close()
            return
        lane = self._lane(chat_id)
        made = file if isinstance(file, InputFile) else asyncio.ensure_future(file)
        lane.queue.append(_File(method, field, made, caption, thread_id))
        self._kick(lane)

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait until everything queued has been sent (tests, shutdown)."""
        deadline = time.monotonic() + timeout
        while any(lane.queue or lane.working for lane in self._lanes.values()):
            if time.monotonic() > deadline:
                raise TimeoutError("outbox did not drain")
            await asyncio.sleep(0.002)
        await self._flush()

    async def close(self) -> None:
        """Stop sending (``drain`` first, to send what is queued and write what was shown)."""
        if self._flusher is not None:
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._flusher
        for lane in list(self._lanes.values()):  # a lane may drop itself meanwhile
            if lane.task is not None:
                lane.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await lane.task

    def renew(self, table_id: int, key: str) -> None:
        """Send the kept message anew as a new message (Telegram notifies new messages, not
        edits) and delete the old one, so the chat still holds one: two calls instead of one
        edit. The content comes with the next ``want``."""
        kept = self._keeps.get((table_id, key))
        if kept is not None:
            kept.renew = True
        else:  # not remembered (forgotten, or never wanted here): when it is wanted next
            if len(self._renewing) > self.max_keeps:
                self._renewing.clear()  # never wanted after all: nothing waits on these
            self._renewing.add((table_id, key))

    def forget(self, table_id: int, key: str) -> None:
        """Post the kept message anew next time instead of editing it (it scrolled away)."""
        kept = self._keeps.get((table_id, key))
        if kept is not None:
            kept.message_id, kept.sent, kept.looked_up = None, None, True
        else:
            self._keeps[(table_id, key)] = _Kept(0, None, Rendered(""), looked_up=True)

    def showing(self, table_id: int, key: str) -> bool:
        """Whether this process shows (or is about to show) the kept message ``key``."""
        kept = self._keeps.get((table_id, key))
        return kept is not None and kept.chat_id != 0

    def ticket(self, chat_id: int, receiver: int, query_id: str) -> None:
        """The member's press (``query_id``) in the group: for a short while it allows an
        ephemeral message to them even where the bot is no administrator (used once)."""
        self._tickets[Ephemeral(chat_id, receiver)] = (query_id, time.monotonic())

    def _ticket(self, to: Ephemeral) -> str | None:
        found = self._tickets.pop(to, None)
        if found is None or time.monotonic() - found[1] > ephemeral.SAFE_WINDOW:
            return None
        return found[0]

    def remembered(self) -> int:
        """How many kept messages the outbox holds state for (tests, benchmarks)."""
        return len(self._keeps)

    def lanes(self) -> int:
        return len(self._lanes)

    # --- sending ------------------------------------------------------------------------------

    def _lane(self, chat_id: int, screens: bool = False) -> _Lane:
        """The chat's lane (``screens``: the group's lane of ephemeral screens)."""
        lane = self._lanes.get((chat_id, screens))
        if lane is None:
            if screens:  # the group's budget outlives its lane (idle lanes are dropped)
                budget = self._budgets.get(chat_id) or Budget(self.ephemeral_rate)
                self._budgets[chat_id] = budget
                lane = _Lane(chat_id, 0.0, budget)
            else:
                interval = self.private_interval if chat_id > 0 else self.group_interval
                lane = _Lane(chat_id, interval)
            self._lanes[lane.id] = lane
        return lane

    def _kick(self, lane: _Lane, wake: bool = True) -> None:
        if wake and lane.wake is not None and not lane.wake.done():
            lane.wake.set_result(None)  # a waiting screen's wait is looked at again
        if lane.task is None or lane.task.done():
            lane.task = asyncio.create_task(self._run(lane), name=f"outbox:{lane.chat_id}")

    async def _run(self, lane: _Lane) -> None:
        while True:
            lane.working = True
            try:
                await self._work(lane)
            finally:
                lane.working = False
            # Idle: the lane is dropped once its pacing interval has passed (a chat written
            # once must not hold memory for ever), unless work arrived meanwhile.
            wait = lane.next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if lane.live_at and not lane.queue:  # a waiting screen's pace outlives the work
                await self._doze(lane, lane.live_at + self.live_interval)
            if not lane.queue:
                if self._lanes.get(lane.id) is lane:
                    del self._lanes[lane.id]
                    if lane.budget is not None and lane.budget.full():
                        self._budgets.pop(lane.chat_id, None)  # spent nothing it remembers
                return

    def _first(self, lane: _Lane) -> _Keep | _Post | _File | _Edit:
        """The next op of the chat: posts (results, notices, replies) go ahead of edits of
        messages already shown (the table), which coalesce meanwhile; posts keep their order,
        and so does a kept message not shown yet (its place in the chat is its first post)."""
        head = lane.queue[0]
        if lane.budget is not None:  # a group's ephemeral screens: the most urgent first
            index = min(range(len(lane.queue)), key=lambda i: self._urgency(lane.queue[i]))
            if index:
                op = lane.queue[index]
                del lane.queue[index]
                lane.queue.appendleft(op)
            return lane.queue[0]
        if not isinstance(head, _Keep):
            return head
        kept = self._keeps.get(head.keep)
        if kept is None or kept.message_id is None or kept.renew:
            return head
        for index, op in enumerate(lane.queue):
            if isinstance(op, _Post) and op.in_order:
                return head  # what was queued before it goes first
            if isinstance(op, _Post | _File | _Edit):
                del lane.queue[index]
                lane.queue.appendleft(op)
                return op
            if isinstance(op, _Keep):
                other = self._keeps.get(op.keep)
                if other is not None and (other.message_id is None or other.renew):
                    return head  # a new message waits in line: nothing passes it
        return head

    def _urgency(self, op: _Keep | _Post | _File | _Edit) -> int:
        """An op's priority; a screen a player's press asked for is urgent (it must go while
        the press still allows it)."""
        kept = self._keeps.get(op.keep) if isinstance(op, _Keep) else None
        if kept is None:
            return URGENT
        if kept.receiver is not None and Ephemeral(kept.chat_id, kept.receiver) in self._tickets:
            return URGENT
        return kept.priority

    async def _work(self, lane: _Lane) -> None:
        while lane.queue:
            op = self._first(lane)
            wait = lane.next_at - time.monotonic()
            if lane.budget is not None and wait <= 0:
                # A group's screens share one lane: a waiting player's screen must not stand
                # in the overall cap's queue while a prompt comes in behind it, so it goes
                # only when nothing waits there; either re-looks for a prompt while it waits.
                urgent = self._urgency(op) == URGENT
                spare = lane.budget.wait(urgent)
                if spare > 0 or (not urgent and self.gate.crowded()):
                    await asyncio.sleep(min(spare, 0.1) if spare > 0 else 0.05)
                    continue
            if wait > 0:
                await asyncio.sleep(wait)
            paced = self._paced(lane, op)
            if paced and time.monotonic() < lane.live_at + self.live_interval:
                other = self._unpaced(lane)
                if other is None:
                    await self._doze(lane, lane.live_at + self.live_interval)
                    continue
                op, paced = other, False
            try:
                called = await self._send(lane, op)
            except _Unreachable:
                lane.outage = min(OUTAGE_MAX, 2 * lane.outage or OUTAGE_PAUSE)
                lane.next_at = time.monotonic() + lane.outage
                if isinstance(op, _Keep) and op.keep in self._keeps:
                    lane.pending.add(op.keep)  # its latest content goes on the next try
                continue
            except RetryAfter as exc:
                self.stats.retry_after += 1
                seconds = wire.seconds(exc)
                lane.next_at = time.monotonic() + seconds
                if lane.budget is not None and await self._throttled(lane):
                    continue  # the group's screens went to private chats
                continue  # the same op again, with whatever content is latest by then
            except Forbidden:
                # Blocked by the user (or removed from the group): drop what was queued for this
                # chat; it is re-rendered in full when they come back.
                for item in lane.queue:
                    kept = self._keeps.get(item.keep) if isinstance(item, _Keep) else None
                    if kept is not None:
                        kept.sent = None
                lane.queue.clear()
                lane.pending.clear()
                if lane.chat_id > 0 and self.on_blocked is not None:
                    await self.on_blocked(lane.chat_id)
                continue
            except Exception:  # a bug or an outage must not kill the lane; the error is logged
                log.exception("outbox: giving up on one message to chat %s", lane.chat_id)
                called = True
            lane.queue.popleft()
            lane.outage = 0.0
            if len(self._keeps) > self.max_keeps:
                self._evict()  # what waited to be sent may be forgotten now
            if called:
                lane.next_at = time.monotonic() + lane.interval
                if paced:
                    lane.live_at = time.monotonic()

    def _paced(self, lane: _Lane, op: _Keep | _Post | _File | _Edit) -> bool:
        """Whether ``op`` is the edit of a waiting player's screen shown in a private chat,
        which goes at most every ``live_interval``."""
        if self.live_interval <= 0 or lane.budget is not None or lane.chat_id < 0:
            return False
        if not isinstance(op, _Keep) or self._urgency(op) != WAITING:
            return False
        kept = self._keeps.get(op.keep)
        return (
            kept is not None
            and kept.sent is not None
            and kept.message_id is not None
            and not kept.renew
            and kept.changed()
        )

    def _unpaced(self, lane: _Lane) -> _Keep | _Post | _File | _Edit | None:
        """While a waiting screen waits for its pace: the chat's first op that may go
        meanwhile, put at the head of the queue (None: every op waits for its pace)."""
        for index, other in enumerate(lane.queue):
            if not self._paced(lane, other):
                del lane.queue[index]
                lane.queue.appendleft(other)
                return other
        return None

    async def _doze(self, lane: _Lane, due: float) -> None:
        """Until the waiting screen's time, or until something new is wanted in the chat (a
        future and a timer: hundreds of chats may doze at once)."""
        loop = asyncio.get_running_loop()
        lane.wake = wake = loop.create_future()
        timer = loop.call_later(max(0.0, due - time.monotonic()), _settle, wake)
        try:
            await wake
        finally:
            timer.cancel()
            lane.wake = None

    async def _throttled(self, lane: _Lane) -> bool:
        """Telegram slowed a group's ephemeral calls down again: past ``THROTTLED`` times in
        ``THROTTLE_WINDOW``, its screens go back to private chats (the queue is dropped)."""
        now = time.monotonic()
        lane.throttled = [at for at in lane.throttled if now - at < THROTTLE_WINDOW] + [now]
        if len(lane.throttled) < THROTTLED or self.on_ephemeral_throttled is None:
            return False
        lane.throttled.clear()
        lane.queue.clear()
        lane.pending.clear()
        await self.on_ephemeral_throttled(lane.chat_id)
        return True

    async def _send(self, lane: _Lane, op: _Keep | _Post | _File | _Edit) -> bool:
        """Make one call for ``op``; False if none was needed."""
        lane.priority, lane.paid = URGENT, False
        if isinstance(op, _Edit):
            try:
                edit = wire.edit_params(op.message_id, op.content)
                await self._attempt(lane, "editMessageText", edit)
            except BadRequest as exc:  # unchanged, or gone: nothing to show it in
                log.info("outbox: an edit to chat %s was not made (%s)", lane.chat_id, exc)
            return True
        if isinstance(op, _Post):
            try:
                content = op.content if isinstance(op.content, Rendered) else await op.content
            except Exception:
                log.exception("outbox: a message to send could not be made")
                return False
            await self._call_post(lane, content, op.thread_id)
            if self.delays is not None:
                self.delays.append((lane.chat_id, URGENT, time.monotonic() - op.at))
            return True
        if isinstance(op, _File):
            try:
                file = op.file if isinstance(op.file, InputFile) else await op.file
            except Exception:
                log.exception("outbox: a file to send could not be made")
                return False
            params: dict[str, object] = {op.field: file, "caption": op.caption}
            if op.thread_id is not None:
                params["message_thread_id"] = op.thread_id
            await self._attempt(lane, op.method, params)
            return True
        # From here the content is read: a want() while this call is in flight must queue a
        # pass of its own, or its newer content would never be sent (the key is not pending
        # any more once it is read). That pass finds nothing to do if the content is the same.
        kept = self._keeps.get(op.keep)
        if kept is None or not self._in(kept, lane):
            lane.pending.discard(op.keep)
            return False  # forgotten, or it now belongs to another chat (a substitute's seat)
        if kept.changed() or kept.renew:
            # Past the overall cap first, still pending: what is wanted meanwhile is what goes.
            lane.priority = kept.priority
            await self.gate.acquire(kept.priority, op.keep)
            lane.paid = True
        lane.pending.discard(op.keep)
        kept = self._keeps.get(op.keep)
        if kept is None or not self._in(kept, lane):
            return False
        content = kept.drawn()
        since, kept.since = kept.since, None
        if kept.sent == content and not kept.renew:
            self.stats.skipped += 1
            return False
        self._sending.add(op.keep)
        try:
            if kept.receiver is None:
                called = await self._send_kept(lane, op.keep, kept, content)
            else:
                called = await self._send_ephemeral(lane, op.keep, kept, content)
        finally:
            self._sending.discard(op.keep)
        if called and since is not None and self.delays is not None:
            chat = lane.chat_id if kept.receiver is None else kept.receiver  # whose screen
            self.delays.append((chat, kept.priority, time.monotonic() - since))
        return called

    async def _send_kept(self, lane: _Lane, keep: KeepId, kept: _Kept, content: Rendered) -> bool:
        message_id = await self._known_id(keep, kept)
        digest = wire.digest(content)
        if kept.renew and message_id is not None:
            kept.renew = False
            new_id = await self._call_post(lane, content, kept.thread_id)
            if new_id is None:
                return True
            kept.message_id, kept.sent = new_id, content
            self._digests.pop(keep, None)
            await self.storage.set_message(keep[0], keep[1], kept.chat_id, new_id, digest)
            with contextlib.suppress(BadRequest, _Unreachable):  # gone already, or left
                await self._attempt(lane, "deleteMessage", {"message_id": message_id})
            return True
        kept.renew = False  # never shown yet: its first post notifies anyway
        if kept.only_edit and message_id is None:
            self._keeps.pop(keep, None)  # a correction of a message that is not there
            return False
        if message_id is not None and kept.sent is None and kept.stored_digest == digest:
            kept.sent = content  # after a restart: the message shows this already
            self.stats.skipped += 1
            return False
        if message_id is not None:
            edit = wire.edit_params(message_id, content)
            edited = await self._edit(
                lane, keep, kept, "editMessageText", edit, message_id, content, digest
            )
            if edited:
                return True
            if kept.only_edit:
                self._keeps.pop(keep, None)
                return True
            # the message is gone: post it anew below
        message_id = await self._call_post(lane, content, kept.thread_id)
        if message_id is not None:
            kept.message_id, kept.sent = message_id, content
            self._digests.pop(keep, None)
            await self.storage.set_message(keep[0], keep[1], kept.chat_id, message_id, digest)
        return True

    async def _edit(
        self,
        lane: _Lane,
        keep: KeepId,
        kept: _Kept,
        method: str,
        params: dict[str, object],
        message_id: int,
        content: Rendered,
        digest: str,
    ) -> bool:
        """Edit the kept message where it is (an edit that changes nothing counts as made);
        False if it is gone from its chat. ``digest``: the content's, remembered once made."""
        try:
            await self._attempt(lane, method, params)
        except BadRequest as exc:
            text = str(exc).lower()
            if "not modified" in text:
                kept.sent = content
                return True
            if "not found" not in text and "can't be edited" not in text:
                raise
            return False
        kept.sent = content
        self._remember(keep, kept.chat_id, message_id, digest)
        return True

    @staticmethod
    def _in(kept: _Kept, lane: _Lane) -> bool:
        """Whether the kept message goes through this lane (its chat, ephemeral or not)."""
        return kept.chat_id == lane.chat_id and (kept.receiver is not None) == (
            lane.budget is not None
        )

    async def _send_ephemeral(
        self, lane: _Lane, keep: KeepId, kept: _Kept, content: Rendered
    ) -> bool:
        """A player's screen as an ephemeral message: edited where it is; posted (anew, when
        renewed) if the bot may (an administrator) or the player's press allows it; else left
        until they open it. A refusal hands the player to ``on_ephemeral_refused``."""
        assert kept.receiver is not None
        to = Ephemeral(kept.chat_id, kept.receiver)
        message_id = await self._known_id(keep, kept)
        digest = wire.digest(content)
        ticket = self._ticket(to)
        may_post = ticket is not None or (kept.may_post and not kept.only_edit)
        renew, kept.renew = kept.renew, False
        if message_id is not None and not (renew and may_post):
            if kept.sent is None and kept.stored_digest == digest and not renew:
                kept.sent = content  # after a restart: the message shows this already
                self.stats.skipped += 1
                return False
            edit = ephemeral.edit_params(to, message_id, content)
            method = "editEphemeralMessageText"
            if await self._edit(lane, keep, kept, method, edit, message_id, content, digest):
                return True
            kept.message_id = message_id = None  # gone: posted anew below, if it may be
        if not may_post:
            kept.sent = None
            return False  # nothing to show it in until the player opens it
        params = ephemeral.send_params(to, content, kept.thread_id, ticket)
        try:
            result = await self._raw(lane, "sendMessage", params)
        except (BadRequest, Forbidden) as exc:
            log.info("outbox: an ephemeral message in %s was refused (%s)", kept.chat_id, exc)
            self._keeps.pop(keep, None)
            if self.on_ephemeral_refused is not None:
                await self.on_ephemeral_refused(keep[0], to.chat_id, to.receiver)
            return True
        new_id = ephemeral.sent_id(result)
        if new_id is None:
            return True
        kept.message_id, kept.sent = new_id, content
        self._digests.pop(keep, None)
        await self.storage.set_message(keep[0], keep[1], kept.chat_id, new_id, digest)
        if message_id is not None:  # renewed: the old one goes
            with contextlib.suppress(BadRequest, _Unreachable):
                await self._attempt(
                    lane, "deleteEphemeralMessage", ephemeral.delete_params(to, message_id)
                )
        return True

    def _remember(self, keep: KeepId, chat_id: int, message_id: int, digest: str) -> None:
        """What an edited message shows now, written to storage within ``DIGEST_SECONDS`` with
        the others edited meanwhile (one transaction), not once per edit: the digests only
        spare a restart's edits, so a kill loses at most a second's worth of that saving
        (the edit then finds the message unchanged), while a new message's id is written at
        once (a lost id would post the message twice)."""
        self._digests[keep] = (chat_id, message_id, digest)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_later(), name="outbox:digests")

    async def _flush_later(self) -> None:
        await asyncio.sleep(DIGEST_SECONDS)
        await self._flush()

    async def _flush(self) -> None:
        pending, self._digests = self._digests, {}
        if not pending:
            return
        try:
            await self.storage.set_messages(
                [
                    (keep[0], keep[1], chat_id, message_id, digest)
                    for keep, (chat_id, message_id, digest) in pending.items()
                ]
            )
        except Exception:  # storage failing: a restart edits these again, nothing else is lost
            log.warning("outbox: %d message digests not saved", len(pending), exc_info=True)

    async def _call_post(self, lane: _Lane, content: Rendered, thread_id: int | None) -> int | None:
        """Send ``content`` as a new message; its id (None: Telegram's answer had none). One
        with a rich version goes as a rich message unless Telegram refuses it: then as text
        (and, if Telegram does not know the method, every later one too)."""
        if content.rich and not self.rich_off:
            try:
                return await self._attempt(
                    lane, "sendRichMessage", wire.rich_params(content, thread_id)
                )
            except EndPointNotFound:
                log.warning("outbox: this Bot API has no rich messages; sending text instead")
                self.rich_off = True
            except BadRequest as exc:
                log.info("outbox: a rich message to %s was refused (%s)", lane.chat_id, exc)
        params: dict[str, object] = {
            "text": content.text,
            "parse_mode": ParseMode.HTML.value,
            "link_preview_options": {"is_disabled": True},
        }
        if content.keys:
            params["reply_markup"] = wire.markup(content)
        if thread_id is not None:
            params["message_thread_id"] = thread_id
        return await self._attempt(lane, "sendMessage", params)

    async def _attempt(self, lane: _Lane, method: str, params: dict[str, object]) -> int | None:
        """One Bot API call; the message id it returns, if any."""
        result = await self._raw(lane, method, params)
        if isinstance(result, dict) and "message_id" in result:
            return int(result["message_id"])
        return None

    async def _raw(self, lane: _Lane, method: str, params: dict[str, object]) -> object:
        """One Bot API call, its result as it came; a migrated group is followed, a network
        hiccup retried twice, and then ``_Unreachable`` (the queue tries later).

        The raw result is read as JSON: turning every returned message (with its keyboard)
        into PTB objects that nobody reads was the largest cost of a busy bot.
        """
        for attempt in range(3):
            if lane.paid:
                lane.paid = False
            else:
                await self.gate.acquire(lane.priority)
            self._count(lane)
            try:
                result: object = await self.bot.do_api_request(
                    method, api_kwargs={**params, "chat_id": lane.chat_id}
                )
                return result
            except ChatMigrated as exc:
                old, new = lane.chat_id, exc.new_chat_id
                if self.on_migrated is not None:
                    await self.on_migrated(old, new)
                self.migrate(old, new)
            except BadRequest:
                raise
            except (TimedOut, NetworkError) as exc:
                log.warning("outbox: %s to %s failed (%s), retrying", method, lane.chat_id, exc)
                await asyncio.sleep(0.5 * (attempt + 1))
        raise _Unreachable(method)

    def migrate(self, old: int, new: int) -> None:
        """Point the lane and every kept message of a migrated group at its new id."""
        for ephemeral_lane in (False, True):
            lane = self._lanes.pop((old, ephemeral_lane), None)
            if lane is not None:
                lane.chat_id = new
                self._lanes[lane.id] = lane
        for kept in self._keeps.values():
            if kept.chat_id == old:
                kept.chat_id = new
                kept.message_id, kept.sent = None, None  # ids do not carry over
                kept.looked_up = True

    async def _known_id(self, keep: KeepId, kept: _Kept) -> int | None:
        """The id of a kept message: from memory, or asked of storage once (after a restart, or
        when the outbox had forgotten it)."""
        if kept.message_id is None and not kept.looked_up:
            kept.looked_up = True
            stored = self._digests.get(keep) or await self.storage.message(keep[0], keep[1])
            if stored is not None and stored[0] == kept.chat_id and kept.message_id is None:
                kept.message_id, kept.stored_digest = stored[1], stored[2]
        return kept.message_id

    def _count(self, lane: _Lane) -> None:
        if lane.budget is not None:
            self.stats.ephemeral_calls += 1
            lane.budget.spend()  # every call, a renewed screen's deletion too
        elif lane.chat_id > 0:
            self.stats.private_calls += 1
        else:
            self.stats.group_calls += 1


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


__all__ = ["TABLE", "URGENT", "WAITING", "Gate", "Outbox", "Stats"]
