"""The toy game's plug-in: what a new game's ``bot/games/<game>/`` package provides, written
against the bot's seams alone (``bot.plugin``, the services, a ``Drawing`` for its screens, the
generic action button) and only what differs from ``UIBase``: its screens, a command of its
own (/toyscore), a button kind of its own (a peek at the tricks), a typed setting (/settings
goal 4), its unit priced by a word of its own (/settings pip 2 RUB), a refusal in its own words
and a robot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.callback_data import Act, Button, route
from bot.context import BotContext
from bot.handlers.common import (
    acting_player,
    chat_translator,
    on_button,
    refusal_message,
    thread_of,
)
from bot.i18n import Translator
from bot.plugin import Plugin, Price, UIBase
from bot.rendered import Choice, Key, Rendered
from bot.screens import Drawing
from bot.tables import DealFinished, MatchFinished, Refusal, Snapshot
from bot.views.text import user_text
from storage.interface import MatchRecord
from tests.toy.game import GOAL, ToyState, goal_of, move

PEEK = "tk"  # the toy's own button kind: a seated player peeks at the tricks taken so far
GOALS = range(1, 10)


class ToyUI(UIBase):
    game = "toy"
    commands: tuple[str, ...] = ("toy",)

    def seat_name(self, seat: int, language: str) -> str:
        return f"P{seat + 1}"

    def seat_from_word(self, word: str) -> int | None:
        return int(word) if word in ("0", "1") else None

    def show_deal(self, screens: Drawing, snap: Snapshot) -> None:
        state = snap.state
        assert isinstance(state, ToyState)
        view = state.view(None)
        text = f"Toy table {snap.table_id}, deal {snap.deal_no}: on the table {list(view['table'])}"
        peek = Key("👀", Button(snap.table_id, snap.deal_no, PEEK).encode())
        screens.want(
            snap.table_id,
            f"table:{snap.deal_no}",
            snap.chat.tg_chat_id,
            snap.topic_id,
            Rendered(user_text(text), ((peek,),)),
        )
        for seat in snap.seats:
            self.show_hand(screens, snap, seat)

    def show_hand(self, screens: Drawing, snap: Snapshot, seat: int, menu: str = "") -> None:
        holder = snap.seats.get(seat)
        state = snap.state
        if holder is None or holder.tg_user_id is None or not isinstance(state, ToyState):
            return
        view = state.view(seat)
        keys = tuple(
            (
                Key(
                    str(a.card),
                    Button(
                        snap.table_id, snap.deal_no, Act.ACTION, f"lay.{a.card}", snap.actions
                    ).encode(),
                ),
            )
            for a in state.legal_actions(seat)
        )
        text = f"Toy deal {snap.deal_no}: your cards {sorted(view['hand'])}"
        screens.want(
            snap.table_id,
            self.hand_key(seat, snap.deal_no),
            holder.tg_user_id,
            None,
            Rendered(text, keys),
        )

    def seating(self, snap: Snapshot, t: Translator, bot_username: str) -> Rendered:
        free = [s for s in (0, 1) if s not in snap.seats]
        row = tuple(
            Key(
                f"Sit {self.seat_name(s, t.language)}",
                Button(snap.table_id, 0, Act.SIT, str(s)).encode(),
            )
            for s in free
        ) + tuple(
            Key(
                f"🤖 {self.seat_name(s, t.language)}",
                Button(snap.table_id, 0, Act.ROBOT, str(s)).encode(),
            )
            for s in free
        )
        return Rendered(
            f"Toy table {snap.table_id}: {len(snap.seats)} of 2 seated", (row,) if row else ()
        )

    def notice(self, screens: Drawing, snap: Snapshot, notice: Any, t: Translator) -> bool:
        if isinstance(notice, DealFinished):
            text = f"Toy deal {notice.deal_no} over: taken {notice.outcome['taken']}"
            for seat, holder in snap.seats.items():  # the finished deal's screens lose their keys
                if holder.tg_user_id is not None:
                    screens.want(
                        snap.table_id,
                        self.hand_key(seat, notice.deal_no),
                        holder.tg_user_id,
                        None,
                        Rendered(text),
                    )
        elif isinstance(notice, MatchFinished):
            text = f"Toy match over: {notice.summary['score']}"
        else:
            return False
        screens.post(snap.chat.tg_chat_id, snap.topic_id, Rendered(text))
        return True

    def scoresheet(self, snap: Snapshot, t: Translator) -> Rendered:
        return Rendered(t("toy.score", number=snap.table_id, score=_score(snap)))

    def history_line(self, match: MatchRecord, names: Mapping[int, str], t: Translator) -> str:
        return f"toy {match.result}"

    def options_view(
        self, options: Mapping[str, Any], t: Translator
    ) -> tuple[list[str], list[tuple[Choice, ...]]]:
        goal = goal_of(options)
        row = tuple(Choice(str(g), f"goal={g}", g == goal) for g in sorted(GOALS))
        return [t("toy.goal", goal=goal)], [row]

    def option_changed(self, options: Mapping[str, Any], arg: str) -> dict[str, Any] | None:
        key, _, value = arg.partition("=")
        if key == "goal" and value.isascii() and value.isdigit() and int(value) in GOALS:
            return {**options, "goal": int(value)}
        return None


def _score(snap: Snapshot) -> str:
    match = snap.match
    score = getattr(match, "score", [0, 0])
    goal = getattr(match, "goal", GOAL)
    return f"{score[0]}–{score[1]} (goal {goal})"


async def toyscore(update: Update, context: BotContext) -> None:
    """/toyscore: the toy match at this chat's table, or the toy's refusal in its own words."""
    chat = update.effective_chat
    assert chat is not None
    t = await chat_translator(update, context)
    table_id = await context.service.table_for(chat.id, thread_of(update))
    snap = None if table_id is None else await context.service.snapshot(table_id)
    if snap is None or snap.game.name != "toy":
        refusal = Refusal("not_here", game="toy")
        context.outbox.post(chat.id, thread_of(update), refusal_message(refusal, t))
        return
    context.outbox.post(chat.id, thread_of(update), TOY_UI.scoresheet(snap, t))


async def _peek(update: Update, context: BotContext, pressed: Button, t: Translator) -> None:
    """The toy's own button: a seated player sees the tricks taken so far, in a popup."""
    query = update.callback_query
    assert query is not None
    player = await acting_player(update, context)
    snap = await context.service.snapshot(pressed.table_id)
    if snap.seat_of(player.id) is None:
        raise Refusal("peek_seated_only", game="toy")
    state = snap.state
    taken = state.taken if isinstance(state, ToyState) else (0, 0)
    await query.answer(t("toy.peek", taken=f"{taken[0]}–{taken[1]}", score=_score(snap)))


peek = on_button(_peek, alert=False)


def _handlers() -> Sequence[BaseHandler[Update, Any, Any]]:
    return [
        CommandHandler("toyscore", toyscore, filters=filters.ChatType.GROUPS),
        CallbackQueryHandler(peek, pattern=route(PEEK)),
    ]


TOY_UI = ToyUI()
TOY_PLUGIN = Plugin(
    ui=TOY_UI,
    handlers=_handlers,
    buttons=frozenset({PEEK}),
    menu=("toyscore",),
    setting_words={"goal": "goal", "цель": "goal", "пуля": "goal"},  # "пуля": Preferans's too
    price=Price("pips", ("pip", "пип")),
    robot=move,
    words=Path(__file__).parent / "locale",  # its own catalogue, not a block in the bot's
)
