"""Scorekeeper mode: /keep names the four (N, E, S, W), then each deal's result is entered
through the wizard under the sheet or typed as /deal 4SX N -2; /undo takes the last entry back;
/keep end stops the rubber early (scored as unfinished). Finished rubbers go to the same ledger
as online play, scored by the same rules engine.

Anyone in the group may enter a result, as anyone at the table may write on a paper sheet:
every entry is shown with the sheet at once, and /undo puts a mistake right.
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.callback_data import BadCallbackData, Button, route
from bot.context import BotContext
from bot.games.bridge.buttons import KEEP_PICTURE, KEEP_UNDO, KEEPER_BUTTONS
from bot.games.bridge.cards import seat_text
from bot.games.bridge.keeper_view import entry_of, parse_stage, render_keeper
from bot.games.bridge.notation import read_entry
from bot.games.bridge.scorekeeper import Scorekeeper, Sheet
from bot.games.bridge.ui import post_scoresheet
from bot.games.keeping import (
    close_sheet,
    command_words,
    named_players,
    show_sheet,
    typed_entry,
)
from bot.handlers.common import (
    acting_player,
    chat_translator,
    is_member,
    refusal_message,
    refusal_text,
    thread_of,
    user_translator,
)
from bot.i18n import Translator, translator
from bot.service import Refusal
from bot.views.text import user_text
from games.bridge.entry import Entry
from games.errors import RuleError
from storage.interface import NotFound, Player

log = logging.getLogger(__name__)


def _keeper(context: BotContext) -> Scorekeeper:
    keeper: Scorekeeper | None = context.bot_data.get("bridge.keeper")
    if keeper is None:  # made on first use: the bot's core knows nothing of it
        keeper = context.bot_data["bridge.keeper"] = Scorekeeper(context.storage)
    return keeper


def _t(sheet: Sheet) -> Translator:
    return translator(sheet.table.settings.language)


def _show(context: BotContext, sheet: Sheet, arg: str = "", note: str = "") -> None:
    """The sheet's message for this number of entries (a new one after each entry)."""
    content = render_keeper(sheet, arg, _t(sheet), note)
    show_sheet(context, sheet.table, sheet.chat.tg_chat_id, sheet.count, content)


def _close_old(context: BotContext, before: Sheet, summary: str) -> None:
    """The previous wizard message keeps its sheet but loses its buttons."""
    content = render_keeper(before, "", _t(before), summary)
    close_sheet(context, before.table, before.chat.tg_chat_id, before.count, content)


async def _players(update: Update, context: BotContext, chat_id: int) -> list[Player]:
    """The four named after /keep (see ``bot.games.keeping.named_players``)."""
    words, picked = command_words(update)
    if len(words) != 4:
        raise Refusal("keeper_usage")
    keeper = _keeper(context)
    return await named_players(
        context, words, picked, keeper.known, lambda name: keeper.guest(chat_id, name)
    )


