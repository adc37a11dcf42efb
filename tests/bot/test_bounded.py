"""Memory stays flat however long the bot runs: 2,000 deals at one table and 1,000 tables
through their life leave the outbox's and the table service's bookkeeping bounded.

The real table service, presenter and outbox on a real SQLite file; PTB's Bot talks to the fake
Bot API in-process (``InProcessRequest``) so the test measures the bot, not HTTP.
"""

from __future__ import annotations

import gc
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from telegram import Bot

from bot.outbox import Outbox
from bot.plugin import Plugins
from bot.plugins import PLUGINS
from bot.presenter import Presenter
from bot.tables import Change, TableService
from games.bridge.cards import Seat
from storage.sqlite import SqliteStorage
from tests.fakeapi import FakeBotApi, InProcessRequest
from tests.sizes import size

CAP = 200
DEALS = size(2000, 80)  # SOAK=1: the full soak (tests.sizes)
TABLES = size(1000, 50)  # either way well past what the outbox may remember


@dataclass
class Rig:
    storage: SqliteStorage
    service: TableService
    outbox: Outbox
    presenter: Presenter
    api: FakeBotApi


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    api = FakeBotApi()
    api.keep_calls = api.keep_history = False
    storage = await SqliteStorage.open(str(tmp_path / "bounded.sqlite3"))
    bot = Bot(api.token, request=InProcessRequest(api), get_updates_request=InProcessRequest(api))
    await bot.initialize()
    outbox = Outbox(bot, storage, group_interval=0.0, private_interval=0.0)
    outbox.max_keeps = CAP
    service = TableService(storage, random.Random(7).randrange)
    service.on_dropped = outbox.forget_tables  # as the app wires them
    presenter = Presenter(outbox, "bridge_test_bot", Plugins(PLUGINS))
    yield Rig(storage, service, outbox, presenter, api)
    await outbox.close()
    await bot.shutdown()
    await storage.close()


async def seat_four(rig: Rig, tg_chat: int) -> Change:
    change, _ = await rig.service.open_table(tg_chat, "Club", None, "en", "bridge")
    for i, seat in enumerate(Seat):
        player = await rig.service.player(100 + i, f"P{i}", "en")
        change = await rig.service.sit(change.snapshot.table_id, player, seat)
        rig.presenter.show(change)
    return change


async def four_strangers(
    rig: Rig, tg_chat: int, first_user: int, name: str, show: bool = False
) -> Change:
    """A new table in ``tg_chat`` with four new people (users from ``first_user`` on, named
    ``name.0`` to ``name.3``) seated; each change shown if ``show``."""
    service = rig.service
    change, _ = await service.open_table(tg_chat, "Club", None, "en", "bridge")
    for i, seat in enumerate(Seat):
        player = await service.player(first_user + i, f"{name}.{i}", "en")
        change = await service.sit(change.snapshot.table_id, player, seat)
        if show:
            rig.presenter.show(change)
    return change


async def pass_out(rig: Rig, change: Change) -> Change:
    """One deal: all four pass (the rubber goes on; a deal is dealt again)."""
    for _ in range(4):
        snap = change.snapshot
        assert snap.state is not None and snap.state.turn is not None
        player = snap.seats[snap.state.turn].player_id
        change = await rig.service.act(snap.table_id, snap.deal_no, player, "call.P", snap.actions)
        rig.presenter.show(change)
    return change


