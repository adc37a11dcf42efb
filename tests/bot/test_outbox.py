"""The outbox never loses the newest content of a kept message, however the calls interleave."""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from telegram import Bot
from telegram.error import RetryAfter
from telegram.ext import ExtBot

from bot.outbox import Gate, Outbox
from bot.outbox.slowdown import SlowDown
from bot.rendered import TABLE, URGENT, WAITING, Rendered
from storage.interface import TableSettings
from storage.sqlite import SqliteStorage
from tests.bot.driver import Driver
from tests.bot.harness import PLAYERS, Harness, seat_four
from tests.fakeapi import FakeBotApi, Sent, User

CHAT = 101


@pytest.fixture
async def outbox(api: FakeBotApi, tmp_path: Path) -> AsyncIterator[Outbox]:
    storage = await SqliteStorage.open(str(tmp_path / "outbox.sqlite3"))
    chat = await storage.ensure_chat(-1, "Club")
    table = await storage.create_table(chat.id, None, TableSettings(), game="bridge")
    assert table.id == 1
    bot = Bot(api.token, base_url=api.base_url)
    await bot.initialize()
    box = Outbox(bot, storage, group_interval=0.0, private_interval=0.0)
    yield box
    await box.close()
    await bot.shutdown()
    await storage.close()


@pytest.mark.parametrize("method", ["sendMessage", "editMessageText"])
async def test_content_wanted_while_a_call_is_in_flight_is_sent(
    api: FakeBotApi, outbox: Outbox, method: str
) -> None:
    """The race of the trials, made deterministic: the call is held at the fake Telegram while
    newer content is wanted; once it returns, the newer content must follow."""
    if method == "editMessageText":
        outbox.want(1, "hand", CHAT, None, Rendered("first"))
        await outbox.drain()
    entered = api.hold(method)
    outbox.want(1, "hand", CHAT, None, Rendered("older"))
    await asyncio.wait_for(entered.wait(), 5)
    outbox.want(1, "hand", CHAT, None, Rendered("newest"))
    api.release(method)
    await outbox.drain()
    [message] = api.chat_messages(CHAT)
    assert message.text == "newest"
    assert [text for _, text in message.history][-1] == "newest"


@pytest.mark.parametrize("method", ["sendMessage", "editMessageText"])
async def test_a_call_telegram_never_answered_is_made_again_not_counted_as_shown(
    api: FakeBotApi, outbox: Outbox, method: str
) -> None:
    """An outage longer than a call's retries: the message is neither dropped nor written
    down as shown (a restart would then skip it); the chat's queue waits and sends its latest
    content once Telegram answers, and the post queued behind it goes too, once."""
    if method == "editMessageText":
        outbox.want(1, "hand", CHAT, None, Rendered("first"))
        await outbox.drain()
    bad_gateway = (method, 502, {"description": "Bad Gateway"})
    api.fail_queue.extend([bad_gateway] * 3)  # one call's three tries
    outbox.want(1, "hand", CHAT, None, Rendered("the deal as it ended"))
    outbox.post(CHAT, None, Rendered("the result"))
    await outbox.drain(timeout=20)
    hand, result = api.chat_messages(CHAT)
    assert hand.text == "the deal as it ended"
    assert result.text == "the result"
    stored = await outbox.storage.message(1, "hand")
    assert stored is not None and stored[1] == hand.message_id


async def test_an_unchanged_pass_after_the_race_costs_no_call(
    api: FakeBotApi, outbox: Outbox
) -> None:
    entered = api.hold("sendMessage")
    outbox.want(1, "hand", CHAT, None, Rendered("same"))
    await asyncio.wait_for(entered.wait(), 5)
    outbox.want(1, "hand", CHAT, None, Rendered("same"))
    api.release("sendMessage")
    await outbox.drain()
    assert [c.method for c in api.calls if c.method != "getMe"] == ["sendMessage"]


