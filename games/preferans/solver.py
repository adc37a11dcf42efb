"""Preferans with every card in view: how many of the tricks left one player takes when that
player and the other two each play their best (#28's double-dummy solver, first part).

One formulation serves the three kinds of deal: a *side* player and what they want. In a game
declarer wants the most tricks and both defenders the fewest for him; in a misère declarer
wants none and the others want him to take them; in raspasy each player's paranoid value is
that player wanting the fewest against both others. So ``solve`` returns the side player's
tricks from the position on, the other two playing against them.

The search is alpha-beta probed with null windows (MTD(f)), with a transposition table of
bounds at trick starts keyed by relative ranks (a position where a 7 and an 8 are next to each
other among the cards still out is the same whichever of them is left), equal cards merged
(cards of one suit adjacent among those still out, held by one player, are one choice), the
leader's sure tricks as a bound in a game, and cards tried in the order that usually wins.
Cards are bits of a 32-bit mask (8 a suit, suit order of ``Suit``), so a position is three
integers. The talon and the discard are simply not in any hand. The search itself is compiled
by numba (``games.preferans.kernel``); this module asks it the questions.

Measured (``bench/pref_solver.py``, one core): see docs/benchmarks.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from games.preferans.cards import Card, Rank, Suit

if TYPE_CHECKING:
    from games.preferans.kernel import Search

T = TypeVar("T")

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))


def card_index(card: Card) -> int:
    """The card's bit number: eight a suit, in ``Suit`` order, seven lowest."""
    return 8 * int(card.suit) + int(card.rank) - int(Rank.SEVEN)


def bit(card: Card) -> int:
    return 1 << card_index(card)


def mask(cards: Iterable[Card]) -> int:
    result = 0
    for card in cards:
        result |= bit(card)
    return result


@dataclass(frozen=True, slots=True)
class Position:
    """Three players in the order they play (clockwise among the active seats), the cards each
    holds, who leads the trick under way and the cards already in it (in playing order)."""

    hands: tuple[frozenset[Card], frozenset[Card], frozenset[Card]]
    leader: int
    trick: tuple[Card, ...] = ()
    trump: Suit | None = None


def legal(hand: int, led: int | None, trump: int | None) -> int:
    """The cards of ``hand`` that may be played: follow suit, else trump, else anything."""
    if led is None:
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        return follow
    if trump is not None:
        ruff = hand & SUIT_MASK[trump]
        if ruff:
            return ruff
    return hand


def _top_at(cards: Sequence[int], trump: int | None) -> int:
    """Which of a trick's cards (indices, in playing order) is winning it so far."""
    best = 0
    for k in range(1, len(cards)):
        card, top = cards[k], cards[best]
        if card // 8 == top // 8:
            if card > top:
                best = k
        elif trump is not None and card // 8 == trump:
            best = k
    return best


def winner(cards: Sequence[int], leader: int, trump: int | None) -> int:
    """The position (0–2) of who wins a full trick of card indices led by ``leader``."""
    return (leader + _top_at(cards, trump)) % 3


def _value(search: Search, hands: list[int], leader: int, trick: list[int], top: int) -> int:
    """The exact value of a position by null-window probes (MTD(f)) on ``search``'s table."""
    low, high = 0, top
    guess = (low + high) // 2 if search.maximize else low  # a misère is mostly 0 or 1
    while low < high:  # is the value at least ``target``? until the bounds meet
        target = max(guess, low + 1)
        guess = search.play(list(hands), leader, list(trick), target - 1, target)
        if guess < target:
            high = guess
        else:
            low = guess
    return low


def _begin(position: Position, side: int, maximize: bool) -> tuple[Search, list[int], list[int]]:
    """A search for ``side``, the hands as masks and the trick under way as card indices."""
    # Here, not at the top: numba only in the processes that search (games.preferans.kernel).
    from games.preferans.kernel import Search

    trump = None if position.trump is None else int(position.trump)
    hands = [mask(h) for h in position.hands]
    return Search(side, maximize, trump), hands, [card_index(c) for c in position.trick]


def solve(position: Position, side: int, maximize: bool = True) -> int:
    """The tricks the player at ``side`` (0–2, in playing order) takes from ``position`` to
    the end, when they play to take the most (``maximize``) or the fewest, and the other two
    play against them, every card in view."""
    search, hands, trick = _begin(position, side, maximize)
    top = max(bin(h).count("1") for h in hands)  # the player on turn holds one a trick left
    return _value(search, hands, position.leader, trick, top)


