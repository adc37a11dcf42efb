"""A group's own settings work before any table: /settings shows them in the group's language
(first that of whoever met the bot there), its admins set a price or switch the language and
who records payments, others are refused and nothing changes, and a table opened afterwards
speaks the group's language and carries its prices."""

from __future__ import annotations

from bot.callback_data import Act, Button
from bot.i18n import Translator
from tests.bot.harness import GROUP, PLAYERS, Harness

ANNA, BOB, CAT = PLAYERS[0], PLAYERS[1], PLAYERS[2]
OTHER = -4242


def newest(h: Harness, chat: int = GROUP) -> str:
    return h.api.chat_messages(chat)[-1].text


async def test_a_group_sets_its_language_and_prices_before_any_table(h: Harness) -> None:
    en, ru = Translator("en"), Translator("ru")
    h.api.admins.add(CAT.id)
    # Bob (English) is the first to meet the bot here: the group speaks English.
    await h.say(BOB, GROUP, "/settings")
    shown = h.api.chat_messages(GROUP)[-1]
    assert en("settings.group_title") in shown.text
    assert en("settings.group_language", language="English") in shown.text
    assert en("settings.no_price.points") in shown.text
    assert en("settings.no_price.whists") in shown.text
    # a price, by someone who is not an admin: refused, nothing set
    await h.say(BOB, GROUP, "/settings stake 10 EUR")
    assert newest(h) == en("refusal.group_admins")
    # by an admin: set, and shown
    await h.say(CAT, GROUP, "/settings stake 10 EUR")
    assert "10" in newest(h) and "EUR" in newest(h)
    assert en("settings.no_price.points") not in newest(h)
    # junk after a price word: its own refusal, nothing else
    await h.say(CAT, GROUP, "/settings вист lots")
    assert newest(h) == en("refusal.bad_price.whists")
    # a table's own word with no table: open one first
    await h.say(CAT, GROUP, "/settings target 20")
    assert newest(h) == "No table here yet: send /bridge or /preferans to open one."
    # the language button: refused to a member, done by an admin (the message follows)
    await h.say(BOB, GROUP, "/settings")
    screen = h.api.chat_messages(GROUP)[-1]
    switch = next(b["callback_data"] for b in screen.buttons() if "lang=ru" in b["callback_data"])
    answer = await h.press(BOB, screen, switch)
    assert answer.get("text") == en("refusal.group_admins")
    answer = await h.press(CAT, screen, switch)
    assert answer.get("text") == en("settings.saved")
    await h.settle()
    edited = next(m for m in h.api.chat_messages(GROUP) if m.message_id == screen.message_id)
    assert ru("settings.group_language", language="Русский") in edited.text
    assert "lang=en" in str(edited.buttons())
    # forged or malformed presses: refused, nothing changes
    for arg in ("lang=xx", "round=nonsense", "pay=", "timer=5", "zzz"):
        forged = Button(0, 0, Act.SETTING, arg).encode()
        assert (await h.press(CAT, edited, forged)).get("text"), arg
    await h.say(BOB, GROUP, "/settings")
    assert ru("settings.group_language", language="Русский") in newest(h)
    # A table opened now (by English-speaking Bob) speaks the group's Russian and has its price.
    await h.say(BOB, GROUP, "/bridge")
    await h.say(BOB, GROUP, "/settings")
    assert ru("settings.language", language="Русский") in newest(h)
    assert "EUR" in newest(h)


async def test_a_group_first_met_through_a_table_speaks_its_openers_language(h: Harness) -> None:
    """No setting at all: Bob opens the group's first table and it speaks English; Anna's
    group, Russian. The greeting of a group the bot is added to sets it the same way."""
    await h.say(BOB, OTHER, "/bridge")
    await h.say(BOB, OTHER, "/settings")
    assert Translator("en")("settings.language", language="English") in newest(h, OTHER)
    await h.say(ANNA, GROUP, "/bridge")
    await h.say(ANNA, GROUP, "/settings")
    assert Translator("ru")("settings.language", language="Русский") in newest(h)
    await h.api.add_to_group(BOB, -777)
    await h.settle()
    await h.say(ANNA, -777, "/settings")  # Anna speaks Russian; the group was met in English
    assert Translator("en")("settings.group_language", language="English") in newest(h, -777)
