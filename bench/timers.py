"""What a press costs the turn timers as the bot serves more tables (issue #48): ``tables``
bridge tables are opened and seated through the real table service (SQLite in a temporary
file), each with a turn timer and production's turn notices armed (the event loop's own timer
handles; until #48's seventh stop, jobs in PTB's JobQueue); then ``TurnTimers.track`` is timed
on presses at random tables, as each press re-arms its table's timers. A press should cost the
same at 3,000 tables as at 100.

    python -m bench.timers [--tables 100 1000 3000] [--presses 2000]

Prints microseconds a ``track`` (median and mean) per table count; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import statistics
import tempfile
import time
from pathlib import Path

from telegram.ext import Application

from bot.outbox import Outbox
from bot.plugin import Plugins
from bot.plugins import PLUGINS
from bot.tables import Snapshot, TableService
from bot.timers import TurnTimers
from games.bridge.cards import Seat
from storage.sqlite import SqliteStorage

TOKEN = "123456:" + "A" * 35


async def seated(service: TableService, tables: int) -> list[Snapshot]:
    """``tables`` bridge tables, four seated each, their first deal dealt, a timer set."""
    snaps = []
    for n in range(tables):
        change, _ = await service.open_table(-200_000 - n, "Club", None, "en", "bridge")
        table = change.snapshot.table_id
        settings = dataclasses.replace(change.snapshot.settings, turn_timer=2)
        await service.update_settings(table, settings, True)
        for i, seat in enumerate(Seat):
            player = await service.player(2_000_000 + 4 * n + i, f"P{n}.{i}", "en")
            change = await service.sit(table, player, seat)
        snaps.append(change.snapshot)
    return snaps


async def run(counts: list[int], presses: int) -> None:
    app = Application.builder().token(TOKEN).build()
    for tables in counts:
        with tempfile.TemporaryDirectory() as tmp:
            storage = await SqliteStorage.open(str(Path(tmp) / "timers.sqlite3"))
            try:
                service = TableService(storage, random.Random(7).randrange)
                snaps = await seated(service, tables)
                outbox = Outbox(app.bot, storage)
                # Production's jobs (a notice to the player on turn, the table's reminder and
                # its due time), due in hours here so that none runs while it is measured.
                timers = TurnTimers(service, outbox, Plugins(PLUGINS), 3600.0, 3600.0)
                timers.notify = lambda snap, seat: None
                for snap in snaps:
                    timers.track(snap)
                rng = random.Random(1)
                took = []
                for _ in range(presses):
                    snap = rng.choice(snaps)
                    began = time.perf_counter()
                    timers.track(snap)
                    took.append(time.perf_counter() - began)
                jobs = sum(len(armed) for armed in timers._armed.values())
                print(
                    f"{tables:6} tables, {jobs:6} jobs: track a press "
                    f"median {statistics.median(took) * 1e6:7.1f} µs, "
                    f"mean {statistics.fmean(took) * 1e6:7.1f} µs ({presses} presses)",
                    flush=True,
                )
                timers.close()
            finally:
                await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 1000, 3000])
    parser.add_argument("--presses", type=int, default=2000)
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.presses))


if __name__ == "__main__":
    main()
