"""Running the bot (long polling, or a webhook), configured from the environment: what
``python -m bot`` does with no argument (``bot.__main__``); the tools on its database are
``bot.tools``.

Every bad setting is one clear line on stderr, never a traceback, and local settings are checked
before the network: a wrong database path is reported even when the token is wrong too. A Bot
API out of reach at start is retried with backoff (one warning line per attempt) rather than
leaving the bot down after a boot-time blip.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
import traceback
from typing import Any
from urllib.parse import urlsplit

from telegram.error import InvalidToken, NetworkError

from bot.app import build_application
from bot.config import Config, ConfigError
from bot.redact import install, redact
from bot.tools import run
from storage import open_storage
from storage.interface import StorageError

# PTB's retry loop logs as "telegram.ext" (the name of all its utils), its failed attempts at
# DEBUG: that logger listens at DEBUG until the bot is up (bot.app resets it), and a filter on
# the handlers keeps the configured level for everything else.
RETRY_LOGGER = "telegram.ext"
UPDATES = ["message", "callback_query", "my_chat_member"]


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


class _Stopper:
    """SIGTERM or SIGINT. A running bot stops gracefully (PTB's stop, the outbox drained, then
    storage closed). One still starting (restoring tables, or polling not up yet: nothing taken
    from Telegram) closes storage and leaves at once. PTB's own handler is not used: it raises
    SystemExit into PTB's start-up retry loop, which then awaits on a stopped loop and leaves
    the database thread holding the process open (found by a SIGTERM right after "ready")."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.restoring = False
        self.requested = False

    def install(self) -> None:
        restore = self.application.post_init

        async def post_init(app: Any) -> None:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, self.stop)
            self.restoring = True
            try:
                if restore is not None:
                    await restore(app)
            finally:
                self.restoring = False
            if self.requested:
                await self.leave()

        self.application.post_init = post_init

    def stop(self) -> None:
        lease = self.application.bot_data.get("lease")
        if self.application.running:
            self.application.stop_running()
        elif lease is not None and lease.waiting:  # a standby: nothing to finish
            asyncio.get_running_loop().create_task(self.leave())
        elif self.restoring:
            self.requested = True  # left as soon as the restore is done
        else:
            asyncio.get_running_loop().create_task(self.leave())

    async def leave(self) -> None:
        logging.getLogger("bot").info("stop requested while starting; leaving")
        heartbeat = self.application.bot_data.get("heartbeat")
        if heartbeat is not None:
            await heartbeat.stop()
        storage = self.application.bot_data.get("storage")
        if storage is not None:
            await storage.close()
        logging.shutdown()
        os._exit(0)


async def _check_storage(database: str) -> None:
    """Open (and migrate) the database once and let it go: refusals come before the network."""
    storage = await open_storage(database)
    await storage.close()


def main() -> int:
    if sys.argv[1:]:  # export / import: tools on the database, no Telegram
        return run(sys.argv[1:])
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
    if config.log_level != "DEBUG":  # the job queue's two lines for every press and timer
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
    quiet = StartupRetries(logging.getLevelName(config.log_level))
    for handler in logging.getLogger().handlers:
        handler.addFilter(quiet)
    logging.getLogger(RETRY_LOGGER).setLevel(logging.DEBUG)
    install(config.token, *config.secrets)
    try:
        asyncio.run(_check_storage(config.database))
    except StorageError as exc:
        reason = redact(str(exc), config.token, *config.secrets)
        print(f"bridge bot: {config.database_setting}: {reason}", file=sys.stderr)
        return 1
    application = build_application(config)
    _Stopper(application).install()
    try:
        if config.webhook_url:
            # PTB's webhook server answers 403 to a request without the secret, before any
            # handler sees it.
            application.run_webhook(
                listen=config.webhook_listen,
                port=config.webhook_port,
                url_path=urlsplit(config.webhook_url).path.lstrip("/"),
                webhook_url=config.webhook_url,
                secret_token=config.webhook_secret,
                allowed_updates=UPDATES,
                bootstrap_retries=-1,
                stop_signals=None,
            )
        else:
            application.run_polling(
                allowed_updates=UPDATES,
                timeout=config.poll_timeout,
                bootstrap_retries=-1,  # the network at start: retried, with PTB's backoff to 30 s
                stop_signals=None,  # ours, from post_init on: see _Stopper
            )
    except StorageError as exc:
        print(f"bridge bot: {redact(str(exc), config.token, *config.secrets)}", file=sys.stderr)
        return 1
    except InvalidToken:
        print("bridge bot: Telegram rejected BOT_TOKEN; check it with @BotFather", file=sys.stderr)
        return 2
    except NetworkError as exc:
        reason = redact(str(exc), config.token, *config.secrets)
        print(f"bridge bot: cannot reach the Bot API ({reason})", file=sys.stderr)
        return 1
    except Exception:  # a bug: its traceback, with the token masked like every log line
        print(redact(traceback.format_exc(), config.token, *config.secrets), file=sys.stderr)
        return 1
    return 0


def exit_with(code: int) -> None:
    """Leave with ``code``; a failure that left a worker thread (the database's) behind must
    not hang the process on the way out."""
    if code and threading.active_count() > 1:
        logging.shutdown()
        os._exit(code)
    sys.exit(code)
