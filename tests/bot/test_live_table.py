"""The table as it is played, through PTB's HTTP stack and the fake Bot API: a call shows at once
on the group's table message, which names whose call it is next, and on the screens of the
players who wait; at a robot's pace the group still gets at most its pace of calls a minute."""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

from bot.i18n import Translator
from bot.views.amounts import number
from games.bridge.deal import Phase
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, action_of, cards_in, seat_four
from tests.fakeapi import FakeBotApi

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


async def test_a_call_shows_in_the_group_and_on_the_waiting_screens(
    api: FakeBotApi, tmp_path: Path
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"))
    await h.start()
    try:
        await seat_four(h)
        driver = Driver(h, PLAYERS, random.Random(4))
        for _ in range(6):  # a few calls (and maybe the lead), each followed everywhere
            found = driver.actor()
            assert found is not None
            user, message = found
            data = driver.choose(user, message)
            kind, text = action_of(data)
            await driver.step_with(user, message, data)
            await h.settle()
            table = h.table_message().text
            others = [p for p in PLAYERS if p is not user]
            if kind == "call":
                shown = {
                    "P": ("Пас", "Pass"),
                    "X": ("Контра", "Dbl", "X"),
                    "XX": ("Реконтра", "Rdbl", "XX"),
                }.get(text, ())
                bid = re.sub(r"[SHDC]$", lambda m: SUITS[m[0]], text).replace("NT", "")
                words = {*shown, bid} if text[0].isdigit() else set(shown)
                assert any(w in table for w in words), (text, table)
                for other in others:  # every waiting screen shows the call too
                    screen = h.api.chat_messages(other.id)[-1].text
                    assert any(w in screen for w in words), (other.first_name, text, screen)
            # The group names whose turn it is, as long as the deal goes on.
            nxt = driver.actor()
            if nxt is not None:
                assert nxt[0].first_name in table and "▶" in table, table
    finally:
        await h.stop()


async def test_at_a_robots_pace_the_group_gets_its_pace_and_no_more(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """An action every 0.1 s for eight seconds with the group paced at 0.4 s (a robot's second
    and the production 4 s, ten times faster): in any 6 s (a scaled minute) at most 15 calls
    (16 at the edges) reach the group, within Telegram's 20, though the play went on four
    times faster."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"), group_interval=0.4)
    await h.start()
    try:
        await seat_four(h)
        driver = Driver(h, PLAYERS, random.Random(8))
        start = len(api.calls)
        until = time.monotonic() + 8
        presses = 0
        while time.monotonic() < until:
            found = driver.actor()
            if found is None:
                await asyncio.sleep(0.01)
                continue
            user, message = found
            answer = await api.answer_of(
                await api.press(user, message, driver.choose(user, message))
            )
            presses += not answer.get("text")
            await asyncio.sleep(0.1)  # a robot's second, ten times faster
        await h.settle()
        group = [c.at for c in api.calls[start:] if int(c.params.get("chat_id", 0)) == GROUP]
        busiest = max((sum(1 for t in group if s <= t < s + 6) for s in group), default=0)
        assert presses > 40 and 5 <= busiest <= 16, (presses, busiest)
    finally:
        await h.stop()


async def test_dummy_and_the_tricks_are_on_every_screen_from_the_opening_lead(
    h: Harness,
) -> None:
    """After the opening lead every player's screen, waiting or not, shows dummy's cards and
    our and their tricks (dummy's own screen shows its cards too), in each one's language;
    before it, no screen shows dummy."""
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(11), short=True)
    assert h.app is not None
    service = h.app.bot_data["service"]
    checked = 0
    for _ in range(400):
        deal = service._live[1].state.view(None)  # what a kibitzer sees
        if deal.phase is Phase.PLAY and sum(len(t.cards) for t in deal.tricks) >= 2:
            await h.settle()
            dummy = deal.dummy
            for user in PLAYERS:
                seat = driver.seat_of(user)
                screen = h.api.chat_messages(user.id)[-1].text
                t = Translator(user.language_code)
                assert t("private.tricks", we=0, they=0).split(":")[0] in screen, screen
                if seat is dummy:
                    assert t("private.you_are_dummy") in screen
                    assert set(deal.hands[dummy]) <= cards_in(screen), screen
                else:
                    head = t("table.dummy", seat="", name="").split(" ")[0]
                    assert head in screen, screen
                    assert set(deal.hands[dummy]) <= cards_in(screen), screen
            checked += 1
            if checked >= 3:
                break
        elif deal.phase is not Phase.PLAY:
            await h.settle()
            for user in PLAYERS:
                messages = h.api.chat_messages(user.id)
                if messages and deal.dummy is None:
                    t = Translator(user.language_code)
                    head = t("table.dummy", seat="", name="").split(" ")[0]
                    assert head not in messages[-1].text
        assert await driver.step()
        await h.settle()
    assert checked >= 3


async def test_the_take_back_button_is_shown_only_while_it_can_work(h: Harness) -> None:
    """A waiting player's "take back my last" is on their screen right after their own call,
    and gone once someone has acted after it (a press then would only say there is nothing
    to take back)."""
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(4))
    undo = ":un"
    for _ in range(6):
        found = driver.actor()
        assert found is not None
        caller, _ = found
        assert await driver.step()
        await h.settle()
        mine = h.api.chat_messages(caller.id)[-1]
        assert any(undo in b.get("callback_data", "") for b in mine.buttons()), mine.text
        assert await driver.step()  # the next player acts
        await h.settle()
        now = h.api.messages[(caller.id, mine.message_id)]
        assert not any(undo in b.get("callback_data", "") for b in now.buttons()), now.text


async def test_a_deals_result_gives_the_part_score(h: Harness) -> None:
    """At a rubber the part score decides the bidding: each result mid-rubber says what is
    below the line in the game under way, for both sides, and the totals."""
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(8), short=True)
    assert h.app is not None
    service = h.app.bot_data["service"]
    await driver.play_until(lambda: any("BBO" in m.text for m in h.api.chat_messages(GROUP)))
    await h.settle()
    result = next(m.text for m in h.api.chat_messages(GROUP) if "BBO" in m.text)
    rubber = service._live[1].match.rubber
    line = next(x for x in result.splitlines() if x.startswith("Под чертой"))
    totals = rubber.totals()
    ns, ew = rubber.below_in_game("NS"), rubber.below_in_game("EW")
    total = f"{number(totals['NS'])} : {number(totals['EW'])}"  # thousands thin-spaced
    assert line == (f"Под чертой — С-Ю: {number(ns)} · В-З: {number(ew)} · всего {total}"), (
        line,
        result,
    )
