"""A look back at the deal: the table message's button shows its completed tricks in a popup to
whoever presses (cards every kibitzer saw played)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import BaseHandler, CallbackQueryHandler

from bot.callback_data import BadCallbackData, Button, route
from bot.context import BotContext
from bot.games.preferans.buttons import TRICKS
from bot.games.preferans.state import deal_of, names_of
from bot.games.preferans.table import tricks_popup
from bot.handlers.common import refusal_text, user_translator
from bot.tables import Refusal
from games.preferans.deal import DealState


async def tricks_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    if query is None or query.data is None:
        return
    t = user_translator(update.effective_user, context.config.language)
    try:
        pressed = Button.decode(query.data)
        snap = await context.service.snapshot(pressed.table_id)
        here = query.message.chat.id if query.message is not None else None
        if here != snap.chat.tg_chat_id:  # another group's table: not this chat's to see
            raise BadCallbackData(query.data)
        current = deal_of(snap)
        if pressed.deal_no == snap.deal_no and current is not None:
            view = current.view(None)
        else:  # an earlier deal's table message
            _chat, state = await context.service.finished_deal(
                pressed.table_id, pressed.deal_no, "preferans"
            )
            assert isinstance(state, DealState)
            view = state.view(None)
    except (BadCallbackData, Refusal) as error:
        await query.answer(refusal_text(error, t), show_alert=True)
        return
    await query.answer(tricks_popup(view, names_of(snap), t), show_alert=True)


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [CallbackQueryHandler(tricks_button, pattern=route(TRICKS))]
