"""Worker processes (robots, analysis, reviews) that die with the bot.

A bot SIGKILLed (a crash, a failover) leaves its spawned workers running: they inherit its
standard output and keep that pipe open, so whatever waits for the bot to end (a supervisor, a
test) waits for ever, and each restart adds more. Each worker asks Linux to kill it when its
parent dies (``PR_SET_PDEATHSIG``), and leaves at once if the parent is already gone. Only the
standard library here: a spawned worker imports this module before anything else.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1
IDLE, NICE = "idle", "nice"  # how low a worker runs: Linux's idle class, or niceness 19


def _start(parent: int, priority: str) -> None:
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the bot died before the line above
        os._exit(0)
    if priority:
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, 0, 19)
    if priority == IDLE:
        with contextlib.suppress(OSError, AttributeError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def worker_pool(workers: int, priority: str | None = None) -> ProcessPoolExecutor:
    """Spawned workers (a fork of a process with running threads, SQLite's and the loop's, is
    unsafe) that die with this process; ``priority``: lower than the bot's, or as it is."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=_start,
        initargs=(os.getpid(), priority or ""),
    )
