"""Bad input gets a clear answer in the presser's language and changes nothing."""

from __future__ import annotations

import asyncio
import random
import re

from storage.interface import Storage
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, action_of, actor, data_of, seat_four
from tests.fakeapi import User

STRANGER = User(200, "Stranger", "en")


def storage_of(h: Harness) -> Storage:
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    return storage


async def events(h: Harness, deal: int = 1) -> list[str]:
    return [f"{e.kind}:{dict(e.payload)}" for e in await storage_of(h).events(1, deal)]


async def test_strangers_and_players_out_of_turn_are_refused(h: Harness) -> None:
    await seat_four(h)
    user, message = actor(h)
    before = await events(h)
    answer = await h.press(STRANGER, message, data_of(message, ":a:call.P"))
    assert answer["text"] == "You are not seated at this table."
    other = next(p for p in PLAYERS if p != user)
    answer = await h.press(other, message, data_of(message, ":a:call.1C"))
    assert answer["text"] in ("It is not your turn.", "Сейчас не ваш ход.")
    assert await events(h) == before


async def test_double_tap_is_taken_once(h: Harness) -> None:
    await seat_four(h)
    user, message = actor(h)
    before = await events(h)
    data = data_of(message, ":a:call.1NT")
    first = await h.api.press(user, message, data)
    second = await h.api.press(user, message, data)
    answers = [await h.api.answer_of(first), await h.api.answer_of(second)]
    await h.settle()
    texts = sorted(a.get("text", "") for a in answers)
    assert texts[0] == "" and texts[1] in (
        "Too late: that button was for an earlier moment of the deal.",
        "Поздно: эта кнопка была для предыдущего хода.",
    )
    assert len(await events(h)) == len(before) + 1


async def test_insufficient_bid_and_illegal_double(h: Harness) -> None:
    await seat_four(h)
    user, message = actor(h)
    await h.press(user, message, data_of(message, ":a:call.2H"))
    nxt, message2 = actor(h)
    before = await events(h)
    forged = data_of(message2, ":a:call.P").replace(":a:call.P", ":a:call.2D")
    answer = await h.press(nxt, message2, forged)
    expected = {"Insufficient bid: bid higher.", "Недостаточная заявка: нужно выше."}
    assert answer["text"] in expected
    forged = data_of(message2, ":a:call.P").replace(":a:call.P", ":a:call.XX")
    answer = await h.press(nxt, message2, forged)
    assert answer["text"] in ("Nothing to redouble.", "Нечего реконтрить.")
    assert await events(h) == before


async def test_stale_button_from_an_earlier_deal(h: Harness) -> None:
    await seat_four(h)
    old_user, old_message = actor(h)
    old_data = data_of(old_message, ":a:call.P")
    for _ in range(4):  # everybody passes: deal 1 is passed out, deal 2 is dealt
        user, message = actor(h)
        await h.press(user, message, data_of(message, ":a:call.P"))
    assert "passed out" in " ".join(m.text for m in h.api.chat_messages(GROUP)) or any(
        "все спасовали" in m.text for m in h.api.chat_messages(GROUP)
    )
    before = await events(h, 2)
    answer = await h.press(old_user, old_message, old_data)
    assert answer["text"] in (
        "This button is from an earlier deal.",
        "Эта кнопка от прошлой сдачи.",
    )
    assert await events(h, 2) == before


