"""Every behaviour of the release before the game seam still holds: the same rubber, played by
the same presses with the same shuffle and a restart half-way, writes the same events and the
same ledger as that release did (tests/bot/data/golden-rubber.json, made by
make_golden_rubber.py at commit 69629fd)."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from tests.bot.driver import Driver
from tests.bot.harness import PLAYERS, Harness, seat_four
from tests.fakeapi import FakeBotApi

GOLDEN = Path(__file__).parent / "data" / "golden-rubber.json"
SEED, CHOICES, RESTART_AFTER = 5, 7, 37


async def test_a_rubber_writes_what_the_previous_release_wrote(
    api: FakeBotApi, tmp_path: Path
) -> None:
    path = tmp_path / "bot.sqlite3"
    h = Harness(api, str(path), shuffle_seed=SEED)
    await h.start()
    try:
        await seat_four(h)
        driver = Driver(h, PLAYERS, random.Random(CHOICES))
        for _ in range(RESTART_AFTER):
            assert await driver.step()
        await h.crash()
        h.shuffle_seed = SEED + 1  # as the previous release's run re-seeded at its restart
        await h.start()
        await h.settle()
        await driver.play_until(driver.rubber_over)
        await h.settle()
    finally:
        if h.app is not None:
            await h.stop()
    golden = json.loads(GOLDEN.read_text())
    con = sqlite3.connect(path)
    try:
        events = con.execute(
            "SELECT table_id, deal_no, seq, kind, payload, player_id FROM events ORDER BY 1, 2, 3"
        ).fetchall()
        ledger = con.execute("SELECT player_id, points, kind FROM ledger ORDER BY id").fetchall()
    finally:
        con.close()
    assert len(golden["events"]) > 200
    assert [list(e) for e in events] == golden["events"]
    # A rubber's rows are now a match's: same players, same points.
    assert [[p, points, "rubber" if kind == "match" else kind] for p, points, kind in ledger] == (
        golden["ledger"]
    )
