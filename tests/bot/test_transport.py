"""The Bot API transport: SlimUpdates drops only the keyboards of messages under pressed
buttons, and both HTTP clients keep PTB's request contract."""

from __future__ import annotations

import asyncio
import time

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import BadRequest, NetworkError, TimedOut
from telegram.request import BaseRequest, HTTPXRequest

from bot.config import HTTP_CLIENTS
from bot.transport import AiohttpRequest, Fenced, Handling, SlimUpdates
from tests.fakeapi import FakeBotApi, User


@pytest.mark.parametrize("fenced", [False, True])
async def test_a_poll_drops_the_pressed_messages_keyboard_and_nothing_else(
    api: FakeBotApi, fenced: bool
) -> None:
    """PTB reads a poll's reply through ``SlimUpdates``, alone or inside ``Fenced`` (as on
    PostgreSQL): the message under a pressed button comes without its keyboard, the rest of
    the update as Telegram sent it, and the update is counted as handed over (the next poll
    waits for it: a process killed with it in hand leaves it to its successor)."""
    handling = Handling()
    slimmed: BaseRequest = SlimUpdates(AiohttpRequest(connection_pool_size=1), handling)
    if fenced:
        slimmed = Fenced(slimmed, lambda: True)
    bot = Bot(api.token, base_url=api.base_url, get_updates_request=slimmed)
    await bot.initialize()
    try:
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("1♣", callback_data="b:1C")]])
        await bot.send_message(101, "hand «7»", reply_markup=keyboard)
        sent = api.chat_messages(101)[-1]
        await api.press(User(101, "Анна"), sent, "b:1C")
        await api.send_text(User(102, "Bob"), 102, "/start")
        updates = await bot.get_updates(timeout=0)
        assert [u.update_id for u in updates] == [1, 2]
        query = updates[0].callback_query
        assert query is not None and query.message is not None and query.data == "b:1C"
        assert query.message.reply_markup is None and query.message.text == "hand «7»"
        assert query.from_user.first_name == "Анна"
        assert updates[1].message is not None and updates[1].message.text == "/start"
        assert not handling._idle.is_set()  # handed over, not yet handled
        handling.done(1)
        handling.done(2)
        await asyncio.wait_for(handling.settled(), 0.05)
    finally:
        await bot.shutdown()


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
    """The aiohttp client sends a call without a file as one JSON body, its fields as they are
    (a keyboard as an object; HTML and any script arrive as sent), a file as a form."""
    bot = Bot(api.token, base_url=api.base_url, request=AiohttpRequest(connection_pool_size=4))
    await bot.initialize()
    try:
        before = api.json_bodies
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("♠ Пики «7»", callback_data="a:1")]])
        await bot.send_message(101, "<b>Привет</b> ♠ \u202eمرحبا", "HTML", reply_markup=keyboard)
        assert api.json_bodies == before + 1
        assert api.json_in_json == 0  # the keyboard came as an object, not a string of JSON
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
