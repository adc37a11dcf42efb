"""Private chat: /start (with a deep-link payload or without), /help, blocking and unblocking."""

from __future__ import annotations

import re

from telegram import ChatMemberUpdated, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import BaseHandler, ChatMemberHandler, CommandHandler

from bot.context import BotContext
from bot.handlers.common import acting_player, refusal_text, user_translator
from bot.service import Refusal
from bot.views import Rendered
from bot.views.cards import seat_text
from bot.views.misc import render_help, render_welcome
from bot.views.table import vulnerability
from games.bridge.cards import Seat

SIT_PAYLOAD = re.compile(r"^s(\d{1,12})_([NESW])$")


async def start(update: Update, context: BotContext) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    t = user_translator(user, context.config.language)
    if chat.type != ChatType.PRIVATE:
        context.outbox.post(chat.id, None, render_help(t))
        return
    player = await acting_player(update, context)
    await context.storage.set_player_flag(player.id, "can_write", True)
    if await context.storage.player_flag(player.id, "blocked"):
        for change in await context.service.set_blocked(user.id, False):
            context.presenter.show(change)
    payload = context.args[0] if context.args else ""
    sit = SIT_PAYLOAD.match(payload)
    if sit is not None:
        table_id, seat = int(sit.group(1)), Seat.parse(sit.group(2))
        try:
            change = await context.service.sit(table_id, player, seat)
        except Refusal as refusal:
            context.outbox.post(chat.id, None, Rendered(refusal_text(refusal, t)))
            return
        title = change.snapshot.chat.title
        context.outbox.post(
            chat.id,
            None,
            Rendered(t("private.seated", seat=seat_text(seat, t.language), chat=title or "—")),
        )
        context.presenter.show(change)
        return
    if payload == "hand":
        shown = await _show_hands(context, player.id)
        if shown:
            return
    tables = await context.storage.tables_of_player(player.id)
    listed = []
    balances = []
    for table in tables:
        group = await context.storage.get_chat(table.chat_id)
        listed.append((table.id, group.title))
        points = (await context.storage.balances(group.id)).get(player.id, 0)
        balances.append((group.title, points))
    context.outbox.post(chat.id, None, render_welcome(t, user.full_name, listed, balances))


async def _show_hands(context: BotContext, player_id: int) -> bool:
    """Post the player's hand messages anew at the bottom of the chat (the "my hand" link)."""
    shown = False
    for table in await context.storage.tables_of_player(player_id):
        snap = await context.service.snapshot(table.id)
        seat = snap.seat_of(player_id)
        if seat is None or snap.state is None or snap.state.result is not None:
            continue
        context.outbox.forget(snap.table_id, f"hand:{seat.name}:{snap.deal_no}")
        context.presenter.show_hand(snap, seat, snap.deal_no, snap.state, vulnerability(snap))
        shown = True
    return shown


async def help_command(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    assert chat is not None
    t = user_translator(update.effective_user, context.config.language)
    context.outbox.post(chat.id, None, render_help(t))


async def member_changed(update: Update, context: BotContext) -> None:
    """A user blocked the bot (kicked) or unblocked it in their private chat."""
    change: ChatMemberUpdated | None = update.my_chat_member
    if change is None or change.chat.type != ChatType.PRIVATE:
        return
    blocked = change.new_chat_member.status == ChatMemberStatus.BANNED
    for table_change in await context.service.set_blocked(change.from_user.id, blocked):
        context.presenter.show(table_change)


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [
        CommandHandler("start", start),
        CommandHandler("help", help_command),
        ChatMemberHandler(member_changed, ChatMemberHandler.MY_CHAT_MEMBER),
    ]
