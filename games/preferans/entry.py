"""One deal's result as a scorekeeper types it, for games played with real cards.

    7H 0 whist/pass 6/3/1     contract, declarer's seat, first/second defender, tricks by seat
    6S 2 pass/pass            not played (both passed: paid as made)
    6S 2 pass/half            not played, half-whist
    misere 1 2                declarer 1 took 2 tricks (0 makes it)
    pass 2/5/3                raspasy: each active player's tricks, in seat order
    … d3                      with four players: who dealt (and sat out)

Russian words and suit symbols are read too: ``7♥ 0 вист/пас 6/3/1``, ``мизер 1 0``,
``распасы 2/5/3``, ``пол`` for half. Seats are in the table's clockwise order, counted from
``first_seat``: 0 as the engine counts (the default, and the form stored and shown in tests), 1
where people type them (the bot's table says "Место 1").
"""

from __future__ import annotations

from dataclasses import dataclass

from games.errors import NotationError, Reason
from games.preferans.bids import Bid
from games.preferans.errors import PrefReason
from games.preferans.pulka import HALF, PASS, WHIST, Pulka

WORDS = {
    "whist": WHIST, "w": WHIST, "вист": WHIST, "в": WHIST,
    "pass": PASS, "p": PASS, "пас": PASS, "п": PASS,
    "half": HALF, "h": HALF, "пол": HALF, "полвиста": HALF, "½": HALF,
}  # fmt: skip
MISERE_WORDS = ("misere", "misère", "mis", "мизер", "миз")
RASPASY_WORDS = ("pass", "raspasy", "распасы", "распас", "пас")


@dataclass(frozen=True, slots=True)
class Entry:
    kind: str  # "game" | "misere" | "raspasy"
    declarer: int | None = None
    contract: Bid | None = None
    whist: tuple[str, str] | None = None  # first and second defender's final words
    tricks: tuple[int, ...] | None = None  # active seats' tricks in seat order (misère: one)
    dealer: int | None = None

    def code(self, first_seat: int = 0) -> str:
        """The typed form, which ``parse_entry`` reads back with the same ``first_seat``."""
        tail = "" if self.dealer is None else f" d{self.dealer + first_seat}"
        tricks = "/".join(map(str, self.tricks or ()))
        if self.kind == "raspasy":
            return f"pass {tricks}{tail}"
        assert self.declarer is not None
        declarer = self.declarer + first_seat
        if self.kind == "misere":
            return f"misere {declarer} {tricks}{tail}"
        assert self.whist is not None
        played = f" {tricks}" if self.tricks is not None else ""
        return f"{self.contract} {declarer} {self.whist[0]}/{self.whist[1]}{played}{tail}"

    def write(self, pulka: Pulka) -> None:
        """Score it on the pulka (PulkaError, and nothing written, if it cannot be)."""
        active = pulka.active(self.dealer)
        if self.kind == "raspasy":
            pulka.raspasy(self._by_seat(active), dealer=self.dealer)
            return
        assert self.declarer is not None
        if self.kind == "misere":
            assert self.tricks is not None
            pulka.misere(self.declarer, self.tricks[0], dealer=self.dealer)
            return
        assert self.contract is not None and self.whist is not None
        first = pulka.left_of(self.declarer, self.dealer)
        second = pulka.left_of(first, self.dealer)
        whist = {first: self.whist[0], second: self.whist[1]}
        tricks = None if self.tricks is None else self._by_seat(active)
        pulka.game(self.declarer, self.contract, whist, tricks, dealer=self.dealer)

    def _by_seat(self, active: list[int]) -> dict[int, int]:
        if self.tricks is None or len(self.tricks) != len(active):
            raise NotationError(repr(self.tricks), Reason.BAD_TRICKS)
        return dict(zip(active, self.tricks, strict=True))


def parse_entry(text: str, first_seat: int = 0) -> Entry:
    """Read a typed result, seats counted from ``first_seat``; NotationError with the reason
    for anything else. ``Entry.code`` writes what this reads (the same ``first_seat``):

    >>> entry = parse_entry("7h 3 whist/pass 6/3/1 d1", first_seat=1)
    >>> entry.declarer, entry.dealer, entry.code(1)
    (2, 0, '7H 3 whist/pass 6/3/1 d1')
    >>> parse_entry("pass 4/3/3").code(), parse_entry("misere 1 0").code()
    ('pass 4/3/3', 'misere 1 0')
    >>> parse_entry("6s 1 whist")
    Traceback (most recent call last):
    games.errors.NotationError: 'whist': bad_whist
    """

    def seat(word: str) -> int:
        number = _number(word) - first_seat
        if number < 0:
            raise NotationError(repr(word), Reason.BAD_ENTRY)
        return number

    words = text.replace(",", " ").lower().split()
    dealer = None
    if words and words[-1][:1] in ("d", "с", "д") and words[-1][1:].isdecimal():
        dealer = seat(words.pop()[1:])
    if not words:
        raise NotationError(repr(text), Reason.BAD_ENTRY)
    head = words[0]
    if head in RASPASY_WORDS and len(words) == 2:
        return Entry("raspasy", tricks=_tricks(words[1]), dealer=dealer)
    if head in MISERE_WORDS and len(words) == 3:
        return Entry("misere", seat(words[1]), Bid.misere(), None, (_number(words[2]),), dealer)
    if len(words) not in (3, 4):
        raise NotationError(repr(text), Reason.BAD_ENTRY)
    contract = Bid.parse(head)
    if contract.is_misere:
        raise NotationError(repr(text), Reason.BAD_ENTRY)
    said = words[2].split("/")
    if len(said) != 2 or any(w not in WORDS for w in said):
        raise NotationError(repr(words[2]), PrefReason.BAD_WHIST)
    tricks = _tricks(words[3]) if len(words) == 4 else None
    whist = (WORDS[said[0]], WORDS[said[1]])
    return Entry("game", seat(words[1]), contract, whist, tricks, dealer)


def _number(word: str) -> int:
    if not word.isascii() or not word.isdecimal() or len(word) > 2:
        raise NotationError(repr(word), Reason.BAD_TRICKS)
    return int(word)


def _tricks(word: str) -> tuple[int, ...]:
    parts = word.split("/")
    if len(parts) != 3:
        raise NotationError(repr(word), Reason.BAD_TRICKS)
    return tuple(_number(p) for p in parts)
