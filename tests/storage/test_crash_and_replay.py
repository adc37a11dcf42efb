"""Durability: SIGKILL at random moments loses nothing acknowledged; replay equals live play."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import given, settings

from games.bridge.cards import Deal
from games.bridge.deal import Action, DealState
from games.bridge.game import BRIDGE, BridgeState
from storage.events import replay
from storage.interface import TableSettings
from storage.sqlite import SqliteStorage
from tests.games.strategies import played_deals
from tests.sizes import examples

ROOT = Path(__file__).resolve().parents[2]


def test_sigkill_never_loses_an_acknowledged_event(tmp_path: Path) -> None:
    path = str(tmp_path / "crash.sqlite3")
    rng = random.Random(20261130)
    acknowledged: list[int] = []
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(20):
        child = subprocess.Popen(
            [sys.executable, str(ROOT / "tests/storage/crash_child.py"), path],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert child.stdout is not None
        # Kill after a random number of acknowledged appends, or mid-start-up now and then.
        wanted = rng.choice([0, 1, 5, 20, 60, 150])
        deadline = time.monotonic() + 20
        seen = 0
        while seen < wanted and time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            acknowledged.append(int(line))
            seen += 1
        time.sleep(rng.random() * 0.02)
        child.send_signal(signal.SIGKILL)
        rest, err = child.communicate(timeout=20)
        acknowledged.extend(int(x) for x in rest.split())
        assert child.returncode == -signal.SIGKILL, err
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = [
            row[0] for row in con.execute("SELECT seq FROM events WHERE kind = 'note' ORDER BY seq")
        ]
        con.close()
        assert set(acknowledged) <= set(stored)
        assert stored == list(range(1, len(stored) + 1))  # in order, no gap
    assert len(acknowledged) > 100


async def _store_and_reload(path: str, deal: Deal, actions: list[Action]) -> DealState:
    store = await SqliteStorage.open(path)
    chat = await store.ensure_chat(-1)
    table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
    payload = {"dealer": deal.dealer.name, "pbn": deal.to_pbn()}
    await store.start_deal(table.id, 1, payload, None)
    for seq, action in enumerate(actions, start=1):
        kind, payload = BRIDGE.to_event(action)
        await store.append_event(table.id, 1, seq, kind, payload, None)
    await store.close()
    store = await SqliteStorage.open(path)  # as after a restart
    try:
        state = replay(BRIDGE, 4, await store.events(table.id, 1))
        assert isinstance(state, BridgeState)
        return state.deal
    finally:
        await store.close()


@settings(max_examples=examples(25), deadline=None)
@given(played_deals(finish=False))
def test_replay_from_sqlite_equals_live_state(case: tuple[Deal, list[Action]]) -> None:
    deal, actions = case
    live = DealState.replay(deal, actions)
    with tempfile.TemporaryDirectory() as tmp:
        restored = asyncio.run(_store_and_reload(os.path.join(tmp, "r.sqlite3"), deal, actions))
    assert restored == live
