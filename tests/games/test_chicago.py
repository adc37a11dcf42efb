"""Chicago scoring (RULES.md, "Chicago") against hand-computed cases: each rule of the section,
both part-score settings, the modern and classic tables, the worked example, an early stop."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bridge.cards import Seat, Side
from games.bridge.chicago import Chicago
from games.bridge.game import RubberMatch
from games.bridge.rubber import EntryKind, Line
from games.core.registry import find_game
from games.errors import NotationError, Reason, RubberError
from tests.sizes import examples

NS, EW = Side.NS, Side.EW


def test_the_worked_example() -> None:
    c = Chicago(dealer="N")
    assert not c.vulnerable(NS) and not c.vulnerable(EW)  # deal 1: nobody
    c.record("NS", "2S", 8)
    assert c.vulnerable(EW) and not c.vulnerable(NS)  # deal 2, dealer E
    entries = c.record("EW", "3NT", 9)
    assert [(e.side, e.points, e.kind) for e in entries] == [
        (EW, 100, EntryKind.TRICKS),
        (EW, 500, EntryKind.GAME),
    ]
    assert c.below_in_game(NS) == 0  # N-S's 60 is cancelled by the line
    assert c.vulnerable(NS) and not c.vulnerable(EW)  # deal 3, dealer S
    c.record("NS", "1NT", 8)
    assert c.vulnerable(NS) and c.vulnerable(EW)  # deal 4: both
    assert c.record("EW", "2H", 8)[-1].points == 100  # a part score on deal 4
    assert c.finished and c.totals() == {NS: 130, EW: 760}
    assert c.result() == (EW, 600) and c.result(rounded=False) == (EW, 630)


@pytest.mark.parametrize("dealer", list(Seat))
def test_vulnerability_follows_the_deal_and_its_dealer(dealer: Seat) -> None:
    c = Chicago(dealer=dealer)
    seen = []
    for number in range(4):
        assert c.dealer == dealer.after(number) and c.deal_number == number + 1
        seen.append((c.vulnerable(NS), c.vulnerable(EW)))
        c.record("NS", "1C", 6)  # down one: no part score to carry
    mine = dealer.after(1).side
    second = (mine is NS, mine is EW)
    third_side = dealer.after(2).side
    third = (third_side is NS, third_side is EW)
    assert seen == [(False, False), second, third, (True, True)]


def test_a_passed_out_deal_is_dealt_again_and_does_not_count() -> None:
    c = Chicago(dealer="E")
    c.record("NS", "1C", 7)
    assert c.record_passed_out() == []
    assert c.deal_number == 2 and c.dealer is Seat.S  # the same dealer deals again
    assert c.vulnerable(NS) and not c.vulnerable(EW)
    for _ in range(3):
        c.record_passed_out()
    assert not c.finished and c.deals_played == 1


def test_part_scores_carry_to_a_game_and_the_game_is_valued_on_its_deal() -> None:
    c = Chicago(dealer="N")
    c.record("NS", "2H", 8)  # deal 1: 60, nobody vulnerable
    entries = c.record("NS", "2D", 8)  # deal 2 (E deals: E-W vul): 40 more = 100, N-S not vul
    assert (NS, 300, EntryKind.GAME) in [(e.side, e.points, e.kind) for e in entries]
    c.record("EW", "2C", 8)  # deal 3 (S deals: N-S vul): E-W 40, not vulnerable, no bonus
    entries = c.record("NS", "3NT", 9)  # deal 4, both vulnerable: a game 500, no part bonus
    kinds = [(e.side, e.points, e.kind) for e in entries]
    assert (NS, 500, EntryKind.GAME) in kinds and EntryKind.PART_SCORE not in [k for *_, k in kinds]
    assert c.totals() == {NS: 60 + 40 + 300 + 100 + 500, EW: 40}


def test_left_over_part_scores_earn_nothing_and_a_failed_contract_no_part_bonus() -> None:
    c = Chicago(dealer="N")
    c.record("NS", "1S", 7)  # 30, left over
    c.record("EW", "1D", 7)  # 20
    c.record("NS", "1H", 7)  # 30: N-S 60, no game
    entries = c.record("EW", "4S", 9)  # deal 4: down one, vulnerable: 100 to N-S
    assert [(e.side, e.points, e.kind) for e in entries] == [(NS, 100, EntryKind.UNDERTRICKS)]
    assert c.totals() == {NS: 160, EW: 20}


def test_slams_doubles_and_honours_use_the_rubbers_tables_with_the_deals_vulnerability() -> None:
    c = Chicago(dealer="W")  # deal 2's dealer N: N-S vulnerable on deal 2
    c.record("EW", "1C", 7)
    entries = c.record("NS", "6SX", 13, honours={"NS": 100})  # vul, doubled, one over
    got = {(e.kind, e.points) for e in entries}
    assert got == {
        (EntryKind.TRICKS, 360),
        (EntryKind.OVERTRICKS, 200),
        (EntryKind.INSULT, 50),
        (EntryKind.SLAM, 750),
        (EntryKind.HONOURS, 100),
        (EntryKind.GAME, 500),
    }
    classic = Chicago(rules="classic", dealer="W")
    classic.record("EW", "1C", 7)
    down = classic.record("NS", "4HX", 7)  # vulnerable, doubled, down 3: 200 + 300 + 300
    assert [(e.side, e.points) for e in down] == [(EW, 800)]
    modern = Chicago(dealer="W")
    modern.record("EW", "1C", 7)
    assert [(e.side, e.points) for e in modern.record("NS", "4HX", 7)] == [(EW, 800)]
    nv = Chicago(dealer="N")  # deal 1: not vulnerable, doubled down 4: classic 100+200+200+200
    assert nv.record("NS", "4HX", 6)[0].points == 800
    nv_classic = Chicago(rules="classic", dealer="N")
    assert nv_classic.record("NS", "4HX", 6)[0].points == 700


def test_the_fifty_setting_carries_nothing() -> None:
    c = Chicago(part_score="50", dealer="N")
    entries = c.record("NS", "2S", 8)  # 60 below and 50 for the part score
    assert [(e.points, e.kind) for e in entries] == [
        (60, EntryKind.TRICKS),
        (50, EntryKind.PART_SCORE),
    ]
    entries = c.record("NS", "2S", 8)  # another 60: nothing carried, no game
    assert [e.points for e in entries] == [60, 50]
    c.record("EW", "4H", 10)  # deal 3 (S deals: N-S vul), E-W not vulnerable: 120 + 300
    entries = c.record("NS", "1NT", 7)  # deal 4: no 100, just 50
    assert [e.points for e in entries] == [40, 50]
    assert c.totals() == {NS: 60 + 50 + 60 + 50 + 40 + 50, EW: 120 + 300}
    with pytest.raises(NotationError):
        Chicago(part_score="75")


def test_an_early_stop_is_settled_on_the_deals_played() -> None:
    c = Chicago(dealer="N")
    c.record("NS", "2S", 8)
    c.record("EW", "1NT", 7)
    assert c.close() == [] and c.finished
    assert c.totals() == {NS: 60, EW: 40} and c.result() == (NS, 0)
    with pytest.raises(RubberError):
        c.record("NS", "1C", 7)
    c.undo_last()  # the stop taken back: play on
    assert not c.finished and c.deals_played == 2


def test_four_deals_end_it_and_undo_rebuilds_the_sheet() -> None:
    c = Chicago(dealer="S")
    for contract in ("1C", "1D", "1H", "1S"):
        c.record("EW", contract, 7)
    assert c.finished
    with pytest.raises(RubberError):
        c.record("NS", "1C", 7)
    before = list(c.entries)
    c.undo_last()
    assert not c.finished and c.entries == before[: len(c.entries)]
    assert all(e.line in (Line.ABOVE, Line.BELOW) for e in c.entries)


@settings(max_examples=examples(200))
@given(
    st.sampled_from(list(Seat)),
    st.sampled_from(["carry", "50"]),
    st.lists(
        st.tuples(
            st.sampled_from(["NS", "EW", None]),
            st.sampled_from(["1C", "2H", "3NT", "4S", "5DX", "6NTXX", "7C"]),
            st.integers(0, 13),
        ),
        max_size=12,
    ),
)
def test_random_chicagos_end_after_four_counted_deals(
    dealer: Seat, part: str, deals: list[tuple[str | None, str, int]]
) -> None:
    c = Chicago(part_score=part, dealer=dealer)
    counted = 0
    for side, contract, tricks in deals:
        if c.finished:
            break
        was = (c.vulnerable(NS), c.vulnerable(EW), c.deal_number)
        entries = c.record(side, None if side is None else contract, tricks)
        counted += side is not None
        assert counted == c.deals_played
        games = [e for e in entries if e.kind is EntryKind.GAME]
        for e in games:  # a game's bonus by the vulnerability on its deal
            assert e.points == (500 if was[0 if e.side is NS else 1] else 300)
        if part == "50" or was[2] < 4:  # 100 only for a part score on deal 4
            assert all(e.points != 100 or e.kind is not EntryKind.PART_SCORE for e in entries)
    assert c.finished == (counted >= 4)
    for side in Side:
        assert c.totals()[side] == sum(e.points for e in c.entries if e.side is side)


# --- the Chicago as a table's match --------------------------------------------------------


def test_a_chicago_match_at_a_table_follows_its_dealer_and_settles_per_seat() -> None:
    """What the table does: the match is chosen by the table's ``form``, its first deal's
    dealer sets the vulnerability, a passed-out deal is dealt again by the same dealer, and it
    settles like a rubber (each winner the result, each loser minus it)."""
    game = find_game("bridge")
    match = game.new_match(4, {"form": "chicago", "rounding": "hundreds"})
    assert isinstance(match, RubberMatch) and match.chicago is not None
    dealer = int(Seat.E)  # drawn by lot at the table
    dealers = []
    for outcome in (
        {"contract": None},  # passed out: E deals again
        {"contract": "2S", "declarer": "N", "tricks": 8},  # deal 1, nobody vulnerable: 60
        {"contract": "3NT", "declarer": "E", "tricks": 9},  # deal 2, dealer S: N-S vulnerable
        {"contract": "1NT", "declarer": "N", "tricks": 8},  # deal 3, dealer W: E-W vulnerable
        {"contract": "2H", "declarer": "W", "tricks": 8},  # deal 4: both; no game, 100
    ):
        dealers.append(Seat(dealer).name)
        match.record({"tricks": 0, "honours": {}, **outcome, "dealer": Seat(dealer).name})
        dealer = game.next_dealer(dealer, 4, match)
    assert dealers == ["E", "E", "S", "W", "N"]
    assert match.finished
    # deal 2 (dealer S, N-S vulnerable) E-W's game not vulnerable: 100 + 300; deal 3 (dealer W,
    # E-W vulnerable) N-S 40 below 30 above; deal 4: E-W 60 + 100.
    assert match.rubber.totals() == {NS: 60 + 40 + 30, EW: 100 + 300 + 60 + 100}
    assert list(match.settle()) == [-400, 400, -400, 400]  # 430 rounded to hundreds
    assert match.summary() == {"winner": "EW", "points": 400, "form": "chicago"}


def test_a_chicagos_form_and_scoring_are_fixed_once_it_started() -> None:
    match = RubberMatch({"form": "chicago"})
    match.configure({"form": "chicago", "chicago_part": "50"})  # before its first deal: yes
    assert match.chicago is not None and match.chicago.part_score == "50"
    match.record({"contract": "2S", "declarer": "N", "tricks": 8, "honours": {}, "dealer": "N"})
    changes = (
        {"form": "rubber"},
        {"form": "chicago"},  # its part score back to carry
        {"form": "chicago", "rules": "classic", "chicago_part": "50"},
    )
    for options in changes:
        with pytest.raises(RubberError) as refused:
            match.configure(options)
        assert refused.value.reason is Reason.OPTIONS_LOCKED
    rubber = RubberMatch({})
    with pytest.raises(RubberError):
        rubber.configure({"form": "chicago"})
    with pytest.raises(NotationError):
        RubberMatch({"form": "pairs"})


def test_old_results_without_a_dealer_still_score_a_rubber() -> None:
    match = RubberMatch({})
    match.record({"contract": "4S", "declarer": "N", "tricks": 10, "honours": {}})
    assert match.rubber.games[NS] == 1
