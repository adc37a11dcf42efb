"""Points and money as the group reads them, for every game's messages and the ledger: money
first when the group has a stake, thin spaces between thousands, a real minus sign."""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import Translator, has
from bot.views.text import user_text
from storage.interface import CENTS, PRACTICE, ChatSettings, is_practice

THIN = "\u202f"  # a narrow no-break space between thousands: 12 300
MINUS = "−"

# The unit of what names none: the first releases kept bridge alone, and their "paid" buttons
# and amounts said no unit. Storage names no unit; this is the bot's reading of old data.
POINTS = "points"


def number(value: int) -> str:
    text = f"{abs(value):,}".replace(",", THIN)
    return MINUS + text if value < 0 else text


def signed(points: int) -> str:
    return "+" + number(points) if points > 0 else number(points)


def money(points: int, stake: int, currency: str, sign: bool = True, decimal: str = ".") -> str:
    """Points at ``stake`` per 100 points, e.g. ``+30 RUB``; empty when no stake is set.
    ``decimal``: the language's mark before the hundredths (Russian writes ``41,5 ₽``)."""
    if not stake:
        return ""
    cents = points * stake  # hundredths of the currency
    whole, part = divmod(abs(cents), 100)
    text = number(whole) + (f"{decimal}{part:02d}".rstrip("0") if part else "")
    if cents < 0:
        text = MINUS + text
    elif cents > 0 and sign:
        text = "+" + text
    return f"{text} {user_text(currency)}".strip()


def amount(
    points: int,
    group: ChatSettings,
    t: Translator,
    sign: bool = False,
    unit: str = POINTS,
    label: bool = False,
) -> str:
    """``120 ₽ (1 200 pts)`` when the group prices the unit, else the count alone (points bare
    unless ``label``: beside whists they need their name); money (``cents``) as money."""
    shown = signed(points) if sign else number(points)
    if unit == CENTS:
        return money(points, 1, group.currency, sign, t("number.decimal")) or "0"
    count = _count(shown, points, unit, t)
    price = group.price(unit)
    if not price:
        return shown if unit == POINTS and not label else count
    return f"{money(points, price, group.currency, sign, t('number.decimal'))} ({count})"


def holding(
    amounts: Mapping[str, int],
    group: ChatSettings,
    t: Translator,
    sign: bool = True,
    label: bool = False,
) -> str:
    """One player's account over every unit: one unit as ``amount`` shows it; several as their
    money total with each count beside it when all are priced, else each count."""
    live = {unit: value for unit, value in amounts.items() if value}
    if not live:  # square: nought, in the account's unit when it has one
        units = sorted(amounts)
        return amount(0, group, t, False, units[0], label=True) if units else "0"
    if len(live) == 1:
        ((unit, value),) = live.items()
        return amount(value, group, t, sign, unit, label)
    if group.priced_together(live):
        total = sum(value * group.price(unit) for unit, value in live.items())
        parts = [
            _count(signed(value), value, unit, t)
            for unit, value in sorted(live.items())
            if unit != CENTS
        ]
        cash = money(total, 1, group.currency, sign, t("number.decimal"))
        return f"{cash or '0'} ({' · '.join(parts)})"
    return " · ".join(
        amount(value, group, t, sign, unit, label=True) for unit, value in sorted(live.items())
    )


def _count(shown: str, value: int, unit: str, t: Translator) -> str:
    """A number already written out (``shown``), with its unit's name (``amount.<unit>`` in
    the catalogue, the game's word) in the form the number takes: ``+12 вистов``, ``1 whist``,
    ``1 200 pts``. A game's practice unit without a word of its own (``practice_<unit>``)
    takes its unit's."""
    key = f"amount.{unit}"
    if is_practice(unit) and not has(t.language, key):
        key = f"amount.{unit.removeprefix(PRACTICE + '_')}"
    return t(key, count=abs(value), amount=shown)


def by_player(accounts: Mapping[str, Mapping[int, int]]) -> dict[int, dict[str, int]]:
    """unit -> player -> amount, turned to player -> unit -> amount."""
    found: dict[int, dict[str, int]] = {}
    for unit, balances in accounts.items():
        for pid, value in balances.items():
            found.setdefault(pid, {})[unit] = value
    return found


def worth(amounts: Mapping[str, int], group: ChatSettings) -> tuple[int, int]:
    """A key to order players by: money when priced, else the counts."""
    cash = sum(value * group.price(unit) for unit, value in amounts.items())
    return cash, sum(amounts.values())


def account_lines(
    accounts: Mapping[str, Mapping[int, int]],
    names: Mapping[int, str],
    group: ChatSettings,
    t: Translator,
) -> list[str]:
    """The running accounts, best first (``accounts``: unit -> player -> amount)."""
    players = by_player(accounts)
    lines = []
    for pid, amounts in sorted(
        players.items(), key=lambda kv: tuple(-x for x in worth(kv[1], group))
    ):
        if pid not in names:
            continue
        lines.append(f"  {user_text(names[pid])}: {holding(amounts, group, t)}")
    return lines
