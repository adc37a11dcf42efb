"""A deal in progress: turns, dummy, following suit, claims, undo, per-seat views, replay."""

from __future__ import annotations

import dataclasses
import pickle

import pytest
from hypothesis import given, settings

from games.bridge.calls import Call
from games.bridge.cards import FULL_DECK, Card, Deal, Seat, Side
from games.bridge.deal import (
    Action,
    AnswerClaim,
    DealState,
    MakeCall,
    MakeClaim,
    Phase,
    PlayCard,
    Undo,
)
from games.bridge.errors import BridgeReason
from games.bridge.game import BridgeState
from games.core.protocols import may_act
from games.errors import IllegalClaim, IllegalPlay, OutOfTurn, Reason, RuleError
from tests.sizes import examples

from .strategies import deals, played_deals

# N holds all spades, E all hearts, S all diamonds, W all clubs: every trick is easy to reason.
SUITED = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")


def calls(state: DealState, text: str) -> DealState:
    for call in text.split():
        actor = state.actor
        assert actor is not None
        state = state.apply(MakeCall(actor, Call.parse(call)))
    return state


def card(text: str) -> Card:
    return Card.parse(text)


def test_shuffled_deal_has_four_hands_of_13() -> None:
    deal = Deal.shuffled(Seat.E, lambda n: n - 1)
    assert sorted(c for h in deal.hands for c in h) == sorted(FULL_DECK)
    assert all(len(h) == 13 for h in deal.hands)


@given(deals())
def test_pbn_round_trips(deal: Deal) -> None:
    assert Deal.from_pbn(deal.to_pbn()) == deal


def test_bad_pbn_refused() -> None:
    with pytest.raises(RuleError):
        Deal.from_pbn("N:AKQ... ... ... ...")


def test_opening_lead_left_of_declarer_and_dummy_played_by_declarer() -> None:
    state = calls(DealState.new(SUITED), "1S P P P")  # N declares 1S; E leads; S is dummy
    assert state.phase is Phase.PLAY
    assert state.declarer is Seat.N and state.dummy is Seat.S
    assert state.turn is Seat.E and state.actor is Seat.E
    with pytest.raises(OutOfTurn) as info:
        state.apply(PlayCard(Seat.N, card("S2")))
    assert info.value.reason is Reason.NOT_YOUR_TURN
    state = state.apply(PlayCard(Seat.E, card("HA")))
    # dummy's turn: declarer acts, dummy may not
    assert state.turn is Seat.S and state.actor is Seat.N
    with pytest.raises(IllegalPlay) as info2:
        state.apply(PlayCard(Seat.S, card("D2")))
    assert info2.value.reason is BridgeReason.DUMMY_CANNOT_ACT
    state = state.apply(PlayCard(Seat.N, card("D2")))
    state = state.apply(PlayCard(Seat.W, card("C2")))
    state = state.apply(PlayCard(Seat.N, card("S2")))  # N trumps: wins, leads next
    assert state.play is not None
    assert state.play.tricks_won(Side.NS) == 1
    assert state.turn is Seat.N


def test_must_follow_suit() -> None:
    deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.765 6543.J76.AKQ.JT9 2.5432.JT98.AKQ8")
    state = calls(DealState.new(deal), "1NT P P P")  # N declares, E leads
    state = state.apply(PlayCard(Seat.E, card("HA")))
    with pytest.raises(IllegalPlay) as info:
        state.apply(PlayCard(Seat.N, card("S6")))  # S is dummy; holds hearts
    assert info.value.reason is Reason.MUST_FOLLOW_SUIT
    with pytest.raises(IllegalPlay) as info2:
        state.apply(PlayCard(Seat.N, card("HK")))  # E played it: not in dummy's hand
    assert info2.value.reason is Reason.CARD_NOT_HELD
    assert state.legal_cards(Seat.N) == {card("HJ"), card("H7"), card("H6")}


def test_passed_out_deal_finishes_without_play() -> None:
    state = calls(DealState.new(SUITED), "P P P P")
    assert state.phase is Phase.FINISHED
    assert state.result is not None and state.result.passed_out


