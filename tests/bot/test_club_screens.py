"""What a club meets every deal, read off the messages the real bot sent through the fake Bot
API: players with long, emoji and RTL names play Preferans deals and a bridge auction by
pressing offered buttons; every monospace block of every message version fits 32 cells, the
Preferans card buttons are a row per suit in ♠ ♦ ♣ ♥ order, the turn line reads as bridge's,
calls are lower-case mid-line, and a seat letter never stands beside a number."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

from bot.views.text import PHONE, cells
from tests.bot.harness import GROUP, PLAYERS, Harness, actor, data_of, seat_four
from tests.bot.test_preferans_table import _choose, _offer, sit_all
from tests.fakeapi import FakeBotApi, Sent, User

HOSTILE = [
    User(501, "Геннадий Петрович Засядько-Оболенский", "ru", "gena"),
    User(502, "🐻🐻🐻🐻🐻🐻🐻🐻🐻🐻🐻🐻", "ru"),
    User(503, "שלום עליכם חברים יקרים", "en"),
]
PRE = re.compile(r"<pre>(.*?)</pre>", re.S)
ORDER = "♠♦♣♥"


def versions(api: FakeBotApi, chat: int) -> list[str]:
    return [text for m in api.chat_messages(chat) for _, text in m.history] or [
        m.text for m in api.chat_messages(chat)
    ]


def wide(text: str) -> list[str]:
    return [
        line
        for block in PRE.findall(text)
        for line in html.unescape(block).splitlines()
        if cells(line) > PHONE
    ]


def card_rows(sent: Sent) -> list[str]:
    keyboard = (sent.markup or {}).get("inline_keyboard", [])
    rows = []
    for row in keyboard:
        suits = [b["text"].lstrip("✅")[:1] for b in row]
        if suits and all(s in ORDER for s in suits):
            rows.append("".join(suits))
    return rows


async def test_a_preferans_table_of_hostile_names_reads_right_on_a_phone(
    api: FakeBotApi, tmp_path: Path
) -> None:
    api.keep_history = True
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=5)
    await h.start()
    rng = random.Random(7)
    rows_checked = 0
    try:
        for user in HOSTILE:
            await h.say(user, user.id, "/start")
        await h.say(HOSTILE[0], GROUP, "/preferans")
        await sit_all(h, HOSTILE)
        while (
            sum(m.text.startswith(("<b>Сдача ", "<b>Deal ")) for m in api.chat_messages(GROUP)) < 2
        ):
            found = _offer(h, HOSTILE)
            assert found is not None
            user, sent, data = found
            for row in card_rows(sent):  # one suit a row, the rows in ♠ ♦ ♣ ♥ order
                assert len(set(row)) == 1, row
                rows_checked += 1
            firsts = [row[0] for row in card_rows(sent)]
            assert firsts == sorted(firsts, key=ORDER.index), firsts
            await h.press(user, sent, _choose(rng, data))
        api.rich_refused = True  # the monospace sheet, the text a phone shows without tables
        await h.say(HOSTILE[1], GROUP, "/score")
        await h.settle()
    finally:
        await h.stop()
    assert rows_checked > 20
    group = versions(api, GROUP)
    for chat in (GROUP, *(u.id for u in HOSTILE)):
        for text in versions(api, chat):
            assert not wide(text), (chat, wide(text))
    tables = [t for t in group if "🃏" in t and "Преферанс" in t]
    assert tables and not any("Ждём" in t for t in tables)
    assert any("▶ Слово: " in t for t in tables) and any("▶ Ход: " in t for t in tables)
    assert not any(re.search(r"Торговля: .*\S (Пас|Мизер)\b", t) for t in tables)
    sheet = next(t for t in reversed(group) if "<pre>" in t and "Пуля" in t)
    assert not wide(sheet) and "Геннадий" in sheet  # a column head: the first word


async def test_a_bridge_table_never_puts_a_seat_letter_by_a_number(h: Harness) -> None:
    h.api.keep_history = True
    await seat_four(h)
    for _ in range(4):  # a passed-out deal, then a call of the next
        user, message = actor(h)
        await h.press(user, message, data_of(message, ":a:call.P"))
    await h.settle()
    user, message = actor(h)
    await h.press(user, message, data_of(message, ":a:call.1C"))
    await h.settle()
    texts = [t for chat in (GROUP, *(p.id for p in PLAYERS)) for t in versions(h.api, chat)]
    for text in texts:
        assert not wide(text), wide(text)
        plain = re.sub(r"<[^>]+>", "", text)
        assert not re.search(r"(?<![А-Яа-я])З \d", plain), plain  # З reads as 3 beside a digit
    grids = [block for t in texts for block in PRE.findall(t) if block.lstrip().startswith("С")]
    assert grids, "no auction grid"
