"""One club evening in one group, through the fake Bot API and a real SQLite file: a Chicago
and then a rubber at the bridge table, a Stalingrad pulka and a Sochi pulka (raspasy 1-2-4,
exit 6-7-8) at the Preferans table in the group's topic; the bot is killed and started again
in the middle of each. The Chicago's table says which deal of four it is, a passed-out deal is
dealt again by the same dealer, /score and /pbn carry each deal's vulnerability, /history names
the Chicago; /ledger shows what an independent replay of the stored logs says each person won
in points and in whists, and /settle's transfers bring every account to zero. And a Chicago
kept on a sheet for real cards."""

from __future__ import annotations

import random
import re
from pathlib import Path

from games.bridge.cards import Seat, Side
from games.bridge.chicago import Chicago
from games.bridge.game import BridgeState
from games.bridge.rubber import Rubber, ScoreSheet
from games.bridge.scoring import honours
from games.core.registry import find_game
from storage.events import replay
from storage.sqlite import SqliteStorage
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, Harness, sit
from tests.bot.test_preferans_conditions import GROUP_ID, Place, pulkas_settled, two_pulkas
from tests.fakeapi import FakeBotApi, Sent, User

POINTS = "points"  # the unit the game names (storage names none)
WHISTS = "whists"  # the unit the game names (storage names none)

PLAYERS = [
    User(701, "Аня", "ru", "anya"),
    User(702, "Боря", "ru", "borya"),
    User(703, "Вика", "ru"),
    User(704, "Дима", "ru", "dima"),
]
ANNA = PLAYERS[0]
TOPIC = 42  # the group's forum topic the Preferans table plays in
CHICAGO_OVER, RUBBER_OVER = "Чикаго окончено", "Роббер окончен"


def over(h: Harness, words: str) -> bool:
    return any(words in m.text for m in h.api.chat_messages(GROUP) if m.thread_id is None)


async def play_bridge(h: Harness, driver: Driver, words: str, restart_after: int) -> None:
    """Press what the driver picks until ``words`` end the match; killed and started again
    after ``restart_after`` presses."""
    for _ in range(restart_after):
        assert await driver.step()
    await h.crash()
    await h.start()
    await h.settle()
    await driver.play_until(lambda: over(h, words))
    await h.settle()


def bridge_message(h: Harness) -> Sent:
    return h.api.chat_messages(GROUP)[-1]


async def test_an_evening_chicago_rubber_and_two_pulkas_settle_up(
    api: FakeBotApi, tmp_path: Path
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=11)
    await h.start()
    try:
        for user in PLAYERS:
            await h.say(user, user.id, "/start")
        h.api.admins.add(ANNA.id)
        # --- the bridge table: a Chicago ----------------------------------------------------
        await h.say(ANNA, GROUP, "/bridge")
        await h.say(ANNA, GROUP, "/settings формат чикаго")
        assert "Партия: чикаго" in bridge_message(h).text
        for user, seat in zip(PLAYERS, Seat, strict=True):
            assert not (await sit(h, user, seat)).get("text")
        driver = Driver(h, PLAYERS, random.Random(1))  # a seed whose Chicago has a passed-out deal
        await play_bridge(h, driver, CHICAGO_OVER, 40)
        heads = [t for m in h.api.chat_messages(GROUP) for _, t in m.history if "🃏" in t]
        for number in (1, 2, 3, 4):
            assert any(f"сдача {number} из 4 (чикаго)" in t for t in heads), number
        assert not any("сдача 5 из 4" in t for t in heads)
        await h.say(PLAYERS[1], GROUP, "/score")
        await h.settle()
        score = next(m for m in reversed(h.api.chat_messages(GROUP)) if m.kind == "rich")
        assert "Чикаго: сдача 4 из 4, все в зоне" in score.text  # the sheet as a table
        await h.say(PLAYERS[1], GROUP, "/pbn")
        await h.settle()
        pbn = next(m for m in reversed(h.api.chat_messages(GROUP)) if m.kind == "document")
        assert pbn.upload is not None
        vulnerable = re.findall(r'\[Vulnerable "(\w+)"\]', pbn.upload.data.decode())
        # --- then a rubber, the seated players choosing it and all four agreeing -------------
        await h.say(PLAYERS[2], GROUP, "/settings формат роббер")
        result = next(
            m
            for m in reversed(h.api.chat_messages(GROUP))
            if CHICAGO_OVER in m.text and m.buttons()
        )
        again = next(
            b["callback_data"] for b in result.buttons() if b["callback_data"].endswith(":nr")
        )
        assert next(b["text"] for b in result.buttons()) == "Ещё чикаго"
        for user in PLAYERS:
            await h.press(user, result, again)
        await h.settle()
        await play_bridge(h, driver, RUBBER_OVER, 30)
        await h.say(ANNA, GROUP, "/history")
        history = h.api.chat_messages(GROUP)[-1].text
        assert "Чикаго" in history, history
        # --- the Preferans table in the group's topic: two pulkas ---------------------------
        await two_pulkas(h, Place(2, GROUP, TOPIC, tuple(PLAYERS[:3])))
        # --- the evening's accounts ----------------------------------------------------------
        await h.say(ANNA, GROUP, "/ledger")
        ledger = h.api.chat_messages(GROUP)[-1].text
    finally:
        if h.app is not None:
            await h.stop()
    points = await bridge_settled(h.database, vulnerable)
    whists = await pulkas_settled(h.database, GROUP_ID, 2)
    store = await SqliteStorage.open(h.database)
    try:
        assert await store.balances(GROUP_ID, POINTS) == points
        assert await store.balances(GROUP_ID, WHISTS) == whists
        names = {p.id: p.name for p in [await store.get_player(pid) for pid in points]}
    finally:
        await store.close()
    for pid, amount in points.items():  # each person once, with their points and whists
        line = re.sub(r"\s", "", next(x for x in ledger.splitlines() if names[pid] in x))
        assert f"{amount:+d}".replace("-", "−") in line, line
        assert pid not in whists or f"{whists[pid]:+d}".replace("-", "−").lstrip("+") in line
    assert len({x for x in ledger.splitlines() if "Аня" in x}) == 1

    # /settle: pressing each transfer brings every account, points and whists, to zero.
    h2 = Harness(api, h.database)
    await h2.start()
    try:
        for _ in range(12):
            await h2.say(ANNA, GROUP, "/settle")
            plan = h2.api.chat_messages(GROUP)[-1]
            paid = [b["callback_data"] for b in plan.buttons() if ":pay:" in b["callback_data"]]
            if not paid:
                break
            assert (await h2.press(ANNA, plan, paid[0])).get("text") == "Платёж записан"
        assert not paid
    finally:
        await h2.stop()
    store = await SqliteStorage.open(h.database)
    try:
        assert set((await store.balances(GROUP_ID, POINTS)).values()) == {0}
        assert set((await store.balances(GROUP_ID, WHISTS)).values()) == {0}
    finally:
        await store.close()


