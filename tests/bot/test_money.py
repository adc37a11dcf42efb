"""The group's money end to end: an online rubber and scorekeeper rubbers with changing
partnerships go to one ledger; /ledger, /settle with recorded payments, /history and its CSV,
the balance chart and the scoresheet picture; bad scorekeeper entries change nothing."""

from __future__ import annotations

import asyncio
import csv
import io
import random
import re
import struct

from bot.callback_data import Act, Button
from bot.i18n import Translator
from bot.views.money import pay_arg
from games.bridge.cards import Seat, Side
from games.bridge.settlement import Transfer
from storage.sqlite import SqliteStorage
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.fakeapi import Sent, User

ANNA, BOB, CAT, DIMA = PLAYERS
STRANGER = User(150, "Eve", "en", "eve")


def storage_of(h: Harness) -> SqliteStorage:
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    return storage


def newest(h: Harness, chat: int = GROUP) -> Sent:
    return h.api.chat_messages(chat)[-1]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def keeper_message(h: Harness) -> Sent:
    for sent in reversed(h.api.chat_messages(GROUP)):
        if "📝" in sent.text and sent.buttons():
            return sent
    raise AssertionError("no scoresheet with a wizard")


async def press(h: Harness, user: User, sent: Sent, suffix: str) -> dict[str, object]:
    data = next(
        b["callback_data"] for b in sent.buttons() if b.get("callback_data", "").endswith(suffix)
    )
    answer = await h.press(user, sent, data)
    await h.settle()
    return answer


async def ids(h: Harness) -> dict[str, int]:
    storage = storage_of(h)
    found = {}
    for user in PLAYERS:
        player = await storage.player_by_tg(user.id)
        assert player is not None
        found[user.first_name] = player.id
    return found


