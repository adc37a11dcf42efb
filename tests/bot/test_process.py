"""The real ``python -m bot`` process: the token never appears in anything it writes, at any
log level (not when Telegram rejects it, not in DEBUG lines, not at shutdown), and a SIGTERM
sends what was queued before the process exits."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.bot.harness import GROUP, PLAYERS
from tests.fakeapi import FakeBotApi

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456:SECRET-part-of-the-token-xyz"


async def run_bot(
    api: FakeBotApi,
    tmp_path: Path,
    seconds: float,
    level: str = "DEBUG",
    extra: dict[str, str] | None = None,
) -> tuple[int | None, str]:
    env = {
        **os.environ,
        "BOT_TOKEN": TOKEN,
        "BOT_API_BASE_URL": api.base_url,
        "BRIDGE_DB": str(tmp_path / "secret.sqlite3"),
        "LOG_LEVEL": level,
        "POLL_TIMEOUT": "1",
        **(extra or {}),
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 30)
    assert process.stdout is not None
    output = (await process.stdout.read()).decode()
    return process.returncode, output


async def test_a_rejected_token_is_never_printed(api: FakeBotApi, tmp_path: Path) -> None:
    """PTB quotes a rejected token in its exception and logs it with the traceback."""
    api.reject_token = True
    for level in ("DEBUG", "INFO"):
        code, output = await run_bot(api, tmp_path, 60, level)
        assert code == 2, output
        assert output.rstrip().endswith("check it with @BotFather")
        assert "rejected" in output and "<token>" in output  # the quote was there, masked
        assert "SECRET" not in output


async def test_debug_logs_never_hold_the_token(api: FakeBotApi, tmp_path: Path) -> None:
    code, output = await run_bot(api, tmp_path, 4)
    assert "DEBUG" in output and "getUpdates" in output  # it did log, verbosely
    assert "SECRET" not in output, [line for line in output.splitlines() if "SECRET" in line][:3]
    assert code == 0, output[-2000:]


async def test_replies_queued_at_sigterm_are_sent_before_exit(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """SIGTERM while replies wait out the group's pacing (3 s apart here): they all arrive."""
    task = asyncio.create_task(run_bot(api, tmp_path, 8, "INFO", {"GROUP_EDIT_INTERVAL": "3"}))
    for _ in range(200):  # the bot is up once it asks for updates
        if any(c.method == "setMyCommands" for c in api.calls):
            break
        await asyncio.sleep(0.05)
    for text in ("/bridge", "/help", "/score", "/ledger"):
        await api.send_text(PLAYERS[0], GROUP, text)
    for _ in range(200):  # the first reply is out: the others wait in the outbox
        if api.chat_messages(GROUP):
            break
        await asyncio.sleep(0.05)
    code, output = await task
    assert code == 0, output[-2000:]
    assert len(api.chat_messages(GROUP)) == 4, output[-2000:]
    assert "not initialized" not in output
