"""Tools on the database named by ``DATABASE_URL`` (or ``BRIDGE_DB``), no Telegram:

- ``python -m bot export FILE`` / ``import FILE``: the whole database to a JSON Lines file and
  back, to move between SQLite and PostgreSQL. Stop the bot first: a SQLite file is one
  process's, and a running bot would go on writing after the export's snapshot.
- ``python -m bot health``: the database answers and is at this bot's schema (a container's
  health check; read-only, without the lock the running bot holds)."""

from __future__ import annotations

import asyncio
import os
import sys

from bot.config import database_from_env
from storage import open_storage, read_schema
from storage.interface import StorageError
from storage.migrations import LATEST
from storage.postgres import safe_url
from storage.transfer import export, import_

USAGE = (
    "usage: python -m bot [export FILE | import FILE | health]  (FILE '-': standard output/input)"
)
COMMANDS = ("export", "import")


def run(args: list[str]) -> int:
    database, setting = database_from_env(os.environ)
    if args == ["health"]:
        return asyncio.run(_health(database))
    if len(args) != 2 or args[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    command, path = args
    try:
        counts = asyncio.run(_transfer(command, path, database))
    except (StorageError, OSError, ValueError) as exc:
        print(f"bridge bot: {command}: {exc}", file=sys.stderr)
        return 1
    rows = ", ".join(f"{n} {name}" for name, n in counts.items() if n)
    where = safe_url(database)
    done = "from" if command == "export" else "into"
    print(
        f"bridge bot: {command}ed {rows or 'nothing'} {done} {where} ({setting})", file=sys.stderr
    )
    return 0


async def _health(database: str) -> int:
    """0 when the database answers and is at this bot's schema: the container's health check.
    Read-only, and without the SQLite lock the running bot holds."""
    try:
        version = await read_schema(database)
    except StorageError as exc:
        print(f"bridge bot: health: {safe_url(database)}: {exc}", file=sys.stderr)
        return 1
    if version != LATEST:
        print(f"bridge bot: health: schema {version}, expected {LATEST}", file=sys.stderr)
        return 1
    return 0


async def _transfer(command: str, path: str, database: str) -> dict[str, int]:
    storage = await open_storage(database)
    try:
        if command == "export":
            if path == "-":
                return await export(storage, sys.stdout)
            with open(path, "w", encoding="utf-8") as out:
                return await export(storage, out)
        if path == "-":
            return await import_(storage, sys.stdin)
        with open(path, encoding="utf-8") as source:
            return await import_(storage, source)
    finally:
        await storage.close()
