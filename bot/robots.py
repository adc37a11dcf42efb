"""Robots in empty seats: after each change the presenter shows, a robot with something to do
thinks (``bot.thinking``: worker processes on this machine, or workers anywhere through the
queue) and then acts through the table service exactly as a person's press does (the event
written first, the change shown by the presenter). The service takes the action only at the
position the robot was asked about: an answer for a table that moved on is dropped.

When thoughts are waiting, a robot thinks for a share of its budget (fewer layouts sampled)
rather than queue behind the others, so each move stays within about ``MOVE_TARGET_S``.
Nothing here is kept across a restart, and nothing needs to be: the restored tables are shown,
and a robot on turn is asked again.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.plugin import Plugins, RobotMove
from bot.tables import Change, Refusal, Snapshot, TableService
from bot.thinking import LocalThinking, Thinking
from games.errors import RuleError

log = logging.getLogger(__name__)


# Robots think less when they are behind rather than queue: a thought asked while others wait
# gets the share of this many seconds that keeps a move within it (issue #31: a robot's move
# at most 2 s after its pause, 9 in 10 times; measured at 10 robot tables of 100: 1.5 left the
# local pool at p90 2.2 s, 1.0 at 1.1-2.0 s).
MOVE_TARGET_S = 1.0
MOVES_KEPT = 10_000  # seconds each recent move took, for the benchmarks
# A thought that failed (its process killed twice, the queue's database away) is asked again
# after these pauses, the last repeated; the group is told at the second failure in a row.
RETRY_S = (1.0, 3.0, 10.0, 30.0, 60.0)
TELL_AFTER = 2
WAIT_NOTICE_S = 10.0  # a thought unanswered this long: the group is told (no worker running?)


@dataclass(frozen=True, slots=True)
class RobotTrouble:
    """A notice for the group: a robot's seat cannot move now. ``kind``: "waiting" (its
    thought is not answered: no worker takes it) or "failed" (thinking failed; asked again
    in ``retry_s`` seconds)."""

    seat: int
    kind: str
    retry_s: float = 0.0


class RobotPlayers:
    """Moves the robots' seats; ``show`` hands its moves' changes on (``bot.changes``), which
    come back to ``follow``."""

    def __init__(
        self,
        service: TableService,
        show: Callable[[Change], None],
        plugins: Plugins,
        delay: float = 1.0,
        budget_s: float = 1.0,
        thinking: Thinking | None = None,
        tell: Callable[[Snapshot, RobotTrouble], None] | None = None,
    ) -> None:
        self.service = service
        self.show = show
        self.plugins = plugins
        self.delay = delay
        self.budget_s = budget_s
        self.thinking: Thinking = thinking or LocalThinking()
        # Seconds from a robot's turn (after its pause) to its action taken, latest last.
        self.moves: collections.deque[float] = collections.deque(maxlen=MOVES_KEPT)
        self.cheaper = 0  # moves thought over with less than the whole budget
        self._busy: set[int] = set()  # tables with a robot thinking
        self._again: set[int] = set()  # tables changed while it thought
        self._tasks: set[asyncio.Task[None]] = set()
        self._failures: dict[int, int] = {}  # tables: failed thoughts in a row
        self.tell = tell or (lambda snap, trouble: None)  # the group is told (the presenter)
        self.wait_notice_s = WAIT_NOTICE_S
        self.retry_s = RETRY_S

    def follow(self, change: Change) -> None:
        self.poke(change.snapshot)

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
        acted = failed = False
        try:
            if self.delay > 0:
                await asyncio.sleep(self.delay)  # people see a call or card before the next
            began = time.monotonic()
            view = snap.view(seat)
            seed = table_id * 10_000 + snap.deal_no
            budget = self.budget_for()
            robots = frozenset(int(s) for s, holder in snap.seats.items() if holder.robot)
            args = (view, seed, budget, self.thinking.cores, robots)
            where = f"{table_id}:{snap.deal_no}:{snap.actions}"
            action = await self._answer(snap, seat, self.thinking.run(where, mover, *args))
            text = snap.game.codec.encode(action)
            holder = snap.seats[seat]
            change = await self.service.act(
                table_id, snap.deal_no, holder.player_id, text, snap.actions
            )
            acted = True
            self.moves.append(time.monotonic() - began)
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
            failed = True
        finally:
            self._busy.discard(table_id)
        if failed:
            self._again.discard(table_id)
            self._retry_later(snap, seat)
            return
        self._failures.pop(table_id, None)
        if acted:
            self._again.discard(table_id)
            self.show(change)  # pokes again if another robot is to act
        elif table_id in self._again:
            self._again.discard(table_id)
            with contextlib.suppress(Refusal):
                self.poke(await self.service.snapshot(table_id))

    async def _answer(self, snap: Snapshot, seat: int, thought: Awaitable[Any]) -> Any:
        """The thought's answer; if it is long in coming (no worker takes the queue's jobs),
        the group is told once and the log says why, and the robot goes on waiting."""
        task = asyncio.ensure_future(thought)
        try:
            done, _ = await asyncio.wait({task}, timeout=self.wait_notice_s)
            if not done:
                log.warning(
                    "table %s: a robot's thought is unanswered after %.0f s "
                    "(is a robot worker running for ROBOT_QUEUE_URL?)",
                    snap.table_id,
                    self.wait_notice_s,
                )
                self.tell(snap, RobotTrouble(seat, "waiting"))
            return await task
        finally:
            if not task.done():
                task.cancel()

    def _retry_later(self, snap: Snapshot, seat: int) -> None:
        """A failed thought is asked again after a pause that grows with each failure in a
        row; from the second, the group is told the robot is stuck and when it tries again."""
        table_id = snap.table_id
        failures = self._failures[table_id] = self._failures.get(table_id, 0) + 1
        pause = self.retry_s[min(failures, len(self.retry_s)) - 1]
        if failures >= TELL_AFTER:
            self.tell(snap, RobotTrouble(seat, "failed", pause))
        self._busy.add(table_id)  # no other change starts it again before the pause is over

        async def again() -> None:
            try:
                await asyncio.sleep(pause)
            finally:
                self._busy.discard(table_id)
                self._again.discard(table_id)
            with contextlib.suppress(Refusal):
                self.poke(await self.service.snapshot(table_id))

        task = asyncio.create_task(again(), name=f"robot-again:{table_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def budget_for(self) -> float:
        """The seconds a thought asked now may take: the whole budget while a worker is free,
        else the share of ``MOVE_TARGET_S`` left after the thoughts ahead of it."""
        thinking = self.thinking
        share = MOVE_TARGET_S * thinking.capacity / (thinking.pending + 1)
        if share >= self.budget_s:
            return self.budget_s
        self.cheaper += 1
        return share

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.thinking.close()
