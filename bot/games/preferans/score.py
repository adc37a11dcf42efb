"""What a deal wrote on the pulka, the standing before a deal, the pulka's end and its picture."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from telegram import InputFile

from bot.callback_data import Act, Button
from bot.games.preferans.pictures import NAME, pulka_figure
from bot.games.preferans.state import (
    names_of,
    pulka_options,
)
from bot.games.preferans.views import (
    breakdown,
    conditions_text,
    count_text,
    pulka_block,
    settings_text,
    settlement_lines,
)
from bot.i18n import Translator
from bot.rendered import Key, Rendered
from bot.screens import FilePoster
from bot.tables import (
    MatchFinished,
    Snapshot,
)
from bot.views.amounts import money
from bot.views.pictures import picture_names, png_of
from bot.views.text import user_text
from games.preferans.conditions import Conditions
from games.preferans.deal import Kind, Result
from games.preferans.game import PulkaMatch
from storage.interface import is_practice


def standing_lines(snap: Snapshot, names: Mapping[int, str], t: Translator) -> list[str]:
    """The table message's seats: each player's pool and gora as the pulka stands before this
    deal (whists are on the sheet), and the pulka's settings."""
    match = snap.match
    if not isinstance(match, PulkaMatch):
        return []
    sheet = match.pulka.state()
    standing = " · ".join(
        t("pref.standing", name=user_text(names.get(seat, "—")), pool=pool, gora=gora)
        for seat, (pool, gora) in enumerate(zip(sheet["pool"], sheet["gora"], strict=True))
    )
    return [*settings_lines(snap, t), standing]


def post_pulka_picture(
    poster: FilePoster, snap: Snapshot, match: PulkaMatch, t: Translator
) -> None:
    """The sheet drawn as on paper, off the event loop; it keeps its place in the chat's queue."""
    sheet = match.pulka.state()
    pool, gora = list(sheet["pool"]), list(sheet["gora"])
    whists = [list(r) for r in sheet["whists"]]
    names = picture_names({s: h.name for s, h in snap.seats.items()}, NAME, t)
    title = t("pref.picture_title", number=snap.table_id)
    caption = t("pref.picture_caption")

    async def draw() -> InputFile:
        png = await asyncio.to_thread(
            lambda: png_of(pulka_figure(pool, gora, whists, names, match.pulka.target, title))
        )
        return InputFile(png, filename="pulka.png")

    poster.post_file(snap.chat.tg_chat_id, snap.topic_id, "sendPhoto", "photo", draw(), caption)


def written_lines(
    before: Any, after: PulkaMatch, names: Mapping[int, str], t: Translator
) -> list[str]:
    """What the deal wrote, as players read it off the sheet: each player's pool and gora
    added, the whists they wrote on each of the others, and who helped whom (§6)."""
    if not isinstance(before, PulkaMatch):
        return []
    old, new = before.pulka.state(), after.pulka.state()
    parts = []
    for seat in range(len(new["pool"])):
        name = user_text(names.get(seat, "—"))
        pool = new["pool"][seat] - old["pool"][seat]
        gora = new["gora"][seat] - old["gora"][seat]
        items = []
        if pool:
            items.append(t("pref.written.pool", n=count_text(pool, True)))
        if gora:
            items.append(t("pref.written.gora", n=count_text(gora, True)))
        for other in range(len(new["pool"])):
            whists = new["whists"][seat][other] - old["whists"][seat][other]
            if whists:
                on = user_text(names.get(other, "—"))
                items.append(t("pref.written.whists", n=count_text(whists, True), name=on))
        if items:
            parts.append(f"{name}: {', '.join(items)}")
    lines = [t("pref.written", parts="; ".join(parts))] if parts else []
    for help_ in after.pulka.last_help:  # §6: a full pool helps the others, named
        lines.append(
            t(
                "pref.helped",
                helper=user_text(names.get(help_.helper, "—")),
                helped=user_text(names.get(help_.helped, "—")),
                n=count_text(help_.amount, True),
            )
        )
    return lines


def raspasy_times(result: Result, before: Any, after: PulkaMatch, t: Translator) -> list[str]:
    """Raspasy in a row cost more (×2, ×3 in Sochi and Leningrad): say so, read off what the
    deal wrote on the gora of whoever took a trick."""
    if result.kind is not Kind.RASPASY or not isinstance(before, PulkaMatch):
        return []
    old, new = before.pulka.state()["gora"], after.pulka.state()["gora"]
    for seat, taken in (result.tricks or {}).items():
        if taken:
            times = Fraction(new[seat] - old[seat]) / taken
            return [t("pref.raspasy_times", times=int(times))] if times > 1 else []
    return []


def settings_line(snap: Snapshot, t: Translator) -> str:
    """Variant, pool target, players, and the price of a whist when the group set one."""
    variant, target, players = pulka_options(snap.settings.options)
    line = settings_text(variant, target, players, t)
    group = snap.chat.settings
    if group.price(snap.game.unit):
        price = money(group.price(snap.game.unit), 1, group.currency, False, t("number.decimal"))
        line += ", " + t("pref.price_line", price=price)
    return line


def settings_lines(snap: Snapshot, t: Translator) -> list[str]:
    """The settings line, and under it the conditions that differ from the variant's preset
    (§8): what a player joining the table must know before the first deal."""
    variant = pulka_options(snap.settings.options)[0]
    short = conditions_text(Conditions.of_table(snap.settings.options), variant, t)
    return [settings_line(snap, t), *([short] if short else [])]


def pulka_result(snap: Snapshot, notice: MatchFinished, t: Translator) -> Rendered:
    """The pulka closed: the sheet as it ended, each player's whists (and money when the group
    prices a whist), the group's running accounts, and what to do next."""
    lines = settlement_lines(
        notice.unfinished,
        notice.entries,
        notice.balances,
        notice.names,
        snap.chat.settings,
        t,
        practice=is_practice(notice.unit),
    )
    if isinstance(notice.match, PulkaMatch):
        lines.insert(1, pulka_block(notice.match.pulka, names_of(snap), t))
        lines.append(breakdown(notice.match.pulka, names_of(snap), t))
    keys = (
        (
            Key(t("pref.button.next"), Button(snap.table_id, 0, Act.NEXT_MATCH).encode()),
            Key(t("pref.button.new_seats"), Button(snap.table_id, 0, Act.NEW_PARTNERS).encode()),
        ),
        (Key(t("button.stand_up"), Button(snap.table_id, 0, Act.STAND_UP).encode()),),
    )
    return Rendered("\n".join(lines), keys)
