"""Players' statistics (#32) through the real table service, SQLite and the reviewer's worker
process, against a direct count over the stored deals: random legal deals of both games are
played and stored, the reviewer reviews them (each once, off the event loop), and what
``/stats`` reads equals the per-card count of ``tests.games.test_review`` over the same logs."""

from __future__ import annotations

import asyncio
import datetime
import json
import random
import re
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.callback_data import Act, Button
from bot.i18n import Translator
from bot.reviews import Reviewer
from bot.stats import ROBOTS, StatsService
from bot.tables import ROBOT, TableService
from bot.views.stats import costly_popup
from games.bridge.review import review as bridge_review
from games.core.registry import find_game
from games.core.review import SeatStats
from storage.events import replay
from storage.interface import Storage
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS, Harness, actor, seat_four
from tests.fakeapi import FakeBotApi, Sent, User
from tests.games.test_review import direct_bridge, direct_preferans
from tests.handedit import edit_events
from tests.sizes import examples

OTHER_GROUP = -300
TODAY = datetime.datetime.now(datetime.UTC).date()


async def play_deals(
    service: TableService, rng: random.Random, game: str, size: int, deals: int, chat: int
) -> tuple[int, int]:
    """Open a table of ``game`` in group ``chat``, seat ``size`` players and play ``deals``
    deals with random legal actions (claims answered as they come), or until the match ends.
    Returns the table and its match."""
    change, _ = await service.open_table(chat, "Club", None, "en", game)
    table = change.snapshot.table_id
    for seat in range(size):
        player = await service.player(abs(chat) * 10 + seat, f"P{seat}", "en")
        change = await service.sit(table, player, seat)
    match_id = (await service.storage.get_table(table)).match_id
    assert match_id is not None
    for _ in range(deals):
        number = change.snapshot.deal_no
        while change.snapshot.deal_no == number:
            snap = change.snapshot
            state = snap.state
            assert state is not None
            if state.finished:  # the match is over: no deal follows
                return table, match_id
            choices = [(s, a) for s in snap.seats for a in state.legal_actions(s)]
            assert choices, (game, state)
            seat, action = rng.choice(choices)
            # Who presses for the seat: bridge's declarer for dummy (its state's turn names
            # the presser), Preferans's open whister for the passer (its state's actor).
            presser = seat
            if game == "bridge" and state.turn is not None:
                presser = state.turn
            elif game == "preferans" and state.turn == seat:
                presser = state.actor  # type: ignore[attr-defined]
            who = snap.seats[presser].player_id
            text = snap.game.codec.encode(action)
            change = await service.act(table, number, who, text, snap.actions)
    return table, match_id


async def direct_count(storage: Storage, table: int, match_id: int) -> dict[int, SeatStats]:
    """Each player's counts, straight from the match's stored deals (players by seat)."""
    record = await storage.get_match(match_id)
    seats = record.seats
    game = find_game(record.game)
    match = game.new_match(len(seats), record.options)
    found: dict[int, SeatStats] = {}
    for summary in await storage.deals(record.id):
        if summary.result is None:
            continue
        state = replay(game, len(seats), await storage.events(table, summary.deal_no))
        if game.name == "bridge":
            rubber = match.rubber  # type: ignore[attr-defined]
            per_seat = direct_bridge(state.deal, rubber.vulnerable("NS"), rubber.vulnerable("EW"))  # type: ignore[attr-defined]
        else:
            per_seat = direct_preferans(state)  # type: ignore[arg-type]
        for seat, stats in per_seat.items():
            pid = seats[seat]
            found[pid] = found.get(pid, SeatStats()) + stats
        match.record(summary.result)
    return found


async def one_example(seed: int, folder: Path) -> None:
    storage = await SqliteStorage.open(str(folder / f"stats{seed}.sqlite3"))
    rng = random.Random(seed)
    service = TableService(storage, random.Random(seed).randrange)  # the same deals each run
    reviewer = Reviewer(storage, 1)
    try:
        bridge, bridge_match = await play_deals(service, rng, "bridge", 4, 2, -7)
        pref, pref_match = await play_deals(service, rng, "preferans", 3, 3, -8)
        robot = (await storage.get_table(bridge)).seats[3]
        await storage.set_player_flag(robot, ROBOT, True)  # counted apart from the people
        reviewer.start()
        await asyncio.wait_for(reviewer.idle.wait(), 300)
        finished = [
            d for m in (bridge_match, pref_match) for d in await storage.deals(m) if d.result
        ]
        assert reviewer.reviewed == len(finished) >= 3  # every finished deal, each once
        assert await storage.unreviewed() == []  # each finished deal once
        stats = StatsService(storage)
        for table, match_id in ((bridge, bridge_match), (pref, pref_match)):
            chat = (await storage.get_table(table)).chat_id
            expected = await direct_count(storage, table, match_id)
            report = await stats.report(TODAY, chat_id=chat)
            people = {line.player_id: line for line in report.lines if line.player_id != ROBOTS}
            robots = [line for line in report.lines if line.player_id == ROBOTS]
            for pid, stats_of in expected.items():
                if pid == robot:
                    assert robots and robots[0].all_time == stats_of
                    continue
                assert people[pid].all_time == stats_of, (pid, people[pid], stats_of)
                assert people[pid].recent == stats_of  # all played today
            # One player's own, anywhere, is the same line.
            pid = next(iter(p for p in expected if p != robot))
            own = await stats.report(TODAY, player_id=pid)
            assert [line.all_time for line in own.lines] == [expected[pid]]
    finally:
        await reviewer.close()
        await service.close()
        await storage.close()


