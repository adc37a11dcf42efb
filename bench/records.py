"""Hand records on a long history: what ten ``/pbn 0000-01-01 9999-12-31`` cost everyone else.

    python -m bench.records [--deals 600] [--requests 10]

A table with ``--deals`` finished deals (random legal auctions and play, written straight to a
SQLite file as the bot writes them, in rubbers) and a second group playing beside it. The real
application runs against the fake Bot API, answered in-process. One group sends ``--requests``
record commands for its whole history, one after another as fast as they are answered; the other
group's players keep pressing. The bot's production pause between two records of one chat
(``Config.record_pause``) applies. Printed:

- how many PBN files the first group got, and the seconds until the first;
- the event loop's longest stall while the records were asked for and made (a ticker every
  5 ms: how late it woke), and the total time it was late by more than 20 ms;
- the other group's press answer times (p50 / p95 / max), during the records and without.

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.config import Config
from games.bridge.game import BRIDGE
from storage.interface import TableSettings
from storage.sqlite import SqliteStorage
from tests.bot.harness import Harness, seat_four
from tests.fakeapi import FakeBotApi, User

GROUP, OTHER = -100, -200
HISTORY = [
    User(11 + i, name, "ru", f"h{i}") for i, name in enumerate(("Anna", "Bob", "Cat", "Dima"))
]
PLAYING = [User(21 + i, name, "en", f"p{i}") for i, name in enumerate(("Eve", "Fay", "Gus", "Hal"))]


async def history(path: str, deals: int, seed: int) -> None:
    """``deals`` finished deals at one table, in as many rubbers as they make."""
    rng = random.Random(seed)
    store = await SqliteStorage.open(path)
    try:
        chat = await store.ensure_chat(GROUP, "Club")
        seats = {
            seat: (await store.ensure_player(u.id, u.first_name, "ru", u.username)).id
            for seat, u in enumerate(HISTORY)
        }
        table = await store.create_table(chat.id, None, TableSettings(language="ru"), game="bridge")
        for seat, pid in seats.items():
            await store.set_seat(table.id, seat, pid)
        record = await store.start_match(table.id, seats)
        match = BRIDGE.new_match(4, {})
        dealer = 0
        for number in range(1, deals + 1):
            payload = BRIDGE.new_deal(4, dealer, rng.randrange, {})
            await store.start_deal(table.id, number, payload, None)
            state: Any = BRIDGE.start(4, payload)
            seq = 1
            while not state.finished:
                actions = [a for s in range(4) for a in state.legal_actions(s)]
                action = rng.choice(actions)
                state = state.apply(action)
                kind, body = BRIDGE.to_event(action)
                await store.append_event(table.id, number, seq, kind, body, seats[0])
                seq += 1
            outcome = BRIDGE.outcome(state)
            await store.finish_deal(table.id, number, outcome)
            match.record(outcome)
            dealer = BRIDGE.next_dealer(dealer, 4)
            if match.finished:
                entries = {seats[s]: int(v) for s, v in enumerate(match.settle())}
                await store.finish_match(record.id, match.summary(), entries, seats, unit="points")
                if number < deals:
                    record = await store.start_match(table.id, seats)
                    match = BRIDGE.new_match(4, {})
    finally:
        await store.close()


class Ticker:
    """How late the event loop wakes a 5 ms sleeper: its stalls."""

    def __init__(self) -> None:
        self.worst = 0.0
        self.late = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.005)
            stall = time.perf_counter() - asked - 0.005
            self.worst = max(self.worst, stall)
            if stall > 0.02:
                self.late += stall

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


async def presses(h: Harness, until: asyncio.Event, times: list[float]) -> None:
    """The other group's players press whatever the bot offers them, as fast as answered."""
    rng = random.Random(3)
    while not until.is_set():
        for user in PLAYING:
            message = h.action_message(user)
            if message is None:
                continue
            data = [b["callback_data"] for b in message.buttons() if ":a:" in b["callback_data"]]
            if not data:
                continue
            asked = time.perf_counter()
            await h.api.answer_of(await h.api.press(user, message, rng.choice(data)))
            times.append(time.perf_counter() - asked)
            await h.outbox.drain()
            break
        else:
            await asyncio.sleep(0.01)


def _quantiles(values: list[float]) -> str:
    if not values:
        return "—"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"p50 {statistics.median(ordered) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
        f"max {ordered[-1] * 1000:.1f} ms ({len(ordered)} presses)"
    )


async def run(deals: int, requests: int) -> None:
    folder = Path(tempfile.mkdtemp())
    path = str(folder / "bot.sqlite3")
    started = time.perf_counter()
    await history(path, deals, seed=1)
    print(f"history: {deals} deals written in {time.perf_counter() - started:.1f} s")
    api = FakeBotApi()
    await api.start()
    h = Harness(api, path, in_process=True, record_pause=Config(token="").record_pause)
    await h.start()
    try:
        await seat_four(h, PLAYING, OTHER)
        await h.settle()
        # Without records: the other group's answers alone.
        calm: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(presses(h, stop, calm))
        await asyncio.sleep(5)
        stop.set()
        await task
        # With records.
        busy: list[float] = []
        stop = asyncio.Event()
        ticker = Ticker()
        ticker.start()
        task = asyncio.create_task(presses(h, stop, busy))
        asked = time.perf_counter()
        for _ in range(requests):  # one after another, as fast as a person can retype it
            await api.send_text(HISTORY[0], GROUP, "/pbn 0000-01-01 9999-12-31")
            await asyncio.sleep(0.5)
        while not any(m.kind == "document" for m in api.chat_messages(GROUP)):
            await asyncio.sleep(0.01)
        first = time.perf_counter() - asked
        await h.settle(120)
        took = time.perf_counter() - asked
        stop.set()
        await task
        await ticker.stop()
        files = [m for m in api.chat_messages(GROUP) if m.kind == "document"]
        boards = files[-1].upload.data.count(b'[Deal "') if files and files[-1].upload else 0
        print(f"records: {len(files)} PBN files of {boards} deals in {took:.1f} s "
              f"(first after {first:.2f} s)")  # fmt: skip
        print(f"event loop: longest stall {ticker.worst * 1000:.0f} ms, "
              f"{ticker.late:.2f} s late in all (stalls over 20 ms)")  # fmt: skip
        print(f"other group, calm:         {_quantiles(calm)}")
        print(f"other group, with records: {_quantiles(busy)}")
    finally:
        await h.stop()
        await api.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--requests", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(run(args.deals, args.requests))


if __name__ == "__main__":
    main()
