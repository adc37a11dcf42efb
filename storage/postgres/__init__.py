"""The hosted backend: PostgreSQL through asyncpg's pool, for a bot with a standby process.

The repositories are SQLite's (``storage.sql``); here is what differs: a pool of connections
instead of one, ``$1`` parameters, errors by SQLSTATE, row locks where SQLite's single writer
made them needless, and a schema version in a table instead of ``PRAGMA user_version``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any, Self

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from storage.interface import (
    ConflictError,
    DatabaseTooNew,
    Event,
    LeaseLost,
    NotOurDatabase,
    StorageError,
)
from storage.migrations import LATEST
from storage.postgres.schema import (
    APPLICATION,
    COORDINATION,
    FENCE,
    META,
    MIGRATION_LOCK,
    MIGRATIONS,
)
from storage.sql import MAX_PAYMENT, Repositories
from storage.sql.base import Duplicate, Row, first_int, now, select_all

__all__ = ["MAX_PAYMENT", "PostgresStorage", "read_schema", "safe_url", "schema_of"]


@functools.lru_cache(maxsize=1024)
def _numbered(sql: str) -> str:
    """The repositories' ``?`` as PostgreSQL's ``$1, $2, …`` (no literal in them holds a ``?``)."""
    parts = sql.split("?")
    out = [parts[0]]
    for i, part in enumerate(parts[1:], start=1):
        out.append(f"${i}{part}")
    return "".join(out)


@contextlib.contextmanager
def _translated() -> Iterator[None]:
    """A taken unique key is the repositories' ``Duplicate``; any other refusal a
    StorageError naming it."""
    try:
        yield
    except asyncpg.UniqueViolationError as exc:
        raise Duplicate(str(exc)) from exc
    except asyncpg.PostgresError as exc:
        raise StorageError(f"{type(exc).__name__}: {exc}") from exc


async def schema_of(conn: asyncpg.Connection | PoolConnectionProxy | asyncpg.Pool) -> int:
    """The schema version a bot database is at (0 for one not migrated yet)."""
    value = await conn.fetchval("SELECT value FROM bot_meta WHERE key = 'schema_version'")
    return int(value or 0)


async def read_schema(url: str) -> int:
    """The schema version, on a connection of its own (no pool, no migration)."""
    try:
        conn = await asyncpg.connect(url, timeout=10)
        try:
            return await schema_of(conn)
        finally:
            await conn.close()
    except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
        raise StorageError(str(exc)) from exc


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    head, sep, tail = url.partition("@")
    if not sep or "://" not in head:
        return url
    scheme, _, credentials = head.partition("://")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{tail}" if ":" in credentials else url


# A write transaction holds a key-share lock on the lease row (``FENCE``) until it ends, and a
# standby's taking waits for it. A process frozen inside one (SIGSTOP, a paused VM) would hold
# it, and keep the standby out, for as long as it stays frozen: the server ends a transaction
# left idle this long (ours take milliseconds), and the standby takes over.
IDLE_WRITE_MS = 5_000


async def _keep_session(conn: asyncpg.Connection) -> None:
    """What a connection back in the pool needs: nothing but an unfinished transaction ended.
    asyncpg's own reset runs four statements each time (RESET ALL, advisory unlocks, CLOSE
    ALL, UNLISTEN *: 9 a press at 100 tables, beside 6 of the bot's own); the storage changes
    no session state (``SET LOCAL``, transaction-scoped advisory locks, no LISTEN here)."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


