"""Settings, leaving, the welcome and help, and what follows a rubber."""

from __future__ import annotations

import random

from bot.i18n import Translator
from storage.interface import Storage
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.fakeapi import Sent, User

STRANGER = User(200, "Stranger", "en")
ADMIN = User(201, "Admin", "en")


def storage_of(h: Harness) -> Storage:
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    return storage


async def test_settings_by_players_and_admins_only(h: Harness) -> None:
    await h.say(PLAYERS[0], GROUP, "/bridge")
    await h.say(PLAYERS[0], GROUP, "/settings")
    settings = h.api.chat_messages(GROUP)[-1]
    assert "настройки" in settings.text
    switch = next(
        b["callback_data"] for b in settings.buttons() if "rules=classic" in b["callback_data"]
    )
    answer = await h.press(STRANGER, settings, switch)
    assert answer["text"] == "Only a seated player or a group admin can change this."
    h.api.admins.add(ADMIN.id)
    answer = await h.press(ADMIN, settings, switch)
    assert answer["text"] == "Saved."
    assert "классический" in settings.text  # the settings message itself was edited
    table = await storage_of(h).get_table(1)
    assert table.settings.options["rules"] == "classic"
    await h.say(ADMIN, GROUP, "/settings stake 10 RUB")
    chat = await storage_of(h).get_chat(1)  # money is the group's, whatever table
    assert (chat.settings.price("points"), chat.settings.currency) == (10, "RUB")
    await h.say(ADMIN, GROUP, "/settings stake ten")
    assert "stake" in h.api.chat_messages(GROUP)[-1].text
    assert (await storage_of(h).get_chat(1)).settings.price("points") == 10
    # Rounding and who records payments are the group's too.
    await h.say(ADMIN, GROUP, "/settings")
    settings = h.api.chat_messages(GROUP)[-1]
    for key in ("round=exact", "pay=either"):
        data = next(b["callback_data"] for b in settings.buttons() if key in b["callback_data"])
        assert (await h.press(ADMIN, settings, data))["text"] == "Saved."
    group = (await storage_of(h).get_chat(1)).settings
    assert (group.rounding.value, group.payments.value) == ("exact", "either")


async def test_language_switch_changes_the_group_messages(h: Harness) -> None:
    await h.say(PLAYERS[0], GROUP, "/bridge")
    await h.say(PLAYERS[0], GROUP, "/settings")
    settings = h.api.chat_messages(GROUP)[-1]
    h.api.admins.add(PLAYERS[0].id)
    switch = next(b["callback_data"] for b in settings.buttons() if "lang=en" in b["callback_data"])
    await h.press(PLAYERS[0], settings, switch)
    assert "Bridge · table #1" in h.table_message().text


async def test_leave_and_sit_again_before_the_rubber(h: Harness) -> None:
    await h.say(PLAYERS[0], GROUP, "/bridge")
    table = h.table_message()
    sit = next(b["callback_data"] for b in table.buttons() if b["callback_data"].endswith("sit:N"))
    await h.say(PLAYERS[0], PLAYERS[0].id, "/start")  # may write: sits at once
    answer = await h.press(PLAYERS[0], table, sit)
    assert not answer.get("text") and "Anna" in h.table_message().text
    await h.say(PLAYERS[0], GROUP, "/leave")
    assert "Anna" not in h.table_message().text
    await h.say(PLAYERS[0], GROUP, "/leave")
    assert h.api.chat_messages(GROUP)[-1].text in (
        "Вы не сидите за этим столом.",
        "You are not seated at this table.",
    )


async def test_welcome_lists_tables_and_help(h: Harness) -> None:
    await seat_four(h)
    await h.say(PLAYERS[1], PLAYERS[1].id, "/start")
    welcome = h.api.chat_messages(PLAYERS[1].id)[-1].text
    assert "Hello, Bob" in welcome and "#1" in welcome
    await h.say(PLAYERS[1], PLAYERS[1].id, "/help")
    assert "/bridge" in h.api.chat_messages(PLAYERS[1].id)[-1].text


async def a_rubber_played(h: Harness) -> tuple[Driver, Sent]:
    """Four seated, a rubber played to its end: the driver, and the rubber's result."""
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(5), short=True)
    await driver.play_until(driver.rubber_over)
    over = next(
        m
        for m in reversed(h.api.chat_messages(GROUP))
        if "Роббер окончен" in m.text and m.kind != "photo"
    )
    return driver, over