async def bridge_settled(database: str, vulnerable: list[str]) -> dict[int, int]:
    """Each player's points from the bridge table's Chicago and rubber, computed anew from the
    stored logs on fresh sheets; the Chicago's passed-out deal is dealt again by its dealer, and
    the /pbn file's vulnerability is the Chicago's, deal by deal."""
    store = await SqliteStorage.open(database)
    try:
        matches = sorted(
            (m for m in await store.matches(GROUP_ID) if m.table_id == 1), key=lambda m: m.id
        )
        assert [m.options.get("form", "rubber") for m in matches] == ["chicago", "rubber"]
        expected: dict[int, int] = {}
        for match in matches:
            sheet: ScoreSheet = Rubber() if match.options.get("form") != "chicago" else Chicago()
            dealers, vul, passed = [], [], []
            for deal in await store.deals(match.id):
                state = replay(find_game("bridge"), 4, await store.events(1, deal.deal_no))
                assert isinstance(state, BridgeState) and state.deal.result is not None
                played = state.deal
                if isinstance(sheet, Chicago) and not sheet.records:
                    sheet.first_dealer = played.deal.dealer
                dealers.append(played.deal.dealer)
                vul.append((sheet.vulnerable(Side.NS), sheet.vulnerable(Side.EW)))
                result = played.result
                assert result is not None
                passed.append(result.contract is None)
                if result.contract is None or result.declarer is None:
                    sheet.record_passed_out()
                    continue
                held = honours(played.deal, result.contract.strain)
                side = result.declarer.side
                sheet.record(side, result.contract, result.declarer_tricks, held)
            assert sheet.finished
            if isinstance(sheet, Chicago):
                assert any(passed), "no passed-out deal: choose another seed"
                for i, was_passed in enumerate(passed[:-1]):  # dealt again by the same dealer
                    assert (dealers[i + 1] == dealers[i]) is was_passed, (i, dealers, passed)
                codes = {(False, False): "None", (True, False): "NS", (False, True): "EW",
                         (True, True): "All"}  # fmt: skip
                assert vulnerable == [codes[v] for v in vul]
            winner, points = sheet.result(rounded=True)
            for seat, pid in match.seats.items():
                won = 0 if winner is None else points if Seat(seat).side is winner else -points
                expected[pid] = expected.get(pid, 0) + won
        return expected
    finally:
        await store.close()


async def test_a_chicago_kept_with_real_cards(api: FakeBotApi, tmp_path: Path) -> None:
    """/keep … чикаго: the sheet says which deal of four, who deals and who is vulnerable; a
    passed-out deal does not count; after four it is over and in the ledger, per 100 points."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"))
    await h.start()
    try:
        await h.say(ANNA, GROUP, "/keep Аня Боря Вика Дима чикаго")
        sheet = h.api.chat_messages(GROUP)[-1]
        assert "Чикаго: сдача 1 из 4, никто не в зоне · сдаёт" in sheet.text, sheet.text
        await h.say(ANNA, GROUP, "/deal пас")  # passed out: dealt again, not counted
        assert "Чикаго: сдача 1 из 4" in h.api.chat_messages(GROUP)[-1].text
        await h.say(ANNA, GROUP, "/deal 2♠ С =")  # deal 1: 60 below
        assert "Чикаго: сдача 2 из 4, в зоне В-З" in h.api.chat_messages(GROUP)[-1].text
        await h.say(ANNA, GROUP, "/deal 3БК В =")  # deal 2, dealer E, vulnerable: 100 + 500
        assert "Чикаго: сдача 3 из 4, в зоне С-Ю" in h.api.chat_messages(GROUP)[-1].text
        await h.say(ANNA, GROUP, "/deal 1БК С +1")  # deal 3: 40 below, 30 above
        assert "Чикаго: сдача 4 из 4, все в зоне" in h.api.chat_messages(GROUP)[-1].text
        await h.say(ANNA, GROUP, "/deal 2♥ З =")  # deal 4: 60 + 100 for the part score
        assert any(CHICAGO_OVER in m.text for m in h.api.chat_messages(GROUP))
    finally:
        await h.stop()
    store = await SqliteStorage.open(h.database)
    try:
        # N-S 60 + 40 + 30 = 130; E-W 100 + 500 + 60 + 100 = 760: E-W win 630, 600 rounded.
        balances = await store.balances(GROUP_ID, POINTS)
        assert sorted(balances.values()) == [-600, -600, 600, 600]
    finally:
        await store.close()
