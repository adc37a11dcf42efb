"""Settings from the environment (``.env.example`` lists each). Secrets never come from files
in the repository, and the token is never logged."""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bot.heartbeat import HeartbeatSettings, heartbeat_path
from bot.i18n import LANGUAGES
from storage import is_postgres


class ConfigError(Exception):
    pass


SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")  # what Telegram accepts as a webhook's secret
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DATABASE_SCHEMES = ("sqlite", "postgresql", "postgres")
URL_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,19}")


@dataclass(frozen=True, slots=True)
class Config:
    token: str = field(repr=False)
    database: str = "bridge.sqlite3"  # a SQLite file, sqlite:///file, or postgresql://…
    database_setting: str = "DATABASE_URL"  # the name it was set by, for messages
    language: str = "ru"
    log_level: str = "INFO"
    base_url: str | None = None
    base_file_url: str | None = None
    group_interval: float = 4.0
    private_interval: float = 1.0
    group_rate_per_minute: int = 20
    overall_rate_per_second: int = 30
    # A group's ephemeral calls a minute (players' screens in the group, ``bot.places``):
    # Telegram does not say whether they count against the group's ~20, so few.
    ephemeral_per_minute: int = 60
    # Seconds between edits of a waiting player's screen in their private chat: the others'
    # play coalesces meanwhile; their prompt goes at once (0: as often as the chat allows).
    live_interval: float = 8.0
    poll_timeout: int = 30
    timer_minute: float = 60.0  # seconds in a turn-timer "minute" (tests and demos shorten it)
    # A player who has had their turn this long without pressing gets their screen anew, as a
    # new message (Telegram notifies new messages, not edits); 0 turns it off.
    turn_notice_seconds: float = 10.0
    # A fixed shuffle for reproducible runs (tests comparing releases); never from the
    # environment: real tables are always shuffled fairly (``games.core.fair``).
    shuffle_seed: int | None = None
    # Seconds between two hand records (/pbn) one chat may have built: one at a time per chat,
    # so a flood of record requests cannot keep the bot busy for every other group.
    record_pause: float = 10.0
    # Robots: the pause before a robot's call or card (so people see each one), the seconds a
    # robot may think over a card, and the processes they think in (0: one per CPU but the
    # first, which is kept for the people).
    robot_delay: float = 1.0
    robot_budget: float = 1.0
    robot_workers: int = 0
    # Robots think on workers anywhere (``python -m bot.thinker``) through a task queue in this
    # PostgreSQL database instead of in processes of the bot's (``bot.thinking``); None: here.
    robot_queue_url: str | None = field(default=None, repr=False)
    # Processes that review finished deals double-dummy for /stats (0: none are reviewed).
    review_workers: int = 1
    # The HTTP client the Bot API is called with: "aiohttp" (the default, chosen by
    # ``bench/load --http``) or "httpx" (PTB's own).
    http_client: str = "aiohttp"
    # PostgreSQL: how often a standby process tries to take over, and the active one checks
    # that it still holds the database's active lock.
    standby_interval: float = 1.0
    # PostgreSQL: with 2 or more, every process started on the database is active and serves
    # its share of this many shards of the groups (``bot.shards``); 0: one active process and
    # standbys.
    shards: int = 0
    # Webhook mode (instead of long polling) when ``webhook_url`` is set: Telegram posts
    # updates there with ``webhook_secret`` in a header, checked on every request.
    webhook_url: str | None = None
    webhook_secret: str | None = field(default=None, repr=False)
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8080
    webhook_idle_seconds: float = 10.0  # a webhook connection idle this long is closed
    # The key the deals' server seeds are drawn from (``games.core.fair``). Unset, it is
    # drawn from the token, so the seeds committed to before a deal stay the same across a
    # restart; set it to keep them across a change of token.
    fair_secret: str | None = field(default=None, repr=False)
    # The running bot's sign of life for ``python -m bot health`` (None: not written).
    heartbeat: HeartbeatSettings | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        source = os.environ if env is None else env
        token = source.get("BOT_TOKEN", "").strip()
        if not token:
            raise ConfigError("BOT_TOKEN is not set: put your bot's token in the environment")
        level = source.get("LOG_LEVEL", "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(
                f"LOG_LEVEL={level[:20]!r} is not a log level: use one of {', '.join(LOG_LEVELS)}"
            )
        database, setting = database_from_env(source)
        webhook_url = source.get("WEBHOOK_URL", "").strip() or None
        webhook_secret = source.get("WEBHOOK_SECRET", "").strip() or None
        if webhook_url is not None:
            if not webhook_url.startswith(("https://", "http://")):
                raise ConfigError("WEBHOOK_URL must be the https:// address Telegram posts to")
            if webhook_secret is None:
                # Telegram sends back whatever is set: a fresh one each start does the job.
                webhook_secret = secrets.token_urlsafe(32)
            if not SECRET.fullmatch(webhook_secret):
                raise ConfigError(
                    "WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -"
                )
        shards = _whole(source, "SHARDS", 0, most=4096)
        if shards == 1:
            shards = 0  # one shard is one active process
        if shards and not is_postgres(database):
            raise ConfigError("SHARDS needs a PostgreSQL database (DATABASE_URL=postgresql://…)")
        if shards and webhook_url is not None:
            raise ConfigError("SHARDS works with long polling: unset WEBHOOK_URL")
        return cls(
            token=token,
            database=database,
            database_setting=setting,
            language=_choice(source, "BRIDGE_LANGUAGE", "ru", LANGUAGES),
            log_level=level,
            base_url=source.get("BOT_API_BASE_URL") or None,
            base_file_url=source.get("BOT_API_BASE_FILE_URL") or None,
            group_interval=_number(source, "GROUP_EDIT_INTERVAL", 4.0),
            private_interval=_number(source, "PRIVATE_EDIT_INTERVAL", 1.0),
            group_rate_per_minute=_whole(source, "GROUP_RATE_PER_MINUTE", 20, least=1),
            overall_rate_per_second=_whole(source, "OVERALL_RATE_PER_SECOND", 30, least=1),
            ephemeral_per_minute=_whole(source, "EPHEMERAL_PER_MINUTE", 60, least=1),
            live_interval=_number(source, "LIVE_SCREEN_SECONDS", 8.0),
            poll_timeout=_whole(source, "POLL_TIMEOUT", 30),
            timer_minute=_number(source, "TURN_TIMER_MINUTE_SECONDS", 60.0, positive=True),
            turn_notice_seconds=_number(source, "TURN_NOTICE_SECONDS", 10.0),
            robot_delay=_number(source, "ROBOT_DELAY_SECONDS", 1.0),
            robot_budget=_number(source, "ROBOT_SECONDS_PER_CARD", 1.0, positive=True),
            robot_workers=_whole(source, "ROBOT_WORKERS", 0),
            robot_queue_url=robot_queue_from_env(source),
            review_workers=_whole(source, "REVIEW_WORKERS", 1, most=8),
            http_client=_choice(source, "BOT_API_CLIENT", "aiohttp", HTTP_CLIENTS),
            standby_interval=_number(source, "STANDBY_CHECK_SECONDS", 1.0, positive=True),
            shards=shards,
            webhook_url=webhook_url,
            webhook_secret=webhook_secret,
            webhook_listen=source.get("WEBHOOK_LISTEN", "0.0.0.0"),
            webhook_port=_whole(source, "WEBHOOK_PORT", 8080, least=1, most=65535),
            webhook_idle_seconds=_number(source, "WEBHOOK_IDLE_SECONDS", 10.0, positive=True),
            heartbeat=heartbeat_from_env(source, database),
            fair_secret=fair_secret_from_env(source),
        )

    @property
    def fair_key(self) -> bytes:
        """The key deals' seeds come from: ``FAIR_SECRET``'s, or one drawn from the token
        (a one-way hash: a revealed seed tells nothing of either)."""
        if self.fair_secret is not None:
            return hashlib.sha256(self.fair_secret.encode()).digest()
        return hmac.new(self.token.encode(), b"fair-v1|key", hashlib.sha256).digest()

    @property
    def secrets(self) -> tuple[str, ...]:
        """What no log line or message may hold besides the token: the webhook's secret and
        the passwords of the database and the robots' queue."""
        found = (
            self.webhook_secret,
            database_password(self.database),
            database_password(self.robot_queue_url or ""),
            self.fair_secret,
        )
        return tuple(s for s in found if s)


