"""The Preferans double-dummy solver against plain minimax, written here from the rules alone
(follow suit, else trump, else anything; highest trump, else highest of the suit led), on
random small endings of games, misères and raspasy, from a trick's start and from inside one;
and on longer deals (whole ones in the soak) against a second formulation: a yes/no search of
"can the player be sure of k tricks" (or "be held to k"), with nothing of the solver's
shortcuts (no merged cards, no relative ranks, no sure tricks, no bounds kept)."""

from __future__ import annotations

import random
import time
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.preferans.cards import PACK, Card, Suit
from games.preferans.solver import Position, card_reaches, card_values, solve, solve_seats
from tests.sizes import examples, size

Hands = tuple[frozenset[Card], frozenset[Card], frozenset[Card]]


def minimax(
    hands: Hands, leader: int, trick: tuple[Card, ...], trump: Suit | None, side: int, most: bool
) -> int:
    @cache
    def value(hands: Hands, leader: int, trick: tuple[Card, ...]) -> int:
        if len(trick) == 3:
            led = trick[0].suit
            trumps = [c for c in trick if trump is not None and c.suit is trump]
            top = max(trumps or [c for c in trick if c.suit is led], key=lambda c: c.rank)
            won = (leader + trick.index(top)) % 3
            return (won == side) + value(hands, won, ())
        turn = (leader + len(trick)) % 3
        held = hands[turn]
        if not held:
            return 0
        allowed = held
        if trick:
            follow = frozenset(c for c in held if c.suit is trick[0].suit)
            ruff = frozenset(c for c in held if trump is not None and c.suit is trump)
            allowed = follow or ruff or held
        results = []
        for card in allowed:
            after = list(hands)
            after[turn] = held - {card}
            results.append(value((after[0], after[1], after[2]), leader, (*trick, card)))
        return max(results) if (turn == side) == most else min(results)

    return value(hands, leader, trick)


@st.composite
def endings(draw: st.DrawFn) -> tuple[Position, int, bool]:
    size = draw(st.integers(1, 4))
    cards = draw(st.permutations(PACK))
    hands = tuple(frozenset(cards[k * size : (k + 1) * size]) for k in range(3))
    trump = draw(st.none() | st.sampled_from(list(Suit)))
    leader = draw(st.integers(0, 2))
    # sometimes from inside a trick: the first one or two players have played a legal card
    played = draw(st.integers(0, 2)) if size > 1 else 0
    trick: list[Card] = []
    now = list(hands)
    for k in range(played):
        seat = (leader + k) % 3
        held = sorted(now[seat])
        if trick:
            follow = [c for c in held if c.suit is trick[0].suit]
            ruff = [c for c in held if trump is not None and c.suit is trump]
            held = follow or ruff or held
        card = draw(st.sampled_from(held))
        trick.append(card)
        now[seat] = now[seat] - {card}
    position = Position((now[0], now[1], now[2]), leader, tuple(trick), trump)
    return position, draw(st.integers(0, 2)), draw(st.booleans())


@settings(max_examples=examples(600, least=80), deadline=None)
@given(endings())
def test_the_solver_equals_plain_minimax_on_small_endings(case: tuple[Position, int, bool]) -> None:
    position, side, most = case
    expected = minimax(position.hands, position.leader, position.trick, position.trump, side, most)
    assert solve(position, side, most) == expected


@settings(max_examples=examples(300, least=40), deadline=None)
@given(endings())
def test_each_cards_value_is_the_value_after_it(case: tuple[Position, int, bool]) -> None:
    """``card_values`` gives each legal card the value minimax gives the position after it,
    and the player on turn's best of them is the position's value."""
    position, side, most = case
    hands, trick = position.hands, position.trick
    turn = (position.leader + len(trick)) % 3
    values = card_values(position, side, most)
    assert values
    for card, value in values.items():
        after = list(hands)
        after[turn] = after[turn] - {card}
        played = (*trick, card)
        expected = minimax(
            (after[0], after[1], after[2]), position.leader, played, position.trump, side, most
        )
        assert value == expected, (card, value, expected)
    for target in range(0, 4):  # the same asked as yes or no
        reaches = card_reaches(position, side, target, most)
        assert reaches == {card: value >= target for card, value in values.items()}
    wants_most = (turn == side) == most
    best = max(values.values()) if wants_most else min(values.values())
    assert best == solve(position, side, most)


