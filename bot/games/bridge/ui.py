"""Rubber bridge's UI plug-in: the table and private screens, the notices, the scoresheet."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

from telegram import InputFile

from bot.games.bridge.buttons import CALL, CARD, CLAIM, CLAIM_ANSWER, CLAIM_MENU
from bot.games.bridge.cards import card_text, seat_text, side_text
from bot.games.bridge.dd import solve
from bot.games.bridge.notation import read_seat
from bot.games.bridge.pictures import NAME, scoresheet_picture
from bot.games.bridge.score import (
    over_key,
    render_deal_result,
    render_end_vote,
    render_rubber_result,
    render_scoresheet,
    render_undo_answered,
    render_undo_asked,
)
from bot.games.bridge.state import (
    bridge_deal,
    bridge_form,
    bridge_options,
    bridge_rubber,
    deal_of,
    sheet_vulnerability,
    vulnerability,
)
from bot.games.bridge.table import render_private, render_seating, render_table, seat_waits
from bot.i18n import Translator
from bot.plugin import UIBase
from bot.rendered import Choice, Rendered
from bot.screens import Drawing, FilePoster
from bot.tables import (
    DealFinished,
    EndVote,
    MatchFinished,
    Refusal,
    Snapshot,
    UndoAnswered,
    UndoAsked,
)
from bot.views.misc import close_end_vote, end_vote_message, undo_vote_message
from bot.views.pictures import picture_names
from bot.views.text import user_text
from games.bridge.cards import Card, Deal, Seat, Side
from games.bridge.chicago import CARRY, FIFTY
from games.bridge.deal import DealState
from games.bridge.game import CHICAGO, RUBBER, ClaimRejected
from games.bridge.rubber import ScoreSheet
from storage.interface import MatchRecord

log = logging.getLogger(__name__)

# "hand:N:" and so on, by seat: a press names the four hands' keys several times
_HAND_KEYS = {int(seat): f"hand:{seat.name}:" for seat in Seat}


# Buttons of the first release name their action by a short act; their argument is the call,
# the card, the tricks or the answer. Still honoured: messages in chats keep their buttons.
ACTS = {CALL: "call.{}", CARD: "card.{}", CLAIM: "claim.{}"}
ANSWERS = {"y": "answer.yes", "n": "answer.no"}


def post_scoresheet(
    poster: FilePoster,
    chat_id: int,
    thread_id: int | None,
    rubber: ScoreSheet,
    names: Mapping[Seat, str],
    title: str,
    caption: str,
    t: Translator,
) -> None:
    """Post a rubber's sheet as a photo (online and kept), drawn off the event loop: it keeps
    its place in the chat's queue, right after what was queued before it."""
    short = picture_names({int(s): n for s, n in names.items()}, NAME, t)
    sides = [
        f"{side_text(side, t)}: " + " & ".join(short[s] for s in side.seats if s in short)
        for side in Side
    ]
    total = t("keeper.picture_total")

    async def draw() -> InputFile:
        png = await asyncio.to_thread(
            scoresheet_picture, copy.deepcopy(rubber), title, sides[0], sides[1], total
        )
        return InputFile(png, filename="scoresheet.png")

    poster.post_file(chat_id, thread_id, "sendPhoto", "photo", draw(), caption)


async def _result_with_analysis(
    snap: Snapshot, notice: DealFinished, t: Translator, deal: Deal, vul: tuple[bool, bool]
) -> Rendered:
    """The deal's result with its double-dummy analysis, solved in a worker thread (a hard
    deal takes the solver a few hundred milliseconds: the tables must not wait for it); the
    post keeps its place in the group's queue meanwhile. Without the analysis if it fails or
    the solver is behind."""
    return render_deal_result(snap, notice, t, await solve(deal, vul))


FORM_WORDS = {"роббер": RUBBER, "rubber": RUBBER, "чикаго": CHICAGO, "chicago": CHICAGO}


