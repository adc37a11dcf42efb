"""The games' UI packages, one per game (``bot/games/<game>/``), and what their scorekeepers
share (``keeping``). Which games the bot serves is listed in ``bot/plugins.py``."""
