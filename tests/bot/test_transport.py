"""The Bot API transport: SlimUpdates drops only the keyboards of messages under pressed
buttons, and both HTTP clients keep PTB's request contract."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import BadRequest, NetworkError, TimedOut
from telegram.request import BaseRequest, HTTPXRequest

from bot.config import HTTP_CLIENTS
from bot.transport import AiohttpRequest, Handling, slim
from tests.fakeapi import FakeBotApi


def test_slim_drops_the_pressed_messages_keyboard_and_nothing_else() -> None:
    keyboard = {"inline_keyboard": [[{"text": "1♣", "callback_data": "b1:1:1:c:1C"}]]}
    body = {
        "ok": True,
        "result": [
            {
                "update_id": 1,
                "callback_query": {
                    "id": "q",
                    "data": "b1:1:1:c:1C",
                    "message": {"message_id": 5, "text": "hand", "reply_markup": keyboard},
                },
            },
            {"update_id": 2, "message": {"message_id": 6, "text": "/x", "reply_markup": keyboard}},
        ],
    }
    out = json.loads(slim(json.dumps(body).encode())[0])
    query = out["result"][0]["callback_query"]
    assert "reply_markup" not in query["message"] and query["data"] == "b1:1:1:c:1C"
    assert query["message"]["text"] == "hand"
    assert out["result"][1] == body["result"][1]
    error = json.dumps({"ok": False, "error_code": 409}).encode()
    assert slim(error) == (error, [])


async def test_a_poll_waits_for_the_updates_it_would_confirm_and_no_longer() -> None:
    """The next getUpdates confirms every update handed over before it: it waits until they
    are handled, goes at once when they are (or none were), and at most ``HOLD_S``."""
    handling = Handling()
    handling.HOLD_S = 0.3
    await asyncio.wait_for(handling.settled(), 0.05)  # nothing handed over
    handling.taken([7, 8])
    waiting = asyncio.create_task(handling.settled())
    await asyncio.sleep(0.05)
    handling.done(7)
    await asyncio.sleep(0.02)
    assert not waiting.done()  # 8 is still being handled
    handling.done(8)
    await asyncio.wait_for(waiting, 0.05)
    handling.taken([9])  # a handler that takes too long is not waited for
    start = time.monotonic()
    await handling.settled()
    assert 0.25 < time.monotonic() - start < 1.0


async def test_calls_go_as_json_bodies_and_files_as_forms(api: FakeBotApi) -> None:
    """The aiohttp client sends a call without a file as one JSON body (nested keyboards, HTML
    and any script arrive as sent), a file as a form."""
    bot = Bot(api.token, base_url=api.base_url, request=AiohttpRequest(connection_pool_size=4))
    await bot.initialize()
    try:
        before = api.json_bodies
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("♠ Пики «7»", callback_data="a:1")]])
        await bot.send_message(101, "<b>Привет</b> ♠ \u202eمرحبا", "HTML", reply_markup=keyboard)
        assert api.json_bodies == before + 1
        sent = api.chat_messages(101)[-1]
        assert sent.text == "<b>Привет</b> ♠ \u202eمرحبا"
        assert sent.buttons() == [{"text": "♠ Пики «7»", "callback_data": "a:1"}]
        await bot.send_photo(101, InputFile(b"\x89PNG" + bytes(64), filename="p.png"))
        assert api.json_bodies == before + 1  # the upload went as a form
        assert api.chat_messages(101)[-1].upload is not None
    finally:
        await bot.shutdown()


def _client(name: str, **timeouts: float) -> BaseRequest:
    if name == "httpx":
        return HTTPXRequest(connection_pool_size=4, **timeouts)
    return AiohttpRequest(connection_pool_size=4, **timeouts)


@pytest.mark.parametrize("name", HTTP_CLIENTS)
async def test_each_bot_api_client_keeps_ptbs_request_contract(api: FakeBotApi, name: str) -> None:
    """Both clients the bot may call Telegram with (``BOT_API_CLIENT``) make the same calls:
    plain and with a file, an error status as PTB's own exception, a slow answer as TimedOut,
    and a server out of reach as NetworkError whose text holds no token."""
    bot = Bot(api.token, base_url=api.base_url, request=_client(name, read_timeout=0.5))
    await bot.initialize()
    try:
        assert (await bot.get_me()).is_bot
        sent = await bot.send_message(101, "<b>Привет</b> ♠", parse_mode="HTML")
        assert api.chat_messages(101)[-1].text == "<b>Привет</b> ♠"
        picture = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
        await bot.send_photo(101, InputFile(picture, filename="pulka.png"), caption="Пуля")
        upload = api.chat_messages(101)[-1].upload
        assert upload is not None and upload.data == picture
        with pytest.raises(BadRequest):
            await bot.edit_message_text("x", chat_id=101, message_id=sent.message_id + 99)
        api.latency = 1.5
        with pytest.raises(TimedOut):
            await bot.send_message(101, "slow")
        api.latency = 0.0
    finally:
        await bot.shutdown()
    port = api.port
    await api.stop()  # nothing listens there now
    request = _client(name)
    gone = Bot(api.token, base_url=f"http://127.0.0.1:{port}/bot", request=request)
    try:
        with pytest.raises(NetworkError) as caught:
            await gone.initialize()  # its first call, getMe
        assert api.token not in str(caught.value)
        assert api.token.split(":")[1] not in repr(caught.value)
    finally:
        await request.shutdown()
