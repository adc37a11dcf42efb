"""Pure views: (state, viewer, language) -> text and keyboard. No awaits, no Bot, no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Key:
    """One inline button: callback ``data`` or a ``url`` (deep link)."""

    label: str
    data: str = ""
    url: str = ""


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message as the bot wants it to look; equal values mean no edit is needed."""

    text: str
    keys: tuple[tuple[Key, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of a setting offered in /settings: its button's ``label``, the ``value``
    it sets (``key=value``), and whether it is the setting's value now (shown ✓)."""

    label: str
    value: str
    chosen: bool = False


def key_rows(keys: Sequence[Key], width: int) -> list[tuple[Key, ...]]:
    """Buttons laid out ``width`` to a row, as a phone shows them."""
    return [tuple(keys[i : i + width]) for i in range(0, len(keys), width)]
