"""A repeated vote changes nothing and posts nothing: thirty taps of "take back", a second
"allow", ten typed /end from the same player each write one event and post one message. A
hand record of a whole history is built once for ten requests, and only that chat waits."""

from __future__ import annotations

import random
from pathlib import Path

from bot.i18n import Translator
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.fakeapi import FakeBotApi, User

OTHER = -777
OTHERS = [User(901, "Olga", "ru", "olga")]


async def log_size(h: Harness) -> int:
    assert h.app is not None
    storage = h.app.bot_data["storage"]
    table = await storage.get_table(1)
    return len(await storage.events(1, table.current_deal))


async def test_repeated_votes_write_once_and_post_once(h: Harness) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(9))
    found = driver.actor()
    assert found is not None
    caller, _ = found
    assert await driver.step()  # the first call of the deal
    await h.settle()
    screen = h.api.chat_messages(caller.id)[-1]
    undo = next(b["callback_data"] for b in screen.buttons() if b["callback_data"].endswith(":un"))
    events, posts = await log_size(h), len(h.api.chat_messages(GROUP))
    already = {Translator(lang)("refusal.already_voted") for lang in ("en", "ru")}
    answers = [await h.press(caller, screen, undo) for _ in range(30)]
    await h.settle()
    assert not answers[0].get("text") and all(a.get("text") in already for a in answers[1:])
    assert await log_size(h) == events + 1
    assert len(h.api.chat_messages(GROUP)) == posts + 1
    question = h.api.chat_messages(GROUP)[-1]
    allow = next(
        b["callback_data"] for b in question.buttons() if b["callback_data"].endswith(":ua:y")
    )
    seat = PLAYERS.index(caller)
    opponent = PLAYERS[(seat + 1) % 4]
    first = await h.press(opponent, question, allow)
    second = await h.press(opponent, question, allow)
    assert not first.get("text") and second.get("text") in already
    assert await log_size(h) == events + 2
    # Ten /end from one player: one vote written, one message posted.
    events, posts = await log_size(h), len(h.api.chat_messages(GROUP))
    for _ in range(10):
        await h.say(PLAYERS[0], GROUP, "/end")
    assert await log_size(h) == events + 1
    assert len(h.api.chat_messages(GROUP)) == posts + 1
    # The next player's yes edits that one message: a vote is one message, not one a vote.
    proposal = h.api.chat_messages(GROUP)[-1]
    await h.say(PLAYERS[1], GROUP, "/end")
    assert len(h.api.chat_messages(GROUP)) == posts + 1
    assert PLAYERS[0].first_name in proposal.text and PLAYERS[1].first_name in proposal.text
    # In the rubber's words (a game is a "гейм"), with the table's part-score premium.
    assert "гейм" in proposal.text and "игра " not in proposal.text
    assert "— 100" in proposal.text or "— 50" in proposal.text, proposal.text
    # Thirty alternating yes and no from one player: a seat proposes a stop at most twice a
    # deal, so a bounded few events and posts, not one of each a press.
    yes = next(
        b["callback_data"] for b in proposal.buttons() if b["callback_data"].endswith(":end:y")
    )
    no = yes[: -len("y")] + "n"
    await h.press(PLAYERS[2], proposal, no)  # the vote is refused: a new one may start
    await h.settle()
    events, posts = await log_size(h), len(h.api.chat_messages(GROUP))
    limit = {Translator(lang)("refusal.end_vote_limit") for lang in ("en", "ru")}
    answers = [await h.press(PLAYERS[0], proposal, (yes, no)[i % 2]) for i in range(30)]
    await h.settle()
    assert await log_size(h) <= events + 2
    assert len(h.api.chat_messages(GROUP)) <= posts + 1
    assert any(a.get("text") in limit for a in answers)


async def test_hand_records_are_limited_per_chat(api: FakeBotApi, tmp_path: Path) -> None:
    """Ten /pbn of a whole history from a group make one file; another group is not held up."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"), record_pause=60.0)
    await h.start()
    try:
        await seat_four(h)
        driver = Driver(h, PLAYERS, random.Random(2))
        await driver.play_until(lambda: h.app is not None and _deal_no(h) >= 2)
        await h.say(OTHERS[0], OTHER, "/bridge")
        for i in range(10):
            await h.say(PLAYERS[i % 4], GROUP, "/pbn 0000-01-01 9999-12-31")
        files = [m for m in h.api.chat_messages(GROUP) if m.kind == "document"]
        assert len(files) == 1, [m.text for m in h.api.chat_messages(GROUP)[-5:]]
        before = len(h.api.chat_messages(OTHER))
        await h.say(OTHERS[0], OTHER, "/pbn")
        assert len(h.api.chat_messages(OTHER)) == before + 1  # its own answer, at once
        # Ten /fair and ten public /stats (and charts) post once each, not ten times ahead
        # of the table.
        h.api.admins.add(PLAYERS[0].id)
        await h.say(PLAYERS[0], GROUP, "/settings")
        screen = h.api.chat_messages(GROUP)[-1]
        show = next(
            b["callback_data"] for b in screen.buttons() if "stats=public" in b["callback_data"]
        )
        await h.press(PLAYERS[0], screen, show)
        await h.settle()
        posted = len(h.api.chat_messages(GROUP))
        for i in range(10):
            await h.say(PLAYERS[i % 4], GROUP, "/fair")
        assert len(h.api.chat_messages(GROUP)) == posted + 2  # the text and the checker
        posted = len(h.api.chat_messages(GROUP))
        for i in range(10):
            await h.say(PLAYERS[i % 4], GROUP, "/stats chart" if i % 2 else "/stats")
        assert posted < len(h.api.chat_messages(GROUP)) <= posted + 3
    finally:
        await h.stop()


def _deal_no(h: Harness) -> int:
    assert h.app is not None
    live = h.app.bot_data["service"]._live.get(1)
    return 0 if live is None else int(live.deal_no)


async def test_a_decided_question_is_its_one_message_edited_to_the_outcome(h: Harness) -> None:
    """A take-back question, once answered, becomes its outcome in the same message with no
    buttons (not a second post under a question still offering them); the stop vote, once
    the match is stopped, says so and loses its buttons."""
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(9))
    found = driver.actor()
    assert found is not None
    caller, _ = found
    assert await driver.step()
    await h.settle()
    screen = h.api.chat_messages(caller.id)[-1]
    undo = next(b["callback_data"] for b in screen.buttons() if b["callback_data"].endswith(":un"))
    await h.press(caller, screen, undo)
    await h.settle()
    question = h.api.chat_messages(GROUP)[-1]
    asked, posts = question.text, len(h.api.chat_messages(GROUP))
    allow = next(
        b["callback_data"] for b in question.buttons() if b["callback_data"].endswith(":ua:y")
    )
    seat = PLAYERS.index(caller)
    for opponent in (PLAYERS[(seat + 1) % 4], PLAYERS[(seat + 3) % 4]):
        await h.press(opponent, question, allow)
    await h.settle()
    now = h.api.messages[(GROUP, question.message_id)]
    assert not now.buttons() and now.text != asked, now.text
    assert len(h.api.chat_messages(GROUP)) == posts  # edited, not posted again
    await h.say(PLAYERS[0], GROUP, "/end")
    vote = next(m for m in h.api.chat_messages(GROUP) if ":end:y" in str(m.buttons()))
    for user in PLAYERS[1:]:
        await h.say(user, GROUP, "/end")
    now = h.api.messages[(GROUP, vote.message_id)]
    assert not now.buttons() and now.text == Translator("ru")("end.done"), now.text