async def keep_command(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    assert chat is not None
    t = await chat_translator(update, context)
    thread = thread_of(update)
    keeper = _keeper(context)
    record = await keeper.chat(chat.id, chat.title or "", context.config.language)
    try:
        if context.args and context.args[0].lower() in ("end", "stop", "конец"):
            table = await keeper.open_sheet(record.id, thread)
            if table is None:
                raise Refusal("keeper_none")
            if table.game != keeper.game:  # the open sheet is a pulka: its own command ends it
                raise Refusal("keeper_other_game", command="/prefkeep end")
            sheet = await keeper.end(table.id)
            await _finished(context, sheet)
            return
        players = await _players(update, context, record.id)
        settings = await keeper.table_settings(record, thread)
        sheet = await keeper.start(record, thread, players, settings)
    except (Refusal, RuleError) as error:
        context.outbox.post(chat.id, thread, refusal_message(error, t))
        return
    _show(context, sheet)


async def _finished(context: BotContext, sheet: Sheet) -> None:
    _show(context, sheet)
    await _send_picture(context, sheet)


async def _send_picture(context: BotContext, sheet: Sheet) -> None:
    t = _t(sheet)
    caption = " · ".join(f"{seat_text(s, t.language)} {p.name}" for s, p in sheet.players.items())
    post_scoresheet(
        context.outbox,
        sheet.chat.tg_chat_id,
        sheet.table.topic_id,
        sheet.rubber,
        {seat: player.name for seat, player in sheet.players.items()},
        t("keeper.picture_title", number=sheet.table.id),
        caption,
        t,
    )


async def _save(
    context: BotContext,
    table_id: int,
    expected: int,
    entry: Entry,
    player: Player,
    update_key: str | None = None,
) -> None:
    before, sheet = await _keeper(context).enter(table_id, expected, entry, player.id, update_key)
    t = _t(sheet)
    summary = t("keeper.entered", entry=entry.code(), name=user_text(player.name))
    _close_old(context, before, summary)
    if sheet.finished is not None:
        await _finished(context, sheet)
    else:
        _show(context, sheet, note=summary)


async def _undo(
    context: BotContext,
    table_id: int,
    expected: int,
    player: Player,
    update_key: str | None = None,
) -> None:
    before, sheet = await _keeper(context).undo(table_id, expected, player.id, update_key)
    note = _t(sheet)("keeper.undone", name=user_text(player.name))
    _close_old(context, before, note)
    _show(context, sheet, note=note)


async def typed(update: Update, context: BotContext, table_id: int, count: int, undo: bool) -> None:
    """/deal 4SX N -2 [100NS] or /undo at this group's open bridge sheet (the command found
    it; ``count`` is the number of entries it saw)."""

    async def write(player: Player, key: str | None) -> None:
        if undo:
            await _undo(context, table_id, count, player, key)
        else:
            entry = read_entry(" ".join(context.args or []))
            await _save(context, table_id, count, entry, player, key)

    await typed_entry(update, context, write)


async def keeper_button(update: Update, context: BotContext) -> None:
    query = update.callback_query
    assert query is not None
    t = user_translator(update.effective_user, context.config.language)
    keeper = _keeper(context)
    try:
        pressed = Button.decode(query.data)
        try:
            sheet = await keeper.sheet(pressed.table_id)
        except NotFound:
            raise BadCallbackData(query.data) from None
        message = query.message
        if (
            message is None
            or not sheet.table.scorekeeper
            or message.chat.id != sheet.chat.tg_chat_id
        ):
            raise BadCallbackData(query.data)
        if pressed.act == KEEP_PICTURE:
            await query.answer()
            await _send_picture(context, sheet)
            return
        # Anyone in the group may write on the sheet, as at a real table; in a public group
        # a passer-by can press buttons too, and may not.
        if not await is_member(context, sheet.chat.tg_chat_id, query.from_user.id):
            raise Refusal("not_member_keeper")
        player = await acting_player(update, context)
        if pressed.act == KEEP_UNDO:
            await _undo(context, sheet.table.id, pressed.deal_no, player)
        elif pressed.arg == "pass":
            await _save(context, sheet.table.id, pressed.deal_no, Entry(None), player)
        elif ".h" in pressed.arg:
            stage, _, honours = pressed.arg.rpartition(".")
            entry = entry_of(stage, honours)
            await _save(context, sheet.table.id, pressed.deal_no, entry, player)
        else:
            parse_stage(pressed.arg)
            if pressed.deal_no != sheet.count or sheet.finished is not None:
                raise Refusal("stale")
            _show(context, sheet, pressed.arg)
    except (Refusal, ValueError) as error:
        if isinstance(error, ValueError) and not isinstance(error, RuleError | BadCallbackData):
            error = BadCallbackData(query.data)  # wizard data no wizard of ours made
        await query.answer(refusal_text(error, t), show_alert=True)
        return
    await query.answer()


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    groups = filters.ChatType.GROUPS
    return [
        CommandHandler("keep", keep_command, filters=groups),
        CallbackQueryHandler(keeper_button, pattern=route(*KEEPER_BUTTONS)),
    ]
