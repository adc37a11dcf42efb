"""Matches (rubbers, pulkas) and the group's ledger."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from storage.interface import (
    PRACTICE,
    UNIT,
    ConflictError,
    LedgerRow,
    MatchRecord,
    NotFound,
    StorageError,
    check_balanced,
    is_practice,
)
from storage.sql.base import Row, SqlStore, now
from storage.sql.tables import _seats_json

# A bound far above any real debt and far below the databases' 64-bit sums: a forged amount can
# never make the chat's balances overflow.
MAX_PAYMENT = 10**12


class LedgerRepository(SqlStore):
    """Matches and the ledger: a match's rows are written in one transaction summing to zero."""

    # --- matches and ledger ---------------------------------------------------------------------

    async def start_match(self, table_id: int, seats: Mapping[int, int]) -> MatchRecord:
        async with self._tx() as db:
            table = await db.one(
                "SELECT chat_id, game, options FROM tables WHERE id = ?", (table_id,)
            )
            if table is None:
                raise NotFound(f"table {table_id}")
            match_id = await db.scalar(
                "INSERT INTO matches (table_id, chat_id, game, options, seats, started_at) "
                "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    table_id,
                    table["chat_id"],
                    table["game"],
                    table["options"],
                    _seats_json(seats),
                    now(),
                ),
            )
            await db.execute(
                "UPDATE tables SET match_id = ?, status = 'playing' WHERE id = ?",
                (match_id, table_id),
            )
        return await self.get_match(match_id)

    async def get_match(self, match_id: int) -> MatchRecord:
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
        *,
        unit: str,
    ) -> None:
        check_balanced(entries)
        _check_unit(unit, practice=True)
        at = now()
        txn = uuid.uuid4().hex
        async with self._tx() as db:
            row = await db.one(
                "SELECT chat_id, table_id, finished_at FROM matches WHERE id = ?" + self.FOR_UPDATE,
                (match_id,),
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
                "INSERT INTO ledger (chat_id, player_id, points, kind, match_id, txn, at, unit) "
                "VALUES (?, ?, ?, 'match', ?, ?, ?, ?)",
                [(row["chat_id"], p, pts, match_id, txn, at, unit) for p, pts in entries.items()],
            )
            await db.execute(
                "UPDATE tables SET match_id = NULL WHERE id = ? AND match_id = ?",
                (row["table_id"], match_id),
            )
            total = await db.scalar(
                "SELECT CAST(sum(points) AS BIGINT) FROM ledger WHERE txn = ?", (txn,)
            )
            check_balanced([total])

    async def matches(self, chat_id: int, limit: int = 20) -> list[MatchRecord]:
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
        *,
        unit: str,
    ) -> None:
        _check_unit(unit)
        if not 0 < points <= MAX_PAYMENT or payer_id == payee_id:
            raise StorageError("a payment is a positive amount between two players")
        at = now()
        txn = uuid.uuid4().hex
        async with self._tx() as db:
            # The chat's row is the lock that orders its payments.
            await db.execute("SELECT id FROM chats WHERE id = ?" + self.FOR_UPDATE, (chat_id,))
            size = await db.scalar("SELECT count(*) FROM ledger WHERE chat_id = ?", (chat_id,))
            if expected_size is not None and expected_size != size:
                raise ConflictError("the ledger changed since the button was made")
            await db.executemany(
                "INSERT INTO ledger (chat_id, player_id, points, kind, txn, note, at, unit) "
                "VALUES (?, ?, ?, 'payment', ?, ?, ?, ?)",
                [
                    (chat_id, payer_id, points, txn, note, at, unit),
                    (chat_id, payee_id, -points, txn, note, at, unit),
                ],
            )

    async def merge_accounts(self, chat_id: int, from_id: int, to_id: int, note: str) -> None:
        if from_id == to_id:
            raise StorageError("an account merges into another")
        at = now()
        txn = uuid.uuid4().hex
        async with self._tx() as db:
            await db.execute("SELECT id FROM chats WHERE id = ?" + self.FOR_UPDATE, (chat_id,))
            rows = await db.all(
                "SELECT unit, sum(points) AS total FROM ledger "
                "WHERE chat_id = ? AND player_id = ? GROUP BY unit ORDER BY unit",
                (chat_id, from_id),
            )
            moves = [(str(r["unit"]), int(r["total"])) for r in rows if int(r["total"])]
            await db.executemany(
                "INSERT INTO ledger (chat_id, player_id, points, kind, txn, note, at, unit) "
                "VALUES (?, ?, ?, 'payment', ?, ?, ?, ?)",
                [
                    row
                    for unit, total in moves
                    for row in (
                        (chat_id, from_id, -total, txn, note, at, unit),
                        (chat_id, to_id, total, txn, note, at, unit),
                    )
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
                r["unit"],
            )
            for r in rows
        ]

    async def balances(self, chat_id: int, unit: str) -> dict[int, int]:
        rows = await self._all(
            "SELECT player_id, CAST(sum(points) AS BIGINT) AS total FROM ledger "
            "WHERE chat_id = ? AND unit = ? GROUP BY player_id ORDER BY player_id",
            (chat_id, unit),
        )
        return {r["player_id"]: r["total"] for r in rows}

    async def accounts(self, chat_id: int) -> dict[str, dict[int, int]]:
        rows = await self._all(
            "SELECT unit, player_id, CAST(sum(points) AS BIGINT) AS total FROM ledger "
            "WHERE chat_id = ? AND substr(unit, 1, ?) != ? GROUP BY unit, player_id "
            "ORDER BY unit, player_id",
            (chat_id, len(PRACTICE), PRACTICE),  # every game's practice (``is_practice``)
        )
        found: dict[str, dict[int, int]] = {}
        for r in rows:
            found.setdefault(r["unit"], {})[r["player_id"]] = r["total"]
        return found

    async def ledger_size(self, chat_id: int) -> int:
        return await self._scalar("SELECT count(*) FROM ledger WHERE chat_id = ?", (chat_id,))

    async def match_counts(self, chat_id: int) -> dict[int, int]:
        rows = await self._all(
            "SELECT player_id, count(*) AS n FROM ledger WHERE chat_id = ? AND kind = 'match' "
            "GROUP BY player_id",
            (chat_id,),
        )
        return {r["player_id"]: r["n"] for r in rows}


def _check_unit(unit: str, practice: bool = False) -> None:
    """A ledger row counts a game's unit (any name of ``UNIT``'s shape), money (``CENTS``), or
    practice points (a match's only: never paid)."""
    if not UNIT.match(unit) or (is_practice(unit) and not practice):
        raise StorageError(f"a ledger row cannot count {unit!r}")


def _match(row: Row) -> MatchRecord:
    return MatchRecord(
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
