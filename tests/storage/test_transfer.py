"""``python -m bot export`` / ``import``: a group's whole history (rubbers played online and
scorekept, a pulka, payments in points and money, practice, events, kept messages) moves from
SQLite to PostgreSQL and back with nothing changed; an import never lands half-way."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from storage import open_storage
from storage.interface import PRACTICE, TableSettings
from storage.sql.base import SqlStore
from storage.sqlite import SqliteStorage
from tests.storage.test_migration import FIXTURE

ROOT = Path(__file__).resolve().parents[2]


async def tool(database: str, *args: str) -> tuple[int, str]:
    """The real command, as an operator runs it."""
    env = {**os.environ, "DATABASE_URL": database}
    env.pop("BOT_TOKEN", None)  # a tool on the database needs no token
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(child.communicate(), 120)
    assert child.returncode is not None
    return child.returncode, out.decode()


async def history(path: Path) -> None:
    """The release-4 group's rubbers and payments, brought forward, and a pulka, money and
    practice beside them."""
    shutil.copy(FIXTURE, path)
    store = await SqliteStorage.open(str(path))
    try:
        chat = await store.ensure_chat(-300, "Преферанс по средам <b>")
        players = [await store.ensure_player(900 + i, f"Игрок {i} \u202e") for i in range(3)]
        table = await store.create_table(chat.id, 7, TableSettings(), game="preferans")
        seats = {s: p.id for s, p in enumerate(players)}
        for seat, pid in seats.items():
            await store.set_seat(table.id, seat, pid)
        pulka = await store.start_match(table.id, seats)
        await store.start_deal(table.id, 1, {"dealer": 0, "cards": "x"}, None, "u:1")
        await store.append_event(table.id, 1, 1, "bid", {"seat": 1, "bid": "6S"}, players[1].id)
        await store.finish_deal(table.id, 1, {"declarer": 1})
        whists = {players[0].id: 40, players[1].id: -15, players[2].id: -25}
        await store.finish_match(pulka.id, {"pool": 10}, whists, seats, unit="whists")
        await store.record_payment(chat.id, players[2].id, players[0].id, 250, "наличными", 3,
                                   unit="cents")  # fmt: skip
        practice = await store.start_match(table.id, seats)
        await store.finish_match(practice.id, {}, {p.id: 0 for p in players}, seats, unit=PRACTICE)
        await store.set_message(table.id, "table", -300, 55, "digest")
        await store.set_player_flag(players[0].id, "can_write", True)
    finally:
        await store.close()


async def everything(store: SqlStore) -> dict[str, Any]:
    """What the bot reads, through the storage interface."""
    seen: dict[str, Any] = {"bundles": await store.load_bundles()}
    for chat_id in range(1, 10):
        seen[f"ledger {chat_id}"] = await store.ledger(chat_id)
        seen[f"accounts {chat_id}"] = await store.accounts(chat_id)
        seen[f"matches {chat_id}"] = await store.matches(chat_id, 100)
    for table_id in range(1, 10):
        for deal_no in range(1, 12):
            seen[f"events {table_id}/{deal_no}"] = await store.events(table_id, deal_no)
    return seen


async def test_a_history_moves_to_postgres_and_back_unchanged(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "club.sqlite3"
    await history(source)
    first, second, third = (tmp_path / f"{n}.jsonl" for n in ("first", "second", "third"))
    code, out = await tool(f"sqlite:///{source}", "export", str(first))
    assert code == 0, out
    assert "exported" in out and "events" in out
    code, out = await tool(pg_url, "import", str(first))
    assert code == 0, out
    code, out = await tool(pg_url, "export", str(second))
    assert code == 0, out
    back = tmp_path / "back.sqlite3"
    code, out = await tool(str(back), "import", str(second))
    assert code == 0, out
    code, out = await tool(str(back), "export", str(third))
    assert code == 0, out

    rows = first.read_text(encoding="utf-8")
    assert rows == second.read_text(encoding="utf-8") == third.read_text(encoding="utf-8")
    head = json.loads(rows.splitlines()[0])
    assert head["rows"]["events"] > 300 and head["rows"]["ledger"] >= 17

    stores = [await open_storage(d) for d in (str(source), pg_url, str(back))]
    try:
        seen = [await everything(s) for s in stores]
        assert seen[0] == seen[1] == seen[2]
        ledger = [row for key, rows in seen[1].items() if key.startswith("ledger") for row in rows]
        assert {row.unit for row in ledger} == {"points", "whists", "cents", PRACTICE}
        # New rows are numbered after the imported ones, on each backend alike.
        new = [await s.ensure_chat(-999) for s in stores[1:]]
        assert new[0].id == new[1].id == max(row.chat_id for row in ledger) + 1
    finally:
        for store in stores:
            await store.close()


async def test_an_import_lands_whole_or_not_at_all(tmp_path: Path, pg_url: str) -> None:
    source = tmp_path / "club.sqlite3"
    await history(source)
    dump = tmp_path / "dump.jsonl"
    assert (await tool(str(source), "export", str(dump)))[0] == 0
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(dump.read_text().splitlines(keepends=True)[:-40]))
    code, out = await tool(pg_url, "import", str(cut))
    assert code == 1 and "cut short" in out, out
    stranger = tmp_path / "stranger.jsonl"
    stranger.write_text('{"hello": 1}\n')
    code, out = await tool(pg_url, "import", str(stranger))
    assert code == 1 and "not an export" in out, out
    assert (await tool(pg_url, "import", str(dump)))[0] == 0
    # A second import into the now full database is refused and changes nothing.
    before = (await tool(pg_url, "export", "-"))[1]
    code, out = await tool(pg_url, "import", str(dump))
    assert code == 1 and "not empty" in out, out
    assert (await tool(pg_url, "export", "-"))[1] == before


@pytest.mark.parametrize("args", [["export"], ["wipe", "x"], ["import", "a", "b"]])
async def test_a_wrong_tool_command_prints_its_usage(args: list[str]) -> None:
    code, out = await tool("unused.sqlite3", *args)
    assert code == 2 and out.startswith("usage: python -m bot"), out
