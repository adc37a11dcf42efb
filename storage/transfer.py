"""A whole database as one JSON Lines file, to move it between backends (SQLite to PostgreSQL and
back) or keep it as a plain-text backup: ``python -m bot export FILE`` / ``import FILE``.

Rows are copied as they are, ids included, so everything that names a row (a match's ledger
rows, a deal's events, a deep link's token, a kept message's id) still names it after the move.
The first line says what the file is and at which schema; an import goes only into an empty
database at that same schema, in one transaction: all of it or nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

from games.core.registry import find_game
from storage.events import replay
from storage.interface import Event, StorageError
from storage.migrations import LATEST
from storage.sql.base import SqlStore

FORMAT = "bridge-bot-export"

# Every table and column, parents before children (foreign keys hold at every row). The deals'
# reviews (deal_reviews, player_deals) are left out: derived from the logs, the bot makes them
# again after an import.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("chats", ("id", "tg_chat_id", "title", "language", "created_at", "currency", "rounding",
               "payments", "prices", "stats_public")),
    ("players", ("id", "tg_user_id", "name", "language", "chat_id", "created_at", "username")),
    ("tables", ("id", "chat_id", "topic_id", "status", "language", "turn_timer", "scorekeeper",
                "match_id", "created_at", "token", "game", "options", "hands",
                "private_hands")),
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


# Columns that hold whole numbers (ids, positions, amounts): anything else in a file is refused
# before the database sees it.
NUMBERS = frozenset(
    {"id", "chat_id", "player_id", "table_id", "match_id", "tg_chat_id", "tg_user_id", "topic_id",
     "seat", "deal_no", "seq", "points", "message_id", "turn_timer"}
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
    check(data)
    try:
        await storage.load(data)
    except TransferError:
        raise
    except Exception as exc:  # whatever else the database refuses: one line, nothing written
        raise TransferError(
            f"the database refused the file ({type(exc).__name__}: {str(exc)[:120]})"
        ) from None
    return counts


def check(data: Sequence[tuple[str, Sequence[str], list[list[Any]]]]) -> None:
    """What the bot would trip over later is refused now, before anything is written: a NUL in
    a text (PostgreSQL cannot keep one), a ledger entry whose rows do not sum to zero, a deal
    whose log does not replay through its game (the table could not be restored)."""
    tables = {name: [dict(zip(columns, row, strict=True)) for row in rows]
              for name, columns, rows in data}  # fmt: skip
    for name, rows in tables.items():
        keys: set[Any] = set()
        for number, row in enumerate(rows, start=1):
            if any(isinstance(v, str) and "\x00" in v for v in row.values()):
                raise TransferError(f"row {number} of {name} holds a NUL character")
            for column in NUMBERS & row.keys():
                value = row[column]
                if value is not None and (type(value) is not int or abs(value) >= 2**63):
                    raise TransferError(f"row {number} of {name}: {column} is not a number")
            if "id" in row:
                if row["id"] in keys:
                    raise TransferError(f"row {number} of {name}: id {row['id']} twice")
                keys.add(row["id"])
    sums: dict[str, int] = {}
    for row in tables.get("ledger", []):
        sums[str(row["txn"])] = sums.get(str(row["txn"]), 0) + int(row["points"])
    unbalanced = sorted(txn for txn, total in sums.items() if total)
    if unbalanced:
        raise TransferError(
            f"{len(unbalanced)} ledger entries do not sum to zero (the first: {unbalanced[0]})"
        )
    _check_replay(tables)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _check_replay(tables: Mapping[str, list[dict[str, Any]]]) -> None:
    online = {row["id"]: row for row in tables.get("tables", []) if not row["scorekeeper"]}
    matches = tables.get("matches", [])
    seats_of_match = {row["id"]: len(_json(row["seats"]) or {}) for row in matches}
    seated: dict[int, int] = {}
    for row in tables.get("seats", []):
        seated[row["table_id"]] = seated.get(row["table_id"], 0) + 1
    match_of = {(r["table_id"], r["deal_no"]): r["match_id"] for r in tables.get("deals", [])}
    logs: dict[tuple[int, int], list[Event]] = {}
    for row in tables.get("events", []):
        if row["table_id"] in online:
            event = Event(row["table_id"], row["deal_no"], row["seq"], row["kind"],
                          _json(row["payload"]), row["player_id"], row["at"])  # fmt: skip
            logs.setdefault((row["table_id"], row["deal_no"]), []).append(event)
    for (table_id, deal_no), events in sorted(logs.items()):
        table = online[table_id]
        try:
            game = find_game(str(table["game"]))
            match_id = match_of.get((table_id, deal_no))
            players = seats_of_match.get(match_id, 0) or seated.get(table_id, 0)
            players = players or game.table_size(_json(table["options"]) or {})
            replay(game, players, sorted(events, key=lambda e: e.seq))
        except Exception as exc:  # any way a log fails to replay: name the deal, refuse it
            raise TransferError(
                f"table {table_id}, deal {deal_no} does not replay ({type(exc).__name__}: "
                f"{str(exc)[:100]}): the file was changed or is damaged"
            ) from None


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
    for number, line in enumerate(lines, start=2):
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            raise TransferError(f"line {number} is not JSON") from None
        if isinstance(item, dict):
            if name is not None:
                yield name, columns, rows
            table, named = item.get("table"), item.get("columns")
            if not isinstance(table, str) or not isinstance(named, list):
                raise TransferError(f"line {number}: not a table's header or a row")
            name, columns, rows = table, tuple(named), []
            if known.get(name) != columns:
                raise TransferError(f"unexpected table or columns in the file: {name[:40]}")
        elif isinstance(item, list) and name is not None and len(item) == len(columns):
            rows.append(item)
        else:
            raise TransferError(f"line {number}: not a row of {name or 'any table'}")
    if name is not None:
        yield name, columns, rows
