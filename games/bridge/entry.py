"""A deal's result as a scorekeeper enters it for a game played with real cards.

One typed line, ``4SX N -2`` (contract, declarer, result), optionally with honours ``100NS`` or
``150EW``, or ``pass`` for a deal passed out; suit symbols are read too (``4♠X S =``). Words
of a language (Russian ``3БК С +1``) are the bot's to translate into this notation first
(``bot/games/bridge/notation.py``, from the catalogues). The same ``Entry`` comes from the bot's
button wizard; either way the rules engine scores it, exactly as for a deal played online.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.bridge.calls import Contract, Strain
from games.bridge.cards import Seat, Side
from games.bridge.errors import BridgeReason
from games.errors import NotationError, Reason, RubberError

SEAT_WORDS = {"N": "N", "E": "E", "S": "S", "W": "W"}
SIDE_WORDS = {"NS": Side.NS, "EW": Side.EW}
PASS_WORDS = {"PASS", "P", "-", "0"}
CONTRACT_ALIASES = (("♠", "S"), ("♥", "H"), ("♦", "D"), ("♣", "C"))


@dataclass(frozen=True, slots=True)
class Entry:
    """One deal's result: ``contract`` None for a deal passed out."""

    contract: Contract | None
    declarer: Seat | None = None
    tricks: int = 0  # taken by the declarer's side
    honours: dict[Side, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.contract is None:
            return
        if not 0 <= self.tricks <= 13:
            raise NotationError(f"{self.tricks} tricks", Reason.BAD_TRICKS)
        nonzero = {side: p for side, p in self.honours.items() if p}
        if len(nonzero) > 1 or any(p not in (100, 150) for p in nonzero.values()):
            raise RubberError(repr(self.honours), BridgeReason.BAD_HONOURS)
        if self.contract.strain is Strain.NOTRUMP and any(p == 100 for p in nonzero.values()):
            raise RubberError("100 honours at no-trump", BridgeReason.BAD_HONOURS)

    @property
    def delta(self) -> int:
        """Overtricks (positive), 0 for made exactly, or undertricks (negative)."""
        assert self.contract is not None
        return self.tricks - self.contract.tricks_needed

    def code(self) -> str:
        """The typed-line form, which ``parse_entry`` reads back."""
        if self.contract is None or self.declarer is None:
            return "pass"
        delta = self.delta
        result = "=" if delta == 0 else f"{delta:+d}"
        text = f"{self.contract} {self.declarer.name} {result}"
        for side, points in self.honours.items():
            if points:
                text += f" {points}{side.value}"
        return text


def seat_from_word(word: str) -> Seat:
    """``N``/``E``/``S``/``W``, either case."""
    key = word.strip().upper()
    if key not in SEAT_WORDS:
        raise NotationError(repr(word), Reason.BAD_SEAT)
    return Seat.parse(SEAT_WORDS[key])


def _contract(word: str) -> Contract:
    key = word.upper()
    if key[:1] and key[0] in "0123456789":
        head, tail = key[:1], key[1:]
        for alias, code in CONTRACT_ALIASES:
            tail = tail.replace(alias, code)
        key = head + tail
    return Contract.parse(key)


def parse_entry(text: str) -> Entry:
    """Read ``4SX N -2`` / ``3NT S =`` / ``2H E +1 100EW`` / ``pass``.

    NotationError (BAD_CONTRACT, BAD_SEAT, BAD_TRICKS, BAD_ENTRY) or RubberError (BAD_HONOURS)
    says what is wrong; nothing is half-read. ``Entry.code`` writes what this reads:

    >>> entry = parse_entry("4SX N -2")
    >>> entry.tricks, entry.code()
    (8, '4SX N -2')
    >>> parse_entry("2h e +1, 100ew").code(), parse_entry("pass").code()
    ('2H E +1 100EW', 'pass')
    >>> parse_entry("3NT S")
    Traceback (most recent call last):
    games.errors.NotationError: '3NT S': bad_entry
    """
    words = text.replace(",", " ").split()
    if len(words) == 1 and words[0].upper() in PASS_WORDS:
        return Entry(None)
    if len(words) < 3:
        raise NotationError(repr(text), Reason.BAD_ENTRY)
    contract = _contract(words[0])
    declarer = seat_from_word(words[1])
    result = words[2].replace("−", "-")
    if result in ("=", "0"):
        delta = 0
    else:
        try:
            delta = int(result)
        except ValueError:
            raise NotationError(repr(words[2]), Reason.BAD_TRICKS) from None
        if not result.startswith(("+", "-")):  # a bare number is the tricks taken
            delta = delta - contract.tricks_needed
    honours: dict[Side, int] = {}
    for word in words[3:]:
        key = word.upper()
        points, side = key[:3], key[3:]
        if points not in ("100", "150") or side not in SIDE_WORDS:
            raise RubberError(repr(word), BridgeReason.BAD_HONOURS)
        honours[SIDE_WORDS[side]] = int(points)
    return Entry(contract, declarer, contract.tricks_needed + delta, honours)
