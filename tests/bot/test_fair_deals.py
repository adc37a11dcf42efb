"""Deals anyone can check (``games.core.fair``), through the real bot: each deal's commitment
is in the group before the deal exists, its result reveals the seed, and the checker alone (a
copy of ``fair.py`` run by a bare Python, nothing of this repository importable) rebuilds the
very cards the bot dealt and refuses a changed seed."""

from __future__ import annotations

import hashlib
import html
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import Translator
from bot.tables import Refusal, TableService
from games.bridge.cards import Deal as BridgeDeal
from games.bridge.cards import Seat
from games.core import fair
from games.core.fair import commitment, seed_for
from games.core.registry import find_game
from games.errors import RuleError
from games.preferans.cards import Deal as PrefDeal
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS, Harness, actor, data_of, seat_four
from tests.bot.test_preferans_table import PLAYERS as PREF_PLAYERS
from tests.bot.test_preferans_table import _choose, _offer, sit_all
from tests.fakeapi import FakeBotApi

BRIDGE = find_game("bridge")
HASH = re.compile(r"🔐[^\n]*?<code>([0-9a-f]{16})</code>")  # the table shows 64 bits
REVEAL = re.compile(r"🔓\D*(\d+)\D*<code>([0-9a-f]{64})</code>.*?<code>(\d+)</code>")
OPEN = re.compile(r"🔓[^\n]*(/fair_\d+)")
COMMAND = re.compile(r"python3 fair\.py ([^<]+)</code>")


def posted_command(h: Harness) -> list[str]:
    """The check command as the group was given it (after ``python3 fair.py``)."""
    text = h.api.chat_messages(GROUP)[-1].text
    found = COMMAND.search(text)
    assert found is not None, text
    return html.unescape(found.group(1)).split()


async def revealed(h: Harness, result: str) -> re.Match[str]:
    """The result's one line names the command that opens the deal's key: a player sends it
    (a tap does), and the group gets the key, the players' value and the check."""
    line = OPEN.search(result)
    assert line is not None, result
    assert len(line.group(0)) <= 45  # one short line, not the key itself
    await h.say(PLAYERS[1], GROUP, line.group(1))
    await h.settle()
    found = REVEAL.search(h.api.chat_messages(GROUP)[-1].text)
    assert found is not None, h.api.chat_messages(GROUP)[-1].text
    return found


def shown_before(api: FakeBotApi, digest: str, calls: int) -> bool:
    """Whether the group was sent ``digest`` by one of the first ``calls`` calls."""
    return any(
        call.params.get("chat_id") in (GROUP, str(GROUP)) and digest in str(call.params)
        for call in api.calls[:calls]
    )


