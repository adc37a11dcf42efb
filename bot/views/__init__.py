"""Pure views: (state, viewer, language) -> text and keyboard. No awaits, no Bot, no I/O."""

from __future__ import annotations

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
