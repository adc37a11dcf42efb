"""A whole database as one JSON Lines file, to move it between backends (SQLite to PostgreSQL and
back) or keep it as a plain-text backup: ``python -m bot export FILE`` / ``import FILE``.

Rows are copied as they are, ids included, so everything that names a row (a match's ledger
rows, a deal's events, a deep link's token, a kept message's id) still names it after the move.
The first line says what the file is and at which schema; an import goes only into an empty
database at that same schema, in one transaction: all of it or nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import IO, Any

from storage.interface import StorageError
from storage.migrations import LATEST
from storage.sql.base import SqlStore

FORMAT = "bridge-bot-export"

# Every table and column, parents before children (foreign keys hold at every row).
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("chats", ("id", "tg_chat_id", "title", "language", "created_at", "stake", "currency",
               "rounding", "payments", "whist_price")),
    ("players", ("id", "tg_user_id", "name", "language", "chat_id", "created_at", "username")),
    ("tables", ("id", "chat_id", "topic_id", "status", "language", "turn_timer", "scorekeeper",
                "match_id", "created_at", "token", "game", "options")),
    ("matches", ("id", "table_id", "chat_id", "seats", "started_at", "finished_at",
                 "unfinished", "game", "options", "result")),
    ("seats", ("table_id", "seat", "player_id")),
    ("deals", ("table_id", "deal_no", "match_id", "result")),
    ("events", ("table_id", "deal_no", "seq", "kind", "payload", "player_id", "at")),
    ("ledger", ("id", "chat_id", "player_id", "points", "kind", "match_id", "txn", "note", "at",
                "unit")),
    ("kept_messages", ("table_id", "key", "tg_chat_id", "message_id", "digest")),
    ("player_flags", ("player_id", "flag")),
    ("applied_updates", ("update_key", "table_id", "deal_no", "at")),
)  # fmt: skip


class TransferError(StorageError):
    """The file is not an export, is of another schema, or the target is not empty."""


async def export(storage: SqlStore, out: IO[str]) -> dict[str, int]:
    """Write every row to ``out``; returns how many rows each table had."""
    version = await storage.schema_version()
    rows = await storage.dump(TABLES)
    counts = {name: len(found) for (name, _), found in zip(TABLES, rows, strict=True)}
    out.write(json.dumps({"format": FORMAT, "schema": version, "rows": counts}) + "\n")
    for (name, columns), found in zip(TABLES, rows, strict=True):
        out.write(json.dumps({"table": name, "columns": columns}) + "\n")
        for row in found:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return counts


async def import_(storage: SqlStore, source: IO[str]) -> dict[str, int]:
    """Read an export into ``storage``, which must be empty and at the export's schema."""
    lines = iter(source)
    head = _header(next(lines, ""))
    version = await storage.schema_version()
    if head["schema"] != version:
        raise TransferError(
            f"the file is at schema {head['schema']}, this database at {version}: "
            f"export and import with the same release of the bot (schema {LATEST})"
        )
    for name, _ in TABLES:
        if not await storage.is_empty(name):
            raise TransferError(f"the database is not empty (it has {name}): import into a new one")
    data = list(_tables(lines))
    counts = {name: len(rows) for name, _, rows in data}
    if counts != head["rows"]:
        raise TransferError(f"the file is cut short: {counts} rows, its header says {head['rows']}")
    await storage.load(data)
    return counts


def _header(line: str) -> dict[str, Any]:
    try:
        head = json.loads(line)
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise TransferError("not an export of this bot (python -m bot export writes one)")
    return head


def _tables(lines: Iterator[str]) -> Iterator[tuple[str, Sequence[str], list[list[Any]]]]:
    known = dict(TABLES)
    name: str | None = None
    columns: Sequence[str] = ()
    rows: list[list[Any]] = []
    for line in lines:
        item = json.loads(line)
        if isinstance(item, dict):
            if name is not None:
                yield name, columns, rows
            name, columns, rows = item["table"], tuple(item["columns"]), []
            if known.get(name) != columns:
                raise TransferError(f"unexpected table or columns in the file: {name}")
        else:
            rows.append(item)
    if name is not None:
        yield name, columns, rows
