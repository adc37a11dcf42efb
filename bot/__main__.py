"""``python -m bot``: run the bot with long polling, configured from the environment."""

from __future__ import annotations

import logging
import sys
import traceback

from telegram.error import InvalidToken, NetworkError

from bot.app import build_application
from bot.config import Config, ConfigError
from bot.redact import install, redact
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
    # httpx logs every request URL, and the URL holds the token; anything else that might
    # carry it (PTB's DEBUG lines, a rejected token's traceback) is masked on every handler.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    install(config.token)
    application = build_application(config)
    try:
        application.run_polling(
            allowed_updates=["message", "callback_query", "my_chat_member"],
            timeout=config.poll_timeout,
        )
    except StorageError as exc:
        print(f"bridge bot: {redact(str(exc), config.token)}", file=sys.stderr)
        return 1
    except InvalidToken:
        print("bridge bot: Telegram rejected BOT_TOKEN; check it with @BotFather", file=sys.stderr)
        return 2
    except NetworkError as exc:
        reason = redact(str(exc), config.token)
        print(f"bridge bot: cannot reach the Bot API ({reason})", file=sys.stderr)
        return 1
    except Exception:  # a bug: its traceback, with the token masked like every log line
        print(redact(traceback.format_exc(), config.token), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
