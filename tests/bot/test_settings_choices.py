"""/settings offers each setting as one row of its choices, ✓ on the value it has now, the
languages named in themselves: a press sets the value it names (never "the next one"), and the
same message is edited to move the ✓. Both games, through the fake Bot API, in ru and en."""

from __future__ import annotations

import pytest

from bot.i18n import Translator
from tests.bot.harness import GROUP, PLAYERS, Harness
from tests.fakeapi import Sent

ANNA = PLAYERS[0]


def rows(sent: Sent) -> list[list[tuple[str, str]]]:
    keyboard = (sent.markup or {}).get("inline_keyboard", [])
    return [[(b["text"], b["callback_data"].rsplit(":", 1)[-1]) for b in row] for row in keyboard]


def row_of(sent: Sent, key: str) -> list[tuple[str, str]]:
    (row,) = [r for r in rows(sent) if all(v.startswith(key + "=") for _, v in r)]
    return row


def ticked(row: list[tuple[str, str]]) -> list[str]:
    return [value for label, value in row if label.startswith("✓ ")]


async def settings_message(h: Harness) -> Sent:
    await h.say(ANNA, GROUP, "/settings")
    return h.api.chat_messages(GROUP)[-1]


@pytest.mark.parametrize(
    ("command", "rows_wanted"),
    [
        (
            "/bridge",
            {"form": 2, "rules": 2, "part": 2, "lang": 2, "timer": 6, "round": 2, "pay": 3},
        ),
        (
            "/pref",
            {
                "variant": 4,
                "target": 4,
                "players": 2,
                # the group's conditions (PREFERANS.md §8), a row each
                "one_whister": 2,
                "half_whist": 2,
                "whist_play": 3,
                "compulsory": 4,
                "progression": 3,
                "exit": 5,
                "lang": 2,
                "timer": 6,
                "pay": 3,
            },
        ),
    ],
)
async def test_each_setting_is_a_row_of_choices_with_the_current_one_ticked(
    h: Harness, command: str, rows_wanted: dict[str, int]
) -> None:
    h.api.admins.add(ANNA.id)
    await h.say(ANNA, GROUP, command)
    sent = await settings_message(h)
    for key, count in rows_wanted.items():
        row = row_of(sent, key)
        assert len(row) == count, row
        assert len(ticked(row)) == 1, row  # exactly the value it has now
    assert ticked(row_of(sent, "lang")) == ["lang=ru"]
    assert [label for label, _ in row_of(sent, "lang")] == ["✓ Русский", "English"]
    assert ticked(row_of(sent, "timer")) == ["timer=0"]
    assert "Язык: Русский" in sent.text and "Язык: ru" not in sent.text
    # A press sets the value it names: three minutes, not "the next" (one).
    three = "timer=3"
    data = next(b["callback_data"] for b in sent.buttons() if b["callback_data"].endswith(three))
    await h.press(ANNA, sent, data)
    await h.settle()
    edited = next(m for m in h.api.chat_messages(GROUP) if m.message_id == sent.message_id)
    assert ticked(row_of(edited, "timer")) == ["timer=3"]
    assert Translator("ru")("settings.timer", minutes=3) in edited.text
    # Pressing the ticked one again changes nothing.
    data = next(b["callback_data"] for b in edited.buttons() if b["text"] == "✓ 3 мин")
    await h.press(ANNA, edited, data)
    await h.settle()
    again = next(m for m in h.api.chat_messages(GROUP) if m.message_id == sent.message_id)
    assert ticked(row_of(again, "timer")) == ["timer=3"]
    # English: the table's words, the languages still each in itself.
    data = next(b["callback_data"] for b in again.buttons() if b["text"] == "English")
    await h.press(ANNA, again, data)
    await h.settle()
    english = await settings_message(h)
    assert [label for label, _ in row_of(english, "lang")] == ["Русский", "✓ English"]
    assert "Language: English" in english.text
    assert [label for label, _ in row_of(english, "timer")][:2] == ["no timer", "1 min"]
