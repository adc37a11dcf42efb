"""Fuzzed presses: at least 10,000 random, mutated and replayed button presses across the auction,
play, money, settings and scorekeeper buttons, from the players, strangers and another group's
members, through the real HTTP stack. Every press is answered, nothing but a legitimate press
changes the event log, the ledger or any setting, and no traceback is logged.

Seeded and bounded: the same presses every run, and a deadline well inside CI's budget. Between
batches a player makes one legitimate call or card, so the fuzz meets the auction and the play
of several deals. Presses that might be legitimate (the player on turn pressing a legal action at
the current position, a seated player's settings, the payee's genuine "paid" button, a group
member's entry on the open scoresheet) are not sent: they may change things, rightly.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sqlite3
import string
import time
from dataclasses import dataclass
from typing import Any

import pytest

from bot.callback_data import Act, BadCallbackData, Button
from bot.games.bridge import buttons as bridge_buttons
from bot.games.preferans import buttons as preferans_buttons
from bot.i18n import Translator
from games.bridge.settlement import Transfer, transfers
from games.core.registry import find_game
from games.errors import RuleError
from storage.interface import NotFound
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, data_of, scorekept_rubber
from tests.fakeapi import Sent, User
from tests.sizes import size

OTHER = -500
STRANGERS = [User(601, "Mallory", "en", "mallory"), User(602, "Trudy <b>", "ru", "trudy")]
NEIGHBOURS = [User(611, "Zoe", "en", "zoe"), User(612, "Yan", "ru", "yan")]
XI = User(613, "Xi", "ru", "xi")  # the other group's third Preferans player
PRESSES = int(os.environ.get("FUZZ_PRESSES", size(10000, 1200)))  # tests.sizes
BATCH = 100
DEADLINE_S = 600
# Every button kind of both games, the look-back kinds included (each pressed at either game's
# table), but the pictures (slow, read-only).
ACTS = sorted(
    {a.value for a in Act if a not in (Act.CHART, Act.CSV)}
    | bridge_buttons.OWN_BUTTONS
    | bridge_buttons.TABLE_BUTTONS
    | preferans_buttons.OWN_BUTTONS - {bridge_buttons.KEEP_PICTURE}
)
LOOKS = ("tr", "ptr", "dd", "cc")  # a look back at a deal: answered in the table's chat only
PREF_TOPIC = 77  # the other group's forum topic where a pulka is played
ARGS = [
    "P", "X", "XX", "1C", "7NT", "8S", "0H", "SA", "H2", "DT", "CK", "S1", "N", "E", "S", "W",
    "Q", "y", "n", "0", "13", "14", "-1", "99", "1-2-100", "2-1-100", "3-3-0", "pay=admins",
    "pay=either", "round=exact", "rules=classic", "lang=en", "timer=1", "stake=1", "4SX.N.m2",
    "3NT.S.e.h0", "pass", "7NT.N.p6.h150", "x" * 24, "", "call.P", "call.7NT", "call.8S",
    "card.SA", "card.S1", "claim.13", "claim.14", "claim.-1", "answer.yes", "answer.no",
    "answer.maybe", "undo", "lay.3", "bid.6S", "card.", ".",
    # every other action the codecs read (Preferans' too), each a forgery at a bridge table
    "bid.P", "bid.MIS", "drop.SA.H7", "redrop", "name.7H", "whist.whist", "whist.half",
    "whist.pass", "show.open", "show.closed", "card.H7", "claim.0",
]  # fmt: skip


def texts(key: str) -> set[str]:
    return {Translator(language)(key) for language in ("en", "ru")}


@dataclass
class Fuzzer:
    h: Harness
    rng: random.Random
    seen: list[str]  # every callback data the bot has shown, in any version of any message

    def mutate(self, data: str) -> str:
        r = self.rng.random()
        parts = data.split(":")
        if r < 0.15:
            return "".join(
                self.rng.choice(string.printable) for _ in range(self.rng.randint(0, 70))
            )
        if r < 0.3 and len(parts) >= 4:
            parts[3] = self.rng.choice(ACTS)
        elif r < 0.45 and len(parts) >= 4:
            arg = self.rng.choice(ARGS)
            parts = parts[:4] + ([arg] if arg else [])
        elif r < 0.55 and len(parts) >= 3:
            deal = self.rng.choice(["0", "1", "2", "3", "999999", "1.1", "2.5", "1.9999", "01"])
            parts[2] = deal
        elif r < 0.65 and len(parts) >= 2:
            parts[1] = str(self.rng.choice([0, 1, 2, 3, 4, 5, 999_999_999_999]))
        elif r < 0.75:
            chars = list(data)
            for _ in range(self.rng.randint(1, 3)):
                if chars:
                    i = self.rng.randrange(len(chars))
                    chars[i] = self.rng.choice(string.ascii_letters + string.digits + ":.-_=")
            return "".join(chars)
        else:
            return data  # a replay, as it was shown (usually stale by now)
        return ":".join(parts)

    def message(self, user: User) -> Sent:
        """A message to press under: the group's, the other group's, or a private chat's."""
        chats = [GROUP, OTHER, user.id] + [p.id for p in PLAYERS]
        for _ in range(5):
            found = self.h.api.chat_messages(self.rng.choice(chats))
            if found:
                return self.rng.choice(found)
        return Sent(user.id, 1, "x", None)


