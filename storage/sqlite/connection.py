"""The SQLite file and its one connection: opening (lock, checks, migrations) and transactions.

One bot process owns the file (an advisory lock on the database file itself); several processes
need the PostgreSQL backend. Every write runs in ``BEGIN IMMEDIATE`` … ``COMMIT``.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import IO, Any, Self, TypeVar, cast

import aiosqlite

from storage.interface import (
    DatabaseLocked,
    DatabaseTooNew,
    NotOurDatabase,
    StorageError,
)
from storage.migrations import APPLICATION_ID, LATEST, MIGRATIONS
from storage.sql.base import Duplicate, Row, SqlStore, first_int, marks, select_all

T = TypeVar("T")


class SqliteTx:
    """A transaction on the one connection, speaking the repositories' ``Tx``."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None:
        with _duplicates():
            await self.db.execute(sql, tuple(args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with _duplicates():
            await self.db.executemany(sql, [tuple(r) for r in rows])

    async def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        rows = await self.all(sql, args)
        return rows[0] if rows else None

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        # one call into SQLite's thread (a cursor, its rows and its closing would be three,
        # each waking the event loop): the reads here are a few rows at a time
        with _duplicates():
            return list(await self.db.execute_fetchall(sql, tuple(args)))

    async def scalar(self, sql: str, args: Sequence[Any] = ()) -> int:
        return first_int(await self.one(sql, args))


@contextlib.contextmanager
def _duplicates() -> Iterator[None]:
    """A taken unique key is the repositories' ``Duplicate``; other violations stay as they are."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if "UNIQUE constraint failed" in str(exc):
            raise Duplicate(str(exc)) from exc
        raise


class SqliteConnection(SqlStore):
    """The file, its lock, its one connection and its schema: opening, checks, migrations,
    and the transaction every write runs in."""

    def __init__(self, db: aiosqlite.Connection, lock: IO[bytes] | None, path: str) -> None:
        self._db = db
        self._lock = lock
        self.path = path
        # One connection serves every coroutine: a transaction must not interleave with another
        # coroutine's statements. Reads inside the owning task's transaction do not re-lock.
        self._busy = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        # Group commit: events appended (and simple statements queued) while a commit is in
        # flight wait and go in the next one.
        self._appends: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._statements: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        self._appender: asyncio.Task[None] | None = None

    # --- opening -------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str, exclusive: bool = True) -> Self:
        """Open (creating and migrating as needed) the database at ``path`` (the bot's config
        names it; storage reads no environment).

        ``exclusive`` takes the one-process lock; tests that race two writers on one file turn
        it off. Raises NotOurDatabase, DatabaseTooNew or DatabaseLocked with a clear message.
        """
        lock = _take_lock(path) if exclusive and path != ":memory:" else None
        try:
            db = await aiosqlite.connect(path, isolation_level=None, timeout=10)
        except sqlite3.Error as exc:
            _release(lock)
            raise StorageError(f"cannot open database {path!r}: {exc}") from exc
        db.row_factory = sqlite3.Row
        storage = cls(db, lock, path)
        try:
            await storage._prepare()
        except sqlite3.Error as exc:
            await storage.close()
            if "malformed" in str(exc):
                raise StorageError(_damaged(path, str(exc))) from exc
            raise StorageError(f"cannot use database {path!r}: {exc}") from exc
        except BaseException:
            await storage.close()
            raise
        return storage

    async def _prepare(self) -> None:
        try:
            app_id = await self._scalar("PRAGMA application_id")
            version = await self._scalar("PRAGMA user_version")
            foreign = await self._scalar(
                "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            )
        except sqlite3.DatabaseError as exc:
            if "malformed" in str(exc):
                raise StorageError(_damaged(self.path, str(exc))) from exc
            raise NotOurDatabase(f"{self.path!r} is not a bridge bot database ({exc})") from exc
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and foreign):
            raise NotOurDatabase(
                f"{self.path!r} holds another program's data; refusing to touch it"
            )
        if version > LATEST:
            raise DatabaseTooNew(
                f"{self.path!r} is at schema {version}, newer than this bot's {LATEST}: "
                "upgrade the bot or use another file"
            )
        try:
            await self._db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as exc:
            raise DatabaseLocked(f"{self.path!r} is locked by another process ({exc})") from exc
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA synchronous=FULL")
        await self._db.execute("PRAGMA busy_timeout=10000")
        await self._check_usable(version)
        await self.migrate()

    async def _check_usable(self, version: int) -> None:
        """Refuse at start what would fail later: a file we cannot write (it would open "ready"
        and then refuse every move) and a damaged one (it would fail mid-game)."""
        if self.path == ":memory:":
            return
        try:
            await self._db.execute("BEGIN IMMEDIATE")
            await self._db.execute(f"PRAGMA user_version={version}")  # a real write, undone
            await self._db.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            with contextlib.suppress(sqlite3.Error):
                await self._db.execute("ROLLBACK")
            raise StorageError(
                f"cannot write to database {self.path!r} ({exc}): check that the file and its "
                "folder are writable by the bot"
            ) from exc
        async with self._db.execute("PRAGMA quick_check") as cur:
            problems = [str(row[0]) for row in await cur.fetchall()]
        if problems != ["ok"]:
            raise StorageError(_damaged(self.path, "; ".join(problems[:3])))

    async def migrate(self, target: int = LATEST) -> None:
        """Apply the migrations after the file's ``user_version`` up to ``target``."""
        version = await self._scalar("PRAGMA user_version")
        for number in range(version + 1, target + 1):
            async with self._tx() as tx:
                db = tx.db
                await db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                for statement in _statements(MIGRATIONS[number - 1]):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version={number}")

    async def schema_version(self) -> int:
        return await self._scalar("PRAGMA user_version")

    async def close(self) -> None:
        if self._appender is not None:
            with contextlib.suppress(BaseException):
                await self._appender
        with contextlib.suppress(Exception):
            await self._db.close()
        _release(self._lock)
        self._lock = None

    # --- helpers ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        if self._owner is not None and self._owner is asyncio.current_task():
            yield
            return
        async with self._busy:
            yield

    async def _scalar(self, sql: str, args: Sequence[Any] = ()) -> int:
        async with self._turn():
            return await SqliteTx(self._db).scalar(sql, args)

    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Row | None:
        async with self._turn():
            return await SqliteTx(self._db).one(sql, args)

    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        async with self._turn():
            return await SqliteTx(self._db).all(sql, args)

    async def dump(
        self, tables: Sequence[tuple[str, Sequence[str]]]
    ) -> list[list[tuple[Any, ...]]]:
        async with self._tx() as db:  # one snapshot: no write can come between the tables
            return [
                [tuple(r) for r in await db.all(select_all(name, cols))] for name, cols in tables
            ]

    async def load(
        self, data: Sequence[tuple[str, Sequence[str], Sequence[Sequence[Any]]]]
    ) -> None:
        async with self._tx() as db:
            for table, columns, rows in data:
                cols = ", ".join(columns)
                await db.executemany(
                    f"INSERT INTO {table} ({cols}) VALUES ({marks(list(columns))})", rows
                )

    async def _on_thread(self, work: Callable[..., T], *args: Any) -> T:
        """``work(connection, *args)`` on SQLite's thread, as one call: a transaction of several
        statements wakes the event loop once, not once a statement (about 40 µs of CPU each).
        aiosqlite runs each of its own methods this way; it names the step ``_execute``
        (pinned in constraints.txt; every write of the tests goes through here)."""
        db = self._db
        return cast(T, await db._execute(lambda: work(db._conn, *args)))  # type: ignore[no-untyped-call]

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[SqliteTx]:
        """One write transaction, alone on the connection; rolled back on any error."""
        async with self._busy:
            self._owner = asyncio.current_task()
            try:
                try:
                    await self._db.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    raise DatabaseLocked(f"{self.path!r} is busy: {exc}") from exc
                try:
                    yield SqliteTx(self._db)
                except BaseException:
                    await self._db.execute("ROLLBACK")
                    raise
                else:
                    await self._db.execute("COMMIT")
            finally:
                self._owner = None


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies (``BEGIN … END;``) whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


def _damaged(path: str, detail: str) -> str:
    return f"database {path!r} is damaged ({detail}): restore it from a backup"


def _take_lock(path: str) -> IO[bytes]:
    """One bot process per database: an exclusive lock on the database file itself, so the
    same file reached through a symlink or a hard link is refused too (a lock on a side file
    named after the path was not). The handle stays open for the life of the storage: closing
    another handle of the file would drop SQLite's own locks."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise StorageError(f"the folder of database {path!r} does not exist: {folder}")
    try:
        handle = open(path, "ab")  # noqa: SIM115 - held open for the storage's life
    except OSError as exc:
        raise StorageError(f"cannot open database {path!r}: {exc.strerror}") from exc
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DatabaseLocked(
            f"{path!r} is in use by another bot process; stop it or set another DATABASE_URL"
        ) from None
    return handle


def _release(lock: IO[bytes] | None) -> None:
    if lock is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()
