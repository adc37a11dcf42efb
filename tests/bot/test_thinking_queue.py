"""Robots thinking off the bot's loop (``bot.thinking``). Through the queue: the bot (this
process) and two workers (``python -m bot.thinker``, processes of their own) on a real
PostgreSQL server; one worker is SIGKILLed in the middle of a thought. The other takes the
thought over, the robot moves once, and the game goes on. In the bot's own processes: a killed
process is replaced and the thought asked again."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import random
import signal
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

from bot.games.bridge.dd import solve
from bot.games.nicety import Nicety
from bot.i18n import Translator
from bot.robots import RobotPlayers
from bot.thinking import CHANNEL, LocalThinking, QueueThinking, ThoughtFailed, question
from games.bridge.analysis import analyse
from games.bridge.cards import Deal, Seat
from tests.bot.harness import GROUP, Harness
from tests.bot.processes import Worker, workers
from tests.bot.test_robots import ANNA, _press_own, robot_table
from tests.fakeapi import FakeBotApi

RU = Translator("ru")


def _thinking(line: str) -> str | None:
    """The key of a "thinking KEY" line of a worker's."""
    _, found, key = line.partition("thinking ")
    return key.strip() if found else None


async def test_a_worker_killed_while_thinking_is_replaced_and_the_robot_moves_once(
    api: FakeBotApi, tmp_path: Path, pg_url: str
) -> None:
    database = str(tmp_path / "bot.sqlite3")
    # A card's thought takes about a second and a half: long enough to be killed in.
    h = Harness(api, database, shuffle_seed=5, robot_queue=pg_url, robot_budget=1.5)
    async with asyncio.timeout(240), workers(pg_url, 2) as pair:
        await h.start()
        try:
            await robot_table(h, ANNA, Seat.N)
            rng = random.Random(3)
            pressed: list[str] = []
            victim: Worker | None = None
            killed_key = ""
            deadline = time.monotonic() + 150
            # Play Anna's turns until a worker has been thinking over one thought for 0.3 s
            # (a call takes milliseconds, a card a second and more): that worker is killed. On
            # a busy machine the kill may land after the answer: then a new worker is started
            # and the next long thought is tried.
            while victim is None:
                assert time.monotonic() < deadline, [w.lines[-5:] for w in pair]
                await _press_own(h, ANNA, rng, pressed)
                for worker in [w for w in pair if w.process.returncode is None]:
                    keys = [k for k in map(_thinking, worker.lines) if k]
                    if not keys or worker.said(f"answered {keys[-1]}"):
                        continue
                    await asyncio.sleep(0.3)
                    if worker.said(f"answered {keys[-1]}"):
                        continue
                    worker.process.send_signal(signal.SIGKILL)
                    await worker.process.wait()
                    await worker.stop()  # its last lines read
                    if worker.said(f"answered {keys[-1]}"):
                        pair.append(await Worker.start(pg_url))
                        while not pair[-1].said("ready"):
                            await asyncio.sleep(0.05)
                        continue
                    victim, killed_key = worker, keys[-1]
                    break
                await asyncio.sleep(0.02)
            others = [w for w in pair if w.process.returncode is None]
            robots: RobotPlayers = h.app.bot_data["robots"]  # type: ignore[union-attr]
            thinking = robots.thinking
            assert isinstance(thinking, QueueThinking)
            # Another worker takes it over and answers; the game goes on past it.
            table_id, deal_no, _ = (int(p) for p in killed_key.split(":")[:3])
            written = len(_numbers(database, table_id))
            while not (
                any(w.said(f"answered {killed_key}") for w in others)
                and len(_numbers(database, table_id)) >= written + 4
            ):
                assert time.monotonic() < deadline, (
                    killed_key,
                    victim.lines[-4:],
                    [w.lines[-6:] for w in others],
                    thinking.retried,
                )
                await _press_own(h, ANNA, rng, pressed)
                await asyncio.sleep(0.02)
            assert thinking.retried >= 1
            assert not victim.said(f"answered {killed_key}")
            # One answer kept, one action at that position, and a log without gaps.
            with psycopg.connect(pg_url) as conn:
                rows = conn.execute(
                    f"SELECT count(*) FROM {CHANNEL} WHERE key = %s", (killed_key,)
                ).fetchone()
            assert rows == (1,)
            numbers = _numbers(database, table_id, deal_no)
            first = numbers[0][1]
            assert [n for _, n in numbers] == list(range(first, first + len(numbers)))
        finally:
            await h.stop()


def _numbers(database: str, table_id: int, deal_no: int | None = None) -> list[tuple[int, int]]:
    """The events of a table (or of one deal), in order: (deal, number)."""
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute(
            "SELECT deal_no, seq FROM events WHERE table_id = ? AND deal_no = coalesce(?, deal_no)"
            " ORDER BY deal_no, seq",
            (table_id, deal_no),
        )
        return [(r[0], r[1]) for r in rows]


def _die_once(mark: str) -> int:
    """Killed the first time (as by the out-of-memory killer), answers the second."""
    if not os.path.exists(mark):
        Path(mark).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return 42


async def test_a_local_worker_killed_while_thinking_is_replaced(tmp_path: Path) -> None:
    """The default place: a robot's process that dies mid-thought breaks the pool; a new pool
    is made and the thought asked once more, so the robot still moves."""
    thinking = LocalThinking(1)
    try:
        mark = str(tmp_path / "died")
        assert await thinking.run("k", _die_once, mark) == 42
        assert os.path.exists(mark)
        assert await thinking.run("k2", _die_once, mark) == 42  # the new pool goes on
        assert thinking.pending == 0
    finally:
        await thinking.close()


