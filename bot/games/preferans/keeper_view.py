"""The pulka keeper's message: the sheet so far and the entry wizard under it.

The wizard's state travels in its buttons (``pk`` with the entry so far), so there is no
server-side session. A game: ``g`` → declarer ``g0`` → contract ``g0.7H`` → the defenders'
words ``g0.7H.wp`` → declarer's tricks ``g0.7H.wp.7`` → the first defender's ``g0.7H.wp.7.2``.
Not played (both passed, or pass and half): saved at the words. Misère: ``m`` → ``m1`` →
``m1.0``. Raspasy: ``r`` → ``r3`` → ``r3.5`` (the third takes the rest).
"""

from __future__ import annotations

import re

from bot.callback_data import Button
from bot.games.preferans.buttons import KEEP, KEEP_UNDO
from bot.games.preferans.scorekeeper import PulkaSheet, active_of, dealer_of, seat_names
from bot.games.preferans.views import (
    bid_text,
    breakdown,
    conditions_text,
    pulka_block,
    settings_text,
    settlement_lines,
)
from bot.i18n import Translator
from bot.rendered import Key, Rendered, key_rows
from bot.views.text import plain_text, user_text
from games.preferans.bids import ALL_BIDS, Bid
from games.preferans.entry import Entry

STAGE = re.compile(
    r"^(?:"
    r"g(?:(\d)(?:\.(\d{1,2}[SCDHN]T?)(?:\.(ww|wp|pw|pp|ph)(?:\.(\d{1,2})(?:\.(\d{1,2}))?)?)?)?)?"
    r"|m(?:(\d)(?:\.(\d{1,2}))?)?"
    r"|r(?:(\d{1,2})(?:\.(\d{1,2}))?)?"
    r")$"
)
WORDS = {"w": "whist", "p": "pass", "h": "half"}
TRICKS = 10


class BadStage(ValueError):
    """Wizard data no wizard of ours produced."""


def _number(text: str | None, top: int = TRICKS) -> int:
    value = int(text or "0")
    if value > top:
        raise BadStage(text)
    return value


def entry_of(arg: str, sheet: PulkaSheet) -> Entry | None:
    """The entry the wizard's data completes, None while it is still being filled; BadStage
    for data no wizard of ours made (the rules check the rest when it is written)."""
    match = STAGE.match(arg)
    if match is None or not arg:
        raise BadStage(arg)
    g_seat, g_bid, g_words, g_mine, g_first, m_seat, m_tricks, r_a, r_b = match.groups()
    active = active_of(sheet)
    if arg[0] == "r":
        if r_b is None:
            return None
        a, b = _number(r_a), _number(r_b)
        if a + b > TRICKS:
            raise BadStage(arg)
        return Entry("raspasy", tricks=(a, b, TRICKS - a - b))
    if arg[0] == "m":
        if m_tricks is None:
            return None
        return Entry("misere", declarer=_seat(m_seat, active), tricks=(_number(m_tricks),))
    if g_words is None:
        if g_bid is not None:
            Bid.parse(g_bid)  # NotationError for junk
        return None
    declarer = _seat(g_seat, active)
    contract = Bid.parse(g_bid or "")
    whist = (WORDS[g_words[0]], WORDS[g_words[1]])
    if g_words in ("pp", "ph"):
        return Entry("game", declarer, contract, whist)
    if g_first is None:
        return None
    mine, first = _number(g_mine), _number(g_first)
    if mine + first > TRICKS:
        raise BadStage(arg)
    at = active.index(declarer)
    by_seat = {declarer: mine, active[(at + 1) % 3]: first}
    by_seat[active[(at + 2) % 3]] = TRICKS - mine - first
    return Entry("game", declarer, contract, whist, tuple(by_seat[s] for s in active))


def _seat(text: str | None, active: tuple[int, ...]) -> int:
    seat = int(text or "-1")
    if seat not in active:
        raise BadStage(text)
    return seat


def _key(sheet: PulkaSheet, label: str, arg: str = "", act: str = KEEP) -> Key:
    return Key(label, Button(sheet.table.id, sheet.count, act, arg).encode())


def _name(sheet: PulkaSheet, seat: int) -> str:
    return seat_names(sheet).get(seat, "—")


