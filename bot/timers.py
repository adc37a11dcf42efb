"""Turn notices and turn timers.

A player who has had their turn for ``TURN_NOTICE_SECONDS`` (20 by default) without pressing gets
their screen anew, as a new message at the bottom of the chat (Telegram notifies new messages,
not edits), the old one deleted: someone watching the table presses sooner and costs nothing;
at most two per player and deal, so a slow table's cost is bounded.

The turn timer is a table setting (off, or N minutes). Half-way through, a private reminder to
whoever must act; when the time is up, a mention in the group, where the others may wait, stop
the match (/end) or take a substitute in (/sub).

Nothing is kept but the table's own log: a timer runs from the time of the deal's last event,
so after a restart the timers are rebuilt from storage as the tables are restored, and one that
ran out while the bot was down fires at once.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from bot.i18n import Translator, translator
from bot.outbox import Outbox
from bot.plugin import Plugins
from bot.rendered import Rendered
from bot.tables import Change, Refusal, Snapshot, TableService
from bot.views.text import user_text
from games.core.protocols import may_act
from storage.interface import TableStatus

MAX_NOTICES = 2  # per player and deal: at most 4 calls each (see ``notices``)

log = logging.getLogger(__name__)


# Seconds between looks at a table paused for a player who blocked the bot: among several
# active processes, their /start may clear the flag in another one.
PAUSED_CHECK_S = 15.0


class TurnTimers:
    def __init__(
        self,
        service: TableService,
        outbox: Outbox,
        plugins: Plugins,
        minute: float = 60.0,
        notice_seconds: float = 0.0,
        notify: Callable[[Snapshot, int], None] | None = None,
    ) -> None:
        self.service = service
        self.outbox = outbox
        self.plugins = plugins
        self.minute = minute
        self.notice_seconds = notice_seconds
        self.notify = notify
        # (table, deal) -> seat -> notices sent: a few per player and deal at most, so that a
        # slow table costs a bounded number of calls (each is a new message and a deletion).
        self.notices: dict[tuple[int, int], dict[int, int]] = {}
        # What each table's wait already said (kind, deal, actions, seat): a change that is
        # no action (a vote, a notice) re-arms the timers, and must not say it again.
        self.fired: dict[int, set[tuple[str, int, int, int]]] = {}
        # Each table's timers not yet run, as the event loop's own handles: a press re-arms
        # its own table's timers only, and a handle is made or cancelled in a microsecond or
        # two (bench.timers: a JobQueue job took 150 µs to arm, three of them a press).
        self._armed: dict[int, list[asyncio.TimerHandle]] = {}
        self._running: set[asyncio.Task[None]] = set()
        self.paused_check = PAUSED_CHECK_S

    def follow(self, change: Change) -> None:
        self.track(change.snapshot)

    def track(self, snap: Snapshot) -> None:
        """(Re)arm the table's timer for whoever must act now, or disarm it."""
        self._disarm(snap.table_id)
        state = snap.state
        if snap.paused and snap.status is TableStatus.PLAYING:
            # Looked at again: the player may come back through another process (bot.shards).
            self._arm(snap.table_id, self.paused_check, ("back", snap.table_id, 0, 0, -1))
            return
        if snap.status is not TableStatus.PLAYING or state is None or state.finished or snap.paused:
            return
        # Who must press: the one with something to do (bridge: declarer for dummy; Preferans:
        # an open whister for the passer), whatever seat's card it is. Robots never time out.
        seat = next(
            (s for s in sorted(snap.seats) if not snap.seats[s].robot and may_act(state, s)),
            None,
        )
        if seat is None:
            return
        elapsed = time.time() - snap.last_at
        data = (snap.table_id, snap.deal_no, snap.actions, seat)
        sent = self.notices.get((snap.table_id, snap.deal_no), {}).get(seat, 0)
        # A notice that should have gone before a restart is not sent late: the player had it.
        if (
            self.notify is not None
            and max(elapsed, 0.0) < self.notice_seconds
            and sent < MAX_NOTICES
        ):
            self._arm(snap.table_id, self.notice_seconds - max(elapsed, 0.0), ("notice", *data))
        if not snap.settings.turn_timer:
            return
        total = snap.settings.turn_timer * self.minute
        said = self.fired.get(snap.table_id, set())
        for kind, at in (("remind", total / 2), ("due", total)):
            if (kind, snap.deal_no, snap.actions, seat) in said:
                continue  # this wait was told so already
            self._arm(snap.table_id, max(0.0, at - elapsed), (kind, *data))

    def drop(self, table_id: int) -> None:
        """Disarm the table's timers and forget what they said: another process serves it."""
        self._disarm(table_id)
        self.fired.pop(table_id, None)
        for key in [k for k in self.notices if k[0] == table_id]:
            del self.notices[key]

    def close(self) -> None:
        """Disarm every timer and stop what fired (the bot is stopping)."""
        for table_id in list(self._armed):
            self._disarm(table_id)
        for task in self._running:
            task.cancel()

    def _disarm(self, table_id: int) -> None:
        for handle in self._armed.pop(table_id, ()):
            handle.cancel()

    def _arm(self, table_id: int, when: float, data: tuple[str, int, int, int, int]) -> None:
        handle = asyncio.get_running_loop().call_later(when, self._due, data)
        self._armed.setdefault(table_id, []).append(handle)

    def _due(self, data: tuple[str, int, int, int, int]) -> None:
        """A timer ran out: its handle is forgotten (nothing to take back any more), and what
        it says is said in a task of its own, whose failure is logged."""
        table_id = data[1]
        now = asyncio.get_running_loop().time()
        armed = [h for h in self._armed.get(table_id, ()) if h.when() > now]
        if armed:
            self._armed[table_id] = armed
        else:
            self._armed.pop(table_id, None)
        task = asyncio.create_task(self._fire(data), name=f"turn:{table_id}")
        self._running.add(task)
        task.add_done_callback(self._ran)

    def _ran(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("turn timer failed", exc_info=task.exception())

    async def _fire(self, data: tuple[str, int, int, int, int]) -> None:
        kind, table_id, deal_no, actions, seat = data
        if kind == "back":
            try:
                still = await self.service.resume_if_back(table_id)
            except Refusal:
                return  # another process serves the group now
            if still is not None:
                self.track(still)  # paused still: looked at again later
            return
        snap = await self.service.snapshot(table_id)
        if (
            snap.deal_no != deal_no
            or snap.actions != actions
            or snap.status is not TableStatus.PLAYING
        ):
            return  # somebody acted since: that action armed a fresh timer
        holder = snap.seats.get(seat)
        if holder is None:
            return
        if kind == "notice":
            if holder.tg_user_id is None or self.notify is None or seat in snap.paused:
                return
            per_deal = self.notices.setdefault((table_id, deal_no), {})
            per_deal[seat] = per_deal.get(seat, 0) + 1
            for key in [k for k in self.notices if k[0] == table_id and k[1] != deal_no]:
                del self.notices[key]  # only the deal under way is counted
            self.notify(snap, seat)
            return
        said = self.fired.get(table_id, set())
        if (kind, deal_no, actions, seat) in said:
            return
        # Only this wait's are kept: an action since makes a new wait.
        said = {k for k in said if k[1:3] == (deal_no, actions)}
        said.add((kind, deal_no, actions, seat))
        self.fired[table_id] = said
        minutes = snap.settings.turn_timer
        if kind == "remind":
            if holder.tg_user_id is None:
                return
            t = translator(holder.language, snap.settings.language)
            left = max(0.0, minutes * self.minute - (time.time() - snap.last_at))
            text = t(
                "timer.remind",
                number=snap.table_id,
                chat=user_text(snap.chat.title or "—"),
                left=time_left(left / self.minute * 60, t),
            )
            self.outbox.post(holder.tg_user_id, None, Rendered(text))
            return
        t = translator(snap.settings.language)
        name = user_text(holder.name)
        mention = (
            f'<a href="tg://user?id={holder.tg_user_id}">{name}</a>' if holder.tg_user_id else name
        )
        text = t(
            "timer.due",
            name=mention,
            seat=self.plugins.ui(snap.game.name).seat_name(seat, t.language),
            minutes=minutes,
        )
        self.outbox.post(snap.chat.tg_chat_id, snap.topic_id, Rendered(text))


def time_left(seconds: float, t: Translator) -> str:
    """The time a player has left, as a clock says it: "2 мин 30 с", "45 с"."""
    whole = max(0, round(seconds))
    minutes, rest = divmod(whole, 60)
    if minutes and rest:
        return t("timer.min_sec", minutes=minutes, seconds=rest)
    if minutes:
        return t("timer.min", minutes=minutes)
    return t("timer.sec", seconds=rest)
