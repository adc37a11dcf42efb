"""Robots in empty seats, end to end through the fake Bot API: one person and three robots play
a whole rubber (with a restart while a robot is to move), a second person takes a robot's seat
from the next deal, the rubber goes to the practice account and not to money, and the group
reads what the robots' calls promise."""

from __future__ import annotations

import asyncio
import html
import random
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import unquote

import endplay.parsers.lin as lin
import endplay.parsers.pbn as pbn
import pytest

from bot.callback_data import Button
from bot.games.bridge.buttons import DD
from bot.i18n import Translator
from games.bridge.analysis import analyse
from games.bridge.calls import Strain
from games.bridge.cards import Deal, Seat
from games.bridge.records import VIEWER
from games.core.registry import find_game
from storage.events import replay
from tests.bot.harness import GROUP, Harness, action_of, cards_in, deal_number, sit
from tests.fakeapi import FakeBotApi, Sent, User
from tests.sizes import SOAK

RU = Translator("ru")
ANNA = User(201, "Anna", "ru", "anna")
BORIS = User(202, "Boris", "ru", "boris")


@pytest.fixture
async def h(api: FakeBotApi, tmp_path: Path) -> AsyncIterator[Harness]:
    """Seeded deals: what the robots' calls promise depends on their cards (a deal in which
    every robot passed with nothing to say would leave the notes nothing to show)."""
    harness = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=5)
    await harness.start()
    yield harness
    if harness.app is not None:
        await harness.stop()


def _robot_button(h: Harness, seat: Seat) -> tuple[Sent, str]:
    for sent in reversed(h.api.chat_messages(GROUP)):
        for b in sent.buttons():
            if b.get("callback_data", "").endswith(f":rb:{seat.name}"):
                return sent, b["callback_data"]
    raise AssertionError(f"no robot button for {seat}")


def _position(h: Harness) -> tuple[int, int]:
    """The table and the deal under way, from a button the bot showed (Anna's screen, or the
    table's while she waits for the robots and her screen offers none)."""
    for sent in [*reversed(h.api.chat_messages(ANNA.id)), h.table_message()]:
        for b in sent.buttons():
            data = b.get("callback_data", "")
            if data.startswith("b1:"):
                pressed = Button.decode(data)
                return pressed.table_id, pressed.deal_no
    raise AssertionError("no button in Anna's chat or on the table")


def _played_deals(h: Harness) -> int:
    """Deals played to their end: each result links to BBO's viewer (a passed deal does not)."""
    return sum("BBO" in m.text for m in h.api.chat_messages(GROUP))


def _rubber_over(h: Harness) -> bool:
    return any("Роббер окончен" in m.text for m in h.api.chat_messages(GROUP))


async def robot_table(h: Harness, person: User, seat: Seat) -> None:
    """``person`` opens a bridge table, sits at ``seat`` and fills the others with robots."""
    await h.say(person, person.id, "/start")
    await h.say(person, GROUP, "/bridge")
    await sit(h, person, seat)
    for other in (seat.after(1), seat.after(2), seat.after(3)):
        sent, data = _robot_button(h, other)
        answer = await h.press(person, sent, data)
        assert not answer.get("text"), answer


async def _press_own(h: Harness, user: User, rng: random.Random, log: list[str]) -> bool:
    """Press one of the buttons the person is offered (mostly passes in the auction)."""
    message = h.action_message(user)
    if message is None:
        return False
    data = [b["callback_data"] for b in message.buttons() if "callback_data" in b]
    actions = [(action_of(d), d) for d in data if action_of(d)[0] in ("call", "card")]
    if not actions:
        return False
    calls = [(a, d) for a, d in actions if a[0] == "call"]
    if calls:
        passes = [d for a, d in calls if a[1] == "P"]
        bids = [d for a, d in calls if a[1] not in ("P", "X", "XX")][:6]
        choice = passes[0] if passes and (rng.random() < 0.6 or not bids) else rng.choice(bids)
    else:
        choice = rng.choice([d for _, d in actions])
    answer = await h.press(user, message, choice)
    if answer.get("text"):  # a robot moved in the meantime: the screen was stale
        assert answer["text"] in (RU("refusal.moved_on"), RU("refusal.stale")), answer
        return False
    log.append(choice)
    return True