@pytest.mark.soak
async def test_two_thousand_deals_at_one_table(rig: Rig) -> None:
    change = await seat_four(rig, -1)
    sizes = []
    table = change.snapshot.table_id
    for deal in range(DEALS):
        change = await pass_out(rig, change)
        if deal % 10 == 9:  # a rubber stopped and the next one started, as groups do
            rig.presenter.show(await rig.service.end_by_admin(table))
            for holder in change.snapshot.seats.values():  # each person presses
                change = await rig.service.next_match(table, holder.player_id, False)
                rig.presenter.show(change)
        if deal % (DEALS // 8) == DEALS // 8 - 1:
            await rig.outbox.drain()
            sizes.append(rig.outbox.remembered())
    # deals are numbered on across rubbers; each stopped rubber leaves its new deal unplayed
    assert change.snapshot.deal_no == DEALS + DEALS // 10 + 1
    assert max(sizes) <= CAP + 10, sizes  # the cap, and what is still waiting to be sent
    gc.collect()
    assert len(rig.service._locks) == 0  # a lock lives only while a table is being changed


@pytest.mark.soak
async def test_a_thousand_tables_through_their_life(rig: Rig) -> None:
    for table in range(TABLES):
        change = await seat_four(rig, -1000 - table)
        await pass_out(rig, change)
        if table % (TABLES // 10) == TABLES // 10 - 1:
            await rig.outbox.drain()
            assert rig.outbox.remembered() <= CAP + 10
    await rig.outbox.drain()
    gc.collect()
    assert len(rig.service._locks) == 0
    assert rig.outbox.remembered() <= CAP


async def test_tables_and_players_done_with_leave_memory_and_come_back_from_storage(
    rig: Rig,
) -> None:
    """Tables whose rubber ended, past ``max_live``, and players not seen lately, past
    ``max_players``, are dropped from the service's memory; the next update to either loads it
    from storage as it was. A table in a rubber is never dropped."""
    service = rig.service
    service.max_live, service.max_players = 8, 12
    ended = []
    for n in range(30):
        change = await four_strangers(rig, -5000 - n, 10_000 + 4 * n, f"P{n}")
        table = change.snapshot.table_id
        assert change.snapshot.match is not None
        if n % 3:  # two tables of three stop their rubber; the third plays on
            change = await service.end_by_admin(table)
            ended.append(table)
        rig.presenter.show(change)
        assert len(service._players) <= service.max_players
    playing = [t for t in service._live if t not in ended]
    assert len(playing) == 10  # every table in a rubber is still here
    assert len(service._live) <= service.max_live + len(playing)
    assert len([t for t in service._live if t in ended]) <= service.max_live
    # The first table, long dropped, comes back as it was: the same four seated, no rubber.
    first = ended[0]
    assert first not in service._live
    snap = await service.snapshot(first)
    assert [h.name for _, h in sorted(snap.seats.items())] == [f"P1.{i}" for i in range(4)]
    assert snap.match is None
    # and a rubber starts there again
    for holder in snap.seats.values():  # each person presses for the next rubber
        change = await service.next_match(first, holder.player_id, new_partners=False)
    assert change.snapshot.match is not None and change.snapshot.state is not None
    # A player long dropped is the same player when seen again.
    again = await service.player(10_004, "P1.0", "en")
    assert again.id == snap.seats[Seat.N].player_id


async def test_a_table_dropped_from_memory_takes_its_messages_and_players_with_it(
    rig: Rig,
) -> None:
    """#48: what the bot holds follows the tables it holds, not the tables it has served. A
    table dropped from memory (its rubber over) takes along what the outbox knew of its
    messages and its players seated nowhere else; wanted again, it edits the same messages,
    found in storage, as a table never dropped does."""
    service, outbox = rig.service, rig.outbox
    service.max_live = 3
    tables = []
    for n in range(8):
        change = await four_strangers(rig, -7000 - n, 70_000 + 4 * n, f"P{n}", show=True)
        table = change.snapshot.table_id
        rig.presenter.show(await service.end_by_admin(table))
        tables.append(table)
        await outbox.drain()
    assert len(service._live) == 3
    assert {keep[0] for keep in outbox._keeps} <= set(service._live)
    seated = {h.tg_user_id for live in service._live.values() for h in live.holders.values()}
    assert set(service._players) == seated
    # The first table (dropped) and the last (in memory) start a rubber again: each shows it
    # by editing and posting alike.
    shown = []
    for table in (tables[0], tables[-1]):
        chat = -7000 - tables.index(table)
        before = len(rig.api.chat_messages(chat))
        snap = await service.snapshot(table)
        for holder in snap.seats.values():
            change = await service.next_match(table, holder.player_id, new_partners=False)
            rig.presenter.show(change)
        await outbox.drain()
        shown.append(len(rig.api.chat_messages(chat)) - before)
    assert shown[0] == shown[1], shown
