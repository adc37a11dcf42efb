"""``/stats``: what each player's play was worth, double-dummy (#32). In a private chat, the
player's own over every group; in a group, everyone's if its admins allowed it in /settings,
else the asker's own, sent to them privately (a group sees nobody's unless it chose to)."""

from __future__ import annotations

import asyncio
import datetime

from telegram import InputFile, Update
from telegram.constants import ChatType
from telegram.ext import BaseHandler, CommandHandler

from bot.context import BotContext
from bot.handlers.common import acting_player, first_language, thread_of, user_translator
from bot.i18n import Translator, translator
from bot.rendered import Rendered
from bot.stats import Report
from bot.views.stats import costly_chart, render_stats
from bot.views.text import user_text

CHART_WORDS = ("chart", "график")


async def stats_command(update: Update, context: BotContext) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    player = await acting_player(update, context)
    today = datetime.datetime.now(datetime.UTC).date()
    chart = any(word.lower() in CHART_WORDS for word in context.args or ())
    own_t = user_translator(user, context.config.language)
    if chat.type == ChatType.PRIVATE:
        report = await context.stats.report(today, player_id=player.id)
        await _send(context, user.id, None, report, own_t("stats.title.own"), own_t, chart)
        return
    group = await context.ledger.chat(chat.id, chat.title or "", first_language(update, context))
    group_t = translator(group.language, context.config.language)
    thread = thread_of(update)
    if group.settings.stats_public:
        if not context.records.once(("stats", chat.id)):
            return  # just posted here: a repeat would only push the table up the chat
        report = await context.stats.report(today, chat_id=group.id)
        title = group_t("stats.title.group", chat=user_text(group.title))
        await _send(context, chat.id, thread, report, title, group_t, chart)
        return
    if not await context.service.reachable(player.id):
        link = f"https://t.me/{context.bot.username}?start=stats"
        context.outbox.post(chat.id, thread, Rendered(group_t("stats.start_first", link=link)))
        return
    report = await context.stats.report(today, chat_id=group.id, player_id=player.id)
    title = own_t("stats.title.own_in", chat=user_text(group.title))
    await _send(context, user.id, None, report, title, own_t, chart)
    name = user_text(user.full_name)
    if context.records.once(("stats", chat.id, user.id)):  # the group's note, not a flood
        context.outbox.post(chat.id, thread, Rendered(group_t("stats.sent_privately", name=name)))


async def _send(
    context: BotContext,
    chat_id: int,
    thread: int | None,
    report: Report,
    title: str,
    t: Translator,
    chart: bool,
) -> None:
    in_imps = {plugin.game for plugin in context.plugins if plugin.ui.par_in_imps}
    for part in render_stats(report.lines, report.names, title, t, in_imps):
        context.outbox.post(chat_id, thread, part)
    if not chart or not report.weeks:
        return
    png = await asyncio.to_thread(
        costly_chart, report.weeks, report.names, t("stats.chart.title"), t("stats.chart.y")
    )
    caption = t("stats.chart.caption")
    context.outbox.post_file(
        chat_id, thread, "sendPhoto", "photo", InputFile(png, filename="stats.png"), caption
    )


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [CommandHandler("stats", stats_command)]
