"""The compiled heart of the Preferans double-dummy solver (``games.preferans.solver`` says
what it computes and how): alpha-beta over cards with a table of bounds, as numba compiles it.

It is a module of its own so that only the processes that search carry numba and LLVM (about
100 MB): the robots' and the analyst's workers, not the bot's own process, which imports the
solver with the rules. numba is a wheel from the registry (no compiler on the machine), and
keeps what it compiled in ``__pycache__`` (or its user-wide cache, where that is not writable)
so that the next process loads it in a fraction of a second instead of compiling for two.

Measured (``bench/pref_solver.py``, one core): see docs/benchmarks.md.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

F = TypeVar("F", bound=Callable[..., Any])
Ints = npt.NDArray[np.int64]


def _compiled(signature: str) -> Callable[[F], F]:
    """The function compiled to machine code by numba for ``signature`` (every argument a
    64-bit integer or an array of them, so that one compilation serves every call), kept for
    the next process; the search runs about a hundred times faster than as Python."""

    def compile_it(function: F) -> F:
        try:
            return cast(F, numba.njit(signature, cache=True, nogil=True)(function))
        except RuntimeError:  # nowhere writable to keep it: compiled anew in each process
            return cast(F, numba.njit(signature, nogil=True)(function))

    return compile_it


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


# [cards of a suit still out][the cards of it one player holds] -> those in relative ranks
_ROWS = np.array([_compress_row(held) for held in range(256)], dtype=np.int64)
_DEPTH = 32  # plies a search can go down: 30 cards, and one to spare
# Entries of the table of bounds, two a bucket (24 MB, a thread that searches): measured on
# whole deals, the worst misère and raspasy took twice as long with a quarter of it.
_SLOTS = 1 << 20


@_compiled("int64(int64)")
def _count(x: int) -> int:
    """The set bits of a 32-bit mask."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@_compiled("int64(int64)")
def _length(x: int) -> int:
    """``int.bit_length`` of a non-negative number (one suit's byte)."""
    n = 0
    while x:
        n += 1
        x >>= 1
    return n


@_compiled("boolean(int64, int64, int64)")
def _beats(card: int, top: int, trump: int) -> bool:
    """Whether ``card`` takes a trick that ``top`` is winning (trump -1: no trump)."""
    if card >> 3 == top >> 3:
        return card > top
    return trump >= 0 and card >> 3 == trump


@_compiled("int64(int64, int64, int64, int64, int64)")
def _quick_tricks(k0: int, k1: int, k2: int, leader: int, trump: int) -> int:
    """Tricks the leader takes for sure by cashing top cards, suit after suit, keeping the
    lead: a lower bound on the leader's tricks (the hands in relative ranks)."""
    if leader == 0:
        mine, one, two = k0, k1, k2
    elif leader == 1:
        mine, one, two = k1, k2, k0
    else:
        mine, one, two = k2, k0, k1
    trumps_one = trumps_two = 0
    if trump >= 0:
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
        top = _length(full) - _length(~held & full)
        if not top:
            continue
        count_a, count_b = _count(a), _count(b)
        rounds = _count(held) if top >= max(count_a, count_b) else top
        if trump >= 0 and suit != trump:
            if trumps_one and count_a < rounds:
                rounds = count_a
            if trumps_two and count_b < rounds:
                rounds = count_b
            if rounds > top and (trumps_one or trumps_two):
                rounds = top  # length winners only while nobody can ruff
        total += rounds
    return total


# A ply's frame in the search's own stack (``frames[ply]``): the position it was given, its
# window, its bounds and table slot, and how far through its cards it is.
LEADER, COUNT, T0, T1, ALPHA, BETA, LO, HI, LOW, HIGH = range(10)
KEY_A, KEY_B, SLOT, N, NEXT, BEST, BEST_CARD, TURN, HELD, TOP, WINNING, GAINED = range(10, 22)
_FIELDS = 22


@_compiled("int64(int64, int64[:], int64, int64, int64, int64, int64[:, :], int64[:, :], "
           "int64[:, :], int64[:, :])")  # fmt: skip
