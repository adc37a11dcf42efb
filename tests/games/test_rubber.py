"""Rubbers: games, vulnerability, bonuses, closing early, the rounded result; settlement."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.bridge.cards import Deal, Seat, Side
from games.bridge.deal import Action, DealState
from games.bridge.game import Outcome, RubberMatch, outcome
from games.bridge.rubber import EntryKind, Rubber, round_hundreds
from games.bridge.settlement import add_balances, rubber_entries, transfers
from games.errors import NotationError, RubberError, SettlementError
from tests.games.strategies import played_deals
from tests.sizes import examples


def test_rubber_in_three_games_with_penalty_and_honours() -> None:
    r = Rubber()
    r.record("EW", "4S", 10)  # EW 120 below: game
    assert r.games == {"NS": 0, "EW": 1} and r.vulnerable("EW") and not r.vulnerable("NS")
    r.record("NS", "3NT", 10)  # NS 100 below + 30: game
    assert r.vulnerable("NS") and not r.finished
    r.record("EW", "2HX", 6)  # EW vulnerable, doubled, down 2: NS 500 above
    r.record("NS", "4H", 11, honours={"NS": 100})  # 120 below, 30 over, 100 honours; rubber 2-1
    assert r.finished and r.winner_of_rubber == "NS"
    assert r.below == {"NS": 220, "EW": 120}
    assert r.above == {"NS": 30 + 500 + 30 + 100 + 500, "EW": 0}
    assert r.totals() == {"NS": 1380, "EW": 120}
    assert r.result() == ("NS", 1300)
    with pytest.raises(RubberError):
        r.record("NS", "1C", 7)


def test_part_scores_add_up_to_a_game_and_the_opponents_part_score_is_cut_off() -> None:
    r = Rubber()
    r.record("NS", "2H", 8)  # 60
    r.record("EW", "2C", 8)  # 40
    r.record("NS", "1NT", 7)  # 40: 100 in this game
    assert r.games == {"NS": 1, "EW": 0}
    assert r.below_in_game("EW") == 0  # EW's 40 no longer counts toward a game
    r.record("EW", "3D", 9)  # 60 in the new game, not 100 with the old 40
    assert r.games == {"NS": 1, "EW": 0}
    r.record("NS", "2S", 8)  # 60: not yet a game
    assert not r.finished and r.below_in_game("NS") == 60
    r.record("NS", "2C", 8)  # 40 more: game and rubber 2-0
    assert r.finished
    assert r.above["NS"] == 700
    assert r.totals() == {"NS": 60 + 40 + 60 + 40 + 700, "EW": 40 + 60}


def test_vulnerability_changes_the_penalty() -> None:
    r = Rubber()
    r.record("NS", "3NT", 9)
    entries = r.record("NS", "4S", 8)  # NS vulnerable: 2 down undoubled = 200
    assert [(e.side, e.points, e.kind) for e in entries] == [(Side.EW, 200, EntryKind.UNDERTRICKS)]


def test_side_with_the_rubber_bonus_can_lose_the_rubber() -> None:
    r = Rubber()
    r.record("EW", "7NTX", 0)  # NS collect 3500
    r.record("EW", "3NT", 9)
    r.record("EW", "3NT", 9)
    assert r.winner_of_rubber == "EW"
    assert r.result() == ("NS", round_hundreds(3500 - 200 - 700))


def test_doubled_contract_makes_game_from_a_part_score_level() -> None:
    r = Rubber()
    r.record("NS", "2HX", 8)  # 120 below: game
    assert r.games["NS"] == 1
    assert r.above["NS"] == 50


def test_passed_out_deal_changes_nothing() -> None:
    r = Rubber()
    assert r.record_passed_out() == []
    assert r.record("NS", "P") == []
    assert r.totals() == {"NS": 0, "EW": 0}
    assert len(r.records) == 2


@pytest.mark.parametrize(("premium", "expected_ew"), [(100, 100), (50, 50)])
def test_close_unfinished_rubber(premium: int, expected_ew: int) -> None:
    r = Rubber(unfinished_part_score=premium)
    r.record("NS", "4H", 10)  # NS game
    r.record("EW", "2S", 8)  # EW part score 60 in the unfinished game
    r.close()
    assert r.finished and r.winner_of_rubber is None
    assert r.totals() == {"NS": 120 + 300, "EW": 60 + expected_ew}
    assert r.result() == ("NS", round_hundreds(420 - 60 - expected_ew))


def test_close_with_a_game_each_and_no_part_scores() -> None:
    r = Rubber()
    r.record("NS", "4H", 10)
    r.record("EW", "4S", 10)
    r.close()
    assert r.totals() == {"NS": 420, "EW": 420}
    assert r.result() == (None, 0)


def test_classic_rules_change_doubled_penalties_in_the_rubber() -> None:
    r = Rubber("classic")
    r.record("NS", "4SX", 6)  # NV doubled down 4: 100 + 3 * 200
    assert r.above["EW"] == 700


def test_undo_last_rebuilds_the_sheet() -> None:
    r = Rubber()
    r.record("NS", "4H", 10)
    r.record("NS", "4H", 10)
    assert r.finished
    r.undo_last()
    assert not r.finished and r.games == {"NS": 1, "EW": 0} and r.totals()["NS"] == 120
    r.close()
    r.undo_last()  # takes back the close, not the deal
    assert not r.closed and r.totals()["NS"] == 120


def test_bad_records_are_refused_and_change_nothing() -> None:
    r = Rubber()
    for args in [("NS", "8S", 7), ("XY", "1S", 7), ("NS", "1S", 14)]:
        with pytest.raises(NotationError):
            r.record(*args)  # type: ignore[arg-type]
    with pytest.raises(RubberError):
        r.record("NS", "4S", 10, honours={"NS": 100, "EW": 150})
    assert r.records == [] and r.entries == []


@pytest.mark.parametrize(
    ("points", "rounded"),
    [
        (270, 300),
        (1170 - 900, 300),
        (250, 300),
        (249, 200),
        (50, 100),
        (49, 0),
        (0, 0),
        (1260, 1300),
    ],
)
def test_round_hundreds(points: int, rounded: int) -> None:
    assert round_hundreds(points) == rounded


# --- settlement --------------------------------------------------------------------------


def test_rubber_entries_sum_to_zero() -> None:
    seats = {Seat.N: "ann", Seat.E: "bob", Seat.S: "cat", Seat.W: "dan"}
    entries = rubber_entries(seats, "NS", 300)
    assert entries == {"ann": 300, "cat": 300, "bob": -300, "dan": -300}
    assert sum(entries.values()) == 0
    with pytest.raises(SettlementError):
        rubber_entries({**seats, Seat.W: "ann"}, "NS", 300)


def test_transfers_prefer_exact_pairs() -> None:
    balances = {"a": 500, "b": -500, "c": 300, "d": -200, "e": -100}
    result = transfers(balances)
    assert len(result) == 3
    left = dict(balances)
    for t in result:
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    assert set(left.values()) == {0}


def test_transfers_refuse_unbalanced() -> None:
    with pytest.raises(SettlementError):
        transfers({"a": 100, "b": -50})


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(-30, 30), min_size=1, max_size=14))
def test_transfers_zero_every_balance(amounts: list[int]) -> None:
    balances = {f"p{i}": a * 100 for i, a in enumerate(amounts)}
    balances["last"] = -sum(balances.values())
    result = transfers(balances)
    left = dict(balances)
    for t in result:
        assert t.amount > 0 and t.payer != t.payee
        assert balances[t.payer] < 0 < balances[t.payee]
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    assert all(v == 0 for v in left.values())
    assert len(result) <= max(0, sum(1 for v in balances.values() if v) - 1)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.permutations(["a", "b", "c", "d", "e"]),
            st.sampled_from(["NS", "EW"]),
            st.integers(0, 30),
        ),
        min_size=1,
        max_size=10,
    )
)
def test_running_accounts_sum_to_zero(rubbers: list[tuple[list[str], str, int]]) -> None:
    ledger: dict[str, int] = {}
    for players, winner, hundreds in rubbers:
        seats = dict(zip(Seat, players[:4], strict=False))
        ledger = add_balances(ledger, rubber_entries(seats, winner, hundreds * 100))
    assert sum(ledger.values()) == 0


@settings(max_examples=examples(60), deadline=None)
@given(played_deals(finish=True))
def test_a_deals_typed_outcome_scores_as_its_stored_form(case: tuple[Deal, list[Action]]) -> None:
    """One typed outcome: what the table stores for a finished deal reads back equal, and a
    rubber scores the stored form exactly as the outcome itself."""
    deal, actions = case
    state = DealState.replay(deal, actions)
    assume(state.result is not None)
    typed = Outcome.of(state)
    assert Outcome.from_payload(typed.to_payload()) == typed
    direct, stored = Rubber(), RubberMatch({})
    assert typed.write(direct) == stored.record(outcome(state))
    assert direct.totals() == stored.rubber.totals()
