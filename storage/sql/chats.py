"""Chats (groups) and players."""

from __future__ import annotations

import json
import uuid

from storage.interface import (
    CENTS,
    UNIT,
    Chat,
    ChatSettings,
    NotFound,
    PaymentPolicy,
    Player,
    Rounding,
    StorageError,
)
from storage.sql.base import Row, SqlStore, Tx, now


class ChatRepository(SqlStore):
    """Chats and players rows."""

    # --- chats and players -------------------------------------------------------------------

    async def ensure_chat(self, tg_chat_id: int, title: str = "", language: str = "ru") -> Chat:
        async with self._tx() as db:
            await db.execute(
                "INSERT INTO chats (tg_chat_id, title, language, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (tg_chat_id) DO UPDATE SET title = CASE WHEN excluded.title != '' "
                "THEN excluded.title ELSE chats.title END",
                (tg_chat_id, title, language, now()),
            )
        chat = await self.chat_by_tg(tg_chat_id)
        assert chat is not None
        return chat

    async def chat_by_tg(self, tg_chat_id: int) -> Chat | None:
        row = await self._one("SELECT * FROM chats WHERE tg_chat_id = ?", (tg_chat_id,))
        return None if row is None else chat_of(row)

    async def get_chat(self, chat_id: int) -> Chat:
        row = await self._one("SELECT * FROM chats WHERE id = ?", (chat_id,))
        if row is None:
            raise NotFound(f"chat {chat_id}")
        return chat_of(row)

    async def migrate_chat(self, old_tg_chat_id: int, new_tg_chat_id: int) -> None:
        async with self._tx() as db:
            old = await db.one("SELECT id FROM chats WHERE tg_chat_id = ?", (old_tg_chat_id,))
            new = await db.one("SELECT id FROM chats WHERE tg_chat_id = ?", (new_tg_chat_id,))
            if old is None:
                return
            if new is not None:
                # The new id was seen first (an update from the supergroup raced the migration
                # message): it has no history worth keeping that the old chat lacks, so fold it.
                for table in (
                    "tables",
                    "matches",
                    "ledger",
                    "players",
                    "deal_reviews",
                    "player_deals",
                ):
                    await db.execute(
                        f"UPDATE {table} SET chat_id = ? WHERE chat_id = ?", (old["id"], new["id"])
                    )
                await db.execute("DELETE FROM chats WHERE id = ?", (new["id"],))
            await db.execute(
                "UPDATE chats SET tg_chat_id = ? WHERE id = ?", (new_tg_chat_id, old["id"])
            )

    async def update_chat_settings(self, chat_id: int, settings: ChatSettings) -> Chat:
        async with self._tx() as db:
            # The chat's row is the lock that orders its ledger's writes (as payments take it).
            row = await db.one("SELECT * FROM chats WHERE id = ?" + self.FOR_UPDATE, (chat_id,))
            if row is None:
                raise NotFound(f"chat {chat_id}")
            before = chat_of(row).settings
            paid = await db.scalar(
                "SELECT count(*) FROM ledger WHERE chat_id = ? AND unit = ?", (chat_id, CENTS)
            )
            for unit in sorted(before.prices) if paid else ():
                price = before.price(unit)
                if price and settings.price(unit) != price:
                    await self._settle_at(db, chat_id, unit, price, now())
            prices = {unit: int(price) for unit, price in sorted(settings.prices.items()) if price}
            if any(not UNIT.match(unit) or price < 0 for unit, price in prices.items()):
                raise StorageError(f"prices are hundredths per unit, named [a-z_]: {prices}")
            await db.execute(
                "UPDATE chats SET currency = ?, rounding = ?, payments = ?, prices = ?, "
                "stats_public = ? WHERE id = ?",
                (
                    settings.currency,
                    settings.rounding.value,
                    settings.payments.value,
                    json.dumps(prices),
                    int(settings.stats_public),
                    chat_id,
                ),
            )
        return await self.get_chat(chat_id)

    async def set_chat_language(self, chat_id: int, language: str) -> Chat:
        async with self._tx() as db:
            await db.execute("UPDATE chats SET language = ? WHERE id = ?", (language, chat_id))
        return await self.get_chat(chat_id)

    async def _settle_at(self, db: Tx, chat_id: int, unit: str, price: int, at: str) -> None:
        """Money was paid at ``price`` for ``unit``: before its price changes, every account in
        that unit is turned into money at the old price (one entry, summing to zero), so that
        what was paid stays paid and nobody is asked to pay a payment back."""
        rows = await db.all(
            "SELECT player_id, CAST(sum(points) AS BIGINT) AS total FROM ledger "
            "WHERE chat_id = ? AND unit = ? GROUP BY player_id ORDER BY player_id",
            (chat_id, unit),
        )
        held = [(r["player_id"], int(r["total"])) for r in rows if r["total"]]
        if not held:
            return
        txn, note = uuid.uuid4().hex, f"{unit} at {price}"
        await db.executemany(
            "INSERT INTO ledger (chat_id, player_id, points, kind, txn, note, at, unit) "
            "VALUES (?, ?, ?, 'payment', ?, ?, ?, ?)",
            [(chat_id, pid, -total, txn, note, at, unit) for pid, total in held]
            + [(chat_id, pid, total * price, txn, note, at, CENTS) for pid, total in held],
        )

    async def ensure_player(
        self, tg_user_id: int, name: str, language: str = "", username: str | None = None
    ) -> Player:
        async with self._tx() as db:
            if username:  # a @username moves to whoever holds it now
                await db.execute(
                    "UPDATE players SET username = NULL WHERE lower(username) = lower(?) "
                    "AND tg_user_id != ?",
                    (username, tg_user_id),
                )
            await db.execute(
                "INSERT INTO players (tg_user_id, name, language, username, created_at) "
                "VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (tg_user_id) DO UPDATE SET name = excluded.name, "
                "language = CASE WHEN excluded.language != '' THEN excluded.language "
                "ELSE players.language END, username = excluded.username",
                (tg_user_id, name, language, username or None, now()),
            )
        player = await self.player_by_tg(tg_user_id)
        assert player is not None
        return player

    async def add_guest(self, chat_id: int, name: str) -> Player:
        async with self._tx() as db:
            row = await db.one(
                "SELECT * FROM players WHERE chat_id = ? AND name = ? AND tg_user_id IS NULL",
                (chat_id, name),
            )
            if row is None:
                row = await db.one(
                    "INSERT INTO players (tg_user_id, name, chat_id, created_at) "
                    "VALUES (NULL, ?, ?, ?) RETURNING *",
                    (name, chat_id, now()),
                )
        assert row is not None
        return player_of(row)

    async def player_by_username(self, username: str) -> Player | None:
        row = await self._one(
            "SELECT * FROM players WHERE lower(username) = lower(?) AND tg_user_id IS NOT NULL",
            (username.lstrip("@"),),
        )
        return None if row is None else player_of(row)

    async def get_player(self, player_id: int) -> Player:
        row = await self._one("SELECT * FROM players WHERE id = ?", (player_id,))
        if row is None:
            raise NotFound(f"player {player_id}")
        return player_of(row)

    async def player_by_tg(self, tg_user_id: int) -> Player | None:
        row = await self._one("SELECT * FROM players WHERE tg_user_id = ?", (tg_user_id,))
        return None if row is None else player_of(row)

    async def set_player_flag(self, player_id: int, flag: str, value: bool) -> None:
        async with self._tx() as db:
            if value:
                await db.execute(
                    "INSERT INTO player_flags (player_id, flag) VALUES (?, ?) "
                    "ON CONFLICT DO NOTHING",
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


def chat_of(row: Row) -> Chat:
    settings = ChatSettings(
        row["currency"],
        Rounding(row["rounding"]),
        PaymentPolicy(row["payments"]),
        {str(unit): int(price) for unit, price in json.loads(row["prices"]).items()},
        bool(row["stats_public"]),
    )
    return Chat(row["id"], row["tg_chat_id"], row["title"], row["language"], settings)


def player_of(row: Row) -> Player:
    return Player(row["id"], row["tg_user_id"], row["name"], row["language"], row["chat_id"])
