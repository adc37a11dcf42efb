"""The scorekeeper's message: the sheet so far and the entry wizard under it.

The wizard's state travels in its buttons (``sk`` with the entry so far), so there is no
server-side session: ``4`` → ``4S`` → ``4SX_`` → ``4SX_N`` → ``4SX_N.m2`` → saved with honours.
"""

from __future__ import annotations

import re

from bot.callback_data import Button
from bot.games.bridge.buttons import KEEP, KEEP_PICTURE, KEEP_UNDO
from bot.games.bridge.cards import (
    contract_text,
    seat_text,
    side_text,
    strain_text,
)
from bot.games.bridge.score import chicago_line, over_key, result_line, sheet_lines
from bot.games.bridge.scorekeeper import Sheet, seated
from bot.i18n import Translator
from bot.rendered import Key, Rendered, key_rows
from bot.views.amounts import account_lines
from bot.views.text import user_text
from games.bridge.calls import Contract, Strain
from games.bridge.cards import Seat, Side
from games.bridge.chicago import Chicago
from games.bridge.entry import Entry
from storage.interface import Rounding

STAGE = re.compile(r"^(?:(\d)(?:([CDHSN]T?)(?:(X{0,2})_(?:([NESW])(?:\.(e|m\d{1,2}|p\d))?)?)?)?)?$")


class BadStage(ValueError):
    """Wizard data no wizard of ours produced."""


def parse_stage(arg: str) -> tuple[str, ...]:
    """The filled fields: (level, strain, doubling, declarer, result); BadStage for junk."""
    match = STAGE.match(arg)
    if match is None:
        raise BadStage(arg)
    return tuple(g for g in match.groups() if g is not None)


def entry_of(arg: str, honours: str) -> Entry:
    """The finished wizard as an Entry (RuleError if it is not a possible result)."""
    level, strain, doubling, seat, result = parse_stage(arg)
    contract = Contract.parse(f"{level}{strain}{doubling}")
    delta = 0 if result == "e" else int(result[1:]) * (1 if result[0] == "p" else -1)
    held: dict[Side, int] = {}
    if honours != "h0":
        held[Side(honours[1:3])] = int(honours[3:])
    return Entry(contract, Seat.parse(seat), contract.tricks_needed + delta, held)


def _key(sheet: Sheet, label: str, arg: str = "", act: str = KEEP) -> Key:
    return Key(label, Button(sheet.table.id, sheet.count, act, arg).encode())


def wizard(sheet: Sheet, arg: str, t: Translator) -> tuple[str, tuple[tuple[Key, ...], ...]]:
    """The prompt and the buttons for the next field of the entry."""
    lang = t.language
    fields = parse_stage(arg)
    if not fields:
        rows = [
            tuple(_key(sheet, str(level), str(level)) for level in range(1, 8)),
            (
                _key(sheet, t("keeper.passed_out"), "pass"),
                _key(sheet, t("keeper.undo"), act=KEEP_UNDO),
                _key(sheet, "🖼", act=KEEP_PICTURE),
            ),
        ]
        return t("keeper.ask_level"), tuple(rows)
    cancel = (_key(sheet, t("keeper.cancel"), ""),)
    if len(fields) == 1:
        strains = [(s, "NT" if s is Strain.NOTRUMP else s.code) for s in Strain]
        row = tuple(
            _key(sheet, f"{arg}{strain_text(s, lang)}", f"{arg}{code}") for s, code in strains
        )
        return t("keeper.ask_strain"), (row, cancel)
    contract = Contract.parse(f"{fields[0]}{fields[1]}{fields[2] if len(fields) > 2 else ''}")
    shown = contract_text(contract, lang)
    if len(fields) == 2:
        row = tuple(_key(sheet, f"{shown}{mark}", f"{arg}{mark}_") for mark in ("", "X", "XX"))
        return t("keeper.ask_doubling", contract=shown), (row, cancel)
    if len(fields) == 3:
        row = tuple(
            _key(
                sheet,
                f"{seat_text(seat, lang)} {seated(sheet)[seat].name}"[:24],
                f"{arg}{seat.name}",
            )
            for seat in Seat
        )
        return t("keeper.ask_declarer", contract=shown), (row[:2], row[2:], cancel)
    declarer = Seat.parse(fields[3])
    head = f"{shown} {seat_text(declarer, lang)} {user_text(seated(sheet)[declarer].name)}"
    if len(fields) == 4:
        needed = contract.tricks_needed
        options = [("m" + str(-d), f"−{-d}") for d in range(-needed, 0)]
        options += [("e", "=")] + [(f"p{d}", f"+{d}") for d in range(1, 14 - needed)]
        keys = [_key(sheet, label, f"{arg}.{code}") for code, label in options]
        rows = key_rows(keys, 7)
        return t("keeper.ask_result", head=head), (*rows, cancel)
    choices = [("h0", t("keeper.no_honours"))]
    for side in Side:
        for points in (100, 150):
            if points == 100 and contract.strain is Strain.NOTRUMP:
                continue
            choices.append((f"h{side.value}{points}", f"{points} {side_text(side, t)}"))
    keys = [_key(sheet, label, f"{arg}.{code}") for code, label in choices]
    return t("keeper.ask_honours", head=head), (tuple(keys[:1]), tuple(keys[1:]), cancel)


def render_keeper(sheet: Sheet, arg: str, t: Translator, note: str = "") -> Rendered:
    """The sheet, the latest entry's lines, and (while the rubber goes on) the wizard."""
    lang = t.language
    lines = [t("keeper.title", number=sheet.table.id)]
    lines.append(
        " · ".join(  # a guest (no Telegram) marked as one, as the money views mark it
            f"{seat_text(s, lang)} {user_text(p.name)}"
            + (f" {t('ledger.guest')}" if p.tg_user_id is None else "")
            for s, p in seated(sheet).items()
        )
    )
    if note:
        lines.append(note)
    rubber = sheet.match.rubber
    lines.extend(sheet_lines(sheet.last, rubber, t))
    finished = sheet.finished
    if finished is not None:
        lines.append(
            f"<b>{t(over_key(rubber))}</b>"
            + (f" {t('history.unfinished')}" if finished.unfinished else "")
        )
        hundreds = sheet.chat.settings.rounding is Rounding.HUNDREDS
        winner, points = sheet.match.result()
        lines.append(result_line(winner, points, t, hundreds))
        lines.append(t("rubber.accounts"))
        group = sheet.chat.settings
        lines.extend(account_lines(finished.balances, sheet.names, group, t))
        return Rendered("\n".join(lines), ((_key(sheet, "🖼", act=KEEP_PICTURE),),))
    prompt, keys = wizard(sheet, arg, t)
    chicago = rubber
    if isinstance(chicago, Chicago):  # which deal of four, who deals it, who is vulnerable
        dealer = t("chicago.dealer", seat=seat_text(chicago.dealer, lang))
        lines.append(f"{chicago_line(chicago, t)} · {dealer}")
    lines.append(t("keeper.deal", number=len(rubber.records) + 1) + " " + prompt)
    return Rendered("\n".join(lines), keys)
