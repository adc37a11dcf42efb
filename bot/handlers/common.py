"""What every handler needs: who acts, in which language, and how refusals read."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import CallbackQuery, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import BadRequest, Forbidden

from bot.callback_data import BadCallbackData, Button
from bot.context import BotContext
from bot.i18n import Translator, has, translator
from bot.rendered import Rendered
from bot.tables import Refusal, Snapshot, stale_or_forged
from bot.views.text import plain_text, user_text
from games.core.protocols import State
from games.errors import RuleError
from storage.interface import Player

log = logging.getLogger(__name__)


def user_translator(user: User | None, fallback: str) -> Translator:
    return translator(user.language_code if user else None, fallback)


async def chat_translator(update: Update, context: BotContext) -> Translator:
    """How to speak in the chat the update came from: a group (or topic) in its table's
    language, else the group's own, whoever wrote; a private chat, or a group the bot has not
    met yet (it will be met in that language), in the user's own."""
    chat = update.effective_chat
    fallback = context.config.language
    if chat is None or chat.type == ChatType.PRIVATE:
        return user_translator(update.effective_user, fallback)
    language = await context.service.chat_language(chat.id, thread_of(update))
    if language is None:
        return user_translator(update.effective_user, fallback)
    return translator(language, fallback)


def first_language(update: Update, context: BotContext) -> str:
    """The language a group is first met in (and a new table opens in until the group changes
    it): that of whoever brought the bot there, if the bot speaks it, else the bot's default."""
    return user_translator(update.effective_user, context.config.language).language


async def acting_player(update: Update, context: BotContext) -> Player:
    user = update.effective_user
    assert user is not None
    return await context.service.player(
        user.id, user.full_name, user.language_code or "", user.username
    )


async def is_admin(context: BotContext, tg_chat_id: int, tg_user_id: int) -> bool:
    """Whether the user administers (or owns) the group: asked of Telegram, never cached."""
    member = await context.bot.get_chat_member(tg_chat_id, tg_user_id)
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def seat_wanted(
    context: BotContext, table_id: int, tg_user_id: int, player_id: int, code: str
) -> tuple[Snapshot, int]:
    """The one sequence both ways of sitting down share (the Sit button, the deep link): the
    table, the seat its game's UI reads from ``code``, the group's membership asked of
    Telegram, and the table's own checks. Refusal if any fails; nothing is changed."""
    snap = await context.service.snapshot(table_id)
    seat = context.plugins.ui(snap.game.name).seat_from_word(code)
    if seat is None:
        raise Refusal("old_link")
    if not await is_member(context, snap.chat.tg_chat_id, tg_user_id):
        raise Refusal("not_member")
    snap.check_sit(player_id, seat)
    return snap, seat


async def is_member(context: BotContext, tg_chat_id: int, tg_user_id: int) -> bool:
    """Whether the user is in the group now, asked of Telegram: only its members sit at its
    tables (table ids are sequential, and button data and deep links can be forged)."""
    try:
        member = await context.bot.get_chat_member(tg_chat_id, tg_user_id)
    except (BadRequest, Forbidden):
        return False
    if member.status in (
        ChatMemberStatus.OWNER,
        ChatMemberStatus.ADMINISTRATOR,
        ChatMemberStatus.MEMBER,
    ):
        return True
    restricted_member = bool(getattr(member, "is_member", False))
    return member.status == ChatMemberStatus.RESTRICTED and restricted_member


async def group_only(update: Update, context: BotContext) -> None:
    """A group command sent in a private chat: say where it works."""
    chat = update.effective_chat
    assert chat is not None
    t = user_translator(update.effective_user, context.config.language)
    context.outbox.post(chat.id, None, Rendered(t("refusal.group_only")))


POPUP_LIMIT = 200  # characters Telegram allows in a callback answer


# A button's own work: given the press decoded and the presser's translator, it answers the
# query itself; a refusal it raises is answered for it (``on_button``).
Pressed = Callable[[Update, BotContext, Button, Translator], Coroutine[Any, Any, None]]
Handler = Callable[[Update, BotContext], Coroutine[Any, Any, None]]


def on_button(handle: Pressed, alert: bool = True) -> Handler:
    """A button handler with what every one shares: no query (or no data) is nothing to do;
    the data is decoded (forged or old data is refused, not raised); the presser's language;
    and a refusal, a rule's or a bad button's, answered to the presser alone (``alert``: as a
    popup to dismiss, else a passing toast). Nothing is written for a refused press."""

    async def answer(update: Update, context: BotContext) -> None:
        query = update.callback_query
        if query is None or query.data is None:
            return
        t = user_translator(update.effective_user, context.config.language)
        try:
            await handle(update, context, Button.decode(query.data), t)
        except (Refusal, RuleError, BadCallbackData) as error:
            await query.answer(refusal_text(error, t), show_alert=alert)

    return answer


