"""``python -m bot``: run the bot with long polling, configured from the environment."""

from __future__ import annotations

import logging
import sys

from telegram.error import InvalidToken, NetworkError

from bot.app import build_application
from bot.config import Config, ConfigError
from storage.interface import StorageError


def main() -> int:
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(f"bridge bot: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # httpx logs every request URL, and the URL holds the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    application = build_application(config)
    try:
        application.run_polling(
            allowed_updates=["message", "callback_query", "my_chat_member"],
            timeout=config.poll_timeout,
        )
    except StorageError as exc:
        print(f"bridge bot: {exc}", file=sys.stderr)
        return 1
    except InvalidToken:
        print("bridge bot: Telegram rejected BOT_TOKEN; check it with @BotFather", file=sys.stderr)
        return 2
    except NetworkError as exc:
        print(f"bridge bot: cannot reach the Bot API ({exc})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
