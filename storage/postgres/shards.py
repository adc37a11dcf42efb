"""What lets several bot processes be active on one PostgreSQL database at once: the chats are
split into shards, each shard held by one live process, and updates handed on to the holder.

- **Members.** Each active process is a row of ``bot_member``: its name, the server process of
  its connection and until when it is alive (the server's clock), renewed every second or so.
  Every write transaction of a member checks, with a key-share lock on its row, that the row is
  still there and unexpired (``MEMBER_FENCE``): a process frozen past its time, or cut off,
  writes nothing once the others have seen it gone.
- **Shards.** ``bot_shard`` has one row per shard and its holder. A member whose row expired or
  whose connection is gone (killed, even by SIGKILL: PostgreSQL ends its session) is removed by
  the next live member's balance, which waits for its last write transactions to end, so a
  shard is never held by two writers; its shards are free and the live members take them.
  Each member holds its fair share (the shards over the live members, rounded up); one that
  holds more lets the extra go once it has finished with them (``release``).
- **The inbox.** One member polls Telegram (``storage.postgres.lease``'s lease says which). An
  update of a shard it does not hold is written to ``bot_inbox`` and announced with ``NOTIFY``;
  the shard's holder reads its shards' updates in order and deletes each once handled. An
  update in the inbox is durable: it is confirmed to Telegram, and whoever holds its shard next
  handles it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg

from storage.interface import LeaseLost, StorageError
from storage.postgres import safe_url
from storage.postgres.lease import end_writers
from storage.postgres.schema import SHARD_TABLES, gone

# A member row ``m`` that is gone: expired, or its connection ended.
GONE = gone("m")
CHANNEL = "bot_inbox"
REMOVE_WAIT_MS = 1000  # how long removing a gone member waits for its writes before it looks why


class ShardsDiffer(StorageError):
    """This process was started with another ``SHARDS`` than the ones running."""


def shard_of(tg_chat_id: int, shards: int) -> int:
    """The shard of a Telegram chat: a stable spread of ids (groups' are negative).

    >>> shard_of(-1001234567890, 64), shard_of(-300, 64), shard_of(42, 64)
    (10, 54, 46)
    """
    return (abs(tg_chat_id) * 0x9E3779B1 >> 7) % shards if shards > 1 else 0


class ShardLock:
    """This process's membership, its shards, and its side of the inbox."""

    def __init__(self, url: str, shards: int, ttl: float = 4.0) -> None:
        self.url = url
        self.shards = shards
        self.ttl = ttl
        self.holder = secrets.token_hex(8)
        self.joined = False
        self._valid_until = 0.0
        self._conn: Any = None  # membership and shards: the keeping task's alone
        self._listener: Any = None
        self._pool: Any = None  # the inbox: any task's

    @property
    def fence(self) -> tuple[str, int]:
        return (self.holder, 1)

    def valid(self) -> bool:
        """Whether this process may still write and send, by its own clock."""
        return self.joined and time.monotonic() < self._valid_until

    async def _connect(self) -> Any:
        if self._conn is None or self._conn.is_closed():
            try:
                self._conn = await asyncpg.connect(self.url, timeout=10)
                await self._conn.execute(SHARD_TABLES)
                await self._shape(self._conn)
            except ShardsDiffer:
                await self._conn.close()
                self._conn = None
                raise
            except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
                self._conn = None
                raise StorageError(f"cannot reach {safe_url(self.url)} ({exc})") from exc
        return self._conn

    async def _shape(self, conn: Any) -> None:
        """One row per shard. A database last served with another number of shards is
        reshaped, once none of its members is alive; while one is, this process is refused
        (two numbers of shards would put a group in two places)."""
        async with conn.transaction():
            await conn.execute("LOCK TABLE bot_shard IN EXCLUSIVE MODE")
            rows = await conn.fetchval("SELECT count(*) FROM bot_shard")
            if rows == self.shards:
                return
            alive = await conn.fetchval(f"SELECT count(*) FROM bot_member m WHERE NOT {GONE}")
            if rows and alive:
                raise ShardsDiffer(
                    f"SHARDS={self.shards}, but the bot processes running on this database "
                    f"use {rows}: give every process the same number"
                )
            await conn.execute("DELETE FROM bot_shard")
            await conn.execute(
                "INSERT INTO bot_shard (shard) SELECT generate_series(0, $1 - 1)", self.shards
            )
            # Updates handed on under the old numbers: their shards mean nothing now.
            await conn.execute("DELETE FROM bot_inbox WHERE shard >= $1", self.shards)

    async def join(self) -> None:
        """Become a member (alive for ``ttl`` seconds, until renewed)."""
        asked = time.monotonic()
        conn = await self._connect()
        await conn.execute(
            "INSERT INTO bot_member (holder, backend, expires_at) "
            "VALUES ($1, pg_backend_pid(), now() + make_interval(secs => $2))",
            self.holder,
            self.ttl,
        )
        self.joined = True
        self._valid_until = asked + self.ttl * 0.75
        self._pool = await asyncpg.create_pool(self.url, min_size=1, max_size=4, timeout=10)

    async def renew(self, timeout: float, conn: Any = None) -> None:
        """Stay alive (on ``conn``, a connection of the renewing thread's, or this lock's
        own); LeaseLost if the others have seen this process gone."""
        asked = time.monotonic()
        renewed = await asyncio.wait_for(
            (conn or self._conn).fetchval(
                "UPDATE bot_member SET expires_at = now() + make_interval(secs => $2) "
                "WHERE holder = $1 RETURNING 1",
                self.holder,
                self.ttl,
            ),
            timeout,
        )
        if renewed is None:
            self._valid_until = 0.0
            raise LeaseLost("this process was seen gone: its shards are another's")
        self._valid_until = asked + self.ttl * 0.75

    async def balance(self) -> tuple[list[int], list[int]]:
        """Remove gone members (their shards fall free), take free shards up to this member's
        fair share, and say which it took and which it holds beyond its share while another
        member holds less (to be let go with ``release`` once finished with)."""
        conn = await self._connect()
        try:
            async with conn.transaction():
                await conn.execute(f"SET LOCAL lock_timeout = '{REMOVE_WAIT_MS}ms'")
                await conn.execute(f"DELETE FROM bot_member m WHERE {GONE}")
        except asyncpg.LockNotAvailableError:
            await self._end_gone_writers()
            return [], []
        async with conn.transaction():
            await conn.execute(
                "UPDATE bot_shard SET holder = NULL WHERE holder IS NOT NULL "
                "AND holder NOT IN (SELECT holder FROM bot_member)"
            )
            rows = await conn.fetch("SELECT holder, count(*) AS n FROM bot_shard GROUP BY holder")
            members = await conn.fetchval("SELECT count(*) FROM bot_member") or 1
            held = {row["holder"]: int(row["n"]) for row in rows}
            fair = -(-self.shards // members)
            mine = held.get(self.holder, 0)
            taken: list[int] = []
            if mine < fair:
                taken = [
                    int(r["shard"])
                    for r in await conn.fetch(
                        "UPDATE bot_shard SET holder = $1 WHERE shard IN (SELECT shard FROM "
                        "bot_shard WHERE holder IS NULL ORDER BY shard LIMIT $2 "
                        "FOR UPDATE SKIP LOCKED) RETURNING shard",
                        self.holder,
                        fair - mine,
                    )
                ]
            extra: list[int] = []
            names = [r["holder"] for r in await conn.fetch("SELECT holder FROM bot_member")]
            short = any(held.get(name, 0) < self.shards // members for name in names)
            if mine > fair and short:
                extra = [
                    int(r["shard"])
                    for r in await conn.fetch(
                        "SELECT shard FROM bot_shard WHERE holder = $1 "
                        "ORDER BY shard DESC LIMIT $2",
                        self.holder,
                        mine - fair,
                    )
                ]
        return sorted(taken), sorted(extra)

    async def _end_gone_writers(self) -> None:
        """A gone member's transactions hold its row (frozen inside a write, or killed and not
        yet reaped): they may commit nothing any more, so their sessions are ended."""
        await end_writers(self._conn, "bot_member", f"m WHERE {GONE}")

    async def release(self, shards: Sequence[int]) -> None:
        """Let ``shards`` go: this process has finished with their tables."""
        await self._pool.execute(
            "UPDATE bot_shard SET holder = NULL WHERE holder = $1 AND shard = ANY($2::int[])",
            self.holder,
            list(shards),
        )

    # --- the inbox ----------------------------------------------------------------------------

    async def hand_on(self, items: Sequence[tuple[int, str]]) -> None:
        """Write updates (shard, JSON) for their shards' holders, and wake them."""
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.executemany("INSERT INTO bot_inbox (shard, body) VALUES ($1, $2)", items)
            await conn.execute(f"NOTIFY {CHANNEL}")

    async def listen(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` whenever updates are handed on (on a connection of its own)."""
        self._listener = await asyncpg.connect(self.url, timeout=10)
        await self._listener.add_listener(CHANNEL, lambda *_: wake())

    async def inbox(self, shards: Sequence[int], limit: int = 200) -> list[tuple[int, int, str]]:
        """The oldest updates of ``shards`` (held by this process): (id, shard, JSON)."""
        if not shards:
            return []
        rows = await self._pool.fetch(
            "SELECT id, shard, body FROM bot_inbox WHERE shard = ANY($1::int[]) "
            "ORDER BY id LIMIT $2",
            list(shards),
            limit,
        )
        return [(int(r["id"]), int(r["shard"]), str(r["body"])) for r in rows]

    async def handled(self, ids: Sequence[int]) -> None:
        await self._pool.execute("DELETE FROM bot_inbox WHERE id = ANY($1::bigint[])", list(ids))

    async def close(self) -> None:
        """Leave: the shards free for the others at once, no wait for this row to expire."""
        for conn in (self._listener, self._conn):
            if conn is None:
                continue
            with contextlib.suppress(Exception):
                if conn is self._conn and self.joined:
                    await conn.execute("DELETE FROM bot_member WHERE holder = $1", self.holder)
                    await conn.execute(
                        "UPDATE bot_shard SET holder = NULL WHERE holder = $1", self.holder
                    )
            with contextlib.suppress(Exception):
                await conn.close(timeout=5)
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pool.close(), 5)
        self._conn = self._listener = self._pool = None
        self.joined = False
        self._valid_until = 0.0
