"""Group commit: events and simple statements that arrive while a commit is in flight go in the
next one, so a thousand tables' writes cost one fsync, not a thousand.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from storage.interface import (
    ConflictError,
    DatabaseLocked,
    Event,
    StorageError,
)
from storage.sql.base import chunks, now
from storage.sqlite.connection import SqliteConnection, _duplicates


class GroupCommitWriter(SqliteConnection):
    async def append_event(
        self,
        table_id: int,
        deal_no: int,
        seq: int,
        kind: str,
        payload: Mapping[str, Any],
        player_id: int | None,
    ) -> Event:
        at = now()
        row = (table_id, deal_no, seq, kind, json.dumps(dict(payload)), player_id, at)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._appends.append((row, done))
        self._kick_writer()
        await done  # resolved only after COMMIT; ConflictError if the key was taken
        return Event(table_id, deal_no, seq, kind, dict(payload), player_id, at)

    async def _batched(self, sql: str, args: Sequence[Any]) -> None:
        """A statement that cannot conflict, committed with whatever else is waiting: under load
        a thousand tables' kept-message ids and deal results cost one fsync, not a thousand."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._statements.append((sql, tuple(args), done))
        self._kick_writer()
        await done

    async def _batched_together(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
        """Appended at once, so they land in the same batch (one transaction)."""
        loop = asyncio.get_running_loop()
        waiting = [(sql, tuple(args), loop.create_future()) for sql, args in statements]
        self._statements.extend(waiting)
        self._kick_writer()
        for _, _, done in waiting:
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
        The whole transaction is one call into SQLite's thread (``_batch``): each call wakes
        the event loop once, and a press's lone event was four of them.
        """
        while self._appends or self._statements:
            batch, self._appends = self._appends, []
            statements, self._statements = self._statements, []
            rows = [row for row, _ in batch]
            runs = [
                (sql, [args for _, args, _ in run])
                for sql, run in itertools.groupby(statements, key=lambda s: s[0])
            ]
            try:
                async with self._busy:
                    taken = await self._on_thread(_batch, self.path, rows, runs)
            except BaseException as exc:
                error = exc if isinstance(exc, Exception) else StorageError("storage closed")
                for done in [d for _, d in batch] + [d for _, _, d in statements]:
                    if not done.done():
                        done.set_exception(error)
                if not isinstance(exc, Exception):
                    raise
                continue
            for (row, done), conflict in zip(batch, taken, strict=True):
                if done.done():
                    continue
                if conflict:
                    done.set_exception(ConflictError("event {}/{}/{} exists".format(*row[:3])))
                else:
                    done.set_result(None)
            for _, _, done in statements:
                if not done.done():
                    done.set_result(None)


_INSERT_EVENTS = (
    "INSERT INTO events (table_id, deal_no, seq, kind, payload, player_id, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _batch(
    db: sqlite3.Connection,
    path: str,
    rows: list[tuple[Any, ...]],
    runs: list[tuple[str, list[tuple[Any, ...]]]],
) -> list[bool]:
    """On SQLite's thread, one transaction: the events whose keys are free, then the statements,
    committed together. Which events' keys were taken already (or twice in the batch).

    >>> db = sqlite3.connect(":memory:", isolation_level=None)
    >>> _ = db.execute("CREATE TABLE events (table_id, deal_no, seq, kind, payload, "
    ...                "player_id, at, PRIMARY KEY (table_id, deal_no, seq))")
    >>> _ = db.execute("CREATE TABLE t (x)")
    >>> row = (1, 1, 1, "call", "{}", None, "now")
    >>> more = [("INSERT INTO t VALUES (?)", [(5,), (6,)])]
    >>> _batch(db, ":memory:", [row, row, (1, 1, 2, "call", "{}", None, "now")], more)
    [False, True, False]
    >>> _batch(db, ":memory:", [row], [])
    [True]
    >>> db.execute("SELECT count(*) FROM events").fetchone(), db.in_transaction
    ((2,), False)
    """
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        raise DatabaseLocked(f"{path!r} is busy: {exc}") from exc
    try:
        taken: set[tuple[Any, ...]] = set()
        keys = list({row[:3] for row in rows})
        for chunk in chunks(keys, 300):
            # Joined, not ``(table_id, deal_no, seq) IN (VALUES ...)``: SQLite plans that, with
            # two keys or more, as a scan of every event ever written.
            values = ", ".join("(?, ?, ?)" for _ in chunk)
            sql = (
                f"WITH k (t, d, s) AS (VALUES {values}) SELECT e.table_id, e.deal_no, e.seq "
                "FROM k JOIN events e ON e.table_id = k.t AND e.deal_no = k.d AND e.seq = k.s"
            )
            args = tuple(v for key in chunk for v in key)
            taken.update(tuple(r) for r in db.execute(sql, args))
        conflicts = []
        accepted = []
        for row in rows:
            conflict = row[:3] in taken
            conflicts.append(conflict)
            if not conflict:
                taken.add(row[:3])
                accepted.append(row)
        if accepted:
            db.executemany(_INSERT_EVENTS, accepted)
        # a run of one statement (a thousand kept messages' ids) is one executemany
        with _duplicates():
            for sql, run in runs:
                db.executemany(sql, run)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return conflicts
