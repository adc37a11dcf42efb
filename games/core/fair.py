#!/usr/bin/env python3
"""Deals anyone can check: the shuffle's stream, its commitment, and a checker to run by hand.

Before a deal the table shows the SHA-256 of a server seed drawn for it (the commitment; on
the table its first 16 hex digits, which ``--commitment`` accepts too).
The deal is shuffled from that seed together with a value the server could not choose or know
when it committed (the Telegram id of the players' last press before the deal: ``entropy``)
and the deal's number at the table. After the deal the result reveals the seed, so anyone can
check that its hash is the commitment shown before and rebuild the deal:

    python3 fair.py SEED ENTROPY DEAL_NO --pack PACK --deal ORDER [--commitment HASH]

This file needs Python 3 and nothing else (not the bot, not this repository): copy it and run
it. The games deal with the same code (``FairStream``, ``deal``), and a test checks that this
file alone rebuilds the deals the bot made.

The stream (version 1), a documented format rather than ``random``'s Mersenne Twister:
    key      = SHA-256("fair-v1|" + seed as lowercase hex + "|" + entropy + "|" + deal number)
    block i  = SHA-256(key + i as 8 bytes big-endian), i = 0, 1, 2, ...
    the blocks, concatenated, are read as 64-bit big-endian numbers; ``randbelow(n)`` takes the
    next number below the largest multiple of n under 2**64 and returns it modulo n (no bias).
The shuffle is Fisher-Yates over the pack in its given order, from the last card down, each
card swapped with the one at ``randbelow(i + 1)``. Then the shuffled cards go out in the deal
order the command names (``--deal``), which names no game: each game's rules say theirs, and
the bot writes them into the command it gives. ``--pack CDHS:2,3,T,A`` is every suit letter
with every rank, suit by suit (``C2 C3 CT CA D2 …``); ``--pack a,b,c`` names the cards. ``--deal
E,S,W,N`` gives one card to each in turn, round and round until the pack is out;
``--deal 0*10,1*10,2*10,talon*2`` gives ten to 0, then ten to 1, and so on.

Commands given before the deal order was written into them (``fair.py bridge …``,
``fair.py preferans …``) still check: they are read as the same pack and order.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, TypeVar

T = TypeVar("T")

VERSION = "fair-v1"


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


class Dealing(NamedTuple):
    """How a game deals, as the checker reads it: its pack in order (``--pack``) and who gets
    each shuffled card (``--deal``). Each game says its own (``Game.dealing``)."""

    pack: str
    order: str


def pack_cards(spec: str) -> list[str]:
    """The pack a ``--pack`` names, in order.

    >>> pack_cards("SH:7,10,A")
    ['S7', 'S10', 'SA', 'H7', 'H10', 'HA']
    >>> pack_cards("a,b,c")
    ['a', 'b', 'c']
    """
    if ":" in spec:
        suits, ranks = spec.split(":", 1)
        return [suit + rank for suit in suits for rank in ranks.split(",")]
    return spec.split(",")


def holders(spec: str, cards: int) -> list[str]:
    """Who gets each of ``cards`` shuffled cards, by a ``--deal`` order (repeated until the
    cards are out).

    >>> holders("E,S,W,N", 6)
    ['E', 'S', 'W', 'N', 'E', 'S']
    >>> holders("0*2,talon*1", 3)
    ['0', '0', 'talon']
    """
    turn: list[str] = []
    for part in spec.split(","):
        name, _, count = part.partition("*")
        turn += [name] * int(count or 1)
    if not turn or any(not name for name in turn):
        raise ValueError(f"a deal order names who gets the cards: {spec!r}")
    return [turn[i % len(turn)] for i in range(cards)]


def deal(dealing: Dealing, randbelow: Callable[[int], int]) -> dict[str, list[str]]:
    """Each holder's cards, in the order dealt: the pack shuffled by ``randbelow``, then dealt
    by the order. The bot deals every game with this; the checker below runs it again."""
    cards = shuffled(pack_cards(dealing.pack), randbelow)
    hands: dict[str, list[str]] = {}
    for holder, card in zip(holders(dealing.order, len(cards)), cards, strict=True):
        hands.setdefault(holder, []).append(card)
    return hands


def hands(seed: str, entropy: str, deal_no: int, dealing: Dealing) -> dict[str, list[str]]:
    """Each holder's cards as the bot dealt them from this seed, entropy and deal number."""
    return deal(dealing, FairStream(seed, entropy, deal_no).randbelow)


def _posted_before(game: str, dealer: str, players: int) -> Dealing:
    """The pack and order of a command posted before they were written into it (``fair.py
    bridge …`` and ``fair.py preferans …``), so those commands still check."""
    if game == "bridge":
        seats = "NESW"
        first = seats.index(dealer.upper()) + 1
        order = ",".join(seats[(first + k) % 4] for k in range(4))
        return Dealing("CDHS:2,3,4,5,6,7,8,9,T,J,Q,K,A", order)
    active = [seat for seat in range(players) if not (players == 4 and seat == int(dealer))]
    order = ",".join(f"{seat}*10" for seat in active) + ",talon*2"
    return Dealing("SCDH:7,8,9,10,J,Q,K,A", order)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a deal the card bot revealed.")
    parser.add_argument("words", nargs="+", metavar="SEED ENTROPY DEAL_NO")
    parser.add_argument("--pack", help="the pack in order: SUITS:RANK,RANK,… or CARD,CARD,…")
    parser.add_argument("--deal", help="who gets each card in turn: NAME,NAME or NAME*COUNT,…")
    parser.add_argument("--dealer", default="N", help=argparse.SUPPRESS)  # commands posted before
    parser.add_argument("--players", type=int, default=3, help=argparse.SUPPRESS)
    parser.add_argument(
        "--commitment",
        help=f"the hash the table showed before the deal (whole, or its first {SHOWN} digits)",
    )
    args = parser.parse_args(argv)
    words = list(args.words)
    posted_before = words[0] if words[0] in ("bridge", "preferans") else None
    if posted_before is not None:
        words = words[1:]
    if len(words) != 3 or not words[2].isdigit():
        parser.error("give the seed, the players' value and the deal's number")
    seed, entropy, deal_no = words[0], words[1], int(words[2])
    if posted_before is not None:
        dealing = _posted_before(posted_before, args.dealer, args.players)
    elif args.pack and args.deal:
        dealing = Dealing(args.pack, args.deal)
    else:
        parser.error("give the pack and the deal order (--pack, --deal) the bot wrote")
    ok = True
    if args.commitment is not None:
        shown = args.commitment.strip().lower()
        ok = len(shown) >= SHOWN and commitment(seed).startswith(shown)
        print("commitment: " + ("matches the seed" if ok else "DOES NOT MATCH the seed"))
    for holder, cards in hands(seed, entropy, deal_no, dealing).items():
        print(f"{holder}: {' '.join(cards)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
