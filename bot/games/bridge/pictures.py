"""The rubber's scoresheet drawn like the paper one, as PNG bytes (matplotlib's object API,
imported on the first drawing; safe in a worker thread)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.views.pictures import FONT, png_of
from games.bridge.cards import Side
from games.bridge.rubber import Line, ScoreSheet

if TYPE_CHECKING:
    from matplotlib.figure import Figure

NAME = 9  # letters of each partner's name in a side's head (``short_names``)


def scoresheet_picture(
    rubber: ScoreSheet, title: str, left: str, right: str, total_label: str
) -> bytes:
    """The paper sheet: a column per side, entries above the line newest nearest the line,
    games below it with a rule under each finished game, the totals at the foot."""
    return png_of(scoresheet_figure(rubber, title, left, right, total_label))


def scoresheet_figure(
    rubber: ScoreSheet, title: str, left: str, right: str, total_label: str
) -> Figure:
    """The drawing itself (a test measures where its words fall)."""
    above = [e for e in rubber.entries if e.line is Line.ABOVE]
    below = [e for e in rubber.entries if e.line is Line.BELOW]
    rows_above = max(
        sum(1 for e in above if e.side is Side.NS), sum(1 for e in above if e.side is Side.EW), 1
    )
    games = sorted({e.game for e in below} | {rubber.game_number})
    rows_below = sum(
        max(
            sum(1 for e in below if e.game == g and e.side is Side.NS),
            sum(1 for e in below if e.game == g and e.side is Side.EW),
            1,
        )
        for g in games
    )
    height = 2.2 + 0.32 * (rows_above + rows_below + 2)
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4.6, height))
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, 2)
    total_rows = rows_above + rows_below + 4
    axes.set_ylim(-total_rows, 1.5)
    axes.axis("off")
    axes.text(1, 1, title, ha="center", va="center", fontsize=12, fontname=FONT, weight="bold")
    axes.text(0.5, 0, left, ha="center", va="center", fontsize=11, fontname=FONT)
    axes.text(1.5, 0, right, ha="center", va="center", fontsize=11, fontname=FONT)
    axes.plot([1, 1], [0.4, -total_rows + 1], color="black", linewidth=1.5)
    line_y = -rows_above - 0.5
    for side, x in ((Side.NS, 0.5), (Side.EW, 1.5)):
        mine = [e for e in above if e.side is side]
        for i, entry in enumerate(mine):  # oldest nearest the line, as on paper
            axes.text(x, line_y + 0.5 + i, str(entry.points), ha="center", va="center", fontsize=10)
    axes.plot([0.05, 1.95], [line_y, line_y], color="black", linewidth=2)
    y = line_y - 0.5
    for game in games:
        height_here = 1
        for side, x in ((Side.NS, 0.5), (Side.EW, 1.5)):
            mine = [e for e in below if e.game == game and e.side is side]
            for i, entry in enumerate(mine):
                axes.text(x, y - i, str(entry.points), ha="center", va="center", fontsize=10)
            height_here = max(height_here, len(mine))
        y -= height_here
        if game < rubber.game_number:
            axes.plot([0.1, 1.9], [y + 0.5, y + 0.5], color="grey", linewidth=1)
    totals = rubber.totals()
    axes.plot([0.05, 1.95], [y, y], color="black", linewidth=2)
    axes.text(0.5, y - 0.6, str(totals[Side.NS]), ha="center", fontsize=11, weight="bold")
    axes.text(1.5, y - 0.6, str(totals[Side.EW]), ha="center", fontsize=11, weight="bold")
    axes.text(1, y - 1.4, total_label, ha="center", fontsize=9, fontname=FONT, color="grey")
    return figure
