"""What a player or a group need not wait for.

A player who has had their turn for a while without pressing is notified: their screen comes
anew as a new message (Telegram notifies new messages, edits are silent) and the old one is
deleted, so the chat still holds one screen; a player who presses in time costs nothing. A
deal's result never waits behind the double-dummy solver."""

from __future__ import annotations

import asyncio
import os
import random
import time

from bot.games.bridge.dd import SOLVER, new_solver
from bot.games.nicety import Nicety
from bot.outbox import Outbox
from bot.rendered import Rendered
from games.bridge.analysis import analyse
from games.bridge.cards import Deal, Seat
from tests.bot.driver import Driver
from tests.bot.harness import PLAYERS, Harness, seat_four
from tests.fakeapi import FakeBotApi

NOTICE = 0.4  # seconds


async def test_an_idle_player_gets_their_screen_anew_and_the_old_one_goes(
    api: FakeBotApi, tmp_path: object
) -> None:
    h = Harness(api, f"{tmp_path}/bot.sqlite3", turn_notice=NOTICE)
    await h.start()
    try:
        await seat_four(h)
        await h.settle()
        driver = Driver(h, PLAYERS, random.Random(4))
        found = driver.actor()
        assert found is not None
        user, screen = found
        before = screen.message_id
        await asyncio.sleep(NOTICE * 3)
        await h.settle()
        found = driver.actor()
        assert found is not None
        again_user, renewed = found
        assert again_user is user and renewed.message_id > before  # a new message
        assert (user.id, before) in h.api.deleted  # the old one is gone
        assert renewed.text == screen.text and renewed.buttons() == screen.buttons()
        shown = [m.message_id for m in h.api.chat_messages(user.id)]
        assert before not in shown and renewed.message_id in shown
        # the renewed screen's buttons work
        answer = await h.press(user, renewed, driver.choose(user, renewed))
        assert not answer.get("text")
        await h.settle()
        # one notice per idle turn: the next player, idle long, gets one, not a stream
        deleted = len(h.api.deleted)
        await asyncio.sleep(NOTICE * 5)
        await h.settle()
        assert len(h.api.deleted) - deleted == 1
        # A player who presses in time is not renewed. "In time" is measured, not assumed: a
        # turn begins no earlier than the press before it was sent and ends once its own press
        # is answered; only a turn that lasted NOTICE by that measure may have been renewed, so
        # a slow machine cannot fail the test and a fast one still sees every stray notice.
        deleted = len(h.api.deleted)
        begun = time.monotonic()  # the press that started the current turn was sent by now
        slow = 0
        for _ in range(6):
            found = driver.actor()
            assert found is not None
            who, message = found
            sent = time.monotonic()
            assert not (await h.press(who, message, driver.choose(who, message))).get("text")
            slow += time.monotonic() - begun >= NOTICE
            begun = sent
            await asyncio.sleep(NOTICE / 4)
        await h.settle()
        slow += time.monotonic() - begun >= NOTICE  # the turn now open, renewed if it is long
        assert len(h.api.deleted) - deleted <= slow, (slow, h.api.deleted[deleted:])
    finally:
        await h.stop()


async def test_renew_of_a_message_never_sent_just_posts_it(
    api: FakeBotApi, tmp_path: object
) -> None:
    """The outbox's renew on a message it has not shown yet is an ordinary first post."""
    h = Harness(api, f"{tmp_path}/bot.sqlite3")
    await h.start()
    try:
        assert h.app is not None
        outbox: Outbox = h.app.bot_data["outbox"]
        outbox.want(1, "x", PLAYERS[0].id, None, Rendered("a"))
        outbox.renew(1, "x")
        await outbox.drain()
        assert [m.text for m in h.api.chat_messages(PLAYERS[0].id)] == ["a"]
        assert not h.api.deleted
    finally:
        await h.stop()


async def test_results_go_without_analysis_rather_than_late() -> None:
    """Deals ending faster than the double-dummy solver keeps up: the first few wait for it,
    the rest go out without it at once (never queued behind the solver). Jobs that cost the
    worker nothing stand for the solves, so a busy machine cannot starve it past its time."""
    solver = new_solver()
    found = await asyncio.gather(*(solver.run(time.monotonic_ns) for _ in range(8)))
    answered = [a for a in found if a is not None]
    assert len(answered) == solver.MAX_WAITING and solver.waiting == 0


async def test_a_result_waits_for_its_analysis_no_longer_than_its_time() -> None:
    """The solver's worker runs at the lowest priority, so a busy machine may give it no CPU
    for minutes (two benchmarks beside the soaks held results back for over 30 s). A result
    then goes without its analysis once the analysis' time is up, rather than hold back its
    chat: here the worker is held (asleep) for longer than that time. The results' solver has
    a time well inside what a group would wait."""
    assert SOLVER.timeout_s == Nicety.TIMEOUT_S <= 20
    limit = 1.0
    solver = new_solver()
    assert await solver.run(os.getpid) is not None  # the worker started first, in its own time
    solver.timeout_s = limit
    held = asyncio.ensure_future(solver.run(time.sleep, limit + 1))
    await asyncio.sleep(0.2)  # the worker is asleep in the first job
    deal = Deal.shuffled(Seat.N, random.Random(1).randrange)
    started = time.monotonic()
    assert await solver.run(analyse, deal, False, False) is None
    assert time.monotonic() - started < limit + 0.5
    assert await held is None  # it too was given up on


async def test_a_deals_analysis_is_worked_out_in_a_process_of_its_own_at_low_priority() -> None:
    """The solver's worker is another process (the bot's process does the bot's work only),
    running at the lowest priority."""
    solver = new_solver()
    assert await solver.run(os.getpid) != os.getpid()
    assert await solver.run(os.getpriority, os.PRIO_PROCESS, 0) == 19


async def test_a_deals_analysis_is_worked_out_once_for_everyone_who_asks() -> None:
    """#48: the result post, the analysis button and the deal's review ask by the deal; the
    first asker's job serves the others, whether it is still running or done. What came to
    nothing is forgotten, so the next asker tries again."""
    solver = new_solver()
    first, second = await asyncio.gather(
        solver.once("deal", time.monotonic_ns), solver.once("deal", time.monotonic_ns)
    )
    assert first == second is not None
    assert await solver.once("deal", time.monotonic_ns) == first
    assert await solver.kept("deal") == first
    assert await solver.kept("another deal") is None
    assert await solver.once("another deal", time.monotonic_ns) != first
    assert await solver.once("a third deal", int, "fails in the worker") is None
    assert await solver.kept("a third deal") is None
    assert await solver.once("a third deal", time.monotonic_ns) is not None
