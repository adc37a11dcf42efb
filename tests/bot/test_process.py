"""The real ``python -m bot`` process: the token never appears in anything it writes, at any
log level (not when Telegram rejects it, not in DEBUG lines, not at shutdown), and a SIGTERM
sends what was queued before the process exits."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.bot.harness import GROUP, PLAYERS
from tests.fakeapi import FakeBotApi
from tests.storage.test_transfer import tool

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "123456:SECRET-part-of-the-token-xyz"


async def start_bot(
    api: FakeBotApi, database: Path, level: str = "DEBUG", extra: dict[str, str] | None = None
) -> asyncio.subprocess.Process:
    """``python -m bot`` against the fake Bot API, its output on one pipe."""
    env = {
        **os.environ,
        "BOT_TOKEN": TOKEN,
        "BOT_API_BASE_URL": api.base_url,
        "BRIDGE_DB": str(database),
        "LOG_LEVEL": level,
        "POLL_TIMEOUT": "1",
        **(extra or {}),
    }
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )


async def run_bot(
    api: FakeBotApi,
    tmp_path: Path,
    seconds: float,
    level: str = "DEBUG",
    extra: dict[str, str] | None = None,
) -> tuple[int | None, str]:
    process = await start_bot(api, tmp_path / "secret.sqlite3", level, extra)
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 30)
    assert process.stdout is not None
    output = (await process.stdout.read()).decode()
    return process.returncode, output


REJECTED = "bridge bot: Telegram rejected BOT_TOKEN; check it with @BotFather"


async def test_a_rejected_token_is_never_printed(api: FakeBotApi, tmp_path: Path) -> None:
    """PTB quotes a rejected token in its exception and logs it with a 50-line traceback: the
    operator gets one line, and the token nowhere, at any level."""
    api.reject_token = True
    for level in ("DEBUG", "INFO"):
        code, output = await run_bot(api, tmp_path, 60, level)
        assert code == 2, output
        assert output.rstrip().endswith(REJECTED)
        assert "SECRET" not in output and "Traceback" not in output
        if level == "INFO":
            assert output.strip().splitlines() == [REJECTED]


async def test_a_bad_log_level_is_one_line(api: FakeBotApi, tmp_path: Path) -> None:
    code, output = await run_bot(api, tmp_path, 30, "LOUD")
    assert code == 2
    assert output.strip().splitlines() == [
        "bridge bot: LOG_LEVEL='LOUD' is not a log level: use one of DEBUG, INFO, WARNING, "
        "ERROR, CRITICAL"
    ]
    assert not api.calls  # nothing was asked of the network


async def test_a_database_folder_that_does_not_exist_is_reported_before_the_network(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """Local settings first: a bad BRIDGE_DB is the line printed, even with a bad token too."""
    api.reject_token = True
    missing = tmp_path / "no-such-folder" / "bot.sqlite3"
    code, output = await run_bot(api, tmp_path, 30, "INFO", {"BRIDGE_DB": str(missing)})
    assert code == 1
    [line] = output.strip().splitlines()
    assert line.startswith("bridge bot: BRIDGE_DB:") and "does not exist" in line, line
    assert not api.calls


async def test_a_bot_api_out_of_reach_at_start_is_waited_for(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A boot-time blip does not leave the bot down: it says so, retries with backoff, and
    starts as soon as the Bot API answers."""
    api.unreachable = True
    env = {
        **os.environ,
        "BOT_TOKEN": TOKEN,
        "BOT_API_BASE_URL": api.base_url,
        "BRIDGE_DB": str(tmp_path / "bot.sqlite3"),
        "LOG_LEVEL": "INFO",
        "POLL_TIMEOUT": "1",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    assert process.stdout is not None
    lines: list[str] = []

    async def until(text: str, times: int = 1) -> None:
        while sum(text in line for line in lines) < times:
            line = await process.stdout.readline()  # type: ignore[union-attr]
            assert line, lines
            lines.append(line.decode())

    try:
        # Two failed attempts (the bot stays up, waiting longer each time), then the Bot API
        # comes back and the bot starts.
        await asyncio.wait_for(until("cannot reach the Bot API; trying again", 2), 120)
        api.unreachable = False
        await asyncio.wait_for(until("ready"), 120)
        # Running: it answers. (A SIGTERM in the instant between "ready" and the first poll
        # is a known hang, reported in the trials issue; this test is about the retries.)
        await api.send_text(PLAYERS[0], PLAYERS[0].id, "/help")
        while not any(call.method == "sendMessage" for call in api.calls):
            await asyncio.sleep(0.05)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            rest = await asyncio.wait_for(process.stdout.read(), 60)
        except TimeoutError:
            process.kill()
            rest = await process.stdout.read()
            raise AssertionError("".join(lines) + rest.decode()) from None
        await asyncio.wait_for(process.wait(), 30)
    output = "".join(lines) + rest.decode()
    assert process.returncode == 0, output
    assert "Traceback" not in output and "SECRET" not in output


async def test_debug_logs_never_hold_the_token(api: FakeBotApi, tmp_path: Path) -> None:
    """Run at DEBUG until it has polled a few times (however long a loaded machine takes to
    start it), then stopped: no line holds the token."""
    process = await start_bot(api, tmp_path / "secret.sqlite3", "DEBUG")
    assert process.stdout is not None
    lines: list[bytes] = []

    async def polled(times: int) -> None:
        while sum(b"getUpdates" in line for line in lines) < times:
            line = await process.stdout.readline()  # type: ignore[union-attr]
            assert line, b"".join(lines)[-2000:]
            lines.append(line)

    try:
        await asyncio.wait_for(polled(3), 120)
    finally:
        process.send_signal(signal.SIGTERM)
        rest, _ = await asyncio.wait_for(process.communicate(), 60)
    output = (b"".join(lines) + rest).decode()
    code = process.returncode
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


async def test_sigterm_the_moment_the_bot_is_ready_stops_it(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A SIGTERM right after "ready" (polling not yet up) used to leave the process hanging:
    PTB's own handler raised into its start-up retry loop. Now it exits at once, every time."""
    for attempt in range(4):
        process = await start_bot(api, tmp_path / f"ready{attempt}.sqlite3", "INFO")
        assert process.stdout is not None
        while b"ready" not in (line := await process.stdout.readline()):
            assert line, "the bot ended before it was ready"
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 15)
        output = (await process.stdout.read()).decode()
        assert process.returncode == 0, output[-2000:]
        assert "SECRET" not in output


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("GROUP_EDIT_INTERVAL", "abc", "a number of seconds, 0 or more"),
        ("GROUP_EDIT_INTERVAL", "-1", "a number of seconds, 0 or more"),
        ("PRIVATE_EDIT_INTERVAL", "nan", "a number of seconds, 0 or more"),
        ("BRIDGE_LANGUAGE", "de", "one of ru, en"),
        ("ROBOT_WORKERS", "-3", "a whole number from 0 up"),
        ("WEBHOOK_PORT", "99999", "a whole number from 1 to 65535"),
        ("ROBOT_SECONDS_PER_CARD", "0", "a number of seconds above 0"),
        ("DATABASE_URL", "mysql://u:pw123@h/db", "'mysql' is not a database I can use"),
        ("ROBOT_QUEUE_URL", "redis://u:pw123@h/0", "must be a postgresql://… address"),
    ],
)
async def test_a_bad_setting_is_one_line_naming_it_before_anything_starts(
    api: FakeBotApi, tmp_path: Path, setting: str, value: str, says: str
) -> None:
    code, output = await run_bot(api, tmp_path, 30, "INFO", {setting: value})
    assert code == 2, output
    [line] = output.strip().splitlines()
    assert line.startswith(f"bridge bot: {setting}") and says in line, line
    assert "pw123" not in output and "SECRET" not in output
    assert not api.calls  # nothing was asked of the network
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nor any database made


