"""The storage contract, run against both backends (SQLite on a real file, PostgreSQL on a real
server): conflicts, append-only events and ledger, balanced matches, chat migration, bundles."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import asyncpg
import pytest

from storage.interface import (
    ChatSettings,
    ConflictError,
    PlayerDeal,
    StorageError,
    TableSettings,
    TableStatus,
    UnbalancedLedger,
)
from storage.sql.base import SqlStore
from storage.sqlite import SqliteStorage
from tests.storage.conftest import Opener

# What each backend raises when the database itself refuses a statement.
REFUSED = (sqlite3.IntegrityError, asyncpg.PostgresError)


async def raw(store: SqlStore, sql: str, *args: Any) -> None:
    """A statement straight to the database, past the storage's own checks."""
    if isinstance(store, SqliteStorage):
        await store._db.execute(sql, args)
        return
    from storage.postgres import PostgresStorage, _numbered

    assert isinstance(store, PostgresStorage)
    await store._pool.execute(_numbered(sql), *args)


async def test_racing_writers_one_wins_the_other_conflicts(opener: Opener) -> None:
    a = await opener()
    b = await opener()
    chat = await a.ensure_chat(-1)
    table = await a.create_table(chat.id, None, TableSettings(), game="bridge")
    await a.start_deal(table.id, 1, {"dealer": "N", "pbn": "x"}, None)
    results = await asyncio.gather(
        a.append_event(table.id, 1, 1, "call", {"seat": "N", "call": "1H"}, None),
        b.append_event(table.id, 1, 1, "call", {"seat": "N", "call": "1S"}, None),
        return_exceptions=True,
    )
    conflicts = [r for r in results if isinstance(r, ConflictError)]
    winners = [r for r in results if not isinstance(r, BaseException)]
    assert len(conflicts) == 1 and len(winners) == 1
    stored = await b.events(table.id, 1)
    assert [e.payload for e in stored][1] == winners[0].payload
    with pytest.raises(ConflictError):
        await a.start_deal(table.id, 1, {"dealer": "E", "pbn": "y"}, None)
    await a.close()
    await b.close()


async def test_events_cannot_be_rewritten(store: SqlStore) -> None:
    chat = await store.ensure_chat(-1)
    table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
    await store.start_deal(table.id, 1, {"dealer": "N", "pbn": "x"}, None)
    for statement in ("UPDATE events SET kind = 'forged'", "DELETE FROM events"):
        with pytest.raises(REFUSED):
            await raw(store, statement)
    assert (await store.events(table.id, 1))[0].kind == "deal"


async def test_rubber_ledger_rows_sum_to_zero_or_nothing_is_written(store: SqlStore) -> None:
    chat = await store.ensure_chat(-5, "club")
    players = [await store.ensure_player(i, f"P{i}") for i in range(1, 5)]
    table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
    seats = {s: p.id for s, p in enumerate(players)}
    rubber = await store.start_match(table.id, seats)
    assert (await store.get_table(table.id)).status is TableStatus.PLAYING
    bad = {players[0].id: 300, players[1].id: -300, players[2].id: 300, players[3].id: -200}
    with pytest.raises(UnbalancedLedger):
        await store.finish_match(
            rubber.id, {"winner": "NS", "points": 300}, bad, seats, unit="points"
        )
    assert await store.ledger(chat.id) == []
    good = {**bad, players[3].id: -300}
    await store.finish_match(rubber.id, {"winner": "NS", "points": 300}, good, seats, unit="points")
    with pytest.raises(ConflictError):
        await store.finish_match(
            rubber.id, {"winner": "NS", "points": 300}, good, seats, unit="points"
        )
    assert await store.balances(chat.id, "points") == good
    await store.record_payment(chat.id, players[1].id, players[0].id, 300, "cash", unit="points")
    balances = await store.balances(chat.id, "points")
    assert balances[players[1].id] == 0 and balances[players[0].id] == 0
    assert sum(balances.values()) == 0
    assert len(await store.ledger(chat.id)) == 6
    finished = (await store.matches(chat.id))[0]
    assert finished.result == {"winner": "NS", "points": 300} and finished.seats == seats
    assert (await store.match_counts(chat.id))[players[0].id] == 1


