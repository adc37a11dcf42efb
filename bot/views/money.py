"""The group's money: balances, settling up, the rubbers played, and the ledger as CSV.

Pure: built from storage values already fetched; names are passed in.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from bot.callback_data import Act, Button
from bot.games import ui_for
from bot.i18n import Translator
from bot.views import Key, Rendered
from bot.views.amounts import amount, signed
from bot.views.text import plain_text, user_text
from games.core.settlement import Transfer
from storage.interface import ChatSettings, LedgerRow, Match


def render_ledger(
    chat_id: int,
    version: int,
    balances: Mapping[int, int],
    counts: Mapping[int, int],
    names: Mapping[int, str],
    group: ChatSettings,
    t: Translator,
) -> Rendered:
    """/ledger: every player's running account, best first; the sum shown is zero."""
    if not balances:
        return Rendered(t("ledger.empty"))
    lines = [f"<b>{t('ledger.title')}</b>"]
    ordered = sorted(balances.items(), key=lambda kv: (-kv[1], names.get(kv[0], "")))
    for pid, points in ordered:
        lines.append(
            t(
                "ledger.row",
                name=user_text(names.get(pid, "?")),
                amount=amount(points, group, t, sign=True),
                rubbers=counts.get(pid, 0),
            )
        )
    lines.append(t("ledger.sum", points=signed(sum(balances.values()))))
    keys = (
        (
            Key(t("button.chart"), Button(chat_id, version, Act.CHART).encode()),
            Key(t("button.csv"), Button(chat_id, version, Act.CSV).encode()),
            Key(t("button.settle"), Button(chat_id, version, Act.SETTLE).encode()),
        ),
    )
    return Rendered("\n".join(lines), keys)


def render_settle(
    chat_id: int,
    version: int,
    plan: Sequence[Transfer[int]],
    names: Mapping[int, str],
    group: ChatSettings,
    t: Translator,
) -> Rendered:
    """/settle: who pays whom to bring every balance to zero, a "paid" button per transfer."""
    if not plan:
        return Rendered(t("settle.nothing"))
    lines = [f"<b>{t('settle.title')}</b>"]
    keys = []
    for transfer in plan:
        payer, payee = names.get(transfer.payer, "?"), names.get(transfer.payee, "?")
        lines.append(
            t(
                "settle.row",
                payer=user_text(payer),
                payee=user_text(payee),
                amount=amount(transfer.amount, group, t),
            )
        )
        arg = f"{transfer.payer}-{transfer.payee}-{transfer.amount}"
        label = t(
            "button.paid",
            payer=plain_text(payer),
            payee=plain_text(payee),
            amount=amount(transfer.amount, group, t),
        )
        keys.append((Key(label[:60], Button(chat_id, version, Act.PAY, arg).encode()),))
    lines.append(t(f"settle.who.{group.payments.value}"))
    return Rendered("\n".join(lines), tuple(keys))


def render_history(
    rubbers: Sequence[Match],
    entries: Mapping[int, Mapping[int, int]],
    names: Mapping[int, str],
    group: ChatSettings,
    t: Translator,
    chat_id: int,
    version: int,
) -> Rendered:
    """/history: the last rubbers, newest first: date, partnerships, result, each entry."""
    if not rubbers:
        return Rendered(t("history.empty"))
    lines = [f"<b>{t('history.title', count=len(rubbers))}</b>"]
    for rubber in rubbers:
        line = ui_for(rubber.game).history_line(rubber, names, t)
        if rubber.unfinished:
            line += " " + t("history.unfinished")
        day = (rubber.finished_at or rubber.started_at)[:10]
        lines.append(f"\n<b>{day}</b> · {line}")
        row = entries.get(rubber.id, {})
        lines.append(
            "  "
            + " · ".join(
                f"{user_text(names.get(pid, '?'))} {amount(points, group, t, sign=True)}"
                for pid, points in sorted(row.items(), key=lambda kv: -kv[1])
            )
        )
    keys = ((Key(t("button.csv"), Button(chat_id, version, Act.CSV).encode()),),)
    return Rendered("\n".join(lines), keys)


CSV_HEADER = ("date", "kind", "rubber", "player", "points", "money", "currency", "balance", "note")


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """A cell of text that a spreadsheet will show, never run: a name such as ``=HYPERLINK(…)``
    gets a leading apostrophe (the OWASP advice against CSV injection). Numbers are written as
    numbers elsewhere and are left alone."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def ledger_csv(rows: Sequence[LedgerRow], names: Mapping[int, str], group: ChatSettings) -> bytes:
    """The whole ledger, one row per entry in order, with each player's balance after it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    running: dict[int, int] = {}
    for row in rows:
        running[row.player_id] = running.get(row.player_id, 0) + row.points
        amount = row.points * group.stake / 100 if group.stake else ""
        writer.writerow(
            (
                row.at,
                row.kind,
                row.match_id or "",
                csv_text(names.get(row.player_id, str(row.player_id))),
                row.points,
                f"{amount:.2f}" if amount != "" else "",
                csv_text(group.currency),
                running[row.player_id],
                csv_text(row.note),
            )
        )
    return out.getvalue().encode()
