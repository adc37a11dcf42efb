"""User-chosen text (names, group titles, currencies) as safe HTML: the one place it is made so.

Every message is sent with parse_mode HTML, and Telegram refuses a message with a stray ``<``
or ``&``, so a name like ``Anna <3`` would make the bot's message vanish. A right-to-left name
is wrapped in Unicode isolates so it cannot reorder the line around it, and a very long name is
cut so a table still fits a phone.
"""

from __future__ import annotations

import unicodedata
from html import escape

NAME_LIMIT = 40
FSI, PDI = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate


def user_text(text: str, limit: int = NAME_LIMIT) -> str:
    """``text`` escaped for HTML, cut to ``limit`` characters, RTL isolated."""
    plain = plain_text(text, limit)
    return escape(plain, quote=False)


def plain_text(text: str, limit: int = NAME_LIMIT) -> str:
    """The same for places without markup (button labels, popups, picture captions)."""
    cleaned = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf")).strip()
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1].rstrip() + "…"
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in cleaned):
        cleaned = f"{FSI}{cleaned}{PDI}"
    return cleaned or "?"
