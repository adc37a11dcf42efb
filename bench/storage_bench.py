"""Storage benchmark, on both backends: events appended per second, and time to load and
restore N active tables mid-deal.

    python -m bench.storage_bench [--tables 1000] [--events 2000] [--backend sqlite|postgres|both]
                                  [--postgres postgresql://…]

Prints numbers; asserts nothing. Each append is committed before the next (SQLite: WAL with
``synchronous=FULL``; PostgreSQL: ``synchronous_commit=on``), as the bot writes before it
answers a player; "concurrent" appends come from 100 tables at once, as under load, into an
empty database and again into the filled one (``--tables``' deals written before). Without
``--postgres`` a temporary PostgreSQL server is started (as the tests do).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from games.bridge.cards import Deal, Seat
from games.bridge.game import BRIDGE
from storage import open_storage
from storage.events import replay
from storage.interface import TableSettings
from tests.games.strategies import random_actions
from tests.pg import server


async def appends(path: str, count: int) -> tuple[float, float]:
    """Events a second, and the process's CPU (every thread, µs) an event."""
    store = await open_storage(path)
    chat = await store.ensure_chat(-1)
    table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
    await store.start_deal(table.id, 1, {"dealer": "N", "pbn": "-"}, None)
    start, cpu = time.perf_counter(), time.process_time()
    for seq in range(1, count + 1):
        await store.append_event(table.id, 1, seq, "call", {"seat": "N", "call": "P"}, None)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    await store.close()
    return count / elapsed, cpu / count * 1e6


async def concurrent_appends(
    path: str, tables: int = 100, each: int = 20, chat_id: int = -2
) -> float:
    """``tables`` tables appending at once, ``each`` events apiece, each append awaited."""
    store = await open_storage(path)
    chat = await store.ensure_chat(chat_id)
    ids = []
    for _ in range(tables):
        table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
        await store.start_deal(table.id, 1, {"dealer": "N", "pbn": "-"}, None)
        ids.append(table.id)

    async def play(table_id: int) -> None:
        for seq in range(1, each + 1):
            await store.append_event(table_id, 1, seq, "call", {"seat": "N", "call": "P"}, None)

    start = time.perf_counter()
    await asyncio.gather(*(play(t) for t in ids))
    elapsed = time.perf_counter() - start
    await store.close()
    return tables * each / elapsed


async def fill(path: str, tables: int, rng: random.Random) -> int:
    """N tables, each seated, in a rubber: its first deal played out, its second part-played
    (the restore shows the first as it ended: ``DealRedrawn``)."""
    store = await open_storage(path)
    players = [await store.ensure_player(10_000 + i, f"P{i}") for i in range(4)]
    total = 0
    for n in range(tables):
        chat = await store.ensure_chat(-(n + 1), f"group {n}")
        table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
        seats = {int(s): p.id for s, p in zip(Seat, players, strict=True)}
        for seat, pid in seats.items():
            await store.set_seat(table.id, seat, pid)
        await store.start_match(table.id, seats)
        for number in (1, 2):
            deal = Deal.shuffled(Seat((n + number) % 4), rng.randrange)
            actions = random_actions(deal, rng, finish=True, extras=False)
            if number == 2:
                actions = actions[: rng.randint(len(actions) // 2, max(1, len(actions) - 1))]
            payload = {"dealer": deal.dealer.name, "pbn": deal.to_pbn()}
            await store.start_deal(table.id, number, payload, None)
            for seq, action in enumerate(actions, start=1):
                kind, payload = BRIDGE.to_event(action)
                await store.append_event(table.id, number, seq, kind, payload, None)
            if number == 1:
                final = replay(BRIDGE, 4, await store.events(table.id, 1))
                await store.finish_deal(table.id, 1, BRIDGE.outcome(final))
            total += len(actions) + 1
    await store.close()
    return total


async def load_all(path: str) -> tuple[float, float, int]:
    """Every active table with its chat, players, rubber and current deal's events, in bulk,
    then every deal replayed through games/."""
    start = time.perf_counter()
    store = await open_storage(path)
    bundles = await store.load_bundles()
    read = time.perf_counter()
    states = [replay(BRIDGE, 4, bundle.events) for bundle in bundles]
    done = time.perf_counter()
    await store.close()
    return read - start, done - start, len(states)


async def restore(path: str) -> tuple[float, int, float, int]:
    """What the bot does at start-up: every active table loaded and replayed by the service;
    then, once it polls, each table's last finished deal replayed to be shown as it ended."""
    from bot.tables import TableService

    start = time.perf_counter()
    store = await open_storage(path)
    service = TableService(store)
    changes = await service.restore_all()
    elapsed = time.perf_counter() - start
    start = time.perf_counter()
    redrawn = [change async for change in service.redraw_finished()]
    after = time.perf_counter() - start
    await store.close()
    return elapsed, len(changes), after, len(redrawn)


async def run(backend: str, new: Callable[[], str], tables: int, events: int) -> None:
    """``new()`` names a new, empty database of the backend each time it is called."""
    rng = random.Random(1)
    rate, cpu = await appends(new(), events)
    print(
        f"[{backend}] append: {rate:,.0f} events/s, one table, each committed before the next; "
        f"CPU {cpu:.0f} µs an event (the process, every thread)"
    )
    rate = await concurrent_appends(new())
    print(f"[{backend}] append: {rate:,.0f} events/s, 100 tables at once")
    path = new()
    t0 = time.perf_counter()
    count = await fill(path, tables, rng)
    print(f"[{backend}] fill: {tables} tables, {count} events in {time.perf_counter() - t0:.1f} s")
    tables_s, total_s, n = await load_all(path)
    print(
        f"[{backend}] load: {n} active tables read in bulk in {tables_s:.2f} s; with every deal "
        f"replayed through games/ {total_s:.2f} s ({total_s / n * 1000:.2f} ms per table)"
    )
    restore_s, restored, redraw_s, redrawn = await restore(path)
    print(
        f"[{backend}] restore: the bot's table service brought back {restored} tables in "
        f"{restore_s:.2f} s (players, rubber sheet, deal replay, pauses); then, the bot up, "
        f"{redrawn} finished deals replayed to be shown as they ended in {redraw_s:.2f} s"
    )
    # The same appends into a file with a history: a commit must not cost more as the events
    # of past deals pile up (SQLite once scanned them all at every commit of two or more).
    rate = await concurrent_appends(path, chat_id=-10_000_000)
    print(f"[{backend}] append: {rate:,.0f} events/s, 100 tables at once, {count} events before")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--postgres", help="a server's URL; default: a temporary server")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            names = (str(Path(tmp) / f"{n}.sqlite3") for n in range(100))
            await run("sqlite", lambda: next(names), args.tables, args.events)
    if args.backend in ("postgres", "both"):
        if args.postgres:
            await run("postgres", lambda: args.postgres, args.tables, args.events)
        else:
            with server() as pg:
                await run("postgres", pg.new_database, args.tables, args.events)


if __name__ == "__main__":
    asyncio.run(main())
