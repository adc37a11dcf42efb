"""A person partnering a robot, through the table service and a real SQLite file: the robot
reads the person's conventional calls by the system it plays (SAYC) — a Jacoby transfer, Stayman,
Gerber, Blackwood, a negative double — and answers them as the card says. The deals are chosen
(the shuffle is given the answers that deal them), the calls pressed through the service, and
the robot's call is the robots' own move for its seat's view."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.tables import TableService
from games.bridge.cards import FULL_DECK, Card, Seat, Suit
from games.bridge.robot import move
from storage.sqlite import SqliteStorage
from tests.bot.driver import Driver
from tests.bot.harness import (
    GROUP,
    PLAYERS,
    Harness,
    action_of,
    cards_in,
    data_of,
    seat_four,
    sit,
)
from tests.fakeapi import Sent, User
from tests.games.test_robot import hand


def rigged(dealer: Seat, north: str, east: str, south: str) -> Callable[[int], int]:
    """A ``randbelow`` that draws ``dealer`` first and then shuffles the pack so that North,
    East and South hold these hands (``S.H.D.C``), West the rest."""
    hands = {Seat.N: hand(north), Seat.E: hand(east), Seat.S: hand(south)}
    taken = set().union(*hands.values())
    hands[Seat.W] = frozenset(c for c in FULL_DECK if c not in taken)
    assert len(hands[Seat.W]) == 13
    sorted_hands = {seat: sorted(cards) for seat, cards in hands.items()}
    order: list[Card] = []
    seat = dealer.next
    for k in range(52):  # dealt one at a time from dealer's left, as at the table
        order.append(sorted_hands[seat][k // 4])
        seat = seat.next
    answers = [int(dealer)]
    deck = list(FULL_DECK)
    for i in range(51, 0, -1):  # Fisher–Yates from the last card down, read backwards
        j = deck.index(order[i], 0, i + 1)
        answers.append(j)
        deck[i], deck[j] = deck[j], deck[i]
    stream: Iterator[int] = iter(answers)
    return lambda n: next(stream)


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    store = await SqliteStorage.open(str(tmp_path / "partner.sqlite3"))
    yield store
    await store.close()


async def robot_answers(
    storage: SqliteStorage, north: str, calls: list[str], east: str | None = None
) -> str:
    """North (the robot) deals; the calls are pressed in turn from North (``R`` where the robot
    calls: its own move for its seat's view); returns the robot's call after them. The others'
    cards are the rest of the pack (what they press is the test's)."""
    taken = set(hand(north))
    east = east or pick_rest(taken, prefer_high=False)
    south = pick_rest(taken | set(hand(east)), prefer_high=False)
    service = TableService(storage, rigged(Seat.N, north, east, south))
    change, _ = await service.open_table(-5, "Club", None, "ru", "bridge")
    table = change.snapshot.table_id
    players = {}
    for i, seat in enumerate(Seat):
        players[seat] = await service.player(900 + i, f"P{i}", "ru")
        change = await service.sit(table, players[seat], seat)
    made: list[str] = []
    for wanted in [*calls, "R"]:
        snap = await service.snapshot(table)
        state = snap.state
        assert state is not None and state.turn is not None
        seat = Seat(state.turn)
        if wanted == "R":
            assert seat is Seat.N
            action = move(state.view(int(seat)), seed=1, budget_s=0.05)
            text = str(action.call)  # type: ignore[attr-defined]
        else:
            text = wanted
        made.append(text)
        await service.act(table, snap.deal_no, players[seat].id, f"call.{text}", snap.actions)
    return made[-1]


@pytest.mark.parametrize(("transfer", "completed"), [("2D", "2H"), ("2H", "2S")])
async def test_a_persons_transfer_is_completed(
    storage: SqliteStorage, transfer: str, completed: str
) -> None:
    north = "AK2.K32.KQ32.J32"  # 16, balanced: opens 1NT; the person's 2♦/2♥ is a transfer
    assert await robot_answers(storage, north, ["R", "P", transfer, "P"]) == completed


async def test_a_persons_transfer_is_super_accepted_with_four_trumps_and_17(
    storage: SqliteStorage,
) -> None:
    north = "AK2.KQ32.K32.Q32"  # 17, four hearts
    assert await robot_answers(storage, north, ["R", "P", "2D", "P"]) == "3H"


@pytest.mark.parametrize(
    ("north", "answer"),
    [
        ("AK2.KQ32.K32.J32", "2H"),  # four hearts
        ("AK32.K32.KQ2.J32", "2S"),  # four spades, not four hearts
        ("AK2.K32.KQ32.J32", "2D"),  # no four-card major
    ],
)
async def test_a_persons_stayman_is_answered(
    storage: SqliteStorage, north: str, answer: str
) -> None:
    assert await robot_answers(storage, north, ["R", "P", "2C", "P"]) == answer


@pytest.mark.parametrize(
    ("north", "answer"),
    [
        ("KQ2.KQ2.QJ32.KJ2", "4D"),  # no ace (17)
        ("AQ2.K32.QJ32.KJ2", "4H"),  # one
        ("A32.A32.KQ32.QJ2", "4S"),  # two
        ("A32.A32.A432.KJ2", "4NT"),  # three
    ],
)
async def test_a_persons_gerber_is_answered_with_aces(
    storage: SqliteStorage, north: str, answer: str
) -> None:
    assert await robot_answers(storage, north, ["R", "P", "4C", "P"]) == answer


@pytest.mark.parametrize(
    ("north", "answer"),
    [
        ("K32.KQJ32.Q32.Q2", "5C"),  # no ace (13: opens 1♥)
        ("A32.KQJ32.Q32.32", "5D"),  # one
        ("A32.AQJ32.Q32.32", "5H"),  # two
    ],
)
async def test_a_persons_blackwood_is_answered_with_aces(
    storage: SqliteStorage, north: str, answer: str
) -> None:
    assert await robot_answers(storage, north, ["R", "P", "4NT", "P"]) == answer


@pytest.mark.parametrize(
    ("north", "answer"),
    [
        ("K32.K432.A32.Q32", "4D"),  # 12 with the ace of diamonds: a control of its own
        ("K32.K432.K32.Q32", "4H"),  # no ace to show below game: back to trumps
    ],
)
async def test_a_persons_control_bid_is_answered(
    storage: SqliteStorage, north: str, answer: str
) -> None:
    """The robot (North) passes, the person opens 1♥, the robot's limit raise, then the
    person's 4♣ is a control bid (slam interest), not clubs."""
    calls = ["R", "P", "1H", "P", "R", "P", "4C", "P"]
    assert await robot_answers(storage, north, calls) == answer


async def test_a_persons_negative_double_is_not_read_for_penalty(storage: SqliteStorage) -> None:
    """1♣ (robot) – 1♠ – X (the person: four hearts, 6+) – pass: the robot, 13 with four hearts,
    bids 2♥, not Blackwood on a penalty double (the bug the issue names)."""
    north = "A2.KJ32.Q32.KJ32"  # 14, 4-4 in hearts and clubs: opens 1♣
    east = "KQJ98.A98.J98.T9"  # overcalls 1♠
    assert await robot_answers(storage, north, ["R", "1S", "X", "P"], east=east) == "2H"


def pick_rest(taken: set[Card], prefer_high: bool, count: int = 13) -> str:
    """A hand of ``count`` cards not in ``taken`` (highest first if ``prefer_high``), as text."""
    free = sorted((c for c in FULL_DECK if c not in taken), key=lambda c: -c.rank)
    if not prefer_high:
        free.reverse()
    chosen, by_suit = [], {suit: 0 for suit in Suit}
    for card in free:  # at most four of a suit: a plain shape
        if by_suit[card.suit] < 4 and len(chosen) < count:
            chosen.append(card)
            by_suit[card.suit] += 1
    letters = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}
    return ".".join(
        "".join(letters.get(c.rank, str(int(c.rank))) for c in chosen if c.suit is suit)
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    )


async def test_the_explain_button_shows_every_call_by_the_system_and_no_card(h: Harness) -> None:
    """The auction's ❓ button (the group's table message, a seated player's screen) answers in
    a popup what each call shows by the robots' system, people's calls too, in the reader's
    language; never a card; a stranger's forged press from elsewhere is refused."""
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(3))
    for _ in range(3):  # three calls in
        found = driver.actor()
        assert found is not None
        user, message = found
        data = driver.choose(user, message)
        assert action_of(data)[0] == "call"
        await driver.step_with(user, message, data)
        await h.settle()
    table = h.table_message()
    explain = data_of(table, ":ex")
    for user, words in ((PLAYERS[0], "Что показывают заявки"), (PLAYERS[1], "What the calls show")):
        popup = await h.press(user, table, explain)
        text = popup.get("text", "")
        assert popup.get("show_alert") and words in text, text
        assert not cards_in(text), text  # what the system says, never a card
        assert len(text.splitlines()) >= 3  # the title and a line a call
    # From a seated player's own screen (before their call), the same.
    user, screen = driver.actor() or (None, None)
    assert user is not None and screen is not None
    own = data_of(screen, ":ex")
    answer = await h.press(user, screen, own)
    assert answer.get("show_alert") and not cards_in(answer.get("text", ""))
    # A stranger pressing it from their own chat sees nothing of the table.
    stranger = User(199, "Eve", "en", "eve")
    answer = await h.press(stranger, Sent(stranger.id, 1, "x", None), explain)
    assert "What the calls show" not in answer.get("text", "")


async def test_the_system_card_and_its_line_on_a_robots_table(h: Harness) -> None:
    await h.say(PLAYERS[0], PLAYERS[0].id, "/start")
    await h.say(PLAYERS[0], GROUP, "/system")
    card = h.api.chat_messages(GROUP)[-1].text
    assert "SAYC" in card and "Стейман" in card and "Якоби" in card and "Гербер" in card
    await h.say(PLAYERS[1], PLAYERS[1].id, "/system")  # in English, for who asked
    assert "Jacoby transfers" in h.api.chat_messages(PLAYERS[1].id)[-1].text
    await h.say(PLAYERS[0], GROUP, "/bridge")
    await sit(h, PLAYERS[0], Seat.S)
    table = h.table_message()
    robot = next(
        b["callback_data"] for b in table.buttons() if b["callback_data"].endswith(":rb:W")
    )
    await h.press(PLAYERS[0], table, robot)
    await h.settle()
    assert "Роботы торгуются по SAYC: /system" in h.table_message().text
