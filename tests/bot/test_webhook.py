"""Webhook mode: with ``WEBHOOK_URL`` the real process serves updates over HTTP, as Telegram
posts them (the fake Bot API delivers there once the bot has set its webhook), and a request
without the right secret is refused and changes nothing."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path
from typing import Any

from aiohttp import ClientSession

from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS
from tests.bot.processes import BotProcess
from tests.fakeapi import FakeBotApi

SECRET = "club-secret_42"
OTHER_GROUP = -4242


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _eventually(check: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _update(update_id: int, chat: int, text: str) -> dict[str, Any]:
    user = PLAYERS[1].to_dict()
    return {
        "update_id": update_id,
        "message": {
            "message_id": 77,
            "date": int(time.time()),
            "chat": {"id": chat, "type": "supergroup", "title": "Strangers"},
            "from": user,
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
        },
    }


async def test_updates_come_by_webhook_and_a_wrong_secret_is_refused(
    api: FakeBotApi, tmp_path: Path
) -> None:
    port = _port()
    url = f"http://127.0.0.1:{port}/telegram/hook"
    database = tmp_path / "bot.sqlite3"
    bot = await BotProcess.start(
        api,
        str(database),
        "webhook",
        {"WEBHOOK_URL": url, "WEBHOOK_SECRET": SECRET, "WEBHOOK_LISTEN": "127.0.0.1",
         "WEBHOOK_PORT": str(port), "LOG_LEVEL": "DEBUG"},
    )  # fmt: skip
    try:
        await _eventually(lambda: api.webhook is not None)
        assert api.webhook == (url, SECRET)
        assert not any(c.method == "getUpdates" for c in api.calls)  # no polling beside it
        # A player's command, delivered by "Telegram" through the webhook: the table opens.
        await api.send_text(PLAYERS[0], GROUP, "/bridge")
        await _eventually(lambda: any("🃏" in m.text for m in api.chat_messages(GROUP)))
        assert 200 in api.webhook_answers
        sends = len(api.calls)

        # Forged posts: no secret, a wrong one, a right one on another path. None is applied.
        async with ClientSession() as session:
            for headers, path in (
                ({}, url),
                ({"X-Telegram-Bot-Api-Secret-Token": "guess"}, url),
                ({"X-Telegram-Bot-Api-Secret-Token": SECRET.upper()}, url),
                ({"X-Telegram-Bot-Api-Secret-Token": SECRET}, url + "x"),
            ):
                body = _update(900_000 + len(headers), OTHER_GROUP, "/bridge")
                async with session.post(path, json=body, headers=headers) as response:
                    assert response.status in (403, 404), (headers, path, response.status)
        await asyncio.sleep(1.0)
        assert not api.calls_to(OTHER_GROUP)
        assert len(api.calls) == sends
        # The right secret from anyone but Telegram would be applied: it is the secret's job.
        async with (
            ClientSession() as session,
            session.post(
                url,
                json=_update(900_100, OTHER_GROUP, "/help"),
                headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
            ) as response,
        ):
            assert response.status == 200
        await _eventually(lambda: bool(api.calls_to(OTHER_GROUP)))
    finally:
        code = await bot.stop()
    assert code == 0, "".join(bot.lines)
    assert api.token not in "".join(bot.lines) and SECRET not in "".join(bot.lines)
    store = await SqliteStorage.open(str(database))
    try:
        opened = await store.chat_by_tg(OTHER_GROUP)
        assert opened is None or await store.table_in(opened.id, None) is None
        group = await store.chat_by_tg(GROUP)
        assert group is not None and await store.table_in(group.id, None) is not None
    finally:
        await store.close()


async def test_a_generated_webhook_secret_is_never_logged(api: FakeBotApi, tmp_path: Path) -> None:
    """No WEBHOOK_SECRET: the bot makes one each start and gives it to Telegram in setWebhook,
    a call PTB logs at DEBUG; the secret is masked there as the token is."""
    port = _port()
    url = f"http://127.0.0.1:{port}/hook"
    bot = await BotProcess.start(
        api,
        str(tmp_path / "bot.sqlite3"),
        "webhook",
        {"WEBHOOK_URL": url, "WEBHOOK_LISTEN": "127.0.0.1", "WEBHOOK_PORT": str(port),
         "LOG_LEVEL": "DEBUG"},
    )  # fmt: skip
    try:
        await _eventually(lambda: api.webhook is not None)
        await bot.until("ready")
    finally:
        code = await bot.stop()
    assert api.webhook is not None
    secret = api.webhook[1]
    output = "".join(bot.lines)
    assert code == 0 and "DEBUG" in output and "setWebhook" in output, output[-2000:]
    assert len(secret) >= 32 and secret not in output


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


async def _raw_post(port: int, headers: dict[str, str], body_size: int) -> tuple[str, int]:
    """A POST written by hand: its headers first, then (unless the server has answered on the
    headers alone, as a guarded one does) its body. Returns the status line and how many body
    bytes went out before the server answered or closed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    writer.write(f"POST /hook HTTP/1.1\r\nHost: x\r\n{head}\r\n".encode())
    await writer.drain()
    try:
        status = (await asyncio.wait_for(reader.readline(), 1.0)).decode().strip()
    except TimeoutError:
        status = ""
    sent = 0
    chunk = b"x" * (1 << 20)
    try:
        while sent < body_size:
            writer.write(chunk)
            await asyncio.wait_for(writer.drain(), 2)
            sent += len(chunk)
    except (ConnectionError, TimeoutError):
        pass
    writer.close()
    return status, sent