def _number(source: Mapping[str, str], name: str, default: float, positive: bool = False) -> float:
    """A setting in seconds: a number, 0 or more (more than 0 where 0 means nothing)."""
    text = source.get(name, "").strip()
    if not text:
        return default
    what = "a number of seconds above 0" if positive else "a number of seconds, 0 or more"
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise ConfigError(f"{name}={text[:20]!r} is not {what} (for example {default:g})")
    return value


def _whole(
    source: Mapping[str, str], name: str, default: int, least: int = 0, most: int | None = None
) -> int:
    """A whole-number setting within its range."""
    text = source.get(name, "").strip()
    if not text:
        return default
    accepted = f"a whole number from {least}" + (f" to {most}" if most is not None else " up")
    try:
        value = int(text)
    except ValueError:
        raise ConfigError(f"{name}={text[:20]!r} is not {accepted}") from None
    if value < least or (most is not None and value > most):
        raise ConfigError(f"{name}={text[:20]!r} is not {accepted}")
    return value


HTTP_CLIENTS = ("aiohttp", "httpx")


FAIR_BITS = 256  # a FAIR_SECRET worth at least 32 random bytes


def secret_bits(text: str) -> float:
    """How many random bits ``text`` can hold at most, by the alphabet it is written in (hex,
    base64, anything printable): a short or repetitive text is guessable, and with it every
    deal's seed.

    >>> round(secret_bits("ab" * 32)), round(secret_bits("0123456789abcdef" * 4))
    (0, 256)
    """
    if len(set(text)) < 8:
        return 0.0
    if all(c in "0123456789abcdefABCDEF" for c in text):
        alphabet = 16
    elif all(c.isascii() and (c.isalnum() or c in "+/=-_") for c in text):
        alphabet = 64
    else:
        alphabet = 94
    return len(text) * math.log2(alphabet)


