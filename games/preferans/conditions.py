"""A group's conditions (условия): a preset's values with the switches the group set
(PREFERANS.md §8). Fixed when a pulka starts; the auction, the whisting, the scoring and the
settlement read them, never the variant's name.

Switches are text, as a group types them and as the table stores them; ``Conditions.of``
resolves them over the preset and refuses anything else with ``PulkaError(BAD_CONDITIONS)``.

>>> c = Conditions.of("sochi", {"exit": "6-7-8", "progression": "1-2-4"})
>>> [c.lowest(k) for k in range(5)], [c.multiplier(k) for k in range(1, 5)]
([6, 6, 7, 8, 8], [1, 2, 4, 4])
>>> Conditions.of("stalingrad").text()["compulsory"]
'6S'
>>> Conditions.of("rostov", {"progression": "1-2-4"})
Traceback (most recent call last):
...
games.errors.PulkaError: progression: Rostov has no raspasy multiplier: bad_conditions
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.errors import PulkaError
from games.preferans.bids import Bid
from games.preferans.errors import PrefReason
from games.preferans.settlement import Variant

GREEDY, GENTLEMAN = "greedy", "gentleman"
CHOICE, OPEN, CLOSED = "choice", "open", "closed"

# Every switch and the values it takes, in the order a group reads them (§8's table).
SWITCHES: dict[str, tuple[str, ...]] = {
    "one_whister": (GREEDY, GENTLEMAN),
    "half_whist": ("on", "off"),
    "whist_play": (CHOICE, OPEN, CLOSED),
    "compulsory": ("none", "6S", "10", "6S+10"),
    "progression": ("1-2-3", "1-2-4", "flat"),
    "exit": ("6-6-6", "6-7-7", "6-7-8", "7-7-7", "7-8-8"),
}
PRESETS: dict[Variant, dict[str, str]] = {  # what each preset sets beyond the common values
    Variant.SOCHI: {"one_whister": GREEDY},
    Variant.LENINGRAD: {"one_whister": GENTLEMAN},
    Variant.ROSTOV: {"one_whister": GENTLEMAN},
    Variant.STALINGRAD: {"one_whister": GREEDY, "half_whist": "off", "compulsory": "6S"},
}
_COMMON = {
    "half_whist": "on",
    "whist_play": CHOICE,
    "compulsory": "none",
    "progression": "1-2-3",
    "exit": "6-6-6",
}
_PROGRESSIONS = {"1-2-3": (1, 2, 3), "1-2-4": (1, 2, 4), "flat": (1,)}


def preset(variant: str | Variant) -> dict[str, str]:
    """The preset's value of every switch (Rostov has no ``progression``)."""
    v = Variant.parse(variant)
    values = {**_COMMON, **PRESETS[v]}
    if v is Variant.ROSTOV:
        del values["progression"]
    return {key: values[key] for key in SWITCHES if key in values}


def from_options(options: Mapping[str, Any]) -> dict[str, str]:
    """The switches a table's options set (they sit beside ``variant`` and ``target``)."""
    return {key: str(options[key]) for key in SWITCHES if key in options}


def switches_of(variant: str | Variant) -> tuple[str, ...]:
    """The switches a pulka of ``variant`` has (a group's settings offer these)."""
    return tuple(preset(variant))


