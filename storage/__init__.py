"""Durable state behind an async interface; SQLite (aiosqlite) is the embedded default,
PostgreSQL (asyncpg) the hosted one. ``open_storage`` picks by the database's name."""

import contextlib
import os
import sqlite3

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


async def read_schema(database: str) -> int:
    """The schema version the database is at, read without opening it as the bot does: no
    migration, no lock (the running bot holds SQLite's), read-only. StorageError if it cannot
    be read. For the container's health check."""
    if is_postgres(database):
        from storage.postgres import read_schema as postgres_schema

        return await postgres_schema(database)
    path = sqlite_path(database)
    if not os.path.exists(path):
        raise StorageError(f"{path} does not exist")
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as con:
            return int(con.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as exc:
        raise StorageError(str(exc)) from exc


async def open_storage(database: str, create: bool = True) -> SqlStore:
    """The storage ``database`` names: a ``postgresql://`` URL, or a SQLite file. With
    ``create`` False a SQLite file that does not exist is an error, not a new empty database
    (a backup of nothing must not look like a backup)."""
    if is_postgres(database):
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open(database)
    path = sqlite_path(database)
    if not create and not os.path.exists(path):
        raise StorageError(f"{path} does not exist")
    return await SqliteStorage.open(path)


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
    "read_schema",
    "sqlite_path",
]