async def test_group_upgraded_to_supergroup_keeps_everything(store: SqlStore) -> None:
    chat = await store.ensure_chat(-10, "club")
    table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
    player = await store.ensure_player(1, "Ann")
    await store.set_seat(table.id, 0, player.id)
    await store.migrate_chat(-10, -1000000000010)
    assert await store.chat_by_tg(-10) is None
    moved = await store.chat_by_tg(-1000000000010)
    assert moved is not None and moved.id == chat.id
    assert (await store.table_in(chat.id, None)) is not None
    assert (await store.get_table(table.id)).seats == {0: player.id}


async def test_seats_and_guests(store: SqlStore) -> None:
    chat = await store.ensure_chat(-3)
    table = await store.create_table(chat.id, 42, TableSettings(language="en"), game="bridge")
    ann = await store.ensure_player(1, "Ann")
    await store.set_seat(table.id, 0, ann.id)
    with pytest.raises(ConflictError):
        await store.set_seat(table.id, 2, ann.id)
    guest = await store.add_guest(chat.id, "Uncle Vanya")
    assert guest.tg_user_id is None
    assert (await store.add_guest(chat.id, "Uncle Vanya")).id == guest.id
    await store.set_seat(table.id, 2, guest.id)
    assert (await store.table_in(chat.id, 42)) is not None
    assert (await store.table_in(chat.id, None)) is None
    assert [t.id for t in await store.tables_of_player(ann.id)] == [table.id]
    # Every table of the chat, whatever its topic; another chat's and a closed one are not.
    main = await store.create_table(chat.id, None, TableSettings(), game="preferans")
    closed = await store.create_table(chat.id, 7, TableSettings(), game="bridge")
    await store.set_status(closed.id, TableStatus.CLOSED)
    other = await store.ensure_chat(-4)
    await store.create_table(other.id, None, TableSettings(), game="bridge")
    assert [t.id for t in await store.tables_in_chat(chat.id)] == [table.id, main.id]
    assert (await store.tables_in_chat(chat.id))[0].seats == {0: ann.id, 2: guest.id}
    await store.set_seat(table.id, 0, None)
    assert (await store.get_table(table.id)).seats == {2: guest.id}
    await store.set_player_flag(ann.id, "can_write", True)
    assert await store.player_flag(ann.id, "can_write")


async def test_bundles_bring_back_every_active_table(store: SqlStore) -> None:
    chat = await store.ensure_chat(-7, "club")
    players = [await store.ensure_player(i, f"P{i}") for i in range(1, 5)]
    tables = [
        await store.create_table(chat.id, topic, TableSettings(), game="bridge")
        for topic in (1, 2, 3)
    ]
    seats = {s: p.id for s, p in enumerate(players)}
    for table in tables[:2]:
        for seat, pid in seats.items():
            await store.set_seat(table.id, seat, pid)
        await store.start_match(table.id, seats)
        await store.start_deal(table.id, 1, {"dealer": "N", "pbn": "-"}, None)
        await store.finish_deal(table.id, 1, {"contract": None})
        await store.start_deal(table.id, 2, {"dealer": "E", "pbn": "-"}, None)
        await store.append_event(table.id, 2, 1, "call", {"seat": "E", "call": "P"}, None)
    await store.set_status(tables[2].id, TableStatus.CLOSED)
    await store.set_player_flag(players[0].id, "blocked", True)
    bundles = await store.load_bundles()
    assert [b.table.id for b in bundles] == [tables[0].id, tables[1].id]
    for bundle in bundles:
        assert bundle.chat.id == chat.id and set(bundle.players) == {p.id for p in players}
        assert [d.deal_no for d in bundle.match_deals] == [1, 2]
        assert bundle.match_deals[0].result == {"contract": None}
        assert [e.seq for e in bundle.events] == [0, 1] and bundle.events[0].deal_no == 2
        assert bundle.flags[players[0].id] == {"blocked"}
    assert [b.table.id for b in await store.load_bundles([tables[1].id])] == [tables[1].id]


