"""Durable state behind an async interface; SQLite (aiosqlite) is the embedded default,
PostgreSQL (asyncpg) the hosted one. ``open_storage`` picks by the database's name."""

from storage.interface import (
    ConflictError,
    DatabaseLocked,
    DatabaseTooNew,
    NotOurDatabase,
    Storage,
    StorageError,
)
from storage.sql.base import SqlStore
from storage.sqlite import SqliteStorage

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(database: str) -> bool:
    return database.startswith(POSTGRES_SCHEMES)


def sqlite_path(database: str) -> str:
    """A path, or ``sqlite:///relative`` / ``sqlite:////absolute`` as the URL form writes it."""
    if database.startswith("sqlite:///"):
        return database[len("sqlite:///") :]
    return database


async def open_storage(database: str) -> SqlStore:
    """The storage ``database`` names: a ``postgresql://`` URL, or a SQLite file."""
    if is_postgres(database):
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open(database)
    return await SqliteStorage.open(sqlite_path(database))


__all__ = [
    "ConflictError",
    "DatabaseLocked",
    "DatabaseTooNew",
    "NotOurDatabase",
    "SqlStore",
    "SqliteStorage",
    "Storage",
    "StorageError",
    "is_postgres",
    "open_storage",
    "sqlite_path",
]
