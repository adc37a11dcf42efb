"""The pulka kept for real cards: /prefkeep names three or four players in seat order (the first
deals first; optionally the pool and the variant: ``/prefkeep Аня Боря Вика 20 ленинград``),
then each deal is entered through the wizard under the sheet or typed as ``/deal 7H 0
whist/pass 6/3/1``; /undo takes the last entry back; ``/prefkeep end`` stops the pulka by
consent (settled by §6's rule). The finished pulka goes to the group's ledger in whists.

Anyone in the group may write on the sheet, as anyone at a real table may write on the paper.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from telegram import Update
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.callback_data import BadCallbackData, Button, route
from bot.context import BotContext
from bot.games.keeping import (
    close_sheet,
    command_words,
    named_players,
    show_sheet,
    typed_entry,
)
from bot.games.preferans.buttons import KEEP_UNDO, KEEPER_BUTTONS
from bot.games.preferans.keeper_view import entry_of, render_pulka_keeper
from bot.games.preferans.scorekeeper import PulkaKeeper, PulkaSheet
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
from games.errors import RuleError
from games.preferans.entry import Entry, parse_entry
from games.preferans.settlement import Variant
from storage.interface import NotFound, Player

log = logging.getLogger(__name__)

END_WORDS = ("end", "stop", "конец", "стоп")


def _keeper(context: BotContext) -> PulkaKeeper:
    keeper: PulkaKeeper | None = context.bot_data.get("preferans.keeper")
    if keeper is None:  # made on first use: the bot's core knows nothing of it
        keeper = context.bot_data["preferans.keeper"] = PulkaKeeper(context.storage)
    return keeper


def _t(sheet: PulkaSheet) -> Translator:
    return translator(sheet.table.settings.language)


def _show(context: BotContext, sheet: PulkaSheet, arg: str = "", note: str = "") -> None:
    """The sheet's message for this number of entries (a new one after each entry)."""
    content = render_pulka_keeper(sheet, arg, _t(sheet), note)
    show_sheet(context, sheet.table, sheet.chat.tg_chat_id, sheet.count, content)


def _close_old(context: BotContext, before: PulkaSheet, summary: str) -> None:
    """The previous wizard message keeps its sheet but loses its buttons."""
    content = render_pulka_keeper(before, "", _t(before), summary)
    close_sheet(context, before.table, before.chat.tg_chat_id, before.count, content)


def _split_options(words: list[str]) -> tuple[list[str], dict[str, Any]]:
    """The players' names, and the pool target and variant typed after them (if any)."""
    options: dict[str, Any] = {}
    names = []
    for word in words:
        if word.isdecimal() and 1 <= int(word) <= 500 and "target" not in options:
            options["target"] = int(word)
            continue
        try:
            options["variant"] = Variant.parse(word).value
            continue
        except RuleError:
            pass
        names.append(word)
    return names, options


async def _players(
    update: Update, context: BotContext, chat_id: int
) -> tuple[list[Player], dict[str, Any]]:
    """The players named after /prefkeep (see ``bot.games.keeping.named_players``), and the
    pool target and variant typed after them."""
    words, picked = command_words(update)
    names, options = _split_options(words)
    if len(names) not in (3, 4):
        raise Refusal("pref_keeper_usage")
    keeper = _keeper(context)
    players = await named_players(
        context, names, picked, keeper.known, lambda name: keeper.guest(chat_id, name)
    )
    return players, options


async def prefkeep_command(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    assert chat is not None
    t = await chat_translator(update, context)
    thread = thread_of(update)
    keeper = _keeper(context)
    record = await keeper.chat(chat.id, chat.title or "", context.config.language)
    try:
        if context.args and context.args[0].lower() in END_WORDS:
            table = await keeper.open_sheet(record.id, thread)
            if table is None:
                raise Refusal("keeper_none")
            if table.game != keeper.game:  # the open sheet is a rubber's
                raise Refusal("keeper_other_game", command="/keep end")
            _show(context, await keeper.end(table.id))
            return
        players, options = await _players(update, context, record.id)
        settings = await keeper.table_settings(record, thread)
        if options:
            settings = dataclasses.replace(settings, options={**settings.options, **options})
        sheet = await keeper.start(record, thread, players, settings)
    except (Refusal, RuleError) as error:
        context.outbox.post(chat.id, thread, refusal_message(error, t))
        return
    _show(context, sheet)


async def _save(
    context: BotContext,
    table_id: int,
    expected: int,
    entry: Entry,
    player: Player,
    update_key: str | None = None,
) -> None:
    before, sheet = await _keeper(context).enter(table_id, expected, entry, player.id, update_key)
    summary = _t(sheet)("keeper.entered", entry=entry.code(), name=user_text(player.name))
    _close_old(context, before, summary)
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
    """/deal 7H 0 whist/pass 6/3/1 or /undo at this group's open pulka."""

    async def write(player: Player, key: str | None) -> None:
        if undo:
            await _undo(context, table_id, count, player, key)
        else:
            entry = parse_entry(" ".join(context.args or []))
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
        if message is None or message.chat.id != sheet.chat.tg_chat_id:
            raise BadCallbackData(query.data)
        if not await is_member(context, sheet.chat.tg_chat_id, query.from_user.id):
            raise Refusal("not_member_keeper")
        player = await acting_player(update, context)
        if pressed.act == KEEP_UNDO:
            await _undo(context, sheet.table.id, pressed.deal_no, player)
        elif pressed.arg:
            entry = entry_of(pressed.arg, sheet)
            if pressed.deal_no != sheet.count or sheet.finished is not None:
                raise Refusal("stale")
            if entry is None:
                _show(context, sheet, pressed.arg)
            else:
                await _save(context, sheet.table.id, pressed.deal_no, entry, player)
        else:  # back to the start of the wizard
            if pressed.deal_no != sheet.count:
                raise Refusal("stale")
            _show(context, sheet)
    except (Refusal, ValueError) as error:
        if isinstance(error, ValueError) and not isinstance(error, RuleError | BadCallbackData):
            error = BadCallbackData(query.data)  # wizard data no wizard of ours made
        await query.answer(refusal_text(error, t), show_alert=True)
        return
    await query.answer()


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [
        CommandHandler("prefkeep", prefkeep_command, filters=filters.ChatType.GROUPS),
        CallbackQueryHandler(keeper_button, pattern=route(*KEEPER_BUTTONS)),
    ]
