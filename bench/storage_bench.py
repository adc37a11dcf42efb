"""Storage benchmark: events appended per second, and time to load N active tables mid-deal.

    python -m bench.storage_bench [--tables 1000] [--events 2000]

Prints numbers; asserts nothing. Each append is its own committed transaction with
``synchronous=FULL`` in WAL mode, as the bot writes before it answers a player.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from games.bridge.cards import Deal, Seat
from games.bridge.game import BRIDGE
from storage.events import replay
from storage.interface import TableSettings
from storage.sqlite import SqliteStorage
from tests.games.strategies import random_actions


async def appends(path: str, count: int) -> float:
    store = await SqliteStorage.open(path)
    chat = await store.ensure_chat(-1)
    table = await store.create_table(chat.id, None, TableSettings())
    await store.start_deal(table.id, 1, {"dealer": "N", "pbn": "-"}, None)
    start = time.perf_counter()
    for seq in range(1, count + 1):
        await store.append_event(table.id, 1, seq, "call", {"seat": "N", "call": "P"}, None)
    elapsed = time.perf_counter() - start
    await store.close()
    return count / elapsed


async def fill(path: str, tables: int, rng: random.Random) -> int:
    """N tables, each seated, in a rubber, with a deal part-played (auction done, some tricks)."""
    store = await SqliteStorage.open(path)
    players = [await store.ensure_player(10_000 + i, f"P{i}") for i in range(4)]
    total = 0
    for n in range(tables):
        chat = await store.ensure_chat(-(n + 1), f"group {n}")
        table = await store.create_table(chat.id, None, TableSettings())
        seats = {int(s): p.id for s, p in zip(Seat, players, strict=True)}
        for seat, pid in seats.items():
            await store.set_seat(table.id, seat, pid)
        await store.start_match(table.id, seats)
        deal = Deal.shuffled(Seat(n % 4), rng.randrange)
        actions = random_actions(deal, rng, finish=True, extras=False)
        actions = actions[: rng.randint(len(actions) // 2, max(1, len(actions) - 1))]
        payload = {"dealer": deal.dealer.name, "pbn": deal.to_pbn()}
        await store.start_deal(table.id, 1, payload, None)
        for seq, action in enumerate(actions, start=1):
            kind, payload = BRIDGE.to_event(action)
            await store.append_event(table.id, 1, seq, kind, payload, None)
        total += len(actions) + 1
    await store.close()
    return total


async def load_all(path: str) -> tuple[float, float, int]:
    """Every active table with its chat, players, rubber and current deal's events, in bulk,
    then every deal replayed through games/."""
    start = time.perf_counter()
    store = await SqliteStorage.open(path)
    bundles = await store.load_bundles()
    read = time.perf_counter()
    states = [replay(BRIDGE, 4, bundle.events) for bundle in bundles]
    done = time.perf_counter()
    await store.close()
    return read - start, done - start, len(states)


async def restore(path: str) -> tuple[float, int]:
    """What the bot does at start-up: every active table loaded and replayed by the service."""
    from bot.service import TableService

    start = time.perf_counter()
    store = await SqliteStorage.open(path)
    changes = await TableService(store).restore_all()
    elapsed = time.perf_counter() - start
    await store.close()
    return elapsed, len(changes)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args()
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        rate = await appends(str(Path(tmp) / "append.sqlite3"), args.events)
        print(f"append: {rate:,.0f} events/s (one committed transaction each, synchronous=FULL)")
        path = str(Path(tmp) / "load.sqlite3")
        t0 = time.perf_counter()
        events = await fill(path, args.tables, rng)
        print(f"fill: {args.tables} tables, {events} events in {time.perf_counter() - t0:.1f} s")
        tables_s, total_s, n = await load_all(path)
        print(
            f"load: {n} active tables read in bulk in {tables_s:.2f} s; with every deal "
            f"replayed through games/ {total_s:.2f} s ({total_s / n * 1000:.2f} ms per table)"
        )
        restore_s, restored = await restore(path)
        print(
            f"restore: the bot's table service brought back {restored} tables in "
            f"{restore_s:.2f} s (players, rubber sheet, deal replay, pauses)"
        )


if __name__ == "__main__":
    asyncio.run(main())