def _open(
    ply: int,
    hands: Ints,
    side: int,
    most: int,
    trump: int,
    stamp: int,
    rows: Ints,
    table: Ints,
    moves: Ints,
    frames: Ints,
) -> int:
    """Sets up the ply whose position ``frames[ply]`` gives: its value if known without
    searching (-1 if not), else the cards to try, in order, in ``moves[ply]``.

    At a trick's start the position is looked up in ``table`` by relative ranks (a 7 and an 8
    next to each other among the cards still out are one card, whatever was played before),
    and in a game the leader's sure tricks bound the value. Each player's cards are tried one
    of each run (cards adjacent among those out are worth the same), the card that did best
    here before first, then the one that leaves the trick going the player's way, cheapest
    first; in the fewest-tricks searches the leads someone must win come first (which halved
    the slowest misères). ``moves[ply]`` holds the runs, their kinds and the order."""
    frame = frames[ply]
    leader, count, t0, t1 = frame[LEADER], frame[COUNT], frame[T0], frame[T1]
    alpha, beta = frame[ALPHA], frame[BETA]
    remembered = -1
    if count == 0:
        left = _count(hands[0])
        if left == 0:
            return 0
        out = hands[0] | hands[1] | hands[2]
        k0 = k1 = k2 = lengths = 0
        for suit in range(4):
            shift = 8 * suit
            row = (out >> shift) & 255
            k0 |= rows[row, (hands[0] >> shift) & 255] << shift
            k1 |= rows[row, (hands[1] >> shift) & 255] << shift
            k2 |= rows[row, (hands[2] >> shift) & 255] << shift
            lengths |= _count(row) << (4 * suit)
        key_a = k0 | (leader << 32) | (lengths << 34)
        key_b = k1
        slot = ((key_a * 0x9E3779B1) ^ (key_b * 0x85EBCA77) ^ (key_a >> 19) ^ (key_b >> 11)) & (
            table.shape[0] - 2
        )  # two entries a bucket: this one and the next
        low, high = 0, left
        other = slot + 1
        if table[other, 0] == key_a and table[other, 1] == key_b and table[other, 2] >> 28 == stamp:
            slot = other
        elif not (
            table[slot, 0] == key_a and table[slot, 1] == key_b and table[slot, 2] >> 28 == stamp
        ):  # not kept: it will go where an older search's entry or the smaller ending was
            mine, theirs = table[slot, 2], table[other, 2]
            if mine >> 28 == stamp and (
                theirs >> 28 != stamp or (theirs >> 24) & 15 < (mine >> 24) & 15
            ):
                slot = other
            other = -1
        if other >= 0:
            packed = table[slot, 2]
            high = packed & 255
            low = (packed >> 8) & 255
            remembered = ((packed >> 16) & 255) - 1
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        if most:  # a game: the leader's sure tricks bound the value
            quick = _quick_tricks(k0, k1, k2, leader, trump)
            if leader == side:
                low = max(low, quick)
            else:
                high = min(high, left - quick)
            if low >= beta or high <= alpha or low == high:
                table[slot, 0] = key_a
                table[slot, 1] = key_b
                table[slot, 2] = (
                    (stamp << 28) | (left << 24) | ((remembered + 1) << 16) | (low << 8) | high
                )
                return low if low >= beta or low == high else high
        alpha = max(alpha, low)
        beta = min(beta, high)
        frame[LOW], frame[HIGH] = low, high
        frame[KEY_A], frame[KEY_B], frame[SLOT] = key_a, key_b, slot

    turn = (leader + count) % 3
    held = hands[turn]
    out = hands[0] | hands[1] | hands[2]
    playable = held
    top = -1
    winning = leader
    if count > 0:
        out |= 1 << t0
        follow = held & (255 << (8 * (t0 >> 3)))
        ruff = held & (255 << (8 * trump)) if trump >= 0 else 0
        playable = follow if follow else (ruff if ruff else held)
        top = t0
        if count == 2:
            out |= 1 << t1
            if _beats(t1, t0, trump):
                top = t1
                winning = (leader + 1) % 3

    n = 0  # one card of each run, highest first within a suit
    for suit in range(4):
        run = False
        for rank in range(7, -1, -1):
            card = 8 * suit + rank
            if (playable >> card) & 1:
                if not run:
                    moves[ply, n] = card
                    n += 1
                run = True
            elif (out >> card) & 1:
                run = False

    me = turn == side
    if count == 0:
        if most:
            for j in range(n):
                moves[ply, 24 + j] = moves[ply, j]
        else:
            # The fewest: the side leads first a card someone must beat (lower than all the
            # others hold of its suit), then one someone can beat, then one that wins; the
            # others lead first a card the side must beat (he holds the suit, nothing lower),
            # then one he can duck, then a suit he has none of. Lowest cards first in each.
            them = (out & ~held) if me else hands[side]
            for j in range(n):
                card = moves[ply, j]
                suit_cards = them & (255 << (8 * (card >> 3)))
                lower = suit_cards & ((1 << card) - 1)
                if me:
                    kind = 0 if suit_cards and not lower else (1 if suit_cards != lower else 2)
                else:
                    kind = 0 if suit_cards and not lower else (1 if suit_cards else 2)
                moves[ply, 12 + j] = kind
            m = 0
            for kind in range(3):
                for rank in range(8):
                    for j in range(n):
                        if moves[ply, 12 + j] == kind and moves[ply, j] & 7 == rank:
                            moves[ply, 24 + m] = moves[ply, j]
                            m += 1
    else:
        for j in range(
            n
        ):  # 0: bad for the player; 1: good, taking the trick; 2: good, letting it go
            card = moves[ply, j]
            beats = _beats(card, top, trump)
            won_by = turn if beats else winning
            good = ((won_by == side) == me) == most
            moves[ply, 12 + j] = (1 if beats else 2) if good else 0
        m = 0
        for step in range(3):
            if most:
                kind = 1 if step == 0 else (2 if step == 1 else 0)
            else:  # the highest card that still lets the trick go by first
                kind = 2 if step == 0 else (1 if step == 1 else 0)
            for jj in range(n):
                j = jj if (not most and step == 0) else n - 1 - jj
                if moves[ply, 12 + j] == kind:
                    moves[ply, 24 + m] = moves[ply, j]
                    m += 1
    if remembered >= 0:
        for j in range(n):
            if moves[ply, 24 + j] == remembered:
                for k in range(j, 0, -1):
                    moves[ply, 24 + k] = moves[ply, 23 + k]
                moves[ply, 24] = remembered
                break

    frame[ALPHA], frame[BETA], frame[LO], frame[HI] = alpha, beta, alpha, beta
    frame[N], frame[NEXT], frame[TURN], frame[HELD] = n, 0, turn, held
    frame[TOP], frame[WINNING] = top, winning
    frame[BEST] = -1 if me == most else 99
    frame[BEST_CARD] = moves[ply, 24]
    return -1


