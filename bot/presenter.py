"""Turns a table service ``Change`` into outbox work: which kept messages show what, what to post.

Game-neutral: the game's UI plug-in (``bot.plugin``) draws its deal, its notices and its
screens on a ``Drawing`` (values, ``bot.screens``); here are the notices every game shares
(substitutes, refusals) and the seating message, and the one place a drawing is written to the
outbox: the presenter is the only writer of table messages.
Kept messages: ``table:<deal>`` in the group (one per deal, edited as it goes),
``seating:<deal>`` in the group between matches, and one private screen per seat and deal
(the UI names it). Private messages are built from the player's own seat view only.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from bot.callback_data import Act
from bot.i18n import Translator
from bot.outbox import Outbox
from bot.places import Places
from bot.plugin import Plugins
from bot.rendered import Rendered
from bot.screens import (
    Drawing,
    Filed,
    Kept,
    Posted,
    group_translator,
    private_translator,
)
from bot.tables import (
    Change,
    DealRedrawn,
    GameSwitched,
    MatchFinished,
    NextReady,
    Snapshot,
    SubDone,
    SubProposed,
    SubRefused,
    SwitchAsked,
    TakeoverAsked,
)
from bot.views.misc import answer_keys, vote_key, vote_message
from bot.views.text import user_text
from storage.interface import TableStatus

if TYPE_CHECKING:
    from bot.robots import RobotTrouble


class Presenter:
    """Draws each change's screens and writes them (a follower of ``bot.changes.Changes``)."""

    def __init__(
        self, outbox: Outbox, bot_username: str, plugins: Plugins, places: Places | None = None
    ) -> None:
        self.outbox = outbox
        self.bot_username = bot_username
        self.plugins = plugins
        self.places = places if places is not None else Places()

    @contextlib.contextmanager
    def drawn(self) -> Iterator[Drawing]:
        """A blank drawing for one change's screens, written to the outbox when the block ends
        (nothing is written if it raised)."""
        drawing = Drawing(self.bot_username, self.outbox.showing, self.places)
        yield drawing
        self.write(drawing)

    def write(self, drawing: Drawing) -> None:
        """What a drawing shows, to the outbox, in its order."""
        outbox = self.outbox
        for shown in drawing.shown:
            if isinstance(shown, Kept):
                args = (shown.table_id, shown.key, shown.chat_id, shown.thread_id, shown.content)
                if shown.only_shown:
                    outbox.update(*args)
                else:
                    outbox.want(*args, shown.priority, shown.receiver, shown.may_post)
            elif isinstance(shown, Posted):
                outbox.post(shown.chat_id, shown.thread_id, shown.content, shown.in_order)
            elif isinstance(shown, Filed):
                outbox.post_file(
                    shown.chat_id,
                    shown.thread_id,
                    shown.method,
                    shown.field,
                    shown.file,
                    shown.caption,
                )
            elif shown.scrolled:
                outbox.forget(shown.table_id, shown.key)
            else:
                outbox.renew(shown.table_id, shown.key)

    def show(self, change: Change) -> None:
        with self.drawn() as drawing:
            self._draw(drawing, change)

    def _draw(self, drawing: Drawing, change: Change) -> None:
        snap = change.snapshot
        ui = self.plugins.ui(snap.game.name)
        t = group_translator(snap)
        chat, thread = snap.chat.tg_chat_id, snap.topic_id
        match_over = False
        for notice in change.notices:
            match_over = match_over or isinstance(notice, MatchFinished)
            if ui.notice(drawing, snap, notice, t):
                continue
            if isinstance(notice, SubRefused):  # the question edited to its outcome
                by = snap.seats.get(notice.by)
                text = t("sub.refused", name=user_text(by.name) if by else "—")
                _sub_outcome(drawing, snap, Rendered(text))
            elif isinstance(notice, SubDone):
                self._substituted(drawing, snap, notice, t)
            elif isinstance(notice, SubProposed):  # one message, edited as answers come
                proposed = _sub_proposed(snap, notice, t, ui.seat_name)
                vote_message(drawing, snap, "sub", proposed, fresh=notice.fresh)
            elif isinstance(notice, GameSwitched):
                _switched(drawing, snap, notice, t)
            elif isinstance(notice, SwitchAsked):
                game = t(f"game.{notice.game}")
                command = self.plugins.ui(notice.game).commands[0]
                text = t("table.switch_asked", game=game, agreed=notice.agreed, of=notice.of)
                drawing.post(chat, thread, Rendered(f"{text} /{command}"))
            elif isinstance(notice, NextReady):  # one message, edited as people press
                _next_ready(drawing, snap, notice, t)
            elif isinstance(notice, TakeoverAsked):
                seat = ui.seat_name(notice.seat, t.language)
                text = t("robot.takeover", name=user_text(notice.newcomer), seat=seat)
                drawing.post(chat, thread, Rendered(text))
        if snap.status is TableStatus.PLAYING and snap.state is not None:
            if snap.dealer_drawn:
                # The match just started: the seating message it was seated from (perhaps by
                # deep links, from private chats) says so and offers no seat any more. Drawn
                # when it is sent: this holds for every press of the first deal, and the
                # message shows the same from the first of them on.
                key = f"seating:{snap.deal_no - 1}"
                username = self.bot_username
                drawing.update(
                    snap.table_id, key, chat, thread, lambda: ui.seating(snap, t, username)
                )
            ui.show_deal(drawing, snap)
        elif not match_over:
            key = f"seating:{snap.deal_no}"
            seating = ui.seating(snap, t, self.bot_username)
            drawing.want(snap.table_id, key, chat, thread, seating)

    def robot_trouble(self, snap: Snapshot, trouble: RobotTrouble) -> None:
        """The group is told a robot cannot move now (its thought is unanswered, or failed
        and is asked again later), so nobody waits in silence."""
        t = group_translator(snap)
        seat = self.plugins.ui(snap.game.name).seat_name(trouble.seat, t.language)
        text = t(f"robot.trouble.{trouble.kind}", seat=seat, seconds=round(trouble.retry_s))
        with self.drawn() as drawing:
            drawing.post(snap.chat.tg_chat_id, snap.topic_id, Rendered(text))

    def redraw(self, change: Change) -> None:
        """A restart's correction of finished deals' screens (``DealRedrawn``), and only that:
        messages already in their chats are edited, nothing is posted."""
        snap = change.snapshot
        ui = self.plugins.ui(snap.game.name)
        for notice in change.notices:
            if isinstance(notice, DealRedrawn):
                with self.outbox.correcting(), self.drawn() as drawing:
                    ui.show_finished(drawing, snap, notice.deal_no, notice.final, notice.before)

    def notify_turn(self, snap: Snapshot, seat: int) -> None:
        """The seat's screen sent anew as a new message (a notification), the old one deleted."""
        ui = self.plugins.ui(snap.game.name)
        with self.drawn() as drawing:
            drawing.notify(snap, seat, ui.hand_key(seat, snap.deal_no))
            ui.show_hand(drawing, snap, seat)

    def show_hand(self, snap: Snapshot, seat: int, menu: str = "") -> None:
        """One player's private screen, drawn anew (``menu``: a sub-menu they opened)."""
        with self.drawn() as drawing:
            self.plugins.ui(snap.game.name).show_hand(drawing, snap, seat, menu)

    def score_picture(self, snap: Snapshot, t: Translator) -> None:
        """The match's sheet as a picture on /score, if the game draws one there."""
        with self.drawn() as drawing:
            self.plugins.ui(snap.game.name).score_picture(drawing, snap, t)

    def _substituted(
        self, drawing: Drawing, snap: Snapshot, notice: SubDone, t: Translator
    ) -> None:
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
        _sub_outcome(drawing, snap, Rendered(text))
        drawing.forget(snap.table_id, ui.hand_key(seat, snap.deal_no))
        if notice.left.tg_user_id is not None:
            own = private_translator(snap, notice.left)
            drawing.post(
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


def _switched(drawing: Drawing, snap: Snapshot, notice: GameSwitched, t: Translator) -> None:
    """The table plays another game now: say who kept a seat and who stood up, and post its
    seating anew below (the old one, far up the chat, becomes it too)."""
    lines = [t("table.switched", game=t(f"game.{notice.game}"))]
    if notice.kept:
        lines.append(t("table.switched_kept", names=", ".join(map(user_text, notice.kept))))
    if notice.stood:
        names = ", ".join(map(user_text, notice.stood))
        lines.append(t("table.switched_stood", names=names, seats=notice.seats))
    drawing.post(snap.chat.tg_chat_id, snap.topic_id, Rendered("\n".join(lines)))
    drawing.renew(snap.table_id, f"seating:{snap.deal_no}")


def _next_ready(drawing: Drawing, snap: Snapshot, notice: NextReady, t: Translator) -> None:
    """Who is ready for the next match, as they press; the same message says it began."""
    key = vote_key("next", notice.deal_no)
    if notice.started or notice.cancelled:
        said = Rendered(t("next.started" if notice.started else "next.cancelled"))
        drawing.update(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, said)
        return
    if len(notice.ready) == 1 and drawing.showing(snap.table_id, key):
        drawing.renew(snap.table_id, key)  # a vote after a cancelled one: anew
    names = ", ".join(user_text(snap.seats[s].name) for s in notice.ready if s in snap.seats)
    text = t("next.ready", count=len(notice.ready), of=notice.of, names=names)
    drawing.want(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, Rendered(text))


def _sub_outcome(drawing: Drawing, snap: Snapshot, outcome: Rendered) -> None:
    """A substitute's question decided: its message says how, its buttons gone; posted
    when there was no question (the others at the table are robots) or it is gone."""
    key = vote_key("sub", snap.deal_no)
    if drawing.showing(snap.table_id, key):
        drawing.want(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, outcome)
    else:
        drawing.post(snap.chat.tg_chat_id, snap.topic_id, outcome)


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
