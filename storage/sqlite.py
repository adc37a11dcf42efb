"""The embedded backend: one SQLite file through aiosqlite, WAL mode, foreign keys on.

One bot process owns the file (an advisory lock on ``<file>.lock``); several processes need
the PostgreSQL backend. Every write runs in ``BEGIN IMMEDIATE`` … ``COMMIT``.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import secrets
import sqlite3
import uuid
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import IO, Any

import aiosqlite

from storage.interface import (
    AlreadyApplied,
    Chat,
    ChatSettings,
    ConflictError,
    DatabaseLocked,
    DatabaseTooNew,
    DealSummary,
    Event,
    LedgerRow,
    Match,
    NotFound,
    NotOurDatabase,
    PaymentPolicy,
    Player,
    Rounding,
    Storage,
    StorageError,
    Table,
    TableBundle,
    TableSettings,
    TableStatus,
    check_balanced,
)
from storage.migrations import APPLICATION_ID, LATEST, MIGRATIONS

DEFAULT_PATH = "bridge.sqlite3"
# A bound far above any real debt and far below SQLite's 64-bit sums: a forged amount can never
# make the chat's balances overflow.
MAX_PAYMENT = 10**12


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class SqliteStorage(Storage):
    """Open with ``await SqliteStorage.open(path)``; close with ``await storage.close()``."""

    def __init__(self, db: aiosqlite.Connection, lock: IO[bytes] | None, path: str) -> None:
        self._db = db
        self._lock = lock
        self.path = path
        # One connection serves every coroutine: a transaction must not interleave with another
        # coroutine's statements. Reads inside the owning task's transaction do not re-lock.
        self._busy = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        # Group commit: events appended (and simple statements queued) while a commit is in
        # flight wait and go in the next one.
        self._appends: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._statements: list[tuple[str, tuple[Any, ...], asyncio.Future[None]]] = []
        self._appender: asyncio.Task[None] | None = None

    # --- opening -------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | None = None, exclusive: bool = True) -> SqliteStorage:
        """Open (creating and migrating as needed) the database at ``path``.

        ``exclusive`` takes the one-process lock; tests that race two writers on one file turn
        it off. Raises NotOurDatabase, DatabaseTooNew or DatabaseLocked with a clear message.
        """
        path = path or os.environ.get("BRIDGE_DB", DEFAULT_PATH)
        lock = _take_lock(path) if exclusive and path != ":memory:" else None
        try:
            db = await aiosqlite.connect(path, isolation_level=None, timeout=10)
        except sqlite3.Error as exc:
            _release(lock)
            raise StorageError(f"cannot open database {path!r}: {exc}") from exc
        db.row_factory = sqlite3.Row
        storage = cls(db, lock, path)
        try:
            await storage._prepare()
        except sqlite3.Error as exc:
            await storage.close()
            if "malformed" in str(exc):
                raise StorageError(_damaged(path, str(exc))) from exc
            raise StorageError(f"cannot use database {path!r}: {exc}") from exc
        except BaseException:
            await storage.close()
            raise
        return storage

    async def _prepare(self) -> None:
        try:
            app_id = await self._scalar("PRAGMA application_id")
            version = await self._scalar("PRAGMA user_version")
            foreign = await self._scalar(
                "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            )
        except sqlite3.DatabaseError as exc:
            if "malformed" in str(exc):
                raise StorageError(_damaged(self.path, str(exc))) from exc
            raise NotOurDatabase(f"{self.path!r} is not a bridge bot database ({exc})") from exc
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and foreign):
            raise NotOurDatabase(
                f"{self.path!r} holds another program's data; refusing to touch it"
            )
        if version > LATEST:
            raise DatabaseTooNew(
                f"{self.path!r} is at schema {version}, newer than this bot's {LATEST}: "
                "upgrade the bot or use another file"
            )
        try:
            await self._db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as exc:
            raise DatabaseLocked(f"{self.path!r} is locked by another process ({exc})") from exc
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA synchronous=FULL")
        await self._db.execute("PRAGMA busy_timeout=10000")
        await self._check_usable(version)
        await self.migrate()

    async def _check_usable(self, version: int) -> None:
        """Refuse at start what would fail later: a file we cannot write (it would open "ready"
        and then refuse every move) and a damaged one (it would fail mid-game)."""
        if self.path == ":memory:":
            return
        try:
            await self._db.execute("BEGIN IMMEDIATE")
            await self._db.execute(f"PRAGMA user_version={version}")  # a real write, undone
            await self._db.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            with contextlib.suppress(sqlite3.Error):
                await self._db.execute("ROLLBACK")
            raise StorageError(
                f"cannot write to database {self.path!r} ({exc}): check that the file and its "
                "folder are writable by the bot"
            ) from exc
        async with self._db.execute("PRAGMA quick_check") as cur:
            problems = [str(row[0]) for row in await cur.fetchall()]
        if problems != ["ok"]:
            raise StorageError(_damaged(self.path, "; ".join(problems[:3])))

    async def migrate(self, target: int = LATEST) -> None:
        """Apply the migrations after the file's ``user_version`` up to ``target``."""
        version = await self._scalar("PRAGMA user_version")
        for number in range(version + 1, target + 1):
            async with self._tx() as db:
                await db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                for statement in _statements(MIGRATIONS[number - 1]):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version={number}")

    async def schema_version(self) -> int:
        return await self._scalar("PRAGMA user_version")

    async def close(self) -> None:
        if self._appender is not None:
            with contextlib.suppress(BaseException):
                await self._appender
        with contextlib.suppress(Exception):
            await self._db.close()
        _release(self._lock)
        self._lock = None

    # --- helpers ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        if self._owner is not None and self._owner is asyncio.current_task():
            yield
            return
        async with self._busy:
            yield

    async def _scalar(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        async with self._turn(), self._db.execute(sql, args) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row is not None and row[0] is not None else 0

    async def _one(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        async with self._turn(), self._db.execute(sql, args) as cur:
            row: sqlite3.Row | None = await cur.fetchone()
            return row

    async def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        async with self._turn(), self._db.execute(sql, args) as cur:
            return list(await cur.fetchall())

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction, alone on the connection; rolled back on any error."""
        async with self._busy:
            self._owner = asyncio.current_task()
            try:
                try:
                    await self._db.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    raise DatabaseLocked(f"{self.path!r} is busy: {exc}") from exc
                try:
                    yield self._db
                except BaseException:
                    await self._db.execute("ROLLBACK")
                    raise
                else:
                    await self._db.execute("COMMIT")
            finally:
                self._owner = None

    # --- chats and players -------------------------------------------------------------------

    async def ensure_chat(self, tg_chat_id: int, title: str = "", language: str = "ru") -> Chat:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO chats (tg_chat_id, title, language, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (tg_chat_id) DO UPDATE SET title = CASE WHEN excluded.title != '' "
                "THEN excluded.title ELSE chats.title END",
                (tg_chat_id, title, language, _now()),
            )
        chat = await self.chat_by_tg(tg_chat_id)
        assert chat is not None
        return chat

    async def chat_by_tg(self, tg_chat_id: int) -> Chat | None:
        row = await self._one("SELECT * FROM chats WHERE tg_chat_id = ?", (tg_chat_id,))
        return None if row is None else _chat(row)

    async def get_chat(self, chat_id: int) -> Chat:
        row = await self._one("SELECT * FROM chats WHERE id = ?", (chat_id,))
        if row is None:
            raise NotFound(f"chat {chat_id}")
        return _chat(row)

    async def migrate_chat(self, old_tg_chat_id: int, new_tg_chat_id: int) -> None:
        async with self._tx() as db:
            old = await self._one("SELECT id FROM chats WHERE tg_chat_id = ?", (old_tg_chat_id,))
            new = await self._one("SELECT id FROM chats WHERE tg_chat_id = ?", (new_tg_chat_id,))
            if old is None:
                return
            if new is not None:
                # The new id was seen first (an update from the supergroup raced the migration
                # message): it has no history worth keeping that the old chat lacks, so fold it.
                for table in ("tables", "matches", "ledger", "players"):
                    await db.execute(
                        f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (old["id"], new["id"])
                    )
                await db.execute("DELETE FROM chats WHERE id = ?", (new["id"],))
            await db.execute(
                "UPDATE chats SET tg_chat_id = ? WHERE id = ?", (new_tg_chat_id, old["id"])
            )

    async def update_chat_settings(self, chat_id: int, settings: ChatSettings) -> Chat:
        async with self._tx() as db:
            await db.execute(
                "UPDATE chats SET stake = ?, currency = ?, rounding = ?, payments = ? WHERE id = ?",
                (
                    settings.stake,
                    settings.currency,
                    settings.rounding.value,
                    settings.payments.value,
                    chat_id,
                ),
            )
        return await self.get_chat(chat_id)

    async def ensure_player(
        self, tg_user_id: int, name: str, language: str = "", username: str | None = None
    ) -> Player:
        async with self._tx() as db:
            if username:  # a @username moves to whoever holds it now
                await db.execute(
                    "UPDATE players SET username = NULL WHERE username = ? COLLATE NOCASE "
                    "AND tg_user_id != ?",
                    (username, tg_user_id),
                )
            await db.execute(
                "INSERT INTO players (tg_user_id, name, language, username, created_at) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (tg_user_id) DO UPDATE SET name = excluded.name, "
                "language = CASE WHEN excluded.language != '' THEN excluded.language "
                "ELSE players.language END, username = excluded.username",
                (tg_user_id, name, language, username or None, _now()),
            )
        player = await self.player_by_tg(tg_user_id)
        assert player is not None
        return player

    async def add_guest(self, chat_id: int, name: str) -> Player:
        async with self._tx() as db:
            row = await self._one(
                "SELECT * FROM players WHERE chat_id = ? AND name = ? AND tg_user_id IS NULL",
                (chat_id, name),
            )
            if row is None:
                cur = await db.execute(
                    "INSERT INTO players (tg_user_id, name, chat_id, created_at) "
                    "VALUES (NULL, ?, ?, ?)",
                    (name, chat_id, _now()),
                )
                row = await self._one("SELECT * FROM players WHERE id = ?", (cur.lastrowid,))
        assert row is not None
        return _player(row)

    async def player_by_username(self, username: str) -> Player | None:
        row = await self._one(
            "SELECT * FROM players WHERE username = ? COLLATE NOCASE AND tg_user_id IS NOT NULL",
            (username.lstrip("@"),),
        )
        return None if row is None else _player(row)

    async def get_player(self, player_id: int) -> Player:
        row = await self._one("SELECT * FROM players WHERE id = ?", (player_id,))
        if row is None:
            raise NotFound(f"player {player_id}")
        return _player(row)

    async def player_by_tg(self, tg_user_id: int) -> Player | None:
        row = await self._one("SELECT * FROM players WHERE tg_user_id = ?", (tg_user_id,))
        return None if row is None else _player(row)

    async def set_player_flag(self, player_id: int, flag: str, value: bool) -> None:
        async with self._tx() as db:
            if value:
                await db.execute(
                    "INSERT OR IGNORE INTO player_flags (player_id, flag) VALUES (?, ?)",
                    (player_id, flag),
                )
            else:
                await db.execute(
                    "DELETE FROM player_flags WHERE player_id = ? AND flag = ?", (player_id, flag)
                )

    async def player_flag(self, player_id: int, flag: str) -> bool:
        return bool(
            await self._scalar(
                "SELECT count(*) FROM player_flags WHERE player_id = ? AND flag = ?",
                (player_id, flag),
            )
        )

    # --- tables and seats ------------------------------------------------------------------------

    async def create_table(
        self,
        chat_id: int,
        topic_id: int | None,
        settings: TableSettings,
        scorekeeper: bool = False,
        game: str = "bridge",
    ) -> Table:
        async with self._tx() as db:
            cur = await db.execute(
                "INSERT INTO tables (chat_id, topic_id, status, game, options, "
                "language, turn_timer, scorekeeper, created_at, token) "
                "VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?)",
                (
                    chat_id,
                    topic_id,
                    game,
                    *_settings_row(settings),
                    int(scorekeeper),
                    _now(),
                    secrets.token_hex(8),
                ),
            )
            table_id = cur.lastrowid
        assert table_id is not None
        return await self.get_table(table_id)

    async def get_table(self, table_id: int) -> Table:
        row = await self._one("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            raise NotFound(f"table {table_id}")
        return await self._table(row)

    async def _table(self, row: sqlite3.Row) -> Table:
        return (await self._tables([row]))[0]

    async def _tables(self, rows: list[sqlite3.Row]) -> list[Table]:
        """Tables with their seats and latest deal, in two queries however many there are."""
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        marks = ",".join("?" * len(ids))
        seats: dict[int, dict[int, int]] = {i: {} for i in ids}
        for r in await self._all(
            f"SELECT table_id, seat, player_id FROM seats WHERE table_id IN ({marks})", tuple(ids)
        ):
            seats[r["table_id"]][r["seat"]] = r["player_id"]
        current = {
            r["table_id"]: r["n"]
            for r in await self._all(
                f"SELECT table_id, max(deal_no) AS n FROM deals WHERE table_id IN ({marks}) "
                "GROUP BY table_id",
                tuple(ids),
            )
        }
        return [
            Table(
                id=row["id"],
                chat_id=row["chat_id"],
                topic_id=row["topic_id"],
                status=TableStatus(row["status"]),
                settings=TableSettings(
                    language=row["language"],
                    turn_timer=row["turn_timer"],
                    options=json.loads(row["options"]),
                ),
                seats=seats[row["id"]],
                current_deal=current.get(row["id"], 0),
                match_id=row["match_id"],
                scorekeeper=bool(row["scorekeeper"]),
                token=row["token"] or "",
                game=row["game"],
            )
            for row in rows
        ]

    async def table_in(
        self, chat_id: int, topic_id: int | None, scorekeeper: bool = False
    ) -> Table | None:
        row = await self._one(
            "SELECT * FROM tables WHERE chat_id = ? AND topic_id IS ? AND status != 'closed' "
            "AND scorekeeper = ? ORDER BY id DESC LIMIT 1",
            (chat_id, topic_id, int(scorekeeper)),
        )
        return None if row is None else await self._table(row)

    async def tables_of_player(self, player_id: int) -> list[Table]:
        rows = await self._all(
            "SELECT t.* FROM tables t JOIN seats s ON s.table_id = t.id "
            "WHERE s.player_id = ? AND t.status != 'closed' ORDER BY t.id",
            (player_id,),
        )
        return await self._tables(rows)

    async def table_by_token(self, token: str) -> Table | None:
        row = await self._one("SELECT * FROM tables WHERE token = ?", (token,))
        return None if row is None else await self._table(row)

    async def load_bundles(self, table_ids: Sequence[int] | None = None) -> list[TableBundle]:
        if table_ids is None:
            rows = await self._all(
                "SELECT * FROM tables WHERE status != 'closed' AND scorekeeper = 0 ORDER BY id"
            )
        else:
            rows = []
            for chunk in _chunks(list(table_ids)):
                rows += await self._all(
                    f"SELECT * FROM tables WHERE id IN ({_marks(chunk)}) ORDER BY id", tuple(chunk)
                )
        tables = await self._tables(rows)
        chat_ids = sorted({t.chat_id for t in tables})
        player_ids = sorted({pid for t in tables for pid in t.seats.values()})
        match_ids = sorted({t.match_id for t in tables if t.match_id is not None})
        chats = {
            r["id"]: _chat(r) for r in await self._many("SELECT * FROM chats WHERE id", chat_ids)
        }
        players = {
            r["id"]: _player(r)
            for r in await self._many("SELECT * FROM players WHERE id", player_ids)
        }
        flags: dict[int, set[str]] = {}
        for r in await self._many("SELECT * FROM player_flags WHERE player_id", player_ids):
            flags.setdefault(r["player_id"], set()).add(r["flag"])
        deals: dict[int, list[DealSummary]] = {}
        for r in await self._many(
            "SELECT * FROM deals WHERE match_id", match_ids, "ORDER BY match_id, deal_no"
        ):
            deals.setdefault(r["match_id"], []).append(_summary(r))
        events: dict[int, list[Event]] = {}
        current = [(t.id, t.current_deal) for t in tables if t.current_deal]
        for chunk in _chunks(current):
            pairs = ",".join("(?, ?)" for _ in chunk)
            for r in await self._all(
                f"SELECT * FROM events WHERE (table_id, deal_no) IN (VALUES {pairs}) "
                "ORDER BY table_id, seq",
                tuple(x for pair in chunk for x in pair),
            ):
                events.setdefault(r["table_id"], []).append(_event(r))
        return [
            TableBundle(
                table=t,
                chat=chats[t.chat_id],
                players={pid: players[pid] for pid in t.seats.values()},
                match_deals=deals.get(t.match_id, []) if t.match_id is not None else [],
                events=events.get(t.id, []),
                flags={pid: frozenset(flags.get(pid, ())) for pid in t.seats.values()},
            )
            for t in tables
        ]

    async def _many(self, head: str, ids: list[int], tail: str = "") -> list[sqlite3.Row]:
        """``head IN (ids) tail``, in chunks that stay under SQLite's variable limit."""
        rows: list[sqlite3.Row] = []
        for chunk in _chunks(ids):
            rows += await self._all(f"{head} IN ({_marks(chunk)}) {tail}", tuple(chunk))
        return rows

    async def update_settings(self, table_id: int, settings: TableSettings) -> None:
        async with self._tx() as db:
            await db.execute(
                "UPDATE tables SET options = ?, language = ?, turn_timer = ? WHERE id = ?",
                (*_settings_row(settings), table_id),
            )

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE tables SET status = ? WHERE id = ?", (status.value, table_id))

    async def set_seat(self, table_id: int, seat: int, player_id: int | None) -> None:
        async with self._tx() as db:
            await db.execute(
                "DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, int(seat))
            )
            if player_id is not None:
                try:
                    await db.execute(
                        "INSERT INTO seats (table_id, seat, player_id) VALUES (?, ?, ?)",
                        (table_id, int(seat), player_id),
                    )
                except sqlite3.IntegrityError as exc:
                    raise ConflictError(f"player {player_id} already sits at {table_id}") from exc

    # --- kept messages ---------------------------------------------------------------------------

    async def set_message(self, table_id: int, key: str, tg_chat_id: int, message_id: int) -> None:
        await self._batched(
            "INSERT INTO kept_messages (table_id, key, tg_chat_id, message_id) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (table_id, key) DO UPDATE SET "
            "tg_chat_id = excluded.tg_chat_id, message_id = excluded.message_id",
            (table_id, key, tg_chat_id, message_id),
        )

    async def messages(self, table_id: int) -> dict[str, tuple[int, int]]:
        rows = await self._all(
            "SELECT key, tg_chat_id, message_id FROM kept_messages WHERE table_id = ?", (table_id,)
        )
        return {r["key"]: (r["tg_chat_id"], r["message_id"]) for r in rows}

    async def message(self, table_id: int, key: str) -> tuple[int, int] | None:
        row = await self._one(
            "SELECT tg_chat_id, message_id FROM kept_messages WHERE table_id = ? AND key = ?",
            (table_id, key),
        )
        return None if row is None else (row["tg_chat_id"], row["message_id"])

    # --- deals and events ---------------------------------------------------------------------

    async def start_deal(
        self,
        table_id: int,
        deal_no: int,
        payload: Mapping[str, Any],
        player_id: int | None,
        update_key: str | None = None,
        kind: str = "deal",
    ) -> Event:
        at = _now()
        async with self._tx() as db:
            if update_key is not None:
                await self._mark_applied(db, update_key, table_id, deal_no, at)
            table = await self._one("SELECT match_id FROM tables WHERE id = ?", (table_id,))
            if table is None:
                raise NotFound(f"table {table_id}")
            try:
                await db.execute(
                    "INSERT INTO deals (table_id, deal_no, match_id) VALUES (?, ?, ?)",
                    (table_id, deal_no, table["match_id"]),
                )
                await db.execute(
                    "INSERT INTO events (table_id, deal_no, seq, kind, payload, player_id, at) "
                    "VALUES (?, ?, 0, ?, ?, ?, ?)",
                    (table_id, deal_no, kind, json.dumps(dict(payload)), player_id, at),
                )
            except sqlite3.IntegrityError as exc:
                raise ConflictError(f"deal {table_id}/{deal_no} exists") from exc
        return Event(table_id, deal_no, 0, kind, dict(payload), player_id, at)

    async def append_event(
        self,
        table_id: int,
        deal_no: int,
        seq: int,
        kind: str,
        payload: Mapping[str, Any],
        player_id: int | None,
    ) -> Event:
        at = _now()
        row = (table_id, deal_no, seq, kind, json.dumps(dict(payload)), player_id, at)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._appends.append((row, done))
        self._kick_writer()
        await done  # resolved only after COMMIT; ConflictError if the key was taken
        return Event(table_id, deal_no, seq, kind, dict(payload), player_id, at)

    async def _batched(self, sql: str, args: tuple[Any, ...]) -> None:
        """A statement that cannot conflict, committed with whatever else is waiting: under load
        a thousand tables' kept-message ids and deal results cost one fsync, not a thousand."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._statements.append((sql, args, done))
        self._kick_writer()
        await done

    def _kick_writer(self) -> None:
        if self._appender is None or self._appender.done():
            self._appender = asyncio.create_task(self._commit_waiting(), name="sqlite:writer")

    async def _commit_waiting(self) -> None:
        """Write every waiting event and statement in one transaction (one fsync for the lot),
        until none wait. A failing statement fails the whole batch: each writer gets the error.

        Under load each commit carries the events of many tables; alone, an event is committed
        by itself as before. A key already in the table, or twice in one batch, fails only its
        own writer with ConflictError: the write lock is held from the check to the insert.
        """
        while self._appends or self._statements:
            batch, self._appends = self._appends, []
            statements, self._statements = self._statements, []
            accepted: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
            rejected: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
            try:
                async with self._tx() as db:
                    taken: set[tuple[int, int, int]] = set()
                    keys = list({row[:3] for row, _ in batch})
                    for chunk in _chunks(keys, 300):
                        values = ", ".join("(?, ?, ?)" for _ in chunk)
                        sql = (
                            "SELECT table_id, deal_no, seq FROM events "
                            f"WHERE (table_id, deal_no, seq) IN (VALUES {values})"
                        )
                        args = tuple(v for key in chunk for v in key)
                        async with db.execute(sql, args) as cur:
                            taken.update((r[0], r[1], r[2]) for r in await cur.fetchall())
                    for row, done in batch:
                        if row[:3] in taken:
                            rejected.append((row, done))
                        else:
                            taken.add(row[:3])
                            accepted.append((row, done))
                    if accepted:
                        await db.executemany(
                            "INSERT INTO events "
                            "(table_id, deal_no, seq, kind, payload, player_id, at) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)",
                            [row for row, _ in accepted],
                        )
                    for sql, args, _ in statements:
                        await db.execute(sql, args)
            except BaseException as exc:
                error = exc if isinstance(exc, Exception) else StorageError("storage closed")
                for done in [d for _, d in batch] + [d for _, _, d in statements]:
                    if not done.done():
                        done.set_exception(error)
                if not isinstance(exc, Exception):
                    raise
                continue
            for done in [d for _, d in accepted] + [d for _, _, d in statements]:
                if not done.done():
                    done.set_result(None)
            for row, done in rejected:
                if not done.done():
                    done.set_exception(ConflictError("event {}/{}/{} exists".format(*row[:3])))

    async def _mark_applied(
        self, db: aiosqlite.Connection, key: str, table_id: int, deal_no: int, at: str
    ) -> None:
        """Record a Telegram update as applied, inside the caller's transaction. Telegram
        redelivers for a day at most: older records are dropped on the way."""
        try:
            await db.execute(
                "INSERT INTO applied_updates (update_key, table_id, deal_no, at) "
                "VALUES (?, ?, ?, ?)",
                (key, table_id, deal_no, at),
            )
        except sqlite3.IntegrityError:
            raise AlreadyApplied(f"update {key} was applied before") from None
        horizon = (datetime.now(UTC) - timedelta(days=3)).isoformat(timespec="milliseconds")
        await db.execute("DELETE FROM applied_updates WHERE at < ?", (horizon,))

    async def events(self, table_id: int, deal_no: int) -> list[Event]:
        rows = await self._all(
            "SELECT * FROM events WHERE table_id = ? AND deal_no = ? ORDER BY seq",
            (table_id, deal_no),
        )
        return [_event(r) for r in rows]

    async def finish_deal(self, table_id: int, deal_no: int, result: Mapping[str, Any]) -> None:
        await self._batched(
            "UPDATE deals SET result = ? WHERE table_id = ? AND deal_no = ?",
            (json.dumps(dict(result)), table_id, deal_no),
        )

    async def deals(self, match_id: int) -> list[DealSummary]:
        rows = await self._all(
            "SELECT * FROM deals WHERE match_id = ? ORDER BY deal_no", (match_id,)
        )
        return [_summary(r) for r in rows]

    # --- matches and ledger ---------------------------------------------------------------------

    async def start_match(self, table_id: int, seats: Mapping[int, int]) -> Match:
        async with self._tx() as db:
            table = await self._one(
                "SELECT chat_id, game, options FROM tables WHERE id = ?", (table_id,)
            )
            if table is None:
                raise NotFound(f"table {table_id}")
            cur = await db.execute(
                "INSERT INTO matches (table_id, chat_id, game, options, seats, started_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    table_id,
                    table["chat_id"],
                    table["game"],
                    table["options"],
                    _seats_json(seats),
                    _now(),
                ),
            )
            match_id = cur.lastrowid
            await db.execute(
                "UPDATE tables SET match_id = ?, status = 'playing' WHERE id = ?",
                (match_id, table_id),
            )
        assert match_id is not None
        return await self.get_match(match_id)

    async def get_match(self, match_id: int) -> Match:
        row = await self._one("SELECT * FROM matches WHERE id = ?", (match_id,))
        if row is None:
            raise NotFound(f"match {match_id}")
        return _match(row)

    async def finish_match(
        self,
        match_id: int,
        result: Mapping[str, Any],
        entries: Mapping[int, int],
        seats: Mapping[int, int],
        unfinished: bool = False,
    ) -> None:
        check_balanced(entries)
        at = _now()
        txn = uuid.uuid4().hex
        async with self._tx() as db:
            row = await self._one(
                "SELECT chat_id, table_id, finished_at FROM matches WHERE id = ?", (match_id,)
            )
            if row is None:
                raise NotFound(f"match {match_id}")
            if row["finished_at"] is not None:
                raise ConflictError(f"match {match_id} is already finished")
            await db.execute(
                "UPDATE matches SET finished_at = ?, result = ?, seats = ?, unfinished = ? "
                "WHERE id = ?",
                (at, json.dumps(dict(result)), _seats_json(seats), int(unfinished), match_id),
            )
            await db.executemany(
                "INSERT INTO ledger (chat_id, player_id, points, kind, match_id, txn, at) "
                "VALUES (?, ?, ?, 'match', ?, ?, ?)",
                [(row["chat_id"], p, pts, match_id, txn, at) for p, pts in entries.items()],
            )
            await db.execute(
                "UPDATE tables SET match_id = NULL WHERE id = ? AND match_id = ?",
                (row["table_id"], match_id),
            )
            total = await self._scalar("SELECT sum(points) FROM ledger WHERE txn = ?", (txn,))
            check_balanced([total])

    async def matches(self, chat_id: int, limit: int = 20) -> list[Match]:
        rows = await self._all(
            "SELECT * FROM matches WHERE chat_id = ? AND finished_at IS NOT NULL "
            "ORDER BY finished_at DESC, id DESC LIMIT ?",
            (chat_id, limit),
        )
        return [_match(r) for r in rows]

    async def record_payment(
        self,
        chat_id: int,
        payer_id: int,
        payee_id: int,
        points: int,
        note: str = "",
        expected_size: int | None = None,
    ) -> None:
        if not 0 < points <= MAX_PAYMENT or payer_id == payee_id:
            raise StorageError("a payment is a positive amount between two players")
        at = _now()
        txn = uuid.uuid4().hex
        async with self._tx() as db:
            if expected_size is not None and expected_size != await self.ledger_size(chat_id):
                raise ConflictError("the ledger changed since the button was made")
            await db.executemany(
                "INSERT INTO ledger (chat_id, player_id, points, kind, txn, note, at) "
                "VALUES (?, ?, ?, 'payment', ?, ?, ?)",
                [
                    (chat_id, payer_id, points, txn, note, at),
                    (chat_id, payee_id, -points, txn, note, at),
                ],
            )

    async def ledger(self, chat_id: int) -> list[LedgerRow]:
        rows = await self._all("SELECT * FROM ledger WHERE chat_id = ? ORDER BY id", (chat_id,))
        return [
            LedgerRow(
                r["id"],
                r["chat_id"],
                r["player_id"],
                r["points"],
                r["kind"],
                r["match_id"],
                r["txn"],
                r["note"],
                r["at"],
            )
            for r in rows
        ]

    async def balances(self, chat_id: int) -> dict[int, int]:
        rows = await self._all(
            "SELECT player_id, sum(points) AS total FROM ledger WHERE chat_id = ? "
            "GROUP BY player_id",
            (chat_id,),
        )
        return {r["player_id"]: r["total"] for r in rows}

    async def ledger_size(self, chat_id: int) -> int:
        return await self._scalar("SELECT count(*) FROM ledger WHERE chat_id = ?", (chat_id,))

    async def match_counts(self, chat_id: int) -> dict[int, int]:
        rows = await self._all(
            "SELECT player_id, count(*) AS n FROM ledger WHERE chat_id = ? AND kind = 'match' "
            "GROUP BY player_id",
            (chat_id,),
        )
        return {r["player_id"]: r["n"] for r in rows}


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies (``BEGIN … END;``) whole."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


def _damaged(path: str, detail: str) -> str:
    return f"database {path!r} is damaged ({detail}): restore it from a backup"


def _take_lock(path: str) -> IO[bytes]:
    """One bot process per database: an exclusive lock on the database file itself, so the
    same file reached through a symlink or a hard link is refused too (a lock on a side file
    named after the path was not). The handle stays open for the life of the storage: closing
    another handle of the file would drop SQLite's own locks."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise StorageError(f"the folder of database {path!r} does not exist: {folder}")
    try:
        handle = open(path, "ab")  # noqa: SIM115 - held open for the storage's life
    except OSError as exc:
        raise StorageError(f"cannot open database {path!r}: {exc.strerror}") from exc
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise DatabaseLocked(
            f"{path!r} is in use by another bot process; stop it or use another BRIDGE_DB"
        ) from None
    return handle


def _release(lock: IO[bytes] | None) -> None:
    if lock is not None:
        with contextlib.suppress(OSError):
            fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def _chunks(items: list[Any], size: int = 400) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _marks(items: list[Any]) -> str:
    return ",".join("?" * len(items))


def _event(r: sqlite3.Row) -> Event:
    payload = json.loads(r["payload"])
    return Event(r["table_id"], r["deal_no"], r["seq"], r["kind"], payload, r["player_id"], r["at"])


def _summary(r: sqlite3.Row) -> DealSummary:
    result = None if r["result"] is None else json.loads(r["result"])
    return DealSummary(r["table_id"], r["deal_no"], r["match_id"], result)


def _settings_row(settings: TableSettings) -> tuple[str, str, int]:
    """The settings in the column order of ``tables`` (options, language, turn_timer)."""
    return (
        json.dumps(dict(settings.options), sort_keys=True),
        settings.language,
        settings.turn_timer,
    )


def _seats_json(seats: Mapping[int, int]) -> str:
    return json.dumps({str(int(seat)): pid for seat, pid in sorted(seats.items())})


def _chat(row: sqlite3.Row) -> Chat:
    settings = ChatSettings(
        row["stake"], row["currency"], Rounding(row["rounding"]), PaymentPolicy(row["payments"])
    )
    return Chat(row["id"], row["tg_chat_id"], row["title"], row["language"], settings)


def _player(row: sqlite3.Row) -> Player:
    return Player(row["id"], row["tg_user_id"], row["name"], row["language"], row["chat_id"])


def _match(row: sqlite3.Row) -> Match:
    return Match(
        id=row["id"],
        table_id=row["table_id"],
        chat_id=row["chat_id"],
        game=row["game"],
        options=json.loads(row["options"]),
        seats={int(seat): pid for seat, pid in json.loads(row["seats"]).items()},
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        result=None if row["result"] is None else json.loads(row["result"]),
        unfinished=bool(row["unfinished"]),
    )
