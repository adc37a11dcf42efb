"""Help, welcome, settings and short replies."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.callback_data import Act, Button
from bot.i18n import Translator
from bot.views import Key, Rendered
from bot.views.score import money
from storage.interface import TableSettings


def render_help(t: Translator) -> Rendered:
    return Rendered(t("help.text"))


def render_welcome(
    t: Translator, name: str, tables: Sequence[tuple[int, str]], balances: Sequence[tuple[str, int]]
) -> Rendered:
    """/start in private: who we are, the player's open tables and balance in each group."""
    lines = [t("welcome.hello", name=escape(name)), t("welcome.about")]
    if tables:
        lines.append(t("welcome.tables"))
        lines.extend(f"  #{number} — {escape(title or '—')}" for number, title in tables)
    else:
        lines.append(t("welcome.no_tables"))
    if balances:
        lines.append(t("welcome.balances"))
        lines.extend(f"  {escape(title or '—')}: {points:+d}" for title, points in balances)
    return Rendered("\n".join(lines))


def render_settings(table_id: int, settings: TableSettings, t: Translator) -> Rendered:
    """/settings: the table's choices, each a button that switches it."""
    stake = (
        t("settings.stake", stake=settings.stake, currency=escape(settings.currency))
        if settings.stake
        else t("settings.no_stake")
    )
    lines = [
        t("settings.title", number=table_id),
        t("settings.rules", rules=t(f"rules.{settings.rules}")),
        t("settings.part", part=settings.unfinished_part_score),
        stake + " " + money(100, settings.stake, settings.currency),
        t("settings.language", language=settings.language),
        t("settings.stake_hint"),
    ]
    other_rules = "classic" if settings.rules == "modern" else "modern"
    other_part = 50 if settings.unfinished_part_score == 100 else 100
    other_language = "en" if settings.language == "ru" else "ru"

    def key(label: str, value: str) -> Key:
        return Key(label, Button(table_id, 0, Act.SETTING, value).encode())

    keys = (
        (key(t("settings.switch_rules", rules=t(f"rules.{other_rules}")), f"rules={other_rules}"),),
        (key(t("settings.switch_part", part=other_part), f"part={other_part}"),),
        (key(t("settings.switch_language", language=other_language), f"lang={other_language}"),),
    )
    return Rendered("\n".join(lines), keys)