def fair_secret_from_env(source: Mapping[str, str]) -> str | None:
    """``FAIR_SECRET``, refused in one line if it is too short to keep the seeds unguessable."""
    secret = source.get("FAIR_SECRET", "").strip()
    if not secret:
        return None
    if secret_bits(secret) < FAIR_BITS:
        raise ConfigError(
            "FAIR_SECRET is too weak to keep the deals' seeds unguessable: give it 32 random "
            "bytes, for example the 64 characters of "
            "python3 -c 'import secrets; print(secrets.token_hex(32))'"
        )
    return secret


def _choice(source: Mapping[str, str], name: str, default: str, accepted: tuple[str, ...]) -> str:
    text = source.get(name, "").strip().lower()
    if not text:
        return default
    if text not in accepted:
        raise ConfigError(f"{name}={text[:20]!r} is not one of {', '.join(accepted)}")
    return text


def database_from_env(source: Mapping[str, str]) -> tuple[str, str]:
    """The database and the setting that named it. ``BRIDGE_DB``, its name before PostgreSQL,
    stays an alias of ``DATABASE_URL``. A URL of a scheme we do not speak is refused here, by
    its scheme alone: taken for a SQLite path, its password would be printed as a file name."""
    if source.get("DATABASE_URL"):
        database, setting = source["DATABASE_URL"], "DATABASE_URL"
    elif source.get("BRIDGE_DB"):
        database, setting = source["BRIDGE_DB"], "BRIDGE_DB"
    else:  # neither: the default file, named by the setting that is documented now
        database, setting = "bridge.sqlite3", "DATABASE_URL"
    scheme, sep, _ = database.partition("://")
    if sep and scheme.lower() not in DATABASE_SCHEMES:
        named = repr(scheme) if URL_SCHEME.fullmatch(scheme) else "that URL's scheme"
        raise ConfigError(
            f"{setting}: {named} is not a database I can use: give a SQLite file "
            "(bridge.sqlite3, sqlite:///bridge.sqlite3) or postgresql://…"
        )
    return database, setting


def robot_queue_from_env(source: Mapping[str, str]) -> str | None:
    """``ROBOT_QUEUE_URL``: the PostgreSQL database robot workers take thoughts from (None:
    robots think in the bot's own processes). Anything else is refused by its scheme alone."""
    url = source.get("ROBOT_QUEUE_URL", "").strip()
    if not url:
        return None
    scheme, sep, _ = url.partition("://")
    if not sep or scheme.lower() not in ("postgresql", "postgres"):
        raise ConfigError("ROBOT_QUEUE_URL must be a postgresql://… address (or unset)")
    return url


def heartbeat_from_env(source: Mapping[str, str], database: str) -> HeartbeatSettings:
    """Where the running bot beats and how often (``HEARTBEAT_FILE``, ``HEARTBEAT_SECONDS``):
    read alike by the bot and by its health check."""
    return HeartbeatSettings(
        heartbeat_path(source.get("HEARTBEAT_FILE", "").strip(), database),
        _number(source, "HEARTBEAT_SECONDS", 10.0, positive=True),
    )


def database_password(database: str) -> str | None:
    """The password in a database URL, if it has one."""
    if "://" not in database:
        return None
    try:
        return urlsplit(database).password
    except ValueError:
        return None
