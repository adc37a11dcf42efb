"""/ledger, /settle, /history: the group's running accounts, settling up, and the rubbers played.

Money lives per chat (one ledger for every table and scorekeeper's sheet of the group). Buttons
carry the ledger's size when they were made, so a "paid" button pressed twice, or after another
payment, records nothing and shows the fresh plan.
"""

from __future__ import annotations

import asyncio
import re

from telegram import InputFile, Update
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.callback_data import MONEY_ACTS, Act, BadCallbackData, Button, route
from bot.context import BotContext
from bot.handlers.common import (
    acting_player,
    first_language,
    group_only,
    is_admin,
    on_button,
    refusal_message,
    thread_of,
)
from bot.i18n import Translator, translator
from bot.keeping.handlers import command_words, group_people, named_players
from bot.ledger import InvalidTransfer
from bot.rendered import Rendered
from bot.tables import Refusal
from bot.views.amounts import amount
from bot.views.money import (
    UNIT_OF_CODE,
    ledger_csv,
    render_history,
    render_ledger,
    render_settle,
)
from bot.views.pictures import balance_chart
from bot.views.text import user_text
from games.core.settlement import Transfer
from storage.interface import CENTS, Chat, PaymentPolicy, Player


def _group_t(chat: Chat) -> Translator:
    return translator(chat.language)


async def _chat_here(update: Update, context: BotContext) -> Chat:
    chat = update.effective_chat
    assert chat is not None
    return await context.ledger.chat(chat.id, chat.title or "", first_language(update, context))


async def ledger_command(update: Update, context: BotContext) -> None:
    chat = await _chat_here(update, context)
    if context.args and context.args[0].lower() in ("chart", "график"):
        await _send_chart(context, chat, thread_of(update))
        return
    context.outbox.post(chat.tg_chat_id, thread_of(update), await ledger_view(context, chat))


async def ledger_view(context: BotContext, chat: Chat) -> Rendered:
    t = _group_t(chat)
    a = await context.ledger.accounts(chat.id, t("ledger.guest"))
    return render_ledger(
        chat.id, a.version, a.balances, a.counts, a.names, chat.settings, t, a.practice
    )


async def settle_view(context: BotContext, chat: Chat) -> Rendered:
    plan = await context.ledger.plan(chat, _group_t(chat)("ledger.guest"))
    return render_settle(
        chat.id, plan.version, plan.transfers, plan.names, chat.settings, _group_t(chat)
    )


async def settle_command(update: Update, context: BotContext) -> None:
    chat = await _chat_here(update, context)
    context.outbox.post(chat.tg_chat_id, thread_of(update), await settle_view(context, chat))


async def history_command(update: Update, context: BotContext) -> None:
    chat = await _chat_here(update, context)
    if context.args and context.args[0].lower() == "csv":
        await _send_csv(context, chat, thread_of(update))
        return
    h = await context.ledger.history(chat.id, 10, _group_t(chat)("ledger.guest"))
    content = render_history(
        h.matches,
        h.entries,
        h.units,
        h.names,
        chat.settings,
        _group_t(chat),
        chat.id,
        h.version,
        lambda match, names, t: context.plugins.ui(match.game).history_line(match, names, t),
    )
    context.outbox.post(chat.tg_chat_id, thread_of(update), content)


async def _send_csv(context: BotContext, chat: Chat, thread: int | None) -> None:
    rows, names = await context.ledger.rows(chat.id, _group_t(chat)("ledger.guest"))
    data = ledger_csv(rows, names, chat.settings)
    t = _group_t(chat)
    context.outbox.post_file(
        chat.tg_chat_id,
        thread,
        "sendDocument",
        "document",
        InputFile(data, filename=f"ledger-{chat.id}.csv"),
        t("ledger.csv_caption", count=len(rows)),
    )


async def _send_chart(context: BotContext, chat: Chat, thread: int | None) -> None:
    t = _group_t(chat)
    rows, names = await context.ledger.rows(chat.id, t("ledger.guest"))
    if not rows:
        context.outbox.post(chat.tg_chat_id, thread, Rendered(t("ledger.empty")))
        return
    png = await asyncio.to_thread(
        balance_chart,
        rows,
        names,
        t("chart.title", chat=chat.title or ""),
        t("chart.x"),
        chat.settings,
        {unit: t(f"chart.unit.{unit}") for unit in {row.unit for row in rows} | {CENTS}},
    )
    context.outbox.post_file(
        chat.tg_chat_id,
        thread,
        "sendPhoto",
        "photo",
        InputFile(png, filename="balances.png"),
        t("chart.caption"),
    )


async def _may_record(
    context: BotContext, chat: Chat, tg_user_id: int, player_id: int, payer: int, payee: int
) -> bool:
    policy = chat.settings.payments
    if policy is PaymentPolicy.PAYEE and player_id == payee:
        return True
    if policy is PaymentPolicy.EITHER and player_id in (payer, payee):
        return True
    return await is_admin(context, chat.tg_chat_id, tg_user_id)


