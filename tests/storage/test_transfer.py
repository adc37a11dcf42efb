"""``python -m bot export`` / ``import``: a group's whole history (rubbers played online and
scorekept, a pulka, payments in points and money, practice, events, kept messages) moves from
SQLite to PostgreSQL and back with nothing changed; an import never lands half-way."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from games.preferans.game import PREFERANS
from storage import open_storage
from storage.interface import PRACTICE, TableSettings
from storage.sql.base import SqlStore
from storage.sqlite import SqliteStorage
from tests.storage.test_migration import FIXTURE

ROOT = Path(__file__).resolve().parents[2]


async def tool(database: str, *args: str, extra: dict[str, str] | None = None) -> tuple[int, str]:
    """The real command, as an operator runs it (``extra``: more of its environment)."""
    env = {**os.environ, "DATABASE_URL": database, **(extra or {})}
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
        deal = PREFERANS.new_deal(3, 0, random.Random(4).randrange, {})
        await store.start_deal(table.id, 1, deal, None, "u:1")
        state = PREFERANS.start(3, deal)
        bid = state.legal_actions(1)[0]
        await store.append_event(table.id, 1, 1, *PREFERANS.to_event(bid), players[1].id)
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
    # A row twice (the same id): one line, no traceback, nothing written.
    lines = dump.read_text().splitlines(keepends=True)
    players = _rows_of(lines, "players")
    lines.insert(players.start, lines[players.start])
    head = json.loads(lines[0])
    head["rows"]["players"] += 1
    lines[0] = json.dumps(head) + "\n"
    twice = tmp_path / "twice.jsonl"
    twice.write_text("".join(lines))
    code, out = await tool(pg_url, "import", str(twice))
    assert code == 1 and "Traceback" not in out and len(out.strip().splitlines()) == 1, out
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


async def test_export_and_health_never_create_a_database(tmp_path: Path) -> None:
    """A backup of a database that is not there is an error, not an empty file reported as a
    success; nothing is created, neither the database nor the backup."""
    missing = tmp_path / "typo.sqlite3"
    out = tmp_path / "out.jsonl"
    code, said = await tool(str(missing), "export", str(out))
    assert code == 1 and "does not exist" in said and "Traceback" not in said, said
    code, said = await tool(str(missing), "health")
    assert code == 1 and "does not exist" in said, said
    assert not missing.exists() and not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


async def test_a_failed_import_creates_no_database(tmp_path: Path) -> None:
    target = tmp_path / "new.sqlite3"
    stranger = tmp_path / "stranger.jsonl"
    stranger.write_text('{"hello": 1}\n')
    for source in (stranger, tmp_path / "no-such-file.jsonl"):
        code, said = await tool(str(target), "import", str(source))
        assert code == 1 and "Traceback" not in said, said
        assert not target.exists(), source
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stranger.jsonl"]


async def _dump(tmp_path: Path) -> list[str]:
    source = tmp_path / "club.sqlite3"
    await history(source)
    dump = tmp_path / "dump.jsonl"
    assert (await tool(str(source), "export", str(dump)))[0] == 0
    return dump.read_text(encoding="utf-8").splitlines(keepends=True)


def _rows_of(lines: list[str], table: str) -> range:
    """The line numbers of ``table``'s rows in an export."""
    start = next(i for i, line in enumerate(lines) if line.startswith(f'{{"table": "{table}"'))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("{")), len(lines))
    return range(start + 1, end)


async def test_an_import_that_does_not_replay_is_refused_whole(tmp_path: Path) -> None:
    """One card changed in an export: the import replays every deal through its game before it
    commits, and refuses the file; the bot would otherwise stop at its next start."""
    lines = await _dump(tmp_path)
    changed = None
    for i in _rows_of(lines, "events"):
        row = json.loads(lines[i])
        payload = json.loads(row[4]) if isinstance(row[4], str) else row[4]
        if row[3] == "card":
            payload["card"] = "SA" if payload["card"] != "SA" else "HA"
            row[4] = json.dumps(payload) if isinstance(row[4], str) else payload
            lines[i] = json.dumps(row, ensure_ascii=False) + "\n"
            changed = i
            break
    assert changed is not None
    bad = tmp_path / "changed.jsonl"
    bad.write_text("".join(lines), encoding="utf-8")
    target = tmp_path / "restored.sqlite3"
    code, said = await tool(str(target), "import", str(bad))
    assert code == 1 and "does not replay" in said and "Traceback" not in said, said
    assert len(said.strip().splitlines()) == 1, said
    assert not target.exists()


@pytest.mark.parametrize(
    "damage",
    ["foreign", "short row", "not json", "nul", "unbalanced", "text id", "twice"],
)
async def test_a_damaged_import_file_is_one_line_and_changes_nothing(
    tmp_path: Path, damage: str
) -> None:
    lines = await _dump(tmp_path)
    players = _rows_of(lines, "players")
    ledger = _rows_of(lines, "ledger")
    if damage == "foreign":
        lines.insert(players.start, '{"foo": 1}\n')
    elif damage == "short row":
        lines[players.start] = "[1, 2]\n"
    elif damage == "not json":
        lines[players.start] = "{nope\n"
    elif damage == "nul":
        row = json.loads(lines[players.start])
        row[2] = "Anna\x00"
        lines[players.start] = json.dumps(row) + "\n"
    elif damage == "text id":
        row = json.loads(lines[players.start])
        row[0] = "one"
        lines[players.start] = json.dumps(row) + "\n"
    elif damage == "twice":
        lines.insert(players.start, lines[players.start])
        head = json.loads(lines[0])
        head["rows"]["players"] += 1
        lines[0] = json.dumps(head) + "\n"
    else:
        row = json.loads(lines[ledger.start])
        row[3] = int(row[3]) + 1
        lines[ledger.start] = json.dumps(row, ensure_ascii=False) + "\n"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines), encoding="utf-8")
    target = tmp_path / "restored.sqlite3"
    code, said = await tool(str(target), "import", str(bad))
    assert code == 1 and "Traceback" not in said, said
    assert len(said.strip().splitlines()) == 1, said
    assert not target.exists()


@pytest.mark.parametrize("command", [["export", "out.jsonl"], ["import", "in.jsonl"], ["health"]])
async def test_an_unknown_database_scheme_is_refused_by_name_without_its_password(
    tmp_path: Path, command: list[str]
) -> None:
    code, said = await tool("mysql://u:pw123@h/db", *command)
    assert code == 2 and "pw123" not in said, said
    assert said.strip().splitlines() == [said.strip()] and "'mysql'" in said, said
    assert not (ROOT / "mysql:").exists()


async def test_help_says_what_each_command_does_and_exits_0() -> None:
    for flag in ("--help", "-h"):
        code, said = await tool("unused.sqlite3", flag)
        assert code == 0, said
        for word in ("export FILE", "import FILE", "health", "no argument", ".env.example"):
            assert word in said, (word, said)


async def test_with_no_database_set_the_tools_name_database_url(tmp_path: Path) -> None:
    """The default file, named by the setting the README documents, not its old alias."""
    await (await open_storage(str(tmp_path / "bridge.sqlite3"))).close()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "BRIDGE_DB")}
    env["PYTHONPATH"] = str(ROOT)
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "export", "out.jsonl", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(child.communicate(), 120)
    assert child.returncode == 0, out
    assert "(DATABASE_URL)" in out.decode() and "BRIDGE_DB" not in out.decode()
