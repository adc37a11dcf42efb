"""Points and money as the group reads them, for every game's messages and the ledger: money
first when the group has a stake, thin spaces between thousands, a real minus sign."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import Translator
from bot.views.text import user_text
from storage.interface import ChatSettings

THIN = "\u202f"  # a narrow no-break space between thousands: 12 300
MINUS = "−"


def number(value: int) -> str:
    text = f"{abs(value):,}".replace(",", THIN)
    return MINUS + text if value < 0 else text


def signed(points: int) -> str:
    return "+" + number(points) if points > 0 else number(points)


def money(points: int, stake: int, currency: str, sign: bool = True) -> str:
    """Points at ``stake`` per 100 points, e.g. ``+30 RUB``; empty when no stake is set."""
    if not stake:
        return ""
    cents = points * stake  # hundredths of the currency
    whole, part = divmod(abs(cents), 100)
    text = number(whole) + (f".{part:02d}".rstrip("0") if part else "")
    if cents < 0:
        text = MINUS + text
    elif cents > 0 and sign:
        text = "+" + text
    return f"{text} {user_text(currency)}".strip()


def amount(points: int, group: ChatSettings, t: Translator, sign: bool = False) -> str:
    """``120 ₽ (1 200 pts)`` when the group has a stake, else the points alone."""
    shown = signed(points) if sign else number(points)
    if not group.stake:
        return shown
    cash = money(points, group.stake, group.currency, sign)
    return f"{cash} ({t('amount.points', points=shown)})"


def account_lines(
    balances: Mapping[int, int], names: Mapping[int, str], group: ChatSettings, t: Translator
) -> list[str]:
    lines = []
    for pid, points in sorted(balances.items(), key=lambda kv: -kv[1]):
        if pid not in names:
            continue
        lines.append(f"  {user_text(names[pid])}: {amount(points, group, t, sign=True)}")
    return lines
