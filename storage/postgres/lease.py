"""The lock that makes one bot process the active one on a PostgreSQL database: a session
advisory lock on a connection of its own, so it lives exactly as long as that connection (a
SIGKILLed process's connection closes and PostgreSQL drops the lock at once)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import asyncpg

from storage.interface import StorageError
from storage.postgres import safe_url
from storage.postgres.schema import ACTIVE_LOCK


class ActiveLock:
    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: Any = None

    async def try_take(self) -> bool:
        """Take the lock if it is free (connecting first if need be); StorageError if the
        database cannot be reached."""
        try:
            if self._conn is None or self._conn.is_closed():
                self._conn = await asyncpg.connect(self.url, timeout=10)
            return bool(await self._conn.fetchval("SELECT pg_try_advisory_lock($1)", ACTIVE_LOCK))
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            await self.close()
            raise StorageError(f"cannot reach {safe_url(self.url)} ({exc})") from exc

    async def check(self, timeout: float) -> None:
        """Raises if the connection that holds the lock is gone: the lock may be another's."""
        await asyncio.wait_for(self._conn.fetchval("SELECT 1"), timeout)

    async def close(self) -> None:
        """Let the lock go (with the connection)."""
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=5)
            self._conn = None
