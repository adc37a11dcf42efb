"""Where robots think: one interface (``Thinking``), two places.

- ``LocalThinking`` (the default: nothing to install or start): spawned processes on this
  machine, kept off the CPU the people's answers need (``robot_cpus``) at the lowest priority.
- ``QueueThinking`` (``ROBOT_QUEUE_URL=postgresql://…``): thoughts are jobs of procrastinate, a
  task queue kept in PostgreSQL, which the hosted bot already runs; ``python -m bot.thinker``
  workers take them on any machine that reaches the database, and write each answer back to
  ``bot_thoughts`` with a notification. The bot stays the only writer of the games: a worker
  returns an action, the table service decides whether it still applies.

A thought is named by its key: the table, the deal, the actions so far and a digest of the
question itself (the seat's view, the seed, the budget), so an undo that comes back to the same
number of actions asks anew. A job a dead worker held (its heartbeat stopped) is put back for
another worker; whichever answer comes first is kept, a later one is dropped, and the table
service takes a robot's action only at the position it was asked at, once.

``capacity`` (thoughts that can run at once) and ``pending`` (asked, not answered) let the
robots think less when they are behind, instead of queueing (``bot.robots``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from bot.workers import worker_pool
from games.core.data import NotData, find_work, from_data, to_data, work_name

log = logging.getLogger(__name__)

ROBOT_NICENESS = 19
QUEUE = "thoughts"  # procrastinate's queue of robot thoughts
TASK = "bot.think"
CHANNEL = "bot_thoughts"  # the notification a worker sends with a thought's key
HEARTBEAT_S = 1.0  # a worker's sign of life
STALL_S = 4.0  # a worker silent this long is dead: its thought goes to another
SWEEP_S = 0.5  # how often the bot looks for answers it was not told of, and dead workers
KEEP_S = 600  # answers are kept this long (a late one for a key asked again is reused)

RESULTS_SQL = f"""
CREATE TABLE IF NOT EXISTS {CHANNEL} (
    key text PRIMARY KEY,
    result bytea NOT NULL,
    made_at timestamptz NOT NULL DEFAULT now()
)"""


class ThoughtFailed(Exception):
    """The worker's thought raised: its error, as text (the worker logged the traceback)."""