def at_least(position: Position, side: int, target: int, maximize: bool = True) -> bool:
    """Whether the side player takes at least ``target`` tricks from ``position`` (as ``solve``
    has it): one null-window probe, cheaper than the exact value (a misère caught or not)."""
    search, hands, trick = _begin(position, side, maximize)
    if target <= 0:
        return True
    return search.play(hands, position.leader, trick, target - 1, target) >= target


def _each_card(
    position: Position,
    side: int,
    maximize: bool,
    judge: Callable[[Search, list[int], int, list[int], int], T],
) -> dict[Card, T]:
    """``judge`` (the search, the hands after the card, who leads on, the trick on from there,
    the trick won by the side if the card ended one) for each card the player on turn may play;
    equal cards are judged once. One search serves every card, so what one card's search learns
    the next one uses."""
    search, hands, trick = _begin(position, side, maximize)
    trump = search.trump
    turn = (position.leader + len(trick)) % 3
    playable = legal(hands[turn], trick[0] // 8 if trick else None, trump)
    out = hands[0] | hands[1] | hands[2]
    for played_index in trick:
        out |= 1 << played_index
    runs = _run_of(playable, out)
    found: dict[int, T] = {}
    judged: dict[Card, T] = {}
    for card in position.hands[turn]:
        index = card_index(card)
        if not playable >> index & 1:
            continue
        head = runs[index]
        if head not in found:
            after = list(hands)
            after[turn] &= ~(1 << head)
            played = [*trick, head]
            if len(played) == 3:
                won = winner(played, position.leader, trump)
                found[head] = judge(search, after, won, [], 1 if won == side else 0)
            else:
                found[head] = judge(search, after, position.leader, played, 0)
        judged[card] = found[head]
    return judged


def card_values(position: Position, side: int, maximize: bool = True) -> dict[Card, int]:
    """For each card the player on turn may play, the side's tricks from ``position`` to the
    end (the trick under way included) after that card, all playing on as ``solve`` has it."""

    def value(search: Search, after: list[int], leader: int, trick: list[int], won: int) -> int:
        top = max(bin(h).count("1") for h in after)  # one a trick left, for who plays next
        return won + _value(search, after, leader, trick, top)

    return _each_card(position, side, maximize, value)


def card_reaches(
    position: Position, side: int, target: int, maximize: bool = True
) -> dict[Card, bool]:
    """For each card the player on turn may play, whether the side then takes at least
    ``target`` tricks from ``position`` on (the trick under way included): ``card_values``
    asked as yes or no, one probe a card (catching a misère: does this card force a trick?)."""

    def reaches(search: Search, after: list[int], leader: int, trick: list[int], won: int) -> bool:
        need = target - won
        return need <= 0 or search.play(after, leader, trick, need - 1, need) >= need

    return _each_card(position, side, maximize, reaches)


def _run_of(playable: int, out: int) -> dict[int, int]:
    """Each playable card's index -> the index of the highest card of its run (cards of one
    suit adjacent among those still out, held by the one player: they are worth the same)."""
    heads: dict[int, int] = {}
    for suit in range(4):
        head = -1
        for index in range(8 * suit + 7, 8 * suit - 1, -1):
            flag = 1 << index
            if playable & flag:
                if head < 0:
                    head = index
                heads[index] = head
            elif out & flag:
                head = -1
    return heads


def solve_seats(
    hands: Mapping[int, Iterable[Card]],
    order: Sequence[int],
    leader: int,
    side: int,
    trump: Suit | None,
    maximize: bool = True,
) -> int:
    """``solve`` for seats by number: ``order`` the three active seats clockwise."""
    return solve(_by_seat(hands, order, leader, trump), order.index(side), maximize)


def at_least_seats(
    hands: Mapping[int, Iterable[Card]],
    order: Sequence[int],
    leader: int,
    side: int,
    target: int,
    trump: Suit | None,
    maximize: bool = True,
) -> bool:
    """``at_least`` for seats by number (a misère caught: ``target`` 1, not ``maximize``)."""
    position = _by_seat(hands, order, leader, trump)
    return at_least(position, order.index(side), target, maximize)


def _by_seat(
    hands: Mapping[int, Iterable[Card]], order: Sequence[int], leader: int, trump: Suit | None
) -> Position:
    """A whole deal's start as the solver takes it, from seats by number."""
    return Position(
        (frozenset(hands[order[0]]), frozenset(hands[order[1]]), frozenset(hands[order[2]])),
        order.index(leader),
        (),
        trump,
    )