def snapshot_state(db: str) -> dict[str, list[tuple[Any, ...]]]:
    """What no illegitimate press may change, read straight from the database file."""
    con = sqlite3.connect(db)
    try:
        queries = {
            "events": "SELECT table_id, deal_no, seq, kind, payload FROM events "
            "ORDER BY table_id, deal_no, seq",
            "ledger": "SELECT id, chat_id, player_id, points, kind FROM ledger ORDER BY id",
            "tables": "SELECT id, status, game, options, language, turn_timer, "
            "match_id FROM tables ORDER BY id",
            "seats": "SELECT table_id, seat, player_id FROM seats ORDER BY table_id, seat",
            "chats": "SELECT id, prices, currency, rounding, payments FROM chats ORDER BY id",
            "deals": "SELECT table_id, deal_no, result FROM deals ORDER BY table_id, deal_no",
        }
        return {name: con.execute(sql).fetchall() for name, sql in queries.items()}
    finally:
        con.close()


def decoded(data: str) -> Button | None:
    try:
        return Button.decode(data)
    except BadCallbackData:
        return None


def consented(game: str, text: str) -> bool:
    """An action the codec reads that only a vote applies (``undo``)."""
    rules = find_game(game)
    try:
        return rules.by_consent(rules.codec.decode(0, text))
    except RuleError:
        return False


async def legitimate(h: Harness, user: User, data: str) -> bool:
    """Could this press rightly change something? Then the fuzzer does not send it."""
    pressed = decoded(data)
    if pressed is None:
        return False
    assert h.app is not None
    storage = h.app.bot_data["storage"]
    player = await storage.player_by_tg(user.id)
    if pressed.act is Act.PAY:
        # The genuine button of a transfer on the current plan (any presser: policies differ).
        chat_id = pressed.table_id
        try:
            if pressed.deal_no != await storage.ledger_size(chat_id):
                return False
            payer, payee, points = (int(x) for x in pressed.arg.split("-"))
        except ValueError:
            return False
        return Transfer(payer, payee, points) in transfers(
            await storage.balances(chat_id, "points")
        )
    if pressed.act in (bridge_buttons.KEEP, bridge_buttons.KEEP_UNDO):
        # Any member may write on an open sheet, at its current count.
        try:
            sheet = await storage.get_table(pressed.table_id)
        except NotFound:
            return False
        return (
            sheet.scorekeeper
            and sheet.match_id is not None
            and pressed.deal_no == sheet.current_deal
            and (user in PLAYERS or user in NEIGHBOURS)
        )
    if player is None:
        return False
    tables = {t.id: t for t in await storage.tables_of_player(player.id)}
    table = tables.get(pressed.table_id)
    if table is None:
        return False  # not seated at that table: nothing of it is theirs to change
    menus = (Act.SETTING, Act.UNDO, Act.UNDO_ANSWER, Act.SUB, Act.END, bridge_buttons.CLAIM_MENU)
    if pressed.act in menus:
        return True
    if pressed.act is Act.ACTION and consented(table.game, pressed.arg):
        return False  # a take-back is the vote's: from a press it is refused, and sent
    if pressed.act in (Act.ACTION, *bridge_buttons.TABLE_BUTTONS - {bridge_buttons.CLAIM_MENU}):
        count = len(await storage.events(table.id, table.current_deal))
        return pressed.at == count and pressed.deal_no == table.current_deal
    return False