async def test_after_a_rubber_the_same_four_play_on_with_new_partners(h: Harness) -> None:
    driver, over = await a_rubber_played(h)
    # The group's first rubber, nothing priced: its result is everyone's account, one list.
    assert "Итог, он же счёт каждого" in over.text and "Баланс" not in over.text
    mid_rubber = await h.press(STRANGER, over, _button(over, ":np"))
    assert mid_rubber["text"] == "You are not seated at this table."
    answer = await h.press(PLAYERS[2], over, _button(over, ":np"))
    assert not answer.get("text")
    # One press deals nobody into a money rubber: it starts when all four have pressed,
    # and the group sees who is ready in one message, edited.
    table = await storage_of(h).get_table(1)
    assert table.match_id is None
    await h.settle()
    ready = next(m for m in h.api.chat_messages(GROUP) if "готовы 1 из 4" in m.text)
    twice = await h.press(PLAYERS[2], over, _button(over, ":nr"))
    assert twice.get("text")  # already pressed: nothing changes
    for player in (PLAYERS[0], PLAYERS[1]):
        assert not (await h.press(player, over, _button(over, ":nr"))).get("text")
    await h.settle()
    edited = next(m for m in h.api.chat_messages(GROUP) if m.message_id == ready.message_id)
    assert "готовы 3 из 4" in edited.text
    assert (await storage_of(h).get_table(1)).match_id is None
    assert not (await h.press(PLAYERS[3], over, _button(over, ":nr"))).get("text")
    await h.settle()
    table = await storage_of(h).get_table(1)
    assert table.match_id is not None and len(table.seats) == 4
    edited = next(m for m in h.api.chat_messages(GROUP) if m.message_id == ready.message_id)
    assert "из 4" not in edited.text and "началась" in edited.text  # the same message: it began
    again = await h.press(PLAYERS[3], over, _button(over, ":nr"))
    assert again["text"] in ("A rubber is already in progress.", "Роббер уже идёт.")
    assert driver.actor() is not None  # the new rubber's first deal offers calls
    # Deals are counted from 1 again in the new rubber (the table's log goes on counting).
    assert table.current_deal > 1
    assert "сдача 1</b> · сдаёт" in h.table_message().text


async def test_a_player_who_stands_up_ends_the_call_for_the_next_rubber(h: Harness) -> None:
    _driver, over = await a_rubber_played(h)
    assert not (await h.press(PLAYERS[0], over, _button(over, ":nr"))).get("text")
    await h.settle()
    ready = next(m for m in h.api.chat_messages(GROUP) if "готовы 1 из 4" in m.text)
    await h.say(PLAYERS[3], GROUP, "/leave")  # Dima stops here: he may, before it starts
    await h.settle()
    edited = next(m for m in h.api.chat_messages(GROUP) if m.message_id == ready.message_id)
    assert "освободилось" in edited.text and not edited.buttons(), edited.text
    assert (await storage_of(h).get_table(1)).match_id is None
    assert len((await storage_of(h).get_table(1)).seats) == 3


def _button(message: Sent, suffix: str) -> str:
    return next(
        b["callback_data"] for b in message.buttons() if b.get("callback_data", "").endswith(suffix)
    )


async def test_the_group_is_answered_in_the_tables_language_whoever_writes(h: Harness) -> None:
    """A Russian table: an English-speaking player's commands in the group get Russian replies
    (the group reads them), while the same player's private chat stays in English."""
    bob = PLAYERS[1]
    assert bob.language_code == "en"
    await h.say(bob, GROUP, "/score")  # a group not met yet: answered in the writer's language
    assert h.api.chat_messages(GROUP)[-1].text.startswith("No table here yet")
    await h.say(PLAYERS[0], GROUP, "/bridge")  # Anna opens it: the group is met in Russian
    await h.say(bob, GROUP, "/bridge")
    assert h.api.chat_messages(GROUP)[-1].text == "Стол уже открыт: его сообщение выше."
    await h.say(bob, GROUP, "/leave")
    assert h.api.chat_messages(GROUP)[-1].text == Translator("ru")("refusal.not_seated")
    await h.say(bob, bob.id, "/help")
    assert "bridge" in h.api.chat_messages(bob.id)[-1].text.lower()
    assert not any("\u0400" <= ch <= "\u04ff" for ch in h.api.chat_messages(bob.id)[-1].text[:40])


