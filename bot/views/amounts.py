"""Points and money as the group reads them, for every game's messages and the ledger."""

from __future__ import annotations

from collections.abc import Mapping

from bot.views.text import user_text


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else (f"−{-points}" if points < 0 else "0")


def money(points: int, stake: int, currency: str) -> str:
    """Points at ``stake`` per 100 points, e.g. ``+30 RUB``; empty when no stake is set."""
    if not stake:
        return ""
    amount = points * stake / 100
    text = f"{amount:+.2f}".rstrip("0").rstrip(".").replace("-", "−")
    return f"{text} {user_text(currency)}".strip()


def account_lines(
    balances: Mapping[int, int], names: Mapping[int, str], stake: int, currency: str
) -> list[str]:
    lines = []
    for pid, points in sorted(balances.items(), key=lambda kv: -kv[1]):
        if pid not in names:
            continue
        cash = money(points, stake, currency)
        lines.append(
            f"  {user_text(names[pid])}: {signed(points)}" + (f" ({cash})" if cash else "")
        )
    return lines