@dataclass(frozen=True, slots=True)
class Conditions:
    """Resolved conditions: every switch has its value (the preset's where the group set none)."""

    one_whister: str = GREEDY
    half_whist: bool = True
    whist_play: str = CHOICE
    compulsory: frozenset[str] = frozenset()  # "6S", "10"
    progression: tuple[int, ...] = (1, 2, 3)  # () in Rostov: no multiplier
    exit: tuple[int, ...] = (6, 6, 6)

    @classmethod
    def of(cls, variant: str | Variant, switches: Mapping[str, Any] | None = None) -> Conditions:
        """The preset of ``variant`` with ``switches`` (key → text) over it."""
        v = Variant.parse(variant)
        values = preset(v)
        for key, value in (switches or {}).items():
            key = str(key)
            if key not in SWITCHES:
                raise PulkaError(f"{key}: no such condition", PrefReason.BAD_CONDITIONS)
            if key not in values:
                raise PulkaError(
                    f"{key}: Rostov has no raspasy multiplier", PrefReason.BAD_CONDITIONS
                )
            text = normal(key, str(value))
            values[key] = text
        compulsory = values["compulsory"]
        return cls(
            one_whister=values["one_whister"],
            half_whist=values["half_whist"] == "on",
            whist_play=values["whist_play"],
            compulsory=frozenset() if compulsory == "none" else frozenset(compulsory.split("+")),
            progression=_PROGRESSIONS[values["progression"]] if "progression" in values else (),
            exit=tuple(int(n) for n in values["exit"].split("-")),
        )

    @classmethod
    def of_table(cls, options: Mapping[str, Any]) -> Conditions:
        """The conditions a table's options set: its variant's preset (Sochi unless the
        options name one) with the switches beside it."""
        return cls.of(str(options.get("variant", Variant.SOCHI.value)), from_options(options))

    def text(self) -> dict[str, str]:
        """Every switch as text, the form ``of`` reads (Rostov: no ``progression``)."""
        compulsory = "+".join(k for k in ("6S", "10") if k in self.compulsory) or "none"
        values = {
            "one_whister": self.one_whister,
            "half_whist": "on" if self.half_whist else "off",
            "whist_play": self.whist_play,
            "compulsory": compulsory,
            "exit": "-".join(map(str, self.exit)),
        }
        if self.progression:
            values["progression"] = next(
                k for k, v in _PROGRESSIONS.items() if v == self.progression
            )
        return {key: values[key] for key in SWITCHES if key in values}

    def changed(self, variant: str | Variant) -> dict[str, str]:
        """The switches whose value differs from ``variant``'s preset (what a header names)."""
        base = preset(variant)
        return {k: v for k, v in self.text().items() if base.get(k) != v}

    def multiplier(self, run: int) -> int:
        """§8 ``progression``: the raspasy multiplier of the ``run``-th raspasy in a row
        (1-based); 1 without a progression."""
        if not self.progression or run < 1:
            return 1
        return self.progression[min(run, len(self.progression)) - 1]

    def lowest(self, run: int) -> int:
        """§8 ``exit``: the lowest level that may be bid after ``run`` raspasy in a row."""
        if run < 1:
            return 6
        return self.exit[min(run, len(self.exit)) - 1]

    def compulsory_on(self, contract: Bid) -> bool:
        """Whether whisting ``contract`` is compulsory: ``6S`` is 6♠ only, ``10`` every ten."""
        if contract.is_misere:
            return False
        if "10" in self.compulsory and contract.level == 10:
            return True
        return "6S" in self.compulsory and str(contract) == "6S"


_WORDS = {
    "greedy": GREEDY, "жлобский": GREEDY, "жлоб": GREEDY, "жадный": GREEDY,
    "gentleman": GENTLEMAN, "джентльменский": GENTLEMAN, "джентльмен": GENTLEMAN,
    "on": "on", "вкл": "on", "да": "on", "yes": "on",
    "off": "off", "выкл": "off", "нет": "off", "no": "off",
    "choice": CHOICE, "выбор": CHOICE, "open": OPEN, "открыто": OPEN, "открытый": OPEN,
    "closed": CLOSED, "закрыто": CLOSED, "закрытый": CLOSED,
    "none": "none", "нет обязательного": "none", "-": "none",
    "6♠": "6S", "6s": "6S", "6п": "6S", "6♠+10": "6S+10", "6s+10": "6S+10", "6п+10": "6S+10",
    "1-2-3": "1-2-3", "1-2-4": "1-2-4", "flat": "flat", "1-1-1": "flat", "ровно": "flat",
}  # fmt: skip


def normal(key: str, text: str) -> str:
    """A switch's value as ``SWITCHES`` spells it, from what a person typed
    (``6♠`` → ``6S``, ``жлобский`` → ``greedy``); PulkaError for a value the switch lacks.

    >>> normal("exit", " 6-7-8 "), normal("one_whister", "Джентльменский")
    ('6-7-8', 'gentleman')
    """
    allowed = SWITCHES.get(key)
    if allowed is None:
        raise PulkaError(f"{key}: no such condition", PrefReason.BAD_CONDITIONS)
    word = text.strip()
    if key == "compulsory" and word.lower() in ("нет", "no", "off"):
        word = "none"
    word = _WORDS.get(word.lower(), word)
    if word not in allowed:
        raise PulkaError(f"{key}={text!r}", PrefReason.BAD_CONDITIONS)
    return word
