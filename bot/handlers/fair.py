"""``/fair``: how anyone checks that a deal was not chosen, and the checker itself."""

from __future__ import annotations

from pathlib import Path

from telegram import InputFile, Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CommandHandler

from bot.context import BotContext
from bot.handlers.common import chat_translator, thread_of
from bot.views.fair import render_fair
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


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [CommandHandler("fair", fair_command)]
