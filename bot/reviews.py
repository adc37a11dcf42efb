"""Each finished deal reviewed double-dummy once, off the event loop (#32): the counts behind
``/stats`` and the "costly card" a player may ask for after a deal.

The solving runs in a process of its own at the robots' low priority (spawned on the first
deal to review), one deal at a time, so people's presses never wait for it. A finished deal is
queued by its table (``poke``); at start, the deals left unreviewed (a stop mid-review, an
import) are found in storage and reviewed first. Storage holds what is done: a deal is
reviewed once, even by two processes racing (the second write is refused). What the deal's
result post solved already (bridge: the table of tricks and the par, four fifths of a review's
solving) is handed to the review by its game's plug-in (``Plugin.solved``), not solved again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.tables import ROBOT, Change, DealFinished, match_options
from bot.tables.restore import outcomes_before
from bot.workers import IDLE, worker_pool
from games.core.reviewing import review_deal
from storage.interface import (
    DealSummary,
    PlayerDeal,
    Storage,
    StorageError,
    TableSettings,
)

log = logging.getLogger(__name__)

PAGE = 50  # deals read from storage at a time
STRIKES = 2  # a deal whose review broke the worker this often is marked refused, not retried


# (game, the deal event's payload) -> what the result post solved of the deal, if anything
SolvedOf = Callable[[str, Mapping[str, Any]], Awaitable[object | None]]


class Reviewer:
    def __init__(self, storage: Storage, workers: int = 1, solved: SolvedOf | None = None) -> None:
        self.storage = storage
        self.workers = workers  # 0: no reviews (a test that does not need them)
        self.solved = solved  # the games' results' solves, which the reviews reuse
        self.shared = 0  # deals reviewed with their result's solve (for tests and benchmarks)
        self._pool: ProcessPoolExecutor | None = None
        self._tables: asyncio.Queue[int] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.reviewed = 0  # deals this process reviewed (for tests and benchmarks)
        self._strikes: dict[tuple[int, int], int] = {}  # deals whose review broke the worker
        self.idle = asyncio.Event()  # set while there is nothing to review

    def start(self) -> None:
        if self.workers and self._task is None:
            self._task = asyncio.create_task(self._run(), name="reviewer")

    def follow(self, change: Change) -> None:
        """A change that finished a deal: that table's deals are reviewed."""
        if any(isinstance(notice, DealFinished) for notice in change.notices):
            self.poke(change.snapshot.table_id)

    def poke(self, table_id: int) -> None:
        """The table finished a deal: review what it has unreviewed."""
        if self._task is not None:
            self.idle.clear()
            self._tables.put_nowait(table_id)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def _run(self) -> None:
        try:
            await self._backlog()
        except (StorageError, BrokenProcessPool):
            log.exception("The deals left unreviewed were not all reviewed; the next start will")
        while True:
            if self._tables.empty():
                self.idle.set()
            table_id = await self._tables.get()
            try:
                for summary in await self.storage.unreviewed((table_id, 0), PAGE, table_id):
                    await self._review(summary)
            except (StorageError, BrokenProcessPool):
                log.exception("Reviewing table %s's deals failed; its next deal retries", table_id)

    async def _backlog(self) -> None:
        after = (0, 0)
        while page := await self.storage.unreviewed(after, PAGE):
            for summary in page:
                await self._review(summary)
            after = (page[-1].table_id, page[-1].deal_no)

    async def _review(self, summary: DealSummary) -> None:
        table = await self.storage.get_table(summary.table_id)
        chat = await self.storage.get_chat(table.chat_id)
        events = await self.storage.events(summary.table_id, summary.deal_no)
        if not events:
            return
        first = events[0]
        review: dict[str, Any] = {}
        holders: dict[int, int] = {}
        if first.kind == "deal":  # a scorekeeper's entry has no cards to review
            outcomes: list[Mapping[str, Any]] = []
            match = None
            if summary.match_id is not None:
                deals = await self.storage.deals(summary.match_id)
                outcomes = [dict(o) for o in outcomes_before(deals, summary.deal_no)]
                match = await self.storage.get_match(summary.match_id)
            game = match.game if match is not None else table.game
            players = len(match.seats) if match is not None else 4
            settings = table.settings
            if match is not None:  # the options the match started with, as a restore takes them
                settings = TableSettings(options=match.options)
            options = match_options(settings, chat)
            log_data = [(e.kind, dict(e.payload), e.player_id) for e in events]
            solved = None if self.solved is None else await self.solved(game, first.payload)
            self.shared += solved is not None
            try:
                review, holders = await asyncio.get_running_loop().run_in_executor(
                    self._executor(),
                    review_deal,
                    game,
                    players,
                    options,
                    outcomes,
                    log_data,
                    solved,
                )
            except BrokenProcessPool:  # the worker died (killed, out of memory): perhaps not
                self._pool = None  # the deal's fault, so a new worker takes it again; but a
                where = (summary.table_id, summary.deal_no)  # deal that kills it every time is
                self._strikes[where] = self._strikes.get(where, 0) + 1  # marked refused, or
                if self._strikes[where] < STRIKES:  # every later deal would wait behind it
                    raise
                log.error("Deal %s/%s broke the reviewer %s times: refused", *where, STRIKES)
                review = {"refused": "worker"}
            except Exception as error:  # a deal the rules cannot replay: say so, mark it done
                log.exception("Deal %s/%s could not be reviewed", summary.table_id, summary.deal_no)
                review = {"refused": type(error).__name__}
        else:
            game = table.game
        day = first.at[:10]
        rows = []
        for seat, stats in review.get("seats", {}).items():
            player_id = holders.get(int(seat))
            if player_id is None:
                continue
            robot = await self.storage.player_flag(player_id, ROBOT)
            rows.append(
                PlayerDeal(
                    summary.table_id, summary.deal_no, player_id, chat.id, game, day, robot, stats
                )
            )
        if review and "refused" not in review:  # who held each seat: the popup names them
            review["holders"] = {str(seat): pid for seat, pid in sorted(holders.items())}
        await self.storage.record_review(  # a racing process's first review stands
            summary.table_id, summary.deal_no, chat.id, game, day, review, rows
        )
        self.reviewed += 1

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # Linux's idle class: it runs only on a CPU nobody else wants and yields at once
            # when a press wakes the bot (niceness 19 alone let a review hold a CPU for the
            # scheduler's few milliseconds: the people's p99 rose by 3 ms in bench/load).
            self._pool = worker_pool(self.workers, IDLE)
        return self._pool