async def test_ledger_rows_say_their_unit_and_balances_keep_units_apart(
    store: SqlStore,
) -> None:
    chat = await store.ensure_chat(-6, "club")
    players = [await store.ensure_player(i, f"P{i}") for i in range(1, 4)]
    table = await store.create_table(chat.id, None, TableSettings(), game="preferans")
    seats = {s: p.id for s, p in enumerate(players)}
    pulka = await store.start_match(table.id, seats)
    whists = {players[0].id: 25, players[1].id: -5, players[2].id: -20}
    for shapeless in ("", "Roubles", "two words", "₽", "x" * 25):  # a unit is a name, not text
        with pytest.raises(StorageError):
            await store.finish_match(pulka.id, {}, whists, seats, unit=shapeless)
    await store.finish_match(pulka.id, {}, whists, seats, unit="whists")
    await store.record_payment(chat.id, players[2].id, players[0].id, 20, unit="whists")
    await store.record_payment(chat.id, players[1].id, players[0].id, 150, unit="cents")
    assert await store.balances(chat.id, "points") == {}
    assert await store.balances(chat.id, "whists") == {
        players[0].id: 5,
        players[1].id: -5,
        players[2].id: 0,
    }
    accounts = await store.accounts(chat.id)
    assert set(accounts) == {"whists", "cents"}
    assert accounts["cents"] == {players[0].id: -150, players[1].id: 150}
    assert [r.unit for r in await store.ledger(chat.id)] == ["whists"] * 3 + ["whists"] * 2 + [
        "cents"
    ] * 2
    with pytest.raises(REFUSED):
        await raw(
            store,
            "INSERT INTO ledger (chat_id, player_id, points, kind, txn, at, "
            "unit) VALUES (?, ?, 1, 'payment', 'x', 'now', 'Roubles!')",
            chat.id,
            players[0].id,
        )
    for statement in ("UPDATE ledger SET points = 0", "DELETE FROM ledger"):
        with pytest.raises(REFUSED):
            await raw(store, statement)
    group = ChatSettings(prices={"points": 10, "whists": 50})
    assert (await store.update_chat_settings(chat.id, group)).settings == group
    # Units are data: a game the storage has never heard of keeps its own unit and price.
    table = await store.create_table(chat.id, 5, TableSettings(), game="toy")
    match = await store.start_match(table.id, seats)
    await store.finish_match(match.id, {}, whists, seats, unit="toy_pips")
    assert await store.balances(chat.id, "toy_pips") == whists
    group = group.priced("toy_pips", 7)
    assert (await store.update_chat_settings(chat.id, group)).settings.price("toy_pips") == 7
    # Its practice (a match a robot sat in) too: in its own practice unit, never an account.
    match = await store.start_match(table.id, seats)
    await store.finish_match(match.id, {}, whists, seats, unit="practice_toy_pips")
    assert await store.balances(chat.id, "practice_toy_pips") == whists
    assert "practice_toy_pips" not in await store.accounts(chat.id)


async def test_a_group_keeps_its_first_language_until_it_is_changed(store: SqlStore) -> None:
    """The language the group was first met in stays (meeting it again does not reset it),
    and its own setting changes it, on both backends."""
    chat = await store.ensure_chat(-11, "club", "en")
    assert chat.language == "en"
    assert (await store.ensure_chat(-11, "club", "ru")).language == "en"
    changed = await store.set_chat_language(chat.id, "ru")
    assert changed.language == "ru" and (await store.get_chat(chat.id)).language == "ru"


