"""Typed results in the players' words: Russian letters and suit symbols read into the rules'
notation from the catalogues, whatever the table's language."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.games.bridge.notation import read_entry, read_seat
from games.bridge.cards import Seat, Side
from games.bridge.entry import Entry, parse_entry
from games.errors import Reason, RuleError


@pytest.mark.parametrize(
    ("line", "contract", "seat", "tricks"),
    [
        ("4SX N -2", "4SX", Seat.N, 8),
        ("3БК С 10", "3NT", Seat.N, 10),
        ("3бк с 10", "3NT", Seat.N, 10),
        ("4♠К Ю =", "4SX", Seat.S, 10),
        ("2ПКК З -1", "2SXX", Seat.W, 7),
        ("1Б В +1", "1NT", Seat.E, 8),
        ("5Ч С =", "5H", Seat.N, 11),
        ("6Т Ю =", "6C", Seat.S, 12),
    ],
)
def test_russian_lines(line: str, contract: str, seat: Seat, tricks: int) -> None:
    entry = read_entry(line)
    assert (str(entry.contract), entry.declarer, entry.tricks) == (contract, seat, tricks)


def test_passes_sides_and_seats() -> None:
    assert read_entry("пас") == read_entry("PASS") == Entry(None)
    assert read_entry("4Ч Ю = 100СЮ").honours == {Side.NS: 100}
    assert read_entry("3БК З = 150вз").honours == {Side.EW: 150}
    assert [read_seat(w) for w in ("С", "в", "Ю", "з", "N", "x")] == ["N", "E", "S", "W", "N", None]


def test_the_rules_read_only_their_notation() -> None:
    """The Russian words are the bot's: the rules engine refuses them with a reason."""
    for line in ("3БК С 10", "пас"):
        with pytest.raises(RuleError):
            parse_entry(line)


@given(st.text(max_size=30))
@example("²S N =")
@example("4ПК Ю ²")
@example("٣БК С =")
def test_any_typed_line_is_read_or_refused_with_a_reason(text: str) -> None:
    try:
        read_entry(text)
    except RuleError as error:
        assert isinstance(error.reason, Reason)
