"""One active bot per PostgreSQL database, any number waiting: the active one holds the
database's active lock (``storage.postgres.lease``); this is the waiting and the leaving.

A second process started on the same database waits (a standby): it has checked its settings
and the database, but neither polls, nor serves the webhook, nor sends. When the active process
dies, even by SIGKILL, its connection closes and PostgreSQL drops the lock at once; the standby
takes it within ``interval`` seconds, restores every table and goes on. The active process
checks its connection as often: a process that lost it (a network split) may no longer be the
only one, so it leaves at once rather than send beside its successor.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os

from storage.interface import StorageError
from storage.postgres.lease import ActiveLock

log = logging.getLogger(__name__)

LOST_LEASE_EXIT = 75  # EX_TEMPFAIL: a supervisor restarts it, and it waits as a standby


class Lease:
    """The active process's lock, and the watch that leaves when it is lost."""

    def __init__(self, url: str, interval: float) -> None:
        self.lock = ActiveLock(url)
        self.interval = interval
        self.waiting = False
        self._watch: asyncio.Task[None] | None = None

    async def acquire(self) -> None:
        """Wait until this process is the active one."""
        told = False
        self.waiting = True
        try:
            while True:
                try:
                    if await self.lock.try_take():
                        break
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
        self._watch = asyncio.create_task(self._keep(), name="lease-watch")

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.lock.check(self.interval * 5 + 5)
            except Exception as exc:  # any failure: the lock may be someone else's now
                log.critical("lost the active lock (%s); leaving so the standby takes over", exc)
                logging.shutdown()
                os._exit(LOST_LEASE_EXIT)

    async def release(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        await self.lock.close()