async def play_to_the_result(h: Harness, rng: random.Random) -> Sent:
    """A bridge deal played to its end at the harness's table (someone bids now and then, the
    cards are played); the group's result post."""
    while True:
        user, message = actor(h)
        data = [b["callback_data"] for b in message.buttons() if ":a:" in b["callback_data"]]
        bids = [d for d in data if ":a:call." in d and not d.endswith(".P")]
        choice = bids[0] if bids and rng.random() < 0.2 else rng.choice(data)
        await h.press(user, message, choice)
        await h.settle()
        for posted in h.api.chat_messages(GROUP):
            if ":cc" in str(posted.buttons()):  # the costly card's button: the result's
                return posted


async def test_a_deals_review_reuses_the_solve_its_result_post_made(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """#48: one double-dummy solve a finished deal. The result post's analysis (par in its
    text) is handed to the deal's review, which stores what solving afresh gives."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"), review_workers=1)
    await h.start()
    try:
        await seat_four(h)
        result = await play_to_the_result(h, random.Random(4))
        assert "Пар: " in result.text, result.text  # the analysis, solved for the post
        reviewer = h.app.bot_data["reviewer"]  # type: ignore[union-attr]
        await asyncio.wait_for(reviewer.idle.wait(), 120)
        await asyncio.sleep(0.2)
        assert (reviewer.reviewed, reviewer.shared) == (1, 1)
        storage: Storage = h.app.bot_data["storage"]  # type: ignore[union-attr]
        table = await storage.get_table(1)  # the group's one table
        stored = await storage.review_of(table.id, 1)
        match = await storage.get_match(table.match_id or 0)
        state = replay(find_game("bridge"), 4, await storage.events(table.id, 1))
        rubber = find_game("bridge").new_match(4, match.options).rubber  # type: ignore[attr-defined]
        fresh = bridge_review(state.deal, rubber.vulnerable("NS"), rubber.vulnerable("EW"))  # type: ignore[attr-defined]
        assert stored is not None
        assert {k: v for k, v in stored.items() if k != "holders"} == fresh.to_payload()
    finally:
        await h.stop()


@settings(max_examples=examples(10, least=2), deadline=None)
@given(st.integers(0, 10**6))
def test_statistics_are_the_direct_count_over_the_stored_deals(seed: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(one_example(seed, Path(folder)))


async def test_stats_are_private_until_the_admins_show_them_and_the_costly_card_on_request(
    api: FakeBotApi, tmp_path: Path
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"), review_workers=1)
    await h.start()
    try:
        anna, bob = PLAYERS[0], PLAYERS[1]  # Anna speaks Russian, Bob English
        api.admins.add(anna.id)
        await seat_four(h)
        result = await play_to_the_result(h, random.Random(2))
        reviewer = h.app.bot_data["reviewer"]  # type: ignore[union-attr]
        await asyncio.wait_for(reviewer.idle.wait(), 120)
        await asyncio.sleep(0.2)
        assert reviewer.reviewed == 1
        # The costly card: anyone in the group may ask, in a popup; nothing is posted.
        costly = next(b["callback_data"] for b in result.buttons() if ":cc" in b["callback_data"])
        posted = len(h.api.chat_messages(GROUP))
        popup = await h.press(PLAYERS[2], result, costly)
        assert popup.get("show_alert"), popup
        assert "N-S" in popup["text"] and "E-W" in popup["text"], popup
        assert len(h.api.chat_messages(GROUP)) == posted
        # Every look back at this group's deals, pressed from a stranger's private chat or
        # from another group (table and deal numbers are small: guessable), shows nothing.
        stranger = User(909, "Eve", "en")
        await h.say(stranger, stranger.id, "/start")
        await h.say(stranger, OTHER_GROUP, "/help")
        looks = [costly, "b1:1:1:tr", "b1:1:1:dd:o", Button(1, 1, Act.COSTLY).encode()]
        for chat in (stranger.id, OTHER_GROUP):
            elsewhere = h.api.chat_messages(chat)[-1]
            for data in looks:
                answer = await h.press(stranger, elsewhere, data)
                text = str(answer.get("text", ""))
                assert not any(n in text for n in ("Anna", "Bob", "Cat", "Dima", "N-S")), text
                assert not re.search(r"[♠♥♦♣]", text), text
        # A forged button for a deal not yet over is refused.
        forged = Button(1, 2, Act.COSTLY).encode()
        assert not (await h.press(bob, result, forged)).get("show_alert")

        # /stats in the group, by default: each their own, privately; the group sees a note.
        await h.say(bob, GROUP, "/stats")
        await h.settle()
        note = h.api.chat_messages(GROUP)[-1].text
        assert "Bob" in note and "Anna" not in note
        own = h.api.chat_messages(bob.id)[-1].text
        assert "Bob" in own and "Anna" not in own and "Cat" not in own
        # Bob may not show everyone's; Anna (an admin) may, in /settings.
        await h.say(anna, GROUP, "/settings")
        await h.settle()
        screen = h.api.chat_messages(GROUP)[-1]
        show = next(
            b["callback_data"] for b in screen.buttons() if "stats=public" in b["callback_data"]
        )
        assert (await h.press(bob, screen, show)).get("text") == Translator("en")(
            "refusal.stats_admins"
        )
        await h.press(anna, screen, show)
        await h.settle()
        await h.say(bob, GROUP, "/stats chart")
        await h.settle()
        shown = [m for m in h.api.chat_messages(GROUP) if "📊" in m.text][-1].text
        for name in ("Anna", "Bob", "Cat", "Dima"):
            assert name in shown, shown
        # Bridge's contracts against par are in IMPs (the game's UI says so).
        assert re.search(r"контракт против пара: [+-]\d+,\d IMP", shown), shown
        assert any(c.method == "sendPhoto" for c in h.api.calls[-3:])
    finally:
        await h.stop()


async def test_a_reviewer_whose_worker_dies_leaves_the_deal_to_review_again(tmp_path: Path) -> None:
    """A worker killed (out of memory, say) is not the deal's fault: nothing is recorded for
    it, and the table's next finished deal brings a new worker that reviews both."""
    storage = await SqliteStorage.open(str(tmp_path / "killed.sqlite3"))
    service = TableService(storage)
    reviewer = Reviewer(storage, 1)
    try:
        table, _ = await play_deals(service, random.Random(5), "bridge", 4, 1, -9)
        pool = reviewer._executor()
        await asyncio.get_running_loop().run_in_executor(pool, int)  # its worker is up
        for process in list(pool._processes.values()):  # type: ignore[attr-defined]
            process.kill()
            process.join()
        reviewer.start()
        await asyncio.wait_for(reviewer.idle.wait(), 60)
        assert reviewer.reviewed == 0 and len(await storage.unreviewed()) == 1
        reviewer.poke(table)
        await asyncio.sleep(0)
        await asyncio.wait_for(reviewer.idle.wait(), 120)
        assert reviewer.reviewed == 1 and await storage.unreviewed() == []
        assert (await storage.review_of(table, 1) or {}).get("seats")
    finally:
        await reviewer.close()
        await service.close()
        await storage.close()


async def test_a_deal_that_does_not_replay_is_marked_and_the_next_are_reviewed(
    tmp_path: Path,
) -> None:
    """A deal whose log the rules refuse (an old release's, a hand edit) is reviewed as
    refused, once: the rules' refusal crosses the worker's process as itself, the deals after
    it are reviewed, and its costly-card popup says there will be no review."""
    path = tmp_path / "stats.sqlite3"
    storage = await SqliteStorage.open(str(path))
    service = TableService(storage, random.Random(4).randrange)
    reviewer = Reviewer(storage, 1)
    try:
        table, match_id = await play_deals(service, random.Random(4), "bridge", 4, 3, -9)
        first = min(d.deal_no for d in await storage.deals(match_id) if d.result)
        events = await storage.events(table, first)
        broken = events[1]  # the first call, made illegal: a call of level 8
        payload = dict(broken.payload)
        key = next(k for k, v in payload.items() if isinstance(v, str) and v)
        payload[key] = "8NT"
        await storage.close()
        with closing(sqlite3.connect(path)) as con, con:
            edit_events(
                con,
                "UPDATE events SET payload = ? WHERE table_id = ? AND deal_no = ? AND seq = ?",
                (json.dumps(payload), table, first, broken.seq),
            )
        storage = await SqliteStorage.open(str(path))
        reviewer = Reviewer(storage, 1)
        reviewer.start()
        await asyncio.wait_for(reviewer.idle.wait(), 300)
        assert await storage.unreviewed() == []
        refused = await storage.review_of(table, first)
        assert refused is not None and "refused" in refused
        later = [d.deal_no for d in await storage.deals(match_id) if d.result and d.deal_no > first]
        assert later
        for number in later:
            assert await storage.review_of(table, number)
        found, _ = await StatsService(storage).costly(table, first)
        popup = costly_popup(found, {}, ("NS", "EW"), str, Translator("en"))
        assert popup == Translator("en")("costly.refused")
    finally:
        await reviewer.close()
        await service.close()
        await storage.close()


async def test_the_costly_card_never_promises_a_review_that_will_not_come(h: Harness) -> None:
    """With reviews off (REVIEW_WORKERS=0: the harness's default), the popup says so instead
    of "still being reviewed" for ever."""
    await seat_four(h)
    result = await play_to_the_result(h, random.Random(3))
    costly = next(b["callback_data"] for b in result.buttons() if ":cc" in b["callback_data"])
    popup = await h.press(PLAYERS[1], result, costly)
    assert popup.get("text") == Translator("en")("costly.off"), popup