async def _money_button(
    update: Update, context: BotContext, pressed: Button, t: Translator
) -> None:
    query, user = update.callback_query, update.effective_user
    assert query is not None and user is not None
    message = query.message
    found = await context.ledger.chat_by_id(pressed.table_id)
    if found is None:
        raise BadCallbackData(query.data)
    chat = found
    if message is None or message.chat.id != chat.tg_chat_id:
        raise BadCallbackData(query.data)
    thread = thread_of(update)
    if pressed.act is Act.CHART:
        await query.answer()
        await _send_chart(context, chat, thread)
        return
    if pressed.act is Act.CSV:
        await query.answer()
        await _send_csv(context, chat, thread)
        return
    if pressed.act is Act.SETTLE:
        context.outbox.post(chat.tg_chat_id, thread, await settle_view(context, chat))
        await query.answer()
        return
    if pressed.act is not Act.PAY:
        raise BadCallbackData(query.data)
    unit, payer, payee, points = _transfer_of(pressed.arg, query.data)
    player = await acting_player(update, context)
    if not await _may_record(context, chat, user.id, player.id, payer, payee):
        raise Refusal(f"payment_by_{chat.settings.payments.value}")
    try:  # the data is untrusted: the service records only a transfer on the plan
        transfer = Transfer(payer, payee, points)
        await context.ledger.record_payment(chat, unit, transfer, pressed.deal_no, player.name)
    except InvalidTransfer:
        raise BadCallbackData(query.data) from None
    names = await context.ledger.names((payer, payee), _group_t(chat)("ledger.guest"))
    context.outbox.post(
        chat.tg_chat_id,
        thread,
        Rendered(
            _group_t(chat)(
                "settle.recorded",
                payer=user_text(names[payer]),
                payee=user_text(names[payee]),
                # Always with its unit: "400" alone does not say points or money.
                amount=amount(points, chat.settings, _group_t(chat), unit=unit, label=True),
            )
        ),
    )
    context.outbox.post(chat.tg_chat_id, thread, await settle_view(context, chat))
    await query.answer(t("settle.saved"))


money_button = on_button(_money_button)


PAY_ARG = re.compile(r"^(?:([a-z_]{1,12})\.)?([1-9]\d{0,11})-([1-9]\d{0,11})-([1-9]\d{0,11})$")


def _transfer_of(arg: str, data: str | None) -> tuple[str, int, int, int]:
    """unit, payer, payee, amount from a "paid" button (``w.1-2-30``; without a unit, points:
    the buttons of earlier releases); BadCallbackData for anything else."""
    match = PAY_ARG.match(arg)
    if match is None:
        raise BadCallbackData(data)
    code, *numbers = match.groups()
    payer, payee, points = (int(x) for x in numbers)
    unit = UNIT_OF_CODE.get(code or "p", code)
    if len(unit) == 1:  # a letter no release made
        raise BadCallbackData(data)
    return unit, payer, payee, points


async def merge_command(update: Update, context: BotContext) -> None:
    """``/merge Аня @anna`` (a group's admins): the guest "Аня" of the sheets kept by hand is
    the member @anna; the guest's account moves to the member's in one balanced
    transaction, and the ledger shows one account."""
    chat = await _chat_here(update, context)
    user = update.effective_user
    assert user is not None
    t, thread = _group_t(chat), thread_of(update)
    try:
        if not await is_admin(context, chat.tg_chat_id, user.id):
            raise Refusal("group_admins")
        words, picked = command_words(update)
        if len(words) != 2:
            raise Refusal("merge_usage")
        guest_word, member_word = words
        guests = [
            p
            for p in await group_people(context, chat.id)
            if p.tg_user_id is None and p.name.casefold() == guest_word.casefold()
        ]
        if not guests:
            raise Refusal("merge_no_guest", name=guest_word)
        (member,) = await named_players(
            context, [member_word], picked, context.storage.player_by_username, _no_guest
        )
        if member.tg_user_id is None:
            raise Refusal("merge_not_member", name=member_word)
        note = f"merge: {guests[0].name} -> {member.name}"
        await context.storage.merge_accounts(chat.id, guests[0].id, member.id, note)
    except Refusal as error:
        context.outbox.post(chat.tg_chat_id, thread, refusal_message(error, t))
        return
    done = t("merge.done", guest=user_text(guests[0].name), member=user_text(member.name))
    context.outbox.post(chat.tg_chat_id, thread, Rendered(done))


async def _no_guest(name: str) -> Player:
    raise Refusal("merge_not_member", name=name)


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    groups = filters.ChatType.GROUPS
    return [
        CommandHandler("merge", merge_command, filters=groups),
        CommandHandler(
            ["ledger", "settle", "history"], group_only, filters=filters.ChatType.PRIVATE
        ),
        CommandHandler("ledger", ledger_command, filters=groups),
        CommandHandler("settle", settle_command, filters=groups),
        CommandHandler("history", history_command, filters=groups),
        CallbackQueryHandler(money_button, pattern=route(*MONEY_ACTS)),
    ]
