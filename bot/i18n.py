"""Translations: one gettext catalogue (``locale/<lang>/LC_MESSAGES/messages.po``) per language.

Message ids are stable keys (``table.title``), read with Babel's PO reader so no compile step is
needed. A ``Translator`` is chosen per update and passed explicitly: no global ``_`` whose
language two updates in flight would share.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from gettext import c2py
from pathlib import Path
from typing import Any, TypeVar, cast

from babel.messages.pofile import read_po

LANGUAGES = ("ru", "en")
LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}  # each in itself
DEFAULT = "ru"
LOCALE_DIR = Path(__file__).parent / "locale"


@dataclass(frozen=True, slots=True)
class _Catalogue:
    """A language's messages; a message with plural forms (``msgid_plural``) holds one text a
    form, chosen by the catalogue's own Plural-Forms rule (Russian has three)."""

    texts: dict[str, str]
    plurals: dict[str, tuple[str, ...]]
    form: Callable[[int], int]


# Plug-ins' own catalogues (``add_words``), read after the shipped one. They join once, when the
# application is built, as a game joins the games' registry; a Translator stays a plain value.
_WORDS: list[Path] = []


# What is read from the words and kept (``from_words``): forgotten when words join.
_KEPT: list[Any] = []
_F = TypeVar("_F", bound=Callable[..., Any])


def add_words(directory: Path) -> None:
    """A plug-in's own catalogue, ``<directory>/<language>.po`` per language it speaks: a new
    game's words live in its own package. A key the shipped catalogue has is refused."""
    if directory not in _WORDS:
        _WORDS.append(directory)
        _load.cache_clear()
        forget()


def forget() -> None:
    """Everything kept from the words (``from_words``) forgotten: when words join, and for a
    benchmark that draws each round as a bot's first press would."""
    for kept in _KEPT:
        kept.cache_clear()


def from_words(function: _F) -> _F:
    """``function``, a pure function of its arguments and the words (a card's or a seat's
    name in a language), remembered: a table's screens name the same cards and seats dozens
    of times a press. Bounded; forgotten when a plug-in's words join (``add_words``)."""
    kept = lru_cache(maxsize=4096)(function)
    _KEPT.append(kept)
    return cast(_F, kept)


@cache
def _load(language: str) -> _Catalogue:
    shipped = _read(LOCALE_DIR / language / "LC_MESSAGES" / "messages.po", language)
    texts, plurals = dict(shipped.texts), dict(shipped.plurals)
    for directory in _WORDS:
        path = directory / f"{language}.po"
        if path.exists():
            own = _read(path, language)
            clash = (own.texts.keys() | own.plurals.keys()) & (texts.keys() | plurals.keys())
            if clash:
                raise ValueError(f"{path} words keys the bot has: {sorted(clash)}")
            texts.update(own.texts)
            plurals.update(own.plurals)
    return _Catalogue(texts, plurals, shipped.form)


def _read(path: Path, language: str) -> _Catalogue:
    """One PO file's messages, by key; a counted one with its forms."""
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=language)
    texts: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for m in catalog:
        if not m.id or not m.string:
            continue
        if isinstance(m.id, tuple | list):
            plurals[str(m.id[0])] = tuple(str(s) for s in m.string)
        else:
            texts[str(m.id)] = str(m.string)
    return _Catalogue(texts, plurals, c2py(catalog.plural_expr))


def resolve(language_code: str | None, fallback: str = DEFAULT) -> str:
    """Our language for a Telegram ``language_code`` ("ru", "en-GB", …), else ``fallback``."""
    code = (language_code or "").split("-")[0].lower()
    return code if code in LANGUAGES else fallback


@dataclass(frozen=True, slots=True)
class Translator:
    language: str

    def __call__(self, key: str, **values: Any) -> str:
        """The message ``key`` with ``values`` in it; a counted message takes its form from
        ``count`` (Russian: "21 партия", "22 партии", "25 партий"; English: "1 trick")."""
        if not values:
            return _filled(self.language, key, ())
        items = tuple(values.items())
        # Kept only for text and whole numbers: 2 and 2.0 (or 1 and True) are equal keys of a
        # cache, and would be written as the first of them asked.
        if all(type(v) is str or type(v) is int for _, v in items):
            return _filled(self.language, key, items)
        return _lookup(self.language, key, values)


@from_words  # bounded: a key may be built from a stale or hostile button
def _filled(language: str, key: str, values: tuple[tuple[str, Any], ...]) -> str:
    """A message with its values (or none), looked up once and kept: a table's screens ask for
    the same seat and rank words dozens of times a press, and say whose turn it is, the
    contract and the trick with the same values on each of them."""
    return _lookup(language, key, dict(values))


def _lookup(language: str, key: str, values: dict[str, Any]) -> str:
    for code in (language, "en"):
        found = _load(code)
        forms = found.plurals.get(key)
        if forms is not None:
            count = values.get("count")
            if not isinstance(count, int):
                raise TypeError(f"{key} is counted: give it count=")
            form = forms[min(found.form(abs(count)), len(forms) - 1)]
            return form.format(**values)
        text = found.texts.get(key)
        if text is not None:
            return text.format(**values) if values else text
    return key


def has(language: str, key: str) -> bool:
    """Whether the catalogue of ``language`` (or English, which every key has) holds ``key``."""
    return any(key in _load(code).texts or key in _load(code).plurals for code in (language, "en"))


def translator(language: str | None, *fallbacks: str | None) -> Translator:
    """The one way to choose a translator: the first of ``language`` and ``fallbacks`` that we
    speak (a person's own language, then their table's, then the bot's default)."""
    for code in (language, *fallbacks):
        found = resolve(code, "")
        if found:
            return Translator(found)
    return Translator(DEFAULT)


def keys(language: str) -> set[str]:
    found = _load(language)
    return set(found.texts) | set(found.plurals)


def plural_forms(language: str) -> dict[str, tuple[str, ...]]:
    """The counted messages and their forms (for the catalogue tests)."""
    return dict(_load(language).plurals)
