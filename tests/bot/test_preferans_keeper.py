"""The pulka kept for real cards, through the fake Bot API over real HTTP and a real SQLite file:
deals entered by the wizard's buttons and typed, an undo, bad input refused with nothing
written; the finished pulka's ledger equals an independent ``games.preferans`` computation; with
four the dealer sits out of the wizard; stopping early settles by §6."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.preferans.deal import Result
from games.preferans.entry import parse_entry
from games.preferans.game import write
from games.preferans.pulka import Pulka
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS, Harness
from tests.fakeapi import FakeBotApi, Sent, User

WHISTS = "whists"  # the unit the game names (storage names none)

ANNA, BOB, CAT, DIMA = PLAYERS
STRANGER = User(150, "Eve", "en", "eve")


def sheet(h: Harness) -> Sent:
    for sent in reversed(h.api.chat_messages(GROUP)):
        if "📝" in sent.text and any(":pk" in b["callback_data"] for b in sent.buttons()):
            return sent
    raise AssertionError("no pulka sheet with a wizard")


def data_of(sent: Sent, arg: str) -> str:
    found = [b["callback_data"] for b in sent.buttons() if b["callback_data"].endswith(f":{arg}")]
    assert found, (arg, [b["callback_data"] for b in sent.buttons()])
    return found[0]


async def click(h: Harness, user: User, *args: str) -> None:
    """Walk the wizard: press each step's button on the newest sheet."""
    for arg in args:
        current = sheet(h)
        answer = await h.press(user, current, data_of(current, arg))
        assert not answer.get("text"), (arg, answer)
        await h.settle()


