"""Rubber bridge as the bot serves it: its UI, its scorekeeper and hand records, its robot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from telegram import Update
from telegram.ext import BaseHandler

from bot.games.bridge import records
from bot.games.bridge.buttons import OWN_BUTTONS, TABLE_BUTTONS
from bot.games.bridge.dd import solved
from bot.games.bridge.keeper import KEEPER
from bot.games.bridge.ui import BRIDGE_UI
from bot.plugin import Plugin, Price
from games.bridge.robot import move


def _handlers() -> Sequence[BaseHandler[Update, Any, Any]]:
    return [*KEEPER.handlers(), *records.handlers()]


BRIDGE = Plugin(
    ui=BRIDGE_UI,
    handlers=_handlers,
    buttons=OWN_BUTTONS,
    table_buttons=TABLE_BUTTONS,
    menu=("keep", "pbn", "system"),
    keeper=KEEPER,
    robot=move,
    # /settings формат чикаго: the match's form (a rubber, or a Chicago of four deals)
    setting_words={"form": "form", "формат": "form", "партия": "form"},
    price=Price("points", ("stake", "ставка"), per=100, rounding=True),
    solved=solved,
)