async def test_illegal_card_is_refused(h: Harness) -> None:
    await seat_four(h)
    user, message = actor(h)
    await h.press(user, message, data_of(message, ":a:call.1NT"))
    for _ in range(3):
        u, m = actor(h)
        await h.press(u, m, data_of(m, ":a:call.P"))
    leader, lead_message = actor(h)
    lead = next(
        b["callback_data"]
        for b in lead_message.buttons()
        if ":a:card." in b.get("callback_data", "")
    )
    await h.press(leader, lead_message, lead)
    led_suit = action_of(lead)[1][0]
    nxt, message = actor(h)
    offered = [
        b["callback_data"] for b in message.buttons() if ":a:card." in b.get("callback_data", "")
    ]
    before = await events(h)
    if all(action_of(d)[1][0] == led_suit for d in offered):
        # holds the suit led: any other suit is refused
        other = next(s for s in "SHDC" if s != led_suit)
        forged = offered[0].rsplit(":", 1)[0] + f":card.{other}2"
        answer = await h.press(nxt, message, forged)
        assert answer["text"] in (
            "You must follow suit.",
            "Нужно ходить в масть.",
            "That card is not in the hand.",
            "Этой карты нет на руке.",
        )
    # a card already played is never held
    forged = offered[0].rsplit(":", 1)[0] + ":" + lead.rsplit(":", 1)[1]
    answer = await h.press(nxt, message, forged)
    assert answer["text"] in ("That card is not in the hand.", "Этой карты нет на руке.")
    assert await events(h) == before


async def test_malformed_callbacks_are_answered(h: Harness) -> None:
    await seat_four(h)
    user, message = actor(h)
    before = await events(h)
    for data in ("garbage", "b1:1:1:c", "b1:1:1:zz:1", "b1:1:1:c:9NT", "b1:99:1:c:P", "b9:1:1:c:P"):
        answer = await h.press(user, message, data)
        assert answer.get("text"), data
    bad_button = (await h.press(user, message, "garbage"))["text"]
    for data in ("b1:999:0:csv", "b1:999:0:pay:1-2-100", "b1:999:0:sk:4", "b1:999:0:ku"):
        answer = await h.press(user, message, data)  # no such chat or sheet
        assert answer["text"] == bad_button, data
    assert await events(h) == before


async def test_commands_in_the_wrong_chat(h: Harness) -> None:
    user = PLAYERS[1]
    for command in ("/bridge", "/score", "/settings"):
        await h.say(user, user.id, command)
        reply = h.api.chat_messages(user.id)[-1].text
        assert "group" in reply, (command, reply)


async def test_two_tables_do_not_wait_for_each_other(h: Harness, api: object) -> None:
    """Presses on two tables in flight at once are both handled (concurrent updates)."""
    other_group = -200
    others = [User(301 + i, f"P{i}", "en") for i in range(4)]
    await seat_four(h)
    await seat_four(h, others, other_group)
    (u1, m1), (u2, m2) = actor(h), actor(h, others)
    q1 = await h.api.press(u1, m1, data_of(m1, ":a:call.P"))
    q2 = await h.api.press(u2, m2, data_of(m2, ":a:call.P"))
    answers = await asyncio.gather(h.api.answer_of(q1), h.api.answer_of(q2))
    assert all(not a.get("text") for a in answers)
    await h.settle()


async def test_a_quick_second_tap_never_becomes_the_next_lead(h: Harness) -> None:
    """A player who plays to a trick and is on play again at once (they won it, or declarer
    plays again from dummy) taps a second card from the keyboard as it was: refused, not led."""
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(5))
    for _ in range(400):
        user, message = actor(h)
        before_data = [
            b["callback_data"] for b in message.buttons() if ":a:card." in b["callback_data"]
        ]
        pressed = driver.choose(user, message)
        await driver.step_with(user, message, pressed)
        again = h.action_message(user)
        other_cards = [d for d in before_data if d != pressed]
        if again is None or ":a:card." not in pressed or not other_cards:
            continue
        held = {
            b["callback_data"].rsplit(":", 1)[1]
            for b in again.buttons()
            if ":a:card." in b.get("callback_data", "")
        }
        second = next((d for d in other_cards if d.rsplit(":", 1)[1] in held), None)
        if second is None:
            continue
        deal = int(pressed.split(":")[2].split(".")[0])
        count = len(await events(h, deal))
        answer = await h.press(user, again, second)
        assert answer["text"] in (
            "Too late: that button was for an earlier moment of the deal.",
            "Поздно: эта кнопка была для предыдущего хода.",
        )
        assert len(await events(h, deal)) == count
        without_position = re.sub(r":(\d+)\.\d+:", r":\1:", second)
        answer = await h.press(user, again, without_position)
        assert answer.get("text")
        assert len(await events(h, deal)) == count
        return
    raise AssertionError("no player was on play twice in a row")
