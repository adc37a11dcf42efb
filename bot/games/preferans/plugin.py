"""Preferans as the bot serves it: its UI, its scorekeeper, its typed settings (the pool, the
variant and the group's conditions) and its robot."""

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
    setting_words={
        "target": "target",
        "пуля": "target",
        "variant": "variant",
        "вариант": "variant",
        # the group's conditions (§8), each by its own name and the words a club uses
        "one_whister": "one_whister",
        "lone": "one_whister",
        "вистующий": "one_whister",
        "half_whist": "half_whist",
        "half": "half_whist",
        "полвиста": "half_whist",
        "whist_play": "whist_play",
        "play": "whist_play",
        "игра": "whist_play",
        "compulsory": "compulsory",
        "обязательный": "compulsory",
        "progression": "progression",
        "распасы": "progression",
        "прогрессия": "progression",
        "exit": "exit",
        "выход": "exit",
    },
    price=Price("whists", ("whist", "вист")),
    robot=move,
)