async def test_health_is_the_running_bot_not_only_its_database(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """``python -m bot health`` (the image's health check) beside a real bot: healthy while it
    runs, unhealthy while it is frozen (SIGSTOP: a hung bot), healthy again when it goes on,
    and unhealthy as soon as it has stopped."""
    database = tmp_path / "health.sqlite3"
    beat = {"HEARTBEAT_FILE": str(tmp_path / "bot.heartbeat"), "HEARTBEAT_SECONDS": "0.3"}

    async def health() -> tuple[int, str]:
        return await tool(str(database), "health", extra=beat)

    async def until(code: int) -> str:
        for _ in range(300):
            got, output = await health()
            if got == code:
                return output
            await asyncio.sleep(0.1)
        raise AssertionError(f"health never became {code}: {output}")

    assert (await health())[0] == 1  # nothing running yet
    process = await start_bot(api, database, "INFO", beat)
    assert process.stdout is not None
    try:
        while b"ready" not in (line := await process.stdout.readline()):
            assert line, "the bot ended before it was ready"
        await until(0)
        process.send_signal(signal.SIGSTOP)
        await asyncio.sleep(1.0)  # three beats of 0.3 s missed
        assert "hung or gone" in await until(1)
        process.send_signal(signal.SIGCONT)
        await until(0)
    finally:
        process.send_signal(signal.SIGCONT)
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 30)
    assert process.returncode == 0
    code, output = await health()
    assert code == 1 and "not running" in output, output


async def test_a_robot_worker_out_of_reach_of_its_queue_says_so_without_its_password() -> None:
    """``python -m bot.thinker`` with a queue it cannot reach (or no queue) stops with one
    reason, never printing the URL's password."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once the block ends: nobody listens there
    password = "Sh0uldNeverBePrinted"
    for url, code in ((f"postgresql://bot:{password}@127.0.0.1:{port}/q", 1), ("", 2)):
        env = {**os.environ, "ROBOT_QUEUE_URL": url}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.thinker", cwd=ROOT, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        out, _ = await asyncio.wait_for(process.communicate(), 60)
        text = out.decode()
        assert process.returncode == code, text
        assert password not in text
        assert ("stopped" if url else "ROBOT_QUEUE_URL") in text, text


@pytest.mark.parametrize("weak", ["hunter2", "correct horse battery", "ab" * 40, "0123abcd" * 6])
async def test_a_weak_fair_secret_is_refused_in_one_line(
    api: FakeBotApi, tmp_path: Path, weak: str
) -> None:
    """A FAIR_SECRET worth less than 32 random bytes would let players guess every seed: the
    bot refuses to start, in one line that does not print it."""
    code, output = await run_bot(api, tmp_path, 30, "INFO", {"FAIR_SECRET": weak})
    assert code == 2, output
    [line] = output.strip().splitlines()
    assert line.startswith("bridge bot: FAIR_SECRET is too weak"), line
    assert weak not in output
    assert not api.calls
