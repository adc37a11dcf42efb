"""Deals' double-dummy reviews and the players' counts from them (#32)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from storage.interface import DealSummary, PlayerDeal
from storage.sql.base import Row, SqlStore
from storage.sql.deals import summary_of


class ReviewRepository(SqlStore):
    """Reviews are written once per deal, by the bot's reviewer, after the deal is over."""

    async def unreviewed(
        self, after: tuple[int, int] = (0, 0), limit: int = 50, table_id: int | None = None
    ) -> list[DealSummary]:
        one_table = "" if table_id is None else "AND d.table_id = ? "
        rows = await self._all(
            "SELECT d.* FROM deals d "
            "LEFT JOIN deal_reviews r ON r.table_id = d.table_id AND r.deal_no = d.deal_no "
            "WHERE d.result IS NOT NULL AND r.table_id IS NULL "
            "AND (d.table_id > ? OR (d.table_id = ? AND d.deal_no > ?)) "
            + one_table
            + "ORDER BY d.table_id, d.deal_no LIMIT ?",
            (after[0], after[0], after[1], *(() if table_id is None else (table_id,)), limit),
        )
        return [summary_of(r) for r in rows]

    async def record_review(
        self,
        table_id: int,
        deal_no: int,
        chat_id: int,
        game: str,
        day: str,
        review: Mapping[str, Any],
        players: Sequence[PlayerDeal],
    ) -> None:
        # A deal reviewed again (two processes racing) keeps its first review: nothing here can
        # fail a batch it shares with others' writes.
        statements: list[tuple[str, Sequence[Any]]] = [
            (
                "INSERT INTO deal_reviews (table_id, deal_no, chat_id, game, day, review) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (table_id, deal_no, chat_id, game, day, json.dumps(dict(review))),
            )
        ]
        statements += [
            (
                "INSERT INTO player_deals (table_id, deal_no, player_id, chat_id, game, day, "
                "robot, stats) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    p.table_id,
                    p.deal_no,
                    p.player_id,
                    p.chat_id,
                    p.game,
                    p.day,
                    int(p.robot),
                    json.dumps(dict(p.stats)),
                ),
            )
            for p in players
        ]
        await self._batched_together(statements)

    async def review_of(self, table_id: int, deal_no: int) -> Mapping[str, Any] | None:
        row = await self._one(
            "SELECT review FROM deal_reviews WHERE table_id = ? AND deal_no = ?",
            (table_id, deal_no),
        )
        return None if row is None else dict(json.loads(row["review"]))

    async def player_deals(
        self, chat_id: int | None = None, player_id: int | None = None, since: str = ""
    ) -> list[PlayerDeal]:
        where, args = ["day >= ?"], list[Any]([since])
        if chat_id is not None:
            where.append("chat_id = ?")
            args.append(chat_id)
        if player_id is not None:
            where.append("player_id = ?")
            args.append(player_id)
        rows = await self._all(
            "SELECT * FROM player_deals WHERE " + " AND ".join(where) + " ORDER BY day, table_id, "
            "deal_no, player_id",
            tuple(args),
        )
        return [player_deal_of(r) for r in rows]


def player_deal_of(r: Row) -> PlayerDeal:
    return PlayerDeal(
        r["table_id"],
        r["deal_no"],
        r["player_id"],
        r["chat_id"],
        r["game"],
        r["day"],
        bool(r["robot"]),
        {str(k): int(v) for k, v in json.loads(r["stats"]).items()},
    )
