"""Hand records and analysis on request: ``/pbn`` sends the table's deals as a PBN file, and a
deal result's button shows its double-dummy table to whoever pressed it (a popup: no message
in the group, no edit)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from telegram import Update
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.callback_data import BadCallbackData, Button, route
from bot.context import BotContext
from bot.games.bridge.buttons import DD, EXPLAIN, TRICKS
from bot.games.bridge.dd import solve
from bot.games.bridge.score import dd_table
from bot.games.bridge.state import bridge_deal, bridge_rubber, sheet_vulnerability
from bot.games.bridge.table import explain_popup, tricks_popup
from bot.games.records import RecordsCommand
from bot.handlers.common import look_back, on_button, thread_of, user_translator
from bot.i18n import Translator
from bot.rendered import Rendered
from bot.tables import PlayedDeal
from games.bridge.cards import Seat
from games.bridge.records import LIN_VUL, Record, to_pbn

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
VUL_CODES = {code: vul for vul, code in LIN_VUL.items()}  # the letter a result's button carries


def _pbn_of(played: Sequence[PlayedDeal], title: str) -> str:
    """The PBN file of the deals (CPU: run off the event loop)."""
    records = []
    for deal in played:
        records.append(
            Record(
                deal.number,
                bridge_deal(deal.state),
                *sheet_vulnerability(bridge_rubber(deal.before)),
                names={Seat(s): name for s, name in deal.names.items()},
                event=title,
                date=deal.at[:10].replace("-", "."),
            )
        )
    return to_pbn(records)


# /pbn: the deals of the rubber under way (or the last one); /pbn 2026-11-01 2026-11-30: every
# deal of the table dealt in those days.
PBN_COMMAND = RecordsCommand("bridge", "pbn.usage", "pbn.none", "pbn.caption", ".pbn", _pbn_of)


async def _dd_button(update: Update, context: BotContext, pressed: Button, t: Translator) -> None:
    """A finished deal's double-dummy table, in a popup for the one who pressed."""
    query = update.callback_query
    assert query is not None
    vul = VUL_CODES.get(pressed.arg)
    if vul is None:
        raise BadCallbackData(query.data)
    chat, state = await context.service.finished_deal(pressed.table_id, pressed.deal_no, "bridge")
    here = query.message.chat.id if query.message is not None else None
    if here != chat.tg_chat_id:  # a deal of another group's table: not this chat's to see
        await query.answer(t("refusal.stale"), show_alert=True)
        return
    analysis = await solve(bridge_deal(state).deal, vul)
    if analysis is None:
        await query.answer(t("analysis.busy"), show_alert=True)
        return
    await query.answer(
        t("analysis.table_title") + "\n" + dd_table(analysis, t.language), show_alert=True
    )


dd_button = on_button(_dd_button)


# The deal's completed tricks in a popup for whoever presses the table message's button: a
# look back at what every kibitzer saw played.
tricks_button = look_back(
    "bridge", lambda snap, state, t, page: tricks_popup(bridge_deal(state).view(None), t, page)
)


# What each call of the auction shows by the robots' system, in a popup: from the table message
# in the group, and from a seated player's own screen.
explain_button = look_back(
    "bridge",
    lambda snap, state, t, page: explain_popup(bridge_deal(state).view(None), t, page),
    seated_too=True,
)


async def system_command(update: Update, context: BotContext) -> None:
    """/system: the short card of what the robots bid and how they defend (SAYC)."""
    chat = update.effective_chat
    assert chat is not None
    t = user_translator(update.effective_user, context.config.language)
    context.outbox.post(chat.id, thread_of(update), Rendered(t("system.card")))


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [
        CommandHandler("pbn", PBN_COMMAND, filters=filters.ChatType.GROUPS),
        CommandHandler("system", system_command),
        CallbackQueryHandler(tricks_button, pattern=route(TRICKS)),
        CallbackQueryHandler(explain_button, pattern=route(EXPLAIN)),
        CallbackQueryHandler(dd_button, pattern=route(DD)),
    ]
