"""The embedded backend: one SQLite file through aiosqlite, WAL mode, foreign keys on.

Split along its concerns: the connection (opening, checks, migrations, transactions) and the
group-commit writer here; the repositories, one per kind of row, in ``storage.sql`` (shared with
PostgreSQL). ``SqliteStorage`` is their sum.
"""

from __future__ import annotations

from storage.sql import MAX_PAYMENT, Repositories
from storage.sqlite.writer import GroupCommitWriter

__all__ = ["MAX_PAYMENT", "SqliteStorage"]


class SqliteStorage(Repositories, GroupCommitWriter):
    """Open with ``await SqliteStorage.open(path)``; close with ``await storage.close()``."""
