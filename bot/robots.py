"""Robots in empty seats: after each change the presenter shows, a robot with something to do
thinks in a worker process and then acts through the table service exactly as a person's press
does (the event written first, the change shown by the presenter).

Thinking happens off the event loop, in a process pool sized for the machine less one CPU kept
for the people, so other tables keep their answer times while a robot samples; each process has
its own double-dummy solver.
Nothing here is kept across a restart, and nothing needs to be: the restored tables are shown,
and a robot on turn is asked again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from bot.plugin import Plugins, RobotMove
from bot.tables import Change, Refusal, Snapshot, TableService
from bot.workers import worker_pool
from games.errors import RuleError

log = logging.getLogger(__name__)


ROBOT_NICENESS = 19


def robot_cpus() -> list[int]:
    """The CPUs robots think on: all this process may use but the first, which is kept for the
    people (measured: robots at a low priority on every core still slowed the people's answers,
    p99 9.5 -> 14-21 ms at 100 tables; with one core kept free, 10-11 ms); on one CPU, that one."""
    if hasattr(os, "sched_getaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
    else:  # not Linux: no pinning, but a worker fewer all the same
        cpus = list(range(os.cpu_count() or 1))
    return cpus[1:] or cpus


def _yield_to_people(cpus: tuple[int, ...]) -> None:
    """A robot's process keeps to ``cpus`` at the lowest priority. Linux keeps both per thread
    and the solver starts threads of its own (seen at the default priority), so every
    thread of the process is set, before and after each thought."""
    with contextlib.suppress(OSError, AttributeError):  # Linux only; elsewhere as it is
        for task in os.listdir(f"/proc/{os.getpid()}/task"):
            os.sched_setaffinity(int(task), cpus)
            os.setpriority(os.PRIO_PROCESS, int(task), ROBOT_NICENESS)


def _think(cpus: tuple[int, ...], mover: Callable[..., Any], *args: Any) -> Any:
    """Runs in a worker: the robot's move, its solver's threads kept off the people's CPU."""
    _yield_to_people(cpus)
    try:
        return mover(*args)
    finally:
        _yield_to_people(cpus)


class RobotPlayers:
    """Moves the robots' seats; ``show`` is the presenter's (which pokes back after each change)."""

    def __init__(
        self,
        service: TableService,
        show: Callable[[Change], None],
        plugins: Plugins,
        delay: float = 1.0,
        budget_s: float = 1.0,
        workers: int | None = None,
    ) -> None:
        self.service = service
        self.show = show
        self.plugins = plugins
        self.delay = delay
        self.budget_s = budget_s
        self.cpus = tuple(robot_cpus())
        self.workers = workers or len(self.cpus)
        self.cores = max(1, len(self.cpus) // self.workers)  # each robot thinks on
        self._pool: Executor | None = None
        self._busy: set[int] = set()  # tables with a robot thinking
        self._again: set[int] = set()  # tables changed while it thought
        self._tasks: set[asyncio.Task[None]] = set()

    def poke(self, snap: Snapshot) -> None:
        """A table changed: if a robot there has something to do, it starts thinking."""
        if snap.table_id in self._busy:
            self._again.add(snap.table_id)
            return
        seats = snap.robot_turns()
        if not seats:
            return
        mover = self.plugins[snap.game.name].robot
        if mover is None:
            return
        self._busy.add(snap.table_id)
        task = asyncio.create_task(self._move(snap, seats[0], mover), name=f"robot:{snap.table_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _move(self, snap: Snapshot, seat: int, mover: RobotMove) -> None:
        table_id = snap.table_id
        acted = False
        try:
            if self.delay > 0:
                await asyncio.sleep(self.delay)  # people see a call or card before the next
            view = snap.view(seat)
            seed = table_id * 10_000 + snap.deal_no
            loop = asyncio.get_running_loop()
            action = await loop.run_in_executor(
                self._executor(), _think, self.cpus, mover, view, seed, self.budget_s, self.cores
            )
            text = snap.game.codec.encode(action)
            holder = snap.seats[seat]
            change = await self.service.act(
                table_id, snap.deal_no, holder.player_id, text, snap.actions
            )
            acted = True
        except Refusal as refused:
            # The table moved on (a person acted, an undo, a restart): the change that moved
            # it is shown and pokes again. A paused table waits for its people.
            log.debug("table %s: robot move not taken (%s)", table_id, refused.key)
        except RuleError:
            log.exception("table %s: a robot chose an illegal action", table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: robot failed to move", table_id)
        finally:
            self._busy.discard(table_id)
        if acted:
            self._again.discard(table_id)
            self.show(change)  # pokes again if another robot is to act
        elif table_id in self._again:
            self._again.discard(table_id)
            with contextlib.suppress(Refusal):
                self.poke(await self.service.snapshot(table_id))

    def _executor(self) -> Executor:
        if self._pool is None:
            # their priority is set per thought (bot.robots._nice), so not here
            self._pool = worker_pool(self.workers)
        return self._pool

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