async def test_online_and_scorekeeper_rubbers_share_one_ledger(h: Harness) -> None:
    # 1. An online rubber: Anna-Cat (N-S) against Bob-Dima (E-W).
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(5), short=True)
    await driver.play_until(driver.rubber_over)
    await h.settle()
    for _ in range(500):  # the online rubber's sheet comes as a picture too, drawn off the loop
        if any(m.kind == "photo" for m in h.api.chat_messages(GROUP)):
            break
        await asyncio.sleep(0.01)
    [online_sheet] = [m for m in h.api.chat_messages(GROUP) if m.kind == "photo"]
    assert online_sheet.upload is not None and png_size(online_sheet.upload.data)[0] >= 300
    storage = storage_of(h)
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    [online] = await storage.matches(chat.id)
    assert online.result is not None
    won, points = online.result["winner"], online.result["points"]
    pid = await ids(h)
    expected = dict.fromkeys(pid.values(), 0)
    sign = {Side.NS: 1, Side.EW: -1}[Side(won)] if won else 0
    for seat, player in online.seats.items():
        side_sign = 1 if Seat(seat).side is Side.NS else -1
        expected[player] += sign * side_sign * (points or 0)

    # 2. Scorekeeper: N Anna, E Bob, S Dima, W Cat (Anna-Dima against Bob-Cat), by @mention.
    await h.say(ANNA, GROUP, "/keep @anna @bob @dima @cat")
    sheet = keeper_message(h)
    assert "Anna" in sheet.text and "Dima" in sheet.text
    stale = sheet.buttons()[0]["callback_data"]
    # The wizard: 2♥ by East, made exactly, no honours.
    await press(h, BOB, sheet, ":sk:2")
    await press(h, BOB, keeper_message(h), ":sk:2H")
    await press(h, BOB, keeper_message(h), ":sk:2H_")
    await press(h, BOB, keeper_message(h), ":sk:2H_E")
    await press(h, BOB, keeper_message(h), ":sk:2H_E.e")
    answer = await press(h, BOB, keeper_message(h), ":sk:2H_E.e.h0")
    assert not answer.get("text")
    assert "60" in keeper_message(h).text
    # A stale wizard button (from before that entry) writes nothing.
    answer = await h.press(BOB, sheet, stale)
    assert answer.get("text")
    # Typed lines; then bad ones, each refused with a reason and nothing written.
    await h.say(CAT, GROUP, "/deal 4H E +1")
    await h.say(ANNA, GROUP, "/deal 3NT W -1")
    # echoed as the table writes it, not in the rules' Latin
    echoes = "\n".join(m.text for m in h.api.chat_messages(GROUP))
    assert "✅ 4♥ В +1" in echoes and "✅ 3БК З −1" in echoes and "4H E" not in echoes
    before = len(await storage.ledger(chat.id)), (await storage.table_in(chat.id, None, True))
    for bad, words in (
        ("/deal 4SX N -11", ("13", "tricks", "взяток")),
        ("/deal 8S N =", ("contract", "контракт")),
        ("/deal 4S Q =", ("seat", "мест")),
        ("/deal 3NT N = 100NS", ("150",)),
        ("/deal hello", ("4SX N -2", "4♠X С −2")),
        ("/keep @nobody Bob Cat Dima", ("@nobody",)),
    ):
        await h.say(ANNA, GROUP, bad)
        reply = newest(h).text
        assert any(w in reply for w in words), (bad, reply)
    after_table = await storage.table_in(chat.id, None, True)
    assert before == (len(await storage.ledger(chat.id)), after_table)
    # Undo the East-West set (a wrong entry), then East-West's second game ends the rubber.
    await h.say(ANNA, GROUP, "/undo")
    assert "↩" in keeper_message(h).text
    await h.say(BOB, GROUP, "/deal 4S W =")
    photos = [m for m in h.api.chat_messages(GROUP) if m.kind == "photo"]
    assert len(photos) == 2, "the finished sheet comes as a picture too"
    width, height = png_size(photos[-1].upload.data)  # type: ignore[union-attr]
    assert 300 <= width <= 1200 and 300 <= height <= 2000
    # E-W: 60 + 120 + 30 + 120 + 700 = 1030 -> 1000; N-S: 0.
    for name, points in (("Bob", 1000), ("Cat", 1000), ("Anna", -1000), ("Dima", -1000)):
        expected[pid[name]] += points

    # 3. Scorekeeper again, partners changed: Anna-Cat against Bob-Dima; N-S win 2-0.
    await h.say(DIMA, GROUP, "/keep @anna @bob @cat @dima")
    await h.say(DIMA, GROUP, "/deal 4S N =")
    await h.say(DIMA, GROUP, "/deal 3NT S = 150NS")
    # N-S: 120 + 100 + 150 + 700 = 1070 -> 1100.
    for name, points in (("Anna", 1100), ("Cat", 1100), ("Bob", -1100), ("Dima", -1100)):
        expected[pid[name]] += points

    balances = await storage.balances(chat.id, "points")
    assert balances == {p: v for p, v in expected.items() if v or p in balances}
    assert sum(balances.values()) == 0

    # /ledger: sorted, with rubbers played, summing to zero.
    await h.say(ANNA, GROUP, "/ledger")
    text = newest(h).text
    assert "0" in text.splitlines()[-1]
    order = sorted(pid, key=lambda n: -balances[pid[n]])
    positions = [text.index(name) for name in order]
    assert positions == sorted(positions)
    assert text.count("3") >= 4  # each played three rubbers

    # /history csv: the whole ledger, parsed back.
    await h.say(ANNA, GROUP, "/history csv")
    document = newest(h)
    assert document.kind == "document" and document.upload is not None
    rows = list(csv.DictReader(io.StringIO(document.upload.data.decode())))
    assert len(rows) == len(await storage.ledger(chat.id)) == 12
    totals: dict[str, int] = {}
    for row in rows:
        totals[row["player"]] = totals.get(row["player"], 0) + int(row["points"])
    assert totals == {name: balances[pid[name]] for name in pid}
    await h.say(ANNA, GROUP, "/history")
    assert newest(h).text.count("Anna") >= 3

    # /settle: transfers that zero every balance; the payee records each payment.
    await h.say(ANNA, GROUP, "/settle")
    plan = newest(h)
    pay_buttons = [b for b in plan.buttons() if ":pay:" in b.get("callback_data", "")]
    assert 1 <= len(pay_buttons) <= 3
    by_id = {v: k for k, v in pid.items()}
    users = {u.first_name: u for u in PLAYERS}
    first = pay_buttons[0]["callback_data"]
    payer, payee, _points = (int(x) for x in first.split(":")[4].split("-"))
    refused = await h.press(STRANGER, plan, first)  # neither the payee nor an admin
    assert refused.get("text")
    refused = await h.press(users[by_id[payer]], plan, first)  # the payer may not, by default
    assert refused.get("text")
    assert await storage.balances(chat.id, "points") == balances
    while True:
        plan = newest(h)
        buttons = [b for b in plan.buttons() if ":pay:" in b.get("callback_data", "")]
        if not buttons:
            break
        data = buttons[0]["callback_data"]
        payee = int(data.split(":")[4].split("-")[1])
        answer = await h.press(users[by_id[payee]], plan, data)
        assert (
            not answer.get("text")
            or "recorded" in str(answer["text"]).lower()
            or "запис" in str(answer["text"])
        )
        await h.settle()
        again = await h.press(users[by_id[payee]], plan, data)  # a double tap: nothing more
        assert again.get("text")
        await h.settle()
    assert set((await storage.balances(chat.id, "points")).values()) == {0}
    assert len(await storage.ledger(chat.id)) > 12  # payments were added, nothing rewritten
    # Each payment said what it was paid in: points, with their unit, as no stake is set.
    recorded = [m.text for m in h.api.chat_messages(GROUP) if m.text.startswith("💸")]
    assert recorded and all(re.search(r"\d очк\.$", text) for text in recorded), recorded

    # The chart: a real PNG of a sensible size.
    await h.say(ANNA, GROUP, "/ledger chart")
    chart = newest(h)
    assert chart.kind == "photo" and chart.upload is not None
    assert png_size(chart.upload.data) == (800, 450)
    assert 10_000 < len(chart.upload.data) < 500_000


async def test_a_large_debt_is_settled_by_its_paid_button(h: Harness) -> None:
    """A debt of 10¹⁰ points or more (a long history at a high stake) has a "paid" button the
    bot's own decoder reads: the payee's press records it, and the plan is empty after."""
    for user in PLAYERS:
        await h.say(user, user.id, "/start")
    await h.say(PLAYERS[0], GROUP, "/ledger")
    storage = storage_of(h)
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    found = await ids(h)
    anna, bob = found["Anna"], found["Bob"]
    await storage.record_payment(chat.id, anna, bob, 98_765_432_109, unit="points")
    await h.say(PLAYERS[0], GROUP, "/settle")
    plan = h.api.chat_messages(GROUP)[-1]
    [paid] = [b["callback_data"] for b in plan.buttons() if ":pay:" in b["callback_data"]]
    refused = Translator("ru")("refusal.bad_button"), Translator("en")("refusal.bad_button")
    answer = await h.press(PLAYERS[0], plan, paid)  # Anna is owed: the payee marks it paid
    assert answer.get("text") not in refused, answer
    await h.settle()
    assert not any((await storage.balances(chat.id, "points")).values())
    # The longest a "paid" button gets in a large group: six-digit ids, 10¹¹ whists.
    arg = pay_arg("whists", Transfer(123456, 654321, 10**11))
    assert Button.decode(Button(123456, 999999, Act.PAY, arg).encode()).arg == arg