@pytest.mark.soak
def test_whole_deals_in_view_and_what_the_three_kinds_agree_on() -> None:
    """Whole ten-card deals solve (in a few seconds at most, in Python), within 0 to 10 either
    way, and seats are read by number as by position. (A side's 'fewest' may exceed its
    'most': two players giving tricks away can force more on a third than he can win against
    them.)"""
    rng = random.Random(7)
    started = time.monotonic()
    for _ in range(size(3, 1)):
        cards = list(PACK)
        rng.shuffle(cards)
        hands = {0: cards[:10], 1: cards[10:20], 3: cards[20:30]}  # seat 2 deals and sits out
        trump = rng.choice([None, *Suit])
        most = solve_seats(hands, (0, 1, 3), 1, 0, trump, maximize=True)
        fewest = solve_seats(hands, (0, 1, 3), 1, 0, trump, maximize=False)
        assert 0 <= most <= 10 and 0 <= fewest <= 10
        by_position = Position(
            (frozenset(cards[:10]), frozenset(cards[10:20]), frozenset(cards[20:30])), 1, (), trump
        )
        assert solve(by_position, 0, True) == most
    assert time.monotonic() - started < 120


def reaches(hands: Hands, trump: Suit | None, most: bool, target: int) -> bool:
    """Whether player 0 (leading) is sure of at least ``target`` tricks (``most``), or can
    hold himself to at most ``target`` (not ``most``), the other two against him."""
    memo: dict[tuple[Hands, int, int], bool] = {}

    def trick_won(trick: tuple[Card, ...], leader: int) -> int:
        led = trick[0].suit
        trumps = [c for c in trick if trump is not None and c.suit is trump]
        top = max(trumps or [c for c in trick if c.suit is led], key=lambda c: c.rank)
        return (leader + trick.index(top)) % 3

    def reached(hands: Hands, leader: int, need: int) -> bool:
        if most and need <= 0:
            return True
        if not most and need < 0:
            return False
        if not hands[0]:
            return not most
        key = (hands, leader, need)
        if key not in memo:
            memo[key] = in_trick(hands, leader, (), need)
        return memo[key]

    def in_trick(hands: Hands, leader: int, trick: tuple[Card, ...], need: int) -> bool:
        if len(trick) == 3:
            won = trick_won(trick, leader)
            return reached(hands, won, need - (won == 0))
        turn = (leader + len(trick)) % 3
        held = hands[turn]
        allowed = held
        if trick:
            follow = frozenset(c for c in held if c.suit is trick[0].suit)
            ruff = frozenset(c for c in held if trump is not None and c.suit is trump)
            allowed = follow or ruff or held
        outcomes = (
            in_trick(
                (*hands[:turn], held - {card}, *hands[turn + 1 :]),  # type: ignore[arg-type]
                leader,
                (*trick, card),
                need,
            )
            for card in sorted(allowed)
        )
        return any(outcomes) if turn == 0 else all(outcomes)

    return reached(hands, 0, target)


@pytest.mark.soak
def test_longer_deals_agree_with_a_second_formulation() -> None:
    rng = random.Random(3)
    cases = [(10, True), (10, True)] if size(1, 0) else [(7, True), (7, False), (8, True)]
    for cards_each, most in cases:
        cards = list(PACK)
        rng.shuffle(cards)
        hands = (
            frozenset(cards[:cards_each]),
            frozenset(cards[cards_each : 2 * cards_each]),
            frozenset(cards[2 * cards_each : 3 * cards_each]),
        )
        trump = rng.choice([None, *Suit]) if most else None
        value = solve(Position(hands, 0, (), trump), 0, most)
        if most:
            assert reaches(hands, trump, True, value)
            assert not reaches(hands, trump, True, value + 1)
        else:
            assert reaches(hands, trump, False, value)
            assert value == 0 or not reaches(hands, trump, False, value - 1)
