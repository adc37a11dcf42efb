"""Preferans as the bot serves it: its UI, its scorekeeper, its typed setting (the pool) and
its robot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from telegram import Update
from telegram.ext import BaseHandler

from bot.games.preferans import looks, records
from bot.games.preferans.buttons import OWN_BUTTONS
from bot.games.preferans.keeper import KEEPER
from bot.games.preferans.ui import PREFERANS_UI
from bot.plugin import Plugin, Price
from games.preferans.robot import move


def _handlers() -> Sequence[BaseHandler[Update, Any, Any]]:
    return [*KEEPER.handlers(), *looks.handlers(), *records.handlers()]


PREFERANS = Plugin(
    ui=PREFERANS_UI,
    handlers=_handlers,
    buttons=OWN_BUTTONS,
    menu=("prefkeep", "prefrecords"),
    keeper=KEEPER,
    setting_words={"target": "target", "пуля": "target"},
    price=Price("whists", ("whist", "вист")),
    robot=move,
)
