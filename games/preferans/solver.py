"""Preferans with every card in view: how many of the tricks left one player takes when that
player and the other two each play their best (#28's double-dummy solver, first part).

One formulation serves the three kinds of deal: a *side* player and what they want. In a game
declarer wants the most tricks and both defenders the fewest for him; in a misère declarer
wants none and the others want him to take them; in raspasy each player's paranoid value is
that player wanting the fewest against both others. So ``solve`` returns the side player's
tricks from the position on, the other two playing against them.

The search is alpha-beta over whole tricks with a transposition table at trick boundaries and
equal cards merged (cards of one suit adjacent among those still out, held by one player, are
one choice). Cards are bits of a 32-bit mask (8 a suit, suit order of ``Suit``), so a position
is three integers. The talon and the discard are simply not in any hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.preferans.cards import Card, Rank, Suit

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


def winner(cards: Sequence[int], leader: int, trump: int | None) -> int:
    """The position (0–2) of who wins a full trick of card indices led by ``leader``."""
    best = 0
    for k in range(1, 3):
        card, top = cards[k], cards[best]
        if card // 8 == top // 8:
            if card > top:
                best = k
        elif trump is not None and card // 8 == trump:
            best = k
    return (leader + best) % 3


def _choices(playable: int, out: int) -> list[int]:
    """One card of each run of ``playable`` that is adjacent among the cards still ``out``
    (the others' cards break a run), highest first."""
    choices = []
    for suit in range(4):
        mine = playable & SUIT_MASK[suit]
        if not mine:
            continue
        run = False
        for index in range(8 * suit + 7, 8 * suit - 1, -1):
            flag = 1 << index
            if mine & flag:
                if not run:
                    choices.append(index)
                run = True
            elif out & flag:
                run = False
    return choices


class _Search:
    def __init__(self, side: int, maximize: bool, trump: int | None) -> None:
        self.side = side
        self.maximize = maximize
        self.trump = trump
        self.table: dict[tuple[int, int, int, int], tuple[int, int]] = {}

    def trick_start(self, hands: tuple[int, int, int], leader: int, alpha: int, beta: int) -> int:
        left = bin(hands[0]).count("1")
        if left == 0:
            return 0
        key = (hands[0], hands[1], hands[2], leader)
        low, high = self.table.get(key, (0, left))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        lo, hi = max(alpha, low), min(beta, high)
        value = self.play(list(hands), leader, [], lo, hi)
        if value <= lo:
            high = min(high, value)
        elif value >= hi:
            low = max(low, value)
        else:
            low = high = value
        self.table[key] = (low, high)
        return value

    def play(self, hands: list[int], leader: int, trick: list[int], alpha: int, beta: int) -> int:
        if len(trick) == 3:
            won = winner(trick, leader, self.trump)
            gained = 1 if won == self.side else 0
            after = (hands[0], hands[1], hands[2])
            return gained + self.trick_start(after, won, alpha - gained, beta - gained)
        turn = (leader + len(trick)) % 3
        led = trick[0] // 8 if trick else None
        out = hands[0] | hands[1] | hands[2]
        for played in trick:
            out |= 1 << played
        choices = _choices(legal(hands[turn], led, self.trump), out)
        maximizing = (turn == self.side) == self.maximize
        best = -1 if maximizing else 99
        held = hands[turn]
        for index in choices:
            hands[turn] = held & ~(1 << index)
            trick.append(index)
            value = self.play(hands, leader, trick, alpha, beta)
            trick.pop()
            if maximizing:
                if value > best:
                    best = value
                if best > alpha:
                    alpha = best
            else:
                if value < best:
                    best = value
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        hands[turn] = held
        return best


def solve(position: Position, side: int, maximize: bool = True) -> int:
    """The tricks the player at ``side`` (0–2, in playing order) takes from ``position`` to
    the end, when they play to take the most (``maximize``) or the fewest, and the other two
    play against them, every card in view."""
    hands = tuple(mask(h) for h in position.hands)
    trump = None if position.trump is None else int(position.trump)
    search = _Search(side, maximize, trump)
    trick = [card_index(c) for c in position.trick]
    return search.play([hands[0], hands[1], hands[2]], position.leader, trick, -1, 11)


def solve_seats(
    hands: Mapping[int, Iterable[Card]],
    order: Sequence[int],
    leader: int,
    side: int,
    trump: Suit | None,
    maximize: bool = True,
) -> int:
    """``solve`` for seats by number: ``order`` the three active seats clockwise."""
    position = Position(
        (frozenset(hands[order[0]]), frozenset(hands[order[1]]), frozenset(hands[order[2]])),
        order.index(leader),
        (),
        trump,
    )
    return solve(position, order.index(side), maximize)