async def test_the_seating_message_closes_when_the_fourth_sits_by_deep_link(h: Harness) -> None:
    """The four sit through deep links from their private chats: the group's seating message
    then names all four and offers no Sit button any more."""
    await seat_four(h)
    [seating] = [m for m in h.api.chat_messages(GROUP) if "Нажмите место" in m.history[0][1]]
    assert not seating.buttons()
    assert all(user.first_name in seating.text for user in PLAYERS)


async def test_the_sheet_picture_comes_with_the_result_before_later_replies(h: Harness) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(6), short=True)
    await driver.play_until(driver.rubber_over)
    await h.say(PLAYERS[0], GROUP, "/ledger")  # at once, while the picture is drawn
    await h.settle()
    group = h.api.chat_messages(GROUP)
    over = next(m for m in group if "Роббер окончен" in m.text)
    [photo] = [m for m in group if m.kind == "photo"]
    ledger = next(m for m in group if "Баланс" in m.text and m.message_id > over.message_id + 1)
    assert photo.message_id == over.message_id + 1 < ledger.message_id


async def test_help_names_every_command_of_both_games_the_tables_first(h: Harness) -> None:
    await h.say(PLAYERS[0], GROUP, "/preferans")
    await h.say(PLAYERS[0], GROUP, "/help")
    text = h.api.chat_messages(GROUP)[-1].text
    assert text.index("<b>Преферанс</b>") < text.index("<b>Бридж</b>")  # the table's game first
    for word in ("/pbn", "🤖", "/prefkeep", "/keep", "/ledger", "/settle", "/sub", "/end"):
        assert word in text, word
    assert "роббер или пуля" in text and "запись роббера" not in text
    await h.say(PLAYERS[1], PLAYERS[1].id, "/help")  # Bob reads English; no table here
    private = h.api.chat_messages(PLAYERS[1].id)[-1].text
    assert private.index("<b>Bridge</b>") < private.index("<b>Preferans</b>")


async def test_undo_at_a_table_played_online_says_how_to_take_back(h: Harness) -> None:
    """/undo at an online table means the player's own last call or card: the answer says
    where that is (↩ on their screen), not the scorekeeper's help."""
    await seat_four(h)
    await h.say(PLAYERS[0], GROUP, "/undo")
    told = h.api.chat_messages(GROUP)[-1].text
    assert told == Translator("ru")("refusal.undo_online"), told


async def test_score_in_a_private_chat_shows_my_tables_sheets(h: Harness) -> None:
    """/score in a private chat: the sheet of each table the person sits at, under its
    group's name; for someone seated nowhere, where /score works."""
    await seat_four(h)
    await h.say(PLAYERS[0], PLAYERS[0].id, "/score")
    sheet = h.api.chat_messages(PLAYERS[0].id)[-1].text
    ru = Translator("ru")
    assert sheet.startswith(ru("score.in_group", chat="Club")), sheet
    assert "<pre>" in sheet  # the rubber's sheet itself
    stranger = User(777, "Zed", "en")
    await h.say(stranger, stranger.id, "/score")
    told = h.api.chat_messages(stranger.id)[-1].text
    assert told == Translator("en")("score.no_tables"), told


async def test_seats_are_named_as_players_say_them_in_sentences(h: Harness) -> None:
    """ "Вы сели: Запад (З)", not "на место З" (a letter that reads as a digit beside
    numbers); a Preferans seat is "место 3", never "место Место 3"."""
    await seat_four(h)
    ru, en = Translator("ru"), Translator("en")
    anna = next(m.text for m in h.api.chat_messages(PLAYERS[0].id) if "Вы сели" in m.text)
    assert anna.startswith(ru("private.seated", seat="Север (С)", chat="Club")), anna
    bob = next(m.text for m in h.api.chat_messages(PLAYERS[1].id) if "You are seated" in m.text)
    assert bob.startswith(en("private.seated", seat="East (E)", chat="Club")), bob
    for text in (m.text for user in PLAYERS for m in h.api.chat_messages(user.id)):
        assert "место Место" not in text and "на место З" not in text
