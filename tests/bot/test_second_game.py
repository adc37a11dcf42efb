"""A new game plugs in with its rules, its plug-in and one registration each: the toy game
(tests/toy) brings its own command, button kind, typed setting, unit (priced by a word of its
own) and refusal, and is played end to end through the real bot, a restart included; its
match lands in the group's ledger in its unit. Adding it touched no shared code: the table
service, storage, the outbox and the other games know nothing of it."""

from __future__ import annotations

import asyncio
import html
import json
import re
import time
from pathlib import Path

from bot.plugins import PLUGINS
from games.core.registry import games, register
from storage.events import replay
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, Harness
from tests.bot.test_fair_deals import COMMAND, check, printed_hands
from tests.fakeapi import FakeBotApi, Sent, User
from tests.toy.game import TOY, ToyState
from tests.toy.ui import PEEK, TOY_PLUGIN

ROOT = Path(__file__).resolve().parents[2]
ANN, BEN = User(301, "Ann", "en", "ann"), User(302, "Ben", "en", "ben")
CAROL = User(303, "Carol", "en", "carol")  # in the group, not at the table
SEED = 2  # its match has a second player holding a higher card than the one led (1's has not)


def _register() -> None:
    if "toy" not in {g.name for g in games()}:
        register(TOY)


def _to_press(h: Harness) -> tuple[User, Sent, str] | None:
    for user in (ANN, BEN):
        for sent in reversed(h.api.chat_messages(user.id)):
            data = [b["callback_data"] for b in sent.buttons() if ":a:lay." in b["callback_data"]]
            if data:
                return user, sent, data[0]
    return None


def _over(h: Harness) -> bool:
    return any("Toy match over" in m.text for m in h.api.chat_messages(GROUP))


async def _lay_low(h: Harness, user: User, sent: Sent, data: str) -> bool:
    """Second to play with a higher card than the one led: a lower card pressed anyway (a
    forged or stale button) is refused in the toy's own words. Whether it could be tried."""
    held = {int(c) for c in re.findall(r"\d", sent.text.split("your cards", 1)[1])}
    offered = {int(b["callback_data"].rsplit(".", 1)[1]) for b in sent.buttons()}
    if not held - offered:
        return False
    low = data.rsplit(".", 1)[0] + f".{min(held - offered)}"
    refused = await h.press(user, sent, low)
    assert refused["text"] == "Beat the card led: you hold a higher one."
    return True


def _last(h: Harness) -> str:
    return h.api.chat_messages(GROUP)[-1].text


