"""The 🗂 popup looks back at every trick of a deal: a popup holds about six, so each press of
the same person shows the next page, and all thirteen are there across the pages."""

from __future__ import annotations

import random
import re

from tests.bot.harness import GROUP, PLAYERS, Harness, actor, seat_four


async def test_pressing_again_pages_through_all_thirteen_tricks(h: Harness) -> None:
    await seat_four(h)
    rng = random.Random(5)
    called = False
    for _ in range(200):  # one deal played to its end: a contract, then every card
        user, message = actor(h)
        data = [b["callback_data"] for b in message.buttons() if ":a:" in b["callback_data"]]
        calls = [d for d in data if ":a:call." in d]
        cards = [d for d in data if ":a:card." in d]
        if calls:
            bid = next((d for d in calls if d.endswith("call.1C")), None)
            choice = bid if bid and not called else next(d for d in calls if d.endswith(".P"))
            called = called or choice == bid
        else:
            choice = rng.choice(cards)
        await h.press(user, message, choice)
        await h.settle()
        if any("Сдача окончена" in m.text for m in h.api.chat_messages(GROUP)):
            break
    else:
        raise AssertionError(h.table_message().text)
    looked = next(
        m for m in reversed(h.api.chat_messages(GROUP)) if any(":tr" in str(b) for b in m.buttons())
    )
    button = next(b["callback_data"] for b in looked.buttons() if ":tr" in b["callback_data"])
    seen: set[int] = set()
    pages = set()
    for _ in range(4):
        answer = await h.press(PLAYERS[2], looked, button)
        text = answer["text"]
        assert len(text) <= 200, text
        pages.add(re.search(r"\((\d)/(\d)\)", text).group(0))  # type: ignore[union-attr]
        seen |= {int(n) for n in re.findall(r"^(\d+):", text, re.M)}
    assert seen == set(range(1, 14)), seen
    assert len(pages) >= 2
