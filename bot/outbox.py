"""The outbox: the only code that sends table content to Telegram.

Per kept message it holds only the latest wanted content; per chat it sends in order, at most
one call per ``interval`` (a few seconds in groups, about one a second in private chats), skips
an edit that changes nothing, and after ``RetryAfter`` sends the latest content, never a backlog.
It needs no persistence: after a restart the bot re-renders every table and the outbox brings
Telegram up to date, editing the messages whose ids storage kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import warnings
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta

from telegram import Bot, InputFile
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.warnings import PTBDeprecationWarning, PTBUserWarning

from bot.views import Rendered
from storage.interface import Storage

log = logging.getLogger(__name__)

# The outbox calls these two methods through ``Bot.do_api_request`` on purpose (see _attempt).
warnings.filterwarnings(
    "ignore",
    message=r"Please use 'Bot\.(sendMessage|editMessageText|sendPhoto|sendDocument)'",
    category=PTBUserWarning,
)

KeepId = tuple[int, str]  # (table id, key)


@dataclass
class _Keep:
    keep: KeepId


@dataclass
class _Post:
    content: Rendered
    thread_id: int | None


@dataclass
class _File:
    method: str  # "sendPhoto" or "sendDocument"
    field: str  # "photo" or "document"
    file: InputFile
    caption: str
    thread_id: int | None


@dataclass
class _Lane:
    """One chat's queue: kept-message edits coalesce, posts keep their order."""

    chat_id: int
    interval: float
    queue: deque[_Keep | _Post | _File] = field(default_factory=deque)
    pending: set[KeepId] = field(default_factory=set)
    next_at: float = 0.0
    task: asyncio.Task[None] | None = None


