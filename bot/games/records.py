"""What every game's hand-records command shares (``/pbn`` for bridge, ``/prefrecords`` for
Preferans): the optional two dates, the table of this chat (or forum topic), one file at a time
per chat, the file made off the event loop from the finished deals, sent as a document. A game
says only its words and how its deals are written."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from telegram import InputFile, Update

from bot.context import BotContext
from bot.handlers.common import chat_translator, thread_of
from bot.rendered import Rendered
from bot.tables import PlayedDeal

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


@dataclass(frozen=True, slots=True)
class RecordsCommand:
    game: str  # the game whose deals the file holds
    usage: str  # catalogue keys: how to call it, nothing to send, the file's caption
    none: str
    caption: str
    suffix: str  # the file's extension
    write: Callable[[Sequence[PlayedDeal], str], str]  # the deals and the chat's title -> text

    async def __call__(self, update: Update, context: BotContext) -> None:
        """The deals of the match under way (or the last one); with two dates, every deal of
        the table dealt in those days. Only deals that are over (``played_deals``)."""
        chat, message = update.effective_chat, update.effective_message
        if chat is None or message is None:
            return
        t = await chat_translator(update, context)
        thread = thread_of(update)
        args = list(context.args or [])
        if len(args) not in (0, 2) or not all(DATE.match(a) for a in args):
            context.outbox.post(chat.id, thread, Rendered(t(self.usage)))
            return
        since, until = (args[0], args[1]) if args else ("", "")
        table_id = await context.service.table_for(chat.id, thread)
        if table_id is None:
            context.outbox.post(chat.id, thread, Rendered(t(self.none)))
            return
        if not context.records.begin(chat.id):
            return  # one is being made, or was just sent: a repeat costs nothing
        try:
            game, played = await context.service.played_deals(table_id, since, until)
            if game.name != self.game or not played:
                context.outbox.post(chat.id, thread, Rendered(t(self.none)))
                return
            text = await asyncio.to_thread(self.write, played, chat.title or "")
        finally:
            context.records.end(chat.id)
        name = f"table-{table_id}" + (f"-{since}-{until}" if since else "") + self.suffix
        context.outbox.post_file(
            chat.id,
            thread,
            "sendDocument",
            "document",
            InputFile(text.encode(), filename=name),
            t(self.caption, count=len(played)),
        )
