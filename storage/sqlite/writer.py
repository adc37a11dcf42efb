"""Group commit: events and simple statements that arrive while a commit is in flight go in the
next one, so a thousand tables' writes cost one fsync, not a thousand.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from storage.interface import (
    ConflictError,
    Event,
    StorageError,
)
from storage.sql.base import chunks, now
from storage.sqlite.connection import SqliteConnection


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
                    for chunk in chunks(keys, 300):
                        values = ", ".join("(?, ?, ?)" for _ in chunk)
                        sql = (
                            "SELECT table_id, deal_no, seq FROM events "
                            f"WHERE (table_id, deal_no, seq) IN (VALUES {values})"
                        )
                        args = tuple(v for key in chunk for v in key)
                        taken.update((r[0], r[1], r[2]) for r in await db.all(sql, args))
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
                    # a run of one statement (a thousand kept messages' ids) is one call into
                    # SQLite's thread, not one each: each call wakes the event loop once more
                    for sql, run in itertools.groupby(statements, key=lambda s: s[0]):
                        await db.executemany(sql, [args for _, args, _ in run])
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