def test_claim_accepted_by_both_defenders() -> None:
    state = calls(DealState.new(SUITED), "7S P P P")
    state = state.apply(MakeClaim(Seat.N, 13))
    assert state.turn is None
    with pytest.raises(OutOfTurn):
        state.apply(PlayCard(Seat.E, card("HA")))
    with pytest.raises(IllegalClaim):
        state.apply(AnswerClaim(Seat.S, True))  # dummy does not answer
    state = state.apply(AnswerClaim(Seat.E, True))
    assert state.result is None
    with pytest.raises(IllegalClaim) as info:
        state.apply(AnswerClaim(Seat.E, True))
    assert info.value.reason is BridgeReason.ALREADY_ANSWERED
    state = state.apply(AnswerClaim(Seat.W, True))
    assert state.result is not None
    assert state.result.declarer_tricks == 13 and state.result.claimed


def test_claim_rejected_play_goes_on() -> None:
    state = calls(DealState.new(SUITED), "7S P P P")
    state = state.apply(MakeClaim(Seat.N, 13))
    state = state.apply(AnswerClaim(Seat.W, False))
    assert state.claim is None and state.turn is Seat.E


def test_defender_concedes_mid_play() -> None:
    state = calls(DealState.new(SUITED), "1S P P P")
    for seat, c in [(Seat.E, "HA"), (Seat.N, "D2"), (Seat.W, "C2"), (Seat.N, "S2")]:
        state = state.apply(PlayCard(seat, card(c)))
    # E concedes the rest: E-W take none of the 12 left; declarer (N) answers alone
    state = state.apply(MakeClaim(Seat.E, 0))
    assert state.claim is not None and state.claim.responders == {Seat.N}
    state = state.apply(AnswerClaim(Seat.N, True))
    assert state.result is not None and state.result.declarer_tricks == 13


def test_claim_of_too_many_tricks_refused() -> None:
    state = calls(DealState.new(SUITED), "1S P P P")
    with pytest.raises(IllegalClaim) as info:
        state.apply(MakeClaim(Seat.N, 14))
    assert info.value.reason is BridgeReason.CLAIM_TOO_MANY


def test_undo_last_call_and_card() -> None:
    state = calls(DealState.new(SUITED), "1S")
    with pytest.raises(OutOfTurn):
        state.apply(Undo(Seat.E))  # E has not called yet
    undone = state.apply(Undo(Seat.N))
    assert undone.auction.calls == () and undone.turn is Seat.N
    state = calls(undone, "1S P P P")
    state = state.apply(PlayCard(Seat.E, card("HA")))
    back = state.apply(Undo(Seat.E))
    assert back.play is not None and back.play.cards_played == 0
    assert back.turn is Seat.E
    # the undone history replays to the same state
    assert DealState.replay(SUITED, back.history) == back


def test_views_hide_concealed_hands() -> None:
    state = calls(DealState.new(SUITED), "1S P P P")
    for viewer in Seat:
        assert set(state.view(viewer).hands) == {viewer}
    assert state.view(None).hands == {}
    state = state.apply(PlayCard(Seat.E, card("HA")))
    assert set(state.view(None).hands) == {Seat.S}
    assert set(state.view(Seat.W).hands) == {Seat.W, Seat.S}
    assert state.view(Seat.N).legal_cards == state.legal_cards(Seat.N)
    assert state.view(Seat.S).legal_cards == frozenset()


@settings(max_examples=examples(150), deadline=None)
@given(played_deals(extras=False))
def test_random_legal_play_without_claims_plays_every_card_once(
    case: tuple[Deal, list[Action]],
) -> None:
    deal, actions = case
    state = DealState.replay(deal, actions)
    assert state.result is not None and not state.result.claimed
    if state.play is not None:
        assert sorted(c for t in state.play.tricks for c in t.cards) == sorted(FULL_DECK)