async def test_a_kept_pulka_by_buttons_and_typing_lands_in_the_ledger(
    api: FakeBotApi, tmp_path: Path
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"))
    await h.start()
    written: list[str] = []
    try:
        await h.say(ANNA, GROUP, "/prefkeep Аня Боря")
        assert "/prefkeep" in h.api.chat_messages(GROUP)[-1].text  # how to name them
        await h.say(ANNA, GROUP, "/prefkeep Аня Боря Вика")
        first = sheet(h)
        stale = data_of(first, "pk:r")  # the first wizard's button, pressed again later
        assert "Пуля №" in first.text and "Сдача 1" in first.text and "сдаёт Аня" in first.text
        # deal 1, dealt by Аня (seat 0): raspasy, Боря 3, Вика 5, Аня the rest
        await click(h, BOB, "pk:r", "pk:r3", "pk:r3.5")
        written.append("pass 3/5/2")
        assert "сдаёт Боря" in sheet(h).text
        # deal 2: Вика declares 6♠, Аня passes, Боря half-whists: not played
        await click(h, CAT, "pk:g", "pk:g2", "pk:g2.6S", "pk:g2.6S.ph")
        written.append("6S 2 pass/half")
        # deal 3: a misère by Аня, clean
        await click(h, ANNA, "pk:m", "pk:m0", "pk:m0.0")
        written.append("misere 0 0")
        # a wrong typed entry, then undone, then typed right
        await h.say(ANNA, GROUP, "/deal 7H 2 whist/pass 6/3/1")
        await h.say(BOB, GROUP, "/undo")
        assert "запись отменена" in sheet(h).text
        await h.say(ANNA, GROUP, "/deal 7♥ 2 вист/пас 2/7/1")
        written.append("7H 1 whist/pass 2/7/1")
        # The sheet echoes the entry in the table's words, its declarer by name (seat 2 is
        # Боря's: typed seats count from 1, as the table's "Место 1").
        assert "✅ Боря: 7♥, вист/пас, 2/7/1" in sheet(h).text, sheet(h).text
        assert (
            "Места: 1 — Аня (гость), 2 — Боря (гость), 3 — Вика (гость)" in sheet(h).text
        )  # what the numbers mean
        # bad input changes nothing: junk, a contract off the ladder, a stale wizard button,
        # a stranger's press, forged wizard data
        before = sheet(h)
        for junk in (
            "/deal 11S 1 pass/pass",
            "/deal 6S 4 pass/pass",
            "/deal мизер 1 11",
            "/deal 6S 0 pass/pass",  # there is no seat 0 at the table
        ):
            await h.say(ANNA, GROUP, junk)
            assert "📝" not in h.api.chat_messages(GROUP)[-1].text
            assert "13" not in h.api.chat_messages(GROUP)[-1].text  # the pulka's words
        await h.say(ANNA, GROUP, "/deal junk")
        assert "/deal 7♥ 1 вист/пас 6/3/1" in h.api.chat_messages(GROUP)[-1].text
        assert (await h.press(ANNA, first, stale)).get("text")
        h.api.outsiders.add((GROUP, STRANGER.id))  # not in the group
        assert (await h.press(STRANGER, before, data_of(before, "pk:g"))).get("text")
        forged = data_of(before, "pk:g").replace(":pk:g", ":pk:g9.6S.pp")
        assert (await h.press(ANNA, before, forged)).get("text")
        half_on_eight = data_of(before, "pk:g").replace(":pk:g", ":pk:g0.8S.ph")
        assert (await h.press(ANNA, before, half_on_eight)).get("text")
        await h.settle()
        assert sheet(h).message_id == before.message_id  # no entry was written
        # tens that nobody whists fill the pools until the pulka ends
        for _ in range(12):
            if "Пуля закрыта" in h.api.chat_messages(GROUP)[-1].text:
                break
            text = sheet(h).text
            dealer = next(
                n for n, who in enumerate(("Аня", "Боря", "Вика")) if f"сдаёт {who}" in text
            )
            declarer = (dealer + 1) % 3
            await h.say(CAT, GROUP, f"/deal 10NT {declarer + 1} pass/pass")
            written.append(f"10NT {declarer} pass/pass")
        final = h.api.chat_messages(GROUP)[-1].text
        # The first pulka of the group: its result is the balance, one list; the breakdown
        # folded under it.
        assert "Пуля закрыта" in final and "Итог:" in final and "Баланс" not in final
    finally:
        await h.stop()
    independent = Pulka(players=3, target=10, variant="sochi")
    for code in written:
        parse_entry(code).write(independent)
    assert independent.finished
    folded = final.split("<blockquote expandable>")[1]
    totals = re.findall(r"итого ([−+]?[\d.]+)", folded)
    exact = [float(b) for b in independent.balances()]
    assert [float(x.replace("−", "-")) for x in totals] == pytest.approx(exact, abs=0.01)
    store = await SqliteStorage.open(h.database)
    try:
        (match,) = await store.matches(1)
        rows = await store.ledger(1)
        assert {r.unit for r in rows} == {WHISTS}
        whole = independent.whole()
        assert {r.player_id: r.points for r in rows} == {
            match.seats[seat]: whole[seat] for seat in range(3)
        }
    finally:
        await store.close()


async def test_with_four_the_dealer_sits_out_and_stopping_early_settles(
    api: FakeBotApi, tmp_path: Path
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"))
    await h.start()
    try:
        await h.say(ANNA, GROUP, "/prefkeep Аня Боря Вика Дима 20 ленинград")
        await click(h, ANNA, "pk:g")
        declarers = [b["text"] for b in sheet(h).buttons() if ":pk:g" in b["callback_data"]]
        assert declarers == ["Боря", "Вика", "Дима"]  # Аня deals and sits out
        await click(h, ANNA, "pk:g1", "pk:g1.8D", "pk:g1.8D.wp", "pk:g1.8D.wp.7")  # 1 down
        await click(h, ANNA, "pk:g1.8D.wp.7.0")  # Вика, the first defender, took none
        declarers_now = [
            b["callback_data"] for b in sheet(h).buttons() if b["callback_data"].endswith(":pk:g")
        ]
        assert declarers_now
        await h.say(ANNA, GROUP, "/prefkeep конец")
        final = h.api.chat_messages(GROUP)[-1].text
        assert "Пуля закрыта" in final and "досрочно" in final
    finally:
        await h.stop()
    independent = Pulka(players=4, target=20, variant="leningrad")
    parse_entry("8D 1 whist/pass 7/0/3 d0").write(independent)
    independent.close()
    store = await SqliteStorage.open(h.database)
    try:
        (match,) = await store.matches(1)
        assert match.unfinished and match.options["variant"] == "leningrad"
        rows = await store.ledger(1)
        whole = independent.whole()
        assert {r.player_id: r.points for r in rows} == {
            match.seats[seat]: whole[seat] for seat in range(4)
        }
    finally:
        await store.close()


async def test_a_kept_pulka_under_the_groups_conditions(api: FakeBotApi, tmp_path: Path) -> None:
    """/prefkeep takes the conditions a table's /settings takes (PREFERANS.md §8): the sheet
    names them, the wizard offers only what they allow, and the sheet scores by them."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"))
    await h.start()
    try:
        await h.say(ANNA, GROUP, "/prefkeep Аня Боря Вика 10 сталинград выход=9-9-9")
        assert "/settings выход 6-6-6" in h.api.chat_messages(GROUP)[-1].text  # not a value
        assert not any(":pk" in str(m.buttons()) for m in h.api.chat_messages(GROUP))
        await h.say(ANNA, GROUP, "/prefkeep Аня Боря Вика 10 сталинград выход=6-7-8")
        first = sheet(h)
        assert "Сталинград, пуля до 10" in first.text
        assert "выход из распасов 6-7-8" in first.text
        # deal 1: raspasy; after one raspasy in a row the exit 6-7-8 still starts at 6
        await click(h, BOB, "pk:r", "pk:r3", "pk:r3.5")
        await click(h, BOB, "pk:g", "pk:g1")
        contracts = [b["callback_data"].rsplit(".", 1)[-1] for b in sheet(h).buttons()]
        assert "6S" in contracts  # after one raspasy the exit is still 6
        await click(h, BOB, "pk:g1.6S")
        words = [
            b["callback_data"].rsplit(".", 1)[-1]
            for b in sheet(h).buttons()
            if ".6S." in b["callback_data"]
        ]
        assert words == ["ww"]  # Stalingrad: 6♠ is whisted by both, nobody asked
        await click(h, BOB, "pk:g1.6S.ww", "pk:g1.6S.ww.7", "pk:g1.6S.ww.7.2")
        # Typed: a pass on 6♠ is what Stalingrad does not have; refused, nothing written.
        await h.say(ANNA, GROUP, "/deal 6S 3 pass/pass")
        assert "Так вистовать нельзя" in h.api.chat_messages(GROUP)[-1].text
        await h.say(ANNA, GROUP, "/deal 6C 3 pass/half")  # no half-whist in Stalingrad
        assert "Так вистовать нельзя" in h.api.chat_messages(GROUP)[-1].text
    finally:
        await h.stop()
    store = await SqliteStorage.open(h.database)
    try:
        table = await store.get_table(1)  # the sheet's pulka, under way
        assert table.match_id is not None
        match = await store.get_match(table.match_id)
        assert match.options["variant"] == "stalingrad" and match.options["exit"] == "6-7-8"
        kept = Pulka(3, 10, "stalingrad", {"exit": "6-7-8"})
        for deal in await store.deals(match.id):
            assert deal.result is not None
            write(kept, Result.from_payload(deal.result), int(deal.result["dealer"]))
    finally:
        await store.close()
    independent = Pulka(3, 10, "stalingrad", {"exit": "6-7-8"})
    for text in ("pass 3/5/2", "6S 1 whist/whist 1/7/2"):
        parse_entry(text).write(independent)
    assert kept.state() == independent.state()
    assert independent.pool == [0, 2, 0] and independent.gora == [3 + 2, 5, 2]  # Аня short
