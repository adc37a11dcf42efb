"""A look back at the deal: the table message's button shows its completed tricks in a popup to
whoever presses (cards every kibitzer saw played)."""

from __future__ import annotations

from typing import Any

from telegram import Update
from telegram.ext import BaseHandler, CallbackQueryHandler

from bot.callback_data import route
from bot.context import BotContext
from bot.games.preferans.buttons import TRICKS
from bot.games.preferans.state import names_of
from bot.games.preferans.table import tricks_popup
from bot.handlers.common import look_back
from bot.i18n import Translator
from bot.tables import Snapshot
from games.core.protocols import State
from games.preferans.deal import DealState


def _popup(snap: Snapshot, state: State[Any, Any], t: Translator, page: int) -> str:
    assert isinstance(state, DealState)
    return tricks_popup(state.view(None), names_of(snap), t, page)


tricks_button = look_back("preferans", _popup)


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [CallbackQueryHandler(tricks_button, pattern=route(TRICKS))]
