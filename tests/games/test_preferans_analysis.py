"""The analysis of a finished Preferans deal: declarer's hand is his ten with the talon less
the actual discard, the best game is the highest that makes at or above the auction's bid, and
a misère's catch is what the defenders can force; random deals keep the relations."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.preferans.analysis import (
    GameAnalysis,
    MisereAnalysis,
    analyse,
    played_hands,
    tricks_in,
)
from games.preferans.bids import Bid, Strain
from games.preferans.cards import Card
from games.preferans.deal import DealState, Declare, Discard, Kind
from games.preferans.solver import solve_seats
from tests.games.test_preferans_deal import calls, fixed_deal, random_deal
from tests.sizes import examples


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(w) for w in text.split())


def declared(discard: str, contract: str) -> DealState:
    """Seat 0 (all eight spades, ♣AK; the first hand) wins the auction at 6♠ and declares."""
    state = calls(DealState.new(fixed_deal(dealer=2)), "6S", "P", "P")
    a, b = cards(discard)
    state = state.apply(Discard(0, (a, b)))
    return state.apply(Declare(0, Bid.parse(contract)))


def test_the_discard_and_the_talon_make_declarers_hand() -> None:
    clean = declared("H8 H7", "6S")
    assert played_hands(clean)[0] == frozenset(cards("SA SK SQ SJ S10 S9 S8 S7 CA CK"))
    found = analyse(clean)
    assert isinstance(found, GameAnalysis)
    # Ten tricks in spades, and in no trump too (he leads: spades, then ♣AK).
    assert found.makes == 10 and found.best == Bid.parse("10NT")
    assert not found.whisting_paid  # the defenders take nothing against an obligation of 4
    # The same hand keeping the talon's hearts and throwing ♣AK: the hearts are lost.
    costly = analyse(declared("CA CK", "6S"))
    assert isinstance(costly, GameAnalysis)
    assert costly.makes == 8 and costly.best == Bid.parse("8NT")  # eight spades, in no trump


def test_whisting_pays_when_the_contract_goes_down_or_the_obligation_is_taken() -> None:
    beaten = GameAnalysis(0, Bid.parse("7H"), 6, None, 2)
    assert beaten.whisting_paid and beaten.defence == 4
    short = GameAnalysis(0, Bid.parse("6S"), 9, Bid.parse("9S"), 4)
    assert not short.whisting_paid  # one trick against an obligation of four
    assert GameAnalysis(0, Bid.parse("8S"), 9, None, 1).whisting_paid  # one, as owed


def misere_value(state: DealState) -> int:
    """Declarer's fewest tricks in the misère, by the solver's exact value."""
    assert state.declarer is not None
    deal = state.deal
    return solve_seats(
        played_hands(state), deal.active, deal.first_hand, state.declarer, None, maximize=False
    )


def test_a_misere_on_eight_spades_is_caught_every_trick() -> None:
    state = calls(DealState.new(fixed_deal(dealer=2)), "MIS", "P", "P")
    state = state.apply(Discard(0, cards("H8 H7")))
    found = analyse(state)
    assert isinstance(found, MisereAnalysis) and found.declarer == 0
    assert found.caught and misere_value(state) == 10  # nobody else has a spade, or ♣AK


@settings(max_examples=examples(40, least=4), deadline=None)
@given(st.integers(0, 10**9))
def test_random_finished_deals_keep_the_relations(seed: int) -> None:
    state, _ = random_deal(seed)
    found = analyse(state)
    if state.kind is Kind.RASPASY:
        assert found is None
        return
    assert found is not None and found.declarer == state.declarer
    if isinstance(found, MisereAnalysis):
        assert state.kind is Kind.MISERE
        # caught: the defence forces a trick; the exact value says the same
        position_value = misere_value(state)
        assert found.caught == (position_value > 0)
        return
    assert state.kind is Kind.GAME and state.contract is not None and state.bid is not None
    assert 0 <= found.makes <= 10
    # The best named game makes, is at least the auction's bid, and nothing above it makes.
    if found.best is not None:
        assert found.best >= state.bid
        assert found.best.strain is not None
        assert tricks_in(state, found.best.strain) >= found.best.level
    rng = random.Random(seed)
    strain = rng.choice(list(Strain))
    level = tricks_in(state, strain)
    if level >= 6:
        bid = Bid.of(min(level, 10), strain)
        if bid >= state.bid:
            assert found.best is not None and found.best >= bid
    if found.makes >= state.contract.level:
        assert found.best is not None and found.best >= state.contract
    # Whisting paid: beaten, or the defence took its obligation (the pulka's §4).
    assert found.whisting_paid == (
        found.makes < state.contract.level or 10 - found.makes >= found.obligation
    )
