"""Deals and their append-only event logs."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from storage.interface import (
    AlreadyApplied,
    ConflictError,
    DealSummary,
    Event,
    NotFound,
)
from storage.sql.base import Duplicate, Row, SqlStore, Tx, now


class DealRepository(SqlStore):
    """Deals and their events, in the order they were played."""

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
        at = now()
        async with self._tx() as db:
            if update_key is not None:
                await self._mark_applied(db, update_key, table_id, deal_no, at)
            table = await db.one("SELECT match_id FROM tables WHERE id = ?", (table_id,))
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
            except Duplicate as exc:
                raise ConflictError(f"deal {table_id}/{deal_no} exists") from exc
        return Event(table_id, deal_no, 0, kind, dict(payload), player_id, at)

    async def _mark_applied(self, db: Tx, key: str, table_id: int, deal_no: int, at: str) -> None:
        """Record a Telegram update as applied, inside the caller's transaction. Telegram
        redelivers for a day at most: older records are dropped on the way."""
        try:
            await db.execute(
                "INSERT INTO applied_updates (update_key, table_id, deal_no, at) "
                "VALUES (?, ?, ?, ?)",
                (key, table_id, deal_no, at),
            )
        except Duplicate:
            raise AlreadyApplied(f"update {key} was applied before") from None
        horizon = (datetime.now(UTC) - timedelta(days=3)).isoformat(timespec="milliseconds")
        await db.execute("DELETE FROM applied_updates WHERE at < ?", (horizon,))

    async def events(self, table_id: int, deal_no: int) -> list[Event]:
        rows = await self._all(
            "SELECT * FROM events WHERE table_id = ? AND deal_no = ? ORDER BY seq",
            (table_id, deal_no),
        )
        return [event_of(r) for r in rows]

    async def finish_deal(self, table_id: int, deal_no: int, result: Mapping[str, Any]) -> None:
        await self._batched(
            "UPDATE deals SET result = ? WHERE table_id = ? AND deal_no = ?",
            (json.dumps(dict(result)), table_id, deal_no),
        )

    async def deals(self, match_id: int) -> list[DealSummary]:
        rows = await self._all(
            "SELECT * FROM deals WHERE match_id = ? ORDER BY deal_no", (match_id,)
        )
        return [summary_of(r) for r in rows]


def event_of(r: Row) -> Event:
    payload = json.loads(r["payload"])
    return Event(r["table_id"], r["deal_no"], r["seq"], r["kind"], payload, r["player_id"], r["at"])


def summary_of(r: Row) -> DealSummary:
    result = None if r["result"] is None else json.loads(r["result"])
    return DealSummary(r["table_id"], r["deal_no"], r["match_id"], result)