async def test_the_toy_game_is_played_through_the_bot(api: FakeBotApi, tmp_path: Path) -> None:
    _register()
    h = Harness(api, str(tmp_path / "bot.sqlite3"), plugins=(*PLUGINS, TOY_PLUGIN))
    await h.start()
    try:
        menus = [c.params for c in api.calls if c.method == "setMyCommands"]
        group_menu = [
            json.loads(c) if isinstance(c, str) else c
            for c in (menus[0]["commands"] if menus else [])
        ]
        assert {"toy", "toyscore", "bridge", "preferans"} <= {c["command"] for c in group_menu}
        for user in (ANN, BEN, CAROL):
            await h.say(user, user.id, "/start")
        # The group was met in Ann's English; its admin makes it a Russian-speaking group, so
        # the toy's Russian words are what the table speaks.
        h.api.admins.add(ANN.id)
        await h.say(ANN, GROUP, "/settings")
        group_settings = h.api.chat_messages(GROUP)[-1]
        # The messages that list the games name it: filled from the plug-ins.
        assert "/bridge, /preferans or /toy opens a table" in group_settings.text
        to_russian = next(
            b["callback_data"] for b in group_settings.buttons() if "lang=ru" in b["callback_data"]
        )
        assert (await h.press(ANN, group_settings, to_russian)).get("text") == "Saved."
        await h.say(ANN, GROUP, "/toyscore")  # its own command, its own refusal
        assert _last(h) == "Здесь не играют в игрушку."
        await h.say(ANN, GROUP, "/toy")
        seating = next(m for m in reversed(h.api.chat_messages(GROUP)) if "Toy table" in m.text)
        sit = next(
            b["callback_data"] for b in seating.buttons() if b["callback_data"].endswith(":sit:0")
        )
        assert not (await h.press(ANN, seating, sit)).get("text")
        # A typed setting of its own (refused in its words when wrong), and its unit priced.
        await h.say(ANN, GROUP, "/settings goal 12")
        assert _last(h) == "Напишите так: /settings цель 4 (от 1 до 9)."
        # A word two games share (Preferans's pool) is read, and refused, as this game's own.
        await h.say(ANN, GROUP, "/settings пуля 12")
        assert _last(h) == "Напишите так: /settings цель 4 (от 1 до 9)."
        await h.say(ANN, GROUP, "/settings goal 2")
        assert "Цель: перевес в 2" in _last(h)
        await h.say(ANN, GROUP, "/settings pip 2 RUB")
        assert "Пип: 2 RUB" in _last(h) and "↳ /settings пип 2 RUB" in _last(h)
        seating = next(m for m in reversed(h.api.chat_messages(GROUP)) if "Toy table" in m.text)
        sit = next(
            b["callback_data"] for b in seating.buttons() if b["callback_data"].endswith(":sit:1")
        )
        assert not (await h.press(BEN, seating, sit)).get("text")
        # A neutral refusal in the game's own words: a seat while its match is on.
        answer = await h.press(CAROL, seating, sit)
        assert answer["text"] == "A toy match is already on."
        table = next(m for m in reversed(h.api.chat_messages(GROUP)) if "Toy table" in m.text)
        peek = next(b["callback_data"] for b in table.buttons() if f":{PEEK}" in b["callback_data"])
        # Its own button kind: a player peeks, a passer-by is refused in the toy's words.
        assert "Taken this deal: 0–0" in (await h.press(ANN, table, peek))["text"]
        assert (await h.press(CAROL, table, peek))["text"] == "Only the players may peek."
        presses = must_beat = 0
        while not _over(h):
            found = _to_press(h)
            assert found is not None, "nobody has a card to lay"
            user, sent, data = found
            other = BEN if user is ANN else ANN
            refused = await h.press(other, sent, data)  # a stranger's press of it changes nothing
            assert refused.get("text")
            must_beat += await _lay_low(h, user, sent, data)
            assert not (await h.press(user, sent, data)).get("text")
            assert (await h.press(user, sent, data)).get("text")  # a double tap is refused
            presses += 1
            if presses == 3:  # a restart mid-deal: the deal goes on from its log
                await h.crash()
                await h.start()
                await h.settle()
                await h.say(ANN, GROUP, "/toyscore")
                assert re.fullmatch(r"Игрушка, стол №1: \d–\d \(goal 2\)", _last(h))
            assert presses < 200
        # Whether a deal gave a choice is chance here (the deals are fair); the seeded test
        # below always meets one.
        await h.settle()
        await h.say(ANN, GROUP, "/ledger")
        ledger = _last(h)
        assert "RUB" in ledger and "пип" in ledger, ledger  # its unit, named and priced
        # Its deals check with fair.py alone, by the pack and order the game says.
        await h.say(BEN, GROUP, "/fair")
        await h.settle()
        command = next(
            html.unescape(found.group(1)).split()
            for m in reversed(h.api.chat_messages(GROUP))
            if (found := COMMAND.search(m.text))
        )
        ran = check(tmp_path, *command)
        assert ran.returncode == 0 and "matches" in ran.stdout, ran.stdout + ran.stderr
        # /settle: who pays whom, in its unit and in money at its price.
        await h.say(ANN, GROUP, "/settle")
        settle = _last(h)
        assert "пип" in settle and "RUB" in settle, settle
    finally:
        if h.app is not None:
            await h.stop()
    store = await SqliteStorage.open(h.database)
    try:
        table = await store.get_table(1)
        assert table.game == "toy" and table.settings.options["goal"] == 2
        chat = await store.chat_by_tg(GROUP)
        assert chat is not None and chat.settings.price("pips") == 200
        [match] = await store.matches(chat.id)
        assert match.game == "toy"
        # Independently: every deal of the match replayed through the toy rules.
        score = [0, 0]
        checked = int(command[2])
        hands = printed_hands(ran.stdout)
        first = (await store.events(table.id, checked))[0].payload
        assert hands == {str(i): {str(c) for c in cards} for i, cards in enumerate(first["hands"])}
        for deal in await store.deals(match.id):
            state = replay(TOY, 2, await store.events(table.id, deal.deal_no))
            assert isinstance(state, ToyState) and state.finished
            score = [score[0] + state.taken[0], score[1] + state.taken[1]]
        assert abs(score[0] - score[1]) >= 2 and match.result == {"score": score, "goal": 2}
        ann = await store.player_by_tg(ANN.id)
        ben = await store.player_by_tg(BEN.id)
        assert ann is not None and ben is not None
        diff = score[0] - score[1]
        assert await store.balances(chat.id, "pips") == {ann.id: diff, ben.id: -diff}
        assert await store.balances(chat.id, "points") == {}
    finally:
        await store.close()


