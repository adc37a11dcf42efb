"""Bot API calls per Preferans deal, and the busiest minute of group calls, with three players
pressing at one action a second, through the real application and the fake Bot API.

    python -m bench.preferans_economy [--deals 3] [--card-seconds 1.0] [--scale 1.0]

Time runs for real; ``--scale 0.1`` runs ten times faster with every interval, and the
one-minute window, scaled alike. Prints numbers; asserts nothing. The naive design it compares
with posts one group message per action (computed, not built).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.api_economy import deal_calls
from tests.bot.harness import GROUP, Harness
from tests.bot.test_preferans_table import PLAYERS, _choose, _offer, sit_all
from tests.fakeapi import FakeBotApi


def _deals_done(api: FakeBotApi) -> int:
    return sum(
        1 for m in api.chat_messages(GROUP) if m.text.startswith("<b>Сдача ") and "<pre>" in m.text
    )


async def _seat(h: Harness) -> None:
    for user in PLAYERS:
        await h.say(user, user.id, "/start")
    await h.say(PLAYERS[0], GROUP, "/preferans")
    await sit_all(h, PLAYERS)


async def run(deals: int, card_seconds: float, group_interval: float, scale: float) -> None:
    api = FakeBotApi()
    await api.start()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.sqlite3")
        h = Harness(api, path, shuffle_seed=4)
        await h.start()
        await _seat(h)  # seated quickly, then restarted with real pacing
        await h.stop()
        harness = Harness(
            api, path, group_interval=group_interval * scale, private_interval=1.0 * scale
        )
        await harness.start()
        await harness.settle()
        rng = random.Random(6)
        totals = {"group": 0, "private": 0, "answers": 0, "presses": 0}
        for deal in range(1, deals + 1):
            start_index = len(api.calls)
            start = time.monotonic()
            presses = 0
            while _deals_done(api) < deal:
                found = _offer(harness)
                if found is None:
                    await asyncio.sleep(0.01)
                    continue
                user, message, data = found
                query = await api.press(user, message, _choose(rng, data))
                await api.answer_of(query)
                presses += 1
                await asyncio.sleep(card_seconds * scale)
            await harness.outbox.drain()
            calls = api.calls[start_index:]
            elapsed = time.monotonic() - start
            counted = deal_calls(calls, scale)
            print(
                f"deal {deal}: {presses} presses in {elapsed / scale:.0f} s (scaled): "
                f"group calls {counted.group}, private calls {counted.private}, callback "
                f"answers {counted.answers}; busiest minute {counted.busiest_minute} group calls "
                f"(naive: {presses} posts in the deal, up to {min(presses, int(60 / card_seconds))}"
                " a minute)"
            )
            totals["group"] += counted.group
            totals["private"] += counted.private
            totals["answers"] += counted.answers
            totals["presses"] += presses
        print(
            f"per deal on average: {totals['group'] / deals:.1f} group calls, "
            f"{totals['private'] / deals:.1f} private, {totals['presses'] / deals:.1f} presses"
        )
        await harness.stop()
    await api.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--card-seconds", type=float, default=1.0)
    parser.add_argument("--group-interval", type=float, default=4.0)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    asyncio.run(run(args.deals, args.card_seconds, args.group_interval, args.scale))


if __name__ == "__main__":
    main()
