"""A take-back needs the others' consent: the codecs read ``undo`` (logs and votes name it), but a
press whose data names it, forged at the exact position, is refused and changes nothing, in
both games; the vote still takes the action back."""

from __future__ import annotations

import random

from bot.i18n import Translator
from games.bridge.game import BridgeState
from games.preferans.deal import DealState, Phase
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.bot.test_preferans_table import _offer, sit_all
from tests.fakeapi import User

BAD_BUTTON = {Translator(language)("refusal.bad_button") for language in ("en", "ru")}


def live_state(h: Harness) -> object:
    assert h.app is not None
    live = h.app.bot_data["service"]._live[1]
    return live.state


async def events(h: Harness) -> int:
    assert h.app is not None
    storage = h.app.bot_data["storage"]
    table = await storage.get_table(1)
    return len(await storage.events(1, table.current_deal))


def position(data: str) -> tuple[str, str]:
    """(deal, position) of an action button's data ``b1:<table>:<deal>.<at>:a:<action>``."""
    deal, _, at = data.split(":")[2].partition(".")
    return deal, at


async def test_a_forged_undo_after_the_lead_takes_nothing_back(h: Harness) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(11))
    while True:
        state = live_state(h)
        assert isinstance(state, BridgeState)
        play = state.deal.play
        if play is not None and play.tricks and play.tricks[0].cards:
            break
        assert await driver.step()
    assert play is not None
    leader = PLAYERS[int(play.tricks[0].leader)]
    found = driver.actor()
    assert found is not None
    _, message = found
    deal, at = position(next(b["callback_data"] for b in message.buttons()))
    forged = f"b1:1:{deal}.{at}:a:undo"
    count = await events(h)
    for presser in [leader, *PLAYERS]:  # the leader, and everyone else for good measure
        answer = await h.press(presser, h.table_message(), forged)
        assert answer.get("text") in BAD_BUTTON, answer
    await h.settle()
    assert await events(h) == count
    after = live_state(h)
    assert isinstance(after, BridgeState) and after.deal.history == state.deal.history


async def preferans_past_the_auction(h: Harness) -> tuple[list[User], DealState]:
    """Three players at a Preferans table; someone bids a six, the others pass: the auction is
    over, the talon shown, declarer to discard. Returns the players and the state then."""
    players = [User(401, "Аня", "ru", "anya"), User(402, "Bob", "en", "bob"), User(403, "Вика")]
    for user in players:
        await h.say(user, user.id, "/start")
    await h.say(players[0], GROUP, "/preferans")
    await sit_all(h, players)
    await h.settle()
    while True:
        state = live_state(h)
        assert isinstance(state, DealState)
        if state.phase is not Phase.AUCTION:
            return players, state
        offer = _offer(h, players)
        assert offer is not None
        user, sent, data = offer
        bid_before = any(c.bid is not None for c in state.view(None).calls)
        bids = [d for d in data if ":a:bid." in d]
        games = [d for d in bids if not d.endswith(("bid.P", "bid.MIS"))]
        press = games[0] if games and not bid_before else next(d for d in bids if d.endswith("P"))
        assert not (await h.press(user, sent, press)).get("text")
        await h.settle()


async def test_a_forged_undo_of_the_last_pass_in_preferans_is_refused(h: Harness) -> None:
    players, state = await preferans_past_the_auction(h)
    last = state.history[-1]
    passer = players[last.seat]
    assert h.app is not None
    live = h.app.bot_data["service"]._live[1]
    deal, at = live.deal_no, live.moves  # the exact position now, as a forger would find it
    count = await events(h)
    answer = await h.press(passer, h.api.chat_messages(passer.id)[-1], f"b1:1:{deal}.{at}:a:undo")
    assert answer.get("text") in BAD_BUTTON, answer
    await h.settle()
    assert await events(h) == count
    after = live_state(h)
    assert isinstance(after, DealState) and after.phase is state.phase
    assert after.history == state.history
