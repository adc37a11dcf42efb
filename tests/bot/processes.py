"""Real ``python -m bot`` processes for the tests that need more than one, or a kill: each one's
output is read as it comes, so a test can wait for a line."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.fakeapi import FakeBotApi

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class BotProcess:
    process: asyncio.subprocess.Process
    name: str
    lines: list[str] = field(default_factory=list)
    _reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(
        cls, api: FakeBotApi, database: str, name: str, extra: dict[str, str] | None = None
    ) -> BotProcess:
        env = {
            **os.environ,
            "BOT_TOKEN": api.token,
            "BOT_API_BASE_URL": api.base_url,
            "DATABASE_URL": database,
            "LOG_LEVEL": "INFO",
            "POLL_TIMEOUT": "1",
            "GROUP_EDIT_INTERVAL": "0",
            "PRIVATE_EDIT_INTERVAL": "0",
            "TURN_NOTICE_SECONDS": "0",
            "STANDBY_CHECK_SECONDS": "0.5",
            **(extra or {}),
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        started = cls(process, name)
        started._reader = asyncio.create_task(started._read())
        return started

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            self.lines.append(line.decode(errors="replace"))

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    async def until(self, text: str, timeout: float = 60.0) -> float:
        """Wait for a line holding ``text``; returns when (monotonic seconds) it was seen."""
        deadline = time.monotonic() + timeout
        while not self.said(text):
            if self.process.returncode is not None or time.monotonic() > deadline:
                raise AssertionError(f"{self.name} never said {text!r}:\n{''.join(self.lines)}")
            await asyncio.sleep(0.02)
        return time.monotonic()

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGKILL)

    async def stop(self, timeout: float = 60.0) -> int:
        """SIGTERM, and the exit code once it has left."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            self.kill()
            code = await self.process.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        return code


@dataclass
class Worker:
    """``python -m bot.thinker``, its lines read as they come."""

    process: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, url: str) -> Worker:
        env = {**os.environ, "ROBOT_QUEUE_URL": url, "LOG_LEVEL": "INFO"}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.thinker", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        worker = cls(process)
        worker.reader = asyncio.create_task(worker._read())
        return worker

    async def _read(self) -> None:
        assert self.process.stdout is not None
        async for line in self.process.stdout:
            self.lines.append(line.decode(errors="replace").rstrip())

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self.reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.reader, 5)


@contextlib.asynccontextmanager
async def workers(url: str, count: int) -> AsyncIterator[list[Worker]]:
    started = [await Worker.start(url) for _ in range(count)]
    try:
        deadline = time.monotonic() + 60
        while not all(w.said("ready") for w in started):
            assert time.monotonic() < deadline, [w.lines for w in started]
            await asyncio.sleep(0.05)
        yield started
    finally:
        for worker in started:
            await worker.stop()
