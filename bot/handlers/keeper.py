"""/deal and /undo for the scoresheet open in a group, whatever its game: the sheet is found
here and its game's UI reads the entry (bridge: ``/deal 4SX N -2``; Preferans:
``/deal 7H 0 whist/pass 6/3/1``), so players type the same commands at either sheet."""

from __future__ import annotations

from telegram import Update
from telegram.ext import BaseHandler, CommandHandler, filters

from bot.context import BotContext
from bot.handlers.common import chat_translator, is_member, refusal_message, thread_of
from bot.tables import Refusal


async def _typed(update: Update, context: BotContext, undo: bool) -> None:
    chat = update.effective_chat
    assert chat is not None
    sheet = await context.service.sheet_for(chat.id, thread_of(update))
    if sheet is None:
        t = await chat_translator(update, context)
        # At a table played online, /undo means taking back one's own last call or card:
        # that is the ↩ button on the player's screen, not the scorekeeper's help.
        online = await context.service.table_for(chat.id, thread_of(update))
        key = "undo_online" if undo and online is not None else "keeper_none"
        context.outbox.post(chat.id, thread_of(update), refusal_message(Refusal(key), t))
        return
    try:
        user = update.effective_user
        # Anyone in the group writes on its sheet, as at a real table; nobody else (the
        # sheet's buttons ask the same).
        if user is None or not await is_member(context, chat.id, user.id):
            raise Refusal("not_member_keeper")
        keeping = context.plugins[sheet.game].keeper if sheet.game in context.plugins else None
        if keeping is None:
            raise Refusal("keeper_none")
        await keeping.typed(update, context, sheet.id, sheet.current_deal, undo)
    except Refusal as error:
        t = await chat_translator(update, context)
        context.outbox.post(chat.id, thread_of(update), refusal_message(error, t))


async def deal_command(update: Update, context: BotContext) -> None:
    await _typed(update, context, undo=False)


async def undo_command(update: Update, context: BotContext) -> None:
    await _typed(update, context, undo=True)


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    groups = filters.ChatType.GROUPS
    return [
        CommandHandler("deal", deal_command, filters=groups),
        CommandHandler("undo", undo_command, filters=groups),
    ]
