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
integers. The talon and the discard are simply not in any hand.

Measured (``bench/pref_solver.py``, one core): see docs/benchmarks.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from games.preferans.cards import Card, Rank, Suit

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


def _runs(mine: int, out: int, suit: int) -> tuple[int, ...]:
    """One card index of each run of ``mine`` (8 bits of one suit) adjacent among ``out``,
    highest first."""
    found: list[int] = []
    run = False
    for rank in range(7, -1, -1):
        if mine >> rank & 1:
            if not run:
                found.append(8 * suit + rank)
            run = True
        elif out >> rank & 1:
            run = False
    return tuple(found)


# (suit, out << 8 | mine) -> _runs, for every ``mine`` within ``out`` (3^8 of each suit)
_RUNS: list[dict[int, tuple[int, ...]]] = []
for _suit in range(4):
    _table: dict[int, tuple[int, ...]] = {}
    for _out in range(256):
        _mine = _out
        while True:
            _table[_out << 8 | _mine] = _runs(_mine, _out, _suit)
            if not _mine:
                break
            _mine = (_mine - 1) & _out
    _RUNS.append(_table)


def _choices(playable: int, out: int) -> list[int]:
    """One card of each run of ``playable`` that is adjacent among the cards still ``out``
    (the others' cards break a run), highest first within a suit."""
    choices: list[int] = []
    for suit in range(4):
        shift = 8 * suit
        mine = (playable >> shift) & 255
        if mine:
            choices.extend(_RUNS[suit][((out >> shift) & 255) << 8 | mine])
    return choices


def _compress_row(held: int) -> list[int]:
    """For each subset of ``held`` (one suit's cards still out, 8 bits), the same cards
    renumbered 0, 1, 2... among ``held``: the relative ranks that alone decide a suit's play."""
    row = [0] * 256
    places = [b for b in range(8) if held >> b & 1]
    sub = held
    while sub:
        packed = 0
        for k, b in enumerate(places):
            if sub >> b & 1:
                packed |= 1 << k
        row[sub] = packed
        sub = (sub - 1) & held
    return row


_ROWS: list[list[int]] = [_compress_row(held) for held in range(256)]


def _key(h0: int, h1: int, h2: int, leader: int) -> tuple[int, int, int, int]:
    """The position as relative ranks: a 7 and an 8 that are next to each other among the
    cards still out are the same card, whatever was played before (far more table hits)."""
    out = h0 | h1 | h2
    k0 = k1 = k2 = 0
    for shift in (0, 8, 16, 24):
        row = _ROWS[(out >> shift) & 255]
        k0 |= row[(h0 >> shift) & 255] << shift
        k1 |= row[(h1 >> shift) & 255] << shift
        k2 |= row[(h2 >> shift) & 255] << shift
    return (k0, k1, k2, leader)


def _quick_tricks(key: tuple[int, int, int, int], leader: int, trump: int | None) -> int:
    """Tricks the leader takes for sure by cashing top cards, suit after suit, keeping the
    lead: a lower bound on the leader's tricks (``key`` in relative ranks)."""
    hands = key[:3]
    mine = hands[leader]
    one, two = hands[(leader + 1) % 3], hands[(leader + 2) % 3]
    if trump is None:
        trumps_one = trumps_two = 0
    else:
        trumps_one = (one >> (8 * trump)) & 255
        trumps_two = (two >> (8 * trump)) & 255
    total = 0
    for suit in range(4):
        shift = 8 * suit
        held = (mine >> shift) & 255
        if not held:
            continue
        a, b = (one >> shift) & 255, (two >> shift) & 255
        full = held | a | b
        n = full.bit_length()
        top = n - ((~held) & full).bit_length()
        if not top:
            continue
        count_a, count_b = bin(a).count("1"), bin(b).count("1")
        longest = count_a if count_a > count_b else count_b
        rounds = bin(held).count("1") if top >= longest else top
        if trump is not None and suit != trump:
            if trumps_one and count_a < rounds:
                rounds = count_a
            if trumps_two and count_b < rounds:
                rounds = count_b
            if rounds > top:  # length winners only while nobody can ruff
                rounds = top if (trumps_one or trumps_two) else rounds
        total += rounds
    return total