def check(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The checker as a stranger runs it: a copy of the file alone, by an isolated Python
    (``-I``: no site-packages, no working directory on the path), far from this repository."""
    alone = tmp / "stranger"
    alone.mkdir(exist_ok=True)
    shutil.copy(fair.__file__, alone / "fair.py")
    return subprocess.run(
        [sys.executable, "-I", "fair.py", *args],
        cwd=alone,
        capture_output=True,
        text=True,
        timeout=60,
    )


def printed_hands(output: str) -> dict[str, set[str]]:
    hands = {}
    for line in output.splitlines():
        holder, sep, cards = line.partition(": ")
        if sep and holder != "commitment":
            hands[holder] = set(cards.split())
    return hands


async def test_a_bridge_deal_is_committed_before_it_exists_and_rebuilt_by_the_checker_alone(
    h: Harness, tmp_path: Path
) -> None:
    await h.say(PLAYERS[0], GROUP, "/bridge")
    await h.settle()
    first = HASH.search(h.table_message().text)
    assert first is not None, h.table_message().text  # the seating message commits deal 1
    opened = len(h.api.calls)
    await seat_four(h)  # /bridge again answers with the same table; the fourth seat deals
    await h.settle()
    # Deal 1's hash went out before any player was seated, let alone dealt a card.
    assert shown_before(h.api, first.group(1), opened)
    last_sit = h.api._update_id  # the players' value: the deep link that took the last seat
    table = h.table_message()
    nxt = HASH.search(table.text)
    assert nxt is not None and nxt.group(1) != first.group(1)  # the table commits deal 2
    for _ in range(4):  # a passed-out deal: over in four presses
        user, message = actor(h)
        before = len(h.api.calls)
        await h.press(user, message, data_of(message, ":a:call.P"))
    await h.settle()
    assert shown_before(h.api, nxt.group(1), before)  # before the press that dealt deal 2
    result = next(m.text for m in reversed(h.api.chat_messages(GROUP)) if "🔓" in m.text)
    number, seed, entropy = (await revealed(h, result)).groups()
    assert number == "1" and entropy == str(last_sit)
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest().startswith(first.group(1))
    command = posted_command(h)
    assert command[:3] == [seed, entropy, "1"] and "bridge" not in command  # names no game
    await h.stop()

    store = await SqliteStorage.open(h.database)
    try:
        payload = (await store.events(1, 1))[0].payload
    finally:
        await store.close()
    dealt = BridgeDeal.from_pbn(str(payload["pbn"]))
    ran = check(tmp_path, *command[:-1], first.group(1))  # the table's 16 digits
    assert ran.returncode == 0, ran.stderr
    assert "matches" in ran.stdout
    assert printed_hands(ran.stdout) == {
        seat.name: {str(card) for card in dealt.hands[seat]} for seat in Seat
    }
    # A command posted before the deal order was written into it checks as it did.
    before = check(
        tmp_path, "bridge", seed, entropy, "1",
        "--dealer", str(payload["dealer"]), "--commitment", first.group(1),
    )  # fmt: skip
    assert before.returncode == 0 and printed_hands(before.stdout) == printed_hands(ran.stdout)
    forged = f"{int(seed[0], 16) ^ 1:x}{seed[1:]}"  # one bit of the seed changed
    refused = check(tmp_path, forged, *command[1:-1], first.group(1))
    assert refused.returncode == 1 and "DOES NOT MATCH" in refused.stdout
    other = printed_hands(refused.stdout)
    assert other != printed_hands(ran.stdout)  # and it deals other cards


async def test_fair_in_the_group_names_the_check_of_the_last_deal_and_sends_the_checker(
    h: Harness,
) -> None:
    await seat_four(h)
    for _ in range(4):
        user, message = actor(h)
        await h.press(user, message, data_of(message, ":a:call.P"))
    shown = HASH.search(h.table_message().text)
    assert shown is not None
    await h.say(PLAYERS[1], GROUP, "/fair")
    await h.settle()
    whole = re.search(r"<code>([0-9a-f]{64})</code>", h.api.chat_messages(GROUP)[-2].text)
    assert whole is not None and whole.group(1).startswith(shown.group(1))  # the whole hash
    # A deal not over (or never dealt) keeps its key: said so, nothing revealed.
    for number in (2, 99):
        await h.say(PLAYERS[2], GROUP, f"/fair_{number}")
        await h.settle()
        answer = h.api.chat_messages(GROUP)[-1].text
        assert answer == Translator("ru")("fair.no_deal", number=number), answer
    before = len(h.api.chat_messages(GROUP))
    await h.say(PLAYERS[2], GROUP, "/fair_1@another_bot")  # for another bot in the group
    await h.settle()
    assert len(h.api.chat_messages(GROUP)) == before
    calls = [c for c in h.api.calls if c.method == "sendDocument"]
    assert calls and "fair.py" in str(calls[-1].params)
    text = next(
        m.text for m in reversed(h.api.chat_messages(GROUP)) if "python3 fair.py " in m.text
    )
    command = COMMAND.search(text)
    assert command is not None, text
    args = html.unescape(command.group(1)).split()
    assert args[2] == "1" and args[args.index("--deal") + 1][-1] in "NESW"  # deal 1 (over)
    # In a private chat: how it works, and the file, with no table's values.
    await h.say(PLAYERS[1], PLAYERS[1].id, "/fair")
    await h.settle()
    private = h.api.chat_messages(PLAYERS[1].id)
    assert any("SHA-256" in m.text and "--pack" not in m.text for m in private)


async def test_a_preferans_deal_is_rebuilt_by_the_checker_alone(h: Harness, tmp_path: Path) -> None:
    for user in PREF_PLAYERS:
        await h.say(user, user.id, "/start")
    await h.say(PREF_PLAYERS[0], GROUP, "/preferans")
    await h.settle()
    first = HASH.search(h.table_message().text)
    assert first is not None
    await sit_all(h, PREF_PLAYERS)
    rng = random.Random(3)
    for _ in range(400):
        if any("🔓" in m.text for m in h.api.chat_messages(GROUP)):
            break
        found = _offer(h, PREF_PLAYERS)
        assert found is not None
        user, sent, data = found
        await h.press(user, sent, _choose(rng, data))
    await h.settle()
    result = next(m.text for m in reversed(h.api.chat_messages(GROUP)) if "🔓" in m.text)
    number, seed, entropy = (await revealed(h, result)).groups()
    command = posted_command(h)
    await h.stop()
    store = await SqliteStorage.open(h.database)
    try:
        payload = (await store.events(1, int(number)))[0].payload
    finally:
        await store.close()
    dealt = PrefDeal.from_payload(payload)
    assert command[:3] == [seed, entropy, number]
    ran = check(tmp_path, *command)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    hands = printed_hands(ran.stdout)
    assert hands.pop("talon") == {str(card) for card in dealt.talon}
    assert hands == {str(s): {str(c) for c in cards} for s, cards in dealt.hands.items()}
    before = check(
        tmp_path, "preferans", seed, entropy, number, "--players", "3",
        "--dealer", str(dealt.dealer), "--commitment", first.group(1),
    )  # fmt: skip
    assert before.returncode == 0 and printed_hands(before.stdout) == printed_hands(ran.stdout)


async def test_only_a_press_the_table_takes_sets_the_players_value(tmp_path: Path) -> None:
    """An illegal card, a press for an earlier moment or a stranger's press cannot pick the
    value the next deal is shuffled with: the last press the table took does; and a restart
    deals the next deal from the same committed seed."""
    storage = await SqliteStorage.open(str(tmp_path / "fair.sqlite3"))
    key = b"k" * 32
    service = TableService(storage, fair_key=key)
    try:
        change, _ = await service.open_table(-5, "Club", None, "en", "bridge")
        table = change.snapshot.table_id
        nonce = (await storage.get_table(table)).token
        for i, seat in enumerate(Seat):
            player = await service.player(100 + i, f"P{i}", "en")
            change = await service.sit(table, player, seat, heard=10 + i)
        first = (await storage.events(table, 1))[0].payload
        assert first["fair"] == {"seed": seed_for(key, table, 1, nonce), "entropy": "13"}
        for step in range(4):
            snap = change.snapshot
            assert snap.state is not None and snap.state.turn is not None
            who = snap.seats[snap.state.turn].player_id
            with pytest.raises(RuleError):  # a double with no bid to double
                await service.act(table, 1, who, "call.X", snap.actions, heard=900 + step)
            with pytest.raises(Refusal):  # a double tap: made for an earlier moment
                await service.act(table, 1, who, "call.P", snap.actions - 1, heard=800 + step)
            stranger = await service.player(999, "Stranger", "en")
            with pytest.raises(Refusal):
                await service.act(table, 1, stranger.id, "call.P", snap.actions, heard=700)
            # The last pass is a robot's (no update): the last press taken stays the value.
            heard = 20 + step if step < 3 else None
            change = await service.act(table, 1, who, "call.P", snap.actions, heard=heard)
        second = (await storage.events(table, 2))[0].payload
        assert second["fair"] == {"seed": seed_for(key, table, 2, nonce), "entropy": "22"}
        assert change.snapshot.commitments[3] == commitment(seed_for(key, table, 3, nonce))
    finally:
        await storage.close()
    again = TableService(await SqliteStorage.open(str(tmp_path / "fair.sqlite3")), fair_key=key)
    try:
        await again.restore_all()
        snap = await again.snapshot(table)
        assert snap.commitments == change.snapshot.commitments  # the same promise after it
    finally:
        await again.storage.close()


async def test_two_databases_under_one_key_never_commit_to_the_same_seeds(tmp_path: Path) -> None:
    """The repeated-seed attack: a database lost and started empty under the same token (or a
    second instance) numbers its tables and deals as the old one did. Its commitments must not
    repeat the old one's: else the seed the old group saw revealed, tried against a player's own
    thirteen cards with the players' values around the last reveal, gives all four hands."""
    key = b"k" * 32
    dealt: list[tuple[dict[int, str], dict[str, object]]] = []
    for name in ("lost.sqlite3", "fresh.sqlite3"):
        storage = await SqliteStorage.open(str(tmp_path / name))
        service = TableService(storage, fair_key=key)
        try:
            change, _ = await service.open_table(-5, "Club", None, "en", "bridge")
            table = change.snapshot.table_id
            for i, seat in enumerate(Seat):
                player = await service.player(100 + i, f"P{i}", "en")
                change = await service.sit(table, player, seat, heard=10 + i)
            payload = dict((await storage.events(table, 1))[0].payload)
            dealt.append((change.snapshot.commitments, payload))
        finally:
            await storage.close()
    (old_promise, old_payload), (new_promise, new_payload) = dealt
    assert set(old_promise) == set(new_promise) == {1, 2}  # the same table and deal numbers
    assert not set(old_promise.values()) & set(new_promise.values())
    old_fair, new_fair = old_payload["fair"], new_payload["fair"]
    assert isinstance(old_fair, dict) and isinstance(new_fair, dict)
    # The attacker's try: the old group's revealed seed with the new table's players' value
    # deals other cards than the new table holds; the new seed deals exactly them.
    dealing = BRIDGE.dealing(4, int(Seat.parse(str(new_payload["dealer"]))))
    held = BridgeDeal.from_pbn(str(new_payload["pbn"]))
    truth = {seat.name: {str(c) for c in held.hands[seat]} for seat in Seat}
    tried = fair.hands(old_fair["seed"], new_fair["entropy"], 1, dealing)
    rebuilt = fair.hands(new_fair["seed"], new_fair["entropy"], 1, dealing)
    assert {s: set(h) for s, h in rebuilt.items()} == truth
    assert {s: set(h) for s, h in tried.items()} != truth
