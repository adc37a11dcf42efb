"""A player whose card won the trick and who is on play again may still take that card back:
"take back" is on their own screen while the card is the last action, and the vote it starts
works as from a waiting screen. Both games."""

from __future__ import annotations

import random

from games.bridge.cards import Seat
from games.bridge.game import BridgeState
from games.preferans.deal import DealState, Phase, Undo
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.bot.test_preferans_table import _offer
from tests.bot.test_records_privacy import _choose
from tests.bot.test_take_back_consent import live_state, preferans_past_the_auction


def _undo_data(h: Harness, user_id: int) -> str | None:
    screen = h.api.chat_messages(user_id)[-1]
    found = [b["callback_data"] for b in screen.buttons() if b["callback_data"].endswith(":un")]
    return found[0] if found else None


async def test_bridge_a_trick_won_with_the_last_card_can_be_taken_back(h: Harness) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(21))
    for _ in range(400):
        state = live_state(h)
        assert isinstance(state, BridgeState)
        play = state.deal.play
        if play is not None and len(play.tricks) > 1 and not play.tricks[-1].cards:
            done = play.tricks[-2]
            last = Seat((done.leader + 3) % 4)
            mine = {last} | ({play.declarer} if last is play.declarer.partner else set())
            actor = state.deal.actor
            if actor in mine:
                break
        assert await driver.step()
    else:
        raise AssertionError("no trick was won by its last card")
    assert actor is not None
    user = PLAYERS[int(actor)]
    await h.settle()
    data = _undo_data(h, user.id)
    assert data is not None, h.api.chat_messages(user.id)[-1].text
    screen = h.api.chat_messages(user.id)[-1]
    assert not (await h.press(user, screen, data)).get("text")
    await h.settle()
    question = h.api.chat_messages(GROUP)[-1]
    allow = [b["callback_data"] for b in question.buttons() if b["callback_data"].endswith(":ua:y")]
    assert allow, question.text
    for seat in (actor.lho, actor.rho):
        assert not (await h.press(PLAYERS[int(seat)], question, allow[0])).get("text")
    await h.settle()
    after = live_state(h)
    assert isinstance(after, BridgeState) and after.deal.play is not None
    assert after.deal.play.tricks[-1].cards  # the trick's last card is back in its hand
    assert not after.deal.play.tricks[-1].is_complete


async def test_preferans_a_trick_won_with_the_last_card_can_be_taken_back(h: Harness) -> None:
    players, _ = await preferans_past_the_auction(h)
    rng = random.Random(8)
    for _ in range(200):
        state = live_state(h)
        assert isinstance(state, DealState)
        if (
            state.phase is Phase.PLAY
            and state.undoable_by() is not None
            and state.undoable_by() == state.actor
        ):
            break
        offer = _offer(h, players)
        assert offer is not None
        user, sent, data = offer
        assert not (await h.press(user, sent, _choose(state, data, rng))).get("text")
        await h.settle()
    else:
        raise AssertionError("no trick was won by its last card")
    who = state.undoable_by()
    assert who is not None
    user = players[who]
    data = _undo_data(h, user.id)
    assert data is not None, h.api.chat_messages(user.id)[-1].text
    assert not (await h.press(user, h.api.chat_messages(user.id)[-1], data)).get("text")
    await h.settle()
    question = h.api.chat_messages(GROUP)[-1]
    allow = [b["callback_data"] for b in question.buttons() if b["callback_data"].endswith(":ua:y")]
    for seat in state.deal.active:
        if seat != who:
            assert not (await h.press(players[seat], question, allow[0])).get("text")
    await h.settle()
    after = live_state(h)
    assert isinstance(after, DealState) and isinstance(after.history[-1], Undo)
