"""Made golden-rubber.json: run from a checkout of commit 69629fd (the release before the game
seam) with ``PYTHONPATH=. python <this file> <out.json>``. Kept as the record of how the golden
file was made; the tests never run it. The same scenario runs today in
tests/bot/test_golden_rubber.py and must write the same events and ledger."""

import asyncio
import json
import random
import sqlite3
import sys

import bot.tables
from tests.bot.driver import Driver
from tests.bot.harness import PLAYERS, Harness, seat_four
from tests.fakeapi import FakeBotApi

SEED, CHOICES, RESTART_AFTER = 5, 7, 37


async def main(out: str) -> None:
    # That release had no seed setting: its shuffle's default source is replaced here.
    init = bot.tables.TableService.__init__
    init.__defaults__ = (random.Random(SEED).randrange,)
    api = FakeBotApi()
    await api.start()
    h = Harness(api, "/tmp/golden.sqlite3")
    await h.start()
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(CHOICES))
    for _ in range(RESTART_AFTER):
        assert await driver.step()
    await h.crash()
    init.__defaults__ = (random.Random(SEED + 1).randrange,)
    await h.start()
    await h.settle()
    await driver.play_until(driver.rubber_over)
    await h.settle()
    await h.stop()
    await api.stop()
    con = sqlite3.connect("/tmp/golden.sqlite3")
    events = con.execute(
        "SELECT table_id, deal_no, seq, kind, payload, player_id FROM events ORDER BY 1, 2, 3"
    ).fetchall()
    ledger = con.execute("SELECT player_id, points, kind FROM ledger ORDER BY id").fetchall()
    with open(out, "w") as handle:
        json.dump({"events": events, "ledger": ledger}, handle, ensure_ascii=False, indent=0)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
