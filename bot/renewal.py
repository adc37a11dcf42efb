"""Renewing a lease on a thread of its own, so that a busy bot keeps it.

At saturation the bot's event loop has hundreds of presses ready to run, and a renewal awaited
there waits its turn behind them: ``bench.load --think 0 --postgres`` at 300 tables saw the
renewal take more than its two seconds, and the active process left with its tables (and came
back as a standby). The renewal's round trip is the process's sign of life, not the loop's
queue, so it runs here, with its own connection and its own loop, every ``interval``.

A loop that is stuck rather than busy (a handler that never yields) must still be replaced: the
main loop stamps the time every ``interval``, and the thread stops renewing once no stamp has
come for ``HUNG_S`` seconds (far longer than a busy loop's lag). A process frozen whole
(SIGSTOP, a paused VM) stops this thread too. A renewal that fails calls ``lost`` (which
leaves the process) from this thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import asyncpg

log = logging.getLogger(__name__)

HUNG_S = 10.0  # no stamp from the main loop for this long: it is stuck, the lease goes
LOST_LEASE_EXIT = 75  # EX_TEMPFAIL: a supervisor restarts it, and it waits as a standby


class Renewal:
    """Calls ``renew(conn)`` every ``interval`` on a thread with a connection to ``url``."""

    def __init__(
        self,
        url: str,
        interval: float,
        renew: Callable[[Any], Awaitable[None]],
        lost: Callable[[BaseException], None],
    ) -> None:
        self.url = url
        self.interval = interval
        self._renew = renew
        self._lost = lost
        self._stamp = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._stamper: asyncio.TimerHandle | None = None

    def start(self) -> None:
        loop = asyncio.get_running_loop()

        def stamp() -> None:
            self._stamp = time.monotonic()
            self._stamper = loop.call_later(self.interval, stamp)

        stamp()
        self._thread = threading.Thread(target=self._run, name="lease-renewal", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.run(self._keep())

    async def _keep(self) -> None:
        conn = None
        try:
            conn = await asyncpg.connect(self.url, timeout=10)
            while not self._stop.wait(self.interval):
                if time.monotonic() - self._stamp > HUNG_S:
                    raise TimeoutError(f"the event loop has not run for {HUNG_S:g} s")
                await self._renew(conn)
        except BaseException as exc:  # any failure: the lease may be someone else's now
            if not self._stop.is_set():
                self._lost(exc)
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close(timeout=5)

    def stop(self) -> None:
        """No more renewals (the lease is let go next)."""
        self._stop.set()
        if self._stamper is not None:
            self._stamper.cancel()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None


class Renewable(Protocol):
    """A lock renewed by time: the single lease, or a member's row among several."""

    url: str
    ttl: float

    async def renew(self, timeout: float, conn: Any = None) -> None: ...


def renewing(lock: Renewable, interval: float, lost: str) -> Renewal:
    """``lock`` renewed every ``interval`` (each try given half its time); a renewal that
    fails leaves the process at once, ``lost`` saying why in its last log line."""

    def leave(exc: BaseException) -> None:
        log.critical("%s (%r)", lost, exc)
        logging.shutdown()
        os._exit(LOST_LEASE_EXIT)

    return Renewal(lock.url, interval, lambda conn: lock.renew(lock.ttl / 2, conn), leave)
