"""A player's screen in the group (ephemeral messages, ``bot.places``): "🂠 My cards" under the
table message, the screen's own "to private chat" and "show in the group" buttons, and what
the bot learns of its own rights in a group (only a group administrator may show a screen
unasked).
"""

from __future__ import annotations

import asyncio

from telegram import Bot, ChatMemberUpdated, Update
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, NetworkError

from bot.callback_data import BadCallbackData, Button
from bot.context import BotContext
from bot.handlers.common import acting_player, check_own_chat, seat_in_deal
from bot.i18n import Translator
from bot.outbox import ephemeral
from bot.places import Places, screen_key
from bot.rendered import URGENT, Rendered
from bot.screens import private_translator
from bot.tables import Change, Refusal, Snapshot, TableService
from storage.interface import Storage, TableStatus

RIGHTS = (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
ASKED_AT_ONCE = 20  # groups whose rights a restart asks of Telegram at the same time


async def open_screen(update: Update, context: BotContext, pressed: Button, t: Translator) -> None:
    """ "🂠 My cards": the presser's screen, sent anew into the group for them alone, under
    their press (which is what lets a bot that is no administrator send it). A player who
    had chosen their private chat is taken back to the group's screens."""
    query = update.callback_query
    assert query is not None
    snap = await context.service.snapshot(pressed.table_id)
    check_own_chat(query, snap)
    player = await acting_player(update, context)
    seat = seat_in_deal(snap, player.id, pressed.deal_no)
    places = context.presenter.places
    if not places.in_group(snap):
        raise Refusal("hands_private")
    if player.id in snap.settings.private_hands:
        snap = (await context.service.choose_hands(snap.table_id, player.id, False)).snapshot
    user = query.from_user.id
    places.fallen.discard((snap.table_id, user))
    context.outbox.ticket(snap.chat.tg_chat_id, user, query.id)
    context.outbox.renew(snap.table_id, screen_key(user))
    context.presenter.show_hand(snap, seat)
    await query.answer()


async def move_screen(update: Update, context: BotContext, pressed: Button, t: Translator) -> None:
    """The screen's own button: "p" puts the presser's screen in their private chat from now
    on (the group's one says where it went), "g" back in the group."""
    query = update.callback_query
    assert query is not None
    # Each is offered on one kind of screen only: "p" on the ephemeral one in the group, "g"
    # on the private one; a press from anywhere else is forged.
    on_ephemeral = ephemeral.pressed_on(query) is not None
    if (pressed.arg, on_ephemeral) not in (("p", True), ("g", False)):
        raise BadCallbackData(query.data)
    player = await acting_player(update, context)
    change = await context.service.choose_hands(pressed.table_id, player.id, pressed.arg == "p")
    snap = change.snapshot
    user = query.from_user.id
    seat = snap.seat_of(player.id)
    if pressed.arg == "p" and seat is not None:
        note = Rendered(private_translator(snap, snap.seats[seat])("hands.moved_private"))
        chat, topic = snap.chat.tg_chat_id, snap.topic_id
        context.outbox.want(snap.table_id, screen_key(user), chat, topic, note, URGENT, user, False)
    context.changes.show(change)
    places = context.presenter.places
    admin = places.rights.get(snap.chat.tg_chat_id, False)
    if pressed.arg == "g" and places.in_group(snap) and not admin:
        await query.answer(t("hands.press_my_cards"), show_alert=True)
        return
    await query.answer()


async def learn_rights(bot: Bot, places: Places, tg_chat_id: int) -> bool:
    """Ask Telegram whether the bot is a group administrator there (and remember it)."""
    try:
        member = await bot.get_chat_member(tg_chat_id, bot.id)
    except (BadRequest, Forbidden):
        places.rights[tg_chat_id] = False
        return False
    except NetworkError:
        return False  # not known: asked again next time
    places.rights[tg_chat_id] = member.status in RIGHTS
    return places.rights[tg_chat_id]


async def learn_all(bot: Bot, places: Places, chats: set[int]) -> None:
    """The bot's rights in every group with a table under way (after a restart), a few
    groups at a time, before their screens are drawn anywhere."""
    limit = asyncio.Semaphore(ASKED_AT_ONCE)

    async def one(chat: int) -> None:
        async with limit:
            await learn_rights(bot, places, chat)

    await asyncio.gather(*(one(chat) for chat in chats if chat not in places.rights))


async def rights_changed(change: ChatMemberUpdated, context: BotContext) -> None:
    """The bot was made a group administrator, or stopped being one: remembered, and the
    screens of the group's tables under way drawn where they go now."""
    places = context.presenter.places
    chat = change.chat.id
    was = places.rights.get(chat)
    places.rights[chat] = change.new_chat_member.status in RIGHTS
    if was == places.rights[chat]:
        return
    for snap in await playing_tables(context.storage, context.service, chat):
        context.presenter.show(Change(snap))


async def playing_tables(
    storage: Storage, service: TableService, tg_chat_id: int
) -> list[Snapshot]:
    """The group's tables with a match under way (each forum topic's), as they stand: what
    is redrawn when where their screens go changes."""
    record = await storage.chat_by_tg(tg_chat_id)
    if record is None:
        return []
    tables = await storage.tables_in_chat(record.id)
    return [await service.snapshot(t.id) for t in tables if t.status is TableStatus.PLAYING]
