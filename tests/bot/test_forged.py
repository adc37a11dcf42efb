"""Forged button data, pressed as a modified client would: Telegram does not check callback data
against the keyboard it showed, so every handler treats it as untrusted input. Each forged press
is answered and changes nothing."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from bot.i18n import Translator
from storage.interface import LedgerRow
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS, Harness, actor, data_of, scorekept_rubber, seat_four
from tests.fakeapi import Sent, User

ANNA, BOB, CAT, DIMA = PLAYERS
OTHER_GROUP = -300
ZOE = User(310, "Zoe", "en", "zoe")  # plays in the other group only


def texts(key: str) -> set[str]:
    """The message in both languages, as a presser of either would read it."""
    return {Translator(language)(key) for language in ("en", "ru")}


BAD_BUTTON = texts("refusal.bad_button")


def storage_of(h: Harness) -> SqliteStorage:
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    return storage


async def ledger(h: Harness, tg_chat: int = GROUP) -> list[LedgerRow]:
    storage = storage_of(h)
    chat = await storage.chat_by_tg(tg_chat)
    assert chat is not None
    return await storage.ledger(chat.id)


async def player_id(h: Harness, user: User) -> int:
    player = await storage_of(h).player_by_tg(user.id)
    assert player is not None
    return player.id


async def user_of(h: Harness, pid: int) -> User:
    return {await player_id(h, u): u for u in PLAYERS}[pid]


async def a_settled_rubber(h: Harness) -> Sent:
    """Anna-Cat beat Bob-Dima on a scorekeeper's sheet; the /settle message with its buttons."""
    for user in (*PLAYERS, ZOE):
        await h.say(user, user.id, "/start")
    await scorekept_rubber(h, ANNA, "@anna @bob @cat @dima")
    await scorekept_rubber(h, ZOE, "@zoe Bo Cy Di", OTHER_GROUP)  # Zoe's ledger, elsewhere
    await h.say(BOB, GROUP, "/bridge")  # the online table, where Bob sits (settings need one)
    table = h.table_message()
    sit = next(b["callback_data"] for b in table.buttons() if b["callback_data"].endswith(":sit:E"))
    await h.press(BOB, table, sit)
    await h.say(ANNA, GROUP, "/settle")
    plan = h.api.chat_messages(GROUP)[-1]
    assert plan.buttons(), plan.text
    return plan


def pay_data(plan: Sent) -> list[str]:
    return [b["callback_data"] for b in plan.buttons() if ":pay:" in b["callback_data"]]


async def test_forged_payments_are_refused_and_the_ledger_stays_usable(h: Harness) -> None:
    plan = await a_settled_rubber(h)
    genuine = pay_data(plan)[0]
    head = genuine.rsplit(":", 1)[0]
    payer, payee, points = (int(x) for x in genuine.rsplit(":", 1)[1].split("-"))
    zoe = await player_id(h, ZOE)
    forged = [
        f"{head}:{payer}-{payee}-{2**63 - 1}",  # the overflow that broke a group's ledger
        f"{head}:{payer}-{payee}-999999999",
        f"{head}:{payer}-{payee}-{points + 1}",
        f"{head}:{payer}-{payee}-0",
        f"{head}:{payee}-{payee}-{points}",
        f"{head}:{zoe}-{payee}-{points}",  # a player of another group
        f"{head}:{payer}-{zoe}-{points}",
        f"{head}:999999-{payee}-{points}",  # nobody
        f"{head}:{payer}-{payee}",
        f"{head}:{payer}-{payee}-x1",
    ]
    payee_user = await user_of(h, payee)
    before = await ledger(h)
    for data in forged:
        answer = await h.press(payee_user, plan, data)
        assert answer.get("text"), data
        assert answer.get("text") in BAD_BUTTON | texts("refusal.payment_by_payee"), (data, answer)
    assert await ledger(h) == before
    # The genuine button still works, and /ledger and /settle still answer.
    answer = await h.press(payee_user, plan, genuine)
    assert answer.get("text") in texts("settle.saved"), answer
    assert len(await ledger(h)) == len(before) + 2
    await h.say(ANNA, GROUP, "/ledger")
    assert "0" in h.api.chat_messages(GROUP)[-1].text


