"""The pulka drawn the way players draw it on paper: a sheet split from a small circle in the
middle (the pool's target written in it) into one sector per player, each player's sector
holding, from the edge inwards, the whists they wrote on each of the others, their pool
(пуля) and their gora (гора); the name outside their edge. PNG bytes, drawn with matplotlib's
object API in a worker thread (no pyplot state); matplotlib is imported on first use."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from bot.games.preferans.views import count_text
from bot.views.pictures import FONT

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Number = int | Fraction
NAME = 12  # letters of a name at a sector's edge (``short_names``)
Point = tuple[float, float]


def _scaled(points: Sequence[Point], factor: float) -> list[Point]:
    return [(x * factor, y * factor) for x, y in points]


def _rays(players: int) -> list[tuple[float, float]]:
    """Each player's sector as (start, end) angles in degrees, clockwise (end < start), seat 0
    at the bottom: with three the classic paper layout (lines to the bottom corners and the
    top's middle), with four the diagonals."""
    if players == 3:
        return [(-45.0, -135.0), (225.0, 90.0), (90.0, -45.0)]
    return [(-45.0, -135.0), (225.0, 135.0), (135.0, 45.0), (45.0, -45.0)]


def _on_square(angle: float, factor: float) -> Point:
    """Where a ray from the middle at ``angle`` meets the square of half-side ``factor``."""
    dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    k = factor / max(abs(dx), abs(dy))
    return (dx * k, dy * k)


def pulka_figure(
    pool: Sequence[Number],
    gora: Sequence[Number],
    whists: Sequence[Sequence[Number]],
    names: Mapping[int, str],
    target: int,
    title: str,
) -> Figure:
    """The sheet: pool and gora per player, and whists written on each other (``names``
    already short enough for a sector's edge: ``short_names`` to :data:`NAME`); ``png_of`` it
    for the chat, a test measures where its words fall."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle

    players = len(pool)
    short = {seat: name if len(name) <= 7 else name[:6] + "." for seat, name in names.items()}
    figure = Figure(figsize=(6.4, 6.4))
    axes = figure.add_axes((0.02, 0.02, 0.96, 0.9))
    axes.set_xlim(-1.25, 1.25)
    axes.set_ylim(-1.25, 1.25)
    axes.set_aspect("equal")
    axes.axis("off")
    ink = "#1f3a93"
    style: dict[str, Any] = {"fontname": FONT, "ha": "center", "va": "center", "color": ink}
    # the sheet, its bands and the lines from the middle
    for factor in (1.0, 0.66, 0.4):
        square = _scaled([(-1, -1), (-1, 1), (1, 1), (1, -1), (-1, -1)], factor)
        axes.plot(*zip(*square, strict=True), color=ink, linewidth=1.4 if factor == 1 else 0.9)
    for start, _ in _rays(players):
        corner = _on_square(start, 1.0)
        axes.plot([0, corner[0]], [0, corner[1]], color=ink, linewidth=0.9)
    axes.add_patch(Circle((0, 0), 0.13, facecolor="white", edgecolor=ink, linewidth=1.2, zorder=3))
    axes.text(0, 0, str(target), fontsize=14, fontweight="bold", zorder=4, **style)
    for seat, (start, end) in enumerate(_rays(players)):
        middle = (start + end) / 2
        name = names.get(seat, "—")
        where = _on_square(middle, 1.15)
        side = abs(where[0]) > abs(where[1])  # a left or right sector: along its edge
        turn = (90 if where[0] < 0 else -90) if side else 0
        axes.text(*where, name, fontsize=12, fontweight="bold", rotation=turn, **style)
        axes.text(*_on_square(middle, 0.53), count_text(pool[seat]), fontsize=13, **style)
        axes.text(*_on_square(middle, 0.29), count_text(gora[seat]), fontsize=11, **style)
        others = [o for o in range(players) if o != seat]
        for k, other in enumerate(others):
            angle = start - (start - end) * (k + 0.5) / len(others)
            label = f"{short.get(other, '—')}: {count_text(whists[seat][other])}"
            axes.text(*_on_square(angle, 0.83), label, fontsize=9, **style)
    figure.suptitle(title, fontname=FONT, fontsize=13)
    return figure