@settings(max_examples=examples(150), deadline=None)
@given(played_deals())
def test_random_legal_play_finishes_with_every_card_once(case: tuple[Deal, list[Action]]) -> None:
    deal, actions = case
    state = DealState.replay(deal, actions)
    assert state.result is not None
    if state.play is None:
        assert state.result.passed_out
        return
    if state.result.claimed:
        assert state.play.declarer_tricks <= state.result.declarer_tricks
        assert state.result.declarer_tricks <= state.play.declarer_tricks + state.play.tricks_left
        return
    played = [c for t in state.play.tricks for c in t.cards]
    assert len(played) == 52 and set(played) == set(FULL_DECK)
    assert len(state.play.tricks) == 13
    ns, ew = state.play.tricks_won(Side.NS), state.play.tricks_won(Side.EW)
    assert ns + ew == 13
    assert state.result.declarer_tricks == state.play.tricks_won(state.result.declarer.side)  # type: ignore[union-attr]


@settings(max_examples=examples(150), deadline=None)
@given(played_deals())
def test_a_seat_may_act_exactly_when_it_has_a_legal_call_or_card(
    case: tuple[Deal, list[Action]],
) -> None:
    """``may_act`` answers without listing the calls and cards: the same answer as the
    lists, at every step of random deals with undos and claims, to the end."""
    deal, actions = case
    state = DealState.new(deal)
    for action in [None, *actions]:
        if action is not None:
            state = state.apply(action)
        for seat in Seat:
            listed = bool(state.legal_calls(seat) or state.legal_cards(seat))
            assert state.may_act(seat) == listed, (seat, state.phase)


@settings(max_examples=examples(150), deadline=None)
@given(played_deals())
def test_what_a_state_works_out_once_is_what_it_would_work_out_anew(
    case: tuple[Deal, list[Action]],
) -> None:
    """A state keeps what it worked out (whose turn, the views' shared part) for the next ask:
    at every step of random deals with undos and claims, each answer and every seat's view
    equal those of the same state built anew, and the kept part is not part of the value."""
    deal, actions = case
    state = DealState.new(deal)
    for action in [None, *actions]:
        if action is not None:
            state = state.apply(action)
        asked = (state.turn, state.actor, state.contract, state.declarer)
        views = [state.view(v) for v in (*Seat, None)]
        anew = dataclasses.replace(state)
        assert anew._memo == {} and state == anew and hash(state) == hash(anew)
        assert [anew.view(v) for v in (None, *Seat)] == [views[-1], *views[:-1]]
        assert (anew.turn, anew.actor, anew.contract, anew.declarer) == asked
        assert [state.view(v) for v in (*Seat, None)] == views
        assert pickle.loads(pickle.dumps(state)) == state and "_memo" not in repr(state)


@settings(max_examples=examples(150), deadline=None)
@given(played_deals())
def test_the_game_says_who_may_act_as_its_legal_actions_do(
    case: tuple[Deal, list[Action]],
) -> None:
    """``games.core.may_act`` answers from the bridge state without listing its actions (the
    turn timers ask it of every seat at every press): the same answer as the list, claims'
    answers included, at every step of random deals to the end."""
    deal, actions = case
    state = BridgeState(DealState.new(deal))
    for action in [None, *actions]:
        if action is not None:
            state = state.apply(action)
        for seat in range(4):
            assert may_act(state, seat) == bool(state.legal_actions(seat)), (seat, action)


@settings(max_examples=examples(150), deadline=None)
@given(played_deals(finish=False))
def test_replay_rebuilds_the_same_state(case: tuple[Deal, list[Action]]) -> None:
    deal, actions = case
    live = DealState.new(deal)
    for action in actions:
        live = live.apply(action)
        for viewer in Seat:
            view = live.view(viewer)
            visible = set(view.hands)
            expected = {viewer}
            if live.dummy_exposed and live.dummy is not None:
                expected.add(live.dummy)
            if live.claim is not None:  # a claim is made with the hand faced (Law 68)
                expected.add(live.claim.claimant)
            assert visible == expected
    assert DealState.replay(deal, actions) == live
