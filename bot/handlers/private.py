"""Private chat: /start (with a deep-link payload or without), /help, blocking and unblocking."""

from __future__ import annotations

from telegram import ChatMemberUpdated, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import BaseHandler, ChatMemberHandler, CommandHandler

from bot.context import BotContext
from bot.deeplinks import SitLink, is_old_sit, parse_sit
from bot.handlers import hands
from bot.handlers.common import (
    acting_player,
    chat_translator,
    first_language,
    refusal_message,
    seat_wanted,
    thread_of,
)
from bot.i18n import translator
from bot.rendered import Rendered
from bot.tables import Change, Refusal
from bot.views.misc import render_help, render_welcome
from bot.views.text import user_text
from storage.interface import Player


async def start(update: Update, context: BotContext) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    t = await chat_translator(update, context)
    if chat.type != ChatType.PRIVATE:
        thread = thread_of(update)
        order = await help_order(context, chat.id, thread)
        context.outbox.post(chat.id, thread, render_help(t, order))
        return
    player = await acting_player(update, context)
    for change in await context.service.started(player):
        context.changes.show(change)
    payload = context.args[0] if context.args else ""
    sit = parse_sit(payload)
    if sit is not None or is_old_sit(payload):
        try:
            change = await _sit_by_link(context, sit, player, user.id, update.update_id)
        except Refusal as refusal:
            context.outbox.post(chat.id, None, refusal_message(refusal, t))
            return
        seat = change.snapshot.seat_of(player.id)
        assert seat is not None
        title = change.snapshot.chat.title
        seat_name = context.plugins.ui(change.snapshot.game.name).seat_name(seat, t.language)
        context.outbox.post(
            chat.id,
            None,
            Rendered(t("private.seated", seat=seat_name, chat=user_text(title or "—"))),
        )
        context.changes.show(change)
        return
    if payload == "hand":
        shown = await _show_hands(context, player.id)
        if shown:
            return
    listed = []
    balances = []
    for table_id, group in await context.service.tables_of(player.id):
        listed.append((table_id, group.title))
        points = await context.ledger.balance_of(group.id, player.id)
        balances.append((group.title, points, group.settings))
    context.outbox.post(
        chat.id, None, render_welcome(t, user.full_name, listed, balances, context.plugins.offer())
    )


async def _sit_by_link(
    context: BotContext, link: SitLink | None, player: Player, tg_user_id: int, heard: int
) -> Change:
    """Seat the player at the table the link names, if they are a member of its group."""
    if link is None:
        raise Refusal("old_link")
    table_id = await context.service.table_by_token(link.token)
    if table_id is None:
        raise Refusal("old_link")
    _, seat = await seat_wanted(context, table_id, tg_user_id, player.id, link.seat)
    return await context.service.sit(table_id, player, seat, heard)


async def _show_hands(context: BotContext, player_id: int) -> bool:
    """Post the player's hand messages anew at the bottom of the chat (the "my hand" link)."""
    shown = False
    for table_id, _ in await context.service.tables_of(player_id):
        try:
            snap = await context.service.snapshot(table_id)
        except Refusal:
            continue  # another process serves that group (bot.shards)
        seat = snap.seat_of(player_id)
        if seat is None or snap.state is None or snap.state.finished:
            continue
        ui = context.plugins.ui(snap.game.name)
        context.outbox.forget(snap.table_id, ui.hand_key(seat, snap.deal_no))
        context.presenter.show_hand(snap, seat)
        shown = True
    return shown


async def help_command(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    assert chat is not None
    t = await chat_translator(update, context)
    thread = thread_of(update)
    context.outbox.post(chat.id, thread, render_help(t, await help_order(context, chat.id, thread)))


async def help_order(context: BotContext, chat_id: int, thread: int | None) -> list[str]:
    """The games for /help, the one this chat's table plays first."""
    games = [plugin.game for plugin in context.plugins]
    table_id = await context.service.table_for(chat_id, thread) if chat_id < 0 else None
    if table_id is not None:
        game = (await context.service.snapshot(table_id)).game.name
        games.sort(key=lambda g: g != game)
    return games


async def member_changed(update: Update, context: BotContext) -> None:
    """A user blocked the bot (kicked) or unblocked it in their private chat; in a group, the
    bot was added (it greets the group once)."""
    change: ChatMemberUpdated | None = update.my_chat_member
    if change is None:
        return
    if change.chat.type != ChatType.PRIVATE:
        await greet_group(update, change, context)
        await hands.rights_changed(change, context)
        return
    blocked = change.new_chat_member.status == ChatMemberStatus.BANNED
    for table_change in await context.service.set_blocked(change.from_user.id, blocked):
        context.changes.show(table_change)


GONE = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)


async def greet_group(update: Update, change: ChatMemberUpdated, context: BotContext) -> None:
    """Added to a group: say once what to send, and what admins of a privacy-mode bot should
    know, in the language of the group's table if it has one, else of whoever added the bot."""
    joined = change.old_chat_member.status in GONE and change.new_chat_member.status not in GONE
    if not joined:
        return
    chat = change.chat
    # The group is met in the language of whoever added the bot (its own settings change it).
    first = first_language(update, context)
    await context.ledger.chat(chat.id, chat.title or "", first)
    language = await context.service.chat_language(chat.id, None)
    t = translator(language, first)
    offered = context.plugins.offer().words(t)
    text = t("group.greeting", bot=user_text(context.bot.username or ""), **offered)
    context.outbox.post(chat.id, None, Rendered(text))


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [
        CommandHandler("start", start),
        CommandHandler("help", help_command),
        ChatMemberHandler(member_changed, ChatMemberHandler.MY_CHAT_MEMBER),
    ]