def refusal_text(error: Exception, t: Translator) -> str:
    """The popup for a refusal: the rules' reason code or the table's, in the user's language
    (plain text, cut to what Telegram accepts in a popup)."""
    text = _refusal(error, t, plain_text)
    return text if len(text) <= POPUP_LIMIT else text[: POPUP_LIMIT - 1] + "…"


def refusal_message(error: Exception, t: Translator) -> Rendered:
    """The same refusal as a message in a chat (HTML: names in it are escaped)."""
    return Rendered(_refusal(error, t, user_text))


def _refusal(error: Exception, t: Translator, quote: Callable[[str], str]) -> str:
    if isinstance(error, RuleError):
        return t(f"reason.{error.reason.value}")
    if isinstance(error, Refusal):
        values = {k: quote(v) if isinstance(v, str) else v for k, v in error.values.items()}
        own = f"refusal.{error.game}.{error.key}"
        return t(own if error.game and has(t.language, own) else f"refusal.{error.key}", **values)
    if isinstance(error, BadCallbackData):
        log.info("refused button data no button of ours made: %s", error)
        return t("refusal.bad_button")
    raise error


def thread_of(update: Update) -> int | None:
    message = update.effective_message
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


def update_key(context: BotContext, update: Update) -> str:
    """A Telegram update's identity across restarts (update ids count per bot)."""
    return f"{context.bot.id}:{update.update_id}"


def seat_in_deal(snap: Snapshot, player_id: int, deal_no: int) -> int:
    """The presser's seat at the deal under way that a button of deal ``deal_no`` names: a
    refusal if they sit nowhere, the button is of another deal, or the deal is over."""
    seat = snap.seat_of(player_id)
    if seat is None:
        raise Refusal("not_seated")
    if deal_no != snap.deal_no:
        raise stale_or_forged(deal_no, snap.deal_no)
    if snap.state is None or snap.state.finished:
        raise Refusal("stale")
    return seat


def check_own_chat(query: CallbackQuery, snap: Snapshot, seated_too: bool = False) -> None:
    """A look back at a table's deals answers only in the table's own chat: a press forged
    elsewhere (a private chat, another group) would show that group's names and cards. With
    ``seated_too``, also in the private chat of someone seated at the table (what their own
    screen may show)."""
    here = query.message.chat.id if query.message is not None else None
    if here == snap.chat.tg_chat_id:
        return
    if (
        seated_too
        and here == query.from_user.id
        and any(h.tg_user_id == query.from_user.id for h in snap.seats.values())
    ):
        return
    raise BadCallbackData(query.data or "")


LOOKERS = 1000  # presses remembered for paging a look back (the least recent forgotten)


def look_back(
    game: str,
    popup: Callable[[Snapshot, State[Any, Any], Translator, int], str],
    seated_too: bool = False,
) -> Callable[[Update, BotContext], Coroutine[Any, Any, None]]:
    """The handler of a table message's button that looks back at its deal of ``game`` (the
    one under way, or an earlier one, finished) in a popup for whoever presses; shown only in
    the table's own group. A popup holds about six tricks: each press of the same person on
    the same deal shows the next page (the count kept in memory, a restart starts again)."""

    def page_of(context: BotContext, user: int, table: int, deal: int) -> int:
        pressed: OrderedDict[tuple[int, int, int], int] = context.bot_data.setdefault(
            f"look_back.{game}", OrderedDict()
        )
        key = (user, table, deal)
        page = pressed.pop(key, -1) + 1
        pressed[key] = page
        while len(pressed) > LOOKERS:
            pressed.popitem(last=False)
        return page

    async def answer(update: Update, context: BotContext, pressed: Button, t: Translator) -> None:
        query = update.callback_query
        assert query is not None
        snap = await context.service.snapshot(pressed.table_id)
        if snap.game.name != game:  # a button of another game's table: not ours to read
            raise BadCallbackData(query.data)
        check_own_chat(query, snap, seated_too)
        state = snap.state
        if pressed.deal_no != snap.deal_no or state is None:  # an earlier deal's message
            _chat, state = await context.service.finished_deal(
                pressed.table_id, pressed.deal_no, game
            )
        page = page_of(context, query.from_user.id, pressed.table_id, pressed.deal_no)
        await query.answer(popup(snap, state, t, page), show_alert=True)

    return on_button(answer)
