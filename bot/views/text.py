"""User-chosen text (names, group titles, currencies) as safe HTML: the one place it is made so.

Every message is sent with parse_mode HTML, and Telegram refuses a message with a stray ``<``
or ``&``, so a name like ``Anna <3`` would make the bot's message vanish. A right-to-left name
is wrapped in Unicode isolates so it cannot reorder the line around it, and a very long name is
cut so a table still fits a phone.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from functools import lru_cache
from html import escape

NAME_LIMIT = 40
FSI, PDI = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate


def user_text(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` escaped for HTML, cut to ``limit`` characters, RTL isolated."""
    plain = plain_text(text, limit)
    return escape(plain, quote=False)


KEPT_LENGTH = 256  # a name, a title, a currency: cleaned once and kept (``_kept``)


def plain_text(text: str, limit: int = NAME_LIMIT) -> str:
    """The same for places without markup (button labels, popups, picture captions)."""
    if len(text) <= KEPT_LENGTH:
        return _kept(text, limit)
    return _clean(text, limit)


def _clean(text: str, limit: int) -> str:
    cleaned = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf")).strip()
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1].rstrip() + "…"
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in cleaned):
        cleaned = f"{FSI}{cleaned}{PDI}"
    return cleaned or "?"


# Every screen of a table names its four players, and cleaning looks at each character: a
# short text is cleaned once and kept (at most a thousand, of at most ``KEPT_LENGTH``).
_kept = lru_cache(maxsize=1024)(_clean)


ROBOT_MARK = "🤖"
PHONE = 32  # display cells of a monospace line a phone shows whole


def cells(text: str) -> int:
    """The width of ``text`` in a monospaced block: a wide character (an emoji, a CJK letter)
    takes two cells; a combining mark or a format character (the RTL isolates) none.

    >>> cells("Аня"), cells("🤖1"), cells("\u2068שלום\u2069")
    (3, 3, 4)
    """
    return sum(
        0
        if unicodedata.combining(c) or unicodedata.category(c) == "Cf"
        else 2
        if unicodedata.east_asian_width(c) in "WF"
        else 1
        for c in text
    )


def fit(text: str, width: int) -> str:
    """``text`` cleaned as :func:`plain_text` and cut to ``width`` display cells (the cut
    marked "…"), for a monospace column; not escaped.

    >>> fit("Геннадий Петрович", 8), fit("Аня", 8), fit("🐻🐻🐻🐻🐻", 5)
    ('Геннади…', 'Аня', '🐻🐻…')
    """
    cleaned = plain_text(text, 10 * width).strip(FSI + PDI)
    if cells(cleaned) > width:
        cut = ""
        for c in cleaned:
            if cells(cut + c) > width - 1:
                break
            cut += c
        cleaned = cut.rstrip() + "…"
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in cleaned):
        cleaned = f"{FSI}{cleaned}{PDI}"
    return cleaned


def short_names(names: Mapping[int, str], width: int, robot: str = ROBOT_MARK) -> dict[int, str]:
    """Each seat's name cut to ``width`` cells for a sheet's column (its first word, so a
    column head is one word), every label distinct:
    robots (all called "🤖 Робот") become 🤖1, 🤖2 in seat order, and names that a cut makes
    equal get their seat's number. ``robot`` marks a robot where the emoji cannot be drawn
    (a picture's font has none).

    >>> short_names({0: "🤖 Робот", 1: "Аня", 2: "🤖 Робот"}, 6)
    {0: '🤖1', 1: 'Аня', 2: '🤖2'}
    >>> short_names({0: "Геннадий Петрович", 1: "Аня Б."}, 8)
    {0: 'Геннадий', 1: 'Аня'}
    >>> short_names({0: "Александра", 1: "Александр"}, 6)
    {0: 'Алек…1', 1: 'Алек…2'}
    """
    labels: dict[int, str] = {}
    robots = 0
    for seat in sorted(names):
        name = names[seat].strip()
        if name.startswith(ROBOT_MARK) or name == robot.strip():
            robots += 1
            labels[seat] = f"{robot}{robots}"
        else:
            labels[seat] = fit(_first_word(name), width)
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label] = seen.get(label, 0) + 1
    for seat, label in labels.items():
        if seen[label] > 1:
            number = str(seat + 1)
            labels[seat] = fit(_first_word(names[seat]), width - len(number)) + number
    return labels


def _first_word(name: str) -> str:
    words = plain_text(name).strip(FSI + PDI).split()
    return words[0] if words else "?"


def rich_table(rows: Sequence[Sequence[str]]) -> str:
    """A rich message's table (Bot API 10.1), the first row its head; the cells are HTML
    already (names escaped). A phone shows it as columns, not as a monospace block."""
    head, *body = rows
    cells = ["<tr>" + "".join(f"<th>{c}</th>" for c in head) + "</tr>"]
    cells += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in body]
    return "<table>" + "".join(cells) + "</table>"
