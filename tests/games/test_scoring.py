"""Contract scores, table-driven from RULES.md; each expectation worked out by hand."""

from __future__ import annotations

import pytest

from games.bridge.calls import Strain
from games.bridge.cards import Deal, Seat, Side
from games.bridge.scoring import honours, score_contract
from games.errors import NotationError

# (contract, tricks, vulnerable, rules) -> (below, above, penalty)
CASES = [
    # part scores and games, undoubled
    ("1C", 7, False, "modern", (20, 0, 0)),
    ("2D", 10, False, "modern", (40, 40, 0)),
    ("2H", 8, False, "modern", (60, 0, 0)),
    ("4S", 10, True, "modern", (120, 0, 0)),
    ("4S", 12, True, "modern", (120, 60, 0)),
    ("1NT", 7, False, "modern", (40, 0, 0)),
    ("3NT", 9, False, "modern", (100, 0, 0)),
    ("3NT", 11, True, "modern", (100, 60, 0)),
    ("5C", 11, False, "modern", (100, 0, 0)),
    # doubled and redoubled making: trick points multiplied, insult, overtricks by vulnerability
    ("1CX", 7, False, "modern", (40, 50, 0)),
    ("2HX", 8, False, "modern", (120, 50, 0)),
    ("2HX", 9, False, "modern", (120, 150, 0)),
    ("2HX", 9, True, "modern", (120, 250, 0)),
    ("1NTX", 7, False, "modern", (80, 50, 0)),
    ("2NTXX", 8, False, "modern", (280, 100, 0)),
    ("2NTXX", 9, True, "modern", (280, 500, 0)),
    ("2HXX", 9, False, "modern", (240, 300, 0)),
    ("2HXX", 9, False, "classic", (240, 250, 0)),
    ("1NTXX", 7, False, "classic", (160, 50, 0)),
    # slams
    ("6S", 12, False, "modern", (180, 500, 0)),
    ("6S", 13, True, "modern", (180, 780, 0)),
    ("6NT", 12, True, "modern", (190, 750, 0)),
    ("7NT", 13, False, "modern", (220, 1000, 0)),
    ("7C", 13, True, "modern", (140, 1500, 0)),
    ("7NTXX", 13, True, "modern", (880, 1600, 0)),
    ("7NTXX", 13, True, "classic", (880, 1550, 0)),
    ("6DX", 12, False, "modern", (240, 550, 0)),
    # undoubled undertricks
    ("4S", 9, False, "modern", (0, 0, 50)),
    ("4S", 6, False, "modern", (0, 0, 200)),
    ("3NT", 5, True, "modern", (0, 0, 400)),
    ("7NT", 0, True, "modern", (0, 0, 1300)),
    # doubled undertricks, modern: NV 100, 300, 500, 800, 1100; V 200, 500, 800, 1100
    ("4SX", 9, False, "modern", (0, 0, 100)),
    ("4SX", 8, False, "modern", (0, 0, 300)),
    ("4SX", 7, False, "modern", (0, 0, 500)),
    ("4SX", 6, False, "modern", (0, 0, 800)),
    ("4SX", 5, False, "modern", (0, 0, 1100)),
    ("4SX", 9, True, "modern", (0, 0, 200)),
    ("4SX", 8, True, "modern", (0, 0, 500)),
    ("4SX", 6, True, "modern", (0, 0, 1100)),
    ("7NTX", 0, True, "modern", (0, 0, 3800)),
    ("7NTX", 0, False, "modern", (0, 0, 3500)),
    # redoubled undertricks: twice doubled
    ("4SXX", 9, False, "modern", (0, 0, 200)),
    ("4SXX", 6, False, "modern", (0, 0, 1600)),
    ("4SXX", 7, True, "modern", (0, 0, 1600)),
    # classic doubled undertricks: NV 100 then 200 each; V 200 then 300 each
    ("4SX", 6, False, "classic", (0, 0, 700)),
    ("4SX", 5, False, "classic", (0, 0, 900)),
    ("4SX", 6, True, "classic", (0, 0, 1100)),
    ("4SXX", 6, False, "classic", (0, 0, 1400)),
    ("4SXX", 8, True, "classic", (0, 0, 1000)),
    ("4S", 6, True, "classic", (0, 0, 400)),
]


@pytest.mark.parametrize(
    ("contract", "tricks", "vulnerable", "rules", "expected"),
    CASES,
    ids=[f"{c[0]}-{c[1]}-{'V' if c[2] else 'NV'}-{c[3]}" for c in CASES],
)
def test_score_contract(
    contract: str, tricks: int, vulnerable: bool, rules: str, expected: tuple[int, int, int]
) -> None:
    result = score_contract(contract, tricks, vulnerable, rules)
    assert (result.below, result.above, result.penalty) == expected


def test_default_rules_are_modern() -> None:
    assert score_contract("2HXX", 9, False).above == 300


@pytest.mark.parametrize("text", ["", "8S", "0NT", "4Z", "4SXXX", "X", "NT4"])
def test_bad_contract_text_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        score_contract(text, 7, False)


@pytest.mark.parametrize("tricks", [-1, 14])
def test_impossible_tricks_are_refused(tricks: int) -> None:
    with pytest.raises(NotationError):
        score_contract("1NT", tricks, False)


def test_unknown_rules_are_refused() -> None:
    with pytest.raises(NotationError):
        score_contract("1NT", 7, False, "chicago")


def _deal(n: str, e: str, s: str, w: str) -> Deal:
    return Deal.from_pbn(f"N:{n} {e} {s} {w}")


def test_honours_five_in_one_hand() -> None:
    deal = _deal("AKQJT.432.432.32", "98765.AK.AK.AK54", "432.QJT9.QJT9.QJ", ".8765.8765.T9876")
    assert honours(deal, Strain.SPADES) == {Side.NS: 150}
    assert honours(deal, Strain.HEARTS) == {}


def test_honours_four_of_five_for_defenders_too() -> None:
    deal = _deal("T5432.432.432.32", "AKQJ.AK.AK.AK654", "9876.QJT9.QJT9.Q", ".8765.8765.JT987")
    assert honours(deal, Strain.SPADES) == {Side.EW: 100}


def test_honours_four_aces_at_notrump() -> None:
    deal = _deal("A432.A32.A32.A32", "KQJT.KQJ.KQJ.KQJ", "9876.T98.T98.T98", "5.7654.7654.7654")
    assert honours(deal, Strain.NOTRUMP) == {Side.NS: 150}
    assert honours(deal.with_dealer(Seat.E), Strain.CLUBS) == {}
