"""Preferans's own button kinds (``bot.plugin.Plugin``): each has one owner, checked at start."""

from __future__ import annotations

# Scorekeeping for pulkas played with real cards; "deal" is the number of deals entered.
KEEP = "pk"  # arg: the pulka entry so far, e.g. "g0.7H.wp.7"
KEEP_WHO = "pkw"  # arg: "<question>.<player id or guest>": who a name meant
KEEP_UNDO = "pku"

KEEPER_BUTTONS = frozenset({KEEP, KEEP_UNDO, KEEP_WHO})
TRICKS = "ptr"  # the deal's completed tricks, in a popup for whoever presses
OWN_BUTTONS = frozenset({TRICKS, *KEEPER_BUTTONS})