async def test_the_webhook_judges_a_post_by_its_headers_and_drops_idle_connections(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A stranger's 60 MB post without the secret is refused on its headers (the body is not
    read: the bot's memory stays where it was); a body over 1 MiB is refused even with the
    secret; idle connections are closed, and the ones over the cap at once, while Telegram's
    deliveries go on."""
    port = _port()
    bot = await _webhook_bot(api, tmp_path, port, {"WEBHOOK_IDLE_SECONDS": "1"})
    try:
        pid = bot.process.pid
        before = _rss_kb(pid)
        json_headers = {"Content-Type": "application/json"}
        for _ in range(3):
            big = {**json_headers, "Content-Length": str(60 << 20)}
            status, _ = await _raw_post(port, big, 60 << 20)
            assert status.startswith("HTTP/1.1 403"), status
        assert _rss_kb(pid) - before < 20_000, (before, _rss_kb(pid))
        with_secret = {**json_headers, "X-Telegram-Bot-Api-Secret-Token": SECRET}
        status, _ = await _raw_post(port, {**with_secret, "Content-Length": str(5 << 20)}, 5 << 20)
        assert status.startswith("HTTP/1.1 413"), status
        status, _ = await _raw_post(port, with_secret, 0)  # no length at all
        assert status.startswith(("HTTP/1.1 411", "HTTP/1.1 400")), status

        # Idle connections: over the cap closed at once, the rest after the idle timeout.
        idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(300)]
        await asyncio.sleep(0.3)
        closed_at_once = sum(1 for r, _ in idle if r.at_eof())
        await api.send_text(PLAYERS[0], GROUP, "/bridge")  # Telegram still gets through
        await _eventually(lambda: any("🃏" in m.text for m in api.chat_messages(GROUP)), 20)
        await asyncio.sleep(2.0)
        ends = await asyncio.gather(
            *(asyncio.wait_for(r.read(), 3) for r, _ in idle), return_exceptions=True
        )
        assert all(end == b"" for end in ends), [e for e in ends if e != b""][:3]
        for _, writer in idle:
            writer.close()
        assert closed_at_once >= 300 - 256 - 5, closed_at_once
    finally:
        code = await bot.stop()
    assert code == 0, "".join(bot.lines)[-3000:]
    assert SECRET not in "".join(bot.lines)


async def test_held_idle_connections_do_not_delay_telegrams_deliveries(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A stranger holds 300 idle connections open (more than the cap) with the production
    idle timeout: Telegram's next delivery is taken at once, not after the idle ones time out."""
    port = _port()
    bot = await _webhook_bot(api, tmp_path, port)
    try:
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(300)]
        await asyncio.sleep(0.3)
        began = time.monotonic()
        await api.send_text(PLAYERS[0], GROUP, "/bridge")
        await _eventually(lambda: any("🃏" in m.text for m in api.chat_messages(GROUP)), 20)
        assert time.monotonic() - began < 3.0
        for _, writer in held:
            writer.close()
    finally:
        code = await bot.stop()
    assert code == 0, "".join(bot.lines)[-3000:]


async def _webhook_bot(
    api: FakeBotApi, tmp_path: Path, port: int, extra: dict[str, str] | None = None
) -> BotProcess:
    """The bot serving its webhook on ``port``, once it listens there."""
    bot = await BotProcess.start(
        api,
        str(tmp_path / "bot.sqlite3"),
        "webhook",
        {"WEBHOOK_URL": f"http://127.0.0.1:{port}/hook", "WEBHOOK_SECRET": SECRET,
         "WEBHOOK_LISTEN": "127.0.0.1", "WEBHOOK_PORT": str(port), **(extra or {})},
    )  # fmt: skip
    await _eventually(lambda: api.webhook is not None)
    await bot.until("ready")
    # PTB registers the webhook, then starts listening: wait for the port, not the log.
    await _eventually(lambda: _listening(port))
    return bot