class Thinking(Protocol):
    @property
    def capacity(self) -> int:
        """Thoughts that can run at once."""

    @property
    def pending(self) -> int:
        """Thoughts asked and not yet answered."""

    @property
    def cores(self) -> int:
        """The cores each thought has (the robot sizes its sampling by them)."""

    async def run(self, where: str, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)`` somewhere else; ``where`` says where it was asked (the queue keys a
        thought by it and a digest of the question: see the module)."""

    async def close(self) -> None: ...


def robot_cpus() -> list[int]:
    """The CPUs robots think on: all this process may use but the first, which is kept for the
    people (measured: robots at a low priority on every core still slowed the people's answers,
    p99 9.5 -> 14-21 ms at 100 tables; with one core kept free, 10-11 ms); on one CPU, that one."""
    if hasattr(os, "sched_getaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
    else:  # not Linux: no pinning, but a worker fewer all the same
        cpus = list(range(os.cpu_count() or 1))
    return cpus[1:] or cpus


def yield_to_people(cpus: tuple[int, ...] | None) -> None:
    """A robot's process keeps to ``cpus`` (None: where it is) at the lowest priority. Linux
    keeps both per thread and the solver starts threads of its own (seen at the default
    priority), so every thread of the process is set, before and after each thought."""
    with contextlib.suppress(OSError, AttributeError):  # Linux only; elsewhere as it is
        for task in os.listdir(f"/proc/{os.getpid()}/task"):
            if cpus is not None:
                os.sched_setaffinity(int(task), cpus)
            os.setpriority(os.PRIO_PROCESS, int(task), ROBOT_NICENESS)


def think(cpus: tuple[int, ...] | None, work: Callable[..., Any], *args: Any) -> Any:
    """Runs in a worker: ``work(*args)``, its solver's threads kept off the people's CPU."""
    yield_to_people(cpus)
    try:
        return work(*args)
    finally:
        yield_to_people(cpus)


class LocalThinking:
    """Spawned processes on this machine, one a CPU but the people's (or ``workers``)."""

    def __init__(self, workers: int | None = None) -> None:
        self.cpus = tuple(robot_cpus())
        self.workers = workers or len(self.cpus)
        self._pool: Executor | None = None
        self._pending = 0

    @property
    def capacity(self) -> int:
        return self.workers

    @property
    def pending(self) -> int:
        return self._pending

    @property
    def cores(self) -> int:
        """The cores each thought has (the robot sizes its sampling by them)."""
        return max(1, len(self.cpus) // self.workers)

    async def run(self, where: str, work: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        self._pending += 1
        try:
            for attempt in range(2):
                pool = self._executor()
                try:
                    return await loop.run_in_executor(pool, think, self.cpus, work, *args)
                except BrokenProcessPool:
                    # A worker died (killed, out of memory): a new pool, and the thought once
                    # more; other thoughts of the broken pool do the same, on the new one.
                    if self._pool is pool:
                        self._pool = None
                        pool.shutdown(wait=False, cancel_futures=True)
                    if attempt:
                        raise
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            self._pending -= 1

    def _executor(self) -> Executor:
        if self._pool is None:
            # their priority is set per thought (``think``), so not here
            self._pool = worker_pool(self.workers)
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def question(where: str, work: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, str]:
    """A thought's key (``where`` and a digest of the question) and the question as a job's
    argument: JSON data (``games.core.data``), never a pickle. Whoever can write the queue's
    database (a worker's host, anyone with its password) can put any question or answer
    there; data is only ever read back into the rules' own values and named works."""
    text = json.dumps({"work": work_name(work), "args": to_data(args)}, ensure_ascii=False)
    key = f"{where}:{hashlib.sha256(text.encode()).hexdigest()[:24]}"
    return key, text


def decode(payload: str) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """The work and its arguments a question names; NotData for anything else."""
    try:
        asked = json.loads(payload)
    except ValueError as error:
        raise NotData("not JSON") from error
    if not isinstance(asked, dict) or not isinstance(asked.get("work"), str):
        raise NotData("not a question")
    args = from_data(asked.get("args"))
    if not isinstance(args, tuple):
        raise NotData("a question's arguments are not a tuple")
    return find_work(asked["work"]), args


def answer(ok: bool, value: Any) -> bytes:
    """A worker's answer as stored: JSON data, the value or the error's text."""
    body = to_data(value) if ok else str(value)
    return json.dumps({"ok": ok, "value": body}, ensure_ascii=False).encode()


def read_answer(blob: bytes) -> tuple[bool, Any]:
    """An answer as stored, back to (ok, value); NotData for anything else (a pickle)."""
    try:
        found = json.loads(bytes(blob))
    except (ValueError, UnicodeDecodeError) as error:
        raise NotData("not JSON") from error
    if not isinstance(found, dict) or not isinstance(found.get("ok"), bool):
        raise NotData("not an answer")
    if found["ok"]:
        return True, from_data(found.get("value"))
    return False, str(found.get("value"))


def queue_app(url: str) -> Any:
    """procrastinate's app on the queue's database (imported here: only a bot or worker that
    uses the queue pays for loading it)."""
    import procrastinate

    return procrastinate.App(
        connector=procrastinate.PsycopgConnector(conninfo=url, min_size=1, max_size=4)
    )


async def ensure_schema(url: str) -> None:
    """procrastinate's tables and ``bot_thoughts``, made once by whichever of the bot and
    its workers comes first (an advisory lock keeps them from racing)."""
    import psycopg
    from procrastinate.schema import SchemaManager

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("SELECT pg_advisory_lock(hashtext('bot_thoughts schema'))")
        try:
            cursor = await conn.execute("SELECT to_regclass('procrastinate_jobs')")
            found = await cursor.fetchone()
            if found is None or found[0] is None:
                schema = SchemaManager.get_schema()
                await conn.execute(schema.encode())
            await conn.execute(RESULTS_SQL.encode())
        finally:
            await conn.execute("SELECT pg_advisory_unlock(hashtext('bot_thoughts schema'))")


class QueueThinking:
    """Thoughts as procrastinate jobs on PostgreSQL, answered by ``python -m bot.thinker``."""

    def __init__(self, url: str, cores: int = 1) -> None:
        self.url = url
        self._cores = cores  # each worker's (the robot sizes its sampling by them)
        self._app: Any = None
        self._waiting: dict[str, asyncio.Future[Any]] = {}
        self._workers = 1
        self._tasks: list[asyncio.Task[None]] = []
        self._started: asyncio.Task[None] | None = None
        self.retried = 0  # thoughts put back after their worker died

    @property
    def capacity(self) -> int:
        return self._workers

    @property
    def cores(self) -> int:
        return self._cores

    @property
    def pending(self) -> int:
        return len(self._waiting)

    async def start(self) -> None:
        await ensure_schema(self.url)
        self._app = queue_app(self.url)
        await self._app.open_async()
        self._tasks = [
            asyncio.create_task(self._listen(), name="thoughts:listen"),
            asyncio.create_task(self._sweep(), name="thoughts:sweep"),
        ]

    async def run(self, where: str, work: Callable[..., Any], *args: Any) -> Any:
        if self._started is None or (
            self._started.done() and self._started.exception() is not None
        ):  # the first thought starts the queue; a failed start is tried again
            self._started = asyncio.create_task(self.start())
        await asyncio.shield(self._started)
        key, payload = question(where, work, args)
        future = self._waiting.get(key)
        if future is None:
            future = asyncio.get_running_loop().create_future()
            self._waiting[key] = future
            try:
                await self._ask(key, payload)
            except BaseException:
                self._waiting.pop(key, None)
                raise
        try:
            ok, value = await asyncio.shield(future)
        finally:
            if future.done():
                self._waiting.pop(key, None)
        if not ok:
            raise ThoughtFailed(value)
        return value

    async def _ask(self, key: str, payload: str) -> None:
        import procrastinate.exceptions

        if await self._collect([key]):
            return  # answered already (asked before, by this bot or the one before it)
        deferrer = self._app.configure_task(TASK, queue=QUEUE, queueing_lock=key)
        with contextlib.suppress(procrastinate.exceptions.AlreadyEnqueued):
            await deferrer.defer_async(key=key, payload=payload)

    async def _collect(self, keys: list[str]) -> bool:
        """Hands the answers found for ``keys`` to their waiters; whether any was found."""
        rows = await self._app.connector.execute_query_all_async(
            f"SELECT key, result FROM {CHANNEL} WHERE key = ANY(%(keys)s)", keys=keys
        )
        for row in rows:
            future = self._waiting.get(row["key"])
            if future is not None and not future.done():
                try:
                    future.set_result(read_answer(row["result"]))
                except NotData as error:  # not a worker's answer: refused, never run
                    log.warning("robot thoughts: answer %s refused (%s)", row["key"], error)
                    future.set_result((False, f"refused answer: {error}"))
        return bool(rows)

    async def _listen(self) -> None:
        """Answers as workers announce them (the sweep catches what a broken connection
        missed)."""
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    async for note in conn.notifies():
                        if note.payload in self._waiting:
                            await self._collect([note.payload])
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database restarting: listen again
                log.warning("robot thoughts: listening failed (%s); again", type(error).__name__)
                await asyncio.sleep(1.0)

    async def _sweep(self) -> None:
        """Every ``SWEEP_S``: answers not announced, dead workers' thoughts put back, the
        number of live workers; old answers dropped every minute."""
        rounds = 0
        while True:
            await asyncio.sleep(SWEEP_S)
            rounds += 1
            try:
                if self._waiting:
                    await self._collect(list(self._waiting))
                    await self._retry_stalled()
                if rounds % 4 == 0:
                    row = await self._app.connector.execute_query_one_async(
                        "SELECT count(*) AS n FROM procrastinate_workers "
                        "WHERE last_heartbeat > now() - make_interval(secs => %(s)s)",
                        s=STALL_S,
                    )
                    self._workers = max(1, int(row["n"]))
                if rounds % 120 == 0:
                    await self._app.connector.execute_query_async(
                        f"DELETE FROM {CHANNEL} "
                        "WHERE made_at < now() - make_interval(secs => %(s)s)",
                        s=KEEP_S,
                    )
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("robot thoughts: sweep failed (%s)", type(error).__name__)

    async def _retry_stalled(self) -> None:
        manager = self._app.job_manager
        for job in await manager.get_stalled_jobs(
            seconds_since_heartbeat=STALL_S, queue=QUEUE, task_name=TASK
        ):
            with contextlib.suppress(Exception):  # another bot or worker got there first
                await manager.retry_job(job)
                self.retried += 1
                log.info("robot thoughts: a worker died; thought %s goes to another", job.id)

    async def close(self) -> None:
        for task in [*self._tasks, *([self._started] if self._started else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for future in self._waiting.values():
            future.cancel()
        self._waiting.clear()
        if self._app is not None:
            with contextlib.suppress(Exception):  # a pool stuck on a dead server: let go
                await asyncio.wait_for(self._app.close_async(), 5)
            self._app = None
