"""``/prefrecords``: the Preferans table's finished deals as a text file of hand records
(``games.preferans.records``; the format is docs/preferans-records.md), as ``/pbn`` is for
bridge. Only finished deals: a deal under way is nobody's to read."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence

from telegram import InputFile, Update
from telegram.ext import BaseHandler, CommandHandler

from bot.context import BotContext
from bot.handlers.common import chat_translator, thread_of
from bot.tables import PlayedDeal
from bot.views import Rendered
from games.preferans.deal import DealState
from games.preferans.records import Record, to_text

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


async def records_command(update: Update, context: BotContext) -> None:
    """/prefrecords: the deals of the pulka under way (or the last one); ``/prefrecords
    2026-11-01 2026-11-30``: every deal of the table dealt in those days."""
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    t = await chat_translator(update, context)
    thread = thread_of(update)
    args = list(context.args or [])
    if len(args) not in (0, 2) or not all(DATE.match(a) for a in args):
        context.outbox.post(chat.id, thread, Rendered(t("pref.records.usage")))
        return
    since, until = (args[0], args[1]) if args else ("", "")
    table_id = await context.service.table_for(chat.id, thread)
    if table_id is None:
        context.outbox.post(chat.id, thread, Rendered(t("pref.records.none")))
        return
    if not context.records.begin(chat.id):
        return  # one is being made, or was just sent: a repeat costs nothing
    try:
        game, played = await context.service.played_deals(table_id, since, until)
        finished = [d for d in played if isinstance(d.state, DealState) and d.state.finished]
        if game.name != "preferans" or not finished:
            context.outbox.post(chat.id, thread, Rendered(t("pref.records.none")))
            return
        text = await asyncio.to_thread(_text_of, finished, chat.title or "")
    finally:
        context.records.end(chat.id)
    name = f"table-{table_id}" + (f"-{since}-{until}" if since else "") + ".txt"
    context.outbox.post_file(
        chat.id,
        thread,
        "sendDocument",
        "document",
        InputFile(text.encode(), filename=name),
        t("pref.records.caption", count=len(finished)),
    )


def _text_of(played: Sequence[PlayedDeal], title: str) -> str:
    """The records file (CPU: run off the event loop)."""
    records = []
    for deal in played:
        assert isinstance(deal.state, DealState)
        names = {int(seat): name for seat, name in deal.names.items()}
        records.append(Record(deal.number, deal.state, names, deal.at[:10].replace("-", ".")))
    return to_text(records, title)


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [CommandHandler("prefrecords", records_command)]