@_compiled("int64(int64[:], int64, int64, int64, int64, int64, int64, int64, int64, int64, "
           "int64, int64[:, :], int64[:, :], int64[:, :], int64[:, :])")  # fmt: skip
def _search(
    hands: Ints,
    leader: int,
    count: int,
    t0: int,
    t1: int,
    alpha: int,
    beta: int,
    side: int,
    most: int,
    trump: int,
    stamp: int,
    rows: Ints,
    table: Ints,
    moves: Ints,
    frames: Ints,
) -> int:
    """The side's tricks from the position (``count`` cards of the trick in: ``t0``, ``t1``),
    as alpha-beta finds it: exact inside the window, a bound outside it. The search keeps its
    own stack of plies in ``frames`` (numba cannot keep a recursive function in its cache), and
    at each trick's start keeps the bounds found and the best card in ``table``."""
    frame = frames[0]
    frame[LEADER], frame[COUNT], frame[T0], frame[T1] = leader, count, t0, t1
    frame[ALPHA], frame[BETA] = alpha, beta
    ply = 0
    result = _open(0, hands, side, most, trump, stamp, rows, table, moves, frames)
    while True:
        if result < 0:  # the ply has cards to try: the next one, or it is done
            frame = frames[ply]
            if frame[NEXT] < frame[N] and frame[ALPHA] < frame[BETA]:
                card = moves[ply, 24 + frame[NEXT]]
                turn = frame[TURN]
                hands[turn] = frame[HELD] & ~(1 << card)
                child = frames[ply + 1]
                count = frame[COUNT]
                gained = 0
                if count == 2:  # the trick is complete: its winner leads the next
                    won = turn if _beats(card, frame[TOP], trump) else frame[WINNING]
                    gained = 1 if won == side else 0
                    child[LEADER], child[COUNT], child[T0], child[T1] = won, 0, -1, -1
                else:
                    child[LEADER], child[COUNT] = frame[LEADER], count + 1
                    child[T0] = card if count == 0 else frame[T0]
                    child[T1] = card if count == 1 else -1
                child[ALPHA], child[BETA] = frame[ALPHA] - gained, frame[BETA] - gained
                frame[GAINED] = gained
                ply += 1
                result = _open(ply, hands, side, most, trump, stamp, rows, table, moves, frames)
                continue
            hands[frame[TURN]] = frame[HELD]
            result = frame[BEST]
            if frame[COUNT] == 0:  # keep what was learnt of this trick start
                low, high = frame[LOW], frame[HIGH]
                if result <= frame[LO]:
                    high = min(high, result)
                elif result >= frame[HI]:
                    low = max(low, result)
                else:
                    low = high = result
                slot = frame[SLOT]
                table[slot, 0] = frame[KEY_A]
                table[slot, 1] = frame[KEY_B]
                table[slot, 2] = (
                    (stamp << 28)
                    | (_count(hands[0]) << 24)
                    | ((frame[BEST_CARD] + 1) << 16)
                    | (low << 8)
                    | high
                )
        if ply == 0:
            return result
        ply -= 1  # back to the parent with the value of its card
        frame = frames[ply]
        value = result + frame[GAINED]
        card = moves[ply, 24 + frame[NEXT]]
        if (frame[TURN] == side) == most:
            if value > frame[BEST]:
                frame[BEST], frame[BEST_CARD] = value, card
            frame[ALPHA] = max(frame[ALPHA], frame[BEST])
        else:
            if value < frame[BEST]:
                frame[BEST], frame[BEST_CARD] = value, card
            frame[BETA] = min(frame[BETA], frame[BEST])
        frame[NEXT] += 1
        result = -1


