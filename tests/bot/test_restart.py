"""A restart (a new Application on the same database) in the auction and in the play: the deal
goes on from exactly where it was and finishes with the right result. On both backends: a
SQLite file and a PostgreSQL server."""

from __future__ import annotations

import asyncio
import os
import random
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from games.bridge.game import BRIDGE, BridgeState
from storage.events import replay
from storage.interface import Storage, StorageError
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, actor, data_of, seat_four
from tests.fakeapi import FakeBotApi


@pytest.fixture(params=["sqlite", "postgres"])
async def h(
    request: pytest.FixtureRequest, api: FakeBotApi, tmp_path: Path
) -> AsyncIterator[Harness]:
    """The bot on a SQLite file, then on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        database = str(tmp_path / "bot.sqlite3")
    else:
        database = request.getfixturevalue("pg_url")
    harness = Harness(api, database)
    await harness.start()
    yield harness
    if harness.app is not None:
        await harness.stop()


def storage_of(h: Harness) -> Storage:
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    return storage


def deal_posted(h: Harness, number: int) -> bool:
    return any(f"Сдача {number}</b>:" in m.text for m in h.api.chat_messages(GROUP))


@pytest.mark.parametrize("presses", [2, 4 + 17])  # in the auction; in the play (trick 5)
async def test_restart_mid_deal_then_finish(h: Harness, presses: int) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(3))
    driver.deals.clear()
    for _ in range(presses):
        assert await driver.step()
    before = [e.seq for e in await storage_of(h).events(1, 1)]
    assert len(before) == presses + 1
    await h.crash()
    await h.start()  # a new Application on the same file
    await h.settle()
    # The players' messages are brought up to date and the one in turn still has buttons.
    assert driver.actor() is not None
    await driver.play_until(lambda: deal_posted(h, 1))
    events = await storage_of(h).events(1, 1)
    assert [e.seq for e in events] == list(range(len(events)))
    assert all(BRIDGE.from_event(e.kind, e.payload) is not None for e in events[1:])
    replayed = replay(BRIDGE, 4, events)
    assert isinstance(replayed, BridgeState)
    state = replayed.deal
    assert state.result is not None
    summary = next(d for d in await storage_of(h).deals(1) if d.deal_no == 1)
    assert summary.result is not None
    if state.result.contract is None:
        assert summary.result["contract"] is None
    else:
        assert summary.result["contract"] == str(state.result.contract)
        assert summary.result["tricks"] == state.result.declarer_tricks
    # deal 2 is dealt and its hands went out
    assert any("сдача 2" in m.text.lower() for m in h.api.chat_messages(GROUP))


async def test_a_database_that_is_not_ours_stops_the_bot_with_a_clear_message(
    api: FakeBotApi, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database " * 100)
    env = {
        **os.environ,
        "BOT_TOKEN": api.token,
        "BOT_API_BASE_URL": api.base_url,
        "BRIDGE_DB": str(notes),
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(child.communicate(), 60)
    assert child.returncode == 1
    assert "is not a bridge bot database" in err.decode()
    assert api.token not in err.decode()  # the token is never logged
    assert notes.read_text().startswith("not a database")


@pytest.mark.parametrize("presses", [0, 9])  # the first deal before its first call; later
async def test_a_restart_spends_no_call_on_a_message_that_did_not_change(
    h: Harness, presses: int
) -> None:
    """Each kept message's last content is remembered (a digest beside its id), so a restart
    re-renders every table and sends nothing whose content is the same as before; nor does
    anything a message shows live only in memory (the first dealer drawn by lot)."""
    await seat_four(h)
    if presses == 0:
        assert "по жребию" in h.table_message().text
    driver = Driver(h, PLAYERS, random.Random(4))
    for _ in range(presses):
        assert await driver.step()
    await h.settle()
    await h.stop()
    before = len(h.api.calls)
    await h.start()
    await h.settle()
    after = [c.method for c in h.api.calls[before:]]
    assert "editMessageText" not in after and "sendMessage" not in after, after
    assert not [r for r in h.api.refused if "not modified" in str(r).lower()]
    # and play goes on from there
    assert await driver.step()


async def test_a_restart_takes_away_the_keyboards_a_dying_process_left_on_a_finished_deal(
    h: Harness,
) -> None:
    """The process writes a deal's last call, deals the next one and dies before its edits
    reach Telegram: the players' screens of the finished deal still offer its buttons. The
    next process shows that deal as it ended (editing only messages already in the chats)."""
    await seat_four(h)
    for _ in range(3):
        user, message = actor(h)
        assert not (await h.press(user, message, data_of(message, ":a:call.P"))).get("text")
    await h.settle()
    user, message = actor(h)
    bad_gateway = ("editMessageText", 502, {"description": "Bad Gateway"})
    h.api.fail_queue.extend([bad_gateway] * 60)  # every edit of the finished deal fails
    query = await h.api.press(user, message, data_of(message, ":a:call.P"))
    assert not (await h.api.answer_of(query, 10)).get("text")
    await asyncio.sleep(1.0)  # the outbox tries, and waits to try again
    await h.crash()
    h.api.fail_queue.clear()

    def deal_one_keys() -> list[str]:
        return [
            b["callback_data"]
            for player in PLAYERS
            for sent in h.api.chat_messages(player.id)
            for b in sent.buttons()
            if b.get("callback_data", "").startswith("b1:1:1.")
        ]

    assert deal_one_keys(), "the lost edits left deal 1's buttons up (the case under test)"
    posts = len([c for c in h.api.calls if c.method == "sendMessage"])
    await h.start()
    await h.settle()
    assert deal_one_keys() == []
    # nothing of the finished deal was posted again: the new messages are deal 2's own
    new = [c for c in h.api.calls if c.method == "sendMessage"][posts:]
    assert all("сдача 1\n" not in str(c.params.get("text", "")).lower() for c in new)
    assert actor(h) is not None  # and deal 2 goes on


class _FailingDealWrite:
    """The storage's deal write fails the first ``times`` calls (a lost connection, a full
    disk): the match row is already written, its first deal is not."""

    def __init__(self, storage: Storage, times: int) -> None:
        self.left, self.real = times, storage.start_deal
        storage.start_deal = self  # type: ignore[method-assign]

    async def __call__(self, *args: object, **kwargs: object) -> object:
        if self.left > 0:
            self.left -= 1
            raise StorageError("the disk is full")
        return await self.real(*args, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("how", ["recovered", "restarted"])
async def test_a_match_whose_first_deal_was_not_written_gets_it(h: Harness, how: str) -> None:
    """The match and its first deal are two writes. A failed write (or a kill) between them
    must not leave the table "playing" a match with no deal and nobody with buttons: the
    recovery deals it, and so does a restart."""
    _FailingDealWrite(storage_of(h), 1 if how == "recovered" else 100)
    await seat_four(h)
    table = await storage_of(h).get_table(1)
    assert table.match_id is not None and table.current_deal == 0  # the match, no deal
    if how == "restarted":
        await h.crash()  # killed before any recovery could write it
        await h.start()
    for _ in range(40):  # the recovery's first try is 0.2 s after the failure
        await h.settle()
        if (await storage_of(h).get_table(1)).current_deal == 1:
            break
        await asyncio.sleep(0.1)
    assert (await storage_of(h).get_table(1)).current_deal == 1
    driver = Driver(h, PLAYERS, random.Random(5))
    assert driver.actor() is not None  # the player in turn has buttons
    assert await driver.step()
