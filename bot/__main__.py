"""``python -m bot``: with no argument, run the bot (``bot.runner``). ``export``, ``import``,
``health`` and ``--help`` are tools on its database (``bot.tools``): they answer without loading
Telegram's library, so the image's health check, run every minute, stays cheap."""

from __future__ import annotations

import sys

from bot.tools import run

if __name__ == "__main__":
    if sys.argv[1:]:
        sys.exit(run(sys.argv[1:]))
    from bot.runner import exit_with, main  # Telegram's library: only to run the bot

    exit_with(main())