class _Search:
    """Alpha-beta over cards with bounds kept per trick start (``solve`` probes it with null
    windows, MTD(f), so each probe is a yes/no question that cuts early). Cards are tried
    in an order that usually finds the best first: the card that leaves the trick going the
    player's way, cheapest first."""

    def __init__(self, side: int, maximize: bool, trump: int | None) -> None:
        self.side = side
        self.maximize = maximize
        self.trump = trump
        self.table: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self.best_lead: dict[tuple[int, int, int, int], int] = {}

    def trick_start(self, hands: tuple[int, int, int], leader: int, alpha: int, beta: int) -> int:
        left = bin(hands[0]).count("1")
        if left == 0:
            return 0
        key = _key(hands[0], hands[1], hands[2], leader)
        low, high = self.table.get(key, (0, left))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        if self.maximize:  # a game: the leader's sure tricks bound the value
            quick = _quick_tricks(key, leader, self.trump)
            if leader == self.side:
                low = max(low, quick)
            else:
                high = min(high, left - quick)
            if low >= beta or high <= alpha or low == high:
                self.table[key] = (low, high)
                return low if low >= beta or low == high else high
        lo, hi = max(alpha, low), min(beta, high)
        value = self.play(list(hands), leader, [], lo, hi, key)
        if value <= lo:
            high = min(high, value)
        elif value >= hi:
            low = max(low, value)
        else:
            low = high = value
        self.table[key] = (low, high)
        return value

    def _order(self, choices: list[int], turn: int, trick: list[int], leader: int) -> list[int]:
        trump = self.trump
        if not trick:
            return choices if self.maximize else choices[::-1]
        top_at = _top_at(trick, trump)
        top = trick[top_at]
        winning = (leader + top_at) % 3
        side = self.side
        me = turn == side
        good_now, good_beat, bad = [], [], []
        for card in reversed(choices):  # lowest first
            suit = card // 8
            beats = (suit == top // 8 and card > top) or (
                trump is not None and suit == trump and top // 8 != trump
            )
            won_by = turn if beats else winning
            good = ((won_by == side) == me) == self.maximize
            if not good:
                bad.append(card)
            elif beats:
                good_beat.append(card)
            else:
                good_now.append(card)
        if not self.maximize:
            good_now.reverse()  # shed the highest card that still lets the trick go by
        return good_beat + good_now + bad if self.maximize else good_now + good_beat + bad

    def play(
        self,
        hands: list[int],
        leader: int,
        trick: list[int],
        alpha: int,
        beta: int,
        key: tuple[int, int, int, int] | None = None,
    ) -> int:
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
        held = hands[turn]
        choices = self._order(_choices(legal(held, led, self.trump), out), turn, trick, leader)
        if key is not None:
            remembered = self.best_lead.get(key)
            if remembered is not None and remembered in choices:
                choices.remove(remembered)
                choices.insert(0, remembered)
        maximizing = (turn == self.side) == self.maximize
        best = -1 if maximizing else 99
        best_card = choices[0]
        for index in choices:
            hands[turn] = held & ~(1 << index)
            trick.append(index)
            value = self.play(hands, leader, trick, alpha, beta)
            trick.pop()
            if maximizing:
                if value > best:
                    best, best_card = value, index
                if best > alpha:
                    alpha = best
            else:
                if value < best:
                    best, best_card = value, index
                if best < beta:
                    beta = best
            if alpha >= beta:
                break
        hands[turn] = held
        if key is not None:
            self.best_lead[key] = best_card
        return best


def _value(search: _Search, hands: list[int], leader: int, trick: list[int], top: int) -> int:
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


def _begin(position: Position, side: int, maximize: bool) -> tuple[_Search, list[int], list[int]]:
    """A search for ``side``, the hands as masks and the trick under way as card indices."""
    trump = None if position.trump is None else int(position.trump)
    hands = [mask(h) for h in position.hands]
    return _Search(side, maximize, trump), hands, [card_index(c) for c in position.trick]


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
    judge: Callable[[_Search, list[int], int, list[int], int], T],
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

    def value(search: _Search, after: list[int], leader: int, trick: list[int], won: int) -> int:
        top = max(bin(h).count("1") for h in after)  # one a trick left, for who plays next
        return won + _value(search, after, leader, trick, top)

    return _each_card(position, side, maximize, value)


def card_reaches(
    position: Position, side: int, target: int, maximize: bool = True
) -> dict[Card, bool]:
    """For each card the player on turn may play, whether the side then takes at least
    ``target`` tricks from ``position`` on (the trick under way included): ``card_values``
    asked as yes or no, one probe a card (catching a misère: does this card force a trick?)."""

    def reaches(search: _Search, after: list[int], leader: int, trick: list[int], won: int) -> bool:
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
    position = Position(
        (frozenset(hands[order[0]]), frozenset(hands[order[1]]), frozenset(hands[order[2]])),
        order.index(leader),
        (),
        trump,
    )
    return solve(position, order.index(side), maximize)