async def test_fast_play_at_production_pacing_never_strands_a_player(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """Production pacing scaled down twenty times (1 s per private chat and 200 ms per call
    become 50 ms and 10 ms; players press within 30 ms of seeing their buttons). Someone must
    always get buttons, and once the outbox is idle every kept message shows what is wanted."""
    h = Harness(api, str(tmp_path / "fast.sqlite3"), group_interval=0.2, private_interval=0.05)
    await h.start()
    try:
        await seat_four(h)
        api.latency = 0.01
        rng = random.Random(11)
        driver = Driver(h, PLAYERS, rng)
        presses = 0
        while presses < 120:
            user, message = await _someone_to_act(h, driver)
            data = driver.choose(user, message)
            await asyncio.sleep(rng.uniform(0.0, 0.03))
            query = await api.press(user, message, data)
            await api.answer_of(query)
            presses += 1
        await h.settle()
        outbox = h.outbox
        for keep, kept in outbox._keeps.items():
            assert kept.message_id is not None, keep
            shown = api.messages[(kept.chat_id, kept.message_id)]
            assert shown.text == kept.wanted.text, keep
    finally:
        api.latency = 0.0
        await h.stop()


async def _someone_to_act(h: Harness, driver: Driver) -> tuple[User, Sent]:
    """Wait for a player's buttons; fail if the outbox goes idle with nobody able to act."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = driver.actor()
        if found is not None:
            return found
        idle = not any(lane.queue or lane.working for lane in h.outbox._lanes.values())
        if idle and not h.api.pending_updates:
            await asyncio.sleep(0.05)
            found = driver.actor()
            if found is not None:
                return found
            raise AssertionError("the outbox is idle and nobody has buttons: the table stalled")
        await asyncio.sleep(0.005)
    raise AssertionError("nobody got buttons in 10 s")


async def test_what_the_outbox_remembers_stays_bounded(api: FakeBotApi, outbox: Outbox) -> None:
    """Thousands of kept messages (a deal adds five) and hundreds of chats: the outbox keeps
    state for at most ``max_keeps`` messages and drops idle chats; a message it forgot is still
    edited in place (its id comes back from storage), never posted twice."""
    outbox.max_keeps = 50
    for deal in range(400):
        for key in ("table", "hand:N", "hand:E", "hand:S", "hand:W"):
            chat = -1 if key == "table" else 1000 + deal % 300
            outbox.want(1, f"{key}:{deal}", chat, None, Rendered(f"{key} {deal}"))
        if deal % 50 == 49:
            await outbox.drain()
            assert outbox.remembered() <= 50 + 5 * 50  # the cap, plus what waits to be sent
    await outbox.drain()
    await asyncio.sleep(0.05)  # idle lanes are dropped once their interval has passed
    assert outbox.remembered() <= 50
    assert outbox.lanes() == 0
    posted = len([c for c in api.calls if c.method == "sendMessage"])
    assert posted == 400 * 5
    outbox.want(1, "table:0", -1, None, Rendered("table 0, edited much later"))
    await outbox.drain()
    assert len([c for c in api.calls if c.method == "sendMessage"]) == posted  # no new post
    [first] = [m for m in api.chat_messages(-1) if m.text.startswith("table 0")]
    assert first.text == "table 0, edited much later"


async def test_the_gate_lets_the_most_urgent_call_go_first() -> None:
    """Under the overall cap, a prompt or a result goes before the group's table, and that
    before a waiting player's screen; a screen that became its player's prompt while it waited
    is hurried; the rate holds."""
    gate = Gate(rate=50.0)
    order: list[str] = []

    async def call(name: str, priority: int, key: object = None) -> None:
        await gate.acquire(priority, key)
        order.append(name)

    await gate.acquire(URGENT)  # the first goes at once and starts the clock
    started = time.monotonic()
    tasks = [asyncio.create_task(call(f"wait{i}", WAITING, f"w{i}")) for i in range(4)]
    await asyncio.sleep(0)
    tasks.append(asyncio.create_task(call("table", TABLE)))
    tasks.append(asyncio.create_task(call("prompt", URGENT)))
    await asyncio.sleep(0)
    gate.hurry("w3", URGENT)  # West's screen is their prompt now
    await asyncio.gather(*tasks)
    assert order[:3] == ["prompt", "wait3", "table"] or order[:3] == ["wait3", "prompt", "table"]
    assert order[3:] == ["wait0", "wait1", "wait2"]
    assert time.monotonic() - started >= 5 / 50 * 0.9  # six calls at 50 a second
    assert gate.waited[WAITING] == 4 and gate.waited[URGENT] == 1


async def test_under_the_overall_cap_the_prompt_passes_the_waiting_screens(
    api: FakeBotApi, outbox: Outbox
) -> None:
    """Twenty waiting players' screens are wanted, then one player's prompt: under a cap of
    20 calls a second the prompt is sent within the next few calls, the waiting screens after
    it, and every screen still ends on its latest content."""
    outbox.gate = Gate(20.0)
    for chat in range(201, 221):
        outbox.want(1, f"hand:{chat}", chat, None, Rendered("waiting"), WAITING)
    await asyncio.sleep(0.01)  # they are queued at the gate
    outbox.want(1, "hand:300", 300, None, Rendered("your call"), URGENT)
    await outbox.drain()
    order = [int(c.params["chat_id"]) for c in api.calls if c.method == "sendMessage"]
    assert sorted(order) == [*range(201, 221), 300]
    assert order.index(300) <= 2, order  # ahead of the waiting screens still at the gate
    assert all(api.chat_messages(chat)[-1].text == "waiting" for chat in range(201, 221))


@pytest.mark.parametrize("in_order", [False, True])
async def test_a_deals_result_follows_the_tables_last_version(
    api: FakeBotApi, outbox: Outbox, in_order: bool
) -> None:
    """A notice passes the table's coalescing edits (results and replies first), but a deal's
    result posted ``in_order`` waits for the table's last version queued before it: the last
    trick reaches the group no later than the result."""
    outbox.want(1, "table", CHAT, None, Rendered("trick 12"))
    await outbox.drain()
    entered = api.hold("sendMessage")  # hold the chat busy, so both queue up behind it
    outbox.post(CHAT, None, Rendered("a reply"))
    await asyncio.wait_for(entered.wait(), 5)
    outbox.want(1, "table", CHAT, None, Rendered("trick 13"))
    outbox.post(CHAT, None, Rendered("result"), in_order=in_order)
    api.release("sendMessage")
    await outbox.drain()
    order = [call.params.get("text") for call in api.calls if call.method in SHOWING]
    assert order[-2:] == (["trick 13", "result"] if in_order else ["result", "trick 13"])


SHOWING = ("sendMessage", "editMessageText")


@pytest.mark.filterwarnings("ignore:Please use 'Bot.getChat'")
async def test_no_pacing_but_the_outboxs_and_a_429_slows_its_chat_down(api: FakeBotApi) -> None:
    """PTB's bot with the outbox's limiter, over HTTP: calls to a group leave at once (the
    outbox paces them, not a second limiter); after Telegram's 429 the chat's next call waits
    the time it named, while other chats and the group's screens (counted apart) do not."""
    bot = ExtBot(api.token, base_url=api.base_url, rate_limiter=SlowDown())
    await bot.initialize()
    try:
        started = time.monotonic()
        for k in range(30):  # past any group's twenty a minute: the limiter does not hold them
            await bot.send_message(-100, f"m{k}")
        assert time.monotonic() - started < 3
        slow = {"description": "Too Many Requests: retry after 1", "parameters": {"retry_after": 1}}
        api.fail_queue.append(("sendMessage", 429, slow))
        with pytest.raises(RetryAfter):
            await bot.send_message(-100, "refused")
        refused_at = time.monotonic()
        await bot.send_message(-200, "another group")
        screen = {"receiver_user_id": 7, "ephemeral_message_parameters": {"receiver_user_id": 7}}
        await bot.do_api_request("getChat", api_kwargs={"chat_id": -100, **screen})
        assert time.monotonic() - refused_at < 0.5
        await bot.send_message(-100, "after the wait")
        assert time.monotonic() - refused_at >= 0.95
        texts = [c.params.get("text") for c in api.calls if c.method == "sendMessage"]
        assert texts[-2:] == ["another group", "after the wait"]
    finally:
        await bot.shutdown()


async def test_a_groups_screens_go_by_their_budget_the_prompt_first(
    api: FakeBotApi, outbox: Outbox
) -> None:
    """A group's ephemeral screens share one lane, paced by a budget a minute: of the screens
    wanted at once, the prompt of the player on turn goes first, and a waiting player's screen
    never stands in the overall cap's queue in front of a prompt."""
    api.bot_admin.add(-1)
    outbox.ephemeral_rate = 60.0  # one a second, a burst of four, the last kept for prompts
    for user in (11, 12, 13):
        outbox.want(1, f"eph:{user}", -1, None, Rendered(f"waits {user}"), WAITING, user)
    outbox.want(1, "eph:14", -1, None, Rendered("your turn"), URGENT, 14)
    await outbox.drain(timeout=20)
    sent = [c for c in api.calls if c.method == "sendMessage"]
    receivers = [c.params["ephemeral_message_parameters"]["receiver_user_id"] for c in sent]
    assert receivers[0] == 14 and sorted(receivers) == [11, 12, 13, 14]
    assert outbox.stats.ephemeral_calls == 4 and outbox.stats.group_calls == 0
    gaps = [b.at - a.at for a, b in itertools.pairwise(sent)]
    assert max(gaps) > 0.5  # past the burst, the budget paces them

    # Under a crowded overall cap, a prompt wanted after a waiting screen still goes first.
    outbox.gate = Gate(2.0)
    for user in (21, 22):  # other chats keep the cap's queue busy
        outbox.want(1, f"hand:{user}", user, None, Rendered("busy"), TABLE)
    outbox.want(1, "eph:11", -1, None, Rendered("waits again"), WAITING, 11)
    await asyncio.sleep(0.05)
    outbox.want(1, "eph:14", -1, None, Rendered("your turn again"), URGENT, 14)
    await outbox.drain(timeout=20)
    edits = [c for c in api.calls if c.method == "editEphemeralMessageText"]
    assert [c.params["receiver_user_id"] for c in edits] == [14, 11]


async def test_a_screen_nobody_may_be_sent_unasked_waits_for_the_players_press(
    api: FakeBotApi, outbox: Outbox
) -> None:
    """Where the bot is no administrator an ephemeral screen is posted only under its player's
    press (``ticket``), and edited after that; never posted unasked."""
    outbox.want(1, "eph:31", -1, None, Rendered("cards"), URGENT, 31, may_post=False)
    await outbox.drain()
    assert not api.ephemerals and not api.refused
    table = (await api._m_sendMessage({"chat_id": -1, "text": "table"}))["message_id"]
    query = await api.press(User(31, "Ann"), api.messages[(-1, table)], "b1:1:1:my")
    outbox.ticket(-1, 31, query)
    outbox.renew(1, "eph:31")
    outbox.want(1, "eph:31", -1, None, Rendered("cards"), URGENT, 31, may_post=False)
    await outbox.drain()
    [screen] = api.visible(31, -1)
    outbox.want(1, "eph:31", -1, None, Rendered("cards, later"), URGENT, 31, may_post=False)
    await outbox.drain()
    assert screen.text == "cards, later" and not api.refused


async def test_a_groups_budget_outlives_its_idle_lane(api: FakeBotApi, outbox: Outbox) -> None:
    """A screen a press at human pace: each finds the group's lane gone idle, and must still
    find the group's budget spent (a new lane must not bring a fresh burst)."""
    api.bot_admin.add(-1)
    outbox.ephemeral_rate = 600.0  # ten a second, a burst of four, one kept for prompts
    started = time.monotonic()
    for n in range(8):
        outbox.want(1, "eph:41", -1, None, Rendered(f"trick {n}"), WAITING, 41)
        await outbox.drain()
        await asyncio.sleep(0.001)  # the lane goes idle and is dropped
    assert outbox.stats.ephemeral_calls == 8
    assert time.monotonic() - started >= 0.4  # past the burst: a tenth of a second each


async def test_a_screen_renewed_before_this_process_knew_it_is_sent_anew(
    api: FakeBotApi, outbox: Outbox
) -> None:
    """After a restart (storage has the screen's id, this process does not remember it) a
    player's press of 🂠 must send the screen anew, not edit one their app dropped."""
    api.bot_admin.add(-1)
    outbox.want(1, "eph:51", -1, None, Rendered("cards"), URGENT, 51)
    await outbox.drain()
    [old] = api.visible(51, -1)
    api.vanish(User(51, "Ann"), -1)
    again = Outbox(outbox.bot, outbox.storage, group_interval=0.0, private_interval=0.0)
    try:
        again.renew(1, "eph:51")
        again.want(1, "eph:51", -1, None, Rendered("cards"), URGENT, 51)
        await again.drain()
    finally:
        await again.close()
    [new] = api.visible(51, -1)
    assert new.message_id != old.message_id
    assert any(c.method == "deleteEphemeralMessage" for c in api.calls)


async def test_a_waiting_players_screen_coalesces_at_its_pace_and_a_prompt_goes_at_once(
    api: FakeBotApi, outbox: Outbox
) -> None:
    """``live_interval``: the edits of a screen that only follows the others' play go at most
    that often (the newest content when its time comes, the states between never sent); the
    screen that becomes the player's prompt goes at once, and so does a post to the chat."""
    outbox.live_interval = 0.6
    outbox.want(1, "hand", CHAT, None, Rendered("v1"), WAITING)
    await outbox.drain()  # posted: a new screen is not held back
    outbox.want(1, "hand", CHAT, None, Rendered("v2"), WAITING)
    await outbox.drain()
    edited_v2 = time.monotonic()
    for version in ("v3", "v4"):  # the others play on
        await asyncio.sleep(0.05)
        outbox.want(1, "hand", CHAT, None, Rendered(version), WAITING)
    await asyncio.sleep(0.05)
    outbox.post(CHAT, None, Rendered("a reply"))  # a post does not wait behind the screen
    await asyncio.sleep(0.15)
    assert api.chat_messages(CHAT)[-1].text == "a reply"
    assert api.chat_messages(CHAT)[0].text == "v2"
    await outbox.drain(timeout=5)
    assert time.monotonic() - edited_v2 >= 0.55
    outbox.want(1, "hand", CHAT, None, Rendered("v5"), WAITING)
    await asyncio.sleep(0.05)
    prompted = time.monotonic()
    outbox.want(1, "hand", CHAT, None, Rendered("your turn"), URGENT)
    await outbox.drain(timeout=5)
    assert time.monotonic() - prompted < 0.3
    edits = [c.params["text"] for c in api.calls if c.method == "editMessageText"]
    assert edits == ["v2", "v4", "your turn"]


async def test_a_waiting_screen_is_drawn_only_when_it_goes(api: FakeBotApi, outbox: Outbox) -> None:
    """Content wanted as a way to draw it (a waiting player's screen): the versions the pace
    replaced before they went are never drawn; the one that goes is drawn once, and one
    that draws what the chat shows already costs no call."""
    outbox.live_interval = 0.5
    drawn: list[str] = []

    def later(text: str) -> Callable[[], Rendered]:
        def draw() -> Rendered:
            drawn.append(text)
            return Rendered(text)

        return draw

    outbox.want(1, "hand", CHAT, None, later("v1"), WAITING)
    await outbox.drain()
    outbox.want(1, "hand", CHAT, None, later("v2"), WAITING)
    await outbox.drain()
    for version in ("v3", "v4", "v5"):
        outbox.want(1, "hand", CHAT, None, later(version), WAITING)
    await outbox.drain(timeout=5)
    assert drawn == ["v1", "v2", "v5"]
    assert [m.text for m in api.chat_messages(CHAT)] == ["v5"]
    calls = len(api.calls)
    outbox.want(1, "hand", CHAT, None, later("v5"), WAITING)
    await outbox.drain(timeout=5)
    assert drawn[-1] == "v5" and len(api.calls) == calls and outbox.stats.skipped >= 1


async def test_a_waiting_screen_queued_while_its_chat_dozes_does_not_wake_it(
    api: FakeBotApi, outbox: Outbox
) -> None:
    """A waiting player's chat dozes until its screen's pace once a version went; the next
    version queued meanwhile leaves it dozing (woken, it would find the screen paced and doze
    again until the same time) and goes at the pace; a prompt wakes it at once."""
    outbox.live_interval = 0.5
    outbox.want(1, "hand", CHAT, None, Rendered("v1"), WAITING)
    await outbox.drain()
    outbox.want(1, "hand", CHAT, None, Rendered("v2"), WAITING)
    await outbox.drain()
    edited_v2 = time.monotonic()
    await asyncio.sleep(0.05)
    lane = outbox._lanes[(CHAT, False)]
    dozing = lane.wake
    assert dozing is not None and not dozing.done()
    outbox.want(1, "hand", CHAT, None, Rendered("v3"), WAITING)
    assert lane.wake is dozing and not dozing.done()
    await outbox.drain(timeout=5)
    assert time.monotonic() - edited_v2 >= 0.45
    await asyncio.sleep(0.05)
    dozing = lane.wake
    assert dozing is not None
    outbox.want(1, "hand", CHAT, None, Rendered("your turn"), URGENT)
    assert dozing.done()
    await outbox.drain(timeout=5)
    edits = [c.params["text"] for c in api.calls if c.method == "editMessageText"]
    assert edits == ["v2", "v3", "your turn"]