async def test_a_payer_cannot_record_a_payment_to_a_victim(h: Harness) -> None:
    plan = await a_settled_rubber(h)
    await h.say(ANNA, GROUP, "/settings")
    settings = h.api.chat_messages(GROUP)[-1]
    either = next(
        b["callback_data"] for b in settings.buttons() if "pay=either" in b["callback_data"]
    )
    await h.press(BOB, settings, either)  # seated Bob lets payers record too
    await h.say(ANNA, GROUP, "/settle")
    plan = h.api.chat_messages(GROUP)[-1]
    genuine = pay_data(plan)[0]
    head, arg = genuine.rsplit(":", 1)
    payer, payee, points = (int(x) for x in arg.split("-"))
    payer_user = await user_of(h, payer)
    everyone = [await player_id(h, u) for u in PLAYERS]
    victim = next(pid for pid in everyone if pid not in (payer, payee))
    before = await ledger(h)
    answer = await h.press(payer_user, plan, f"{head}:{payer}-{victim}-{points}")
    assert answer.get("text") in BAD_BUTTON
    assert await ledger(h) == before


async def test_admins_only_payments_stay_admins_only(h: Harness) -> None:
    await a_settled_rubber(h)
    h.api.admins.add(ANNA.id)
    await h.say(ANNA, GROUP, "/settings")
    settings = h.api.chat_messages(GROUP)[-1]

    def pay_button(sent: Sent, value: str) -> str:
        return next(
            b["callback_data"] for b in sent.buttons() if f"pay={value}" in b["callback_data"]
        )

    # admins only, by the admin (the settings message is edited in place)
    await h.press(ANNA, settings, pay_button(settings, "admins"))
    chat = await storage_of(h).chat_by_tg(GROUP)
    assert chat is not None and chat.settings.payments.value == "admins"
    # A seated player who is no admin cannot loosen it, by button or by forged data.
    forged = pay_button(settings, "payee").replace("pay=payee", "pay=pay" + "ee")
    for data in (pay_button(settings, "payee"), pay_button(settings, "either"), forged):
        answer = await h.press(BOB, settings, data)
        assert answer.get("text") in texts("refusal.not_allowed")
    chat = await storage_of(h).chat_by_tg(GROUP)
    assert chat is not None and chat.settings.payments.value == "admins"
    # Nor the stake, by command.
    await h.say(BOB, GROUP, "/settings stake 1000 EUR")
    chat = await storage_of(h).chat_by_tg(GROUP)
    assert chat is not None and chat.settings.price("points") == 0


async def test_settings_pressed_from_a_private_chat_are_refused(h: Harness) -> None:
    await a_settled_rubber(h)
    await h.say(ANNA, GROUP, "/settings")
    settings = h.api.chat_messages(GROUP)[-1]
    data = next(b["callback_data"] for b in settings.buttons() if "pay=" in b["callback_data"])
    private = Sent(ANNA.id, 1, "x", None)  # a message in Anna's own chat with the bot
    answer = await h.press(ANNA, private, data)
    assert answer.get("text") in BAD_BUTTON
    chat = await storage_of(h).chat_by_tg(GROUP)
    assert chat is not None and chat.settings.payments.value == "payee"


async def seated(h: Harness) -> dict[str, int]:
    storage = storage_of(h)
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    table = await storage.table_in(chat.id, None)
    assert table is not None
    return dict(table.seats)


async def test_an_outsider_cannot_take_a_seat(h: Harness) -> None:
    """Not by the Sit button (pressed or forged), not by a deep link, leaked or made up."""
    await h.say(ANNA, GROUP, "/bridge")
    await h.say(ZOE, ZOE.id, "/start")  # Zoe can be written to: Sit would seat her at once
    h.api.outsiders.add((GROUP, ZOE.id))
    table = h.table_message()
    sit = next(b["callback_data"] for b in table.buttons() if b["callback_data"].endswith(":sit:N"))
    answer = await h.press(ZOE, table, sit)
    assert answer.get("text") in texts("refusal.not_member")
    forged = Sent(ZOE.id, 1, "x", None)  # the same data pressed from her own chat
    answer = await h.press(ZOE, forged, sit.replace(":sit:N", ":sit:W"))
    assert answer.get("text") in texts("refusal.not_member")
    storage = storage_of(h)
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    record = await storage.table_in(chat.id, None)
    assert record is not None and len(record.token) == 16
    for payload in (f"j{record.token}_S", f"s{record.id}_S", "j0123456789abcdef_S"):
        await h.say(ZOE, ZOE.id, f"/start {payload}")
        reply = h.api.chat_messages(ZOE.id)[-1].text
        assert reply in texts("refusal.not_member") | texts("refusal.old_link"), payload
    assert await seated(h) == {}
    # A member of the group is seated by the same link.
    await h.say(BOB, BOB.id, f"/start j{record.token}_S")
    assert list((await seated(h)).keys()) == [2]  # S


