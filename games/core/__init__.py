"""What every game provides, found by name: the seam between the rules and everything else.

A game (bridge, Preferans) is a plug-in: its package implements the protocols in
``games.core.protocols`` and registers itself in ``games.core.registry``. Code above ``games/``
asks the game (how many seats, who is active, whose turn, what is legal, what ends the match)
and never which game it is.
"""