async def test_a_deal_is_reviewed_once_and_its_players_counts_are_found_by_group_and_player(
    opener: Opener,
) -> None:
    a = await opener()
    b = await opener()
    chat = await a.ensure_chat(-1)
    other = await a.ensure_chat(-2)
    anna = await a.ensure_player(1, "Anna")
    table = await a.create_table(chat.id, None, TableSettings(), game="bridge")
    elsewhere = await a.create_table(other.id, None, TableSettings(), game="bridge")
    for t in (table, elsewhere):
        for deal_no in (1, 2, 3):
            await a.start_deal(t.id, deal_no, {"dealer": "N", "pbn": "x"}, None)
        for deal_no in (1, 2):  # deal 3 is in progress: nothing to review yet
            await a.finish_deal(t.id, deal_no, {"contract": None})
    todo = await a.unreviewed()
    assert [(d.table_id, d.deal_no) for d in todo] == [
        (table.id, 1), (table.id, 2), (elsewhere.id, 1), (elsewhere.id, 2)
    ]  # fmt: skip
    page = await a.unreviewed((table.id, 1), 2)
    assert [(d.table_id, d.deal_no) for d in page] == [(table.id, 2), (elsewhere.id, 1)]
    assert [d.deal_no for d in await a.unreviewed((0, 0), 50, elsewhere.id)] == [1, 2]

    def row(t: int, deal_no: int, chat_id: int, day: str) -> PlayerDeal:
        return PlayerDeal(t, deal_no, anna.id, chat_id, "bridge", day, False, {"deals": 1})

    await a.record_review(
        table.id,
        1,
        chat.id,
        "bridge",
        "2026-11-01",
        {"seats": {}},
        [row(table.id, 1, chat.id, "2026-11-01")],
    )
    # A racing reviewer: the first review stands, and its players' rows.
    await b.record_review(
        table.id,
        1,
        chat.id,
        "bridge",
        "2026-11-01",
        {"x": 1},
        [row(table.id, 1, chat.id, "2026-11-01")],
    )
    assert await b.review_of(table.id, 1) == {"seats": {}}
    assert await b.review_of(table.id, 2) is None
    await b.record_review(
        elsewhere.id,
        1,
        other.id,
        "bridge",
        "2026-12-01",
        {},
        [row(elsewhere.id, 1, other.id, "2026-12-01")],
    )
    assert [(d.table_id, d.deal_no) for d in await a.unreviewed()] == [
        (table.id, 2), (elsewhere.id, 2)
    ]  # fmt: skip
    assert len(await a.player_deals(chat_id=chat.id)) == 1
    assert len(await a.player_deals(player_id=anna.id)) == 2
    assert len(await a.player_deals(player_id=anna.id, since="2026-11-15")) == 1
    found = await a.player_deals(chat_id=other.id, player_id=anna.id)
    assert found[0].stats == {"deals": 1} and found[0].day == "2026-12-01"
    await a.close()
    await b.close()


async def test_a_guests_account_merges_into_a_members_in_one_balanced_transaction(
    store: SqlStore,
) -> None:
    chat = await store.ensure_chat(-91, "Club", "ru")
    member = await store.ensure_player(9101, "Аня", "ru")
    guest = await store.add_guest(chat.id, "Аня")
    other = await store.ensure_player(9102, "Боря", "ru")
    await store.record_payment(chat.id, guest.id, other.id, 300, "cash", unit="points")
    await store.record_payment(chat.id, guest.id, other.id, 7, unit="whists")
    before = await store.ledger(chat.id)
    await store.merge_accounts(chat.id, guest.id, member.id, "merge")
    rows = await store.ledger(chat.id)
    added = rows[len(before) :]
    assert rows[: len(before)] == before  # nothing rewritten
    assert len({r.txn for r in added}) == 1 and len(added) == 4  # one transaction, two units
    for unit in ("points", "whists"):
        assert sum(r.points for r in added if r.unit == unit) == 0
        balances = await store.balances(chat.id, unit)
        assert balances.get(guest.id, 0) == 0
    assert (await store.balances(chat.id, "points"))[member.id] == 300
    assert (await store.balances(chat.id, "whists"))[member.id] == 7
