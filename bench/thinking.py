"""Where robots think (``bot.thinking``): the round trip a thought costs, thoughts a second, and
what a dead worker costs, in the bot's own processes and on queue workers.

    python -m bench.thinking [--thoughts 40] [--budget 0.5] [--workers 1 2]

- round trip: a robot's call in the auction (milliseconds of thinking), asked one at a time:
  what the place adds to each thought;
- thoughts a second: that many card thoughts (the opening lead's position, ``--budget``
  seconds each) asked at once, with 1 and 2 workers (queue: ``python -m bot.thinker``
  processes on a PostgreSQL server started here);
- a dead worker: a worker SIGKILLed while it thinks, and the seconds until the thought is
  answered all the same.

The queue runs on this machine, so its workers share its two cores with the bot; elsewhere
they would not. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import signal
import statistics
import time
from typing import Any

from bot.thinking import LocalThinking, QueueThinking, Thinking
from games.bridge.cards import Deal, Seat
from games.bridge.deal import DealState, MakeCall, Phase
from games.bridge.robot import Robot, move
from tests.bot.processes import workers
from tests.pg import server


def positions(count: int, seed: int) -> tuple[list[Any], list[Any]]:
    """Views of a robot about to call, and of one about to lead, from random deals."""
    rng = random.Random(seed)
    robot = Robot(seed=seed)
    calls, leads = [], []
    while len(leads) < count:
        state = DealState.new(Deal.shuffled(Seat(rng.randrange(4)), rng.randrange))
        while state.phase is Phase.AUCTION:
            assert state.actor is not None
            view = state.view(state.actor)
            calls.append(view)
            action = robot.act(view)
            assert isinstance(action, MakeCall)
            state = state.apply(action)
        if state.phase is Phase.PLAY and state.actor is not None:
            leads.append(state.view(state.actor))
    return calls[:count], leads


async def round_trips(thinking: Thinking, views: list[Any]) -> list[float]:
    took = []
    for i, view in enumerate(views):
        args = (view, i, 0.1, thinking.cores)
        started = time.perf_counter()
        await thinking.run(f"rt:{i}", move, *args)
        took.append(time.perf_counter() - started)
    return took


async def throughput(thinking: Thinking, views: list[Any], budget: float, tag: str) -> float:
    started = time.perf_counter()
    await asyncio.gather(
        *(thinking.run(f"{tag}:{i}", move, v, i, budget, 1) for i, v in enumerate(views))
    )
    return len(views) / (time.perf_counter() - started)


def line(name: str, trips: list[float], rate: float) -> str:
    ms = sorted(t * 1000 for t in trips)
    return (
        f"{name:34} round trip median {statistics.median(ms):6.1f} ms, "
        f"p90 {ms[int(len(ms) * 0.9)]:6.1f} ms; {rate:5.2f} card thoughts/s"
    )


async def main_async(count: int, budget: float, worker_counts: list[int]) -> None:
    calls, leads = positions(count, 7)
    print(f"{count} calls and {count} opening leads (budget {budget} s each, one core)")
    for n in worker_counts:
        local = LocalThinking(n)
        await local.run("warm", move, calls[0], 0, 0.1, 1)  # the pool's processes start
        trips = await round_trips(local, calls)
        rate = await throughput(local, leads, budget, f"local{n}")
        print(line(f"local pool, {n} process(es)", trips, rate), flush=True)
        await local.close()
    with server() as pg:
        for n in worker_counts:
            url = pg.new_database()
            async with workers(url, n) as started:
                queue = QueueThinking(url)
                await queue.run("warm", move, calls[0], 0, 0.1, 1)
                trips = await round_trips(queue, calls)
                rate = await throughput(queue, leads, budget, f"queue{n}")
                print(line(f"queue, {n} worker(s)", trips, rate), flush=True)
                if n >= 2:
                    # A worker killed in the middle of a thought: how long until it is answered.
                    args = (leads[0], 99, 3.0, 1)
                    asked = time.perf_counter()
                    thought = asyncio.create_task(queue.run("kill", move, *args))
                    while not any(w.said("thinking kill") for w in started):
                        await asyncio.sleep(0.01)
                    victim = next(w for w in started if w.said("thinking kill"))
                    await asyncio.sleep(0.5)
                    victim.process.send_signal(signal.SIGKILL)
                    killed = time.perf_counter()
                    await thought
                    print(
                        f"{'':34} a worker killed 0.5 s into a 3 s thought: answered "
                        f"{time.perf_counter() - killed:.1f} s after the kill "
                        f"({time.perf_counter() - asked:.1f} s after asking; "
                        f"{queue.retried} thought(s) put back)",
                        flush=True,
                    )
                await queue.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--thoughts", type=int, default=40)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    asyncio.run(main_async(args.thoughts, args.budget, args.workers))


if __name__ == "__main__":
    main()
