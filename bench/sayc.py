"""How often the robots' bidding agrees with the Standard American Yellow Card (SAYC).

    python -m bench.sayc [--hands 4] [--seed 1] [--show 5]

Each case is a line of the card: the auction so far, what the hand holds (points, suit
lengths, shape) and the call the card makes with it; ``--hands`` hands are dealt for each line
(suit lengths first, then the cards, until the hand is what the line says). The robot to call
is asked for its call (``games.bridge.bidding``), and the agreement is printed by section of
the card, with the first disagreements. Asserts nothing. The target (issue #45): 95 %.

The lines are written from the card, independently of the robots' rule table: where the card
leaves a choice, a line asks only for hands it decides.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from games.bridge.auction import AuctionState
from games.bridge.bidding import choose_call, hcp
from games.bridge.calls import Call
from games.bridge.cards import Card, Rank, Seat, Suit

Range = tuple[int, int]
S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


@dataclass(frozen=True)
class Line:
    """A line of the card: ``auction`` (dealer North, ``P`` a pass), the hand, the call."""

    section: str
    auction: str
    call: str
    hcp: Range = (0, 37)
    lengths: dict[Suit, Range] = field(default_factory=dict)
    balanced: bool | None = None
    test: Callable[[frozenset[Card]], bool] | None = None  # anything else the line needs


def line(
    section: str,
    auction: str,
    call: str,
    points: Range = (0, 37),
    s: Range = (0, 13),
    h: Range = (0, 13),
    d: Range = (0, 13),
    c: Range = (0, 13),
    balanced: bool | None = None,
    test: Callable[[frozenset[Card]], bool] | None = None,
) -> Line:
    return Line(section, auction, call, points, {S: s, H: h, D: d, C: c}, balanced, test)


def shape(cards: frozenset[Card]) -> list[int]:
    return sorted((sum(1 for c in cards if c.suit is suit) for suit in Suit), reverse=True)


def is_balanced(cards: frozenset[Card]) -> bool:
    return shape(cards) in ([4, 3, 3, 3], [4, 4, 3, 2], [5, 3, 3, 2])


def aces(n: int) -> Callable[[frozenset[Card]], bool]:
    return lambda cards: sum(1 for c in cards if c.rank is Rank.ACE) == n


def stops(suit: Suit) -> Callable[[frozenset[Card]], bool]:
    """A stopper: A, Kx, Qxx or Jxxx."""

    def held(cards: frozenset[Card]) -> bool:
        length = sum(1 for c in cards if c.suit is suit)
        return any(c.suit is suit and length >= 15 - c.rank for c in cards if c.rank >= 11)

    return held


def no_stop(suit: Suit) -> Callable[[frozenset[Card]], bool]:
    return lambda cards: not stops(suit)(cards)


def both(*tests: Callable[[frozenset[Card]], bool]) -> Callable[[frozenset[Card]], bool]:
    return lambda cards: all(test(cards) for test in tests)


def singleton_or_void(cards: frozenset[Card]) -> bool:
    return min(shape(cards)) <= 1


def no_short(cards: frozenset[Card]) -> bool:
    return min(shape(cards)) >= 2


def rule_of_20(cards: frozenset[Card]) -> bool:
    return hcp(cards) + sum(shape(cards)[:2]) >= 20


def under_20(cards: frozenset[Card]) -> bool:
    return not rule_of_20(cards)


def control(*suits: Suit) -> Callable[[frozenset[Card]], bool]:
    """First-round control of each suit: its ace, or a void."""
    return lambda cards: all(
        Card(suit, Rank.ACE) in cards or not any(c.suit is suit for c in cards) for suit in suits
    )


def no_control(*suits: Suit) -> Callable[[frozenset[Card]], bool]:
    return lambda cards: not any(control(suit)(cards) for suit in suits)


def side_ace_king(trump: Suit) -> Callable[[frozenset[Card]], bool]:
    return lambda cards: any(c.suit is not trump and c.rank >= Rank.KING for c in cards)


NO_MAJOR4 = {"s": (0, 3), "h": (0, 3)}
BAL = True

LINES: tuple[Line, ...] = (
    # --- openings -------------------------------------------------------------------------
    line("openings", "", "1NT", (15, 17), s=(2, 4), h=(2, 4), balanced=BAL),
    line("openings", "", "1NT", (15, 17), s=(2, 3), h=(2, 3), d=(5, 5), balanced=BAL),
    line("openings", "", "2NT", (20, 21), s=(2, 4), h=(2, 4), balanced=BAL),
    line("openings", "", "2C", (23, 27)),
    line("openings", "", "1S", (13, 19), s=(5, 6), h=(0, 4), balanced=False),
    line("openings", "", "1S", (12, 14), s=(5, 5), h=(5, 5)),
    line("openings", "", "1H", (13, 19), s=(0, 4), h=(5, 6), balanced=False),
    line("openings", "", "1H", (11, 11), s=(0, 3), h=(5, 5), d=(4, 4)),  # the rule of 20
    line("openings", "", "1D", (12, 14), s=(0, 4), h=(0, 4), d=(4, 5), c=(0, 3), test=rule_of_20),
    line("openings", "", "1D", (12, 14), s=(0, 4), h=(0, 4), d=(4, 4), c=(4, 4), test=rule_of_20),
    line("openings", "", "1C", (12, 14), s=(0, 4), h=(0, 4), d=(0, 3), c=(4, 6), test=rule_of_20),
    line("openings", "", "1C", (13, 14), s=(3, 4), h=(3, 4), d=(3, 3), c=(3, 3), test=rule_of_20),
    line("openings", "", "1C", (18, 19), s=(2, 4), h=(2, 4), d=(2, 3), c=(4, 5), balanced=BAL),
    line("openings", "", "2H", (6, 9), s=(0, 3), h=(6, 6), test=under_20),
    line("openings", "", "2S", (6, 9), s=(6, 6), h=(0, 3), test=under_20),
    line("openings", "", "2D", (6, 9), s=(0, 3), h=(0, 3), d=(6, 6), test=under_20),
    line("openings", "", "3C", (5, 9), s=(0, 3), h=(0, 3), d=(0, 3), c=(7, 7), test=under_20),
    line("openings", "", "3H", (5, 9), s=(0, 3), h=(7, 7), test=under_20),
    line("openings", "", "P", (0, 10), s=(0, 5), h=(0, 5), d=(0, 5), c=(0, 5), test=under_20),
    # --- responses to one of a major ------------------------------------------------------
    line("responses to 1M", "1H P", "2H", (6, 9), s=(0, 3), h=(3, 3), test=no_short),
    line("responses to 1M", "1H P", "3H", (10, 11), s=(0, 3), h=(4, 4), test=no_short),
    line("responses to 1M", "1H P", "2NT", (13, 16), h=(4, 5)),
    line("responses to 1M", "1H P", "4H", (3, 8), s=(0, 3), h=(5, 6)),
    line("responses to 1M", "1H P", "1S", (6, 12), s=(4, 5), h=(0, 2)),
    line("responses to 1M", "1H P", "1NT", (6, 9), s=(0, 3), h=(0, 2), d=(0, 5), c=(0, 5)),
    line("responses to 1M", "1H P", "2C", (11, 15), s=(0, 3), h=(0, 2), c=(5, 6)),
    line("responses to 1M", "1H P", "P", (0, 4), h=(0, 3), s=(0, 5)),
    line("responses to 1M", "1S P", "2S", (6, 9), s=(3, 3), h=(0, 4), test=no_short),
    line("responses to 1M", "1S P", "3S", (10, 11), s=(4, 4), test=no_short),
    line("responses to 1M", "1S P", "2NT", (13, 16), s=(4, 5)),
    line("responses to 1M", "1S P", "2H", (10, 15), s=(0, 2), h=(5, 6)),
    line("responses to 1M", "1S P", "2D", (11, 15), s=(0, 2), h=(0, 3), d=(5, 6)),
    line("responses to 1M", "1S P", "1NT", (6, 9), s=(0, 2), h=(0, 4), d=(0, 5), c=(0, 5)),
    # --- responses to one of a minor ------------------------------------------------------
    line("responses to 1m", "1D P", "1H", (6, 15), s=(0, 4), h=(4, 5), test=lambda c: True),
    line("responses to 1m", "1D P", "1H", (6, 12), s=(4, 4), h=(4, 4)),  # up the line
    line("responses to 1m", "1D P", "1S", (6, 15), s=(4, 5), h=(0, 3)),
    line("responses to 1m", "1D P", "1NT", (6, 9), **NO_MAJOR4, d=(0, 3), c=(0, 4)),
    line("responses to 1m", "1D P", "2NT", (13, 15), **NO_MAJOR4, d=(2, 3), balanced=BAL),
    line("responses to 1m", "1D P", "3NT", (16, 18), **NO_MAJOR4, d=(2, 3), balanced=BAL),
    line("responses to 1m", "1D P", "2D", (6, 9), **NO_MAJOR4, d=(5, 6), c=(0, 4)),
    line("responses to 1m", "1D P", "3D", (10, 12), **NO_MAJOR4, d=(5, 6), c=(0, 4)),
    line("responses to 1m", "1C P", "1D", (6, 12), **NO_MAJOR4, d=(4, 6), c=(0, 3)),
    line("responses to 1m", "1C P", "1S", (6, 15), s=(5, 6), h=(0, 4)),
    line("responses to 1m", "1C P", "P", (0, 4), s=(0, 4), h=(0, 4)),
    # --- 1NT and 2NT: Stayman, transfers, the relay, quantitative ---------------------------
    line("notrump responses", "1NT P", "2C", (8, 15), s=(4, 4), h=(0, 3), d=(2, 4), c=(2, 4)),
    line("notrump responses", "1NT P", "2C", (8, 15), s=(0, 3), h=(4, 4), d=(2, 4), c=(2, 4)),
    line("notrump responses", "1NT P", "2C", (8, 15), s=(4, 4), h=(4, 4)),
    line("notrump responses", "1NT P", "2D", (0, 15), s=(0, 4), h=(5, 6)),
    line("notrump responses", "1NT P", "2H", (0, 15), s=(5, 6), h=(0, 4)),
    line("notrump responses", "1NT P", "2NT", (8, 9), **NO_MAJOR4, d=(2, 4), c=(2, 4)),
    line("notrump responses", "1NT P", "3NT", (10, 15), **NO_MAJOR4, balanced=BAL),
    line("notrump responses", "1NT P", "P", (0, 7), s=(0, 4), h=(0, 4), d=(0, 5), c=(0, 5)),
    line("notrump responses", "1NT P", "2S", (0, 7), **NO_MAJOR4, c=(6, 7)),
    line("notrump responses", "1NT P", "2S", (0, 7), **NO_MAJOR4, d=(6, 7)),
    line("notrump responses", "1NT P", "4NT", (16, 17), **NO_MAJOR4, balanced=BAL),
    line("notrump responses", "1NT P", "6NT", (18, 19), **NO_MAJOR4, balanced=BAL),
    line("notrump responses", "2NT P", "3C", (4, 10), s=(4, 4), h=(0, 3)),
    line("notrump responses", "2NT P", "3D", (0, 10), s=(0, 4), h=(5, 6)),
    line("notrump responses", "2NT P", "3H", (0, 10), s=(5, 6), h=(0, 4)),
    line("notrump responses", "2NT P", "3NT", (4, 10), **NO_MAJOR4, balanced=BAL),
    line("notrump responses", "2NT P", "P", (0, 3), **NO_MAJOR4, d=(0, 5), c=(0, 5)),
    # --- opener after Stayman or a transfer, and responder after them ----------------------
    line("notrump continuations", "1NT P 2C P", "2H", (15, 17), h=(4, 4), balanced=BAL),
    line("notrump continuations", "1NT P 2C P", "2S", (15, 17), s=(4, 4), h=(2, 3), balanced=BAL),
    line("notrump continuations", "1NT P 2C P", "2D", (15, 17), **NO_MAJOR4, balanced=BAL),
    line("notrump continuations", "1NT P 2D P", "2H", (15, 16), h=(2, 4), balanced=BAL),
    line("notrump continuations", "1NT P 2D P", "3H", (17, 17), h=(4, 4), balanced=BAL),
    line("notrump continuations", "1NT P 2D P", "2H", (17, 17), h=(2, 3), balanced=BAL),
    line("notrump continuations", "1NT P 2H P", "2S", (15, 16), s=(2, 4), balanced=BAL),
    line("notrump continuations", "1NT P 2H P", "3S", (17, 17), s=(4, 4), balanced=BAL),
    line("notrump continuations", "2NT P 3D P", "3H", (20, 21), h=(2, 4), balanced=BAL),
    line("notrump continuations", "1NT P 2D P 2H P", "P", (0, 7), s=(0, 3), h=(5, 6)),
    line(
        "notrump continuations",
        "1NT P 2D P 2H P",
        "2NT",
        (8, 9),
        s=(2, 3),
        h=(5, 5),
        d=(2, 4),
        c=(2, 4),
    ),
    line(
        "notrump continuations",
        "1NT P 2D P 2H P",
        "3NT",
        (10, 14),
        s=(2, 3),
        h=(5, 5),
        d=(2, 3),
        c=(2, 3),
    ),
    line("notrump continuations", "1NT P 2D P 2H P", "4H", (10, 14), s=(0, 3), h=(6, 7)),
    line("notrump continuations", "1NT P 2D P 2H P", "3H", (8, 9), s=(0, 3), h=(6, 6)),
    line("notrump continuations", "1NT P 2H P 2S P", "4S", (10, 14), s=(6, 7), h=(0, 3)),
    line("notrump continuations", "1NT P 2D P 2H P 3NT P", "4H", (15, 17), h=(3, 4), balanced=BAL),
    line("notrump continuations", "1NT P 2D P 2H P 3NT P", "P", (15, 17), h=(2, 2), balanced=BAL),
    line("notrump continuations", "1NT P 2D P 2H P 2NT P", "4H", (17, 17), h=(3, 4), balanced=BAL),
    line("notrump continuations", "1NT P 2D P 2H P 2NT P", "3NT", (17, 17), h=(2, 2), balanced=BAL),
    line("notrump continuations", "1NT P 2D P 2H P 2NT P", "3H", (15, 15), h=(3, 4), balanced=BAL),
    line("notrump continuations", "1NT P 2D P 2H P 2NT P", "P", (15, 15), h=(2, 2), balanced=BAL),
    line("notrump continuations", "1NT P 2C P 2H P", "4H", (10, 14), h=(4, 4), s=(0, 3)),
    line("notrump continuations", "1NT P 2C P 2H P", "3H", (8, 9), h=(4, 4), s=(0, 3)),
    line(
        "notrump continuations",
        "1NT P 2C P 2H P",
        "3NT",
        (10, 14),
        h=(0, 3),
        s=(4, 4),
        d=(2, 4),
        c=(2, 4),
    ),
    line(
        "notrump continuations",
        "1NT P 2C P 2D P",
        "3NT",
        (10, 14),
        h=(0, 4),
        s=(0, 4),
        d=(2, 4),
        c=(2, 4),
    ),
    line(
        "notrump continuations",
        "1NT P 2C P 2D P",
        "2NT",
        (8, 9),
        h=(0, 4),
        s=(0, 4),
        d=(2, 4),
        c=(2, 4),
    ),
    line("notrump continuations", "1NT P 2S P", "3C", (15, 17), balanced=BAL),
    line("notrump continuations", "1NT P 4NT P", "6NT", (17, 17), balanced=BAL),
    line("notrump continuations", "1NT P 4NT P", "P", (15, 15), balanced=BAL),
    # --- the strong 2♣ and weak twos -------------------------------------------------------
    line("2C and weak twos", "2C P", "2D", (0, 6)),
    line("2C and weak twos", "2C P", "2H", (8, 12), s=(0, 3), h=(5, 6), d=(0, 3), c=(0, 3)),
    line("2C and weak twos", "2C P", "2S", (8, 12), s=(5, 6), h=(0, 3), d=(0, 3), c=(0, 3)),
    line(
        "2C and weak twos",
        "2C P",
        "2NT",
        (8, 10),
        s=(2, 4),
        h=(2, 4),
        d=(2, 4),
        c=(2, 4),
        balanced=BAL,
    ),
    line("2C and weak twos", "2C P 2D P", "2NT", (22, 24), s=(2, 4), h=(2, 4), balanced=BAL),
    line("2C and weak twos", "2C P 2D P", "2S", (23, 27), s=(5, 7), h=(0, 4), balanced=False),
    line("2C and weak twos", "2C P 2D P 2H P", "3C", (0, 3), h=(0, 2)),
    line("2C and weak twos", "2C P 2D P 2H P", "3H", (4, 7), h=(3, 4)),
    line("2C and weak twos", "2H P", "2NT", (16, 20), h=(0, 2), s=(2, 4), d=(2, 4), c=(2, 4)),
    line("2C and weak twos", "2H P", "3H", (0, 12), h=(3, 4)),
    line("2C and weak twos", "2H P", "P", (0, 12), h=(0, 2), s=(0, 5), d=(0, 5), c=(0, 5)),
    line("2C and weak twos", "2S P", "4S", (15, 18), s=(3, 4)),
    line("2C and weak twos", "2H P 2NT P", "3H", (5, 8), h=(6, 6)),
    # --- opener's rebid ---------------------------------------------------------------------
    line(
        "opener's rebid", "1D P 1S P", "1NT", (12, 14), s=(2, 3), h=(2, 3), d=(4, 5), balanced=BAL
    ),
    line(
        "opener's rebid", "1D P 1S P", "2S", (12, 13), s=(4, 4), h=(0, 3), d=(4, 6), test=no_short
    ),
    line(
        "opener's rebid", "1D P 1S P", "3S", (16, 18), s=(4, 4), h=(0, 3), d=(4, 5), test=no_short
    ),
    line("opener's rebid", "1D P 1S P", "2D", (12, 15), s=(0, 2), h=(0, 3), d=(6, 7), c=(0, 3)),
    line("opener's rebid", "1D P 1S P", "3D", (16, 18), s=(0, 2), h=(0, 3), d=(6, 7), c=(0, 3)),
    line(
        "opener's rebid", "1D P 1S P", "2NT", (18, 19), s=(2, 3), h=(2, 3), d=(4, 4), balanced=BAL
    ),
    line("opener's rebid", "1C P 1H P", "1S", (12, 17), s=(4, 4), h=(0, 3), c=(4, 5)),
    line(
        "opener's rebid", "1C P 1H P", "2H", (12, 14), s=(0, 3), h=(4, 4), c=(4, 5), test=no_short
    ),
    line("opener's rebid", "1H P 1S P", "1NT", (12, 14), s=(2, 3), h=(5, 5), balanced=BAL),
    line("opener's rebid", "1H P 1S P", "2H", (12, 15), s=(0, 2), h=(6, 6), d=(0, 3), c=(0, 3)),
    line("opener's rebid", "1H P 1S P", "2S", (12, 13), s=(4, 4), h=(5, 5), test=no_short),
    line("opener's rebid", "1H P 1S P", "2C", (12, 16), s=(0, 2), h=(5, 5), d=(0, 2), c=(4, 5)),
    line("opener's rebid", "1S P 1NT P", "2S", (12, 15), s=(6, 6), h=(0, 3), d=(0, 3), c=(0, 3)),
    line("opener's rebid", "1S P 1NT P", "2D", (12, 16), s=(5, 5), h=(0, 3), d=(4, 5), c=(0, 3)),
    line("opener's rebid", "1S P 1NT P", "P", (12, 14), s=(5, 5), balanced=BAL),
    line("opener's rebid", "1H P 2H P", "P", (12, 14), h=(5, 5), balanced=BAL),
    line("opener's rebid", "1H P 2H P", "4H", (19, 21), h=(5, 6), s=(0, 3)),
    line("opener's rebid", "1S P 2NT P", "4S", (12, 14), s=(5, 5), test=no_short),
    line("opener's rebid", "1S P 2NT P", "3NT", (15, 17), s=(5, 5), test=no_short),
    line("opener's rebid", "1S P 2NT P", "3S", (18, 21), s=(5, 5), test=no_short),
    # --- competition: overcalls, doubles, two-suited calls ---------------------------------
    line("overcalls", "1D", "1S", (8, 16), s=(5, 5), h=(0, 3), d=(0, 3)),
    line("overcalls", "1D", "1S", (11, 16), s=(6, 6), h=(0, 3), d=(0, 3)),
    line("overcalls", "1D", "1H", (8, 16), s=(0, 3), h=(5, 5), d=(0, 3), c=(0, 4)),
    line("overcalls", "1C", "1NT", (15, 18), s=(2, 4), h=(2, 4), balanced=BAL, test=stops(C)),
    line("overcalls", "1D", "X", (12, 16), s=(4, 4), h=(4, 4), d=(0, 1), c=(3, 5)),
    line("overcalls", "1H", "X", (12, 16), s=(4, 4), h=(0, 1), d=(3, 5), c=(3, 5)),
    line("overcalls", "1D", "2S", (6, 10), s=(6, 6), h=(0, 3), d=(0, 3)),
    line("overcalls", "1C", "2H", (6, 10), s=(0, 3), h=(6, 6), d=(0, 4), c=(0, 3)),
    line("overcalls", "1D", "2D", (8, 14), s=(5, 5), h=(5, 5)),
    line("overcalls", "1H", "2H", (8, 14), s=(5, 5), h=(0, 1), c=(5, 5)),
    line("overcalls", "1S", "2NT", (6, 12), s=(0, 1), h=(0, 2), d=(5, 6), c=(5, 6)),
    line("overcalls", "1D", "2NT", (6, 12), s=(0, 2), h=(5, 6), d=(0, 1), c=(5, 6)),
    line("overcalls", "1S", "2C", (11, 16), s=(0, 2), h=(0, 3), d=(0, 4), c=(6, 6)),
    line("overcalls", "1S", "P", (0, 7), s=(0, 5), h=(0, 4), d=(0, 4), c=(0, 4)),
    # --- advances: of a takeout double, of an overcall, of a two-suited call ---------------
    line("advances", "1D X P", "1H", (0, 8), s=(0, 3), h=(4, 5), d=(0, 4)),
    line("advances", "1D X P", "1S", (0, 8), s=(4, 5), h=(0, 3), d=(0, 4)),
    line("advances", "1D X P", "2S", (9, 11), s=(4, 5), h=(0, 3), d=(0, 3)),
    line("advances", "1D X P", "1NT", (7, 8), **NO_MAJOR4, d=(3, 4), c=(0, 4), test=stops(D)),
    line("advances", "1D X P", "2C", (0, 5), s=(0, 3), h=(0, 3), d=(0, 4), c=(5, 6)),
    line("advances", "1D X P", "2D", (13, 16), s=(4, 4), h=(4, 4)),
    line("advances", "1D 1S P", "2S", (7, 9), s=(3, 3), h=(0, 4), test=no_short),
    line("advances", "1D 1S P", "2D", (11, 14), s=(3, 4)),
    line("advances", "1D 1S P", "P", (0, 5), s=(0, 2)),
    line("advances", "1D 2D P", "2H", (0, 9), s=(0, 2), h=(3, 4)),
    line("advances", "1D 2D P", "2S", (0, 9), s=(3, 4), h=(0, 2)),
    line("advances", "1H 2NT P", "3C", (0, 9), d=(0, 2), c=(3, 4)),
    # --- responder in competition: negative doubles; opener after them -------------------
    line("negative doubles", "1C 1S", "X", (7, 11), s=(0, 3), h=(4, 4), d=(0, 4), c=(0, 3)),
    line("negative doubles", "1D 1H", "X", (7, 11), s=(4, 4), h=(0, 3), d=(0, 3), c=(0, 4)),
    line("negative doubles", "1H 2C", "X", (8, 11), s=(4, 4), h=(2, 3), d=(3, 4), c=(0, 3)),
    line("negative doubles", "1C 1S", "2H", (10, 14), s=(0, 3), h=(5, 6), d=(0, 4), c=(0, 3)),
    line(
        "negative doubles",
        "1C 1S",
        "1NT",
        (8, 10),
        s=(3, 4),
        h=(0, 3),
        d=(2, 4),
        c=(2, 3),
        test=stops(S),
    ),
    line("negative doubles", "1D 1H", "1S", (6, 12), s=(5, 6), h=(0, 3), d=(0, 2)),
    line("negative doubles", "1H 1S", "2H", (6, 9), s=(0, 3), h=(3, 3), test=no_short),
    line("negative doubles", "1C 1S X P", "2H", (12, 14), s=(0, 3), h=(4, 4), c=(4, 5)),
    line(
        "negative doubles",
        "1C 1S X P",
        "1NT",
        (12, 14),
        s=(3, 3),
        h=(0, 3),
        balanced=BAL,
        test=stops(S),
    ),
    line("negative doubles", "1D 1H X P", "1S", (12, 16), s=(4, 4), h=(0, 3), d=(4, 5)),
    # --- slam: Blackwood and Gerber ---------------------------------------------------------
    line("slam", "1H P 3H P 4NT P", "5C", (10, 12), h=(4, 4), test=aces(0)),
    line("slam", "1H P 3H P 4NT P", "5D", (10, 12), h=(4, 4), test=aces(1)),
    line("slam", "1H P 3H P 4NT P", "5H", (10, 12), h=(4, 4), test=aces(2)),
    line("slam", "1S P 3S P 4NT P", "5S", (11, 12), s=(4, 4), test=aces(3)),
    line("slam", "1NT P 4C P", "4D", (15, 17), balanced=BAL, test=aces(0)),
    line("slam", "1NT P 4C P", "4H", (15, 17), balanced=BAL, test=aces(1)),
    line("slam", "1NT P 4C P", "4S", (15, 17), balanced=BAL, test=aces(2)),
    line("slam", "1NT P 4C P", "4NT", (15, 17), balanced=BAL, test=aces(3)),
    line("slam", "2NT P 4C P", "4H", (20, 21), balanced=BAL, test=aces(1)),
    # --- after a limit raise of a major: game, and control bids ------------------------------
    line("control bids", "1H P 3H P", "4H", (14, 16), s=(2, 4), h=(5, 5), d=(2, 4), c=(2, 4)),
    line("control bids", "1H P 3H P", "P", (12, 12), h=(5, 5), balanced=BAL),
    *(
        line(
            "control bids",
            f"1{t} P 3{t} P",
            call,
            (17, 19),
            **{t.lower(): (5, 5)},
            **{o: (2, 4) for o in "shdc" if o != t.lower()},
            test=both(no_control(*skipped), control(suit)),
        )
        for t, call, skipped, suit in (
            ("H", "3S", (), S),
            ("H", "4C", (S,), C),
            ("H", "4D", (S, C), D),
            ("S", "4C", (), C),
            ("S", "4D", (C,), D),
            ("S", "4H", (C, D), H),
        )
    ),
    line(
        "control bids",
        "1H P 3H P",
        "4H",
        (17, 19),
        s=(2, 4),
        h=(5, 5),
        d=(2, 4),
        c=(2, 4),
        test=no_control(S, C, D),
    ),
    line(
        "control bids",
        "1H P 3H P 3S P",
        "4C",
        (10, 12),
        s=(3, 3),
        h=(4, 4),
        d=(3, 3),
        c=(3, 3),
        test=control(C),
    ),
    line(
        "control bids",
        "1H P 3H P 3S P",
        "4D",
        (10, 12),
        s=(3, 3),
        h=(4, 4),
        d=(3, 3),
        c=(3, 3),
        test=both(no_control(C), control(D)),
    ),
    line(
        "control bids",
        "1H P 3H P 3S P",
        "4H",
        (10, 12),
        s=(3, 3),
        h=(4, 4),
        d=(3, 3),
        c=(3, 3),
        test=no_control(C, D),
    ),
    line(
        "control bids",
        "1S P 3S P 4C P",
        "4H",
        (10, 12),
        s=(4, 4),
        h=(3, 3),
        d=(3, 3),
        c=(3, 3),
        test=both(no_control(D), control(H)),
    ),
    line(
        "control bids",
        "1H P 3H P 3S P 4C P",
        "4NT",
        (18, 20),
        s=(2, 4),
        h=(5, 5),
        d=(2, 4),
        c=(2, 4),
        test=control(S),
    ),
    line(
        "control bids",
        "1H P 3H P 3S P 4H P",
        "P",
        (17, 20),
        s=(2, 4),
        h=(5, 5),
        d=(2, 4),
        c=(2, 4),
        test=control(S),
    ),
)


def deal_hand(rng: random.Random, spec: Line, tries: int = 200000) -> frozenset[Card] | None:
    """A hand as the line says: a shape as dealt from a shuffled pack, then its cards (drawn
    towards honours or away from them when the line wants many or few points)."""
    ranges = [spec.lengths.get(suit, (0, 13)) for suit in Suit]
    middle = sum(spec.hcp) / 2
    biases = (3.0, 6.0, 12.0) if middle > 15 else (-0.6, -0.85) if middle < 6 else (0.0, 0.6)
    pack = list(range(52))
    for attempt in range(tries):
        lengths = [0, 0, 0, 0]
        for card in rng.sample(pack, 13):
            lengths[card % 4] += 1
        if any(not lo <= n <= hi for n, (lo, hi) in zip(lengths, ranges, strict=True)):
            continue
        bias = biases[attempt % len(biases)]
        cards = frozenset(
            Card(suit, Rank(r))
            for suit, n in zip(Suit, lengths, strict=True)
            for r in _ranks(rng, n, bias)
        )
        if not spec.hcp[0] <= hcp(cards) <= spec.hcp[1]:
            continue
        if spec.balanced is not None and is_balanced(cards) is not spec.balanced:
            continue
        if spec.test is not None and not spec.test(cards):
            continue
        return cards
    return None


def _ranks(rng: random.Random, n: int, bias: float) -> list[int]:
    """``n`` ranks of a suit, an honour ``1 + bias`` times as likely as a spot card."""
    left = list(range(2, 15))
    chosen = []
    for _ in range(n):
        weights = [1 + bias if r >= 11 else 1.0 for r in left]
        pick = rng.choices(left, weights)[0]
        left.remove(pick)
        chosen.append(pick)
    return chosen


def robot_call(spec: Line, cards: frozenset[Card]) -> str:
    calls = tuple(Call.parse(c) for c in spec.auction.split())
    state = AuctionState(Seat.N, calls)
    chosen, _ = choose_call(Seat.N, calls, cards, state.legal_calls())
    return str(chosen)


def hand_text(cards: frozenset[Card]) -> str:
    letters = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "T"}
    return ".".join(
        "".join(letters.get(c.rank, str(int(c.rank))) for c in sorted(
            (c for c in cards if c.suit is suit), key=lambda c: -c.rank)) or "-"
        for suit in (S, H, D, C)
    )  # fmt: skip


def run(hands: int, seed: int) -> tuple[dict[str, list[bool]], list[str]]:
    rng = random.Random(seed)
    by_section: dict[str, list[bool]] = defaultdict(list)
    misses = []
    for spec in LINES:
        for _ in range(hands):
            cards = deal_hand(rng, spec)
            if cards is None:
                raise AssertionError(f"no hand for {spec.section}: {spec.auction} {spec.call}")
            got = robot_call(spec, cards)
            by_section[spec.section].append(got == spec.call)
            if got != spec.call:
                misses.append(f"{spec.section}: [{spec.auction}] {hand_text(cards)} "
                              f"want {spec.call}, robot {got}")  # fmt: skip
    return by_section, misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()
    by_section, misses = run(args.hands, args.seed)
    total = [ok for results in by_section.values() for ok in results]
    print(f"SAYC lines: {len(LINES)}, cases: {len(total)}")
    for section, results in by_section.items():
        share = 100 * sum(results) / len(results)
        print(f"  {section:24} {sum(results):4}/{len(results):<4} {share:5.1f} %")
    print(f"agreement: {100 * sum(total) / len(total):.1f} %")
    for miss in misses[: args.show]:
        print("  ", miss)


if __name__ == "__main__":
    main()
