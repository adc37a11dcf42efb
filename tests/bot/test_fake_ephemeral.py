"""The fake Bot API's rules for ephemeral messages and disabled buttons, taught before the bot
uses them (Bot API 10.2/10.3): called over HTTP as the bot calls it."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import ClientSession

from tests import fakeapi
from tests.fakeapi import BOT_ID, FakeBotApi, User

GROUP = -100
ANNA, BOB = User(701, "Anna", "ru"), User(702, "Bob", "en")


@pytest.fixture
async def call(api: FakeBotApi) -> AsyncIterator[Any]:
    async with ClientSession() as session:

        async def method(name: str, **params: Any) -> dict[str, Any]:
            form = {k: json.dumps(v) if not isinstance(v, str) else v for k, v in params.items()}
            async with session.post(f"{api.base_url}{api.token}/{name}", data=form) as reply:
                body: dict[str, Any] = await reply.json()
                return body

        yield method


def _to(receiver: int, query: str | None = None) -> dict[str, Any]:
    params: dict[str, Any] = {"receiver_user_id": receiver}
    if query is not None:
        params["callback_query_id"] = query
    return params


async def _pressed(api: FakeBotApi, user: User) -> str:
    """``user`` presses a button under an ordinary group message: a query id."""
    sent = (await api._m_sendMessage({"chat_id": GROUP, "text": "table"}))["message_id"]
    return await api.press(user, api.messages[(GROUP, sent)], "b1:1:1:my")


async def test_a_bot_that_is_no_admin_answers_only_a_press_of_the_receiver_in_time(
    api: FakeBotApi, call: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    unasked = await call(
        "sendMessage", chat_id=GROUP, text="x", ephemeral_message_parameters=_to(701)
    )
    assert unasked["error_code"] == 400 and "rights" in unasked["description"]
    query = await _pressed(api, ANNA)
    foreign = await call(
        "sendMessage", chat_id=GROUP, text="x", ephemeral_message_parameters=_to(702, query)
    )
    assert foreign["description"] == "Bad Request: QUERY_ID_INVALID"
    sent = await call(
        "sendMessage", chat_id=GROUP, text="cards", ephemeral_message_parameters=_to(701, query)
    )
    assert sent["ok"], sent
    result = sent["result"]
    assert result["message_id"] == 0 and result["receiver_user"]["id"] == 701
    [shown] = api.visible(ANNA, GROUP)
    assert shown.text == "cards" and not api.visible(BOB, GROUP)
    monkeypatch.setattr(fakeapi, "EPHEMERAL_WINDOW", -1.0)  # the 15 seconds are over
    late = await call(
        "sendMessage", chat_id=GROUP, text="x", ephemeral_message_parameters=_to(701, query)
    )
    assert "timeout expired" in late["description"]


async def test_an_admin_bot_sends_to_any_member_only_in_groups_and_only_the_new_shape(
    api: FakeBotApi, call: Any
) -> None:
    api.bot_admin.add(GROUP)
    assert (await call("getChatMember", chat_id=GROUP, user_id=BOT_ID))["result"][
        "status"
    ] == "administrator"
    sent = await call("sendMessage", chat_id=GROUP, text="x", ephemeral_message_parameters=_to(702))
    assert sent["ok"]
    private = await call(
        "sendMessage", chat_id=702, text="x", ephemeral_message_parameters=_to(702)
    )
    assert "only in groups" in private["description"]
    api.outsiders.add((GROUP, 703))
    outsider = await call(
        "sendMessage", chat_id=GROUP, text="x", ephemeral_message_parameters=_to(703)
    )
    assert "not a member" in outsider["description"]
    old = await call("sendMessage", chat_id=GROUP, text="x", receiver_user_id=702)  # 10.2's
    assert "ephemeral_message_parameters" in old["description"]


async def test_edits_and_deletion_name_the_receiver_and_a_vanished_one_still_takes_edits(
    api: FakeBotApi, call: Any
) -> None:
    api.bot_admin.add(GROUP)
    sent = await call("sendMessage", chat_id=GROUP, text="a", ephemeral_message_parameters=_to(701))
    number = sent["result"]["ephemeral_message_id"]
    where = {"chat_id": GROUP, "receiver_user_id": 701, "ephemeral_message_id": number}
    assert (await call("editEphemeralMessageText", text="b", **where))["result"] is True
    same = await call("editEphemeralMessageText", text="b", **where)
    assert "not modified" in same["description"]
    wrong = {**where, "receiver_user_id": 702}
    assert "not found" in (await call("editEphemeralMessageText", text="c", **wrong))["description"]
    keys = {"inline_keyboard": [[{"text": "♠2", "disabled": {}}]]}
    assert (await call("editEphemeralMessageReplyMarkup", reply_markup=keys, **where))["ok"]
    api.vanish(ANNA, GROUP)  # her app restarted: gone from it, still taken by Telegram
    assert not api.visible(ANNA, GROUP)
    assert (await call("editEphemeralMessageText", text="d", **where))["ok"]
    assert (await call("deleteEphemeralMessage", **where))["ok"]
    gone = await call("editEphemeralMessageText", text="e", **where)
    assert "not found" in gone["description"]


async def test_buttons_have_one_action_and_disabled_ones_cannot_be_pressed(
    api: FakeBotApi, call: Any
) -> None:
    both = {"inline_keyboard": [[{"text": "x", "callback_data": "a", "disabled": {}}]]}
    refused = await call("sendMessage", chat_id=GROUP, text="x", reply_markup=both)
    assert "exactly one action" in refused["description"]
    odd = {"inline_keyboard": [[{"text": "x", "disabled": {"why": 1}}]]}
    assert (
        "DISABLED"
        in (await call("sendMessage", chat_id=GROUP, text="x", reply_markup=odd))["description"]
    )
    keys = {
        "inline_keyboard": [[{"text": "♠2", "disabled": {}}, {"text": "♥3", "callback_data": "c"}]]
    }
    sent = await call("sendMessage", chat_id=GROUP, text="hand", reply_markup=keys)
    message = api.messages[(GROUP, sent["result"]["message_id"])]
    assert [b["text"] for b in message.buttons()] == ["♥3"]  # what can be pressed
    assert len(message.all_buttons()) == 2


async def test_an_ephemeral_message_is_pressed_by_its_receiver_alone(api: FakeBotApi) -> None:
    api.bot_admin.add(GROUP)
    await api._m_sendMessage(
        {"chat_id": GROUP, "text": "cards", "ephemeral_message_parameters": _to(701)}
    )
    [screen] = api.visible(ANNA, GROUP)
    with pytest.raises(AssertionError):
        await api.press(BOB, screen, "b1:1:1:rf")
    await api.press(ANNA, screen, "b1:1:1:rf")
    api.vanish(ANNA, GROUP)
    with pytest.raises(AssertionError):  # nothing to press in her app any more
        await api.press(ANNA, screen, "b1:1:1:rf")