class PgTx:
    """One connection inside its transaction, speaking the repositories' ``Tx``."""

    def __init__(self, conn: asyncpg.Connection | PoolConnectionProxy) -> None:
        self.conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        with _translated():
            await self.conn.execute(_numbered(sql), *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with _translated():
            await self.conn.executemany(_numbered(sql), [tuple(r) for r in rows])

    async def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        with _translated():
            row: Row | None = await self.conn.fetchrow(_numbered(sql), *args)
            return row

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        with _translated():
            return list(await self.conn.fetch(_numbered(sql), *args))

    async def scalar(self, sql: str, args: Sequence[Any] = ()) -> int:
        return first_int(await self.one(sql, args))


class PostgresStorage(Repositories):
    """Open with ``await PostgresStorage.open(url)``; close with ``await storage.close()``.

    Several processes may open one database: writes that must not interleave lock their rows,
    and a racing append fails on the events' primary key, never overwrites."""

    FOR_UPDATE = " FOR UPDATE"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = safe_url(url)
        # The transaction a task is in: its reads go to the same connection.
        self._current: contextvars.ContextVar[PgTx | None] = contextvars.ContextVar(
            f"pg-tx-{id(self)}", default=None
        )
        # (holder, epoch) of the active process's lease: every write checks it is still theirs
        # (storage.postgres.lease); None for a process that writes without one (the tools).
        self.fence: tuple[str, int] | None = None
        # The check itself: the one active process's lease, or a member's row among several
        # active processes (``storage.postgres.shards``).
        self.fence_sql = FENCE

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> Self:
        """Connect, refuse a stranger's or a newer database, migrate. Errors name the server
        without its password."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=min_size,
                max_size=max_size,
                command_timeout=60,
                server_settings={"idle_in_transaction_session_timeout": str(IDLE_WRITE_MS)},
                reset=_keep_session,
            )
        except (OSError, asyncpg.PostgresError, ValueError) as exc:
            raise StorageError(
                f"cannot reach the database {safe_url(url)}: {type(exc).__name__}: {exc}"
            ) from None
        storage = cls(pool, url)
        try:
            await storage.migrate()
        except BaseException:
            await storage.close()
            raise
        return storage

    async def migrate(self, target: int = LATEST) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            has_meta = await conn.fetchval("SELECT to_regclass('bot_meta') IS NOT NULL")
            others = await conn.fetchval(
                "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() "
                "AND tablename <> ALL($1::text[])",
                ["bot_meta", *COORDINATION],
            )
            if not has_meta and others:
                raise NotOurDatabase(
                    f"{self.url} holds another program's tables; refusing to touch it"
                )
            await conn.execute(META)
            app = await conn.fetchval("SELECT value FROM bot_meta WHERE key = 'application'")
            if app is not None and app != APPLICATION:
                raise NotOurDatabase(f"{self.url} belongs to another program ({app[:20]!r})")
            version = await schema_of(conn)
            if version > LATEST:
                raise DatabaseTooNew(
                    f"{self.url} is at schema {version}, newer than this bot's {LATEST}: "
                    "upgrade the bot or use another database"
                )
            for number in range(version + 1, target + 1):
                script = MIGRATIONS.get(number)
                if script:
                    await conn.execute(script)
            await conn.execute(
                "INSERT INTO bot_meta (key, value) VALUES ('application', $1), "
                "('schema_version', $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                APPLICATION,
                str(max(version, target)),
            )

    async def schema_version(self) -> int:
        return await schema_of(self._pool)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._pool.close()

    # --- what the repositories run on -------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[PgTx]:
        outer = self._current.get()
        if outer is not None:  # a method called inside another's transaction joins it
            yield outer
            return
        try:
            async with self._pool.acquire() as conn, conn.transaction():
                fence = self.fence
                if fence is not None and await conn.fetchval(self.fence_sql, *fence) is None:
                    raise LeaseLost("this process's lease is gone: nothing is written")
                tx = PgTx(conn)
                token = self._current.set(tx)
                try:
                    yield tx
                finally:
                    self._current.reset(token)
        except (OSError, asyncpg.InterfaceError) as exc:
            raise StorageError(f"lost the database {self.url}: {exc}") from exc

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        async with self._reader() as tx:
            return await tx.one(sql, args)

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        async with self._reader() as tx:
            return await tx.all(sql, args)

    async def _scalar(self, sql: str, args: Sequence[Any] = ()) -> int:
        async with self._reader() as tx:
            return await tx.scalar(sql, args)

    @contextlib.asynccontextmanager
    async def _reader(self) -> AsyncIterator[PgTx]:
        current = self._current.get()
        if current is not None:
            yield current
            return
        try:
            async with self._pool.acquire() as conn:
                yield PgTx(conn)
        except (OSError, asyncpg.InterfaceError) as exc:
            raise StorageError(f"lost the database {self.url}: {exc}") from exc

    async def _batched(self, sql: str, args: Sequence[Any]) -> None:
        async with self._tx() as tx:
            await tx.execute(sql, args)

    async def append_event(
        self,
        table_id: int,
        deal_no: int,
        seq: int,
        kind: str,
        payload: Mapping[str, Any],
        player_id: int | None,
    ) -> Event:
        at = now()
        try:
            async with self._tx() as tx:
                await tx.execute(
                    "INSERT INTO events (table_id, deal_no, seq, kind, payload, player_id, at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (table_id, deal_no, seq, kind, json.dumps(dict(payload)), player_id, at),
                )
        except Duplicate as exc:
            raise ConflictError(f"event {table_id}/{deal_no}/{seq} exists") from exc
        return Event(table_id, deal_no, seq, kind, dict(payload), player_id, at)

    # --- export and import --------------------------------------------------------------------

    async def dump(
        self, tables: Sequence[tuple[str, Sequence[str]]]
    ) -> list[list[tuple[Any, ...]]]:
        async with (
            self._pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            return [
                [tuple(r) for r in await conn.fetch(select_all(name, columns))]
                for name, columns in tables
            ]

    async def load(
        self, data: Sequence[tuple[str, Sequence[str], Sequence[Sequence[Any]]]]
    ) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            for table, columns, rows in data:
                await conn.copy_records_to_table(
                    table, records=[tuple(r) for r in rows], columns=list(columns)
                )
                if "id" in columns:  # new rows are numbered after the imported ones
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)"
                    )
