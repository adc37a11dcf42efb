"""The games the bot serves: one line per game, as ``games.core.registry`` finds the rules.
Only ``bot/app.py`` reads this list and hands it to everything else."""

from __future__ import annotations

from bot.games.bridge.plugin import BRIDGE
from bot.games.preferans.plugin import PREFERANS
from bot.plugin import Plugin

PLUGINS: tuple[Plugin, ...] = (BRIDGE, PREFERANS)