async def _play(
    h: Harness, people: list[User], done: object, rng: random.Random, seconds: float = 240
) -> list[str]:
    pressed: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(done) and done():
            return pressed
        moved = False
        for user in people:
            moved = await _press_own(h, user, rng, pressed) or moved
        if not moved:
            await asyncio.sleep(0.02)  # the robots think
    raise AssertionError("the rubber did not finish in time")


@pytest.mark.soak
async def test_three_robots_and_a_person_play_a_rubber(h: Harness) -> None:
    """SOAK=1 plays the whole rubber; by default one deal, then /end (tests.sizes)."""
    rng = random.Random(3)
    await h.say(BORIS, BORIS.id, "/start")
    await robot_table(h, ANNA, Seat.S)
    await h.settle()
    table = h.table_message()
    assert "🤖 Робот 1" in table.text and "🤖 Робот 3" in table.text

    # A few actions in, the process dies and comes back: a robot on turn moves again.
    await _play(h, [ANNA], lambda: len(h.api.calls) > 60, rng)
    # The double-dummy table of the deal under way is nobody's to see: a forged button for it
    # is refused and shows no card.
    table_id, deal_no = _position(h)
    forged = Button(table_id, deal_no, DD, "o").encode()
    answer = await h.press(ANNA, h.table_message(), forged)
    assert answer.get("show_alert") and not cards_in(answer.get("text", "")), answer
    assert answer["text"] == RU("refusal.bad_button"), answer  # no button of ours shows it
    await h.crash()
    await h.start()
    if SOAK:  # the whole rubber
        pressed = await _play(h, [ANNA], lambda: _rubber_over(h), rng)
    else:  # a deal Anna pressed in played to its end, then an admin stops the rubber
        pressed = []
        while not pressed:  # (a deal she was dummy in may end without her pressing)
            before = _played_deals(h)
            pressed = await _play(h, [ANNA], lambda b=before: _played_deals(h) > b, rng)
        h.api.admins.add(ANNA.id)
        await h.say(ANNA, GROUP, "/end")
        await h.settle()
    assert pressed, "the person pressed nothing"

    group = "\n".join(text for m in h.api.chat_messages(GROUP) for _, text in m.history)
    # What the robots' calls promised is shown with the auction.
    assert re.search(r"🤖 \S+ · \S+: .*(очк\.|ровная|форсинг|Стейман|вход|контра|блок)", group), (
        group
    )
    assert not re.search(r"🤖 \S+ · Пас: \d+–\d+ очк\.$", group, re.M)  # no note that says nothing
    # A robot defended a deal played: the robots' signalling agreement is on the table.
    assert RU("robot.signals") in group
    # ...in one short line at the table's foot (the fair-deal line only under it).
    assert len(RU("robot.signals")) <= 200
    for m in h.api.chat_messages(GROUP):
        for _, text in m.history:
            if RU("robot.signals") in text:
                after = text.split(RU("robot.signals"))[1].strip().splitlines()
                assert all(line.startswith("🔐") for line in after), text
    # The rubber is practice: written, shown, and out of money.
    assert "Тренировочный счёт" in group and "amount." not in group  # counts, not keys
    await h.say(ANNA, GROUP, "/ledger")
    ledger = h.api.chat_messages(GROUP)[-1].text
    assert "Тренировка с роботами" in ledger and "Anna" in ledger
    assert "Робот" not in ledger.split("Тренировка с роботами")[1]
    await h.say(ANNA, GROUP, "/settle")
    assert "Anna" not in h.api.chat_messages(GROUP)[-1].text  # nothing to pay for practice

    assert h.app is not None
    storage = h.app.bot_data["storage"]
    rows = await storage.ledger((await storage.chat_by_tg(GROUP)).id)
    assert {r.unit for r in rows} == {"practice"} and sum(r.points for r in rows) == 0

    # Each deal's result: a link that replays it on BBO, and the double-dummy table on a button.
    results = [m for m in h.api.chat_messages(GROUP) if RU("result.bbo") in m.text]
    assert results
    logs = {}
    for deal_no in range(1, 40):
        events = await storage.events(table_id, deal_no)
        if events:
            logs[deal_no] = replay(find_game("bridge"), 4, events).deal  # type: ignore[attr-defined]
    for result in results:
        [button] = [b["callback_data"] for b in result.buttons() if ":dd:" in b["callback_data"]]
        pressed = Button.decode(button)
        final = logs[pressed.deal_no]
        href = re.search(r'href="([^"]+)"', result.text)
        assert href is not None
        [board] = lin.loads(unquote(html.unescape(href.group(1)).removeprefix(VIEWER)))
        assert Deal.from_pbn(board.deal.to_pbn()).hands == final.deal.hands
        assert len(board.auction) == len(final.auction.calls)
        popup = await h.press(BORIS, result, button)  # anyone in the group may look
        vul = {"o": (False, False), "n": (True, False), "e": (False, True), "b": (True, True)}
        analysis = analyse(final.deal, *vul[pressed.arg])
        assert popup.get("show_alert"), popup
        for seat, row in zip(Seat, popup["text"].splitlines()[1:], strict=True):
            assert [int(n) for n in re.findall(r"\d+", row)] == [
                analysis.makes(s, seat)
                for s in (
                    Strain.NOTRUMP,
                    Strain.SPADES,
                    Strain.HEARTS,
                    Strain.DIAMONDS,
                    Strain.CLUBS,
                )
            ]

    # /pbn: the rubber's deals as a PBN file that reads back to the deals played.
    await h.say(ANNA, GROUP, "/pbn")
    document = h.api.chat_messages(GROUP)[-1]
    assert document.kind == "document" and document.upload is not None
    boards = pbn.loads(document.upload.data.decode())
    played = [logs[Button.decode(r.buttons()[0]["callback_data"]).deal_no] for r in results]
    hands = [Deal.from_pbn(b.deal.to_pbn()).hands for b in boards]
    # By default /end stopped the rubber during its next deal: that deal is in the file too.
    assert len(hands) == len(played) + (0 if SOAK else 1)
    assert hands[: len(played)] == [d.deal.hands for d in played]
    assert all(b.info.south == "Anna" for b in boards)


