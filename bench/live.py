"""A table everyone can follow: how stale what people see is, and what each chat costs, at a
person's pace and at a robot's, with one table, three tables in one forum group, and a hundred
tables under the production caps.

    python -m bench.live [--seconds 60] [--cases one forum hundred pulka pulka-forum pulka-hundred]
                         [--paces 6 1] [--tables N] [--overall-rate 30] [--group-mode]

``--group-mode``: the bot is an administrator of every group, so the players' screens are
ephemeral messages in the group (``bot.places``), paced by ``EPHEMERAL_PER_MINUTE`` (40): the
screens' numbers are theirs, and the group's calls are counted apart from them.

Bridge tables of four scripted players run through the real application against the fake Bot
API (answered in-process, as ``bench.load`` explains), with production pacing: 4 s between
calls to a group, 1 s to a private chat, a waiting player's screen at most every 8 s
(``LIVE_SCREEN_SECONDS`` in the environment to compare), 30 calls a second overall (the
outbox's gate at nine tenths of it). A player presses a button ``pace`` seconds
(uniformly 0.5 to 1.5 times that) after the bot shows it to them. Printed per case:

- group table: seconds from the change (the press's answer) to the group's table message
  showing it, p50 / p95 (a state skipped by coalescing counts as shown by the next one);
- waiting screens: the same for the screens of players who are not on turn;
- prompt: the same for the screen of the player on turn (their buttons), p50 / p95;
- the busiest minute of calls to any one group (Telegram: about 20), and calls per deal by
  method and kind of chat;
- tricks seen: of the tricks of the deals played to their end, how many some version of the
  group's table showed complete, with who took it (the trick before stays in view beside the
  one under way until that one is complete);
- results before the last trick: deals whose result reached the group before the table's
  final version (the one with the last trick).

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.load import FIRST_CHAT, Load, LoadApi, TableRig, live_seconds, percentile, seat
from bot.rendered import TABLE, URGENT, WAITING
from tests.bot.harness import Harness
from tests.fakeapi import Sent

FORUM = FIRST_CHAT  # the one forum group of the forum case
DEAL = re.compile(r"deal (\d+)")
TRICK = re.compile(r"(?:Trick|Previous trick) (\d+): ([^\n]*)")
SUITS = re.compile("[♠♣♦♥]")
OVER = "The deal is over."


class ForumLoad(Load):
    """``tables`` tables in one forum group, a topic each (their messages told apart by topic)."""

    def __init__(self, api: LoadApi, tables: int, think: float, seed: int) -> None:
        super().__init__(api, tables, think, seed)
        for rig in self.rigs:
            rig.chat_id = FORUM
            rig.thread = 100 + rig.index

    def rig_of(self, sent: Sent) -> TableRig | None:
        if sent.chat_id < 0:
            return next((r for r in self.rigs if r.thread == sent.thread_id), None)
        return self.rig_of_chat(sent.chat_id)


class PulkaLoad(Load):
    """Preferans tables of three: every action a button of the player's screen, the discard
    chosen through its menu (two cards, then the confirmation)."""

    OPEN = "/preferans"
    SEATS = "012"

    def offers(self, data: list[str]) -> bool:
        return any((":a:" in d and not d.endswith(":a:undo")) or ":mn:drop" in d for d in data)

    def choose(self, sent: Sent) -> str:
        data = [b["callback_data"] for b in sent.buttons() if "callback_data" in b]
        acts = [d for d in data if ":a:" in d and not d.endswith(":a:undo")]
        drop = [d for d in acts if ":a:drop." in d]
        if drop:
            return drop[0]
        menus = [d for d in data if ":mn:drop" in d]
        if menus:  # a card of the discard: one not chosen yet
            return self.rng.choice(menus)
        bids = [d for d in acts if ":a:bid." in d]
        if bids:
            passes = [d for d in bids if d.endswith("bid.P")]
            if passes and self.rng.random() < 0.7:
                return passes[0]
            return self.rng.choice(bids[:4])
        cards = [d for d in acts if ":a:card." in d]
        return self.rng.choice(cards or acts)


@dataclass
class Case:
    name: str
    tables: int
    forum: bool = False
    game: str = "bridge"


CASES = {
    "one": Case("1 table", 1),
    "forum": Case("3 tables in one forum group", 3, forum=True),
    "hundred": Case("100 tables, production caps", 100),
    "pulka": Case("1 Preferans table", 1, game="preferans"),
    "pulka-forum": Case("3 Preferans tables in one forum group", 3, forum=True, game="preferans"),
    "pulka-hundred": Case("100 Preferans tables, production caps", 100, game="preferans"),
}


async def run(
    case: Case,
    pace: float,
    seconds: float,
    overall_rate: float = 30.0,
    group_mode: bool = False,
    ephemeral_rate: int = 60,
) -> None:
    api = LoadApi()
    api.keep_calls = True
    if group_mode:  # the bot administers every group: the screens are shown there
        api.bot_admin.update({FIRST_CHAT - i for i in range(case.tables)})
    with tempfile.TemporaryDirectory() as tmp:
        harness = Harness(
            api,
            str(Path(tmp) / "live.sqlite3"),
            group_interval=4.0,
            private_interval=1.0,
            in_process=True,
            turn_notice=10.0,
            overall_rate=overall_rate,
            group_rate=20,
            ephemeral_rate=ephemeral_rate,
            live_interval=live_seconds(),
        )
        await harness.start()
        kind = PulkaLoad if case.game == "preferans" else Load
        if case.forum:
            kind = type("Forum" + kind.__name__, (ForumLoad, kind), {})
        load: Load = kind(api, case.tables, pace, seed=7)
        if case.forum:
            for rig in load.rigs:  # one topic after another: one group's pace
                await seat(load, rig)
        else:
            for chunk in range(0, case.tables, 50):
                await asyncio.gather(*(seat(load, r) for r in load.rigs[chunk : chunk + 50]))
        await harness.settle(timeout=600)
        outbox = harness.outbox
        outbox.delays = []
        calls_from = len(api.calls)
        stop = asyncio.Event()
        players = [asyncio.create_task(load.play(rig, stop)) for rig in load.rigs]
        started = time.monotonic()
        await asyncio.sleep(seconds)
        stop.set()
        for rig in load.rigs:
            rig.changed.set()
        await asyncio.wait(players, timeout=30)
        for task in players:
            task.cancel()
        window = time.monotonic() - started
        delays = list(outbox.delays)
        calls = [c for c in api.calls[calls_from:] if c.at <= started + window]
        await harness.stop()

    def pick(group: bool, priority: int) -> list[float]:
        return [s for chat, p, s in delays if (chat < 0) == group and p == priority]

    table = pick(True, TABLE)
    waiting = pick(False, WAITING)
    prompt = pick(False, URGENT)
    by_group: dict[int, list[float]] = {}
    by_group_ephemeral: dict[int, list[float]] = {}
    for call in calls:
        chat = int(call.params.get("chat_id", 0))
        if chat < 0 and call.method != "answerCallbackQuery":
            lane = by_group_ephemeral if ephemeral(call) else by_group
            lane.setdefault(chat, []).append(call.at)

    def busiest_of(lanes: dict[int, list[float]]) -> int:
        return max(
            (sum(1 for t in times if s <= t < s + 60) for times in lanes.values() for s in times),
            default=0,
        )

    busiest, busiest_ephemeral = busiest_of(by_group), busiest_of(by_group_ephemeral)
    per_deal = 30 if case.game == "preferans" else 60  # presses in a deal, about
    deals = max(1, sum(r.presses for r in load.rigs) // per_deal)
    kinds: Counter[str] = Counter()
    for call in calls:
        chat = int(call.params.get("chat_id", 0))
        where = "ephemeral" if ephemeral(call) else "group" if chat < 0 else "private"
        where = where if chat else "-"
        kinds[f"{call.method} {where}"] += 1

    seen, played, early = follow(calls, 3 if case.game == "preferans" else 4)

    def ms(values: list[float], q: float) -> str:
        return f"{percentile(values, q):.2f}" if values else "-"

    cap = "" if overall_rate == 30.0 else f", overall cap {overall_rate:g}/s"
    cap += f", screens in the group ({ephemeral_rate} a minute)" if group_mode else ""
    print(
        f"{case.name} ({case.tables} tables{cap}), an action every {pace:g} s, "
        f"{window:.0f} s: {sum(r.presses for r in load.rigs)} presses"
    )
    print(
        f"  group table shown after (s): p50 {ms(table, 0.5)} p95 {ms(table, 0.95)} "
        f"({len(table)} edits)"
    )
    print(
        f"  waiting screens (s): p50 {ms(waiting, 0.5)} p95 {ms(waiting, 0.95)} "
        f"({len(waiting)} edits)"
    )
    print(f"  prompt (s): p50 {ms(prompt, 0.5)} p95 {ms(prompt, 0.95)} ({len(prompt)} sends)")
    print(f"  busiest minute of one group: {busiest} calls")
    if group_mode:
        print(f"  busiest minute of one group's ephemeral screens: {busiest_ephemeral} calls")
    per_deal = ", ".join(f"{k} {v / deals:.1f}" for k, v in sorted(kinds.items()))
    print(f"  calls per deal (~{deals} deals): {per_deal}")
    print(f"  tricks seen in the group: {seen} of {played}; results before the last trick: {early}")


def ephemeral(call: Any) -> bool:
    """A call about an ephemeral message (a player's screen in the group)."""
    return "ephemeral_message_parameters" in call.params or "receiver_user_id" in call.params


def follow(calls: list[Any], players: int) -> tuple[int, int, int]:
    """Read the groups' calls in order: (tricks some table version showed complete, tricks of
    the deals played to their end, results sent before their table's final version). A trick
    line is complete with its taker ("→"), or, as older versions showed it, with a card of
    every player (a raspasy's talon card aside)."""
    shown: dict[tuple[int, int, str], set[int]] = {}
    numbers: dict[tuple[int, int, str], set[int]] = {}
    ended: set[tuple[int, int, str]] = set()
    final_since: dict[tuple[int, int], bool] = {}
    early = 0
    for call in calls:
        chat = int(call.params.get("chat_id", 0))
        text = str(call.params.get("text", ""))
        if chat >= 0 or call.method not in ("sendMessage", "editMessageText") or ephemeral(call):
            continue
        place = (chat, int(call.params.get("message_thread_id", 0) or 0))
        if "🃏" in text:  # a version of a table
            found = DEAL.search(text)
            if found is None:
                continue
            deal = (*place, found.group(1))
            for number, cards in TRICK.findall(text):
                numbers.setdefault(deal, set()).add(int(number))
                own = cards.split("·", 1)[-1] if cards.startswith("talon") else cards
                played_here = SUITS.findall(own.split("→")[0])
                if "→" in cards or len(played_here) >= players:
                    shown.setdefault(deal, set()).add(int(number))
            if OVER in text:
                ended.add(deal)
                final_since[place] = True
        elif "🔓" in text:  # a deal's result
            if not final_since.get(place, False):
                early += 1
            final_since[place] = False
    seen = sum(len(shown.get(d, set())) for d in ended)
    played = sum(max(numbers.get(d, set()), default=0) for d in ended)
    return seen, played, early


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--cases", nargs="+", default=["one", "forum", "hundred"])
    parser.add_argument("--paces", nargs="+", type=float, default=[6.0, 1.0])
    parser.add_argument("--tables", type=int, help="this many tables instead of the case's")
    parser.add_argument(
        "--overall-rate",
        type=float,
        default=30.0,
        help="OVERALL_RATE_PER_SECOND (30 by default): what one token may send in all",
    )
    parser.add_argument(
        "--group-mode", action="store_true", help="the players' screens in the group (admin)"
    )
    parser.add_argument(
        "--ephemeral-rate", type=int, default=60, help="EPHEMERAL_PER_MINUTE (a group's screens)"
    )
    args = parser.parse_args()
    for name in args.cases:
        case = CASES[name]
        if args.tables:
            case = Case(case.name, args.tables, case.forum, case.game)
        for pace in args.paces:
            asyncio.run(
                run(
                    case,
                    pace,
                    args.seconds,
                    args.overall_rate,
                    args.group_mode,
                    args.ephemeral_rate,
                )
            )


if __name__ == "__main__":
    main()
