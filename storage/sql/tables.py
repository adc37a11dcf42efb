"""Tables, their seats, the messages the bot keeps editing, and the bulk load at start-up."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence

from storage.interface import (
    ConflictError,
    DealSummary,
    Event,
    NotFound,
    Table,
    TableBundle,
    TableSettings,
    TableStatus,
)
from storage.sql.base import Duplicate, Row, SqlStore, chunks, marks, now
from storage.sql.chats import chat_of, player_of
from storage.sql.deals import event_of, summary_of

KEEP_MESSAGE = (
    "INSERT INTO kept_messages (table_id, key, tg_chat_id, message_id, digest) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, key) DO UPDATE SET "
    "tg_chat_id = excluded.tg_chat_id, message_id = excluded.message_id, "
    "digest = excluded.digest"
)


class TableRepository(SqlStore):
    """Tables, seats and kept messages; every active table loaded in bulk at start-up."""

    # --- tables and seats ------------------------------------------------------------------------

    async def create_table(
        self,
        chat_id: int,
        topic_id: int | None,
        settings: TableSettings,
        *,
        game: str,
        scorekeeper: bool = False,
    ) -> Table:
        async with self._tx() as db:
            table_id = await db.scalar(
                "INSERT INTO tables (chat_id, topic_id, status, game, options, "
                "language, turn_timer, hands, private_hands, scorekeeper, created_at, token) "
                "VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    chat_id,
                    topic_id,
                    game,
                    *_settings_row(settings),
                    int(scorekeeper),
                    now(),
                    secrets.token_hex(8),
                ),
            )
        return await self.get_table(table_id)

    async def get_table(self, table_id: int) -> Table:
        row = await self._one("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            raise NotFound(f"table {table_id}")
        return await self._table(row)

    async def _table(self, row: Row) -> Table:
        return (await self._tables([row]))[0]

    async def _tables(self, rows: list[Row]) -> list[Table]:
        """Tables with their seats and latest deal, in two queries however many there are."""
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        ids_in = marks(ids)
        seats: dict[int, dict[int, int]] = {i: {} for i in ids}
        for r in await self._all(
            f"SELECT table_id, seat, player_id FROM seats WHERE table_id IN ({ids_in})", tuple(ids)
        ):
            seats[r["table_id"]][r["seat"]] = r["player_id"]
        current = {
            r["table_id"]: r["n"]
            for r in await self._all(
                f"SELECT table_id, max(deal_no) AS n FROM deals WHERE table_id IN ({ids_in}) "
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
                    hands=row["hands"],
                    private_hands=_ids(row["private_hands"]),
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
            "SELECT * FROM tables WHERE chat_id = ? AND topic_id IS NOT DISTINCT FROM ? "
            "AND status != 'closed' "
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

    async def tables_in_chat(self, chat_id: int) -> list[Table]:
        rows = await self._all(
            "SELECT * FROM tables WHERE chat_id = ? AND status != 'closed' ORDER BY id",
            (chat_id,),
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
            for chunk in chunks(list(table_ids)):
                rows += await self._all(
                    f"SELECT * FROM tables WHERE id IN ({marks(chunk)}) ORDER BY id", tuple(chunk)
                )
        tables = await self._tables(rows)
        chat_ids = sorted({t.chat_id for t in tables})
        player_ids = sorted({pid for t in tables for pid in t.seats.values()})
        match_ids = sorted({t.match_id for t in tables if t.match_id is not None})
        chats = {
            r["id"]: chat_of(r) for r in await self._many("SELECT * FROM chats WHERE id", chat_ids)
        }
        players = {
            r["id"]: player_of(r)
            for r in await self._many("SELECT * FROM players WHERE id", player_ids)
        }
        flags: dict[int, set[str]] = {}
        for r in await self._many("SELECT * FROM player_flags WHERE player_id", player_ids):
            flags.setdefault(r["player_id"], set()).add(r["flag"])
        deals: dict[int, list[DealSummary]] = {}
        for r in await self._many(
            "SELECT * FROM deals WHERE match_id", match_ids, "ORDER BY match_id, deal_no"
        ):
            deals.setdefault(r["match_id"], []).append(summary_of(r))
        events: dict[int, list[Event]] = {}
        current = [(t.id, t.current_deal) for t in tables if t.current_deal]
        for chunk in chunks(current):
            # Typed, because PostgreSQL cannot guess a bare parameter's type in VALUES; joined,
            # because SQLite plans ``(table_id, deal_no) IN (VALUES ...)`` with two pairs or
            # more as a scan of every event ever written.
            pairs = ",".join("(CAST(? AS BIGINT), CAST(? AS BIGINT))" for _ in chunk)
            for r in await self._all(
                f"WITH k (t, d) AS (VALUES {pairs}) SELECT e.* FROM k JOIN events e "
                "ON e.table_id = k.t AND e.deal_no = k.d ORDER BY e.table_id, e.seq",
                tuple(x for pair in chunk for x in pair),
            ):
                events.setdefault(r["table_id"], []).append(event_of(r))
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

    async def _many(self, head: str, ids: list[int], tail: str = "") -> list[Row]:
        """``head IN (ids) tail``, in chunks that stay under either backend's parameter limit."""
        rows: list[Row] = []
        for chunk in chunks(ids):
            rows += await self._all(f"{head} IN ({marks(chunk)}) {tail}", tuple(chunk))
        return rows

    async def update_settings(self, table_id: int, settings: TableSettings) -> None:
        async with self._tx() as db:
            await db.execute(
                "UPDATE tables SET options = ?, language = ?, turn_timer = ?, hands = ?, "
                "private_hands = ? WHERE id = ?",
                (*_settings_row(settings), table_id),
            )

    async def set_status(self, table_id: int, status: TableStatus) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE tables SET status = ? WHERE id = ?", (status.value, table_id))

    async def set_game(self, table_id: int, game: str) -> None:
        async with self._tx() as db:
            await db.execute("UPDATE tables SET game = ? WHERE id = ?", (game, table_id))

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
                except Duplicate as exc:
                    raise ConflictError(f"player {player_id} already sits at {table_id}") from exc

    # --- kept messages ---------------------------------------------------------------------------

    async def set_message(
        self, table_id: int, key: str, tg_chat_id: int, message_id: int, digest: str = ""
    ) -> None:
        await self._batched(KEEP_MESSAGE, (table_id, key, tg_chat_id, message_id, digest))

    async def set_messages(self, rows: Sequence[tuple[int, str, int, int, str]]) -> None:
        if rows:
            await self._batched_together([(KEEP_MESSAGE, row) for row in rows])

    async def messages(self, table_id: int) -> dict[str, tuple[int, int]]:
        rows = await self._all(
            "SELECT key, tg_chat_id, message_id FROM kept_messages WHERE table_id = ?", (table_id,)
        )
        return {r["key"]: (r["tg_chat_id"], r["message_id"]) for r in rows}

    async def message(self, table_id: int, key: str) -> tuple[int, int, str] | None:
        row = await self._one(
            "SELECT tg_chat_id, message_id, digest FROM kept_messages "
            "WHERE table_id = ? AND key = ?",
            (table_id, key),
        )
        return None if row is None else (row["tg_chat_id"], row["message_id"], row["digest"])


def _settings_row(settings: TableSettings) -> tuple[str, str, int, str, str]:
    """The settings in the column order of ``tables`` (options, language, turn_timer, hands,
    private_hands)."""
    return (
        json.dumps(dict(settings.options), sort_keys=True),
        settings.language,
        settings.turn_timer,
        settings.hands,
        ",".join(map(str, sorted(settings.private_hands))),
    )


def _ids(text: str) -> frozenset[int]:
    """Player ids written by ``_settings_row`` ("" for none)."""
    return frozenset(int(i) for i in text.split(",") if i)


def _seats_json(seats: Mapping[int, int]) -> str:
    return json.dumps({str(int(seat)): pid for seat, pid in sorted(seats.items())})
