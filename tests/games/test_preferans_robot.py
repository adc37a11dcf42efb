"""The Preferans robot: only legal actions, from its seat's own view, in every variant at
three and four players under random conditions (§8), to the end of random deals (some seats
pressed at random, claims among them, so that robots answer claims too); the same seed and
view give the same action; and a robot's view holds only what its seat may see."""

from __future__ import annotations

import random
import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import PulkaError
from games.preferans.bids import OBLIGATION, Bid
from games.preferans.cards import Card, Deal
from games.preferans.deal import (
    AnswerClaim,
    Call,
    DealState,
    Declare,
    Discard,
    Kind,
    MakeClaim,
    Phase,
    Play,
    Show,
    Whist,
    legal_everywhere,
)
from games.preferans.robot import Robot, _layouts, _see, _whister_worth
from tests.games.test_preferans_deal import (
    VARIANTS,
    allowed,
    calls,
    fixed_deal,
    random_conditions,
)
from tests.sizes import examples, size


def play_out(seed: int, robots: set[int] | None = None) -> tuple[DealState, int]:
    """A random deal to its end: robots (every seat, or ``robots``) act from their views; the
    others choose at random, claiming now and then. Returns the end and the robots' actions."""
    rng = random.Random(seed)
    players = rng.choice([3, 4])
    variant = rng.choice(VARIANTS)  # under the group's conditions too (§8)
    state = DealState.new(
        Deal.shuffled(players, rng.randrange(players), rng.randrange),
        variant,
        random_conditions(rng, variant),
        rng.choice((6, 6, 7, 8)),
    )
    robot = Robot(seed=seed, budget_s=0.01)
    acted = 0
    while state.result is None:
        options = legal_everywhere(state)
        assert options
        seat = options[0].seat
        by_robot = robots is None or seat in robots
        claims = [a for a in options if isinstance(a, MakeClaim)]
        if claims and rng.random() < 0.1:
            action = rng.choice(claims)  # a person claims; the robots answer it
        elif by_robot and (not claims or rng.random() < 0.9):
            view = state.view(seat)
            assert set(view.cards_seen()) <= allowed(state, seat)  # the robot's view is its own
            action = robot.act(view)
            assert action in options, (action, state.phase)
            if acted % 7 == 0:  # the same again for the seed and view (every seventh: time)
                assert Robot(seed=seed, budget_s=0.01).act(view) == action
            acted += 1
        else:
            action = rng.choice([a for a in options if not isinstance(a, MakeClaim)] or options)
        state = state.apply(action)
    return state, acted


@settings(max_examples=examples(30, least=2), deadline=None)
@given(st.integers(0, 10**9))
def test_robots_only_make_legal_actions_from_their_own_views(seed: int) -> None:
    state, acted = play_out(seed)
    assert state.result is not None and acted > 0


@pytest.mark.soak
def test_robots_answer_claims_by_the_solver_and_play_every_kind() -> None:
    kinds: set[Kind] = set()
    answered = 0
    started = time.monotonic()
    for seed in range(size(12, 2)):
        state, _ = play_out(seed, robots={0, 1, 2, 3} - {seed % 3})
        assert state.result is not None
        kinds.add(state.result.kind)
        answered += sum(1 for a in state.history if isinstance(a, AnswerClaim))
        assert any(isinstance(a, Play) for a in state.history) or state.result.tricks is None
    assert Kind.GAME in kinds, kinds
    assert time.monotonic() - started < 120


def test_a_claim_the_robot_can_check_is_accepted_if_right_and_refused_if_wrong() -> None:
    """Open whisting: declarer (all eight spades and ♣AK) sees every card, so his robot knows
    the defence takes nothing. The lone whister, on lead, claims for the defence."""
    state = calls(DealState.new(fixed_deal(dealer=0)), "P", "P", "6S")
    state = state.apply(Discard(0, (Card.parse("H8"), Card.parse("H7"))))
    state = state.apply(Declare(0, Bid.parse("6S")))
    state = state.apply(Whist(1, "whist")).apply(Whist(2, "pass")).apply(Show(1, True))
    robot = Robot(seed=1, budget_s=0.05)
    right = state.apply(MakeClaim(1, 0))
    assert robot.act(right.view(0)) == AnswerClaim(0, True)
    wrong = state.apply(MakeClaim(1, 2))
    assert robot.act(wrong.view(0)) == AnswerClaim(0, False)


def test_a_defender_does_not_know_which_cards_went_to_the_discard() -> None:
    """The talon is shown to all, but which two of declarer's twelve he laid away only he
    knows: a defender's layouts put the talon's cards in declarer's hand as well. (The robot
    once took the talon for the discard, and let misères go that it could have caught.)"""
    deal = Deal.shuffled(3, 0, random.Random(4).randrange)
    declarer = deal.first_hand
    state = DealState.new(deal)
    while state.phase is Phase.AUCTION:
        assert state.turn is not None
        state = state.apply(Call(state.turn, Bid.misere() if state.turn == declarer else None))
    assert state.declarer == declarer and state.phase is Phase.DISCARD
    kept = frozenset(deal.talon)
    away = sorted(state.hands[declarer] - kept)[:2]
    state = state.apply(Discard(declarer, (away[0], away[1])))
    catcher = next(s for s in deal.active if s != declarer)
    seen = _see(state.view(catcher))
    assert kept <= seen.unknown and set(away) <= seen.unknown
    layouts = _layouts(seen, random.Random(1), 40)
    assert all(len(layout[declarer]) == 10 for layout in layouts)
    assert any(kept & layout[declarer] for layout in layouts)
    own = _see(state.view(declarer))  # he knows his discard: nothing of his is unknown to him
    assert not (kept | set(away)) & own.unknown


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("contract", ["6S", "7H", "8NT", "9C", "10D"])
def test_a_lone_whister_weighs_open_and_closed_by_the_tables_own_scoring(
    players: int, variant: str, contract: str
) -> None:
    """What the lone whister's choice of open or closed is weighed in: his balance for the
    defence's tricks, by the pulka's own rules. More tricks are never worth less to him, a
    trick short of the obligation costs him, and a fraction lies between its neighbours."""
    deal = Deal.shuffled(players, 0, random.Random(9).randrange)
    declarer = deal.first_hand
    whister = deal.left_of(declarer)
    state = DealState.new(deal, variant)
    state = replace(state, kind=Kind.GAME, declarer=declarer, contract=Bid.parse(contract))
    worth = _whister_worth(replace(state.view(whister), viewer=whister))
    if state.conditions.compulsory_on(Bid.parse(contract)):
        with pytest.raises(PulkaError):  # both whist there: no lone whister to weigh
            worth(4)
        return
    values = [worth(t) for t in range(11)]
    assert values == sorted(values)
    level = int(contract[:-1] if contract[-1] != "T" else contract[:-2])
    obligation = OBLIGATION[level]
    assert worth(obligation - 1) < worth(obligation)
    assert worth(obligation - 0.5) == pytest.approx(
        (values[obligation - 1] + values[obligation]) / 2
    )
