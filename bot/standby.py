"""One active bot per PostgreSQL database, any number waiting: the active one holds the
database's lease (``storage.postgres.lease``); this is the waiting, the renewing and the leaving.

A second process started on the same database waits (a standby): it has checked its settings
and the database, but neither polls, nor serves the webhook, nor sends. When the active process
dies, even by SIGKILL, its connection closes and the standby takes the lease within
``interval`` seconds; when it stops renewing (frozen, hung) the lease expires and the standby
takes it a few seconds later. Either way it restores every table and goes on. The active process
renews every ``interval``, on a thread of its own (``bot.renewal``: a busy loop keeps it, a
stuck one loses it): one that cannot (its lease taken, its connection lost) may no longer
be the only one, so it leaves at once rather than send beside its successor; until then its
writes are fenced by the lease's number and its calls to Telegram by ``valid``.
"""

from __future__ import annotations

import asyncio
import logging

from bot.renewal import LOST_LEASE_EXIT as LOST_LEASE_EXIT  # where the tests and tools look
from bot.renewal import Renewal, renewing
from storage.interface import NotOurDatabase, StorageError
from storage.postgres.lease import ActiveLock

log = logging.getLogger(__name__)


class Lease:
    """The active process's lock, and the watch that leaves when it is lost."""

    def __init__(self, url: str, interval: float) -> None:
        # The lease lasts a few renewals: a frozen process is replaced within seconds, a
        # slow renewal (a busy database) does not lose it.
        self.lock = ActiveLock(url, ttl=max(4 * interval, 2.0))
        self.interval = interval
        self.waiting = False
        self.held = asyncio.Event()  # set once this process holds the lease
        self._renewal: Renewal | None = None  # on a thread of its own (bot.renewal)

    async def acquire(self) -> None:
        """Wait until this process is the active one."""
        told = False
        self.waiting = True
        try:
            while True:
                try:
                    if await self.lock.try_take():
                        break
                except NotOurDatabase:
                    raise  # not to be waited out
                except StorageError as exc:
                    log.warning("standby: %s", exc)
                if not told:
                    log.info("standby: another bot process is active; waiting to take over")
                    told = True
                await asyncio.sleep(self.interval)
        finally:
            self.waiting = False
        if told:
            log.warning("standby: the active bot process is gone; taking over")
        self.held.set()
        self._renewal = renewing(
            self.lock, self.interval, "lost the active lock; leaving so the standby takes over"
        )
        self._renewal.start()

    def may_call(self) -> bool:
        """Whether this process may call Telegram now: not yet active (a standby only asks
        getMe, at start), or active with its lease renewed in time. A process that held the
        lease and may have lost it (frozen past it, or let it go) calls nothing."""
        return not self.lock.taken or self.lock.valid()

    @property
    def fence(self) -> tuple[str, int] | None:
        return self.lock.fence

    async def release(self) -> None:
        if self._renewal is not None:
            await asyncio.to_thread(self._renewal.stop)
            self._renewal = None
        await self.lock.close()
