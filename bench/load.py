"""Load: N tables at once, each with four scripted players pressing the buttons the bot offers.

    python -m bench.load [--tables 10 100 1000] [--seconds 30] [--think 2.0] [--robots 0 0.1]
                         [--http [aiohttp] [httpx]]

With ``--http`` the bot is ``python -m bot`` in a process of its own, calling the fake Bot API
(served from this process) over loopback HTTP with each Bot API client named in turn, side by
side in one run; the CPU a press costs is read from the bot's process alone (``/proc``).

With ``--floor`` each run over HTTP is followed by ``bench.floor``'s leanest bot at the same
chats, think time and calls a press, and how far ours is above it (issue #48's check).

With ``--postgres`` the bot runs on a PostgreSQL server started here, and with ``--processes
2`` (or more) as that many processes sharing the groups (``SHARDS``); ``--statements`` prints
the statements and transactions a press costs there (``pg_stat_statements``).

With ``--robots 0.1`` a tenth of the tables seat one person and three robots (they think in
the bot's process pool, as in production, one second's budget a card, a second's pause before
each move); the answer times printed are the people's presses, so a run with and without
robots shows whether robots thinking slows everyone else down.

The real application (PTB's ``Bot``, the rate limiter, handlers, service, SQLite in a temporary
file, the outbox) runs against the fake Bot API the tests use, answered in-process through
``InProcessRequest``: an aiohttp server on the bot's own event loop would spend more CPU on
HTTP than the bot spends on bridge, so it would measure itself. Updates still arrive by long
polling (``getUpdates``), as in production. Telegram's rate limits are lifted (they would only
measure Telegram); the outbox keeps its production pacing (4 s per group, 1 s per private chat,
a waiting player's screen every ``LIVE_SCREEN_SECONDS``, 8 s unless the environment says;
turn notices off unless ``TURN_NOTICE_SECONDS`` is set, as production's 10).

Each table is its own group with four players. A player waits until the bot shows them call or
card buttons, thinks ``think`` seconds (uniformly 0.5 to 1.5 times that), and presses one; at
``--think 0`` every table presses as fast as the bot answers (saturation). Printed per N:

- updates handled per second (presses, over the measured window);
- p50 / p99 / max from a press's arrival (put in the update queue) to the bot's answer to it
  (``answerCallbackQuery``: the handler's last call, after the event is committed to SQLite);
- p50 / p99 / max from a press's arrival to the next player's buttons (the private edit that
  lets play go on; it includes the 1 s per-chat pacing when one chat is written twice in a row);
- RSS before the tables, after seating them (idle, every table dealt and waiting), and peak;
  memory per idle table is the difference over N, and includes the fake API's copy of every
  message the bot sent (a few per table), so the bot's own share is smaller.

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import math
import os
import random
import resource
import sqlite3
import tempfile
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.config import HTTP_CLIENTS, Config
from bot.robots import RobotPlayers
from bot.tables import Change
from tests.bot.harness import Harness
from tests.bot.processes import BotProcess, workers
from tests.fakeapi import FakeBotApi, Sent, User
from tests.pg import server

FIRST_USER = 1_000_000
FIRST_CHAT = -10_000
NAMES = ("Anna", "Bob", "Cat", "Dima")


def rss_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def peak_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class GcWatch:
    """Garbage-collector pauses during the measured window (a tail-latency suspect)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._start = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        elif info.get("generation") == 2:
            self.pauses.append(time.perf_counter() - self._start)

    def close(self) -> None:
        gc.callbacks.remove(self._callback)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class TableRig:
    index: int
    users: list[User]
    chat_id: int
    thread: int | None = None  # its forum topic, if it has one
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    table_message: Sent | None = None
    rubber_button: tuple[Sent, str] | None = None
    actionable: dict[int, tuple[User, Sent, int]] = field(default_factory=dict)  # id -> ..., when
    pressed: set[tuple[int, int]] = field(default_factory=set)  # (message id, version)
    waiting_since: float | None = None  # arrival of the press whose follow-up we time
    presses: int = 0
    robots: bool = False  # one person and three robots
    robot_moved: float | None = None  # when a robot's last move here was taken


