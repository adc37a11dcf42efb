"""/settings: the table's scoring variant, unfinished part score and language, and the group's
money: stake per 100 points, rounding, who may record payments.

Changed by a seated player or a group admin; the variant only between deals.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.callback_data import Act, BadCallbackData, Button, route
from bot.context import BotContext
from bot.handlers.common import (
    acting_player,
    chat_translator,
    first_language,
    is_admin,
    on_button,
    refusal_message,
    thread_of,
)
from bot.i18n import LANGUAGES, Translator, translator
from bot.places import HANDS
from bot.plugin import GameUI, Plugin, Price
from bot.rendered import Rendered
from bot.screens import group_translator
from bot.tables import Refusal, Snapshot
from bot.views.misc import GROUP_SETTINGS, TIMER_MINUTES, render_group_settings, render_settings
from storage.interface import ChatSettings, PaymentPolicy, Rounding, TableSettings

PRICE = re.compile(r"^(\d{1,7})(?:[.,](\d{1,2}))?(?:\s+(\S{1,8}))?$")


async def _may_change(
    context: BotContext, snap: Snapshot, user_id: int, player_id: int, money: bool
) -> bool:
    """A player seated at the table or a group admin, asked of the table's own chat. The group's
    money (stake, rounding, who records payments) is the admins' alone once the group has put
    payments in the admins' hands: a seated player cannot loosen that first."""
    admins_only = money and snap.chat.settings.payments is PaymentPolicy.ADMINS
    if not admins_only and snap.seat_of(player_id) is not None:
        return True
    return await is_admin(context, snap.chat.tg_chat_id, user_id)


async def settings_command(update: Update, context: BotContext) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    t = await chat_translator(update, context)
    thread = thread_of(update)
    table_id = await context.service.table_for(chat.id, thread)
    if table_id is None:
        await _group_settings(update, context)
        return
    snap = await context.service.snapshot(table_id)
    args = context.args or []
    word = args[0].lower() if args else ""
    plugin = context.plugins[snap.game.name]
    price = context.plugins.price_word(word)
    if word in HANDS_WORDS:
        await _typed_hands(update, context, snap, " ".join(args[1:]).lower(), t)
        return
    if price is not None or word in plugin.setting_words:
        player = await acting_player(update, context)
        text = " ".join(args[1:])
        refusal, changed = (
            _typed_price(price, text, snap.chat.settings)
            if price is not None
            else _typed_option(word, text, snap, plugin)
        )
        if refusal is None and not await _may_change(
            context, snap, user.id, player.id, money=word not in plugin.setting_words
        ):
            refusal = Refusal("not_allowed")
        if refusal is not None:
            context.outbox.post(chat.id, thread, refusal_message(refusal, t))
            return
        if isinstance(changed, ChatSettings):
            change = await context.service.update_chat_settings(snap.chat.id, changed, table_id)
        else:
            assert changed is not None
            try:
                admin = await is_admin(context, chat.id, user.id)
                change = await context.service.update_settings(table_id, changed, admin)
            except Refusal as refused:
                context.outbox.post(chat.id, thread, refusal_message(refused, t))
                return
        snap = change.snapshot
        context.changes.show(change)
    context.outbox.forget(table_id, "settings")  # a fresh message at the bottom of the chat
    _show_settings(context, snap)


def _show_settings(context: BotContext, snap: Snapshot) -> None:
    """The table's settings message (its kept ``settings``), as they stand."""
    content = render_settings(
        snap.table_id,
        snap.settings,
        snap.chat.settings,
        group_translator(snap),
        context.plugins.ui(snap.game.name),
        context.plugins.prices(),
        _hands(context, snap),
    )
    chat, thread = snap.chat.tg_chat_id, snap.topic_id
    context.outbox.want(snap.table_id, "settings", chat, thread, content)


def _hands(context: BotContext, snap: Snapshot) -> tuple[bool, bool]:
    """Where the table's screens are now: in the group, and whether the bot may post them."""
    places = context.presenter.places
    return places.in_group(snap), places.rights.get(snap.chat.tg_chat_id, False)


