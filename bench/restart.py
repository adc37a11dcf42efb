"""A restart of a busy bot: N tables seated and dealt through the real bot (its own process,
loopback HTTP), played for a while, then SIGTERM (or ``--kill``: SIGKILL) and a new process on
the same database. Prints how long the new process takes to its first ``getUpdates`` (when it
answers players again) and what it sends to Telegram until quiet: a restart should edit
nothing that has not changed (issue #30).

    python -m bench.restart [--tables 1000] [--play 10] [--kill]

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.load import Load, LoadApi, OverHttp, seat


class RestartApi(LoadApi):
    """The load benchmark's fake API, counting the calls each process makes."""

    def __init__(self) -> None:
        super().__init__()
        self.counted: Counter[str] = Counter()
        self.first_poll: float | None = None

    async def dispatch(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.counted[method] += 1
        if method == "getUpdates" and self.first_poll is None:
            self.first_poll = time.monotonic()
        return await super().dispatch(method, params)


async def run(tables: int, play: float, kill: bool) -> None:
    api = RestartApi()
    with tempfile.TemporaryDirectory() as tmp:
        host = OverHttp(api, str(Path(tmp) / "restart.sqlite3"), "aiohttp", 1)
        await host.start()
        load = Load(api, tables, 1.0, seed=tables)
        started = time.monotonic()
        for chunk in range(0, tables, 100):
            await asyncio.gather(*(seat(load, r) for r in load.rigs[chunk : chunk + 100]))
        print(f"{tables} tables seated and dealt in {time.monotonic() - started:.1f} s")
        stop = asyncio.Event()  # then play for a while: the tables stand mid-deal, mid-rubber
        players = [asyncio.create_task(load.play(rig, stop)) for rig in load.rigs]
        await asyncio.sleep(play)
        stop.set()
        for rig in load.rigs:
            rig.changed.set()
        await asyncio.wait(players, timeout=60)
        await host.settle(load)
        presses = sum(r.presses for r in load.rigs)
        print(f"then {presses} presses in {play:.0f} s")
        assert host.process is not None
        stopping = time.monotonic()
        if kill:  # SIGKILL: what was queued and not yet sent is the restart's to send
            host.process.kill()
            await host.process.process.wait()
        else:
            await host.process.stop()
        print(f"{'SIGKILL' if kill else 'graceful stop'}: {time.monotonic() - stopping:.1f} s")
        api.counted.clear()
        api.first_poll = None
        shown = load.shown
        begun = time.monotonic()
        await host.start_bot()
        ready = time.monotonic() - begun
        await host.settle(load)
        first = (api.first_poll or begun) - begun
        print(
            f"restart: ready in {ready:.2f} s, first getUpdates {first:.2f} s after start; "
            f"edits {api.counted['editMessageText']}, new messages "
            f"{api.counted['sendMessage']}, messages shown anew {load.shown - shown}"
        )
        await host.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--play", type=float, default=10.0, help="seconds of play first")
    parser.add_argument("--kill", action="store_true", help="SIGKILL instead of SIGTERM")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.play, args.kill))


if __name__ == "__main__":
    main()