async def test_analyses_go_to_the_queue_workers_when_robots_do(pg_url: str) -> None:
    """A result's double-dummy analysis is thought over by a queue worker, not the bot, and
    is the analysis the bot would have made."""
    async with workers(pg_url, 1) as [worker]:
        queue = QueueThinking(pg_url)
        Nicety.elsewhere = queue
        try:
            deal = Deal.shuffled(Seat.N, random.Random(9).randrange)
            assert await solve(deal, (False, True)) == analyse(deal, False, True)
            assert worker.said("thinking double-dummy analysis:")
        finally:
            Nicety.elsewhere = None
            await queue.close()


class _Planted:
    """What a stranger with the queue's password would plant: a pickle that runs a command
    when it is loaded (it would create ``marker``)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


async def test_a_pickle_on_the_queue_runs_nothing_in_the_bot_or_a_worker(
    pg_url: str, tmp_path: Path
) -> None:
    """Questions and answers travel as data: a pickle planted as a job's question is refused
    by the worker, one planted as an answer is refused by the bot; neither is ever loaded."""
    import pickle

    marker = tmp_path / "ran"
    planted = pickle.dumps(_Planted(marker))
    async with workers(pg_url, 1) as [worker]:
        queue = QueueThinking(pg_url)
        try:
            # The worker's side: a question that is a pickle (the old format, base64).
            await queue.start()
            deferrer = queue._app.configure_task("bot.think", queue="thoughts")
            await deferrer.defer_async(key="planted:1", payload=base64.b64encode(planted).decode())
            for _ in range(100):
                if worker.said("planted:1 refused"):
                    break
                await asyncio.sleep(0.1)
            assert worker.said("planted:1 refused"), worker.lines[-5:]
            # The bot's side: an answer that is a pickle, for a thought it waits for.
            deal = Deal.shuffled(Seat.N, random.Random(4).randrange)
            with psycopg.connect(pg_url, autocommit=True) as conn:
                conn.execute(f"DELETE FROM {CHANNEL}")
            key, _ = question("planted", analyse, (deal, False, False))
            with psycopg.connect(pg_url, autocommit=True) as conn:
                conn.execute(f"INSERT INTO {CHANNEL} (key, result) VALUES (%s, %s)", (key, planted))
            with pytest.raises(ThoughtFailed, match="refused"):
                await asyncio.wait_for(queue.run("planted", analyse, deal, False, False), 30)
        finally:
            await queue.close()
    assert not marker.exists()


def _children() -> list[int]:
    """This process's pool workers (the robots' among them; not a database server), from
    /proc: its children that multiprocessing started."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    started = b"multiprocessing" in cmdline.read()
                if parent == os.getpid() and started:
                    found.append(int(entry))
    return found


def _robot_moved(database: str, table_id: int) -> int:
    """The robots' and people's events written at the table so far."""
    return len(_numbers(database, table_id))


async def test_a_robot_whose_thinking_keeps_dying_tries_again_and_says_so(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """The robots' processes are killed again and again (the out-of-memory killer): each
    thought fails twice in a row. The robot is not given up: it is asked again after a pause
    that grows, the group is told at the second failure, and once the kills stop it moves."""
    database = str(tmp_path / "bot.sqlite3")
    h = Harness(api, database, robot_workers=1, robot_budget=0.3)
    await h.start()
    try:
        assert h.app is not None
        robots: RobotPlayers = h.app.bot_data["robots"]
        robots.retry_s = (0.3, 0.5, 1.0)
        killing = True

        async def kill_children() -> None:
            while killing:
                for pid in _children():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                await asyncio.sleep(0.02)

        killer = asyncio.create_task(kill_children())
        await robot_table(h, ANNA, Seat.N)
        rng = random.Random(1)
        told = RU("robot.trouble.failed", seat="", seconds=0).split(":")[1].split(";")[0].strip()
        async with asyncio.timeout(60):
            while not any(told in m.text for m in api.chat_messages(GROUP)):
                await _press_own(h, ANNA, rng, [])
                await asyncio.sleep(0.05)
            moved = _robot_moved(database, 1)
            killing = False
            await killer
            while _robot_moved(database, 1) <= moved:  # the robot moves once the kills stop
                await _press_own(h, ANNA, rng, [])
                await asyncio.sleep(0.05)
    finally:
        killing = False
        await h.stop()


async def test_robots_with_no_queue_worker_tell_the_group_and_move_when_one_comes(
    api: FakeBotApi, tmp_path: Path, pg_url: str
) -> None:
    database = str(tmp_path / "bot.sqlite3")
    h = Harness(api, database, shuffle_seed=5, robot_queue=pg_url, robot_budget=0.2)
    await h.start()
    try:
        assert h.app is not None
        robots: RobotPlayers = h.app.bot_data["robots"]
        robots.wait_notice_s = 0.5
        await robot_table(h, ANNA, Seat.N)
        rng = random.Random(2)
        waiting = RU("robot.trouble.waiting", seat="").split(":")[1].strip()
        async with asyncio.timeout(60):
            while not any(waiting in m.text for m in api.chat_messages(GROUP)):
                await _press_own(h, ANNA, rng, [])
                await asyncio.sleep(0.05)
            moved = _robot_moved(database, 1)
            async with workers(pg_url, 1):
                while _robot_moved(database, 1) <= moved:
                    await _press_own(h, ANNA, rng, [])
                    await asyncio.sleep(0.05)
    finally:
        await h.stop()
