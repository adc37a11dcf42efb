"""Memory over the bot's life: tables opened, seated, a deal played and their rubber stopped,
one after another, through the real table service, presenter and outbox (SQLite in a
temporary file; PTB's Bot answered in-process). Prints the Python heap (tracemalloc, traced
from the first table on) after each checkpoint: a bot that has served ten times as many tables
should hold about as much (issue #30: within 10 %).

    python -m bench.memory [--tables 1000 10000]

About 0.2 s a table on a 2-core machine (every write committed, tracemalloc on): the default
run takes over half an hour. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import time
import tracemalloc
from pathlib import Path

from telegram import Bot

from bot.outbox import Outbox
from bot.plugin import Plugins
from bot.plugins import PLUGINS
from bot.presenter import Presenter
from bot.tables import TableService
from games.bridge.cards import Seat
from storage.sqlite import SqliteStorage
from tests.fakeapi import FakeBotApi, InProcessRequest


async def run(checkpoints: list[int]) -> None:
    api = FakeBotApi()
    api.keep_calls = api.keep_history = False
    with tempfile.TemporaryDirectory() as tmp:
        storage = await SqliteStorage.open(str(Path(tmp) / "memory.sqlite3"))
        bot = Bot(
            api.token, request=InProcessRequest(api), get_updates_request=InProcessRequest(api)
        )
        await bot.initialize()
        outbox = Outbox(bot, storage, group_interval=0.0, private_interval=0.0)
        service = TableService(storage, random.Random(7).randrange)
        service.on_dropped = outbox.forget_tables  # as the app wires them
        presenter = Presenter(outbox, "bridge_test_bot", Plugins(PLUGINS))
        tracemalloc.start()
        started = time.monotonic()
        for n in range(max(checkpoints)):
            change, _ = await service.open_table(-100_000 - n, "Club", None, "en", "bridge")
            table = change.snapshot.table_id
            for i, seat in enumerate(Seat):
                player = await service.player(1_000_000 + 4 * n + i, f"P{n}.{i}", "en")
                change = await service.sit(table, player, seat)
                presenter.show(change)
            for _ in range(4):  # all four pass: the deal ends, the next is dealt
                snap = change.snapshot
                assert snap.state is not None and snap.state.turn is not None
                who = snap.seats[snap.state.turn].player_id
                change = await service.act(table, snap.deal_no, who, "call.P", snap.actions)
                presenter.show(change)
            presenter.show(await service.end_by_admin(table))
            api.messages.clear()  # the fake Telegram's copy of the chats is not the bot's
            if n + 1 in checkpoints:
                await outbox.drain()
                api.messages.clear()
                gc.collect()
                current, _ = tracemalloc.get_traced_memory()
                print(
                    f"{n + 1:>6} tables through their life in {time.monotonic() - started:.0f} s: "
                    f"heap {current / 2**20:.1f} MB since the first; tables in memory "
                    f"{len(service._live)}, players {len(service._players)}, outbox keeps "
                    f"{outbox.remembered()}",
                    flush=True,
                )
        tracemalloc.stop()
        await outbox.close()
        await bot.shutdown()
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, nargs="+", default=[1000, 10000])
    asyncio.run(run(sorted(parser.parse_args().tables)))


if __name__ == "__main__":
    main()
