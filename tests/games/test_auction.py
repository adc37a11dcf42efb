"""The auction: worked examples from RULES.md and the seeds, and properties against an oracle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bridge.auction import Auction
from games.bridge.calls import Call
from games.bridge.errors import BridgeReason
from games.errors import IllegalCall, Reason
from tests.sizes import examples


def run(dealer: str, calls: str) -> Auction:
    auction = Auction(dealer)
    for call in calls.split():
        auction.call(call)
    return auction


@pytest.mark.parametrize(
    ("dealer", "calls", "contract", "declarer"),
    [
        # RULES.md
        ("N", "1H 2H 2S 4H P P X P P P", "4HX", "E"),
        ("N", "1H 1NT 2H X XX P P P", "2HXX", "N"),
        # seed 000: S deals; 1NT P 3NT P P P: S first named no-trump
        ("S", "1NT P 3NT P P P", "3NT", "S"),
        # seed 000: S 1NT, W X, N XX, E 2(suit): a new bid cancels the redouble
        ("S", "1NT X XX 2C P P P", "2C", "E"),
        # partner first named the strain: declarer is the partner, not the last bidder
        ("N", "1S P 2C P 4S P P P", "4S", "N"),
        ("N", "P 1D P 1H P 2NT P 3NT P P P", "3NT", "E"),
        ("W", "1C 1D 2C 2D 3C 3D P P P", "3D", "N"),
        ("E", "P P P 1C P P P", "1C", "N"),
    ],
)
def test_contract_and_declarer(dealer: str, calls: str, contract: str, declarer: str) -> None:
    auction = run(dealer, calls)
    assert auction.is_over
    assert auction.contract == contract
    assert auction.declarer == declarer


def test_passed_out() -> None:
    auction = run("E", "P P P P")
    assert auction.is_over and auction.is_passed_out
    assert auction.contract is None and auction.declarer is None
    assert auction.legal_calls() == []


def test_three_passes_at_the_start_do_not_end_it() -> None:
    auction = run("N", "P P P")
    assert not auction.is_over
    assert auction.turn == "W"


@pytest.mark.parametrize(
    ("calls", "bad", "reason"),
    [
        ("1H", "1D", Reason.INSUFFICIENT_BID),
        ("2H", "2D", Reason.INSUFFICIENT_BID),
        ("2H", "2H", Reason.INSUFFICIENT_BID),
        ("", "X", BridgeReason.DOUBLE_NOTHING),
        ("P", "X", BridgeReason.DOUBLE_NOTHING),
        ("1H 1S P", "X", BridgeReason.DOUBLE_PARTNER),
        ("1H P", "X", BridgeReason.DOUBLE_PARTNER),
        ("1H X", "X", BridgeReason.ALREADY_DOUBLED),
        ("1H X XX", "X", BridgeReason.ALREADY_DOUBLED),
        ("1H", "XX", BridgeReason.REDOUBLE_NOT_DOUBLED),
        ("1H P P X P", "XX", BridgeReason.REDOUBLE_OWN_DOUBLE),
        ("1H X P", "XX", BridgeReason.REDOUBLE_OWN_DOUBLE),
        ("1H X XX", "XX", BridgeReason.ALREADY_DOUBLED),
        ("1H X 1S", "XX", BridgeReason.REDOUBLE_NOT_DOUBLED),
        ("1H P P P", "1S", Reason.AUCTION_OVER),
    ],
)
def test_illegal_calls_refused_with_reason(calls: str, bad: str, reason: Reason) -> None:
    auction = run("N", calls)
    before = auction.calls
    with pytest.raises(IllegalCall) as info:
        auction.call(bad)
    assert info.value.reason is reason
    assert isinstance(info.value, ValueError)
    assert auction.calls == before


def test_double_with_passes_between_rules_md() -> None:
    # 1H - 1S - 2H - X is legal for W; 1H - 1S - Pass - X is not (last bid is partner's)
    assert "X" in run("N", "1H 1S 2H").legal_calls()
    assert "X" not in run("N", "1H 1S P").legal_calls()
    # 1H - X - Pass - Pass - XX is legal for N; it stops once a bid follows
    assert "XX" in run("N", "1H X P P").legal_calls()
    assert "XX" not in run("N", "1H X P 1S P").legal_calls()


def test_legal_bids_after_2h() -> None:
    legal = run("N", "2H").legal_calls()
    assert "2D" not in legal and "2H" not in legal
    assert {"2S", "2NT", "3C", "7NT"} <= set(legal)
    assert len([c for c in legal if c[0].isdigit()]) == 35 - 8


def test_call_text_round_trips() -> None:
    for text in ["P", "X", "XX", "1C", "3NT", "7S"]:
        assert str(Call.parse(text)) == text
    assert str(Call.parse("pass")) == "P"
    assert str(Call.parse("3n")) == "3NT"


# --- properties against an independent oracle ---------------------------------------------

SEATS = "NESW"
STRAINS = ["C", "D", "H", "S", "NT"]
BIDS = [f"{level}{strain}" for level in range(1, 8) for strain in STRAINS]


def oracle(dealer: str, calls: list[str]) -> tuple[set[str], bool, str | None, str | None]:
    """A second, plain reading of the laws: legal calls, over, contract, declarer."""
    last_bid_index = -1
    last_bidder = -1
    doubled = 0
    doubler = -1
    first_named: dict[tuple[int, str], int] = {}
    n = len(calls)
    start = SEATS.index(dealer)
    for i, call in enumerate(calls):
        seat = (start + i) % 4
        if call == "X":
            doubled, doubler = 1, seat
        elif call == "XX":
            doubled = 2
        elif call != "P":
            last_bid_index, last_bidder, doubled = BIDS.index(call), seat, 0
            strain = call[1:]
            first_named.setdefault((seat % 2, strain), seat)
    over = n >= 4 and calls[-3:] == ["P", "P", "P"]
    if over:
        if last_bid_index < 0:
            return set(), True, None, None
        bid = BIDS[last_bid_index]
        contract = bid + ("", "X", "XX")[doubled]
        return set(), True, contract, SEATS[first_named[(last_bidder % 2, bid[1:])]]
    me = (start + n) % 4
    legal = {"P"} | set(BIDS[last_bid_index + 1 :])
    if last_bid_index >= 0 and doubled == 0 and last_bidder % 2 != me % 2:
        legal.add("X")
    if doubled == 1 and doubler % 2 != me % 2:
        legal.add("XX")
    return legal, False, None, None


@st.composite
def auctions(draw: st.DrawFn) -> tuple[str, list[str]]:
    dealer = draw(st.sampled_from(SEATS))
    auction = Auction(dealer)
    calls: list[str] = []
    while not auction.is_over:
        legal = auction.legal_calls()
        # Lean on passes so auctions finish at realistic lengths, but reach every call.
        call = draw(st.one_of(st.just("P"), st.sampled_from(legal)))
        auction.call(call)
        calls.append(call)
    return dealer, calls


@settings(max_examples=examples(300))
@given(auctions())
def test_random_auctions_match_the_oracle_at_every_step(case: tuple[str, list[str]]) -> None:
    dealer, calls = case
    auction = Auction(dealer)
    for i in range(len(calls) + 1):
        legal, over, contract, declarer = oracle(dealer, calls[:i])
        assert set(auction.legal_calls()) == legal
        assert auction.is_over == over
        if over:
            assert (auction.contract, auction.declarer) == (contract, declarer)
        if i < len(calls):
            auction.call(calls[i])
    assert auction.is_over


@settings(max_examples=examples(200))
@given(auctions(), st.sampled_from(["P", "X", "XX", *BIDS]))
def test_every_call_outside_legal_calls_is_refused(case: tuple[str, list[str]], extra: str) -> None:
    dealer, calls = case
    auction = Auction(dealer)
    for call in calls[: len(calls) // 2]:
        auction.call(call)
    legal = auction.legal_calls()
    if extra in legal:
        auction.call(extra)
    else:
        with pytest.raises(IllegalCall):
            auction.call(extra)
