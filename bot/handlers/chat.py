"""Chat-level events: a group upgraded to a supergroup keeps its tables, players and ledger."""

from __future__ import annotations

from telegram import Update
from telegram.ext import BaseHandler, MessageHandler, filters

from bot.context import BotContext


async def migrated(update: Update, context: BotContext) -> None:
    message = update.effective_message
    if message is None or message.migrate_to_chat_id is None:
        return
    old, new = message.chat.id, message.migrate_to_chat_id
    await context.service.migrate_chat(old, new)
    context.outbox.migrate(old, new)


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [MessageHandler(filters.StatusUpdate.MIGRATE, migrated)]