async def test_a_person_takes_a_robots_seat_from_the_next_deal(h: Harness) -> None:
    rng = random.Random(5)
    for user in (ANNA, BORIS):
        await h.say(user, user.id, "/start")
    await h.say(ANNA, GROUP, "/bridge")
    await sit(h, ANNA, Seat.N)
    for seat in (Seat.E, Seat.S, Seat.W):
        sent, data = _robot_button(h, seat)
        await h.press(ANNA, sent, data)
    await h.settle()
    # The seating message now offers the robots' seats to people.
    replace = [
        (sent, b["callback_data"])
        for sent in h.api.chat_messages(GROUP)
        for b in sent.buttons()
        if b.get("callback_data", "").endswith(":sit:S") and "🤖" in b.get("text", "")
    ]
    assert replace, "no button to take a robot's seat"
    sent, data = replace[-1]
    first_deal = deal_number(h.table_message().text)
    answer = await h.press(BORIS, sent, data)
    assert not answer.get("text"), answer
    await h.settle()
    group = [m.text for m in h.api.chat_messages(GROUP)]
    assert any("Boris" in text and "следующей сдачи" in text for text in group), group[-3:]
    # One robot's seat per person.
    other = next(
        b["callback_data"]
        for b in sent.buttons()
        if b.get("callback_data", "").endswith(":sit:E") and "🤖" in b.get("text", "")
    )
    refused = await h.press(BORIS, sent, other)
    assert refused.get("text") == RU("refusal.takeover_pending"), refused
    # Boris has no hand in the deal under way: it is the robot's to finish.
    assert h.action_message(BORIS) is None
    assert not any(
        deal_number(m.text) == first_deal and cards_in(m.text)
        for m in h.api.chat_messages(BORIS.id)
    )

    def boris_dealt() -> bool:
        return any("<pre>" in m.text and cards_in(m.text) for m in h.api.chat_messages(BORIS.id))

    await _play(h, [ANNA, BORIS], boris_dealt, rng)
    hand = next(m for m in h.api.chat_messages(BORIS.id) if "<pre>" in m.text)
    assert len(cards_in(re.search(r"<pre>(.*?)</pre>", hand.history[0][1], re.S).group(1))) == 13
    assert deal_number(hand.history[0][1]) != first_deal


def _worker_threads() -> list[tuple[int, frozenset[int]]]:
    """In a worker: each thread's niceness and the CPUs it may run on."""
    import os

    found = []
    for task in os.listdir(f"/proc/{os.getpid()}/task"):
        found.append(
            (os.getpriority(os.PRIO_PROCESS, int(task)), frozenset(os.sched_getaffinity(int(task))))
        )
    return found


