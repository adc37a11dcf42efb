"""What Telegram throws at a bot: RetryAfter, a player who blocks the bot, a group that becomes a
supergroup. Play survives each, and nothing acknowledged is lost."""

from __future__ import annotations

import asyncio

from storage.interface import Storage
from tests.bot.harness import GROUP, PLAYERS, Harness, actor, data_of, seat_four


async def test_retry_after_sends_the_latest_content_once(h: Harness) -> None:
    await seat_four(h)
    h.api.fail_queue.append(
        (
            "editMessageText",
            429,
            {"description": "Too Many Requests: retry after 1", "parameters": {"retry_after": 1}},
        )
    )
    for _ in range(3):
        user, message = actor(h)
        answer = await h.press(user, message, data_of(message, ":a:call.P"))
        assert not answer.get("text")
    await h.settle()
    assert h.outbox.stats.retry_after == 1
    _, latest = actor(h)  # the private message of the player to call shows every call
    assert latest.text.count("Pass") + latest.text.count("Пас") >= 3


async def test_a_player_who_blocks_the_bot_pauses_the_table(h: Harness) -> None:
    await seat_four(h)
    user, message = actor(h)
    await h.press(user, message, data_of(message, ":a:call.1H"))
    nxt, message = actor(h)
    held_data = data_of(message, ":a:call.P")  # the button as it was before the pause
    blocker = next(p for p in PLAYERS if p not in (user, nxt))
    await h.api.block(blocker)
    await h.settle()
    assert "Пауза" in h.table_message().text and blocker.first_name in h.table_message().text
    assert h.action_message(nxt) is None  # buttons are withdrawn while paused
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    before = len(await storage.events(1, 1))
    answer = await h.press(nxt, message, held_data)
    assert "blocked" in answer["text"] or "заблокирован" in answer["text"]
    assert len(await storage.events(1, 1)) == before
    # They unblock and press Start: play resumes and their hand is there again.
    h.api.blocked.discard(blocker.id)
    await h.say(blocker, blocker.id, "/start")
    assert "Пауза" not in h.table_message().text
    nxt, message = actor(h)
    answer = await h.press(nxt, message, data_of(message, ":a:call.P"))
    assert not answer.get("text")
    assert len(await storage.events(1, 1)) == before + 1


async def test_a_player_who_came_back_through_another_process_resumes_play_here(
    h: Harness,
) -> None:
    """Among several active processes (``SHARDS``) a player's /start may reach another one,
    which clears the flag in storage only: the first press here finds them back."""
    await seat_four(h)
    user, message = actor(h)
    await h.press(user, message, data_of(message, ":a:call.1H"))
    nxt, message = actor(h)
    blocker = next(p for p in PLAYERS if p not in (user, nxt))
    assert h.app is not None
    h.app.bot_data["timers"].paused_check = 0.1
    await h.api.block(blocker)
    await h.settle()
    storage: Storage = h.app.bot_data["storage"]
    player = await storage.player_by_tg(blocker.id)
    assert player is not None
    before = len(await storage.events(1, 1))
    h.api.blocked.discard(blocker.id)
    await storage.set_player_flag(player.id, "blocked", False)  # what the other one wrote
    # Nobody presses: the paused table is looked at again, and resumes.
    for _ in range(100):
        await asyncio.sleep(0.05)
        await h.settle()
        if "Пауза" not in h.table_message().text:
            break
    assert "Пауза" not in h.table_message().text
    nxt, message = actor(h)
    answer = await h.press(nxt, message, data_of(message, ":a:call.P"))
    assert not answer.get("text"), answer
    assert len(await storage.events(1, 1)) == before + 1


async def test_a_press_at_a_paused_table_finds_a_player_back_through_another_process(
    h: Harness,
) -> None:
    await seat_four(h)
    user, message = actor(h)
    await h.press(user, message, data_of(message, ":a:call.1H"))
    nxt, message = actor(h)
    held_data = data_of(message, ":a:call.P")
    blocker = next(p for p in PLAYERS if p not in (user, nxt))
    await h.api.block(blocker)
    await h.settle()
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    player = await storage.player_by_tg(blocker.id)
    assert player is not None
    before = len(await storage.events(1, 1))
    h.api.blocked.discard(blocker.id)
    await storage.set_player_flag(player.id, "blocked", False)
    answer = await h.press(nxt, message, held_data)
    assert not answer.get("text"), answer
    assert len(await storage.events(1, 1)) == before + 1


async def test_a_block_found_by_a_failed_send_also_pauses(h: Harness) -> None:
    await seat_four(h)
    user, message = actor(h)
    # The next to call: the bot must write to them (a waiting player's message is left alone).
    silent = PLAYERS[(PLAYERS.index(user) + 1) % 4]
    h.api.blocked.add(silent.id)  # no my_chat_member update: only the 403 tells
    await h.press(user, message, data_of(message, ":a:call.1S"))
    await h.settle()
    assert "Пауза" in h.table_message().text


async def test_group_upgraded_to_supergroup_keeps_the_table(h: Harness) -> None:
    await seat_four(h)
    user, message = actor(h)
    new_id = -1_000_000_000_100
    await h.api.migrate_group(PLAYERS[0], GROUP, new_id)
    await h.settle()
    answer = await h.press(user, message, data_of(message, ":a:call.P"))
    assert not answer.get("text")
    await h.settle()
    # The table message now lives in the supergroup (the call just made is in the log).
    table = h.table_message(new_id)
    assert "сдача 1" in table.text
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    chat = await storage.chat_by_tg(new_id)
    assert chat is not None and await storage.table_in(chat.id, None) is not None
    await h.say(PLAYERS[0], new_id, "/score")
    assert (
        "запись" in h.api.chat_messages(new_id)[-1].text
        or "Роббер" in h.api.chat_messages(new_id)[-1].text
    )
