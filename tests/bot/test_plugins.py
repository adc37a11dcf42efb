"""The plug-in seam holds its promises: every button kind and command has one owner, so every
route names its kinds exactly and a press reaches one handler whatever the order they were
registered in; a plug-in that claims what another has is refused at start."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from telegram.ext import CallbackQueryHandler

from bot.app import build_application, group_commands
from bot.callback_data import Act
from bot.config import Config
from bot.plugin import Plugin, Plugins, Price
from bot.plugins import PLUGINS
from tests.toy.ui import TOY_PLUGIN

TOKEN = "123456:" + "A" * 35


def _routes(
    plugins: tuple[Plugin, ...], tmp_path: Path
) -> list[CallbackQueryHandler[object, object]]:
    app = build_application(
        Config(token=TOKEN, database=str(tmp_path / "x.sqlite3")), None, plugins
    )
    return [
        h for group in app.handlers.values() for h in group if isinstance(h, CallbackQueryHandler)
    ]


def _takers(routes: list[CallbackQueryHandler[object, object]], data: str) -> int:
    return sum(
        1
        for route in routes
        if route.pattern is not None and re.match(route.pattern, data)  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("reverse", [False, True])
def test_every_button_kind_reaches_exactly_one_handler(tmp_path: Path, reverse: bool) -> None:
    plugins = (*PLUGINS, TOY_PLUGIN)
    plugins = plugins[::-1] if reverse else plugins
    routes = _routes(plugins, tmp_path)
    kinds = {act.value for act in Act} | {
        kind for p in plugins for kind in p.buttons | p.table_buttons
    }
    # Every kind the plug-ins and the table claim, read from them, not listed here.
    assert {act.value for act in Act} <= kinds and TOY_PLUGIN.buttons <= kinds
    for kind in kinds:
        for data in (f"b1:1:2:{kind}", f"b1:1:2.3:{kind}:x.y"):
            assert _takers(routes, data) == 1, data
    # What no button of ours makes reaches none of them: the stray handler answers it.
    for data in ("b1:1:2:zz", "b1:1:2:ddd", "junk", "b1:1:2:dd0"):
        assert _takers(routes, data) == 0, data
    assert sum(1 for r in routes if r.pattern is None) == 1


def test_a_claim_on_what_another_has_is_refused() -> None:
    toy = TOY_PLUGIN
    Plugins((*PLUGINS, toy))  # the built-in games and the toy share nothing
    with pytest.raises(ValueError, match="two plug-ins"):
        Plugins((*PLUGINS, toy, toy))
    for clash in (
        dataclasses.replace(toy, buttons=frozenset({"dd"})),  # bridge's analysis button
        dataclasses.replace(toy, buttons=frozenset({"a"})),  # the tables' own action button
        dataclasses.replace(toy, table_buttons=frozenset({"pk"})),
        dataclasses.replace(toy, menu=("keep",)),
        dataclasses.replace(toy, setting_words={"вист": "goal"}),  # Preferans's price word
        dataclasses.replace(toy, price=Price("pips", ("stake",))),
    ):
        with pytest.raises(ValueError, match="has it"):
            Plugins((*PLUGINS, clash))
    # A setting word is read at its own game's tables only: two games may share one.
    Plugins((*PLUGINS, dataclasses.replace(toy, setting_words={"пуля": "goal"})))


def test_the_menu_is_made_of_the_games_commands() -> None:
    plugins = (*PLUGINS, TOY_PLUGIN)
    menu = group_commands(Plugins(plugins))
    openers = tuple(p.ui.commands[0] for p in plugins)
    assert menu[: len(openers)] == openers  # each game's opener first, in the plug-ins' order
    assert {c for p in plugins for c in p.menu} | {"score", "settings", "help"} <= set(menu)
    assert len(menu) == len(set(menu))
    assert "toy" not in group_commands(Plugins(PLUGINS))
