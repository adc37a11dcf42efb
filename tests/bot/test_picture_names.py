"""The sheets drawn as pictures keep every word inside the picture and apart: names cut to
fit a sector's edge or a side's head, robots numbered ("Робот 1", "Робот 2": the font has no
🤖), whatever the names."""

from __future__ import annotations

import itertools

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from bot.games.bridge import pictures as bridge_pictures
from bot.games.preferans import pictures as pref_pictures
from bot.i18n import Translator
from bot.views.pictures import picture_names
from games.bridge.cards import Seat
from games.bridge.rubber import Rubber
from tests.bot.test_phone_width import HOSTILE

LONG = ("Геннадий Петрович", "Константин", "🤖 Робот", "🤖 Робот", *HOSTILE)


def boxes(figure: Figure) -> list[tuple[str, object]]:
    FigureCanvasAgg(figure)
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    out = []
    for text in figure.findobj(Text):
        if text.get_text().strip():
            out.append((text.get_text(), text.get_window_extent(renderer)))
    return out


def inside(figure: Figure) -> list[str]:
    frame = figure.bbox
    return [
        label
        for label, box in boxes(figure)
        if box.x0 < frame.x0 or box.x1 > frame.x1 or box.y0 < frame.y0 or box.y1 > frame.y1  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("players", [3, 4])
def test_the_pulka_picture_keeps_names_inside_and_robots_numbered(
    language: str, players: int
) -> None:
    t = Translator(language)
    for start in range(0, len(LONG) - players + 1, 2):
        raw = dict(enumerate(LONG[start : start + players]))
        names = picture_names(raw, pref_pictures.NAME, t)
        assert len(set(names.values())) == players, names  # two robots are two labels
        whists = [[0 if a == b else 99_999 for b in range(players)] for a in range(players)]
        figure = pref_pictures.pulka_figure(
            [10] * players, [12_345] * players, whists, names, 20, "Пуля · стол №1"
        )
        assert not inside(figure), (names, inside(figure))
        heads = [box for label, box in boxes(figure) if label in names.values()]
        for a, b in itertools.combinations(heads, 2):
            assert not a.overlaps(b), names  # type: ignore[attr-defined]
    robots = picture_names({0: "🤖 Робот", 1: "🤖 Робот", 2: "Аня"}, pref_pictures.NAME, t)
    assert robots[0] != robots[1] and robots[0].endswith("1") and "🤖" not in robots[0]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_rubber_picture_keeps_both_sides_heads_apart(language: str) -> None:
    t = Translator(language)
    rubber = Rubber()
    rubber.record("NS", "4S", 10)
    for start in range(len(LONG) - 3):
        raw = {seat: LONG[start + i] for i, seat in enumerate(Seat)}
        short = picture_names({int(s): n for s, n in raw.items()}, bridge_pictures.NAME, t)
        left = "С-Ю: " + " & ".join(short[s] for s in (Seat.N, Seat.S))
        right = "В-З: " + " & ".join(short[s] for s in (Seat.E, Seat.W))
        figure = bridge_pictures.scoresheet_figure(rubber, "Роббер", left, right, "итого")
        assert not inside(figure), inside(figure)
        (a,) = [box for label, box in boxes(figure) if label == left]
        (b,) = [box for label, box in boxes(figure) if label == right]
        assert not a.overlaps(b), (left, right)  # type: ignore[attr-defined]
