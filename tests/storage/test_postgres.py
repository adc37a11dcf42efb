"""What only the PostgreSQL backend has to show, on a real server: it refuses a stranger's and a
newer database without touching them, several processes opening it at once migrate it once,
racing writers of one chat's payments and one match's end are ordered by row locks, and its
password never appears in an error."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from storage.interface import (
    ConflictError,
    DatabaseTooNew,
    NotOurDatabase,
    StorageError,
    TableSettings,
)
from storage.migrations import LATEST
from storage.postgres import PostgresStorage, safe_url
from storage.postgres.schema import APPLICATION, META, MIGRATIONS


async def _tables(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return {r["tablename"] for r in rows}
    finally:
        await conn.close()


async def _execute(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def test_a_strangers_database_is_refused_and_left_alone(pg_url: str) -> None:
    await _execute(pg_url, "CREATE TABLE customers (id int PRIMARY KEY)")
    with pytest.raises(NotOurDatabase, match="another program"):
        await PostgresStorage.open(pg_url)
    assert await _tables(pg_url) == {"customers"}


async def test_another_programs_mark_is_refused(pg_url: str) -> None:
    await _execute(
        pg_url,
        "CREATE TABLE bot_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); "
        "INSERT INTO bot_meta VALUES ('application', 'CHESS'), ('schema_version', '3')",
    )
    with pytest.raises(NotOurDatabase):
        await PostgresStorage.open(pg_url)
    assert await _tables(pg_url) == {"bot_meta"}


async def test_a_newer_schema_is_refused(pg_url: str) -> None:
    store = await PostgresStorage.open(pg_url)
    await store.close()
    await _execute(pg_url, "UPDATE bot_meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(DatabaseTooNew, match="schema 99"):
        await PostgresStorage.open(pg_url)


async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    stores = await asyncio.gather(*(PostgresStorage.open(pg_url) for _ in range(6)))
    try:
        assert {await s.schema_version() for s in stores} == {LATEST}
        chat = await stores[0].ensure_chat(-1)
        assert (await stores[5].get_chat(chat.id)).tg_chat_id == -1
    finally:
        for store in stores:
            await store.close()


async def test_racing_payments_and_match_ends_are_ordered(pg_url: str) -> None:
    a, b = await PostgresStorage.open(pg_url), await PostgresStorage.open(pg_url)
    try:
        chat = await a.ensure_chat(-5)
        players = [await a.ensure_player(i, f"P{i}") for i in range(1, 5)]
        # The same "paid" button pressed twice at once, through two processes: one is written.
        for _ in range(5):
            size = await a.ledger_size(chat.id)
            results = await asyncio.gather(
                a.record_payment(
                    chat.id, players[0].id, players[1].id, 100, "", size, unit="points"
                ),
                b.record_payment(
                    chat.id, players[0].id, players[1].id, 100, "", size, unit="points"
                ),
                return_exceptions=True,
            )
            assert sum(isinstance(r, ConflictError) for r in results) == 1, results
            assert await a.ledger_size(chat.id) == size + 2
        # One match ended by two processes at once: one set of ledger rows.
        table = await a.create_table(chat.id, None, TableSettings(), game="bridge")
        seats = {s: p.id for s, p in enumerate(players)}
        match = await a.start_match(table.id, seats)
        entries = {players[0].id: 5, players[1].id: 5, players[2].id: -5, players[3].id: -5}
        results = await asyncio.gather(
            a.finish_match(match.id, {}, entries, seats, unit="points"),
            b.finish_match(match.id, {}, entries, seats, unit="points"),
            return_exceptions=True,
        )
        assert sum(isinstance(r, ConflictError) for r in results) == 1, results
        rows = [r for r in await b.ledger(chat.id) if r.kind == "match"]
        assert len(rows) == 4 and sum(r.points for r in rows) == 0
    finally:
        await a.close()
        await b.close()


async def test_the_password_is_never_in_an_error(pg_url: str) -> None:
    url = pg_url.replace("bot@", "bot:hunter2-secret@").rsplit(":", 1)[0] + ":1/db"
    with pytest.raises(StorageError) as caught:
        await PostgresStorage.open(url)
    assert "hunter2" not in str(caught.value) and "***" in str(caught.value)
    assert safe_url("postgresql://u:p%40ss@h/db") == "postgresql://u:***@h/db"
    assert safe_url("postgresql://u@h/db") == "postgresql://u@h/db"


async def test_prices_become_one_map_at_schema_10(pg_url: str) -> None:
    """A database as release 9 left it (a column per game's price, the ledger's units a list):
    migration 10 makes the prices one map and lets the ledger keep any game's unit."""
    await _execute(
        pg_url,
        META
        + ";"
        + MIGRATIONS[9]
        + f"; INSERT INTO bot_meta VALUES ('application', '{APPLICATION}'), "
        "('schema_version', '9');"
        "INSERT INTO chats (tg_chat_id, title, created_at, stake, currency, whist_price) "
        "VALUES (-100, 'a', '', 10, 'RUB', 50), (-200, 'b', '', 0, '', 25);",
    )
    store = await PostgresStorage.open(pg_url)
    try:
        assert await store.schema_version() == LATEST
        first = await store.chat_by_tg(-100)
        second = await store.chat_by_tg(-200)
        assert first is not None and second is not None
        assert first.settings.prices == {"points": 10, "whists": 50}
        assert first.settings.currency == "RUB"
        assert second.settings.prices == {"whists": 25}
        ann, ben = await store.ensure_player(7, "Ann"), await store.ensure_player(8, "Ben")
        await store.record_payment(first.id, ann.id, ben.id, 5, unit="toy_pips")
        assert await store.balances(first.id, "toy_pips") == {ann.id: 5, ben.id: -5}
        with pytest.raises(StorageError):
            await store.record_payment(first.id, ann.id, ben.id, 5, unit="Not A Unit")
    finally:
        await store.close()
