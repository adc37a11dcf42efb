"""The running bot's sign of life, for ``python -m bot health``: a database that answers says
nothing of a bot that hung or never started, so the bot itself writes a small file every
``HEARTBEAT_SECONDS`` from its event loop, after asking its database a trivial question. A
health check finds the file fresh (three beats at most) or calls the bot unhealthy.

The file is the process's own: by default in the temporary folder, named after the database,
so that the health check run beside the bot (same environment) finds it and two bots on one
machine, each with its own database, do not share one. A standby writes it too: it is alive
and waiting."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

BEATS_MISSED = 3  # a file older than this many beats: the bot is hung or gone


@dataclass(frozen=True, slots=True)
class HeartbeatSettings:
    path: Path
    interval: float

    @property
    def max_age(self) -> float:
        return BEATS_MISSED * self.interval


def heartbeat_path(named: str, database: str) -> Path:
    """``HEARTBEAT_FILE`` if set, else a file in the temporary folder named after the
    database."""
    if named:
        return Path(named)
    digest = hashlib.sha256(database.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"bridge-bot-{digest}.heartbeat"


def heartbeat_age(settings: HeartbeatSettings) -> float | None:
    """Seconds since the last beat, or None when there is no readable beat."""
    try:
        stamp = float(settings.path.read_text(encoding="ascii").split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return max(0.0, time.time() - stamp)


class Heartbeat:
    """Beats while the bot's loop runs and its database answers (``ping``, once storage is
    open); the file is removed when the bot stops, so a stopped bot is unhealthy at once."""

    def __init__(self, settings: HeartbeatSettings) -> None:
        self.settings = settings
        self.ping: Callable[[], Awaitable[object]] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(OSError):
            self.settings.path.unlink()

    async def _run(self) -> None:
        warned = False
        while True:
            try:
                if self.ping is not None:
                    await self.ping()
                self._write()
                warned = False
            except Exception as exc:  # a missed beat is what the health check sees
                if not warned:
                    log.warning("heartbeat missed: %s", type(exc).__name__)
                    warned = True
            await asyncio.sleep(self.settings.interval)

    def _write(self) -> None:
        path = self.settings.path
        partial = path.with_name(path.name + ".partial")
        partial.write_text(f"{os.getpid()} {time.time():.3f}\n", encoding="ascii")
        os.replace(partial, path)
