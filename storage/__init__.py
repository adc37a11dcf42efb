"""Durable state behind an async interface; SQLite (aiosqlite) is the embedded default."""

from storage.interface import (
    ConflictError,
    DatabaseLocked,
    DatabaseTooNew,
    NotOurDatabase,
    Storage,
    StorageError,
)
from storage.sqlite import SqliteStorage

__all__ = [
    "ConflictError",
    "DatabaseLocked",
    "DatabaseTooNew",
    "NotOurDatabase",
    "SqliteStorage",
    "Storage",
    "StorageError",
]