@pytest.mark.soak
async def test_ten_thousand_forged_presses_change_nothing(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    api = h.api
    seen: list[str] = []

    def collect(sent: Sent) -> None:
        for button in sent.buttons():
            data = button.get("callback_data")
            if data and data not in seen:
                seen.append(data)

    api.on_sent.append(collect)
    for user in STRANGERS:
        api.outsiders.update({(GROUP, user.id), (OTHER, user.id)})
    for user in NEIGHBOURS:
        api.outsiders.add((GROUP, user.id))
    for user in PLAYERS:
        api.outsiders.add((OTHER, user.id))
    for user in (*PLAYERS, *STRANGERS, *NEIGHBOURS):
        await h.say(user, user.id, "/start")
    # Money in both groups, an open scoresheet, settings, then a rubber in progress.
    await scorekept_rubber(h, PLAYERS[0], "@anna @bob @cat @dima")
    await scorekept_rubber(h, NEIGHBOURS[0], "@zoe @yan Xi Wu", OTHER)
    await h.say(NEIGHBOURS[0], OTHER, "/settle")
    await h.say(PLAYERS[1], GROUP, "/keep @bob @anna Guest Visitor")
    await h.say(PLAYERS[1], GROUP, "/deal 2H E +1")
    await h.say(PLAYERS[0], GROUP, "/bridge")
    table_id = int(data_of(h.table_message(), ":sit:N").split(":")[1])  # the online table
    for user, seat in zip(PLAYERS, "NESW", strict=True):  # they can be written to: Sit seats
        table = h.table_message()
        answer = await h.press(user, table, data_of(table, f":sit:{seat}"))
        assert not answer.get("text"), answer
    await h.settle()
    # A pulka under way in the other group's topic: both games' tables take every kind.
    await h.say(XI, XI.id, "/start")
    await h.say(NEIGHBOURS[0], OTHER, "/preferans", PREF_TOPIC)
    for seat, user in enumerate((*NEIGHBOURS, XI)):
        seating = next(
            m for m in reversed(h.api.chat_messages(OTHER)) if ":sit:" in str(m.buttons())
        )
        assert not (await h.press(user, seating, data_of(seating, f":sit:{seat}"))).get("text")
    await h.settle()
    await h.say(PLAYERS[0], GROUP, "/settle")
    await h.say(PLAYERS[0], GROUP, "/ledger")
    await h.say(PLAYERS[0], GROUP, "/settings")
    await h.settle()
    assert h.app is not None
    db = h.app.bot_data["storage"].path
    rng = random.Random(20261130)
    fuzzer = Fuzzer(h, rng, seen)
    driver = Driver(h, PLAYERS, random.Random(7))
    pressers = [*PLAYERS, *STRANGERS, *NEIGHBOURS]
    sent = 0
    refusals: set[str] = set()
    undo_queries: list[str] = []
    looks_elsewhere: list[str] = []
    started = time.monotonic()
    while sent < PRESSES:
        assert time.monotonic() - started < DEADLINE_S, f"only {sent} presses in time"
        before = snapshot_state(db)
        queries = []
        while len(queries) < BATCH:
            user = rng.choice(pressers)
            data = fuzzer.mutate(rng.choice(seen))
            if await legitimate(h, user, data):
                continue
            queries.append(await api.press(user, fuzzer.message(user), data))
        # Every look back at every table and deal, from a stranger's private chat and from
        # the other group: nothing of either group's deals is shown elsewhere.
        for kind in LOOKS:
            user = rng.choice(STRANGERS)
            deal = rng.randint(0, 4)
            data = f"b1:{rng.randint(1, 4)}:{deal}:{kind}" + (":o" if kind == "dd" else "")
            where = rng.choice([user.id, OTHER, GROUP])
            found = api.chat_messages(where)
            query = await api.press(user, found[-1] if found else fuzzer.message(user), data)
            queries.append(query)
            if where != GROUP:
                looks_elsewhere.append(query)
        # A take-back forged at the exact position by every seated player: only a vote may.
        live = h.app.bot_data["service"]._live.get(table_id)
        if live is not None and live.state is not None and not live.state.finished:
            for user in PLAYERS:
                forged = f"b1:{table_id}:{live.deal_no}.{live.moves}:a:undo"
                undo_queries.append(await api.press(user, fuzzer.message(user), forged))
                queries.append(undo_queries[-1])
        answers = await asyncio.gather(*(api.answer_of(q, timeout=30) for q in queries))
        assert len(answers) == len(queries)  # every press answered
        refusals.update(a["text"] for a in answers if a.get("text"))
        # No press fell through to the error handler's "something went wrong".
        assert not refusals & texts("refusal.error"), f"an unhandled press (batch at {sent})"
        await h.settle()
        assert snapshot_state(db) == before, f"a forged press changed state (batch at {sent})"
        sent += BATCH
        await driver.step()  # one legitimate call or card between batches
    tracebacks = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not tracebacks, [(r.getMessage(), r.exc_info) for r in tracebacks[:5]]
    assert api.refused == [], api.refused[:5]
    assert driver.presses >= PRESSES // BATCH
    for query in looks_elsewhere:  # the group's names (and so its deals) never shown elsewhere
        text = str((await api.answer_of(query)).get("text", ""))
        assert not any(user.first_name in text for user in PLAYERS), text
    bad = {Translator(lang)("refusal.bad_button") for lang in ("en", "ru")}
    undo_answers = [await api.answer_of(q) for q in undo_queries]
    assert len(undo_answers) > PRESSES // BATCH and all(a.get("text") in bad for a in undo_answers)
    # The fuzz reached every kind of check, not just the decoder.
    for key in (
        "refusal.bad_button",
        "refusal.not_seated",
        "refusal.moved_on",
        "refusal.not_member",
        "refusal.not_member_keeper",
        "refusal.stale",
    ):
        assert refusals & {Translator(lang)(key) for lang in ("en", "ru")}, key
