"""Life at a real table, end to end: claims and concessions, undo with the opponents' consent,
turn timers across a restart, substitutes mid-deal, stopping a rubber early, two tables in two
forum topics, and the full deal shown once it is over."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

from bot.i18n import Translator
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS, Harness, actor, cards_in, data_of, seat_four
from tests.fakeapi import FakeBotApi, Sent, User


def with_button(h: Harness, chat_id: int, fragment: str) -> Sent:
    """The newest message in the chat with a button whose data contains ``fragment``."""
    for sent in reversed(h.api.chat_messages(chat_id)):
        if any(fragment in b.get("callback_data", "") for b in sent.buttons()):
            return sent
    raise AssertionError(f"no message in {chat_id} with {fragment}")


def message_with(h: Harness, user: User, fragment: str) -> Sent:
    return with_button(h, user.id, fragment)


async def bid_and_lead(h: Harness, contract: str) -> User:
    """The first to call bids ``contract``, three passes, the opening lead; returns declarer."""
    declarer, message = actor(h)
    await h.press(declarer, message, data_of(message, f":a:call.{contract}"))
    for _ in range(3):
        user, message = actor(h)
        await h.press(user, message, data_of(message, ":a:call.P"))
    leader, message = actor(h)
    lead = next(b["callback_data"] for b in message.buttons() if ":a:card." in b["callback_data"])
    await h.press(leader, message, lead)
    return declarer


async def test_a_claim_rejected_then_accepted(h: Harness) -> None:
    await seat_four(h)
    declarer = await bid_and_lead(h, "1NT")
    user, _ = actor(h)
    assert user == declarer  # dummy's turn: declarer plays it, and may claim
    index = PLAYERS.index(declarer)
    defenders = [PLAYERS[(index + 1) % 4], PLAYERS[(index + 3) % 4]]

    async def claim_all() -> None:
        cards = message_with(h, declarer, ":cm")
        await h.press(declarer, cards, data_of(cards, ":cm"))
        menu = message_with(h, declarer, ":a:claim.")
        assert "13" in menu.text  # the trick in progress counts: all thirteen are left
        answer = await h.press(declarer, menu, data_of(menu, ":a:claim.13"))
        assert not answer.get("text")
        await h.settle()

    await claim_all()
    assert "13" in h.table_message().text  # the group sees the claim
    for defender in defenders:
        assert ":a:answer.yes" in str(message_with(h, defender, ":a:answer.").buttons())
    rejecting = message_with(h, defenders[0], ":a:answer.no")
    answer = await h.press(defenders[0], rejecting, data_of(rejecting, ":a:answer.no"))
    assert not answer.get("text")
    await h.settle()
    group = [m.text for m in h.api.chat_messages(GROUP)]
    assert any("❌" in text for text in group)  # the outcome is posted
    user, _ = actor(h)
    assert user == declarer  # play goes on: the cards are offered again

    await claim_all()
    for defender in defenders:
        accepting = message_with(h, defender, ":a:answer.yes")
        answer = await h.press(defender, accepting, data_of(accepting, ":a:answer.yes"))
        assert not answer.get("text")
    await h.settle()
    result = next(
        m.text for m in reversed(h.api.chat_messages(GROUP)) if "1NT" in m.text or "1БК" in m.text
    )
    assert "по претензии" in result or "by claim" in result
    assert "13" in result  # declarer's side takes all thirteen
    # Kibitzers get the whole deal once it is over, on the table message (here most cards
    # were never played).
    table = next(m.text for m in reversed(h.api.chat_messages(GROUP)) if "Расклад" in m.text)
    assert len(cards_in(table.split("Расклад")[1])) == 52
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    kinds = [e.kind for e in await storage.events(1, 1)]
    assert kinds.count("claim") == 2 and kinds.count("claim_answer") == 3


async def play_claimed_3nt(h: Harness) -> User:
    """Deal 1: 3NT by the first to call, every trick claimed and accepted; returns declarer."""
    declarer = await bid_and_lead(h, "3NT")
    cards = message_with(h, declarer, ":cm")
    await h.press(declarer, cards, data_of(cards, ":cm"))
    menu = message_with(h, declarer, ":a:claim.")
    await h.press(declarer, menu, data_of(menu, ":a:claim.13"))
    index = PLAYERS.index(declarer)
    for defender in (PLAYERS[(index + 1) % 4], PLAYERS[(index + 3) % 4]):
        accepting = message_with(h, defender, ":a:answer.yes")
        await h.press(defender, accepting, data_of(accepting, ":a:answer.yes"))
    await h.settle()
    return declarer


async def test_a_rubber_stopped_early_by_all_four_is_scored_unfinished(h: Harness) -> None:
    await seat_four(h)
    declarer = await play_claimed_3nt(h)  # 100 below (a game), 120 above, non-vulnerable
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    table = await storage.get_table(1)
    [deal1, _deal2] = await storage.deals(table.match_id or 0)
    assert deal1.result is not None
    honours = {side: int(points) for side, points in deal1.result["honours"].items()}
    index = PLAYERS.index(declarer)
    ours = "NS" if index % 2 == 0 else "EW"
    theirs = "EW" if ours == "NS" else "NS"
    # By hand: 100 + 120 + 300 for the game of an unfinished rubber (Law 80), honours if any.
    difference = 100 + 120 + 300 + honours.get(ours, 0) - honours.get(theirs, 0)
    points = (difference + 50) // 100 * 100

    user, held = actor(h)  # deal 2 is under way; keep a button from it
    stale = next(b["callback_data"] for b in held.buttons() if ":a:call." in b["callback_data"])
    await h.say(declarer, GROUP, "/end")
    proposal = h.api.chat_messages(GROUP)[-1]
    assert "1 из 4" in proposal.text or "1 of 4" in proposal.text
    stranger = User(160, "Eve", "en")
    answer = await h.press(stranger, proposal, data_of(proposal, ":end:y"))
    assert answer.get("text")  # not seated
    others = [p for p in PLAYERS if p != declarer]
    for player in others:
        proposal = h.api.chat_messages(GROUP)[-1]
        if "✋" not in proposal.text:
            proposal = next(
                m for m in reversed(h.api.chat_messages(GROUP)) if ":end:y" in str(m.buttons())
            )
        await h.press(player, proposal, data_of(proposal, ":end:y"))
    await h.settle()
    [rubber] = await storage.matches(chat.id)
    assert rubber.unfinished and rubber.result is not None
    assert rubber.result["points"] == points
    balances = await storage.balances(chat.id, "points")
    for i, player in enumerate(PLAYERS):
        found = await storage.player_by_tg(player.id)
        assert found is not None
        expected = points if (i - index) % 2 == 0 else -points
        assert balances[found.id] == expected
    assert any("(досрочно)" in m.text for m in h.api.chat_messages(GROUP))
    # The abandoned deal's buttons are withdrawn, and a press on one changes nothing.
    assert all(h.action_message(p) is None for p in PLAYERS)
    answer = await h.press(user, held, stale)
    assert answer.get("text")
    kinds = [e.kind for e in await storage.events(1, 2)]
    assert kinds == ["deal"] + ["vote"] * 4  # the deal itself, then the four votes to stop


async def test_a_group_admin_stops_the_rubber_alone(h: Harness) -> None:
    await seat_four(h)
    admin = User(170, "Boss", "en")
    await h.say(admin, GROUP, "/end")  # not an admin yet: a proposal needs a seat
    assert (
        "seated" in h.api.chat_messages(GROUP)[-1].text
        or "сидите" in h.api.chat_messages(GROUP)[-1].text
    )
    h.api.admins.add(admin.id)
    await h.say(admin, GROUP, "/end")
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    [rubber] = await storage.matches(chat.id)
    assert rubber.unfinished and rubber.result is not None
    assert rubber.result["points"] == 0  # nothing was scored yet: a draw
    assert all(h.action_message(p) is None for p in PLAYERS)


async def test_two_tables_in_two_forum_topics_play_at_once_without_crossing(h: Harness) -> None:
    forum = -1_000_000_000_777
    others = [User(201, "Gleb", "ru"), User(202, "Hana", "en"), User(203, "Ivan", "ru"),
              User(204, "Jill", "en")]  # fmt: skip
    await seat_four(h, PLAYERS, forum, thread=11)
    await seat_four(h, others, forum, thread=22)
    for _ in range(20):  # the two foursomes take turns pressing
        for players in (PLAYERS, others):
            user, message = actor(h, players)
            offered = [b["callback_data"] for b in message.buttons()]
            data = next(  # open 1♣ if nobody has bid, then pass; in play, the first card
                d
                for suffix in (":a:call.1C", ":a:call.P", ":a:card.")
                for d in offered
                if d.endswith(suffix) or (suffix == ":a:card." and suffix in d)
            )
            answer = await h.press(user, message, data)
            assert not answer.get("text"), answer
    await h.settle()
    tables = {11: "1", 22: "2"}
    names = {11: {p.first_name for p in PLAYERS}, 22: {p.first_name for p in others}}
    seen = {11: 0, 22: 0}
    for sent in h.api.chat_messages(forum):
        assert sent.thread_id in (11, 22), sent.text  # every message in a topic
        topic = sent.thread_id
        if "🃏" in sent.text:
            seen[topic] += 1
            assert f"№{tables[topic]}" in sent.text or f"#{tables[topic]}" in sent.text
            other = 22 if topic == 11 else 11
            assert not any(name in sent.text for name in names[other])
    assert seen[11] and seen[22]
    # Each player's private messages name their own table (and the group).
    for players, number in ((PLAYERS, "1"), (others, "2")):
        for user in players:
            for sent in h.api.chat_messages(user.id):
                if "№" in sent.text or "#" in sent.text:
                    assert f"№{number}" in sent.text or f"#{number}" in sent.text


def group_with(h: Harness, fragment: str) -> Sent:
    return with_button(h, GROUP, fragment)


async def test_an_undo_refused_then_allowed_by_the_opponents(h: Harness) -> None:
    await seat_four(h)
    first, message = actor(h)
    await h.press(first, message, data_of(message, ":a:call.1H"))
    i = PLAYERS.index(first)
    partner, opponents = PLAYERS[(i + 2) % 4], [PLAYERS[(i + 1) % 4], PLAYERS[(i + 3) % 4]]
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]

    async def ask() -> Sent:
        quiet = message_with(h, first, ":un")
        answer = await h.press(first, quiet, data_of(quiet, ":un"))
        assert not answer.get("text"), answer
        await h.settle()
        return group_with(h, ":ua:y")

    request = await ask()
    assert first.first_name in request.text
    answer = await h.press(partner, request, data_of(request, ":ua:y"))
    assert answer.get("text")  # partner does not decide
    answer = await h.press(opponents[0], request, data_of(request, ":ua:n"))
    assert not answer.get("text")
    await h.settle()
    assert "✋" in h.api.chat_messages(GROUP)[-1].text
    # asked and refused: two votes in the log, no rules action
    assert [e.kind for e in await storage.events(1, 1)] == ["deal", "call", "vote", "vote"]

    request = await ask()
    for opponent in opponents:
        answer = await h.press(opponent, request, data_of(request, ":ua:y"))
        assert not answer.get("text"), answer
    await h.settle()
    kinds = [e.kind for e in await storage.events(1, 1)]
    assert kinds == ["deal", "call", "vote", "vote", "vote", "vote", "undo"]  # ask, allow, undo
    user, message = actor(h)
    assert user == first  # their turn again, with 1♥ on offer once more
    data_of(message, ":a:call.1H")
    await h.press(first, message, data_of(message, ":a:call.1S"))
    _, to_call = actor(h)  # the auction as the next player sees it: 1♥ was taken back
    assert "1♠" in to_call.text and "1♥" not in to_call.text

    # A request overtaken by the next call is moot: allowing it changes nothing.
    request = await ask()
    nxt, message = actor(h)
    await h.press(nxt, message, data_of(message, ":a:call.P"))
    answer = await h.press(opponents[0], request, data_of(request, ":ua:y"))
    assert answer.get("text")
    assert [e.kind for e in await storage.events(1, 1)][-1] == "call"


async def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def test_a_turn_timer_fires_survives_a_restart_and_fires_again(
    api: FakeBotApi, tmp_path: Path
) -> None:
    path = str(tmp_path / "timer.sqlite3")
    h = Harness(api, path, timer_minute=0.3)  # a "minute" of 0.3 s
    await h.start()
    await h.say(PLAYERS[0], GROUP, "/bridge")
    await h.say(PLAYERS[0], GROUP, "/settings")
    settings = h.api.chat_messages(GROUP)[-1]
    api.admins.add(PLAYERS[0].id)
    switch = next(b["callback_data"] for b in settings.buttons() if "timer=1" in b["callback_data"])
    assert (await h.press(PLAYERS[0], settings, switch))["text"]
    await seat_four(h)
    late, _ = actor(h)

    def reminders(user: User) -> int:
        return sum("⏰" in m.text for m in h.api.chat_messages(user.id))

    def mentions(user: User) -> int:
        return sum(
            "⏰" in m.text and f"tg://user?id={user.id}" in m.text
            for m in h.api.chat_messages(GROUP)
        )

    await wait_for(lambda: mentions(late) == 1)
    assert reminders(late) == 1  # half-way: privately, first
    reminder = next(m.text for m in h.api.chat_messages(late.id) if "⏰" in m.text)
    # the time left (half the minute; a loaded machine fires a little late), not the limit
    assert re.search(r"осталось (30|2\d) с|(30|2\d) s left", reminder), reminder
    # Changes that are no action (a take-back asked and refused, a stop vote) re-arm the
    # timers: the group is not told again about the same wait.
    other = next(p for p in PLAYERS if p != late)
    await h.say(other, GROUP, "/end")
    await h.settle()
    vote = next(m for m in reversed(h.api.chat_messages(GROUP)) if m.buttons())
    await h.press(
        other,
        vote,
        data_of(vote, ":n")
        if any(b["callback_data"].endswith(":n") for b in vote.buttons())
        else vote.buttons()[0]["callback_data"],
    )
    await asyncio.sleep(1.0)  # past a "minute" more
    await h.settle()
    assert mentions(late) == 1 and reminders(late) == 1
    await h.stop()

    h = Harness(api, path, timer_minute=0.3)  # a restart: the timer is rebuilt from storage
    await h.start()
    await wait_for(lambda: mentions(late) == 2)  # the time was up: it fires again at once
    user, message = actor(h)
    assert user == late
    await h.press(user, message, data_of(message, ":a:call.P"))
    nxt, _ = actor(h)
    await wait_for(lambda: mentions(nxt) == 1)  # the next player's own timer
    assert mentions(late) == 2  # and nothing more for the one who acted
    await h.stop()


async def test_a_substitute_takes_over_a_hand_mid_deal(h: Harness) -> None:
    h.api.keep_history = True
    await seat_four(h)
    for _ in range(2):
        user, message = actor(h)
        await h.press(user, message, data_of(message, ":a:call.P"))
    leaving, message = actor(h)  # the next to call leaves now
    eve = User(180, "Eve", "en", "eve")
    await h.say(eve, eve.id, "/start")  # the bot may write to her
    held = next(m for m in reversed(h.api.chat_messages(leaving.id)) if "<pre>" in m.text)
    hand = cards_in(held.text)
    await h.say(leaving, GROUP, "/leave")
    assert "/sub" in h.api.chat_messages(GROUP)[-1].text  # warned: the rubber goes on
    await h.say(leaving, GROUP, "/sub @eve")
    others = [p for p in PLAYERS if p != leaving]
    proposal = h.api.chat_messages(GROUP)[-1]
    answer = await h.press(leaving, proposal, data_of(proposal, ":sb:y"))
    assert answer.get("text")  # the others decide
    for player in others:
        proposal = next(
            m for m in reversed(h.api.chat_messages(GROUP)) if ":sb:y" in str(m.buttons())
        )
        assert not (await h.press(player, proposal, data_of(proposal, ":sb:y"))).get("text")
        await h.settle()
    # One message for the question, edited as each agreed and at last to its outcome, its
    # buttons gone (not a proposal re-posted for each agreement).
    ru = Translator("ru")
    asking = ru("sub.proposed", seat="@", leaving="@", newcomer="@", agreed="@").split("@")[0]
    asked = [m for m in h.api.chat_messages(GROUP) if any(asking in t for _, t in m.history)]
    assert len(asked) == 1, [m.text for m in asked]
    assert len(asked[0].history) >= 3  # asked, agreed by one, decided
    done = ru("sub.done", seat="@", newcomer="@", left="@").split("@")[1]
    assert done in asked[0].text and not asked[0].buttons()
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    eve_player = await storage.player_by_tg(eve.id)
    assert eve_player is not None
    seat = PLAYERS.index(leaving)
    assert (await storage.get_table(1)).seats[seat] == eve_player.id
    # Eve has the hand, privately, with the call to make; the one who left can no longer act.
    mine = h.action_message(eve)
    assert mine is not None and cards_in(mine.text) == hand
    answer = await h.press(leaving, message, data_of(message, ":a:call.P"))
    assert answer.get("text")
    answer = await h.press(eve, mine, data_of(mine, ":a:call.P"))
    assert not answer.get("text")
    group = " ".join(m.text for m in h.api.chat_messages(GROUP))
    assert "Eve" in h.table_message().text and "🔁" in group


async def restart(h: Harness) -> None:
    """A new process on the same database (the votes must come back from the deal's log)."""
    await h.stop()
    await h.start()
    await h.settle()


async def test_votes_open_at_a_restart_are_still_open_after_it(h: Harness) -> None:
    """An undo allowed by one opponent, a substitute agreed by one player and two votes to stop
    survive a restart; the rest of the votes then complete each."""
    await seat_four(h)
    assert h.app is not None
    first, message = actor(h)
    await h.press(first, message, data_of(message, ":a:call.1H"))
    i = PLAYERS.index(first)
    opponents = [PLAYERS[(i + 1) % 4], PLAYERS[(i + 3) % 4]]
    quiet = message_with(h, first, ":un")
    await h.press(first, quiet, data_of(quiet, ":un"))
    await h.settle()
    request = group_with(h, ":ua:y")
    assert not (await h.press(opponents[0], request, data_of(request, ":ua:y"))).get("text")
    await restart(h)
    request = group_with(h, ":ua:y")
    assert not (await h.press(opponents[1], request, data_of(request, ":ua:y"))).get("text")
    storage: SqliteStorage = h.app.bot_data["storage"]  # type: ignore[union-attr]
    kinds = [e.kind for e in await storage.events(1, 1)]
    assert kinds[-1] == "undo" and kinds.count("vote") == 2  # asked, one allowed, then undone

    # A substitute proposed and agreed by one; after a restart the other two agree.
    eve = User(181, "Eve", "en", "eve")
    await h.say(eve, eve.id, "/start")
    leaving = PLAYERS[3]
    await h.say(leaving, GROUP, "/sub @eve")
    proposal = group_with(h, ":sb:y")
    assert not (await h.press(PLAYERS[0], proposal, data_of(proposal, ":sb:y"))).get("text")
    await restart(h)
    for player in PLAYERS[1:3]:
        proposal = group_with(h, ":sb:y")
        assert not (await h.press(player, proposal, data_of(proposal, ":sb:y"))).get("text")
    await h.settle()
    eve_player = await storage_of(h).player_by_tg(eve.id)
    assert eve_player is not None and (await storage_of(h).get_table(1)).seats[3] == eve_player.id

    # Two agree to stop; after a restart the other two complete it.
    await h.say(PLAYERS[0], GROUP, "/end")
    vote = group_with(h, ":end:y")
    await h.press(PLAYERS[1], vote, data_of(vote, ":end:y"))
    await restart(h)
    for player in (PLAYERS[2], eve):
        vote = group_with(h, ":end:y")
        assert not (await h.press(player, vote, data_of(vote, ":end:y"))).get("text")
    await h.settle()
    assert (await storage_of(h).get_table(1)).match_id is None  # stopped and scored


def storage_of(h: Harness) -> SqliteStorage:
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    return storage
