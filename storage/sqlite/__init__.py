"""The embedded backend: one SQLite file through aiosqlite, WAL mode, foreign keys on.

Split along its concerns: the connection (opening, checks, migrations, transactions), the
group-commit writer, and one repository per kind of row; ``SqliteStorage`` is their sum.
"""

from __future__ import annotations

from storage.interface import Storage
from storage.sqlite.chats import ChatRepository
from storage.sqlite.deals import DealRepository
from storage.sqlite.matches import MAX_PAYMENT, LedgerRepository
from storage.sqlite.tables import TableRepository

__all__ = ["MAX_PAYMENT", "SqliteStorage"]


class SqliteStorage(ChatRepository, TableRepository, DealRepository, LedgerRepository, Storage):
    """Open with ``await SqliteStorage.open(path)``; close with ``await storage.close()``."""
