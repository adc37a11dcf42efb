"""Every refusal of a forged press gives its reason: another player's pick of declarer's
discard says whose turn it is; a button naming a deal that was never dealt is not a button of
ours ("not valid"), where a real earlier deal's is "from an earlier deal". And a pulka stopped
mid-deal leaves no buttons on its screens that could only be refused."""

from __future__ import annotations

import random

from bot.callback_data import Act, Button
from bot.games.bridge.buttons import CLAIM_MENU, DD
from bot.i18n import Translator
from games.preferans.deal import Phase
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.bot.test_take_back_consent import events, preferans_past_the_auction


def texts(key: str) -> set[str]:
    return {Translator(language)(key) for language in ("en", "ru")}


async def test_a_discard_pick_by_another_player_is_refused_with_its_reason(h: Harness) -> None:
    players, state = await preferans_past_the_auction(h)
    assert state.phase is Phase.DISCARD and state.actor is not None
    declarer = players[state.actor]
    screen = h.api.chat_messages(declarer.id)[-1]
    picks = [b["callback_data"] for b in screen.buttons() if ":mn:drop" in b["callback_data"]]
    assert picks, screen.text
    count = await events(h)
    for other in players:
        if other is declarer:
            continue
        answer = await h.press(other, h.api.chat_messages(other.id)[-1], picks[0])
        assert answer.get("text") in texts("reason.not_your_turn"), answer
    assert await events(h) == count
    # Declarer's own pick is taken (the screen shows the card picked).
    assert not (await h.press(declarer, screen, picks[0])).get("text")


async def test_a_deal_that_never_existed_is_a_bad_button(h: Harness) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(5))
    assert await driver.step()
    found = driver.actor()
    assert found is not None
    user, message = found
    data = next(b["callback_data"] for b in message.buttons() if ":a:" in b["callback_data"])
    head, deal, rest = data.split(":", 2)[0:2], data.split(":")[2], data.split(":", 3)[3]
    number, _, at = deal.partition(".")
    bad = texts("refusal.bad_button")
    for never in ("0", "7", "999999"):
        forged = ":".join([*head, f"{never}.{at}", rest])
        assert (await h.press(user, message, forged)).get("text") in bad, forged
    for act, arg in ((Act.MENU, "claim"), (CLAIM_MENU, ""), (Act.UNDO, ""), (DD, "o")):
        forged = Button(1, 42, act, arg).encode()
        answer = await h.press(user, message, forged)
        assert answer.get("text") in bad, (act, answer)
    assert int(number) == 1  # the first deal: no earlier one to be stale


async def test_a_pulka_stopped_mid_deal_leaves_no_live_buttons(h: Harness) -> None:
    """/end agreed by all while declarer is discarding: every player's screen of that deal says
    it is over and offers nothing to press any more (a press would only be refused)."""
    players, state = await preferans_past_the_auction(h)
    assert state.phase is Phase.DISCARD
    for user in players:
        await h.say(user, GROUP, "/end")
    await h.settle()
    over = {Translator(language)("pref.deal_over") for language in ("en", "ru")}
    for user in players:
        screen = h.api.chat_messages(user.id)[-1]
        live = [b["callback_data"] for b in screen.buttons() if ":a:" in b["callback_data"]]
        live += [b["callback_data"] for b in screen.buttons() if ":mn:" in b["callback_data"]]
        assert not live, (user.first_name, screen.text, live)
        assert any(text in screen.text for text in over), screen.text