class _Scratch:
    """What searches write as they go, kept for the thread's next one: the table of bounds
    (an entry counts only for the search whose stamp it bears, so a new search starts clean
    without clearing the table) and each ply's card lists."""

    def __init__(self) -> None:
        self.table: Ints = np.zeros((_SLOTS, 3), dtype=np.int64)
        self.moves: Ints = np.zeros((_DEPTH, 36), dtype=np.int64)
        self.frames: Ints = np.zeros((_DEPTH, _FIELDS), dtype=np.int64)
        self.hands: Ints = np.zeros(3, dtype=np.int64)
        self.stamp = 0

    def next_stamp(self) -> int:
        self.stamp += 1
        if self.stamp >= 1 << 30:  # never in practice; the old entries would look new
            self.table[:] = 0
            self.stamp = 1
        return self.stamp


_LOCAL = threading.local()  # one scratch a thread: a search is not shared between threads


def _scratch() -> _Scratch:
    found: _Scratch | None = getattr(_LOCAL, "scratch", None)
    if found is None:
        found = _LOCAL.scratch = _Scratch()
    return found


class Search:
    """One search: for whom, to what end, in which strain; its table entries last as long as
    it does, so what one probe learns the next one uses (MTD(f), and each card of
    ``card_values``)."""

    def __init__(self, side: int, maximize: bool, trump: int | None) -> None:
        self.side = side
        self.maximize = maximize
        self.trump = trump
        self.scratch = _scratch()
        self.stamp = self.scratch.next_stamp()

    def play(self, hands: list[int], leader: int, trick: list[int], alpha: int, beta: int) -> int:
        """The side's tricks from the position (a trick under way of up to two cards), exact
        inside ``alpha``–``beta`` and a bound outside it."""
        scratch = self.scratch
        for k in range(3):
            scratch.hands[k] = hands[k]
        return int(
            _search(
                scratch.hands,
                leader,
                len(trick),
                trick[0] if trick else -1,
                trick[1] if len(trick) > 1 else -1,
                alpha,
                beta,
                self.side,
                int(self.maximize),
                -1 if self.trump is None else self.trump,
                self.stamp,
                _ROWS,
                scratch.table,
                scratch.moves,
                scratch.frames,
            )
        )
