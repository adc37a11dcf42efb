"""Tools on the database named by ``DATABASE_URL`` (or ``BRIDGE_DB``), no Telegram:

- ``python -m bot export FILE`` / ``import FILE``: the whole database to a JSON Lines file and
  back, to move between SQLite and PostgreSQL. Stop the bot first: a SQLite file is one
  process's, and a running bot would go on writing after the export's snapshot.
- ``python -m bot health``: the bot is running (its heartbeat is fresh, ``bot.heartbeat``) and
  its database answers at this bot's schema (a container's health check; read-only, without
  the lock the running bot holds)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys

from bot.config import ConfigError, database_from_env, database_password, heartbeat_from_env
from bot.heartbeat import HeartbeatSettings, heartbeat_age
from bot.redact import redact
from storage import is_postgres, open_storage, read_schema, sqlite_path
from storage.interface import StorageError
from storage.migrations import LATEST
from storage.postgres import safe_url
from storage.transfer import export, import_

USAGE = (
    "usage: python -m bot [export FILE | import FILE | health]  (FILE '-': standard output/input)"
)
HELP = f"""{USAGE}

With no argument: run the bot (long polling, or a webhook when WEBHOOK_URL is set). Every
setting is read from the environment (BOT_TOKEN, DATABASE_URL, ...): .env.example lists and
explains each; the README's first command loads .env.

  export FILE   the whole database as JSON Lines (a backup, or to move to PostgreSQL); the
                database must exist. Stop the bot first on SQLite.
  import FILE   an export into an empty database (created if missing), all or nothing; every
                deal is replayed before anything is written.
  health        0 if the bot is running here (its heartbeat, written every HEARTBEAT_SECONDS,
                is fresh) and its database answers at this bot's schema; 1 for a stopped
                or hung bot (the image's health check).

The database is DATABASE_URL (a SQLite file, sqlite:///file, or postgresql://...); BRIDGE_DB is
its older name."""
COMMANDS = ("export", "import")


def run(args: list[str]) -> int:
    if args in (["--help"], ["-h"], ["help"]):
        print(HELP)
        return 0
    try:
        database, setting = database_from_env(os.environ)
    except ConfigError as exc:
        print(f"bridge bot: {exc}", file=sys.stderr)
        return 2
    password = database_password(database)
    if args == ["health"]:
        try:
            beat = heartbeat_from_env(os.environ, database)
        except ConfigError as exc:
            print(f"bridge bot: {exc}", file=sys.stderr)
            return 2
        return asyncio.run(_health(database, password, beat))
    if len(args) != 2 or args[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    command, path = args
    try:
        counts = asyncio.run(_transfer(command, path, database))
    except (StorageError, OSError, ValueError) as exc:
        print(f"bridge bot: {command}: {_masked(str(exc), password)}", file=sys.stderr)
        return 1
    rows = ", ".join(f"{n} {name}" for name, n in counts.items() if n)
    where = safe_url(database)
    done = "from" if command == "export" else "into"
    print(
        f"bridge bot: {command}ed {rows or 'nothing'} {done} {where} ({setting})", file=sys.stderr
    )
    return 0


def _masked(text: str, password: str | None) -> str:
    return redact(text, "", password)


async def _health(database: str, password: str | None, beat: HeartbeatSettings) -> int:
    """0 when the database answers at this bot's schema and the bot beats (within three
    beats): the container's health check. Read-only, and without the SQLite lock the running
    bot holds."""
    try:
        version = await read_schema(database)
    except StorageError as exc:
        reason = _masked(str(exc), password)
        print(f"bridge bot: health: {safe_url(database)}: {reason}", file=sys.stderr)
        return 1
    if version != LATEST:
        print(f"bridge bot: health: schema {version}, expected {LATEST}", file=sys.stderr)
        return 1
    age = heartbeat_age(beat)
    if age is None:
        print(
            f"bridge bot: health: no heartbeat at {beat.path}: the bot is not running",
            file=sys.stderr,
        )
        return 1
    if age > beat.max_age:
        print(
            f"bridge bot: health: last heartbeat {age:.0f} s ago: the bot is hung or gone",
            file=sys.stderr,
        )
        return 1
    return 0


async def _transfer(command: str, path: str, database: str) -> dict[str, int]:
    """An export reads an existing database only and writes its file whole or not at all; an
    import that fails leaves no new database file behind."""
    if command == "export":
        storage = await open_storage(database, create=False)
        try:
            if path == "-":
                return await export(storage, sys.stdout)
            partial = f"{path}.partial"
            try:
                with open(partial, "w", encoding="utf-8") as out:
                    counts = await export(storage, out)
                os.replace(partial, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(partial)
            return counts
        finally:
            await storage.close()
    new_file = not is_postgres(database) and not os.path.exists(sqlite_path(database))
    if path != "-" and not os.path.exists(path):
        raise StorageError(f"{path} does not exist")
    storage = await open_storage(database)
    done = False
    try:
        if path == "-":
            counts = await import_(storage, sys.stdin)
        else:
            with open(path, encoding="utf-8") as source:
                counts = await import_(storage, source)
        done = True
        return counts
    finally:
        await storage.close()
        if new_file and not done:
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(sqlite_path(database) + suffix)
