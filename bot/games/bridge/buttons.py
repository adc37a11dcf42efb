"""Bridge's own button kinds (``bot.plugin.Plugin``): each has one owner, checked at start."""

from __future__ import annotations

# The table's buttons of the first release: the call, the card, the tricks claimed, the answer
# to a claim. Still read (into codec text) so that keyboards already in chats keep working.
CALL = "c"  # arg: call text, "1H", "P", "X", "XX"
CARD = "p"  # arg: card text, "SQ"
CLAIM = "cl"  # arg: tricks
CLAIM_ANSWER = "ca"  # arg: "y" or "n"
CLAIM_MENU = "cm"  # opens the claim's sub-menu on the player's screen
DD = "dd"  # arg: the vulnerability (o, n, e, b): a finished deal's double-dummy table
EXPLAIN = "ex"  # what each call of the deal's auction shows, in a popup for whoever presses
TRICKS = "tr"  # the deal's completed tricks, in a popup for whoever presses
# Scorekeeping for rubbers played with real cards; "deal" is the number of deals entered.
KEEP = "sk"  # arg: the entry so far, e.g. "4SX.N.m2"
KEEP_WHO = "kw"  # arg: "<question>.<player id or guest>": who a name meant
KEEP_UNDO = "ku"
KEEP_PICTURE = "pic"

TABLE_BUTTONS = frozenset({CALL, CARD, CLAIM, CLAIM_ANSWER, CLAIM_MENU})
KEEPER_BUTTONS = frozenset({KEEP, KEEP_UNDO, KEEP_PICTURE, KEEP_WHO})
OWN_BUTTONS = frozenset({DD, TRICKS, EXPLAIN, *KEEPER_BUTTONS})
