"""Life at a real table, end to end: claims and concessions answered by the other side."""

from __future__ import annotations

from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS, Harness, actor, cards_in, data_of, seat_four
from tests.fakeapi import Sent, User


def message_with(h: Harness, user: User, fragment: str) -> Sent:
    for sent in reversed(h.api.chat_messages(user.id)):
        if any(fragment in b.get("callback_data", "") for b in sent.buttons()):
            return sent
    raise AssertionError(f"no message of {user.first_name} with {fragment}")


async def test_a_claim_rejected_then_accepted(h: Harness) -> None:
    await seat_four(h)
    declarer, message = actor(h)
    await h.press(declarer, message, data_of(message, ":c:1NT"))
    for _ in range(3):
        user, message = actor(h)
        await h.press(user, message, data_of(message, ":c:P"))
    leader, message = actor(h)
    lead = next(b["callback_data"] for b in message.buttons() if ":p:" in b["callback_data"])
    await h.press(leader, message, lead)
    user, message = actor(h)
    assert user == declarer  # dummy's turn: declarer plays it, and may claim
    index = PLAYERS.index(declarer)
    defenders = [PLAYERS[(index + 1) % 4], PLAYERS[(index + 3) % 4]]

    async def claim_all() -> None:
        cards = message_with(h, declarer, ":cm")
        await h.press(declarer, cards, data_of(cards, ":cm"))
        menu = message_with(h, declarer, ":cl:")
        assert "13" in menu.text  # the trick in progress counts: all thirteen are left
        answer = await h.press(declarer, menu, data_of(menu, ":cl:13"))
        assert not answer.get("text")
        await h.settle()

    await claim_all()
    assert "13" in h.table_message().text  # the group sees the claim
    for defender in defenders:
        assert ":ca:y" in str(message_with(h, defender, ":ca:").buttons())
    rejecting = message_with(h, defenders[0], ":ca:n")
    answer = await h.press(defenders[0], rejecting, data_of(rejecting, ":ca:n"))
    assert not answer.get("text")
    await h.settle()
    group = [m.text for m in h.api.chat_messages(GROUP)]
    assert any("❌" in text for text in group)  # the outcome is posted
    user, message = actor(h)
    assert user == declarer  # play goes on: the cards are offered again

    await claim_all()
    for defender in defenders:
        accepting = message_with(h, defender, ":ca:y")
        answer = await h.press(defender, accepting, data_of(accepting, ":ca:y"))
        assert not answer.get("text")
    await h.settle()
    result = next(
        m.text for m in reversed(h.api.chat_messages(GROUP)) if "1NT" in m.text or "1БК" in m.text
    )
    assert "по заявке" in result or "by claim" in result
    assert "13" in result  # declarer's side takes all thirteen
    # Kibitzers get the whole deal once it is over (here most cards were never played).
    assert len(cards_in(result.split("Расклад")[1])) == 52
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    kinds = [e.kind for e in await storage.events(1, 1)]
    assert kinds.count("claim") == 2 and kinds.count("claim_answer") == 3
