"""The group's money: balances, settling up, the rubbers played, and the ledger as CSV.

Pure: built from storage values already fetched; names are passed in.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence

from bot.callback_data import Act, Button
from bot.i18n import Translator
from bot.rendered import Key, Rendered
from bot.views.amounts import POINTS, amount, by_player, holding, worth
from bot.views.text import plain_text, rich_table, user_text
from games.core.settlement import Transfer
from storage.interface import CENTS, ChatSettings, LedgerRow, MatchRecord

# A "paid" button's unit: the first games' in a letter (buttons already in chats stay good),
# any other by its name (``storage.interface.UNIT``: letters and "_", never one letter).
UNIT_CODES = {POINTS: "p", "whists": "w", CENTS: "c"}
UNIT_OF_CODE = {code: unit for unit, code in UNIT_CODES.items()}


def render_ledger(
    chat_id: int,
    version: int,
    accounts: Mapping[str, Mapping[int, int]],
    counts: Mapping[int, int],
    names: Mapping[int, str],
    group: ChatSettings,
    t: Translator,
    practice: Mapping[str, Mapping[int, int]] | None = None,
) -> Rendered:
    """/ledger: every player's running account over both games, best first (they sum to
    zero, so no sum is shown). ``practice``: people's points from rubbers with robots, shown
    apart (they are statistics, not money)."""
    players = by_player(accounts)
    if not players and not practice:
        return Rendered(t("ledger.empty"))
    lines = [f"<b>{t('ledger.title')}</b>"]
    ordered = sorted(
        players.items(),
        key=lambda kv: (*(-x for x in worth(kv[1], group)), names.get(kv[0], "")),
    )
    head = (t("ledger.col_player"), t("ledger.col_account"), t("ledger.col_played"))
    table: list[tuple[str, ...]] = [head]
    for pid, amounts in ordered:
        name, shown = user_text(names.get(pid, "?")), holding(amounts, group, t, label=True)
        lines.append(t("ledger.row", name=name, amount=shown, rubbers=counts.get(pid, 0)))
        table.append((name, shown, str(counts.get(pid, 0))))
    rich = f"<h3>{t('ledger.title')}</h3>{rich_table(table)}" if ordered else ""
    if practice:
        lines.append(f"<b>{t('robot.practice_title')}</b>")
        table = [head[:2]]  # practice: an account, no rubbers
        for pid, amounts in sorted(
            by_player(practice).items(), key=lambda kv: names.get(kv[0], "")
        ):
            shown = holding(amounts, group, t, label=True)
            lines.append(f"  {user_text(names.get(pid, '?'))}: {shown}")
            table.append((user_text(names.get(pid, "?")), shown))
        rich += f"<h3>{t('robot.practice_title')}</h3>{rich_table(table)}"
    keys = (
        (
            Key(t("button.chart"), Button(chat_id, version, Act.CHART).encode()),
            Key(t("button.csv"), Button(chat_id, version, Act.CSV).encode()),
            Key(t("button.settle"), Button(chat_id, version, Act.SETTLE).encode()),
        ),
    )
    return Rendered("\n".join(lines), keys, rich)


def pay_arg(unit: str, transfer: Transfer[int]) -> str:
    """A "paid" button's data: ``w.payer-payee-amount`` (points keep the old form, without a
    unit, so that buttons already in chats stay good)."""
    body = f"{transfer.payer}-{transfer.payee}-{transfer.amount}"
    return body if unit == POINTS else f"{UNIT_CODES.get(unit, unit)}.{body}"


def render_settle(
    chat_id: int,
    version: int,
    plan: Sequence[tuple[str, Transfer[int]]],
    names: Mapping[int, str],
    group: ChatSettings,
    t: Translator,
) -> Rendered:
    """/settle: who pays whom to bring every balance to zero, a "paid" button per transfer."""
    if not plan:
        return Rendered(t("settle.nothing"))
    lines = [f"<b>{t('settle.title')}</b>"]
    keys = []
    for unit, transfer in plan:
        payer, payee = names.get(transfer.payer, "?"), names.get(transfer.payee, "?")
        shown = amount(transfer.amount, group, t, unit=unit)
        lines.append(t("settle.row", payer=user_text(payer), payee=user_text(payee), amount=shown))
        arg = pay_arg(unit, transfer)
        label = t("button.paid", payer=plain_text(payer), payee=plain_text(payee), amount=shown)
        keys.append((Key(label[:60], Button(chat_id, version, Act.PAY, arg).encode()),))
    lines.append(t(f"settle.who.{group.payments.value}"))
    return Rendered("\n".join(lines), tuple(keys))


def render_history(
    rubbers: Sequence[MatchRecord],
    entries: Mapping[int, Mapping[int, int]],
    units: Mapping[int, str],
    names: Mapping[int, str],
    group: ChatSettings,
    t: Translator,
    chat_id: int,
    version: int,
    line_of: Callable[[MatchRecord, Mapping[int, str], Translator], str],
) -> Rendered:
    """/history: the last matches, newest first: date, who played, result (``line_of``: the
    match's game says it), each entry."""
    if not rubbers:
        return Rendered(t("history.empty"))
    lines = [f"<b>{t('history.title', count=len(rubbers))}</b>"]
    mixed = len(set(units.values())) > 1  # points beside whists say what they are
    for rubber in rubbers:
        line = line_of(rubber, names, t)
        if rubber.unfinished:
            line += " " + t("history.unfinished")
        day = (rubber.finished_at or rubber.started_at)[:10]
        lines.append(f"\n<b>{day}</b> · {line}")
        row = entries.get(rubber.id, {})
        lines.append(
            "  "
            + " · ".join(
                f"{user_text(names.get(pid, '?'))} "
                f"{amount(points, group, t, True, units.get(rubber.id, POINTS), mixed)}"
                for pid, points in sorted(row.items(), key=lambda kv: -kv[1])
            )
        )
    keys = ((Key(t("button.csv"), Button(chat_id, version, Act.CSV).encode()),),)
    return Rendered("\n".join(lines), keys)


CSV_HEADER = (
    "date",
    "kind",
    "rubber",
    "player",
    "points",
    "money",
    "currency",
    "balance",
    "note",
    "unit",
)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """A cell of text that a spreadsheet will show, never run: a name such as ``=HYPERLINK(…)``
    gets a leading apostrophe (the OWASP advice against CSV injection). Numbers are written as
    numbers elsewhere and are left alone."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def ledger_csv(rows: Sequence[LedgerRow], names: Mapping[int, str], group: ChatSettings) -> bytes:
    """The whole ledger, one row per entry in order, with each player's balance after it in
    the row's unit (``points`` is the count of that unit: bridge points, whists, or money in
    hundredths; the column keeps its old name so that sheets built on it still work)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    running: dict[tuple[int, str], int] = {}
    for row in rows:
        key = (row.player_id, row.unit)
        running[key] = running.get(key, 0) + row.points
        price = group.price(row.unit)
        amount = row.points * price / 100 if price else ""
        writer.writerow(
            (
                row.at,
                row.kind,
                row.match_id or "",
                csv_text(names.get(row.player_id, str(row.player_id))),
                row.points,
                f"{amount:.2f}" if amount != "" else "",
                csv_text(group.currency),
                running[key],
                csv_text(row.note),
                row.unit,
            )
        )
    return out.getvalue().encode()