class BridgeUI(UIBase):
    game = "bridge"
    commands: tuple[str, ...] = ("bridge", "table")
    review_sides: tuple[str, ...] = ("NS", "EW")
    par_in_imps: bool = True

    def card_word(self, code: str, language: str) -> str:
        return card_text(Card.parse(code), language)

    def seat_name(self, seat: int, language: str) -> str:
        """The seat in a sentence: "Запад (З)" (the letter alone reads as a digit there)."""
        return Translator(language)(f"bridge.seat_label.{Seat(seat).name}")

    def seat_code(self, seat: int) -> str:
        return Seat(seat).name

    def seat_from_word(self, word: str) -> int | None:
        letter = read_seat(word)
        return None if letter is None else int(Seat.parse(letter))

    def hand_key(self, seat: int, deal_no: int) -> str:
        return f"{_HAND_KEYS[seat]}{deal_no}"

    def show_deal(self, screens: Drawing, snap: Snapshot) -> None:
        state = deal_of(snap)
        if state is not None:
            self._deal(screens, snap, snap.deal_no, state, vulnerability(snap))

    def _deal(
        self,
        screens: Drawing,
        snap: Snapshot,
        deal_no: int,
        state: DealState,
        vul: tuple[bool, bool],
    ) -> None:
        t = screens.group_translator(snap)
        deal = state.deal if state.result is not None else None  # all four, once it is over
        username = screens.bot_username
        screens.deal_table(
            snap,
            deal_no,
            f"table:{deal_no}",
            lambda: render_table(snap, deal_no, state.view(None), vul, t, username, deal),
            live=deal is None,
        )
        for seat in Seat:
            self._hand(screens, snap, seat, deal_no, state, vul)

    def show_finished(
        self, screens: Drawing, snap: Snapshot, deal_no: int, final: Any, before: Any
    ) -> None:
        rubber = bridge_rubber(before)
        vul = sheet_vulnerability(rubber)
        self._deal(screens, snap, deal_no, bridge_deal(final), vul)

    def show_hand(self, screens: Drawing, snap: Snapshot, seat: int, menu: str = "") -> None:
        state = deal_of(snap)
        if menu not in ("", "claim"):
            raise Refusal("stale")  # bridge has no other screens
        if menu == "claim" and (state is None or not state.can_claim(Seat(seat))):
            raise Refusal("stale")
        if state is not None:
            self._hand(screens, snap, Seat(seat), snap.deal_no, state, vulnerability(snap), menu)

    def _hand(
        self,
        screens: Drawing,
        snap: Snapshot,
        seat: Seat,
        deal_no: int,
        state: DealState,
        vul: tuple[bool, bool],
        menu: str = "",
    ) -> None:
        # The seat's view is built when its screen is drawn: a waiting screen in a private
        # chat is drawn only if it is sent (``Drawing.private``).
        screens.private(
            snap,
            seat,
            self.hand_key(seat, deal_no),
            lambda t: render_private(snap, deal_no, state.view(seat), vul, t, menu == "claim"),
            urgent=not seat_waits(snap, state, seat),
            deal_no=deal_no,
        )

    def seating(self, snap: Snapshot, t: Translator, bot_username: str) -> Rendered:
        return render_seating(snap, t)

    def notice(self, screens: Drawing, snap: Snapshot, notice: Any, t: Translator) -> bool:
        post = screens.post
        chat, thread = snap.chat.tg_chat_id, snap.topic_id
        if isinstance(notice, DealFinished):
            final = bridge_deal(notice.final)
            before = bridge_rubber(notice.before)
            vul = sheet_vulnerability(before)
            # The deal's screens go to those who played it (a person taking a robot's seat
            # from the next deal is not sent the finished one).
            played = dataclasses.replace(snap, seats=notice.holders or snap.seats)
            self.show_finished(screens, played, notice.deal_no, notice.final, notice.before)
            post(
                chat, thread, _result_with_analysis(snap, notice, t, final.deal, vul), in_order=True
            )
        elif isinstance(notice, ClaimRejected):
            by = snap.seats.get(notice.by)
            text = t(
                "claim.rejected",
                name=user_text(by.name) if by is not None else "—",
                seat=seat_text(notice.claimant, t.language),
            )
            post(chat, thread, Rendered(text))
        elif isinstance(notice, UndoAsked):
            undo_vote_message(screens, snap, render_undo_asked(snap, notice, t), fresh=True)
        elif isinstance(notice, UndoAnswered):
            undo_vote_message(screens, snap, render_undo_answered(snap, notice, t), fresh=False)
        elif isinstance(notice, EndVote):
            fresh = notice.agree and len(snap.end_votes) == 1
            end_vote_message(screens, snap, render_end_vote(snap, notice, t), fresh)
        elif isinstance(notice, MatchFinished):
            state = deal_of(snap)
            if notice.unfinished:
                close_end_vote(screens, snap, snap.deal_no, Rendered(t("end.done")))
            if notice.unfinished and state is not None and state.result is None:
                self._deal(screens, snap, snap.deal_no, state, vulnerability(snap))  # withdrawn
            post(chat, thread, render_rubber_result(snap, notice, t))
            names = {Seat(seat): holder.name for seat, holder in snap.seats.items()}
            post_scoresheet(
                screens,
                chat,
                thread,
                bridge_rubber(notice.match),
                names,
                t("table.title_plain", number=snap.table_id),
                t(over_key(bridge_rubber(notice.match))),
                t,
            )
        else:
            return False
        return True

    def scoresheet(self, snap: Snapshot, t: Translator) -> Rendered:
        return render_scoresheet(snap, t)

    def score_picture(self, screens: Drawing, snap: Snapshot, t: Translator) -> None:
        """The rubber's picture comes at its end (and from the keeper's button): /score stays
        one message."""

    def history_line(self, match: MatchRecord, names: Mapping[int, str], t: Translator) -> str:
        sides = []
        for side in Side:
            pair = " &amp; ".join(
                user_text(names.get(match.seats[s], "?")) for s in side.seats if s in match.seats
            )
            sides.append(f"{side_text(side, t)}: {pair}")
        result = match.result or {}
        if result.get("form") == CHICAGO:
            sides.insert(0, t("form.chicago"))
        if result.get("winner") is None or not result.get("points"):
            outcome = t("history.drawn")
        else:
            winner = side_text(Side(str(result["winner"])), t)
            outcome = t("history.won", side=winner, points=result["points"])
        return " — ".join(sides) + f" · {outcome}"

    def options_view(
        self, options: Mapping[str, Any], t: Translator
    ) -> tuple[list[str], list[tuple[Choice, ...]]]:
        """The match's form (rubber or Chicago), the scoring table, and the part score's
        setting of the form chosen (a rubber's unfinished one, a Chicago's carried or 50)."""
        rules, part = bridge_options(options)
        form, chicago_part = bridge_form(options)
        chicago = form == CHICAGO
        lines = [t(f"settings.form.{form}"), t("settings.rules", rules=t(f"rules.{rules}"))]
        forms = tuple(Choice(t(f"form.{f}"), f"form={f}", f == form) for f in (RUBBER, CHICAGO))
        rows = [
            forms,
            tuple(
                Choice(t(f"rules.short.{r}"), f"rules={r}", r == rules)
                for r in ("modern", "classic")
            ),
        ]
        if chicago:
            lines.append(t("settings.chicago_part", part=t(f"chicago.part.{chicago_part}")))
            rows.append(
                tuple(
                    Choice(t(f"chicago.part_choice.{p}"), f"chicago_part={p}", p == chicago_part)
                    for p in (CARRY, FIFTY)
                )
            )
        else:
            lines.append(t("settings.part", part=part))
            rows.append(
                tuple(
                    Choice(t("settings.part_choice", part=p), f"part={p}", p == part)
                    for p in (50, 100)
                )
            )
        return lines, rows

    def option_changed(self, options: Mapping[str, Any], arg: str) -> dict[str, Any] | None:
        key, _, value = arg.partition("=")
        value = FORM_WORDS.get(value.strip().lower(), value) if key == "form" else value
        if key == "rules" and value in ("modern", "classic"):
            return {**options, "rules": value}
        if key == "part" and value in ("50", "100"):
            return {**options, "unfinished_part_score": int(value)}
        if key == "form" and value in (RUBBER, CHICAGO):
            return {**options, "form": value}
        if key == "chicago_part" and value in (CARRY, FIFTY):
            return {**options, "chicago_part": value}
        return None

    def button_menu(self, act: str, arg: str) -> str | None:
        return "claim" if act == CLAIM_MENU else None

    def button_action(self, act: str, arg: str) -> str | None:
        if act == CLAIM_ANSWER:
            return ANSWERS.get(arg)
        pattern = ACTS.get(act)
        return None if pattern is None else pattern.format(arg)


BRIDGE_UI = BridgeUI()