@dataclass
class Stats:
    """Calls made, by kind of chat; read by tests and benchmarks."""

    group_calls: int = 0
    private_calls: int = 0
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
    ) -> None:
        self.bot = bot
        self.storage = storage
        self.group_interval = group_interval
        self.private_interval = private_interval
        self.on_blocked = on_blocked
        self.on_migrated = on_migrated
        self.stats = Stats()
        self._lanes: dict[int, _Lane] = {}
        self._wanted: dict[KeepId, tuple[int, int | None, Rendered]] = {}  # chat, thread, content
        self._sent: dict[KeepId, Rendered] = {}
        self._ids: dict[KeepId, int] = {}
        self._loaded: dict[int, asyncio.Future[None]] = {}
        self._forgotten: set[KeepId] = set()

    # --- what callers want --------------------------------------------------------------------

    def want(
        self, table_id: int, key: str, chat_id: int, thread_id: int | None, content: Rendered
    ) -> None:
        """Make the kept message ``key`` of the table show ``content`` (posted if it is new)."""
        keep = (table_id, key)
        self._wanted[keep] = (chat_id, thread_id, content)
        lane = self._lane(chat_id)
        if keep not in lane.pending:
            lane.pending.add(keep)
            lane.queue.append(_Keep(keep))
        self._kick(lane)

    def post(self, chat_id: int, thread_id: int | None, content: Rendered) -> None:
        """A new message (a deal's result, a notice), sent in order after what is queued."""
        lane = self._lane(chat_id)
        lane.queue.append(_Post(content, thread_id))
        self._kick(lane)

    def post_file(
        self,
        chat_id: int,
        thread_id: int | None,
        method: str,
        field: str,
        file: InputFile,
        caption: str = "",
    ) -> None:
        """A picture or a document, sent in order after what is queued for the chat."""
        lane = self._lane(chat_id)
        lane.queue.append(_File(method, field, file, caption, thread_id))
        self._kick(lane)

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait until everything queued has been sent (tests, shutdown)."""
        deadline = time.monotonic() + timeout
        while any(
            lane.queue or (lane.task and not lane.task.done()) for lane in self._lanes.values()
        ):
            if time.monotonic() > deadline:
                raise TimeoutError("outbox did not drain")
            await asyncio.sleep(0.002)

    async def close(self) -> None:
        for lane in self._lanes.values():
            if lane.task is not None:
                lane.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await lane.task

    def forget(self, table_id: int, key: str) -> None:
        """Post the kept message anew next time instead of editing it (it scrolled away)."""
        self._ids.pop((table_id, key), None)
        self._sent.pop((table_id, key), None)
        self._forgotten.add((table_id, key))

    # --- sending ------------------------------------------------------------------------------

    def _lane(self, chat_id: int) -> _Lane:
        lane = self._lanes.get(chat_id)
        if lane is None:
            interval = self.private_interval if chat_id > 0 else self.group_interval
            lane = self._lanes[chat_id] = _Lane(chat_id, interval)
        return lane

    def _kick(self, lane: _Lane) -> None:
        if lane.task is None or lane.task.done():
            lane.task = asyncio.create_task(self._run(lane), name=f"outbox:{lane.chat_id}")

    async def _run(self, lane: _Lane) -> None:
        while lane.queue:
            op = lane.queue[0]
            wait = lane.next_at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                called = await self._send(lane, op)
            except RetryAfter as exc:
                self.stats.retry_after += 1
                seconds = _seconds(exc)
                lane.next_at = time.monotonic() + seconds
                continue  # the same op again, with whatever content is latest by then
            except Forbidden:
                # Blocked by the user (or removed from the group): drop what was queued for this
                # chat; it is re-rendered in full when they come back.
                for item in lane.queue:
                    if isinstance(item, _Keep):
                        self._sent.pop(item.keep, None)
                lane.queue.clear()
                lane.pending.clear()
                if lane.chat_id > 0 and self.on_blocked is not None:
                    await self.on_blocked(lane.chat_id)
                continue
            except Exception:  # a bug or an outage must not kill the lane; the error is logged
                log.exception("outbox: giving up on one message to chat %s", lane.chat_id)
                called = True
            lane.queue.popleft()
            if called:
                lane.next_at = time.monotonic() + lane.interval

    async def _send(self, lane: _Lane, op: _Keep | _Post | _File) -> bool:
        """Make one call for ``op``; False if none was needed."""
        if isinstance(op, _Post):
            await self._call_post(lane, op.content, op.thread_id)
            return True
        if isinstance(op, _File):
            params: dict[str, object] = {op.field: op.file, "caption": op.caption}
            if op.thread_id is not None:
                params["message_thread_id"] = op.thread_id
            await self._attempt(lane, op.method, params)
            return True
        # From here the content is read: a want() while this call is in flight must queue a
        # pass of its own, or its newer content would never be sent (the key is not pending
        # any more once it is read). That pass finds nothing to do if the content is the same.
        lane.pending.discard(op.keep)
        chat_id, thread_id, content = self._wanted[op.keep]
        if chat_id != lane.chat_id:
            return False  # the message now belongs to another chat (a substitute took the seat)
        if self._sent.get(op.keep) == content:
            self.stats.skipped += 1
            return False
        message_id = await self._known_id(op.keep)
        if message_id is not None:
            try:
                await self._attempt(
                    lane,
                    "editMessageText",
                    _edit_params(message_id, content),
                )
                self._sent[op.keep] = content
                return True
            except BadRequest as exc:
                text = str(exc).lower()
                if "not modified" in text:
                    self._sent[op.keep] = content
                    return True
                if "not found" not in text and "can't be edited" not in text:
                    raise
                # the message is gone: post it anew below
        message_id = await self._call_post(lane, content, thread_id)
        if message_id is not None:
            self._ids[op.keep] = message_id
            self._sent[op.keep] = content
            self._forgotten.discard(op.keep)
            await self.storage.set_message(op.keep[0], op.keep[1], chat_id, message_id)
        return True

    async def _call_post(self, lane: _Lane, content: Rendered, thread_id: int | None) -> int | None:
        """Send ``content`` as a new message; its id, or None if the call could not be made."""
        params: dict[str, object] = {
            "text": content.text,
            "parse_mode": ParseMode.HTML.value,
            "link_preview_options": {"is_disabled": True},
        }
        if content.keys:
            params["reply_markup"] = _markup(content)
        if thread_id is not None:
            params["message_thread_id"] = thread_id
        return await self._attempt(lane, "sendMessage", params)

    async def _attempt(self, lane: _Lane, method: str, params: dict[str, object]) -> int | None:
        """One Bot API call (the message id it returns, if any); a migrated group is followed,
        a network hiccup retried twice.

        The raw result is read as JSON: turning every returned message (with its keyboard)
        into PTB objects that nobody reads was the largest cost of a busy bot.
        """
        for attempt in range(3):
            self._count(lane.chat_id)
            try:
                result = await self.bot.do_api_request(
                    method, api_kwargs={**params, "chat_id": lane.chat_id}
                )
                if isinstance(result, dict) and "message_id" in result:
                    return int(result["message_id"])
                return None
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
        return None

    def migrate(self, old: int, new: int) -> None:
        """Point the lane and every kept message of a migrated group at its new id."""
        lane = self._lanes.pop(old, None)
        if lane is not None:
            lane.chat_id = new
            self._lanes[new] = lane
        for keep, (chat_id, thread_id, content) in list(self._wanted.items()):
            if chat_id == old:
                self._wanted[keep] = (new, thread_id, content)
                self._ids.pop(keep, None)  # ids do not carry over to the supergroup
                self._sent.pop(keep, None)

    async def _known_id(self, keep: KeepId) -> int | None:
        """The id of a kept message, from memory or (once per table, shared by every lane that
        asks meanwhile) from storage."""
        table_id = keep[0]
        loading = self._loaded.get(table_id)
        if loading is None:
            loading = self._loaded[table_id] = asyncio.ensure_future(self._load_ids(table_id))
        try:
            await asyncio.shield(loading)
        except Exception:
            self._loaded.pop(table_id, None)  # try storage again next time
            raise
        return self._ids.get(keep)

    async def _load_ids(self, table_id: int) -> None:
        for key, (_chat, message_id) in (await self.storage.messages(table_id)).items():
            if (table_id, key) not in self._forgotten:
                self._ids.setdefault((table_id, key), message_id)

    def _count(self, chat_id: int) -> None:
        if chat_id > 0:
            self.stats.private_calls += 1
        else:
            self.stats.group_calls += 1


def _edit_params(message_id: int, content: Rendered) -> dict[str, object]:
    params: dict[str, object] = {
        "message_id": message_id,
        "text": content.text,
        "parse_mode": ParseMode.HTML.value,
    }
    if content.keys:  # without reply_markup, an edit removes the buttons
        params["reply_markup"] = _markup(content)
    return params


def _markup(content: Rendered) -> dict[str, object]:
    """The inline keyboard as Bot API JSON (an empty keyboard removes the buttons)."""
    return {
        "inline_keyboard": [
            [
                {"text": key.label, "url": key.url}
                if key.url
                else {"text": key.label, "callback_data": key.data}
                for key in row
            ]
            for row in content.keys
        ]
    }


def _busy(lane: _Lane) -> bool:
    return bool(lane.queue) or (lane.task is not None and not lane.task.done())


def _seconds(exc: RetryAfter) -> float:
    """``retry_after`` in seconds, whether PTB gives an int or (PTB_TIMEDELTA) a timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        delay = exc.retry_after
    return delay.total_seconds() if isinstance(delay, timedelta) else float(delay)