# ``/settings карты группа`` (cards, hands): where the table's screens are, typed.
HANDS_WORDS = ("карты", "cards", "hands")
HANDS_VALUES = {
    "группа": "group", "в группе": "group", "group": "group",
    "личка": "private", "в личке": "private", "лс": "private", "private": "private",
}  # fmt: skip


async def _typed_hands(
    update: Update, context: BotContext, snap: Snapshot, text: str, t: Translator
) -> None:
    """``/settings карты группа|личка``: as the settings' buttons, by a seated player or a
    group admin; the settings are shown after it."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    thread = thread_of(update)
    value = HANDS_VALUES.get(text)
    if value is None:
        context.outbox.post(chat.id, thread, refusal_message(Refusal("bad_hands"), t))
        return
    player = await acting_player(update, context)
    if not await _may_change(context, snap, user.id, player.id, False):
        context.outbox.post(chat.id, thread, refusal_message(Refusal("not_allowed"), t))
        return
    admin = await is_admin(context, chat.id, user.id)
    changed = dataclasses.replace(snap.settings, hands=value)
    change = await context.service.update_settings(snap.table_id, changed, admin)
    context.changes.show(change)
    context.outbox.forget(snap.table_id, "settings")
    _show_settings(context, change.snapshot)


async def _group_settings(update: Update, context: BotContext) -> None:
    """/settings where no table is: the group's own settings, shown, or a price typed after
    it set (by the group's admins). A table's own word is answered as before: open a table."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    thread = thread_of(update)
    record = await context.ledger.chat(chat.id, chat.title or "", first_language(update, context))
    t = translator(record.language, context.config.language)
    args = context.args or []
    word = args[0].lower() if args else ""
    price = context.plugins.price_word(word)
    if word and price is None:
        context.outbox.post(
            chat.id, thread, Rendered(t("refusal.no_table", **context.plugins.offer().words(t)))
        )
        return
    if price is not None:
        refusal, changed = _typed_price(price, " ".join(args[1:]), record.settings)
        if refusal is None and not await is_admin(context, chat.id, user.id):
            refusal = Refusal("group_admins")
        if refusal is not None:
            context.outbox.post(chat.id, thread, refusal_message(refusal, t))
            return
        record = await context.service.update_group(record.id, settings=changed)
    prices = context.plugins.prices()
    offer = context.plugins.offer()
    content = render_group_settings(record.language, record.settings, t, prices, offer)
    context.outbox.post(chat.id, thread, content)


def _typed_price(
    price: Price, text: str, group: ChatSettings
) -> tuple[Refusal | None, ChatSettings | None]:
    """``/settings stake 10 RUB`` (money per 100 points), ``/settings вист 0.5``: the group's
    settings with the unit priced (hundredths of the currency per unit, a whole number of
    them), or the refusal."""
    match = PRICE.match(text)
    if match is None:
        return Refusal(f"bad_price.{price.unit}"), None
    whole, part, currency = match.groups()
    cents = int(whole) * 100 + int((part or "0").ljust(2, "0"))
    if cents % price.per:
        return Refusal(f"bad_price.{price.unit}"), None
    priced = group.priced(price.unit, cents // price.per)
    return None, dataclasses.replace(priced, currency=currency or group.currency)


def _typed_option(
    word: str, text: str, snap: Snapshot, plugin: Plugin
) -> tuple[Refusal | None, TableSettings | None]:
    """A word of the table's game (``/settings target 25``): the table's settings after it,
    or the refusal, in the game's own words (``refusal.<game>.bad_<option>``) where it has
    them, else the shared ones (``refusal.bad_<option>``)."""
    key = plugin.setting_words[word]
    options = plugin.ui.option_changed(snap.settings.options, f"{key}={text}")
    if options is None:
        return Refusal(f"bad_{key}", game=plugin.game), None
    return None, dataclasses.replace(snap.settings, options=options)


def _changed(settings: TableSettings, arg: str, ui: GameUI) -> TableSettings | None:
    """The table's settings after the press; None if the press is about the group's money."""
    options = ui.option_changed(settings.options, arg)
    if options is not None:
        return dataclasses.replace(settings, options=options)
    key, _, value = arg.partition("=")
    if key == "lang" and value in ("ru", "en"):
        return dataclasses.replace(settings, language=value)
    if key == "timer" and value in {str(m) for m in TIMER_MINUTES}:
        return dataclasses.replace(settings, turn_timer=int(value))
    if key == "hands" and value in HANDS:
        return dataclasses.replace(settings, hands=value)
    if key in ("round", "pay", "stats"):
        return None
    raise BadCallbackData(arg)


def _group_changed(group: ChatSettings, arg: str) -> ChatSettings:
    key, _, value = arg.partition("=")
    try:
        if key == "round":
            return dataclasses.replace(group, rounding=Rounding(value))
        if key == "pay":
            return dataclasses.replace(group, payments=PaymentPolicy(value))
        if key == "stats" and value in ("public", "own"):
            return dataclasses.replace(group, stats_public=value == "public")
    except ValueError:
        pass
    raise BadCallbackData(arg)


async def _setting_button(
    update: Update, context: BotContext, pressed: Button, t: Translator
) -> None:
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None and query.message is not None
    if pressed.table_id == GROUP_SETTINGS:
        await _group_setting_button(update, context, pressed, t)
        return
    player = await acting_player(update, context)
    snap = await context.service.snapshot(pressed.table_id)
    if query.message.chat.id != snap.chat.tg_chat_id:
        raise BadCallbackData(query.data)  # a table's settings are changed in its group only
    table_settings = _changed(snap.settings, pressed.arg, context.plugins.ui(snap.game.name))
    money = table_settings is None
    if not await _may_change(context, snap, user.id, player.id, money):
        raise Refusal("not_allowed")
    if pressed.arg.startswith("stats=") and not await is_admin(
        context, snap.chat.tg_chat_id, user.id
    ):
        raise Refusal("stats_admins")  # who sees whose statistics: the group's admins
    if table_settings is None:
        group = _group_changed(snap.chat.settings, pressed.arg)
        change = await context.service.update_chat_settings(snap.chat.id, group, snap.table_id)
    else:
        admin = await is_admin(context, snap.chat.tg_chat_id, user.id)
        change = await context.service.update_settings(snap.table_id, table_settings, admin)
    _show_settings(context, change.snapshot)
    context.changes.show(change)
    await query.answer(t("settings.saved"))


setting_button = on_button(_setting_button, alert=False)


async def _group_setting_button(
    update: Update, context: BotContext, pressed: Button, t: Translator
) -> None:
    """A press on a group's own settings (no table): its admins switch the group's language,
    rounding or who records payments; the message it was pressed on shows the change."""
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None and query.message is not None
    tg_chat = query.message.chat
    if tg_chat.type == ChatType.PRIVATE:
        raise BadCallbackData(pressed.arg)
    record = await context.ledger.chat(
        tg_chat.id, tg_chat.title or "", first_language(update, context)
    )
    key, _, value = pressed.arg.partition("=")
    if key == "lang":
        if value not in LANGUAGES:
            raise BadCallbackData(pressed.arg)
        changes: dict[str, Any] = {"language": value}
    else:
        changes = {"settings": _group_changed(record.settings, pressed.arg)}
    if not await is_admin(context, tg_chat.id, user.id):
        raise Refusal("group_admins")
    record = await context.service.update_group(record.id, **changes)
    group_t = translator(record.language, context.config.language)
    plugins = context.plugins
    content = render_group_settings(
        record.language, record.settings, group_t, plugins.prices(), plugins.offer()
    )
    context.outbox.edit(tg_chat.id, query.message.message_id, content)
    await query.answer(t("settings.saved"))


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [
        CommandHandler("settings", settings_command, filters=filters.ChatType.GROUPS),
        CallbackQueryHandler(setting_button, pattern=route(Act.SETTING)),
    ]
