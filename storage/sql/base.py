"""What the SQL repositories need from a backend: transactions, reads, and a name for a taken key.

The repositories (chats, tables, deals, the ledger) are written once, in the SQL that SQLite and
PostgreSQL share, with ``?`` for parameters; each backend runs them its own way (aiosqlite's one
connection, asyncpg's pool) and says which of its errors means a unique key was taken.
"""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from storage.interface import ConflictError, Storage


class Row(Protocol):
    """A fetched row, read by column name or position (``sqlite3.Row`` and ``asyncpg.Record``
    both are)."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Duplicate(ConflictError):
    """A unique key was taken (by a racing writer, or twice by the same one)."""


class Tx(Protocol):
    """One open transaction: its statements see each other's writes."""

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> None: ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def one(self, sql: str, args: Sequence[Any] = ()) -> Row | None: ...

    async def all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    async def scalar(self, sql: str, args: Sequence[Any] = ()) -> int: ...


class SqlStore(Storage):
    """The backend half of a SQL storage; the repositories are the other half."""

    FOR_UPDATE = ""
    """Appended to a read that the transaction will act on. SQLite's write transactions are
    serial already; PostgreSQL's run side by side, so there the row is locked."""

    @abc.abstractmethod
    def _tx(self) -> contextlib.AbstractAsyncContextManager[Tx]:
        """One write transaction; committed when the block ends, rolled back on any error."""

    @abc.abstractmethod
    async def _one(self, sql: str, args: Sequence[Any] = ()) -> Row | None: ...

    @abc.abstractmethod
    async def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Row]: ...

    @abc.abstractmethod
    async def _scalar(self, sql: str, args: Sequence[Any] = ()) -> int: ...

    @abc.abstractmethod
    async def _batched(self, sql: str, args: Sequence[Any]) -> None:
        """A write that cannot conflict, which the backend may commit with others."""

    async def _batched_together(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Writes that cannot conflict, committed together (all or none): in one transaction
        here; SQLite's group commit puts them in the next batch, behind nobody's event."""
        async with self._tx() as db:
            for sql, args in statements:
                await db.execute(sql, args)

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    async def is_empty(self, table: str) -> bool:
        return await self._one(f"SELECT 1 FROM {table} LIMIT 1") is None

    @abc.abstractmethod
    async def dump(
        self, tables: Sequence[tuple[str, Sequence[str]]]
    ) -> list[list[tuple[Any, ...]]]:
        """Every row of each (table, columns), in key order, read in one snapshot: for
        ``python -m bot export``."""

    @abc.abstractmethod
    async def load(
        self, data: Sequence[tuple[str, Sequence[str], Sequence[Sequence[Any]]]]
    ) -> None:
        """Insert each (table, columns, rows) as it was (ids kept) into empty tables, in one
        transaction: for ``python -m bot import``."""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def chunks(items: list[Any], size: int = 400) -> list[list[Any]]:
    """Lists short enough for one statement's parameters on either backend."""
    return [items[i : i + size] for i in range(0, len(items), size)]


def marks(items: list[Any]) -> str:
    return ",".join("?" * len(items))


def select_all(table: str, columns: Sequence[str]) -> str:
    """Every row, in the order of all its columns: the same order on either backend (an
    export of one reads byte for byte like an export of the other)."""
    order = ", ".join(str(i + 1) for i in range(len(columns)))
    return f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}"


def first_int(row: Row | None) -> int:
    """A one-value row's value as an int (0 for no row or NULL): ``Tx.scalar``'s answer."""
    return int(row[0]) if row is not None and row[0] is not None else 0
