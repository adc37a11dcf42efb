"""Bot API calls per deal, and the busiest minute of group calls in a deal played at one card
a second, through the real application and the fake Bot API.

    python -m bench.api_economy [--deals 2] [--card-seconds 1.0] [--group-interval 4.0]
                                [--turn-notice 20] [--slow-seconds 0]

Time runs for real (a deal at one card a second takes about a minute); ``--scale 0.1`` runs
ten times faster with every interval, and the one-minute window, scaled alike.
``--slow-seconds 30`` makes one player (West) take that long over each of their actions, as a
player who looked away: the turn notices (``--turn-notice``; 0 turns them off) then show their
cost. Prints numbers; asserts nothing. The naive design it compares with posts one group message
per call and per card (computed, not built).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.fakeapi import Call, FakeBotApi


@dataclass(frozen=True)
class DealCalls:
    """A deal's Bot API calls, by where they went."""

    group: int
    private: int
    answers: int  # answerCallbackQuery
    deletes: int  # deleteMessage: one per turn notice
    busiest_minute: int  # group calls in the busiest (scaled) minute


def deal_calls(calls: Sequence[Call], scale: float) -> DealCalls:
    group = [c for c in calls if int(c.params.get("chat_id", 0)) < 0]
    private = [c for c in calls if int(c.params.get("chat_id", 0)) > 0]
    window = 60.0 * scale
    worst = max((sum(1 for d in group if c.at <= d.at < c.at + window) for c in group), default=0)
    return DealCalls(
        len(group),
        len(private),
        sum(1 for c in calls if c.method == "answerCallbackQuery"),
        sum(1 for c in calls if c.method == "deleteMessage"),
        worst,
    )


async def run(
    deals: int,
    card_seconds: float,
    group_interval: float,
    scale: float,
    turn_notice: float = 20.0,
    slow_seconds: float = 0.0,
) -> None:
    api = FakeBotApi()
    await api.start()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.sqlite3")
        h = Harness(api, path)
        await h.start()
        await seat_four(h)  # seated quickly, then restarted with real pacing
        await h.stop()
        harness = Harness(
            api,
            path,
            group_interval=group_interval * scale,
            private_interval=1.0 * scale,
            turn_notice=turn_notice * scale,
        )
        await harness.start()
        await harness.settle()
        driver = Driver(harness, PLAYERS, random.Random(11))
        for deal in range(1, deals + 1):
            start_index = len(api.calls)
            start = time.monotonic()
            cards = presses = 0
            while not any(f"Сдача {deal}</b>:" in m.text for m in api.chat_messages(GROUP)):
                user_message = driver.actor()
                if user_message is None:
                    await asyncio.sleep(0.01)
                    continue
                user, message = user_message
                if slow_seconds and user is PLAYERS[3]:
                    await asyncio.sleep(slow_seconds * scale)
                    user_message = driver.actor()
                    if user_message is None:
                        continue
                    user, message = user_message
                data = driver.choose(user, message)
                query = await api.press(user, message, data)
                await api.answer_of(query)
                if int(data.split(":")[2].split(".")[0]) == deal:
                    presses += 1
                    cards += ":a:card." in data
                await asyncio.sleep(card_seconds * scale)
            await harness.outbox.drain()
            calls = api.calls[start_index:]
            elapsed = time.monotonic() - start
            counted = deal_calls(calls, scale)
            naive = presses  # one group post per call and per card
            print(
                f"deal {deal}: {presses} presses ({cards} cards) in {elapsed / scale:.0f} s "
                f"(scaled): group calls {counted.group}, private calls {counted.private}, "
                f"callback answers {counted.answers}, turn notices {counted.deletes} (each a "
                f"new message and a deletion); busiest minute {counted.busiest_minute} group calls "
                f"(naive: {naive} posts in the deal, up to {min(naive, int(60 / card_seconds))} "
                "a minute)"
            )
            # Tables one token serves at Telegram's ~30 calls a second, at this pace: counting
            # messages sent and edited, and counting the callback answers too.
            seconds = elapsed / scale
            messages = counted.group + counted.private
            print(
                f"  floor {4 + 2 * presses} private calls (4 hands + 2 edits an action); tables "
                f"per token: {30 / (messages / seconds):.0f} counting messages, "
                f"{30 / ((messages + counted.answers) / seconds):.0f} with the answers too"
            )
        await harness.stop()
    await api.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--card-seconds", type=float, default=1.0)
    parser.add_argument("--group-interval", type=float, default=4.0)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--turn-notice", type=float, default=20.0)
    parser.add_argument("--slow-seconds", type=float, default=0.0)
    args = parser.parse_args()
    asyncio.run(
        run(
            args.deals,
            args.card_seconds,
            args.group_interval,
            args.scale,
            args.turn_notice,
            args.slow_seconds,
        )
    )


if __name__ == "__main__":
    main()
