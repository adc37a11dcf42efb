"""Translations: one gettext catalogue (``locale/<lang>/LC_MESSAGES/messages.po``) per language.

Message ids are stable keys (``table.title``), read with Babel's PO reader so no compile step is
needed. A ``Translator`` is chosen per update and passed explicitly: no global ``_`` whose
language two updates in flight would share.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

LANGUAGES = ("ru", "en")
DEFAULT = "ru"
LOCALE_DIR = Path(__file__).parent / "locale"


@cache
def _catalogue(language: str) -> dict[str, str]:
    with open(LOCALE_DIR / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalog = read_po(handle, locale=language)
    return {str(m.id): str(m.string) for m in catalog if m.id and m.string}


def resolve(language_code: str | None, fallback: str = DEFAULT) -> str:
    """Our language for a Telegram ``language_code`` ("ru", "en-GB", …), else ``fallback``."""
    code = (language_code or "").split("-")[0].lower()
    return code if code in LANGUAGES else fallback


@dataclass(frozen=True, slots=True)
class Translator:
    language: str

    def __call__(self, key: str, **values: Any) -> str:
        text = _catalogue(self.language).get(key)
        if text is None:
            text = _catalogue("en").get(key, key)
        return text.format(**values) if values else text


def translator(language: str | None, *fallbacks: str | None) -> Translator:
    """The one way to choose a translator: the first of ``language`` and ``fallbacks`` that we
    speak (a person's own language, then their table's, then the bot's default)."""
    for code in (language, *fallbacks):
        found = resolve(code, "")
        if found:
            return Translator(found)
    return Translator(DEFAULT)


def keys(language: str) -> set[str]:
    return set(_catalogue(language))
