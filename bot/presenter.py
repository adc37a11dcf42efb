"""Turns a table service ``Change`` into outbox work: which kept messages show what, what to post.

Game-neutral: the game's UI plug-in (``bot.plugin``) renders its deal, its notices and its
screens; here are the notices every game shares (substitutes, refusals) and the seating message.
Kept messages: ``table:<deal>`` in the group (one per deal, edited as it goes),
``seating:<deal>`` in the group between matches, and one private screen per seat and deal
(the UI names it). Private messages are built from the player's own seat view only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.callback_data import Act
from bot.i18n import Translator, translator
from bot.outbox import URGENT, WAITING, Outbox
from bot.plugin import Plugins
from bot.rendered import Rendered
from bot.tables import (
    Change,
    DealFinished,
    DealRedrawn,
    GameSwitched,
    Holder,
    MatchFinished,
    NextReady,
    Snapshot,
    SubDone,
    SubProposed,
    SubRefused,
    SwitchAsked,
    TakeoverAsked,
)
from bot.timers import TurnTimers
from bot.views.misc import answer_keys, vote_key, vote_message
from bot.views.text import user_text
from storage.interface import TableStatus

if TYPE_CHECKING:
    from bot.reviews import Reviewer
    from bot.robots import RobotPlayers, RobotTrouble


class Presenter:
    def __init__(self, outbox: Outbox, bot_username: str, plugins: Plugins) -> None:
        self.outbox = outbox
        self.bot_username = bot_username
        self.plugins = plugins
        self.timers: TurnTimers | None = None  # set once the job queue exists
        self.robots: RobotPlayers | None = None  # moves robot seats after each change
        self.reviewer: Reviewer | None = None  # reviews each finished deal for /stats

    def group_translator(self, snap: Snapshot) -> Translator:
        return translator(snap.settings.language)

    def private_translator(self, snap: Snapshot, holder: Holder) -> Translator:
        return translator(holder.language, snap.settings.language)

    def show(self, change: Change) -> None:
        snap = change.snapshot
        if self.timers is not None:
            self.timers.track(snap)
        ui = self.plugins.ui(snap.game.name)
        t = self.group_translator(snap)
        chat, thread = snap.chat.tg_chat_id, snap.topic_id
        match_over = False
        for notice in change.notices:
            match_over = match_over or isinstance(notice, MatchFinished)
            if isinstance(notice, DealFinished) and self.reviewer is not None:
                self.reviewer.poke(snap.table_id)
            if ui.notice(self, snap, notice, t):
                continue
            if isinstance(notice, SubRefused):  # the question edited to its outcome
                by = snap.seats.get(notice.by)
                text = t("sub.refused", name=user_text(by.name) if by else "—")
                self._sub_outcome(snap, Rendered(text))
            elif isinstance(notice, SubDone):
                self._substituted(snap, notice, t)
            elif isinstance(notice, SubProposed):  # one message, edited as answers come
                proposed = _sub_proposed(snap, notice, t, ui.seat_name)
                vote_message(self, snap, "sub", proposed, fresh=notice.fresh)
            elif isinstance(notice, GameSwitched):
                self._switched(snap, notice, t)
            elif isinstance(notice, SwitchAsked):
                game = t(f"game.{notice.game}")
                command = self.plugins.ui(notice.game).commands[0]
                text = t("table.switch_asked", game=game, agreed=notice.agreed, of=notice.of)
                self.outbox.post(chat, thread, Rendered(f"{text} /{command}"))
            elif isinstance(notice, NextReady):  # one message, edited as people press
                self._next_ready(snap, notice, t)
            elif isinstance(notice, TakeoverAsked):
                seat = ui.seat_name(notice.seat, t.language)
                text = t("robot.takeover", name=user_text(notice.newcomer), seat=seat)
                self.outbox.post(chat, thread, Rendered(text))
        if snap.status is TableStatus.PLAYING and snap.state is not None:
            if snap.dealer_drawn:
                # The match just started: the seating message it was seated from (perhaps by
                # deep links, from private chats) says so and offers no seat any more.
                key = f"seating:{snap.deal_no - 1}"
                seating = ui.seating(snap, t, self.bot_username)
                self.outbox.update(snap.table_id, key, chat, thread, seating)
            ui.show_deal(self, snap)
        elif not match_over:
            key = f"seating:{snap.deal_no}"
            seating = ui.seating(snap, t, self.bot_username)
            self.outbox.want(snap.table_id, key, chat, thread, seating)
        if self.robots is not None:
            self.robots.poke(snap)

    def robot_trouble(self, snap: Snapshot, trouble: RobotTrouble) -> None:
        """The group is told a robot cannot move now (its thought is unanswered, or failed
        and is asked again later), so nobody waits in silence."""
        t = self.group_translator(snap)
        seat = self.plugins.ui(snap.game.name).seat_name(trouble.seat, t.language)
        text = t(f"robot.trouble.{trouble.kind}", seat=seat, seconds=round(trouble.retry_s))
        self.outbox.post(snap.chat.tg_chat_id, snap.topic_id, Rendered(text))

    def redraw(self, change: Change) -> None:
        """A restart's correction of finished deals' screens (``DealRedrawn``), and only that:
        messages already in their chats are edited, nothing is posted."""
        snap = change.snapshot
        ui = self.plugins.ui(snap.game.name)
        for notice in change.notices:
            if isinstance(notice, DealRedrawn):
                with self.outbox.correcting():
                    ui.show_finished(self, snap, notice.deal_no, notice.final, notice.before)

    def notify_turn(self, snap: Snapshot, seat: int) -> None:
        """The seat's screen sent anew as a new message (a notification), the old one deleted."""
        ui = self.plugins.ui(snap.game.name)
        self.outbox.renew(snap.table_id, ui.hand_key(seat, snap.deal_no))
        ui.show_hand(self, snap, seat)

    def show_hand(self, snap: Snapshot, seat: int, menu: str = "") -> None:
        """One player's private screen, drawn anew (``menu``: a sub-menu they opened)."""
        self.plugins.ui(snap.game.name).show_hand(self, snap, seat, menu)

    def private(
        self,
        snap: Snapshot,
        seat: int,
        key: str,
        render: Callable[[Translator], Rendered],
        urgent: bool = False,
    ) -> None:
        """A seat's private screen, in its holder's language, for a holder the bot may write
        to (not a guest, not one who blocked it: play waits for them)."""
        holder = snap.seats.get(seat)
        if holder is None or holder.tg_user_id is None or seat in snap.paused:
            return
        content = render(self.private_translator(snap, holder))
        priority = URGENT if urgent else WAITING
        self.outbox.want(snap.table_id, key, holder.tg_user_id, None, content, priority)

    def _switched(self, snap: Snapshot, notice: GameSwitched, t: Translator) -> None:
        """The table plays another game now: say who kept a seat and who stood up, and post
        its seating anew below (the old one, far up the chat, becomes it too)."""
        lines = [t("table.switched", game=t(f"game.{notice.game}"))]
        if notice.kept:
            lines.append(t("table.switched_kept", names=", ".join(map(user_text, notice.kept))))
        if notice.stood:
            names = ", ".join(map(user_text, notice.stood))
            lines.append(t("table.switched_stood", names=names, seats=notice.seats))
        self.outbox.post(snap.chat.tg_chat_id, snap.topic_id, Rendered("\n".join(lines)))
        self.outbox.renew(snap.table_id, f"seating:{snap.deal_no}")

    def _next_ready(self, snap: Snapshot, notice: NextReady, t: Translator) -> None:
        """Who is ready for the next match, as they press; the same message says it began."""
        key = vote_key("next", notice.deal_no)
        if notice.started or notice.cancelled:
            said = Rendered(t("next.started" if notice.started else "next.cancelled"))
            self.outbox.update(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, said)
            return
        if len(notice.ready) == 1 and self.outbox.showing(snap.table_id, key):
            self.outbox.renew(snap.table_id, key)  # a vote after a cancelled one: anew
        names = ", ".join(user_text(snap.seats[s].name) for s in notice.ready if s in snap.seats)
        text = t("next.ready", count=len(notice.ready), of=notice.of, names=names)
        self.outbox.want(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, Rendered(text))

    def _sub_outcome(self, snap: Snapshot, outcome: Rendered) -> None:
        """A substitute's question decided: its message says how, its buttons gone; posted
        when there was no question (the others at the table are robots) or it is gone."""
        key = vote_key("sub", snap.deal_no)
        if self.outbox.showing(snap.table_id, key):
            self.outbox.want(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, outcome)
        else:
            self.outbox.post(snap.chat.tg_chat_id, snap.topic_id, outcome)

    def _substituted(self, snap: Snapshot, notice: SubDone, t: Translator) -> None:
        """The newcomer gets the seat's hand privately (a message of their own); the one who
        left is told, and their old buttons are refused from now on."""
        ui = self.plugins.ui(snap.game.name)
        seat = notice.seat
        text = t(
            "sub.done",
            seat=ui.seat_name(seat, t.language),
            left=user_text(notice.left.name),
            newcomer=user_text(notice.newcomer.name),
        )
        self._sub_outcome(snap, Rendered(text))
        self.outbox.forget(snap.table_id, ui.hand_key(seat, snap.deal_no))
        if notice.left.tg_user_id is not None:
            own = self.private_translator(snap, notice.left)
            self.outbox.post(
                notice.left.tg_user_id,
                None,
                Rendered(
                    own(
                        "sub.you_left",
                        number=snap.table_id,
                        newcomer=user_text(notice.newcomer.name),
                    )
                ),
            )


def _sub_proposed(
    snap: Snapshot, notice: SubProposed, t: Translator, seat_name: Callable[[int, str], str]
) -> Rendered:
    """A substitute proposed for a seat: the other players agree or refuse, in the group."""
    agreed = ", ".join(
        user_text(snap.seats[s].name) for s in sorted(notice.agreed) if s in snap.seats
    )
    text = t(
        "sub.proposed",
        seat=seat_name(notice.seat, t.language),
        leaving=user_text(notice.leaving),
        newcomer=user_text(notice.newcomer),
        agreed=agreed or "—",
    )
    keys = answer_keys(
        snap.table_id, snap.deal_no, Act.SUB, t("button.sub_yes"), t("button.sub_no")
    )
    return Rendered(text, keys)
