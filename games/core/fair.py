#!/usr/bin/env python3
"""Deals anyone can check: the shuffle's stream, its commitment, and a checker to run by hand.

Before a deal the table shows the SHA-256 of a server seed drawn for it (the commitment; on
the table its first 16 hex digits, which ``--commitment`` accepts too).
The deal is shuffled from that seed together with a value the server could not choose or know
when it committed (the Telegram id of the players' last press before the deal: ``entropy``)
and the deal's number at the table. After the deal the result reveals the seed, so anyone can
check that its hash is the commitment shown before and rebuild the deal:

    python3 fair.py bridge SEED ENTROPY DEAL_NO --dealer N [--commitment HASH]
    python3 fair.py preferans SEED ENTROPY DEAL_NO --players 3 --dealer 0 [--commitment HASH]

This file needs Python 3 and nothing else (not the bot, not this repository): copy it and run
it. The games deal with the same code (``FairStream``, ``shuffled``), and a test checks that
this file alone rebuilds the deals the bot made.

The stream (version 1), a documented format rather than ``random``'s Mersenne Twister:
    key      = SHA-256("fair-v1|" + seed as lowercase hex + "|" + entropy + "|" + deal number)
    block i  = SHA-256(key + i as 8 bytes big-endian), i = 0, 1, 2, ...
    the blocks, concatenated, are read as 64-bit big-endian numbers; ``randbelow(n)`` takes the
    next number below the largest multiple of n under 2**64 and returns it modulo n (no bias).
The shuffle is Fisher-Yates over the pack in its fixed order, from the last card down, each
card swapped with the one at ``randbelow(i + 1)``.
    bridge: the pack is clubs, diamonds, hearts, spades, each 2 up to the ace; the shuffled
            cards go one at a time clockwise, starting left of the dealer.
    preferans: the pack is spades, clubs, diamonds, hearts, each 7 up to the ace; the first
            ten go to the lowest-numbered seat in play, the next ten to the next, the next ten
            to the third, and the last two are the talon (with four players the dealer sits
            out and gets none).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")

VERSION = "fair-v1"
SEAT_LETTERS = "NESW"


SHOWN = 16  # hex digits of a commitment on the table: 64 bits, beyond any search for a match


def commitment(seed: str) -> str:
    """What the table shows before the deal: SHA-256 of the seed's bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def seed_for(secret: bytes, table_id: int, deal_no: int, nonce: str) -> str:
    """The server seed of a table's deal: drawn from the bot's secret by HMAC, so it is fixed
    (and its commitment can be shown) before the deal exists, and survives a restart.

    ``nonce`` is drawn at random when the table is made and kept with it (its token): two
    databases under one secret (a lost one restarted empty, a second instance) number their
    tables alike, and without it would commit to the seeds the other already revealed.

    >>> a = seed_for(b"k", 1, 1, "0f3c9a1b2d4e5f60")
    >>> a == seed_for(b"k", 1, 1, "0f3c9a1b2d4e5f60"), a == seed_for(b"k", 1, 1, "77aa")
    (True, False)
    """
    if not nonce:
        raise ValueError("a table's seeds need its random nonce")
    message = f"{VERSION}|seed|{nonce}|{table_id}|{deal_no}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


class FairStream:
    """``randbelow`` for the shuffle, from the seed, the entropy and the deal's number."""

    def __init__(self, seed: str, entropy: str, deal_no: int) -> None:
        text = f"{VERSION}|{seed.lower()}|{entropy}|{deal_no}"
        self._key = hashlib.sha256(text.encode()).digest()
        self._block = 0
        self._pool = b""

    def _next64(self) -> int:
        if len(self._pool) < 8:
            self._pool += hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._block += 1
        value, self._pool = int.from_bytes(self._pool[:8], "big"), self._pool[8:]
        return value

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self._next64()
            if value < limit:
                return value % n


def shuffled(items: Iterable[T], randbelow: Callable[[int], int]) -> list[T]:
    """Fisher-Yates from the last card down (``games.core.shuffle`` is this one)."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def bridge_hands(seed: str, entropy: str, deal_no: int, dealer: str) -> dict[str, list[str]]:
    """Each seat's thirteen cards (``SA``, ``HT``, …) as the bot dealt them."""
    pack = [suit + rank for suit in "CDHS" for rank in "23456789TJQKA"]
    order = shuffled(pack, FairStream(seed, entropy, deal_no).randbelow)
    hands: dict[str, list[str]] = {seat: [] for seat in SEAT_LETTERS}
    seat = (SEAT_LETTERS.index(dealer) + 1) % 4
    for card in order:
        hands[SEAT_LETTERS[seat]].append(card)
        seat = (seat + 1) % 4
    return hands


def preferans_hands(
    seed: str, entropy: str, deal_no: int, players: int, dealer: int
) -> dict[str, list[str]]:
    """Each seat's ten cards (``SA``, ``H10``, …, by seat number) and the ``talon``."""
    pack = [suit + rank for suit in "SCDH" for rank in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    order = shuffled(pack, FairStream(seed, entropy, deal_no).randbelow)
    active = [seat for seat in range(players) if not (players == 4 and seat == dealer)]
    hands = {str(seat): order[10 * k : 10 * k + 10] for k, seat in enumerate(active)}
    hands["talon"] = order[30:32]
    return hands


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a deal the card bot revealed.")
    parser.add_argument("game", choices=("bridge", "preferans"))
    parser.add_argument("seed", help="the server seed the result revealed (hex)")
    parser.add_argument("entropy", help="the players' value the result named")
    parser.add_argument("deal_no", type=int, help="the deal's number at the table")
    parser.add_argument("--dealer", default="N", help="bridge: N E S W; preferans: seat number")
    parser.add_argument("--players", type=int, default=3, help="preferans: 3 or 4")
    parser.add_argument(
        "--commitment",
        help=f"the hash the table showed before the deal (whole, or its first {SHOWN} digits)",
    )
    args = parser.parse_args(argv)
    ok = True
    if args.commitment is not None:
        shown = args.commitment.strip().lower()
        ok = len(shown) >= SHOWN and commitment(args.seed).startswith(shown)
        print("commitment: " + ("matches the seed" if ok else "DOES NOT MATCH the seed"))
    if args.game == "bridge":
        hands = bridge_hands(args.seed, args.entropy, args.deal_no, args.dealer.upper())
    else:
        hands = preferans_hands(
            args.seed, args.entropy, args.deal_no, args.players, int(args.dealer)
        )
    for holder, cards in hands.items():
        print(f"{holder}: {' '.join(cards)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
