"""What makes one bot process the active one on a PostgreSQL database: a lease with a fencing
number.

- The lease is one row (``bot_lease``): who holds it, its fencing number (``epoch``, one more at
  every taking), the server process of the holder's connection, and until when (the server's
  clock). The active process renews it every second or so; a standby takes it when it has
  expired, so a process that stops renewing (frozen by SIGSTOP, a paused VM, a hung loop) is
  replaced within seconds.
- When the holder's connection is gone (the process died, even by SIGKILL: PostgreSQL closes
  its session at once) the standby takes the lease without waiting for it to expire.
- Fencing: every write transaction of the holder checks, inside the transaction and with a
  key-share lock on the row, that the lease is still its own and unexpired (``FENCE``), so a
  process that wakes after losing it writes nothing; taking the lease (``FOR UPDATE``) waits
  for those transactions to end, while the holder's renewal (an update of no key) never waits
  for its own writes, however many a busy process has in flight. Sending is fenced by the
  process itself (``valid``, on its own clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Any

import asyncpg

from storage.interface import LeaseLost, NotOurDatabase, StorageError
from storage.postgres import safe_url
from storage.postgres.schema import LEASE_TABLE, gone

# The lease row ``l`` is free to take: its holder is gone. The taking and the ending of a free
# lease's leftover sessions read this one definition.
FREE = gone("l")
TAKE_WAIT_MS = 1000  # how long a taking waits for the row's lock before it looks why


async def end_writers(conn: Any, table: str, gone_rows: str) -> None:
    """End the sessions that hold rows of ``table`` (``bot_lease``, ``bot_member``) while a
    row of it is gone (``gone_rows``: an alias and a WHERE clause): a gone holder may commit
    nothing any more, and its frozen or unreaped writes must not keep the others out."""
    with contextlib.suppress(asyncpg.PostgresError):
        await conn.execute(
            "SELECT pg_terminate_backend(k.pid) FROM pg_locks k "
            f"WHERE k.relation = '{table}'::regclass AND k.granted "
            "AND k.pid <> pg_backend_pid() "
            f"AND EXISTS (SELECT 1 FROM {table} {gone_rows})"
        )


class ActiveLock:
    def __init__(self, url: str, ttl: float = 4.0) -> None:
        self.url = url
        self.ttl = ttl
        self.holder = secrets.token_hex(8)  # this process, in the lease row
        self.epoch: int | None = None  # the fencing number while this process holds the lease
        self._valid_until = 0.0  # monotonic: no sending after this without a renewal
        self.taken = False  # this process has held the lease (before, it only waits)
        self._conn: Any = None

    @property
    def fence(self) -> tuple[str, int] | None:
        """(holder, epoch) for the storage's write fence, once taken."""
        return None if self.epoch is None else (self.holder, self.epoch)

    def valid(self) -> bool:
        """Whether this process may still send, by its own clock: a renewal came less than the
        lease's time ago (a process frozen past it has to renew first, and cannot if taken)."""
        return self.epoch is not None and time.monotonic() < self._valid_until

    async def _connect(self) -> Any:
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(self.url, timeout=10)
            # Not in a stranger's database: storage refuses it whole, the lease adds nothing.
            stranger = await self._conn.fetchval(
                "SELECT to_regclass('bot_meta') IS NULL AND EXISTS (SELECT 1 FROM pg_tables "
                "WHERE schemaname = current_schema() AND tablename != 'bot_lease')"
            )
            if stranger:
                raise NotOurDatabase(f"{safe_url(self.url)} holds another program's tables")
            await self._conn.execute(LEASE_TABLE)
        return self._conn

    async def try_take(self) -> bool:
        """Take the lease if it is free: expired (its holder stopped renewing) or its holder's
        connection gone (it died). StorageError if the database cannot be reached."""
        asked = time.monotonic()
        try:
            conn = await self._connect()
            # Read first: a lease that is not free is left alone, unlocked (a lock asked for
            # would queue the holder's writes behind it every time a standby looks).
            held = await conn.fetchval(f"SELECT 1 FROM bot_lease l WHERE id = 1 AND NOT {FREE}")
            if held:
                return False
            async with conn.transaction():
                # A taking waits for the holder's write transactions (their key-share locks
                # against this one), never longer than this.
                await conn.execute(f"SET LOCAL lock_timeout = '{TAKE_WAIT_MS}ms'")
                await conn.execute("SELECT 1 FROM bot_lease WHERE id = 1 FOR UPDATE")
                epoch = await conn.fetchval(
                    "INSERT INTO bot_lease AS l (id, holder, epoch, backend, expires_at) "
                    "VALUES (1, $1, 1, pg_backend_pid(), now() + make_interval(secs => $2)) "
                    "ON CONFLICT (id) DO UPDATE SET holder = $1, epoch = l.epoch + 1, "
                    "backend = pg_backend_pid(), expires_at = now() + make_interval(secs => $2) "
                    f"WHERE {FREE} RETURNING epoch",
                    self.holder,
                    self.ttl,
                )
        except asyncpg.LockNotAvailableError:
            await self._end_expired_holders()
            return False
        except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
            await self.close()
            raise StorageError(f"cannot reach {safe_url(self.url)} ({exc})") from exc
        if epoch is None:
            return False
        self.epoch, self.taken = int(epoch), True
        self._valid_until = asked + self.ttl * 0.75
        return True

    async def _end_expired_holders(self) -> None:
        """The lease row is held by transactions of a holder whose lease has expired or whose
        process is gone (frozen inside a write, its session not idle so the server's idle
        timeout spares it; or killed, its sessions not yet reaped): they may no longer commit
        anything, so their sessions are ended, and the next taking goes through. Nothing
        happens while the lease is still its holder's."""
        await end_writers(self._conn, "bot_lease", f"l WHERE l.id = 1 AND {FREE}")

    async def renew(self, timeout: float, conn: Any = None) -> None:
        """Extend the lease (on ``conn``, a connection of the renewing thread's, or this
        lock's own); LeaseLost if it is not this process's any more."""
        asked = time.monotonic()
        renewed = await asyncio.wait_for(
            (conn or self._conn).fetchval(
                "UPDATE bot_lease SET expires_at = now() + make_interval(secs => $3) "
                "WHERE id = 1 AND holder = $1 AND epoch = $2 RETURNING epoch",
                self.holder,
                self.epoch,
                self.ttl,
            ),
            timeout,
        )
        if renewed is None:
            self._valid_until = 0.0
            raise LeaseLost("the lease was taken by another process")
        self._valid_until = asked + self.ttl * 0.75

    async def close(self) -> None:
        """Let the lease go (and the connection): a standby need not wait for it to expire."""
        if self._conn is not None:
            with contextlib.suppress(Exception):
                if self.epoch is not None:
                    await self._conn.execute(
                        "UPDATE bot_lease SET expires_at = now() "
                        "WHERE id = 1 AND holder = $1 AND epoch = $2",
                        self.holder,
                        self.epoch,
                    )
            with contextlib.suppress(Exception):
                await self._conn.close(timeout=5)
            self._conn = None
        self.epoch = None
        self._valid_until = 0.0