def _think_then_look(cpus: tuple[int, ...]) -> list[tuple[int, frozenset[int]]]:
    """A robot's lead thought through ``bot.thinking.think``, then the worker's threads."""
    from bot.thinking import think as _think
    from games.bridge.deal import DealState, Phase
    from games.bridge.robot import move

    state = DealState.new(Deal.shuffled(Seat.N, random.Random(5).randrange))
    while state.phase is Phase.AUCTION:
        assert state.actor is not None
        state = state.apply(_think(cpus, move, state.view(state.actor), 1, 0.2, 1))
    if state.phase is Phase.PLAY:
        assert state.actor is not None
        _think(cpus, move, state.view(state.actor), 1, 0.2, 1)
    return _worker_threads()


def test_robots_think_at_the_lowest_priority_off_the_peoples_cpu() -> None:
    """Robots keep off the first CPU (the people's), and every thread of theirs, the solver's
    own included, runs at niceness 19: with robots on every core, even at a low priority, the
    people's answers were slower (bench.load p99 9.5 -> 14-21 ms)."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    from bot.thinking import ROBOT_NICENESS, robot_cpus

    everything = sorted(os.sched_getaffinity(0))
    cpus = tuple(robot_cpus())
    assert list(cpus) == (everything[1:] or everything)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        threads = pool.submit(_think_then_look, cpus).result()
    assert len(threads) >= 1
    for niceness, allowed in threads:
        assert niceness == ROBOT_NICENESS
        assert allowed == frozenset(cpus)


@pytest.mark.soak
async def test_robots_play_a_chicago_and_its_analysis_knows_the_vulnerability(h: Harness) -> None:
    """A Chicago with three robots: the table counts its deals of four, and each result's
    double-dummy button is for the vulnerability the Chicago gave that deal. SOAK=1 plays all
    four; by default two deals, then /end."""
    rng = random.Random(5)
    h.api.admins.add(ANNA.id)
    await h.say(ANNA, ANNA.id, "/start")
    await h.say(ANNA, GROUP, "/bridge")
    await h.say(ANNA, GROUP, "/settings формат чикаго")
    await sit(h, ANNA, Seat.S)
    for other in (Seat.W, Seat.N, Seat.E):
        sent, data = _robot_button(h, other)
        assert not (await h.press(ANNA, sent, data)).get("text")
    if SOAK:
        await _play(
            h,
            [ANNA],
            lambda: any("Чикаго окончено" in m.text for m in h.api.chat_messages(GROUP)),
            rng,
        )
    else:
        await _play(h, [ANNA], lambda: _played_deals(h) >= 2, rng)
        await h.say(ANNA, GROUP, "/end")
    await h.settle()
    heads = [t for m in h.api.chat_messages(GROUP) for _, t in m.history if "🃏" in t]
    assert any("сдача 1 из 4 (чикаго)" in t for t in heads)
    assert any("сдача 2 из 4 (чикаго)" in t for t in heads)
    assert h.app is not None
    storage = h.app.bot_data["storage"]
    results = [m for m in h.api.chat_messages(GROUP) if RU("result.bbo") in m.text]
    assert len(results) >= 2
    counted = 0
    codes = {(False, False): "o", (True, False): "n", (False, True): "e", (True, True): "b"}
    by_deal = {Button.decode(b["callback_data"]).deal_no: b["callback_data"].rsplit(":", 1)[1]
               for m in results for b in m.buttons() if ":dd:" in b["callback_data"]}  # fmt: skip
    for deal_no in range(1, max(by_deal) + 1):
        state = replay(find_game("bridge"), 4, await storage.events(1, deal_no))
        deal = state.deal  # type: ignore[attr-defined]
        # The rule, stated anew: deal 1 nobody, 2 and 3 the dealer's side, 4 both.
        dealer_side = (deal.deal.dealer in (Seat.N, Seat.S), deal.deal.dealer in (Seat.E, Seat.W))
        vul = [(False, False), dealer_side, dealer_side, (True, True)][counted]
        if deal_no in by_deal:
            assert by_deal[deal_no] == codes[vul], (deal_no, counted)
        if deal.result is not None and deal.result.contract is not None:
            counted += 1
