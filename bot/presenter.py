"""Turns a table service ``Change`` into outbox work: which kept messages show what, what to post.

Kept messages: ``table:<deal>`` in the group (one per deal, edited as it goes),
``seating:<deal>`` in the group between rubbers, and ``hand:<seat>:<deal>`` in each player's
private chat. Private messages are built from the player's own seat view only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from telegram import InputFile

from bot.i18n import Translator, resolve
from bot.outbox import Outbox
from bot.service import (
    Change,
    ClaimRejected,
    DealFinished,
    EndVote,
    Holder,
    RubberFinished,
    Snapshot,
    SubDone,
    SubProposed,
    SubRefused,
    UndoAnswered,
    UndoAsked,
)
from bot.timers import TurnTimers
from bot.views import Rendered
from bot.views.cards import seat_text
from bot.views.pictures import scoresheet_picture
from bot.views.score import (
    render_deal_result,
    render_end_vote,
    render_rubber_result,
    render_sub_proposed,
    render_undo_answered,
    render_undo_asked,
)
from bot.views.table import render_private, render_seating, render_table, vulnerability
from bot.views.text import user_text
from games.bridge.cards import Seat, Side
from games.bridge.deal import DealState
from games.bridge.rubber import Rubber
from storage.interface import TableStatus


async def post_scoresheet(
    outbox: Outbox,
    chat_id: int,
    thread_id: int | None,
    rubber: Rubber,
    names: Mapping[Seat, str],
    title: str,
    caption: str,
    t: Translator,
) -> None:
    """Draw a rubber's sheet off the event loop, then post it as a photo (online and kept)."""
    sides = [
        f"{t('side.ns') if side is Side.NS else t('side.ew')}: "
        + " & ".join(names[s] for s in side.seats if s in names)
        for side in Side
    ]
    png = await asyncio.to_thread(
        scoresheet_picture, rubber, title, sides[0], sides[1], t("keeper.picture_total")
    )
    outbox.post_file(
        chat_id, thread_id, "sendPhoto", "photo", InputFile(png, filename="scoresheet.png"), caption
    )


class Presenter:
    def __init__(self, outbox: Outbox, bot_username: str) -> None:
        self.outbox = outbox
        self.bot_username = bot_username
        self._drawing: set[asyncio.Task[None]] = set()
        self.timers: TurnTimers | None = None  # set once the job queue exists

    def group_translator(self, snap: Snapshot) -> Translator:
        return Translator(resolve(snap.settings.language))

    def private_translator(self, snap: Snapshot, holder: Holder) -> Translator:
        return Translator(resolve(holder.language, resolve(snap.settings.language)))

    def show(self, change: Change) -> None:
        snap = change.snapshot
        if self.timers is not None:
            self.timers.track(snap)
        t = self.group_translator(snap)
        chat, thread = snap.chat.tg_chat_id, snap.topic_id
        rubber_over = False
        for notice in change.notices:
            if isinstance(notice, DealFinished):
                self._deal(snap, notice.deal_no, notice.final, notice.vulnerable)
                self.outbox.post(chat, thread, render_deal_result(snap, notice, t))
            elif isinstance(notice, ClaimRejected):
                text = t(
                    "claim.rejected",
                    name=user_text(snap.seats[notice.by].name) if notice.by in snap.seats else "—",
                    seat=seat_text(notice.claimant, t.language),
                )
                self.outbox.post(chat, thread, Rendered(text))
            elif isinstance(notice, UndoAsked):
                self.outbox.post(chat, thread, render_undo_asked(snap, notice, t))
            elif isinstance(notice, UndoAnswered):
                self.outbox.post(chat, thread, render_undo_answered(snap, notice, t))
            elif isinstance(notice, SubProposed):
                self.outbox.post(chat, thread, render_sub_proposed(snap, notice, t))
            elif isinstance(notice, SubRefused):
                by = snap.seats.get(notice.by)
                text = t("sub.refused", name=user_text(by.name) if by else "—")
                self.outbox.post(chat, thread, Rendered(text))
            elif isinstance(notice, SubDone):
                self._substituted(snap, notice, t)
            elif isinstance(notice, EndVote):
                self.outbox.post(chat, thread, render_end_vote(snap, notice, t))
            elif isinstance(notice, RubberFinished):
                rubber_over = True
                if notice.unfinished and snap.state is not None and snap.state.result is None:
                    self._deal(snap, snap.deal_no, snap.state, vulnerability(snap))  # withdrawn
                self.outbox.post(chat, thread, render_rubber_result(snap, notice, t))
                self._draw_sheet(snap, notice, t)
        if snap.status is TableStatus.PLAYING and snap.state is not None:
            self._deal(snap, snap.deal_no, snap.state, vulnerability(snap))
        elif not rubber_over:
            key = f"seating:{snap.deal_no}"
            self.outbox.want(snap.table_id, key, chat, thread, render_seating(snap, t))

    def _draw_sheet(self, snap: Snapshot, notice: RubberFinished, t: Translator) -> None:
        """The finished rubber's sheet as a picture too, drawn off the event loop."""
        names = {seat: holder.name for seat, holder in snap.seats.items()}
        draw = post_scoresheet(
            self.outbox,
            snap.chat.tg_chat_id,
            snap.topic_id,
            notice.rubber,
            names,
            t("table.title_plain", number=snap.table_id),
            t("rubber.over"),
            t,
        )
        task = asyncio.create_task(draw)
        self._drawing.add(task)
        task.add_done_callback(self._drawing.discard)

    def _deal(self, snap: Snapshot, deal_no: int, state: DealState, vul: tuple[bool, bool]) -> None:
        t = self.group_translator(snap)
        table = render_table(snap, deal_no, state.view(None), vul, t, self.bot_username)
        self.outbox.want(
            snap.table_id, f"table:{deal_no}", snap.chat.tg_chat_id, snap.topic_id, table
        )
        for seat in Seat:
            self.show_hand(snap, seat, deal_no, state, vul)

    def _substituted(self, snap: Snapshot, notice: SubDone, t: Translator) -> None:
        """The newcomer gets the seat's hand privately (a message of their own); the one who
        left is told, and their old buttons are refused from now on."""
        seat = notice.seat
        text = t(
            "sub.done",
            seat=seat_text(seat, t.language),
            left=user_text(notice.left.name),
            newcomer=user_text(notice.newcomer.name),
        )
        self.outbox.post(snap.chat.tg_chat_id, snap.topic_id, Rendered(text))
        self.outbox.forget(snap.table_id, f"hand:{seat.name}:{snap.deal_no}")
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

    def show_hand(
        self,
        snap: Snapshot,
        seat: Seat,
        deal_no: int,
        state: DealState,
        vul: tuple[bool, bool],
        claim_menu: bool = False,
    ) -> None:
        """A player's private message; ``claim_menu`` offers the number of tricks to claim
        instead of the cards."""
        holder = snap.seats.get(seat)
        if holder is None or holder.tg_user_id is None or seat in snap.paused:
            return
        t = self.private_translator(snap, holder)
        content = render_private(snap, deal_no, state.view(seat), vul, t, claim_menu)
        self.outbox.want(
            snap.table_id, f"hand:{seat.name}:{deal_no}", holder.tg_user_id, None, content
        )
