"""The whole table in the group (#47): each player's screen is an ephemeral message in the
group that they alone see, through PTB's real HTTP stack and the fake Bot API, which keeps
Telegram's rules (a bot that is no group administrator answers only a press, within 15 s)."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest

from bot.callback_data import Button
from bot.tables import TableService
from games.preferans.cards import Card
from games.preferans.deal import DealState
from storage.sqlite import SqliteStorage
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, cards_in, data_of, deal_number, seat_four
from tests.bot.test_preferans_pulka import _steer
from tests.bot.test_preferans_table import _offer, sit_all
from tests.bot.test_preferans_views import shown
from tests.bot.test_rubber_e2e import _allowed
from tests.fakeapi import FakeBotApi, Sent, User
from tests.games.test_preferans_deal import allowed

MY_CARDS = ":my"


def _table_button(h: Harness, suffix: str) -> tuple[Sent, str]:
    table = h.table_message()
    return table, data_of(table, suffix)


async def _group_mode(h: Harness, admin: bool, players: list[User] = PLAYERS) -> None:
    """A table whose screens are in the group: by default where the bot is an administrator,
    by the group's setting where it is not (then each player opens theirs with 🂠)."""
    if admin:
        h.api.bot_admin.add(GROUP)
    else:
        h.api.admins.add(players[0].id)  # the group's admin sets it
    await seat_four(h, players)
    if not admin:
        await h.say(players[0], GROUP, "/settings карты группа")
        settings = h.api.chat_messages(GROUP)[-1]
        assert "Карты: в группе" in settings.text and "✓ карты — в группе" in str(
            settings.buttons()
        )
        for user in players:  # each opens their screen under the table, within 15 s
            table, data = _table_button(h, MY_CARDS)
            assert not (await h.press(user, table, data)).get("text")
    await h.settle()
    for user in players:
        [screen] = h.api.visible(user, GROUP)
        assert screen.receiver == user.id and "<pre>" in screen.text


def _private_screens(h: Harness, user: User) -> list[Sent]:
    return [m for m in h.api.chat_messages(user.id) if "<pre>" in m.text]


def _check_ephemeral_privacy(h: Harness, driver: Driver) -> int:
    """Every version of every ephemeral message went to one seated player and showed only
    their own hand, the cards played, and dummy after the lead."""
    hands = driver.hands()
    seated = {user.id for user in driver.players}
    read = 0
    for sent in h.api.ephemeral_log:
        assert sent.receiver in seated and sent.chat_id == GROUP
        user = next(u for u in driver.players if u.id == sent.receiver)
        seat = driver.seat_of(user)
        for index, text in sent.history:
            number = deal_number(text)
            if number is None:
                continue
            leaked = cards_in(text) - _allowed(driver, hands, number, index, seat)
            assert not leaked, (user.first_name, number, leaked, text)
            read += 1
    return read


@pytest.mark.parametrize("admin", [True, False], ids=["admin", "no-admin"])
async def test_a_rubber_played_through_screens_in_the_group(
    api: FakeBotApi, tmp_path: Path, admin: bool
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=3, screens_in=GROUP)
    await h.start()
    try:
        await _group_mode(h, admin)
        driver = Driver(h, PLAYERS, random.Random(7), short=True)
        # Half-way through the first deal: a restart (every screen comes back, edited where it
        # is), and one player's app drops their screen (🂠 brings it back).
        for _ in range(6):
            assert await driver.step()
        before = {user.id: h.api.visible(user, GROUP)[-1].message_id for user in PLAYERS}
        await h.stop()
        await h.start()
        await h.settle()
        after = {user.id: h.api.visible(user, GROUP)[-1].message_id for user in PLAYERS}
        assert after == before  # edited in place: no new message for anyone after a restart
        user = PLAYERS[2]
        api.vanish(user, GROUP)
        assert h.action_message(user) is None and not h.api.visible(user, GROUP)
        table, data = _table_button(h, MY_CARDS)
        assert not (await h.press(user, table, data)).get("text")
        [back] = h.api.visible(user, GROUP)
        assert back.message_id not in before.values() and "<pre>" in back.text
        await driver.play_until(driver.rubber_over)
        assert len(driver.deals) >= 2
        # Every action went through an ephemeral message; a screen pressed by another member
        # is not something Telegram would even show them (the fake asserts it).
        assert driver.presses > 40
        for user in PLAYERS:
            private = _private_screens(h, user)
            assert not private if admin else private  # without rights: private too (record)
        assert _check_ephemeral_privacy(h, driver) > 50
        ephemeral_sends = [
            c
            for c in api.calls
            if c.method == "sendMessage" and "ephemeral_message_parameters" in c.params
        ]
        if not admin:  # each sent under its player's press, never unasked
            assert all(
                "callback_query_id" in c.params["ephemeral_message_parameters"]
                for c in ephemeral_sends
            )
        else:  # a new deal's screen is posted anew at the bottom, the old one deleted
            assert any(c.method == "deleteEphemeralMessage" for c in api.calls)
        assert not api.refused, api.refused
        assert h.outbox.stats.ephemeral_calls > 0
    finally:
        if h.app is not None:
            await h.stop()


