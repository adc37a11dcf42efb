"""What players type, in any of the bot's languages, read into the rules' notation.

The rules read ``4SX N -2``; a Russian table types ``4ПК Ю -2`` or ``3БК С =``. The words come
from the catalogues (``bridge.seat.*``, ``bridge.input.*``), every language at once: a player
may type in their own language whatever the table's is.
"""

from __future__ import annotations

from functools import cache

from bot.i18n import LANGUAGES, Translator
from games.bridge.cards import Seat
from games.bridge.entry import Entry, parse_entry


@cache
def _words() -> tuple[dict[str, str], dict[str, str], set[str], list[tuple[str, str]]]:
    """(seat words, side words, pass words, contract aliases longest first), upper case."""
    seats: dict[str, str] = {}
    sides: dict[str, str] = {}
    passes: set[str] = set()
    aliases: list[tuple[str, str]] = []
    for language in LANGUAGES:
        t = Translator(language)
        for seat in Seat:
            seats[t(f"bridge.seat.{seat.name}").upper()] = seat.name
        for side in ("NS", "EW"):
            sides[t(f"bridge.input.side.{side}").upper()] = side
        passes |= {w.upper() for w in t("bridge.input.pass").split()}
        aliases += [(w.upper(), "NT") for w in t("bridge.input.nt").split()]
        for pair in t("bridge.input.strains").split():
            word, _, code = pair.partition("=")
            aliases.append((word.upper(), code))
        aliases += [(w.upper(), "X") for w in t("bridge.input.double").split()]
    aliases.sort(key=lambda pair: -len(pair[0]))  # БК before Б
    return seats, sides, passes, aliases


def read_seat(word: str) -> str | None:
    """A seat's letter (N E S W) from a word in any language; None if it is none."""
    seats = _words()[0]
    return seats.get(word.strip().upper())


def read_entry(text: str) -> Entry:
    """A typed result (``3БК С +1``, ``4♠К Ю =``, ``пас``) in the rules' notation, then read by
    ``games.bridge.entry.parse_entry``: a RuleError with a reason for anything else.

    >>> read_entry("3БК С +1").code(), read_entry("4♠К Ю =").code(), read_entry("пас").code()
    ('3NT N +1', '4SX S =', 'pass')
    """
    seats, sides, passes, aliases = _words()
    words = text.replace(",", " ").split()
    if len(words) == 1 and words[0].upper() in passes:
        return parse_entry("pass")
    if words and words[0][:1] in tuple("0123456789"):  # a contract: level, then words
        head, tail = words[0][:1], words[0][1:].upper()
        for word, code in aliases:
            tail = tail.replace(word, code)
        words[0] = head + tail
    if len(words) > 1:
        words[1] = seats.get(words[1].upper(), words[1])
    for i in range(3, len(words)):
        points, side = words[i][:3], words[i][3:].upper()
        words[i] = points + sides.get(side, side)
    return parse_entry(" ".join(words))