async def test_the_toys_own_rule_is_refused_in_its_words(api: FakeBotApi, tmp_path: Path) -> None:
    """Seeded deals that give the second player a higher card than the one led: a lower one
    pressed anyway is refused with the toy's own reason (``ToyReason.MUST_BEAT``, worded in
    its own catalogue), and nothing is written."""
    _register()
    h = Harness(
        api, str(tmp_path / "bot.sqlite3"), plugins=(*PLUGINS, TOY_PLUGIN), shuffle_seed=SEED
    )
    await h.start()
    try:
        for user in (ANN, BEN):
            await h.say(user, user.id, "/start")
        await h.say(ANN, GROUP, "/toy")
        for user, end in ((ANN, ":sit:0"), (BEN, ":sit:1")):
            seating = next(m for m in reversed(h.api.chat_messages(GROUP)) if "Toy table" in m.text)
            data = next(
                b["callback_data"] for b in seating.buttons() if b["callback_data"].endswith(end)
            )
            assert not (await h.press(user, seating, data)).get("text")
        tried = 0
        while not _over(h) and not tried:
            found = _to_press(h)
            assert found is not None, "nobody has a card to lay"
            user, sent, data = found
            tried += await _lay_low(h, user, sent, data)
            assert not (await h.press(user, sent, data)).get("text")  # the right card still goes
        assert tried, "the seeded deals gave no choice"
    finally:
        if h.app is not None:
            await h.stop()


async def test_the_toys_robot_plays_and_its_match_is_practice_in_pips(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A person and the toy's robot: the robot moves in a worker process like any game's, and
    the match goes to the practice account in the toy's own unit, shown as such in /ledger."""
    _register()
    h = Harness(api, str(tmp_path / "bot.sqlite3"), plugins=(*PLUGINS, TOY_PLUGIN))
    await h.start()
    try:
        await h.say(ANN, ANN.id, "/start")
        await h.say(ANN, GROUP, "/toy")
        seating = next(m for m in reversed(h.api.chat_messages(GROUP)) if "Toy table" in m.text)
        for end in (":sit:0", ":rb:1"):
            data = next(
                b["callback_data"] for b in seating.buttons() if b["callback_data"].endswith(end)
            )
            assert not (await h.press(ANN, seating, data)).get("text")
            seating = next(m for m in reversed(h.api.chat_messages(GROUP)) if "Toy table" in m.text)
        deadline = time.monotonic() + 60
        while not _over(h):
            assert time.monotonic() < deadline, "the toy match with a robot did not end"
            found = _to_press(h)
            if found is None or (await h.press(*found)).get("text"):
                await asyncio.sleep(0.02)  # the robot thinks (or Ann's screen was stale)
        await h.settle()
        await h.say(ANN, GROUP, "/ledger")
        ledger = _last(h)
        assert "Practice" in ledger and "pip" in ledger and "amount." not in ledger, ledger
    finally:
        if h.app is not None:
            await h.stop()
    store = await SqliteStorage.open(h.database)
    try:
        chat = await store.chat_by_tg(GROUP)
        assert chat is not None
        assert await store.balances(chat.id, "pips") == {}  # not money
        practice = await store.balances(chat.id, "practice_pips")
        assert practice and sum(practice.values()) == 0
    finally:
        await store.close()


def test_adding_the_toy_touched_no_shared_code() -> None:
    """The toy is its package (rules and plug-in), registered from the tests; no module of the
    bot, storage or the games names it. Its words are its catalogue entries."""
    assert sorted(p.name for p in (ROOT / "tests" / "toy").glob("*.py")) == [
        "__init__.py",
        "game.py",
        "ui.py",
    ]
    for package in ("bot", "storage", "games"):
        for path in (ROOT / package).rglob("*.py"):
            code = path.read_text()
            assert not re.search(r"\b[Tt]oy\b|\"pips\"", code), path


def test_the_toys_words_are_its_own_catalogue() -> None:
    """Its words are its own catalogue in its package (``Plugin.words``): the shipped
    catalogues name it nowhere, so adding it touched no shared file but the registries (here,
    the tests' own lines)."""
    for language in ("en", "ru"):
        shipped = (ROOT / "bot" / "locale" / language / "LC_MESSAGES" / "messages.po").read_text()
        assert not re.search(r"\btoy\b|\.pips\b|must_beat", shipped), language
        own = (ROOT / "tests" / "toy" / "locale" / f"{language}.po").read_text()
        for key in ("command.toy", "game.toy", "reason.must_beat", "amount.pips", "help.toy"):
            assert f'msgid "{key}"' in own, (language, key)
    assert TOY_PLUGIN.words == ROOT / "tests" / "toy" / "locale"