async def test_a_refused_screen_goes_to_the_private_chat_once_with_a_notice(h: Harness) -> None:
    h.api.bot_admin.add(GROUP)
    refused = PLAYERS[1]
    h.api.refuse_ephemeral.add(refused.id)
    await seat_four(h)

    def notices() -> list[Sent]:
        return [m for m in h.api.chat_messages(refused.id) if "did not show your cards" in m.text]

    for _ in range(200):  # the refusal comes back from Telegram, then the notice goes
        await h.settle()
        if notices():
            break
    assert len(notices()) == 1
    assert not h.api.visible(refused, GROUP)  # nothing of theirs in the group
    screens = [m for m in h.api.chat_messages(refused.id) if "<pre>" in m.text]
    assert screens, "their screen is in their private chat"
    for user in PLAYERS:
        if user is not refused:
            assert h.api.visible(user, GROUP)
    # Play goes on, the refused player in their private chat; they are not told again.
    driver = Driver(h, PLAYERS, random.Random(1))
    for _ in range(8):
        found = None
        for where in (GROUP, None):
            h.screens_in = where
            found = driver.actor()
            if found is not None:
                break
        assert found is not None
        user, message = found
        assert (message.receiver is None) == (user is refused)
        await driver.step_with(user, message, driver.choose(user, message))
    assert len(notices()) == 1


async def test_telegram_slowing_the_group_down_moves_screens_to_private_chats(
    h: Harness,
) -> None:
    h.api.bot_admin.add(GROUP)
    await seat_four(h)
    await h.settle()
    slow = {"description": "Too Many Requests: retry after 1", "parameters": {"retry_after": 1}}
    for _ in range(3):
        h.api.fail_queue.append(("editEphemeralMessageText", 429, slow))
    h.screens_in = GROUP
    user, message = next((u, m) for u in PLAYERS if (m := h.action_message(u)) is not None)
    calls = [b["callback_data"] for b in message.buttons() if ":a:call." in b["callback_data"]]
    assert not (await h.press(user, message, calls[0])).get("text")
    await h.settle(timeout=30)
    said = [m for m in h.api.chat_messages(GROUP) if "замедляет" in m.text]
    assert len(said) == 1
    for user in PLAYERS:
        assert [m for m in h.api.chat_messages(user.id) if "<pre>" in m.text], user


async def test_a_player_moves_their_screen_to_the_private_chat_and_back(h: Harness) -> None:
    h.api.bot_admin.add(GROUP)
    await seat_four(h)
    await h.settle()
    user = PLAYERS[0]
    [screen] = h.api.visible(user, GROUP)
    data = data_of(screen, ":hd:p")
    assert not (await h.press(user, screen, data)).get("text")
    await h.settle()
    [screen] = h.api.visible(user, GROUP)
    assert "в личке" in screen.text and not screen.buttons()
    private = [m for m in h.api.chat_messages(user.id) if "<pre>" in m.text]
    assert private
    back = data_of(private[-1], ":hd:g")
    forged = back[:-1] + "p"  # "to private" is offered only on the screen in the group
    assert (await h.press(user, private[-1], forged)).get("text")
    assert not (await h.press(user, private[-1], back)).get("text")
    await h.settle()
    assert "<pre>" in h.api.visible(user, GROUP)[-1].text
    # the group's setting: all to private chats, typed in Russian
    await h.say(user, GROUP, "/settings карты личка")
    await h.settle()
    table = h.table_message()
    assert not any(MY_CARDS in b.get("callback_data", "") for b in table.buttons())
    for other in PLAYERS[1:]:
        assert [m for m in h.api.chat_messages(other.id) if "<pre>" in m.text], other
    assert "Карты: в личке" in h.api.chat_messages(GROUP)[-1].text


PREF_PLAYERS = [User(601, "Аня", "ru", "anya"), User(602, "Bob", "en", "bob"), User(603, "Вика")]


