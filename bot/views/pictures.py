"""Pictures where people would rather look than read: running balances as a chart (a game's
own sheets are drawn by its UI plug-in). PNG bytes, made with matplotlib's object API
(no pyplot state, so it is safe to draw in a worker thread while the bot goes on). matplotlib
is imported on the first drawing: a bot that never draws does not carry its ~40 MB."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from storage.interface import LedgerRow

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FONT = "DejaVu Sans"  # ships with matplotlib; has Cyrillic and the suit symbols


def _png(figure: Figure) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=100)
    return out.getvalue()


def balance_chart(
    rows: Sequence[LedgerRow], names: Mapping[int, str], title: str, x_label: str
) -> bytes:
    """Each player's running balance after every rubber or payment of the chat (in order)."""
    series: dict[int, list[tuple[int, int]]] = {}
    balances: dict[int, int] = {}
    step = 0
    last_txn = None
    for row in rows:
        if row.txn != last_txn:
            step += 1
            last_txn = row.txn
        balances[row.player_id] = balances.get(row.player_id, 0) + row.points
        points = series.setdefault(row.player_id, [(step - 1, 0)])
        points.append((step, balances[row.player_id]))
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(8, 4.5))
    axes = figure.add_subplot()
    for pid, points in sorted(series.items(), key=lambda kv: -balances[kv[0]]):
        xs = [x for x, _ in points] + [step]
        ys = [y for _, y in points] + [points[-1][1]]
        axes.step(
            xs, ys, where="post", marker=".", label=f"{names.get(pid, '?')} {balances[pid]:+d}"
        )
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_title(title, fontname=FONT)
    axes.set_xlabel(x_label, fontname=FONT)
    axes.grid(True, alpha=0.3)
    if series:
        axes.legend(loc="upper left", fontsize="small", prop={"family": FONT})
    figure.tight_layout()
    return _png(figure)
