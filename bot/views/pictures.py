"""Pictures where people would rather look than read: running balances as a chart (a game's
own sheets are drawn by its UI plug-in). PNG bytes, made with matplotlib's object API
(no pyplot state, so it is safe to draw in a worker thread while the bot goes on). matplotlib
is imported on the first drawing: a bot that never draws does not carry its ~40 MB."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot.i18n import Translator
from bot.views.amounts import money, signed
from bot.views.text import ROBOT_MARK, short_names
from storage.interface import ChatSettings, LedgerRow

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FONT = "DejaVu Sans"  # ships with matplotlib; has Cyrillic and the suit symbols


def drawable(text: str) -> str:
    """``text`` without what the font cannot draw (emoji, a robot's 🤖)."""
    return "".join(ch for ch in text if ord(ch) <= 0xFFFF).strip()


def picture_names(names: Mapping[int, str], width: int, t: Translator) -> dict[int, str]:
    """Names for a picture: what the font draws, cut to ``width`` letters, robots numbered
    in words ("Робот 1", "Робот 2": the font has no 🤖)."""
    robot = t("robot.short")
    return short_names(
        {s: robot if n.strip().startswith(ROBOT_MARK) else drawable(n) for s, n in names.items()},
        width,
        robot,
    )


def png_of(figure: Figure) -> bytes:
    from matplotlib.text import Text

    for text in figure.findobj(Text):  # the font has no emoji: drop them
        shown = text.get_text()
        if drawable(shown) != shown:
            text.set_text(drawable(shown))
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=100)
    return out.getvalue()


def in_money(units: Sequence[str], group: ChatSettings) -> bool:
    """Whether the chart is drawn in money: the group prices every unit it has rows in (one
    priced unit too: a stake set, the chart is in money, not points)."""
    return all(group.price(unit) for unit in units)


def balance_chart(
    rows: Sequence[LedgerRow],
    names: Mapping[int, str],
    title: str,
    x_label: str,
    group: ChatSettings,
    unit_labels: Mapping[str, str],
) -> bytes:
    """Each player's running balance after every match or payment of the chat (in order): in
    money when the group prices every unit it has rows in (rubbers and pulkas together), else
    one panel per unit, since points and whists do not add."""
    units = sorted({row.unit for row in rows}) or ["points"]
    if in_money(units, group):
        panels = {"money": [(row, row.points * group.price(row.unit)) for row in rows]}
        labels = {"money": group.currency}
        scale = 100  # hundredths to whole money
    else:
        panels = {u: [(row, row.points) for row in rows if row.unit == u] for u in units}
        labels = dict(unit_labels)
        scale = 1
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(8, 4.5 if len(panels) == 1 else 3.2 * len(panels)))
    axes_list = figure.subplots(len(panels), 1, squeeze=False)[:, 0]
    for axes, (panel, values) in zip(axes_list, panels.items(), strict=True):
        _draw_balances(axes, values, names, scale)
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.axhline(0, color="grey", linewidth=0.8)
        axes.set_ylabel(labels.get(panel, panel), fontname=FONT)
        axes.grid(True, alpha=0.3)
    axes_list[0].set_title(title, fontname=FONT)
    axes_list[-1].set_xlabel(x_label, fontname=FONT)
    figure.tight_layout()
    return png_of(figure)


def _draw_balances(
    axes: Axes, values: Sequence[tuple[LedgerRow, int]], names: Mapping[int, str], scale: int
) -> None:
    series: dict[int, list[tuple[int, float]]] = {}
    balances: dict[int, int] = {}
    step = 0
    last_txn = None
    for row, value in values:
        if row.txn != last_txn:
            step += 1
            last_txn = row.txn
        balances[row.player_id] = balances.get(row.player_id, 0) + value
        points = series.setdefault(row.player_id, [(step - 1, 0.0)])
        points.append((step, balances[row.player_id] / scale))
    for pid, points in sorted(series.items(), key=lambda kv: -balances[kv[0]]):
        xs = [x for x, _ in points] + [step]
        ys = [y for _, y in points] + [points[-1][1]]
        final = signed(balances[pid]) if scale == 1 else money(balances[pid], 1, "")
        label = f"{names.get(pid, '?')} {final}"
        axes.step(xs, ys, where="post", marker=".", label=label)
    if series:
        axes.legend(loc="upper left", fontsize="small", prop={"family": FONT})