async def test_a_sit_during_a_rubber_says_so_instead_of_a_link(h: Harness) -> None:
    await seat_four(h)
    table = h.api.chat_messages(GROUP)[0]  # the seating message, pressed again
    data = "b1:1:0:sit:N"
    answer = await h.press(ZOE, table, data)
    assert "url" not in answer
    assert answer.get("text") in texts("refusal.bridge.match_in_progress")


async def sheet_entries(h: Harness) -> int:
    storage = storage_of(h)
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    sheet = await storage.table_in(chat.id, None, scorekeeper=True)
    assert sheet is not None
    return sheet.current_deal


async def test_typed_scorekeeper_commands_delivered_again_apply_once(h: Harness) -> None:
    """After a crash Telegram delivers unconfirmed updates again: /deal and /undo must not
    enter twice or take back two entries."""
    for user in PLAYERS:
        await h.say(user, user.id, "/start")
    await h.say(ANNA, GROUP, "/keep @anna @bob @cat @dima")
    deal = await h.api.send_text(ANNA, GROUP, "/deal 2S N =")
    await h.settle()
    await h.say(ANNA, GROUP, "/deal 3H E -1")
    undo = await h.api.send_text(ANNA, GROUP, "/undo")
    await h.settle()
    assert await sheet_entries(h) == 3
    await h.crash()
    await h.api.redeliver(deal)
    await h.api.redeliver(undo)
    await h.start()
    await h.settle()
    assert await sheet_entries(h) == 3
    text = h.api.chat_messages(GROUP)[-1].text
    assert "60" in text  # 2♠ made: 60 below the line, entered once


async def test_a_failed_write_after_the_last_event_does_not_strand_the_table(h: Harness) -> None:
    """The fourth pass is stored, then scoring the passed-out deal fails in storage (a real
    SQLite error, raised by a trigger another connection put in). Once storage works again the
    table is reloaded and carries on: the result is kept and the next deal is dealt."""
    await seat_four(h)
    storage = storage_of(h)
    con = sqlite3.connect(storage.path)
    con.execute(
        "CREATE TRIGGER broken_disk BEFORE UPDATE ON deals "
        "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END"
    )
    con.commit()
    answers = []
    for _ in range(4):
        user, message = actor(h)
        answers.append(await h.press(user, message, data_of(message, ":a:call.P")))
    assert answers[-1].get("text") in texts("refusal.written")  # it stands: not "try again"
    assert [e.kind for e in await storage.events(1, 1)][-1] == "call"  # the pass is kept
    assert (await storage.get_table(1)).current_deal == 1
    con.execute("DROP TRIGGER broken_disk")
    con.commit()
    con.close()
    for _ in range(300):
        if (await storage.get_table(1)).current_deal == 2:
            break
        await asyncio.sleep(0.02)
    [first] = [d for d in await storage.deals(1) if d.deal_no == 1]
    assert first.result is not None and first.result["contract"] is None
    assert (await storage.get_table(1)).current_deal == 2
    await h.settle()
    user, message = actor(h)  # somebody can call in deal 2
    answer = await h.press(user, message, data_of(message, ":a:call.P"))
    assert not answer.get("text")


async def test_a_look_back_of_one_game_at_the_other_games_table_is_refused(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """``ptr`` (Preferans' tricks) at a bridge table, ``tr`` and ``dd`` (bridge's) at a
    Preferans table: refused in a popup, no traceback."""
    caplog.set_level(logging.WARNING)
    await seat_four(h)
    for _ in range(6):  # into the play: deal 1 has a state of its own
        user, message = actor(h)
        data = [b["callback_data"] for b in message.buttons() if ":a:" in b["callback_data"]]
        await h.press(user, message, data[0])
    await h.settle()
    await h.say(ZOE, OTHER_GROUP, "/preferans")
    await h.settle()
    tables = {1: "bridge", 2: "preferans"}
    assert h.app is not None
    for table_id, game in tables.items():
        assert (await storage_of(h).get_table(table_id)).game == game
    wrong = {1: ["ptr"], 2: ["tr", "dd:o"]}
    for table_id, kinds in wrong.items():
        chat = GROUP if table_id == 1 else OTHER_GROUP
        user = ANNA if table_id == 1 else ZOE
        under = h.api.chat_messages(chat)[-1]
        for deal in (0, 1, 2):
            for kind in kinds:
                answer = await h.press(user, under, f"b1:{table_id}:{deal}:{kind}")
                assert answer.get("text") in BAD_BUTTON | texts("refusal.stale"), answer
    errors = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not errors, [(r.getMessage(), r.exc_info) for r in errors[:3]]