@pytest.mark.parametrize("admin", [True, False], ids=["admin", "no-admin"])
async def test_a_pulka_played_through_screens_in_the_group(
    api: FakeBotApi, tmp_path: Path, admin: bool
) -> None:
    users = PREF_PLAYERS
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=21, screens_in=GROUP)
    await h.start()
    rng = random.Random(2)
    try:
        for user in users:
            await h.say(user, user.id, "/start")
        if admin:
            api.bot_admin.add(GROUP)
        await h.say(users[0], GROUP, "/preferans")
        if not admin:
            api.admins.add(users[0].id)
            await h.say(users[0], GROUP, "/settings cards group")
        await sit_all(h, users)
        if not admin:
            for user in users:
                table, data = _table_button(h, MY_CARDS)
                assert not (await h.press(user, table, data)).get("text")
        assert h.app is not None
        presses = checked = 0
        seen: dict[tuple[int, int], set[Card]] = {}
        while not any("Пуля закрыта" in m.text for m in api.chat_messages(GROUP)):
            service: TableService = h.app.bot_data["service"]
            snap = await service.snapshot(1)
            state = snap.state
            assert isinstance(state, DealState)
            found = _offer(h, users)
            assert found is not None, [m.text for m in api.chat_messages(GROUP)[-3:]]
            user, sent, data = found
            assert sent.receiver == user.id
            deal = snap.deal_in_match(snap.deal_no)
            head = re.compile(rf"(сдача|deal) {deal}\b")
            for seat, viewer in enumerate(users):
                may = seen.setdefault((deal, seat), set())
                may |= allowed(state, seat)
                for screen in api.received(viewer):
                    for _, text in screen.history:
                        if head.search(text) and "🃏" in text:
                            leaked = shown(text) - may
                            assert not leaked, (viewer.first_name, leaked, text)
                            checked += 1
            choice = _steer(deal, state, data, rng)
            answer = await h.press(user, sent, choice)
            assert not answer.get("text"), (answer, choice)
            presses += 1
            assert presses < 1500
            if presses == 12:  # a restart: every screen is edited where it is
                before = {u.id: api.visible(u, GROUP)[-1].message_id for u in users}
                await h.stop()
                await h.start()
                await h.settle()
                assert {u.id: api.visible(u, GROUP)[-1].message_id for u in users} == before
            if presses == 20 and not state.finished:  # an app drops a screen: 🂠 brings it back
                api.vanish(users[1], GROUP)
                table, data = _table_button(h, MY_CARDS)
                assert not (await h.press(users[1], table, data)).get("text")
                assert api.visible(users[1], GROUP)
        assert checked > 100
        for user in users:
            private = _private_screens(h, user)
            assert not private if admin else private
        assert not api.refused, api.refused
        store: SqliteStorage = h.app.bot_data["storage"]
        assert {r.unit for r in await store.ledger(1)} == {"whists"}
    finally:
        if h.app is not None:
            await h.stop()


async def test_a_player_who_does_not_press_gets_their_screen_anew_in_the_group(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """The turn notice (Telegram notifies new messages, not edits): with the bot an admin, the
    idle player's screen is posted anew at the bottom of the group, the old one deleted."""
    api.bot_admin.add(GROUP)
    h = Harness(api, str(tmp_path / "bot.sqlite3"), turn_notice=0.5, screens_in=GROUP)
    await h.start()
    try:
        await seat_four(h)
        await h.settle()
        user, screen = next((u, m) for u in PLAYERS if (m := h.action_message(u)) is not None)
        for _ in range(100):
            await asyncio.sleep(0.05)
            if any(c.method == "deleteEphemeralMessage" for c in api.calls):
                break
        await h.settle()
        [anew] = api.visible(user, GROUP)
        assert anew.message_id != screen.message_id and h.action_message(user) is anew
        assert not any(
            c.method == "sendMessage"
            and int(c.params.get("chat_id", 0)) == user.id
            and "<pre>" in str(c.params.get("text"))
            for c in api.calls
        )  # nothing in the private chat
    finally:
        if h.app is not None:
            await h.stop()


async def test_made_an_admin_mid_deal_the_screens_come_into_the_group(h: Harness) -> None:
    """The bot learns its rights from Telegram's my_chat_member update: made an administrator
    mid-deal, the screens appear in the group (the table's default), and a stranger's or an
    old deal's press of 🂠 is refused; its rights taken away, they go back to private chats."""
    await seat_four(h)
    await h.settle()
    assert not any(MY_CARDS in b.get("callback_data", "") for b in h.table_message().buttons())
    await h.api.promote_bot(PLAYERS[0], GROUP)
    await h.settle()
    for user in PLAYERS:
        assert h.api.visible(user, GROUP), user
    table, data = _table_button(h, MY_CARDS)
    stranger = User(199, "Eve", "en")
    assert (await h.press(stranger, table, data)).get("text")  # not seated: refused
    assert not h.api.visible(stranger, GROUP)
    pressed = Button.decode(data)
    old = Button(pressed.table_id, pressed.deal_no - 1, pressed.act).encode()
    assert (await h.press(PLAYERS[0], table, old)).get("text")  # another deal's: refused
    private_before = {u.id: len(h.api.chat_messages(u.id)) for u in PLAYERS}
    await h.api.promote_bot(PLAYERS[0], GROUP, admin=False)
    await h.settle()
    assert not any(MY_CARDS in b.get("callback_data", "") for b in h.table_message().buttons())
    # The screens are drawn in the private chats again (edited, or sent where none was).
    assert any(
        len(h.api.chat_messages(u.id)) >= private_before[u.id]
        and "<pre>" in h.api.chat_messages(u.id)[-1].text
        for u in PLAYERS
    )


async def test_screens_sit_in_the_tables_forum_topic(h: Harness) -> None:
    """In a forum group the screens go into the table's own topic, under its table."""
    h.api.bot_admin.add(GROUP)
    topic = 77
    await seat_four(h, thread=topic)
    await h.settle()
    for user in PLAYERS:
        [screen] = h.api.visible(user, GROUP)
        assert screen.thread_id == topic
    table = h.table_message()
    assert table.thread_id == topic and any(MY_CARDS in str(b) for b in table.buttons())
