"""Scoresheets for real cards: a robot cannot be written on one (it would get a money account
and a place in /settle); ``/keep end`` beside an open pulka (and ``/prefkeep end`` beside an
open rubber) says which command ends it; a non-member's typed /deal or /undo changes nothing,
as their button presses do not."""

from __future__ import annotations

import sqlite3

import pytest

from bot.i18n import Translator
from tests.bot.harness import GROUP, PLAYERS, Harness, data_of
from tests.fakeapi import User

ANNA, BOB, CAT, DIMA = PLAYERS
EVE = User(151, "Eve", "en", "eve")


def entries(h: Harness) -> int:
    con = sqlite3.connect(h.database)
    try:
        return int(con.execute("SELECT count(*) FROM events").fetchone()[0])
    finally:
        con.close()


async def test_a_robot_cannot_be_written_on_a_scoresheet(h: Harness) -> None:
    await h.say(ANNA, ANNA.id, "/start")
    await h.say(ANNA, GROUP, "/bridge")
    table = h.table_message()
    assert not (await h.press(ANNA, table, data_of(table, ":sit:N"))).get("text")
    table = h.table_message()
    assert not (await h.press(ANNA, table, data_of(table, ":rb:E"))).get("text")
    robot = Translator("ru")("robot.name") + " 1"
    assert robot in h.table_message().text
    await h.say(ANNA, GROUP, f"/keep Anna, {robot}, Boris, Guest")
    said = h.api.chat_messages(GROUP)[-1].text
    assert said == Translator("ru")("refusal.keeper_robot", name=robot), said
    assert "📝" not in said


async def test_ending_the_other_games_sheet_names_its_command(h: Harness) -> None:
    await h.say(ANNA, GROUP, "/prefkeep Аня Боря Вика")
    await h.say(ANNA, GROUP, "/keep end")
    said = h.api.chat_messages(GROUP)[-1].text
    assert "/prefkeep конец" in said, said  # the group's words, one way for both games
    await h.say(ANNA, GROUP, "/prefkeep end")
    await h.say(ANNA, GROUP, "/keep Anna Boris Cat Dima")
    await h.say(ANNA, GROUP, "/prefkeep конец")
    assert "/keep конец" in h.api.chat_messages(GROUP)[-1].text


async def test_a_non_members_typed_entries_change_nothing(h: Harness) -> None:
    h.api.outsiders.add((GROUP, EVE.id))
    refused = Translator("en")("refusal.not_member_keeper")
    for opening in ("/prefkeep Аня Боря Вика", "/keep Anna Boris Cat Dima"):
        await h.say(ANNA, GROUP, opening)
        before = entries(h)
        for typed in ("/deal 7H 0 whist/pass 6/3/1", "/deal 3NT N =", "/undo"):
            await h.say(EVE, GROUP, typed)
            said = h.api.chat_messages(GROUP)[-1].text
            assert said == Translator("ru")("refusal.not_member_keeper") or said == refused, said
        assert entries(h) == before
        end = "/prefkeep end" if "prefkeep" in opening else "/keep end"
        await h.say(ANNA, GROUP, end)


@pytest.mark.parametrize(
    ("opening", "entries"),
    [
        ("/keep @anna @bob @cat @dima", ("/deal 4SX S -2", "/deal 3NT N =")),
        ("/prefkeep @anna @bob @cat", ("/deal 7H 1 whist/pass 6/3/1", "/deal 6S 2 pass/pass")),
    ],
)
async def test_an_old_sheet_message_keeps_its_own_entry_and_sheet_forever(
    h: Harness, opening: str, entries: tuple[str, str]
) -> None:
    """Each kept sheet's message says what was entered to make it, over the sheet as it
    then stood, for good: after the next entry it only loses its buttons. (It used to take
    the next entry's ✅ line over its own older sheet: "4♠X S −2" over an empty sheet.)"""
    for user in PLAYERS:
        await h.say(user, user.id, "/start")
    await h.say(PLAYERS[0], GROUP, opening)
    first = h.api.chat_messages(GROUP)[-1]
    empty = first.text
    assert first.buttons() and "✅" not in empty
    await h.say(PLAYERS[1], GROUP, entries[0])
    second = h.api.chat_messages(GROUP)[-1]
    assert second.message_id != first.message_id and "✅" in second.text
    shown = second.text
    now = h.api.messages[(GROUP, first.message_id)]
    assert now.text == empty and not now.buttons()  # the same text, no buttons
    await h.say(PLAYERS[2], GROUP, entries[1])
    now = h.api.messages[(GROUP, second.message_id)]
    assert now.text == shown and not now.buttons()

    def written_by(text: str) -> str:
        return next(line for line in text.splitlines() if "✅" in line)

    assert "Bob" in written_by(now.text)  # the entry that made it, by whom: for good
    assert "Cat" in written_by(h.api.chat_messages(GROUP)[-1].text)
