"""The SQLite backend on real files: schema, refusals, conflicts, ledger, chat migration."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path

import pytest

from storage.interface import (
    ConflictError,
    DatabaseLocked,
    DatabaseTooNew,
    NotOurDatabase,
    TableSettings,
)
from storage.migrations import APPLICATION_ID, LATEST
from storage.sqlite import SqliteStorage


async def test_fresh_file_is_migrated_in_wal_mode(db_path: str) -> None:
    store = await SqliteStorage.open(db_path)
    assert await store.schema_version() == LATEST
    await store.close()
    con = sqlite3.connect(db_path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    con.close()


@pytest.mark.parametrize("start", range(0, LATEST))
async def test_migrates_from_every_earlier_version_keeping_data(db_path: str, start: int) -> None:
    old = await _open_at(db_path, start)
    assert await old.schema_version() == start
    await old.close()
    if start >= 1:  # rows as that version's code wrote them
        con = sqlite3.connect(db_path)
        con.execute(
            "INSERT INTO chats (id, tg_chat_id, title, created_at) VALUES (1, -100, 'c', '')"
        )
        con.execute(
            "INSERT INTO players (id, tg_user_id, name, language, created_at) "
            "VALUES (7, 7, 'Ann', 'en', '')"
        )
        if start < 5:
            con.execute(
                "INSERT INTO tables (id, chat_id, status, stake, currency, created_at) "
                "VALUES (3, 1, 'open', 50, 'RUB', '')"
            )
        else:  # version 5: the game and its options; the money is the group's
            con.execute(
                "INSERT INTO tables (id, chat_id, status, created_at, game, options) "
                """VALUES (3, 1, 'open', '', 'bridge', '{"rules": "modern"}')"""
            )
        if start >= 4:  # from version 4 on, the code gives every table its token
            con.execute("UPDATE tables SET token = '00112233aabbccdd' WHERE id = 3")
        con.commit()
        con.close()
    store = await SqliteStorage.open(db_path)
    assert await store.schema_version() == LATEST
    if start >= 1:
        assert (await store.get_player(7)).name == "Ann"
        table = await store.get_table(3)
        assert table.settings.options["rules"] == "modern" and table.game == "bridge"
        if start < 3:
            chat = await store.get_chat(1)  # migration 3: the table's stake became the group's
            assert (chat.settings.price("points"), chat.settings.currency) == (50, "RUB")
        table = await store.get_table(3)
        assert re.fullmatch(r"[0-9a-f]{16}", table.token)  # migration 4: a deep-link token
        assert await store.table_by_token(table.token) == table
        await store.set_message(table.id, "table", -100, 5)  # a table of migration 2
        assert await store.messages(table.id) == {"table": (-100, 5)}
    await store.close()


async def _open_at(path: str, version: int) -> SqliteStorage:
    """A file migrated only up to ``version`` (0: an empty SQLite file)."""
    if version == 0:
        sqlite3.connect(path).close()
        return await _opened_without_migrating(path)
    store = await _opened_without_migrating(path)
    await store.migrate(version)
    return store


async def _opened_without_migrating(path: str) -> SqliteStorage:
    import aiosqlite

    db = await aiosqlite.connect(path, isolation_level=None)
    db.row_factory = sqlite3.Row
    return SqliteStorage(db, None, path)


async def test_a_strangers_database_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "other.db")
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (id INTEGER)")
    con.commit()
    con.close()
    with pytest.raises(NotOurDatabase):
        await SqliteStorage.open(path)
    con = sqlite3.connect(path)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["invoices"]
    con.close()


async def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("this is not a database, just some notes about bridge " * 100)
    with pytest.raises(NotOurDatabase):
        await SqliteStorage.open(str(path))


async def test_a_newer_schema_is_refused(db_path: str) -> None:
    store = await SqliteStorage.open(db_path)
    await store.close()
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version={LATEST + 1}")
    con.close()
    with pytest.raises(DatabaseTooNew):
        await SqliteStorage.open(db_path)


async def test_a_second_bot_process_is_refused(db_path: str) -> None:
    first = await SqliteStorage.open(db_path)
    with pytest.raises(DatabaseLocked) as refused:
        await SqliteStorage.open(db_path)
    assert "DATABASE_URL" in str(refused.value) and "BRIDGE_DB" not in str(refused.value)
    await first.close()
    second = await SqliteStorage.open(db_path)
    await second.close()


async def test_a_group_commit_fails_together_and_leaves_the_file_as_it_was(db_path: str) -> None:
    """Writes that wait together are one transaction: a statement that fails (a message kept
    for a table that does not exist) fails every writer in it, nothing of it is written, and
    the next write goes through; a key taken twice in one batch fails only its second
    writer."""
    store = await SqliteStorage.open(db_path)
    chat = await store.ensure_chat(-1)
    table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
    await store.start_deal(table.id, 1, {"dealer": "N", "pbn": "-"}, None)
    call = {"seat": "N", "call": "P"}
    failed = await asyncio.gather(
        store.append_event(table.id, 1, 1, "call", call, None),
        store.set_message(table.id + 99, "table:1", -1, 5, "x"),
        return_exceptions=True,
    )
    assert all(isinstance(r, sqlite3.IntegrityError) for r in failed), failed
    assert all(e.seq != 1 for e in await store.events(table.id, 1))
    same = await asyncio.gather(
        store.append_event(table.id, 1, 1, "call", call, None),
        store.append_event(table.id, 1, 1, "call", {"seat": "N", "call": "1C"}, None),
        store.set_message(table.id, "table:1", -1, 5, "x"),
        return_exceptions=True,
    )
    assert isinstance(same[1], ConflictError) and not isinstance(same[0], BaseException), same
    assert [e.payload for e in await store.events(table.id, 1) if e.seq == 1] == [call]
    assert await store.message(table.id, "table:1") is not None
    await store.close()


async def test_prices_become_one_map_and_the_ledger_any_units_shape(db_path: str) -> None:
    """Migration 10 on a file as release 9 wrote it: the stake and the whist's price columns
    become the group's map of prices, rows stay, and the ledger takes a new game's unit."""
    old = await _open_at(db_path, 9)
    await old.close()
    con = sqlite3.connect(db_path)
    con.executescript(
        """
        INSERT INTO chats (id, tg_chat_id, title, created_at, stake, currency, whist_price)
            VALUES (1, -100, 'a', '', 10, 'RUB', 50), (2, -200, 'b', '', 0, '', 25),
                   (3, -300, 'c', '', 0, '', 0);
        INSERT INTO players (id, tg_user_id, name, language, created_at)
            VALUES (7, 7, 'Ann', 'en', ''), (8, 8, 'Ben', 'en', '');
        INSERT INTO ledger (chat_id, player_id, points, kind, txn, at, unit)
            VALUES (1, 7, 30, 'payment', 't', '', 'whists'),
                   (1, 8, -30, 'payment', 't', '', 'whists');
        """
    )
    con.commit()
    con.close()
    store = await SqliteStorage.open(db_path)
    try:
        assert (await store.get_chat(1)).settings.prices == {"points": 10, "whists": 50}
        assert (await store.get_chat(1)).settings.currency == "RUB"
        assert (await store.get_chat(2)).settings.prices == {"whists": 25}
        assert (await store.get_chat(3)).settings.prices == {}
        assert await store.balances(1, "whists") == {7: 30, 8: -30}
        await store.record_payment(1, 7, 8, 5, unit="toy_pips")
        assert await store.balances(1, "toy_pips") == {7: 5, 8: -5}  # the payer's rises
    finally:
        await store.close()
    con = sqlite3.connect(db_path)
    columns = {row[1] for row in con.execute("PRAGMA table_info(chats)")}
    con.close()
    assert "prices" in columns and not {"stake", "whist_price"} & columns


async def test_a_batchs_key_check_and_a_restore_find_events_by_key_not_by_scanning(
    db_path: str,
) -> None:
    """SQLite plans a row-value ``IN (VALUES ...)`` of two keys or more as a scan of the whole
    events table: a group commit of two events, and a restore of two tables, paid for every
    event ever written (36 ms a commit at 200,000 events). Every statement on the events that
    they run is planned as a search by the events' key."""
    store = await SqliteStorage.open(db_path)
    chat = await store.ensure_chat(-1)
    tables = [await store.create_table(chat.id, None, TableSettings(), game="bridge") for _ in "ab"]
    for table in tables:
        await store.start_deal(table.id, 1, {"dealer": "N", "pbn": "-"}, None)
    statements: list[str] = []
    await store._db.set_trace_callback(statements.append)
    call = {"seat": "N", "call": "P"}
    await asyncio.gather(*(store.append_event(t.id, 1, 1, "call", call, None) for t in tables))
    bundles = await store.load_bundles([t.id for t in tables])
    await store._db.set_trace_callback(None)
    await store.close()
    assert [[e.payload for e in b.events if e.seq == 1] for b in bundles] == [[call], [call]]
    reads = [
        sql
        for sql in statements
        if re.search(r"\bevents\b", sql) and re.match(r"\s*(SELECT|WITH)\b", sql, re.I)
    ]
    assert any(len(re.findall(r"\(\d, 1, 1\)", sql)) == 2 for sql in reads), reads  # one batch
    con = sqlite3.connect(db_path)
    for sql in reads:
        plan = [row[3] for row in con.execute("EXPLAIN QUERY PLAN " + sql)]
        assert not any(re.match(r"SCAN (events|e)\b", step) for step in plan), (sql, plan)
    con.close()
