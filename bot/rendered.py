"""What a message looks like, as values: its text and buttons (``Rendered``, ``Key``), and a
setting's choices (``Choice``). The views make them, the outbox sends them, and a plug-in's UI
returns them; nothing here knows Telegram or a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

URGENT, TABLE, WAITING = 0, 1, 2  # a message's priority under the overall cap, most urgent first


class Key(NamedTuple):
    """One inline button: callback ``data``, a ``url`` (deep link), or ``disabled``: shown
    greyed out and doing nothing (Bot API 10.3), as a card that may not be played now. A
    named tuple, not a frozen dataclass: a press makes dozens (a bidding box has 38), and a
    named tuple is made in a third of the time."""

    label: str
    data: str = ""
    url: str = ""
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message as the bot wants it to look; equal values mean no edit is needed. ``rich``:
    the same as a rich message (Bot API 10.1: real tables), sent instead of ``text`` where
    Telegram takes it; ``text`` stays the fallback."""

    text: str
    keys: tuple[tuple[Key, ...], ...] = ()
    rich: str = ""


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


# A kept message's content, or how to draw it when it is sent: a waiting player's screen is
# drawn only if its turn to go comes (the others' play meanwhile replaces it, undrawn).
Content = Rendered | Callable[[], Rendered]
