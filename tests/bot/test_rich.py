"""What is a table goes as a rich message (Bot API 10.1: real tables), the text as before when
Telegram refuses one."""

from __future__ import annotations

import random
import re

from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, scorekept_rubber, seat_four

NAMES = "Ann <b>Bob</b> Cat Dan"


async def test_the_ledger_is_a_table_and_text_where_telegram_refuses_it(h: Harness) -> None:
    await scorekept_rubber(h, PLAYERS[0], NAMES)
    await h.say(PLAYERS[0], GROUP, "/ledger")
    ledger = h.api.chat_messages(GROUP)[-1]
    assert ledger.kind == "rich", ledger.text
    rows = re.findall(r"<tr>(.*?)</tr>", ledger.text)
    assert len(rows) == 5 and rows[0].count("<th>") == 3  # a head and the four players
    assert "&lt;b&gt;Bob&lt;/b&gt;" in ledger.text  # names escaped, as in every message
    assert [b["text"] for b in ledger.buttons()]  # the chart, CSV and settle buttons stay
    # A chat where Telegram refuses rich messages gets the text, at once.
    h.api.rich_refused = True
    await h.say(PLAYERS[0], GROUP, "/ledger")
    text = h.api.chat_messages(GROUP)[-1]
    assert text.kind == "text" and "робберов и пуль: 1" in text.text
    assert ("sendRichMessage", "Bad Request: rich messages can't be sent to the chat") in (
        h.api.refused
    )


async def test_a_bot_api_without_rich_messages_gets_text_from_then_on(h: Harness) -> None:
    await scorekept_rubber(h, PLAYERS[0], NAMES)
    missing = {"description": "Not Found"}
    h.api.fail_queue.append(("sendRichMessage", 404, missing))
    for _ in range(2):
        await h.say(PLAYERS[0], GROUP, "/ledger")
        assert h.api.chat_messages(GROUP)[-1].kind == "text"
    tried = [c for c in h.api.calls if c.method == "sendRichMessage"]
    assert len(tried) == 1  # asked once, then text only


async def test_the_rubbers_sheet_on_score_is_a_table_of_its_entries(h: Harness) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(3), short=True)
    await driver.play_until(lambda: len(driver.deals) >= 3)  # two deals written
    await h.say(PLAYERS[0], GROUP, "/score")
    sheet = h.api.chat_messages(GROUP)[-1]
    assert sheet.kind == "rich", sheet.text
    cells = r"<t[hd]>(.*?)</t[hd]>"
    rows = [re.findall(cells, row) for row in re.findall(r"<tr>(.*?)</tr>", sheet.text)]
    assert rows[0][1:] == ["С-Ю", "В-З"] and rows[-1][0] == "итого"
    entries = [r for r in rows[1:-1] if r[0] == "над чертой" or r[0].startswith("гейм ")]
    assert entries and len(entries) == len(rows) - 2

    def points(cell: str) -> int:
        return int(re.sub(r"\D", "", cell) or 0)  # "1 100" with a thin space

    assert points(rows[-1][1]) == sum(points(r[1]) for r in entries)
    h.api.rich_refused = True
    await h.say(PLAYERS[0], GROUP, "/score")
    assert "<pre>" in h.api.chat_messages(GROUP)[-1].text  # the monospace sheet, as before
