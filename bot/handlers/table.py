"""Group commands and every inline button of a table."""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.callback_data import TABLE_ACTS, Act, BadCallbackData, Button, route
from bot.context import BotContext
from bot.deeplinks import sit_link
from bot.handlers import hands
from bot.handlers.common import (
    acting_player,
    chat_translator,
    check_own_chat,
    first_language,
    group_only,
    is_admin,
    on_button,
    refusal_message,
    refusal_text,
    seat_in_deal,
    seat_wanted,
    thread_of,
    user_translator,
)
from bot.i18n import Translator, translator
from bot.plugin import GameUI, Plugins
from bot.rendered import Rendered
from bot.screens import group_translator
from bot.tables import Refusal, Snapshot
from bot.views.stats import costly_popup
from bot.views.text import user_text


def opener(game: str) -> Callable[[Update, BotContext], Coroutine[Any, Any, None]]:
    """The handler of a game's opening command (/bridge): the table of this chat (or forum
    topic), opened for that game if there is none."""

    async def open_game(update: Update, context: BotContext) -> None:
        await open_table(update, context, game)

    return open_game


async def open_table(update: Update, context: BotContext, game: str) -> None:
    chat, message = update.effective_chat, update.effective_message
    assert chat is not None and message is not None
    t = await chat_translator(update, context)
    if chat.type == ChatType.PRIVATE:
        await message.reply_text(t("refusal.group_only"))
        return
    user = update.effective_user
    assert user is not None
    asker = await acting_player(update, context)

    async def admin() -> bool:  # asked of Telegram only when the table would switch games
        return await is_admin(context, chat.id, user.id)

    try:
        change, created = await context.service.open_table(
            chat.id,
            chat.title or "",
            thread_of(update),
            first_language(update, context),
            game,
            asker.id,
            admin,
        )
    except Refusal as refusal:  # another game's match is being played here
        context.outbox.post(chat.id, thread_of(update), refusal_message(refusal, t))
        return
    if not created:
        context.outbox.post(chat.id, thread_of(update), _short(t("table.already_open")))
    places = context.presenter.places
    if chat.id not in places.rights:  # where its players' screens go (bot.places)
        await hands.learn_rights(context.bot, places, chat.id)
    context.changes.show(change)


async def _table_here(update: Update, context: BotContext) -> int | None:
    """The table of the chat (or topic) the command came from; says so if there is none."""
    chat = update.effective_chat
    assert chat is not None
    table_id = await context.service.table_for(chat.id, thread_of(update))
    if table_id is None:
        t = await chat_translator(update, context)
        context.outbox.post(
            chat.id,
            thread_of(update),
            _short(t("refusal.no_table", **context.plugins.offer().words(t))),
        )
    return table_id