class LoadApi(FakeBotApi):
    """The fake API, plus what the benchmark reads: when each query was answered."""

    def __init__(self) -> None:
        super().__init__()
        self.answered_at: dict[str, float] = {}
        self.keep_calls = False
        self.keep_history = False
        self.order = 0  # a clock of sends and edits, to find the newest buttons
        self.methods: collections.Counter[str] = collections.Counter()  # calls, by method
        self.shown = [0, 0, 0]  # calls that show a message, their characters and buttons

    async def dispatch(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.methods[method] += 1
        text = params.get("text")
        rich = params.get("rich_message")
        if isinstance(rich, dict):
            text = rich.get("html")
        if isinstance(text, str):
            markup = params.get("reply_markup")
            if isinstance(markup, str):  # a form body's
                markup = json.loads(markup)
            rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
            self.shown[0] += 1
            self.shown[1] += len(text)
            self.shown[2] += sum(len(row) for row in rows)
        return await super().dispatch(method, params)

    def stamp(self) -> int:
        self.order += 1
        return self.order

    async def _m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        self.answered_at[str(params["callback_query_id"])] = time.monotonic()
        return await super()._m_answerCallbackQuery(params)


class Load:
    OPEN = "/bridge"  # the command that opens a table of the game played
    SEATS = "NESW"  # its seats' codes, in the order players sit

    def __init__(self, api: LoadApi, tables: int, think: float, seed: int) -> None:
        self.api = api
        self.rng = random.Random(seed)
        self.think = think
        self.rigs = [
            TableRig(
                i,
                [User(FIRST_USER + 4 * i + k, NAMES[k], "en") for k in range(4)],
                FIRST_CHAT - i,
            )
            for i in range(tables)
        ]
        self.arrivals: dict[str, float] = {}
        self.follow_ups: list[float] = []
        self.prompts: list[float] = []  # robot tables: a robot's move to the person's buttons
        self.rounds: list[float] = []  # robot tables: the person's press to their next buttons
        self.measuring = False
        self.refused = 0
        self.shown = 0  # sends and edits seen so far
        api.on_sent.append(self.seen)

    def rig_of(self, sent: Sent) -> TableRig | None:
        """The table a message belongs to (a benchmark of forum topics tells them apart)."""
        return self.rig_of_chat(sent.chat_id)

    def rig_of_chat(self, chat_id: int) -> TableRig | None:
        index = (chat_id - FIRST_USER) // 4 if chat_id > 0 else FIRST_CHAT - chat_id
        return self.rigs[index] if 0 <= index < len(self.rigs) else None

    def seen(self, sent: Sent) -> None:
        """Every message the bot sends or edits: keep each table's offered buttons current."""
        self.shown += 1
        rig = self.rig_of(sent)
        if rig is None:
            return
        data = [b.get("callback_data", "") for b in sent.buttons()]
        if sent.chat_id < 0 and sent.receiver is None:
            if any(d.endswith(f":sit:{self.SEATS[0]}") for d in data):
                rig.table_message = sent
            rubber = next((d for d in data if d.endswith(":nr")), None)
            if rubber is not None:
                rig.rubber_button = (sent, rubber)
            rig.changed.set()
            return
        owner = sent.receiver if sent.receiver is not None else sent.chat_id
        if self.offers(data):
            user = rig.users[(owner - FIRST_USER) % 4]
            rig.actionable[screen_id(sent)] = (user, sent, self.api.stamp())
            if rig.robots:  # the person's turn came with a robot's move, not their press
                if self.measuring and rig.robot_moved is not None:
                    self.prompts.append(time.monotonic() - rig.robot_moved)
                if self.measuring and rig.waiting_since is not None:
                    self.rounds.append(time.monotonic() - rig.waiting_since)
                rig.robot_moved = rig.waiting_since = None
            elif rig.waiting_since is not None:
                if self.measuring:
                    self.follow_ups.append(time.monotonic() - rig.waiting_since)
                rig.waiting_since = None
        else:
            rig.actionable.pop(screen_id(sent), None)
        rig.changed.set()

    def offers(self, data: list[str]) -> bool:
        """The screen asks its player to act."""
        return any(":a:call." in d or ":a:card." in d for d in data)

    def choose(self, sent: Sent) -> str:
        data = [b["callback_data"] for b in sent.buttons() if "callback_data" in b]
        calls = [d for d in data if ":a:call." in d]
        if calls:
            bids = [d for d in calls if d.rsplit(".", 1)[1][0].isdigit()]
            if bids and self.rng.random() < 0.3:
                return self.rng.choice(bids[:5])
            return next(d for d in calls if d.endswith("call.P"))
        return self.rng.choice([d for d in data if ":a:card." in d])

    def pick(self, rig: TableRig) -> tuple[User, Sent] | None:
        fresh = [
            (when, user, sent)
            for user, sent, when in rig.actionable.values()
            if (screen_id(sent), sent.version) not in rig.pressed
        ]
        if not fresh:
            return None
        _, user, sent = max(fresh, key=lambda wus: wus[0])
        return user, sent

    async def press(self, rig: TableRig, user: User, sent: Sent, data: str) -> None:
        rig.pressed.add((screen_id(sent), sent.version))
        query = f"q{id(rig)}-{rig.presses}"
        rig.presses += 1
        self.arrivals[query] = time.monotonic()
        rig.waiting_since = self.arrivals[query]
        await self.api.press(user, sent, data, query)
        answer = await self.api.answer_of(query, timeout=120)
        self.api.answers.pop(query, None)
        if answer.get("text"):
            self.refused += 1

    async def play(self, rig: TableRig, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await rig.changed.wait()
            rig.changed.clear()
            chosen = self.pick(rig)
            if chosen is None:
                if rig.rubber_button is not None:
                    sent, data = rig.rubber_button
                    rig.rubber_button = None
                    await self.press(rig, rig.users[0], sent, data)
                continue
            if self.think:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                chosen = self.pick(rig) or chosen
            user, sent = chosen
            await self.press(rig, user, sent, self.choose(sent))
            rig.changed.set()  # look again: the next buttons may already be there


def screen_id(sent: Sent) -> int:
    """A player's screen, told apart whether private or ephemeral in the group (ephemeral
    messages are numbered apart from messages)."""
    return -sent.message_id if sent.receiver is not None else sent.message_id


async def seat(load: Load, rig: TableRig, robots: bool = False) -> None:
    """Four people sit through deep links; or, at a robot table, one person sits North and
    fills the other seats with robots from the seating message."""
    api = load.api
    await api.send_text(rig.users[0], rig.chat_id, load.OPEN, rig.thread)
    while rig.table_message is None:
        await rig.changed.wait()
        rig.changed.clear()
    table = rig.table_message
    seated = list(zip(rig.users, load.SEATS, strict=False))[: 1 if robots else 4]
    for user, seat_name in seated:
        data = next(
            b["callback_data"]
            for b in table.buttons()
            if b.get("callback_data", "").endswith(f":sit:{seat_name}")
        )
        query = await api.press(user, table, data)
        answer = await api.answer_of(query, timeout=120)
        payload = answer["url"].split("start=")[1]
        await api.send_text(user, user.id, f"/start {payload}")
    for seat_name in "ESW" if robots else "":
        found = None
        while found is None:
            found = next(
                (
                    (sent, b["callback_data"])
                    for sent in api.chat_messages(rig.chat_id)
                    for b in sent.buttons()
                    if b.get("callback_data", "").endswith(f":rb:{seat_name}")
                ),
                None,
            )
            if found is None:
                await asyncio.sleep(0.05)
        query = await api.press(rig.users[0], found[0], found[1])
        await api.answer_of(query, timeout=120)
    while not rig.actionable and not robots:
        await rig.changed.wait()
        rig.changed.clear()


def cpu_seconds(pid: int, loop_only: bool = False) -> float:
    """User and system CPU a process has used so far (``/proc/<pid>/stat``); ``loop_only``:
    its main thread's alone (the event loop's, without SQLite's and the pools' threads)."""
    path = f"/proc/{pid}/task/{pid}/stat" if loop_only else f"/proc/{pid}/stat"
    with open(path) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


STATEMENTS = "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"


async def _pg(url: str, sql: str) -> list[Any]:
    conn = await asyncpg.connect(url)
    try:
        return list(await conn.fetch(sql))
    finally:
        await conn.close()


def machine_busy() -> tuple[float, float]:
    """The machine's busy and total CPU time so far, every core (``/proc/stat``)."""
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return float(sum(fields) - idle), float(sum(fields))


def rss_of(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def live_seconds() -> float:
    """A waiting player's screen's pace: production's (``Config``), or ``LIVE_SCREEN_SECONDS``
    from the environment to compare (the bot over HTTP reads it there too)."""
    return Config.from_env({"BOT_TOKEN": "1:x", **os.environ}).live_interval


def turn_notice() -> str:
    """Seconds before an idle player's screen is sent anew: off unless ``TURN_NOTICE_SECONDS``
    in the environment says (production's 10 arms a timer for each player on turn)."""
    return os.environ.get("TURN_NOTICE_SECONDS") or "0"


class InProcess:
    """The bot in this process, answered through ``InProcessRequest`` (no HTTP)."""

    def __init__(self, api: LoadApi, database: str, reviews: int, queue: str | None = None) -> None:
        self.harness = Harness(
            api,
            database,
            group_interval=4.0,
            private_interval=1.0,
            in_process=True,
            robot_delay=1.0,  # as in production
            robot_budget=1.0,
            robot_workers=0,  # as in production: one a CPU, less the one kept for people
            review_workers=reviews,
            robot_queue=queue,
            live_interval=live_seconds(),
            turn_notice=float(turn_notice()),
        )
        self.pids = [os.getpid()]

    async def start(self) -> None:
        await self.harness.start()

    def robots(self) -> RobotPlayers:
        assert self.harness.app is not None
        robots: RobotPlayers = self.harness.app.bot_data["robots"]
        return robots

    def watch_robots(self, load: Load) -> None:
        """Marks each robot's move taken on its table's rig (the people's prompts count from
        there)."""
        robots = self.robots()
        show = robots.show

        def shown(change: Change) -> None:
            rig = load.rig_of_chat(change.snapshot.chat.tg_chat_id)
            if rig is not None:
                rig.robot_moved = time.monotonic()
            show(change)

        robots.show = shown

    async def settle(self, load: Load) -> None:
        await self.harness.settle(timeout=600)

    def reviewed(self) -> int:
        app = self.harness.app
        reviewer = None if app is None else app.bot_data["reviewer"]
        return 0 if reviewer is None else reviewer.reviewed

    async def stop(self) -> None:
        await self.harness.stop()


class OverHttp:
    """``python -m bot`` in a process of its own, calling the fake Bot API (in this process)
    over loopback HTTP with PTB's own transport, as in production: its CPU is read from
    ``/proc``, so the fake API and the players cost it nothing."""

    def __init__(
        self, api: LoadApi, database: str, client: str, reviews: int, processes: int = 1
    ) -> None:
        self.api, self.database, self.client = api, database, client
        self.reviews = reviews
        self.count = processes
        self.processes: list[BotProcess] = []
        self.pids: list[int] = []

    @property
    def process(self) -> BotProcess | None:
        """The first (with one, the only) bot process."""
        return self.processes[0] if self.processes else None

    async def start(self) -> None:
        await self.api.start()
        await self.start_bot()

    async def start_bot(self) -> None:
        """The bot's processes (again, after a stop: a restart on the same database); with
        more than one, each serves its share of ``SHARDS`` (64)."""
        env = {
            "GROUP_EDIT_INTERVAL": "4",  # the production pacing
            "PRIVATE_EDIT_INTERVAL": "1",
            "GROUP_RATE_PER_MINUTE": "1000000",  # Telegram's limits lifted, as in-process
            "OVERALL_RATE_PER_SECOND": "1000000",
            "TURN_NOTICE_SECONDS": turn_notice(),
            "ROBOT_WORKERS": "0",
            "BOT_API_CLIENT": self.client,
            "REVIEW_WORKERS": str(self.reviews),
        }
        if self.count > 1:
            env["SHARDS"] = "64"
        self.processes = []
        for n in range(self.count):
            process = await BotProcess.start(self.api, self.database, f"load-{n}", env)
            await process.until("ready", 120)
            self.processes.append(process)
        if self.count > 1:  # until each holds its share
            deadline = time.monotonic() + 60
            while not all(p.said("took") or p.said("let ") for p in self.processes):
                assert time.monotonic() < deadline, [p.lines[-5:] for p in self.processes]
                await asyncio.sleep(0.1)
        self.pids = [p.process.pid for p in self.processes]

    async def settle(self, load: Load) -> None:
        """Until the bot has sent nothing for a second."""
        last, since = -1, time.monotonic()
        while time.monotonic() - since < 1.0:
            if load.shown != last:
                last, since = load.shown, time.monotonic()
            await asyncio.sleep(0.05)

    def reviewed(self) -> int:
        """Deals the bot's reviewer has recorded so far (read from its SQLite file)."""
        if "://" in self.database:
            return 0  # PostgreSQL: not counted
        with contextlib.closing(sqlite3.connect(self.database)) as db:
            return int(db.execute("SELECT count(*) FROM deal_reviews").fetchone()[0])

    async def stop(self) -> None:
        for process in self.processes:
            await process.stop()
        await self.api.stop()


async def run(
    tables: int,
    seconds: float,
    think: float,
    warmup: float,
    robot_share: float = 0.0,
    client: str = "",
    reviews: int = 1,
    queue_workers: int = 0,
    processes: int = 1,
    postgres: bool = False,
    statements: bool = False,
) -> dict[str, float]:
    """``client``: the bot over HTTP in its own process, with that Bot API client; "": the
    bot in this process, answered in-process. ``queue_workers``: robots think on that many
    ``python -m bot.thinker`` workers through the queue (a PostgreSQL server started here)
    instead of in the bot's own processes."""
    async with contextlib.AsyncExitStack() as stack:
        queue = database = None
        if queue_workers or postgres or processes > 1:
            pg = stack.enter_context(server(STATEMENTS if statements else ""))
            if queue_workers:
                queue = pg.new_database()
                await stack.enter_async_context(workers(queue, queue_workers))
            if postgres or processes > 1:
                database = pg.new_database()
                if statements:
                    pg.psql("CREATE EXTENSION pg_stat_statements", database.rsplit("/", 1)[1])
        return await _run(
            tables,
            seconds,
            think,
            warmup,
            robot_share,
            client,
            reviews,
            queue,
            queue_workers,
            processes,
            database,
            statements,
        )


async def _run(
    tables: int,
    seconds: float,
    think: float,
    warmup: float,
    robot_share: float,
    client: str,
    reviews: int,
    queue: str | None,
    queue_workers: int,
    processes: int = 1,
    pg_database: str | None = None,
    statements: bool = False,
) -> dict[str, float]:
    api = LoadApi()
    with tempfile.TemporaryDirectory() as tmp:
        database = pg_database or str(Path(tmp) / "load.sqlite3")
        host: InProcess | OverHttp = (
            OverHttp(api, database, client, reviews, processes)
            if client
            else InProcess(api, database, reviews, queue)
        )
        await host.start()
        gc.collect()
        before = sum(rss_of(pid) for pid in host.pids)
        load = Load(api, tables, think, seed=tables)
        started = time.monotonic()
        every = round(1 / robot_share) if robot_share else 0
        robot_rigs = {r.index for r in load.rigs if every and r.index % every == 0}
        for index in robot_rigs:
            load.rigs[index].robots = True
        if isinstance(host, InProcess):
            host.watch_robots(load)
        for chunk in range(0, tables, 100):
            await asyncio.gather(
                *(seat(load, r, r.index in robot_rigs) for r in load.rigs[chunk : chunk + 100])
            )
        seating = time.monotonic() - started
        await host.settle(load)
        gc.collect()
        idle = sum(rss_of(pid) for pid in host.pids)

        stop = asyncio.Event()
        players = [asyncio.create_task(load.play(rig, stop)) for rig in load.rigs]
        await asyncio.sleep(warmup)
        load.measuring = True
        watch = GcWatch()
        first_press = sum(r.presses for r in load.rigs)
        mark = len(load.arrivals)
        cpu_start = sum(cpu_seconds(pid) for pid in host.pids)
        loop_start = sum(cpu_seconds(pid, loop_only=True) for pid in host.pids)
        harness_start = cpu_seconds(os.getpid())
        machine_start = machine_busy()
        robots = host.robots() if isinstance(host, InProcess) else None
        moves_start = 0 if robots is None else len(robots.moves)
        cheaper_start = 0 if robots is None else robots.cheaper
        methods_start = collections.Counter(api.methods)
        shown_start = list(api.shown)
        if statements and pg_database:
            await _pg(pg_database, "SELECT pg_stat_statements_reset()")
        window_start = time.monotonic()
        await asyncio.sleep(seconds)
        window = time.monotonic() - window_start
        for process in getattr(host, "processes", []):
            if process.process.returncode is not None:
                raise RuntimeError(f"{process.name} left:\n{''.join(process.lines[-30:])}")
        cpu = sum(cpu_seconds(pid) for pid in host.pids) - cpu_start
        loop_cpu = sum(cpu_seconds(pid, loop_only=True) for pid in host.pids) - loop_start
        harness = cpu_seconds(os.getpid()) - harness_start
        machine = [b - a for a, b in zip(machine_start, machine_busy(), strict=True)]
        methods = api.methods - methods_start
        shown = [b - a for a, b in zip(shown_start, api.shown, strict=True)]
        peak = sum(rss_of(pid) for pid in host.pids)
        moves = [] if robots is None else list(robots.moves)[moves_start:]
        cheaper = 0 if robots is None else robots.cheaper - cheaper_start
        load.measuring = False
        watch.close()
        handled = [q for q in list(load.arrivals)[mark:] if q in api.answered_at]
        if statements and pg_database:
            rows = await _pg(
                pg_database,
                "SELECT calls, total_exec_time, query FROM pg_stat_statements "
                "WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC",
            )
            per = max(1, len(handled))
            begins = sum(r["calls"] for r in rows if r["query"] == "BEGIN")
            print(
                f"      PostgreSQL in the window: {sum(r['calls'] for r in rows) / per:.1f} "
                f"statements and {begins / per:.1f} transactions a press; the most called:"
            )
            for r in rows[:8]:
                print(f"      {r['calls'] / per:6.2f} a press  {r['query'][:90]}")
        latencies = [api.answered_at[q] - load.arrivals[q] for q in handled]
        presses = sum(r.presses for r in load.rigs) - first_press
        stop.set()
        for rig in load.rigs:
            rig.changed.set()
        await asyncio.wait(players, timeout=30)
        for task in players:
            task.cancel()
        result = {
            "tables": tables,
            "reviews": reviews,
            "reviewed": host.reviewed(),
            "robot_tables": len(robot_rigs),
            "seating_s": seating,
            "presses": presses,
            "updates_per_s": len(handled) / window,
            "cpu_ms_per_press": cpu / max(1, len(handled)) * 1000,
            "cpu_share": cpu / window,
            "loop_ms_per_press": loop_cpu / max(1, len(handled)) * 1000,
            "processes": len(host.pids),
            "harness_share": harness / window,
            "harness_ms_per_press": harness / max(1, len(handled)) * 1000,
            "machine_busy": machine[0] / max(1e-9, machine[1]),
            "calls_per_press": (methods.total() - methods["getUpdates"]) / max(1, len(handled)),
            "polls_per_press": methods["getUpdates"] / max(1, len(handled)),
            "chars_per_message": shown[1] / max(1, shown[0]),
            "buttons_per_message": shown[2] / max(1, shown[0]),
            "answer_p50_ms": percentile(latencies, 0.50) * 1000,
            "answer_p99_ms": percentile(latencies, 0.99) * 1000,
            "answer_max_ms": max(latencies, default=float("nan")) * 1000,
            "next_p50_ms": percentile(load.follow_ups, 0.50) * 1000,
            "next_p99_ms": percentile(load.follow_ups, 0.99) * 1000,
            "next_max_ms": max(load.follow_ups, default=float("nan")) * 1000,
            "rss_before_mb": before / 1024,
            "rss_idle_mb": idle / 1024,
            "peak_mb": (peak if client else peak_kb()) / 1024,
            "kb_per_table": (idle - before) / tables,
            "robot_moves_per_s": len(moves) / window,
            "robot_cheaper": cheaper,
            "robot_move_p50_s": percentile(moves, 0.50),
            "robot_move_p90_s": percentile(moves, 0.90),
            "robot_move_max_s": max(moves, default=float("nan")),
            "prompt_p50_ms": percentile(load.prompts, 0.50) * 1000,
            "prompt_p99_ms": percentile(load.prompts, 0.99) * 1000,
            "prompt_max_ms": max(load.prompts, default=float("nan")) * 1000,
            "round_p50_s": percentile(load.rounds, 0.50),
            "round_p90_s": percentile(load.rounds, 0.90),
            "queue_workers": queue_workers,
            "refused": load.refused,
            "gc_full": len(watch.pauses),
            "gc_max_ms": max(watch.pauses, default=0.0) * 1000,
        }
        await host.stop()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument(
        "--robots",
        type=float,
        nargs="+",
        default=[0.0],
        help="shares of tables with one person and three robots (e.g. 0 0.1: both, in turn)",
    )
    parser.add_argument(
        "--http",
        nargs="*",
        choices=HTTP_CLIENTS,
        help="the bot in its own process over loopback HTTP, with each Bot API client named "
        "in turn (none named: aiohttp and httpx); its CPU alone is measured",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        nargs="+",
        default=[1],
        help="processes reviewing finished deals for /stats (0 1: without, then with them)",
    )
    parser.add_argument(
        "--queue",
        type=int,
        nargs="+",
        default=[0],
        help="robots think on this many queue workers (python -m bot.thinker on a PostgreSQL "
        "server started here); 0: in the bot's own processes (e.g. 0 1 2: each in turn)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        nargs="+",
        default=[1],
        help="with --http: that many bot processes on a PostgreSQL database started here "
        "(more than one: SHARDS=64); e.g. 1 2 1 2: side by side",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="with --http: the bot on a PostgreSQL database started here (one process too)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="with --http: after each run, bench.floor's leanest bot at the same chats, think "
        "time and calls a press, in the same run (issue #48's check: ours within 1 ms of it)",
    )
    parser.add_argument(
        "--statements",
        action="store_true",
        help="with --postgres: the statements a press costs (pg_stat_statements), printed",
    )
    args = parser.parse_args()
    clients = [""] if args.http is None else (args.http or list(HTTP_CLIENTS))
    for tables in args.tables:
        for share in args.robots:
            for client in clients:
                for reviews in args.reviews:
                    for queue in args.queue:
                        for processes in args.processes if client else [1]:
                            running = run(
                                tables,
                                args.seconds,
                                args.think,
                                args.warmup,
                                share,
                                client,
                                reviews,
                                queue if share else 0,
                                processes,
                                args.postgres,
                                args.statements,
                            )
                            r = report(args, client, running)
                            if args.floor and client:
                                beside_the_floor(args, r)


def beside_the_floor(args: argparse.Namespace, r: dict[str, float]) -> None:
    """The floor's leanest bot (``bench.floor``'s ``lean``) at the same chats, think time and
    calls a press, run right after ours in the same run, so both meet the machine as it is:
    its CPU a press at the edit counts either side of ours, read between them. Twice: with
    its one-line edits (issue #48's floor), and with edits of the size ours sent (their
    characters and buttons on average), the stack's cost of carrying what ours shows."""
    from bench.floor import run as floor

    edits = max(0.0, r["calls_per_press"] - 1)  # a press's own answer is the floor's too
    low, high = math.floor(edits), math.ceil(edits)
    tables = int(r["tables"])
    share = edits - low
    chars, buttons = round(r["chars_per_message"]), round(r["buttons_per_message"])
    for name, size in (("lean", (0, 0)), ("lean, ours' size", (chars, buttons))):
        at = {
            n: asyncio.run(floor(tables, args.seconds, args.think, n, "lean", *size))
            for n in {low, high}
        }
        cpu, presses = (
            at[low][key] + (at[high][key] - at[low][key]) * share
            for key in ("cpu_ms_per_press", "presses_per_s")
        )
        each = " / ".join(f"{at[n]['cpu_ms_per_press']:.2f}" for n in sorted(at))
        counts = " / ".join(str(n) for n in sorted(at))
        p99 = max(at[n]["answer_p99_ms"] for n in at)
        above = r["cpu_ms_per_press"] - cpu
        size_text = f" ({chars} characters and {buttons} buttons a message)" if size[0] else ""
        print(
            f"      the floor ({name}{size_text}) at {r['calls_per_press']:.2f} calls a press: "
            f"CPU {cpu:.2f} ms a press ({each} at {counts} edits), {presses:.0f} presses/s, "
            f"answer p99 {p99:.1f} ms; ours {above:+.2f} ms a press above it, "
            f"{r['updates_per_s'] / max(presses, 1e-9):.0%} of its presses/s",
            flush=True,
        )


def report(
    args: argparse.Namespace, client: str, running: Coroutine[Any, Any, dict[str, float]]
) -> dict[str, float]:
    r = asyncio.run(running)
    where = f"over HTTP with {client}" if client else "in-process"
    if r["processes"] > 1 or args.postgres:
        where += f", {r['processes']:.0f} process(es) on PostgreSQL"
    print(
        f"{r['tables']:>5} tables, {r['robot_tables']:.0f} with robots, "
        f"{r['reviews']:.0f} reviewer(s) ({r['reviewed']:.0f} deals reviewed) "
        f"(think {args.think:g} s, {where}): "
        f"{r['updates_per_s']:.0f} updates/s; "
        f"CPU {r['cpu_ms_per_press']:.2f} ms a press ({r['cpu_share']:.0%} of a core, "
        f"{r['loop_ms_per_press']:.2f} ms on the event loop's thread; "
        f"the players and fake API {r['harness_share']:.0%}, "
        f"{r['harness_ms_per_press']:.2f} ms a press; the machine "
        f"{r['machine_busy']:.0%} busy); "
        f"{r['calls_per_press']:.2f} calls and {r['polls_per_press']:.2f} polls a press; "
        f"answer p50 {r['answer_p50_ms']:.1f} / p99 {r['answer_p99_ms']:.1f} / "
        f"max {r['answer_max_ms']:.0f} ms; "
        f"next buttons p50 {r['next_p50_ms']:.0f} / p99 {r['next_p99_ms']:.0f} / "
        f"max {r['next_max_ms']:.0f} ms; "
        f"RSS {r['rss_before_mb']:.0f} -> {r['rss_idle_mb']:.0f} MB idle, "
        f"peak {r['peak_mb']:.0f} MB; {r['kb_per_table']:.0f} KB per idle table; "
        f"seated in {r['seating_s']:.1f} s; {r['refused']:.0f} presses refused; "
        f"{r['gc_full']:.0f} full GCs, longest {r['gc_max_ms']:.0f} ms",
        flush=True,
    )
    if r["robot_tables"] and not client:
        where = (
            f"{r['queue_workers']:.0f} queue worker(s)"
            if r["queue_workers"]
            else "the bot's own processes"
        )
        print(
            f"      robots on {where}: {r['robot_moves_per_s']:.2f} moves/s "
            f"({r['robot_cheaper']:.0f} thought over with less than the whole budget); "
            f"a move after its pause p50 {r['robot_move_p50_s']:.2f} / "
            f"p90 {r['robot_move_p90_s']:.2f} / max {r['robot_move_max_s']:.2f} s; "
            f"the person's buttons after a robot's move p50 {r['prompt_p50_ms']:.0f} / "
            f"p99 {r['prompt_p99_ms']:.0f} / max {r['prompt_max_ms']:.0f} ms; the person's "
            f"press to their next buttons (the robots' pauses included) "
            f"p50 {r['round_p50_s']:.1f} / p90 {r['round_p90_s']:.1f} s",
            flush=True,
        )
    return r


if __name__ == "__main__":
    main()
