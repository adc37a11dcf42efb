"""Several active bot processes on one PostgreSQL database (``SHARDS``): each serves the groups of
the shards it holds (``storage.postgres.shards``), so a group's tables, its pacing and its timers
stay in one process.

- One process polls Telegram (the lease of ``bot.standby``; the others wait for it in the
  background, and one takes over within seconds if it dies). Each update is routed here: a
  group's by its chat, a private chat's button or seat link by the group of the table it names,
  anything else (``/start``, ``/stats`` in private) wherever it arrives. An update of a shard
  this process does not hold is written to the database's inbox and confirmed to Telegram; its
  shard's holder handles it from there, in order.
- Every ``interval`` the process renews its membership and balances the shards: it takes free
  ones up to its share (restoring their tables, timers and robots), and lets go of those beyond
  its share once nothing of theirs is being handled or sent (its tables, timers and messages
  forgotten here; the taker restores them from storage and redraws them).
- A process that cannot renew (on a thread of its own, ``bot.renewal``) may no longer be the only
  one serving its groups: it leaves at once, as the single active process does
  (``LOST_LEASE_EXIT``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from telegram import Update

from bot.callback_data import MONEY_ACTS, BadCallbackData, Button
from bot.deeplinks import parse_sit
from bot.renewal import Renewal, renewing
from bot.views.misc import GROUP_SETTINGS
from storage.interface import NotFound, Storage
from storage.postgres.shards import ShardLock, shard_of

log = logging.getLogger(__name__)

QUIET_S = 10.0  # what letting a shard go waits, at most, for its work in hand and its sends
CACHE = 20_000  # tables and tokens whose group the router remembers


class Sharding:
    """This process's part among several active ones."""

    def __init__(self, url: str, shards: int, interval: float) -> None:
        self.lock = ShardLock(url, shards, ttl=max(4 * interval, 2.0))
        self.shards = shards
        self.interval = interval
        self.storage: Storage | None = None
        self.serving: set[int] = set()  # shards held and not being let go
        self._busy: dict[int, int] = {}  # shard -> updates being handled here
        self._groups: OrderedDict[tuple[str, object], int] = OrderedDict()  # -> group's tg id
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._renewal: Renewal | None = None
        # Set by the app: tables of newly held shards restored and shown; those let go of
        # forgotten; an update from the inbox handled.
        self.on_taken: Callable[[Callable[[int], bool]], Awaitable[None]] | None = None
        self.on_letting_go: Callable[[Callable[[int], bool]], Awaitable[None]] | None = None
        self.handle: Callable[[Update], Awaitable[None]] | None = None
        self.decode: Callable[[str], Update] | None = None
        self.joined = False
        self.handed_on = 0  # updates written to the inbox (benchmarks)
        self.from_inbox = 0

    # --- whose is it ------------------------------------------------------------------------

    def owns(self, tg_chat_id: int) -> bool:
        return shard_of(tg_chat_id, self.shards) in self.serving

    def _among(self, shards: set[int]) -> Callable[[int], bool]:
        """Whether a group (by Telegram id) is in one of ``shards``."""
        return lambda group: shard_of(group, self.shards) in shards

    def may_call(self) -> bool:
        """Calls to Telegram only while this process's membership is renewed in time (before
        it joins: only the start's getMe)."""
        return not self.joined or self.lock.valid()

    async def shard(self, update: Update) -> int | None:
        """The shard whose holder handles ``update``; None: any process may."""
        chat = update.effective_chat
        if chat is None:
            return None
        if chat.type != "private":
            return shard_of(chat.id, self.shards)
        group = await self._group_named(update)
        return None if group is None else shard_of(group, self.shards)

    async def _group_named(self, update: Update) -> int | None:
        """The group of the table a private chat's update is about (a button under a hand, a
        seat link), by storage, remembered."""
        storage = self.storage
        assert storage is not None
        query = update.callback_query
        key: tuple[str, object] | None = None
        if query is not None:
            try:
                button = Button.decode(query.data)
            except BadCallbackData:
                return None
            if button.act in MONEY_ACTS or button.table_id == GROUP_SETTINGS:
                return None  # the group's money, the group's settings: storage alone
            key = ("table", button.table_id)
        elif update.message is not None and update.message.text:
            words = update.message.text.split()
            link = parse_sit(words[1]) if len(words) == 2 and words[0] == "/start" else None
            if link is None:
                return None
            key = ("token", link.token)
        if key is None:
            return None
        known = self._groups.get(key)
        if known is not None:
            self._groups.move_to_end(key)
            return known
        if key[0] == "table":
            try:
                table = await storage.get_table(int(str(key[1])))
            except NotFound:  # a forged button: wherever it arrived says so
                return None
        else:
            found = await storage.table_by_token(str(key[1]))
            if found is None:
                return None
            table = found
        group = (await storage.get_chat(table.chat_id)).tg_chat_id
        self._groups[key] = group
        while len(self._groups) > CACHE:
            self._groups.popitem(last=False)
        return group

    async def route(self, update: Update) -> int | None:
        """Handle here (the shard to count it under, or -1 for any), or hand on (None)."""
        shard = await self.shard(update)
        if shard is None:
            return -1
        if shard in self.serving:
            self._busy[shard] = self._busy.get(shard, 0) + 1
            return shard
        await self.lock.hand_on([(shard, update.to_json())])
        self.handed_on += 1
        return None

    def done(self, shard: int) -> None:
        if shard >= 0:
            left = self._busy.get(shard, 1) - 1
            if left:
                self._busy[shard] = left
            else:
                self._busy.pop(shard, None)

    # --- life -------------------------------------------------------------------------------

    async def join(self, storage: Storage) -> None:
        """A member, with the shards free for it now (its tables are restored by the app)."""
        self.storage = storage
        await self.lock.join()
        self.joined = True
        # Renewed from now on: restoring the tables may take longer than the membership lasts.
        self._renewal = renewing(
            self.lock, self.interval, "lost the shards; leaving so the others take them"
        )
        self._renewal.start()
        taken, _ = await self.lock.balance()
        self.serving.update(taken)
        log.info(
            "shards: member %s serving %d of %d", self.lock.holder, len(self.serving), self.shards
        )

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._keep(), name="shards-keep"),
            loop.create_task(self._read_inbox(), name="shards-inbox"),
        ]

    async def _keep(self) -> None:
        """Balance every ``interval`` when no change of hands is under way (restoring or
        letting go of tables takes a while). Renewing is a thread's (``bot.renewal``): a busy
        loop keeps the membership, and a renewal that fails leaves the process."""
        moving: asyncio.Task[None] | None = None
        while True:
            await asyncio.sleep(self.interval)
            if moving is not None and not moving.done():
                continue
            try:
                taken, extra = await self.lock.balance()
            except Exception as exc:
                log.warning("shards: cannot balance (%s); trying again", exc)
                continue
            if taken or extra:
                moving = asyncio.create_task(self._move(taken, extra), name="shards-move")

    async def _move(self, taken: Sequence[int], extra: Sequence[int]) -> None:
        try:
            if taken:
                fresh = set(taken)
                self.serving |= fresh
                log.info("shards: took %d, serving %d", len(fresh), len(self.serving))
                if self.on_taken is not None:
                    await self.on_taken(self._among(fresh))
                self._wake.set()
            if extra:
                await self._let_go(extra)
        except Exception:
            log.exception("shards: a change of hands failed")

    async def _let_go(self, extra: Sequence[int]) -> None:
        leaving = set(extra)
        self.serving -= leaving
        await quiet(lambda: any(self._busy.get(s) for s in leaving))
        if self.on_letting_go is not None:
            await self.on_letting_go(self._among(leaving))
        await self.lock.release(sorted(leaving))
        log.info("shards: let %d go, serving %d", len(leaving), len(self.serving))

    async def _read_inbox(self) -> None:
        """Handle the updates handed on to this process's shards, each shard's in order."""
        await self.lock.listen(self._wake.set)
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()
            try:
                rows = await self.lock.inbox(sorted(self.serving))
            except Exception:
                log.exception("shards: cannot read the inbox")
                continue
            if not rows:
                continue
            chains: dict[int, list[tuple[int, str]]] = {}
            for row_id, shard, body in rows:
                chains.setdefault(shard, []).append((row_id, body))
            await asyncio.gather(*(self._handle(chain) for chain in chains.values()))
            self._wake.set()  # there may be more

    async def _handle(self, chain: list[tuple[int, str]]) -> None:
        assert self.handle is not None and self.decode is not None
        for row_id, body in chain:
            try:
                await self.handle(self.decode(body))
            except Exception:
                log.exception("shards: an update handed on failed")
            await self.lock.handled([row_id])
            self.from_inbox += 1

    async def close(self) -> None:
        log.info(
            "shards: handed on %d updates, handled %d from the inbox",
            self.handed_on,
            self.from_inbox,
        )
        if self._renewal is not None:
            await asyncio.to_thread(self._renewal.stop)
            self._renewal = None
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        await self.lock.close()


async def quiet(busy: Callable[[], bool], seconds: float = QUIET_S) -> bool:
    """Until ``busy()`` is false, for at most ``seconds``; whether it became so (letting a
    group go waits for its work in hand, then for its sends)."""
    deadline = time.monotonic() + seconds
    while busy():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def decoder(bot: Any) -> Callable[[str], Update]:
    def decode(body: str) -> Update:
        update = Update.de_json(json.loads(body), bot)
        assert update is not None
        return update

    return decode