async def show_score(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    assert chat is not None
    table_id = await _table_here(update, context)
    if table_id is None:
        return
    snap = await context.service.snapshot(table_id)
    group_t = group_translator(snap)
    ui = context.plugins.ui(snap.game.name)
    context.outbox.post(chat.id, thread_of(update), ui.scoresheet(snap, group_t))
    context.presenter.score_picture(snap, group_t)


async def my_scores(update: Update, context: BotContext) -> None:
    """/score in a private chat: the sheet of each table the person sits at, each under its
    group's name (what they meant: their own games' scores)."""
    chat = update.effective_chat
    assert chat is not None
    t = user_translator(update.effective_user, context.config.language)
    player = await acting_player(update, context)
    shown = 0
    for table_id, group in await context.service.tables_of(player.id):
        try:
            snap = await context.service.snapshot(table_id)
        except Refusal:
            continue  # a scoresheet kept by hand (its group's /score shows it), or set aside
        sheet = context.plugins.ui(snap.game.name).scoresheet(snap, t)
        where = t("score.in_group", chat=user_text(group.title or "—"))
        context.outbox.post(chat.id, None, Rendered(f"{where}\n{sheet.text}"))
        shown += 1
    if not shown:
        context.outbox.post(chat.id, None, _short(t("score.no_tables")))


async def leave_command(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    assert chat is not None
    t = await chat_translator(update, context)
    table_id = await _table_here(update, context)
    if table_id is None:
        return
    player = await acting_player(update, context)
    try:
        change = await context.service.leave(table_id, player.id)
    except Refusal as refusal:
        context.outbox.post(chat.id, thread_of(update), refusal_message(refusal, t))
        return
    context.changes.show(change)


async def end_command(update: Update, context: BotContext) -> None:
    """/end: a group admin stops the rubber now; a seated player proposes it (all four agree)."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    t = await chat_translator(update, context)
    table_id = await _table_here(update, context)
    if table_id is None:
        return
    player = await acting_player(update, context)
    try:
        snap = await context.service.snapshot(table_id)
        if snap.seat_of(player.id) is None and await is_admin(context, chat.id, user.id):
            change = await context.service.end_by_admin(table_id)
        else:
            change = await context.service.vote_to_end(table_id, player.id, True)
    except Refusal as refusal:
        if refusal.key != "already_voted":  # a repeated /end changes nothing and posts nothing
            context.outbox.post(chat.id, thread_of(update), refusal_message(refusal, t))
        return
    context.changes.show(change)


async def sub_command(update: Update, context: BotContext) -> None:
    """/sub @name (your own seat) or /sub E @name (an absent player's): a substitute takes the
    seat, mid-deal too, once the other players agree."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    t = await chat_translator(update, context)
    thread = thread_of(update)
    table_id = await _table_here(update, context)
    if table_id is None:
        return
    player = await acting_player(update, context)
    args = list(context.args or [])
    try:
        snap = await context.service.snapshot(table_id)
        seat = snap.seat_of(player.id)
        ui = context.plugins.ui(snap.game.name)
        named = ui.seat_from_word(args[0]) if len(args) == 2 else None
        if named is not None:
            seat = named
            args.pop(0)
        if len(args) != 1 or not args[0].startswith("@"):
            raise Refusal("sub_usage", game=snap.game.name)
        if seat is None:
            raise Refusal("not_seated")
        newcomer = await context.service.player_by_username(args[0][1:])
        if newcomer is None or not await context.service.reachable(newcomer.id):
            raise Refusal("sub_unknown", name=args[0])
        change = await context.service.propose_sub(table_id, player.id, seat, newcomer)
    except Refusal as refusal:
        context.outbox.post(chat.id, thread, refusal_message(refusal, t))
        return
    context.changes.show(change)


POPUP_LIMIT = 200  # characters Telegram shows in a button's popup


async def _button(update: Update, context: BotContext, pressed: Button, t: Translator) -> None:
    """Every table button: act through the service, show the change, answer the press."""
    query = update.callback_query
    assert query is not None
    player = await acting_player(update, context)
    service = context.service
    if pressed.act is Act.SIT:
        snap, wanted = await seat_wanted(
            context, pressed.table_id, query.from_user.id, player.id, pressed.arg
        )
        if not await context.service.reachable(player.id):
            code = context.plugins.ui(snap.game.name).seat_code(wanted)
            await query.answer(url=sit_link(context.bot.username, snap.token, code))
            return
        change = await service.sit(pressed.table_id, player, wanted, update.update_id)
    elif pressed.act is Act.ROBOT:
        snap = await service.snapshot(pressed.table_id)
        plugin = context.plugins[snap.game.name]
        seat = plugin.ui.seat_from_word(pressed.arg)
        if seat is None or plugin.robot is None:
            raise Refusal("unknown_action")
        name = translator(snap.settings.language)("robot.name")
        change = await service.seat_robot(pressed.table_id, player.id, seat, name, update.update_id)
    elif pressed.act in (Act.LEAVE, Act.STAND_UP):
        change = await service.leave(pressed.table_id, player.id)
    elif pressed.act in (Act.NEXT_MATCH, Act.NEW_PARTNERS):
        change = await service.next_match(
            pressed.table_id, player.id, pressed.act is Act.NEW_PARTNERS, update.update_id
        )
    elif pressed.act is Act.UNDO:
        change = await service.ask_undo(pressed.table_id, pressed.deal_no, player.id)
    elif pressed.act is Act.UNDO_ANSWER:
        change = await service.answer_undo(
            pressed.table_id, pressed.deal_no, player.id, pressed.arg == "y"
        )
    elif pressed.act is Act.SUB:
        change = await service.answer_sub(pressed.table_id, player.id, pressed.arg == "y")
    elif pressed.act is Act.END:
        change = await service.vote_to_end(pressed.table_id, player.id, pressed.arg == "y")
    elif pressed.act is Act.CARDS:
        await hands.open_screen(update, context, pressed, t)
        return
    elif pressed.act is Act.HANDS:
        await hands.move_screen(update, context, pressed, t)
        return
    elif pressed.act is Act.COSTLY:  # anyone may ask: the deal is over, its cards shown
        snap = await service.snapshot(pressed.table_id)
        check_own_chat(query, snap)
        if pressed.deal_no > snap.deal_no or (
            pressed.deal_no == snap.deal_no and snap.state is not None and not snap.state.finished
        ):
            raise Refusal("stale")
        review, names = await context.stats.costly(pressed.table_id, pressed.deal_no)
        if review is None and not context.reviewer.workers:
            await query.answer(t("costly.off"), show_alert=True)  # reviews are off here
            return
        ui = context.plugins.ui(snap.game.name)
        words = functools.partial(ui.card_word, language=t.language)
        text = costly_popup(review, names, ui.review_sides, words, t)
        await query.answer(text[:POPUP_LIMIT], show_alert=True)
        return
    elif (menu := _menu(pressed, own := await _own_kind(context, pressed))) is not None:
        snap = own[0] if own is not None else await service.snapshot(pressed.table_id)
        seat = seat_in_deal(snap, player.id, pressed.deal_no)
        context.presenter.show_hand(snap, seat, menu)
        await query.answer()
        return
    else:
        change = await service.act(
            pressed.table_id,
            pressed.deal_no,
            player.id,
            _action_text(pressed, own, query.data),
            pressed.at,
            update.update_id,
        )
    context.changes.show(change)
    await query.answer()


button = on_button(_button, alert=False)


async def _own_kind(context: BotContext, pressed: Button) -> tuple[Snapshot, GameUI] | None:
    """For a button of a kind the table's game owns (bridge's first-release buttons), the
    table as it stands and its game's UI, read once for the whole press; None for the
    table's own kinds."""
    if pressed.act in TABLE_ACTS:
        return None
    snap = await context.service.snapshot(pressed.table_id)
    return snap, context.plugins.ui(snap.game.name)


def _menu(pressed: Button, own: tuple[Snapshot, GameUI] | None) -> str | None:
    """The screen a button opens on its presser's private message ("" for the screen itself),
    or None if the button is not one that opens a screen."""
    if pressed.act is Act.REFRESH:
        return ""
    if pressed.act is Act.MENU:
        return pressed.arg
    return None if own is None else own[1].button_menu(pressed.act, pressed.arg)


def _action_text(pressed: Button, own: tuple[Snapshot, GameUI] | None, data: str | None) -> str:
    """The game's action text a button carries: the generic action button's argument, or
    what the table's game UI reads from a button of its own kind."""
    if pressed.act is Act.ACTION:
        return pressed.arg
    text = None if own is None else own[1].button_action(pressed.act, pressed.arg)
    if text is None:
        raise BadCallbackData(data)
    return text


def _short(text: str) -> Rendered:
    return Rendered(text)


async def stray_button(update: Update, context: BotContext) -> None:
    """Callback data that no button of ours made (or an older version's): answered, ignored."""
    query = update.callback_query
    assert query is not None
    t = user_translator(update.effective_user, context.config.language)
    await query.answer(refusal_text(BadCallbackData(query.data), t))


def stray_button_handler() -> BaseHandler[Update, BotContext, None]:
    return CallbackQueryHandler(stray_button)


def handlers(plugins: Plugins) -> list[BaseHandler[Update, BotContext, None]]:
    groups = filters.ChatType.GROUPS
    return [
        CommandHandler(
            ["leave", "settings", "end", "sub"], group_only, filters=filters.ChatType.PRIVATE
        ),
        CommandHandler("score", my_scores, filters=filters.ChatType.PRIVATE),
        *(CommandHandler(list(p.ui.commands), opener(p.game)) for p in plugins),
        CommandHandler("score", show_score, filters=groups),
        CommandHandler("leave", leave_command, filters=groups),
        CommandHandler("end", end_command, filters=groups),
        CommandHandler("sub", sub_command, filters=groups),
        CallbackQueryHandler(button, pattern=route(*TABLE_ACTS, *plugins.table_buttons())),
    ]
