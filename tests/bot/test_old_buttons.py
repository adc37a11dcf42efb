"""Buttons made by the release before the generic action button (``:c:P``, ``:p:SQ``) still
work: messages in chats keep their keyboards across an upgrade."""

from __future__ import annotations

from tests.bot.harness import Harness, action_of, actor, seat_four


async def test_an_old_call_and_an_old_card_button_are_honoured(h: Harness) -> None:
    await seat_four(h)
    for call in ("1C", "P", "P", "P"):  # then the opening lead is next
        user, message = actor(h)
        wanted = next(
            b["callback_data"]
            for b in message.buttons()
            if b["callback_data"].endswith(f"call.{call}")
        )
        arg = action_of(wanted)[1]
        old = wanted.rsplit(":", 2)[0] + f":c:{arg}"  # the first release's form
        answer = await h.press(user, message, old)
        assert not answer.get("text"), answer
    user, message = actor(h)
    card = next(b["callback_data"] for b in message.buttons() if ":a:card." in b["callback_data"])
    old = card.rsplit(":", 2)[0] + f":p:{action_of(card)[1]}"
    assert not (await h.press(user, message, old)).get("text")
    assert (await h.press(user, message, old)).get("text")  # a second tap: moved on
