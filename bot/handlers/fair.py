"""``/fair``: how anyone checks that a deal was not chosen, and the checker itself."""

from __future__ import annotations

import re
from pathlib import Path

from telegram import InputFile, Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CommandHandler, MessageHandler, filters

from bot.context import BotContext
from bot.handlers.common import chat_translator, thread_of
from bot.views.fair import render_deal_check, render_fair
from games.core import fair


async def fair_command(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    assert chat is not None
    t = await chat_translator(update, context)
    thread = thread_of(update)
    revealed, upcoming = None, ""
    if chat.type != ChatType.PRIVATE and not context.records.once(("fair", chat.id)):
        return  # just posted here: a repeat would only push the table up the chat
    if chat.type != ChatType.PRIVATE:
        table_id = await context.service.table_for(chat.id, thread)
        if table_id is not None:
            revealed = await context.service.revealed(table_id)
            snap = await context.service.snapshot(table_id)
            upcoming = snap.commitments.get(snap.deal_no + 1, "")
    context.outbox.post(chat.id, thread, render_fair(t, revealed, upcoming))
    script = Path(fair.__file__).read_bytes()  # the very file the bot deals with
    context.outbox.post_file(
        chat.id,
        thread,
        "sendDocument",
        "document",
        InputFile(script, filename="fair.py"),
        t("fair.script_caption"),
    )


async def deal_check_command(update: Update, context: BotContext) -> None:
    """``/fair_12`` (a result's line; a tap sends it): deal 12's key, the players' value and
    the command that checks it, at this chat's table."""
    chat, message = update.effective_chat, update.effective_message
    assert chat is not None and message is not None and message.text is not None
    t = await chat_translator(update, context)
    thread = thread_of(update)
    found = DEAL_CHECK.match(message.text)
    number = int(found.group(1)) if found else 0
    to = found.group(2) if found else None
    if to is not None and to.lower() != (context.bot.username or "").lower():
        return  # /fair_12@another_bot: not ours to answer
    if chat.type == ChatType.PRIVATE:
        context.outbox.post(chat.id, thread, render_fair(t, None, ""))
        return
    if not context.records.once(("fair", chat.id, number)):
        return  # just posted here
    table_id = await context.service.table_for(chat.id, thread)
    revealed = None if table_id is None else await context.service.revealed(table_id, number)
    context.outbox.post(chat.id, thread, render_deal_check(t, revealed, number))


DEAL_CHECK = re.compile(r"^/fair_(\d{1,9})(?:@(\w+))?\s*$")


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [
        CommandHandler("fair", fair_command),
        MessageHandler(filters.Regex(DEAL_CHECK), deal_check_command),
    ]
