"""One ledger for rubbers and pulkas: bridge points and Preferans whists are kept apart until the
group prices both, then shown and settled as money; every plan, whatever its unit, brings the
accounts to zero; old "paid" buttons (points, without a unit) still work."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.ledger import settle_plan
from storage.interface import CENTS, ChatSettings, TableSettings
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS, Harness
from tests.fakeapi import FakeBotApi

POINTS = "points"  # the unit the game names (storage names none)
WHISTS = "whists"  # the unit the game names (storage names none)

ANNA, BOB, CAT, DIMA = PLAYERS


def _zero_sum(values: list[int]) -> list[int]:
    return [*values, -sum(values)]


@given(
    points=st.lists(st.integers(-5000, 5000), min_size=3, max_size=3).map(_zero_sum),
    whists=st.lists(st.integers(-300, 300), min_size=2, max_size=2).map(_zero_sum),
    stake=st.sampled_from([0, 1, 10, 100]),
    whist_price=st.sampled_from([0, 50, 100, 1000]),
)
def test_any_plan_brings_every_account_to_zero(
    points: list[int], whists: list[int], stake: int, whist_price: int
) -> None:
    group = ChatSettings(prices={"points": stake, "whists": whist_price})
    accounts = {POINTS: dict(enumerate(points)), WHISTS: {i + 1: w for i, w in enumerate(whists)}}
    plan = settle_plan(accounts, group)
    after = {unit: dict(balances) for unit, balances in accounts.items()}
    for unit, transfer in plan:
        book = after.setdefault(unit, {})
        book[transfer.payer] = book.get(transfer.payer, 0) + transfer.amount
        book[transfer.payee] = book.get(transfer.payee, 0) - transfer.amount
        assert transfer.amount > 0
    live = {u for u, b in accounts.items() if any(b.values())}
    if group.priced_together(live):
        assert {u for u, _ in plan} == {CENTS}
        money: dict[int, int] = {}
        for unit, balances in after.items():
            for pid, value in balances.items():
                money[pid] = money.get(pid, 0) + value * group.price(unit)
        assert set(money.values()) <= {0}
    else:
        assert {u for u, _ in plan} <= live
        assert all(set(b.values()) <= {0} for b in after.values())


async def _prepare(path: str) -> dict[str, int]:
    """A group that played one rubber (points) and one pulka (whists)."""
    store = await SqliteStorage.open(path)
    try:
        chat = await store.ensure_chat(GROUP, "club")
        ids = {u.first_name: (await store.ensure_player(u.id, u.first_name)).id for u in PLAYERS}
        a, b, c, d = (ids[u.first_name] for u in PLAYERS)
        rubber_table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
        rubber = await store.start_match(rubber_table.id, {0: a, 1: b, 2: c, 3: d})
        points = {a: 500, c: 500, b: -500, d: -500}
        await store.finish_match(
            rubber.id, {"winner": "NS", "points": 500}, points, rubber.seats, unit=POINTS
        )
        pulka_table = await store.create_table(chat.id, None, TableSettings(), game="preferans")
        pulka = await store.start_match(pulka_table.id, {0: a, 1: b, 2: c})
        whists = {a: -40, b: 10, c: 30}
        result = {"pool": [10, 10, 10], "gora": [0, 0, 0]}
        await store.finish_match(pulka.id, result, whists, pulka.seats, unit=WHISTS)
        return ids
    finally:
        await store.close()


def _pay_buttons(h: Harness) -> list[str]:
    plan = h.api.chat_messages(GROUP)[-1]
    return [b["callback_data"] for b in plan.buttons() if ":pay:" in b["callback_data"]]


async def test_points_and_whists_apart_until_priced_then_settled_as_money(
    api: FakeBotApi, tmp_path: Path
) -> None:
    path = str(tmp_path / "bot.sqlite3")
    ids = await _prepare(path)
    api.rich_refused = True  # the ledger's lines as text (its table: tests/bot/test_rich.py)
    h = Harness(api, path)
    await h.start()
    try:
        api.admins.add(ANNA.id)
        await h.say(ANNA, GROUP, "/ledger")
        ledger = h.api.chat_messages(GROUP)[-1].text
        assert "очк." in ledger and re.search(r"\d вист(а|ов)?\b", ledger)
        assert "робберов и пуль: 2" in ledger  # what was played, named
        assert "Сумма" not in ledger  # the accounts sum to nought: no line says so
        assert all(re.search(r"(очк\.|вист)", row) for row in ledger.splitlines()[1:])
        # unpriced: a plan per unit; an old-style button (no unit) pays points
        await h.say(ANNA, GROUP, "/settle")
        buttons = _pay_buttons(h)
        assert any(":pay:w." in d for d in buttons)
        old_style = [d for d in buttons if ":pay:w." not in d]
        assert old_style and all(d.split(":pay:")[1][0].isdigit() for d in old_style)
        plan = h.api.chat_messages(GROUP)[-1]
        assert (await h.press(ANNA, plan, old_style[0])).get("text") == "Платёж записан"
        # a forged unit or amount changes nothing
        forged = old_style[0].replace(":pay:", ":pay:c.")
        before = await _ledger_size(h)
        assert (await h.press(ANNA, plan, forged)).get("text")
        assert await _ledger_size(h) == before
        # priced: one plan in money covering both games
        await h.say(ANNA, GROUP, "/bridge")
        await h.say(ANNA, GROUP, "/settings stake 10 RUB")
        await h.say(ANNA, GROUP, "/settings вист 2,5")
        await h.say(ANNA, GROUP, "/ledger")
        ledger = h.api.chat_messages(GROUP)[-1].text
        assert "RUB (" in ledger
        await _settle_in_money(h)
        await h.say(ANNA, GROUP, "/history csv")
        await h.settle()
        document = h.api.chat_messages(GROUP)[-1]
        assert document.kind == "document" and document.upload is not None
        rows = list(csv.DictReader(io.StringIO(document.upload.data.decode())))
        assert {r["unit"] for r in rows} == {POINTS, WHISTS, CENTS}
        await h.say(ANNA, GROUP, "/history")
        history = h.api.chat_messages(GROUP)[-1].text
        assert re.search(r"\d вист(а|ов)?\b", history) and "очк." in history
        await h.say(ANNA, GROUP, "/ledger chart")
        await h.settle()
        chart = h.api.chat_messages(GROUP)[-1]
        assert chart.kind == "photo" and chart.upload is not None
        assert chart.upload.data[:4] == b"\x89PNG"
    finally:
        await h.stop()
    store = await SqliteStorage.open(path)
    try:
        chat = await store.chat_by_tg(GROUP)
        assert chat is not None and chat.settings.price("whists") == 250
        accounts = await store.accounts(chat.id)
        for pid in ids.values():
            money = sum(b.get(pid, 0) * chat.settings.price(unit) for unit, b in accounts.items())
            assert money == 0
    finally:
        await store.close()


async def _settle_in_money(h: Harness) -> None:
    """Anna (an admin) records every payment of the money plan until nothing is owed."""
    for _ in range(6):
        await h.say(ANNA, GROUP, "/settle")
        buttons = _pay_buttons(h)
        if not buttons:
            return
        assert all(":pay:c." in d for d in buttons)
        plan = h.api.chat_messages(GROUP)[-1]
        assert (await h.press(ANNA, plan, buttons[0])).get("text") == "Платёж записан"
    raise AssertionError("still owed after six payments")


async def _ledger_size(h: Harness) -> int:
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    return await storage.ledger_size(chat.id)


async def test_removing_a_price_after_money_was_paid_leaves_what_was_paid_paid(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A rubber and a pulka settled in money at 10 RUB a hundred points and 3 RUB a whist; then
    the group stops pricing whists (and points). What was paid stays paid: the ledger shows no
    money in pieces ("−90 RUB · +90 RUB") and /settle asks nobody to pay a payment back."""
    path = str(tmp_path / "bot.sqlite3")
    await _prepare(path)
    h = Harness(api, path)
    await h.start()
    try:
        api.admins.add(ANNA.id)
        await h.say(ANNA, GROUP, "/bridge")
        await h.say(ANNA, GROUP, "/settings stake 10 RUB")
        await h.say(ANNA, GROUP, "/settings вист 3")
        await _settle_in_money(h)
        for change in ("/settings вист 0", "/settings stake 0"):
            await h.say(ANNA, GROUP, change)
            await h.say(ANNA, GROUP, "/ledger")
            ledger = h.api.chat_messages(GROUP)[-1].text
            for line in ledger.splitlines()[1:]:  # nobody owes or is owed money in pieces
                assert line.count("RUB") <= 1 and not re.search(r"[+−]\d[\d\u202f]* RUB", line), (
                    ledger
                )
            await h.say(ANNA, GROUP, "/settle")
            assert not _pay_buttons(h), h.api.chat_messages(GROUP)[-1].text
    finally:
        await h.stop()
    store = await SqliteStorage.open(path)
    try:
        chat = await store.chat_by_tg(GROUP)
        assert chat is not None
        accounts = await store.accounts(chat.id)
        assert all(set(b.values()) <= {0} for b in accounts.values()), accounts
    finally:
        await store.close()
