"""Added to a group, the bot says once what to send there (and what admins of a privacy-mode
bot should know), in the language of whoever added it; a group that has a table hears its
table's language."""

from __future__ import annotations

from bot.i18n import Translator
from bot.plugin import Plugins
from bot.plugins import PLUGINS
from tests.bot.harness import GROUP, PLAYERS, Harness
from tests.fakeapi import BOT_USERNAME

ANNA, BOB = PLAYERS[0], PLAYERS[1]


async def test_a_group_is_greeted_once_in_the_adders_language(h: Harness) -> None:
    await h.api.add_to_group(BOB, -900)  # Bob speaks English
    await h.settle()
    [greeting] = h.api.chat_messages(-900)
    offered = Plugins(PLUGINS).offer().words(Translator("en"))
    assert greeting.text == Translator("en")("group.greeting", bot=BOT_USERNAME, **offered)
    assert "Send /bridge or /preferans to open" in greeting.text
    assert "(bridge, Preferans)" in greeting.text
    assert f"/bridge@{BOT_USERNAME}" in greeting.text
    await h.say(BOB, -900, "/help")  # another update: no second greeting
    assert sum("👋" in m.text for m in h.api.chat_messages(-900)) == 1
    # A group that already has a (Russian) table hears Russian, whoever adds the bot back.
    await h.say(ANNA, GROUP, "/bridge")
    await h.api.add_to_group(BOB, GROUP)
    await h.settle()
    assert h.api.chat_messages(GROUP)[-1].text.startswith("👋 Здравствуйте")
