"""The scorekeeper's typed line: read back what ``code`` writes, refuse the impossible."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from games.bridge.calls import Call, Contract, Doubling, Strain
from games.bridge.cards import Seat, Side
from games.bridge.entry import Entry, parse_entry
from games.bridge.errors import BridgeReason
from games.errors import NotationError, Reason, RubberError, RuleError


@st.composite
def entries(draw: st.DrawFn) -> Entry:
    level = draw(st.integers(1, 7))
    strain = draw(st.sampled_from(list(Strain)))
    contract = Contract(level, strain, draw(st.sampled_from(list(Doubling))))
    honours: dict[Side, int] = {}
    if draw(st.booleans()):
        points = 150 if strain is Strain.NOTRUMP else draw(st.sampled_from([100, 150]))
        honours[draw(st.sampled_from(list(Side)))] = points
    return Entry(contract, draw(st.sampled_from(list(Seat))), draw(st.integers(0, 13)), honours)


@given(entries())
def test_code_reads_back(entry: Entry) -> None:
    assert parse_entry(entry.code()) == entry


@pytest.mark.parametrize(
    ("line", "contract", "seat", "tricks"),
    [
        ("4SX N -2", "4SX", Seat.N, 8),
        ("3NT S =", "3NT", Seat.S, 9),
        ("3NT N 10", "3NT", Seat.N, 10),
        ("4♠X S =", "4SX", Seat.S, 10),
        ("7NTXX W -13", "7NTXX", Seat.W, 0),
    ],
)
def test_lines(line: str, contract: str, seat: Seat, tricks: int) -> None:
    entry = parse_entry(line)
    assert (str(entry.contract), entry.declarer, entry.tricks) == (contract, seat, tricks)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("4SX N -11", Reason.BAD_TRICKS),
        ("1C N +7", Reason.BAD_TRICKS),
        ("8S N =", Reason.BAD_CONTRACT),
        ("4S Q =", Reason.BAD_SEAT),
        ("4S", Reason.BAD_ENTRY),
        ("3NT N = 100NS", BridgeReason.BAD_HONOURS),
        ("4S N = 100NS 150EW", BridgeReason.BAD_HONOURS),
        ("4S N = 120NS", BridgeReason.BAD_HONOURS),
    ],
)
def test_impossible_lines_are_refused_with_a_reason(line: str, reason: Reason) -> None:
    with pytest.raises((NotationError, RubberError)) as caught:
        parse_entry(line)
    assert caught.value.reason is reason


def test_passed_out() -> None:
    assert parse_entry("pass") == Entry(None) == parse_entry("P")


@given(st.text(max_size=30))
@example("²S N =")
@example("4S N ²")
@example("٣NT S =")
def test_any_typed_line_is_read_or_refused_with_a_reason(text: str) -> None:
    """Whatever is typed after /deal (superscript digits, other scripts, junk), the answer is an
    entry or a rule error with a reason: never another exception, which would go unanswered."""
    try:
        parse_entry(text)
    except RuleError as error:
        assert error.reason is not None


@given(st.text(max_size=12))
@example("²S")
@example("①NT")
def test_any_call_text_is_read_or_refused_with_a_reason(text: str) -> None:
    try:
        Call.parse(text)
    except RuleError as error:
        assert error.reason is not None
