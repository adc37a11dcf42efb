"""``python -m bot``: run the bot with long polling, configured from the environment.

Every bad setting is one clear line on stderr, never a traceback, and local settings are checked
before the network: a wrong database path is reported even when the token is wrong too. A Bot
API out of reach at start is retried with backoff (one warning line per attempt) rather than
leaving the bot down after a boot-time blip.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import traceback

from telegram.error import InvalidToken, NetworkError

from bot.app import build_application
from bot.config import Config, ConfigError
from bot.redact import install, redact
from storage.interface import StorageError
from storage.sqlite import SqliteStorage

# PTB's retry loop logs as "telegram.ext" (the name of all its utils), its failed attempts at
# DEBUG: that logger listens at DEBUG until the bot is up (bot.app resets it), and a filter on
# the handlers keeps the configured level for everything else.
RETRY_LOGGER = "telegram.ext"


class StartupRetries(logging.Filter):
    """PTB's retry loop speaks in tracebacks and DEBUG lines: a rejected token is left to the
    one line ``main`` prints, and each failed attempt to reach the Bot API becomes a warning."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == RETRY_LOGGER:
            message = str(record.msg)
            if "Invalid token" in message:
                return False
            if "Failed run number" in message and "Retrying" in message:
                record.levelno, record.levelname = logging.WARNING, "WARNING"
                record.msg, record.args = "cannot reach the Bot API; trying again", None
        return record.levelno >= self.level


async def _check_storage(path: str) -> None:
    """Open (and migrate) the database once and let it go: refusals come before the network."""
    storage = await SqliteStorage.open(path)
    await storage.close()


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
    quiet = StartupRetries(logging.getLevelName(config.log_level))
    for handler in logging.getLogger().handlers:
        handler.addFilter(quiet)
    logging.getLogger(RETRY_LOGGER).setLevel(logging.DEBUG)
    install(config.token)
    try:
        asyncio.run(_check_storage(config.database))
    except StorageError as exc:
        print(f"bridge bot: BRIDGE_DB: {redact(str(exc), config.token)}", file=sys.stderr)
        return 1
    application = build_application(config)
    try:
        application.run_polling(
            allowed_updates=["message", "callback_query", "my_chat_member"],
            timeout=config.poll_timeout,
            bootstrap_retries=-1,  # the network at start: retried, with PTB's backoff to 30 s
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