def wizard(sheet: PulkaSheet, arg: str, t: Translator) -> tuple[str, list[tuple[Key, ...]]]:
    """The prompt and the buttons for the next field of the entry."""
    active = active_of(sheet)
    back = (_key(sheet, t("keeper.cancel")),)
    if not arg:
        rows: list[tuple[Key, ...]] = [
            (
                _key(sheet, t("pref.keeper.game"), "g"),
                _key(sheet, t("pref.misere"), "m"),
                _key(sheet, t("pref.raspasy_short"), "r"),
            )
        ]
        if sheet.results:
            rows.append((_key(sheet, t("keeper.undo"), act=KEEP_UNDO),))
        return t("pref.keeper.ask_kind"), rows
    match = STAGE.match(arg)
    assert match is not None
    g_seat, g_bid, g_words, g_mine, _, m_seat, _, r_a, _ = match.groups()
    if arg in ("g", "m"):
        keys = [_key(sheet, plain_text(_name(sheet, s))[:24], f"{arg}{s}") for s in active]
        return t("pref.keeper.ask_declarer"), [*key_rows(keys, 3), back]
    if arg[0] == "m":
        keys = [_key(sheet, str(n), f"{arg}.{n}") for n in range(TRICKS + 1)]
        who = _name(sheet, int(m_seat))
        return t("pref.keeper.ask_misere", name=user_text(who)), [*key_rows(keys, 6), back]
    if arg[0] == "r":
        seat = active[0] if r_a is None else active[1]
        top = TRICKS if r_a is None else TRICKS - int(r_a)
        prefix = "r" if r_a is None else f"{arg}."
        keys = [_key(sheet, str(n), f"{prefix}{n}") for n in range(top + 1)]
        ask = t("pref.keeper.ask_tricks", name=user_text(_name(sheet, seat)))
        return ask, [*key_rows(keys, 6), back]
    declarer = int(g_seat)
    at = active.index(declarer)
    first, second = active[(at + 1) % 3], active[(at + 2) % 3]
    pulka = sheet.match.pulka
    rules = pulka.conditions
    if g_bid is None:
        floor = rules.lowest(pulka.raspasy_run)  # §8: after raspasy, from the exit up
        keys = [
            _key(sheet, bid_text(bid, t), f"{arg}.{bid}")
            for bid in ALL_BIDS
            if not bid.is_misere and bid.level >= floor
        ]
        return t("pref.keeper.ask_contract"), [*key_rows(keys, 5), back]
    if g_words is None:
        bid = Bid.parse(g_bid)
        half = bid.level in (6, 7) and rules.half_whist
        pairs = ["ww"] if rules.compulsory_on(bid) else ["ww", "wp", "pw", "pp"]
        pairs += ["ph"] if half and len(pairs) > 1 else []
        keys = [
            _key(sheet, f"{t(f'pref.word.{WORDS[p[0]]}')}/{t(f'pref.word.{WORDS[p[1]]}')}",
                 f"{arg}.{p}")
            for p in pairs
        ]  # fmt: skip
        ask = t(
            "pref.keeper.ask_whist",
            first=user_text(_name(sheet, first)),
            second=user_text(_name(sheet, second)),
        )
        return ask, [*key_rows(keys, 3), back]
    if g_mine is None:
        keys = [_key(sheet, str(n), f"{arg}.{n}") for n in range(TRICKS + 1)]
        ask = t("pref.keeper.ask_tricks", name=user_text(_name(sheet, declarer)))
        return ask, [*key_rows(keys, 6), back]
    keys = [_key(sheet, str(n), f"{arg}.{n}") for n in range(TRICKS - int(g_mine) + 1)]
    ask = t("pref.keeper.ask_tricks", name=user_text(_name(sheet, first)))
    return ask, [*key_rows(keys, 6), back]


def render_pulka_keeper(sheet: PulkaSheet, arg: str, t: Translator, note: str = "") -> Rendered:
    """The sheet, what was entered last, who deals next, and the wizard (none once finished)."""
    pulka = sheet.match.pulka
    lines = [f"<b>{t('pref.keeper.title', number=sheet.table.id)}</b>"]
    head = settings_text(pulka.variant.value, pulka.target, pulka.players, t)
    rules = conditions_text(pulka.conditions, pulka.variant.value, t)
    lines += [head, *([rules] if rules else [])]
    lines.append(pulka_block(pulka, seat_names(sheet), t))
    if note:
        lines.append(note)
    if sheet.finished is not None:
        finished = sheet.finished
        lines += settlement_lines(
            finished.unfinished,
            finished.entries,
            finished.balances,
            sheet.names,
            sheet.chat.settings,
            t,
        )
        lines.append(breakdown(sheet.match.pulka, seat_names(sheet), t))
        return Rendered("\n".join(lines))
    dealer = user_text(_name(sheet, dealer_of(sheet)))
    deal_line = t("pref.keeper.deal", number=len(sheet.results) + 1, dealer=dealer)
    if sheet.size == 4:
        deal_line += " " + t("pref.keeper.sits_out")
    lines.append(deal_line)
    prompt, keys = wizard(sheet, arg, t)
    lines.append(prompt)
    lines.append(t("pref.keeper.typed_hint"))
    names = sorted(seat_names(sheet).items())
    guests = {s for s, p in sheet.players.items() if p.tg_user_id is None}
    seats = ", ".join(
        f"{seat + 1} — {user_text(name)}" + (f" {t('ledger.guest')}" if seat in guests else "")
        for seat, name in names
    )
    lines.append(t("pref.keeper.seats", seats=seats))  # the numbers a typed /deal means
    return Rendered("\n".join(lines), tuple(keys))
