"""Deals' reviews (#32) against a direct count: every card played is judged here by solving the
position after it (bridge: DDS one board at a time; Preferans: the solver's plain ``solve``),
not by the review's shared per-position searches, and the counts are summed by hand."""

from __future__ import annotations

import dataclasses
import random

from endplay.dds import calc_dd_table, par, solve_board
from endplay.types import Contract as SolverContract
from endplay.types import Deal as SolverDeal
from endplay.types import Denom, Penalty, Player, Vul
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bridge.analysis import SOLVER_LOCK, solver_card, solver_position
from games.bridge.analysis import analyse as bridge_analyse
from games.bridge.cards import Deal, Seat, Side
from games.bridge.deal import DealState as BridgeState
from games.bridge.review import imps
from games.bridge.review import review as bridge_review
from games.core.review import SeatStats
from games.preferans.analysis import GameAnalysis, MisereAnalysis, analyse, played_hands
from games.preferans.deal import DealState as PrefState
from games.preferans.deal import Kind, Trick
from games.preferans.review import review as pref_review
from games.preferans.solver import Position, solve
from tests.games.strategies import played_deals
from tests.games.test_preferans_deal import random_deal
from tests.sizes import examples

SEATS = (Player.north, Player.east, Player.south, Player.west)
DENOMS = (Denom.clubs, Denom.diamonds, Denom.hearts, Denom.spades, Denom.nt)
PENALTY = (Penalty.passed, Penalty.doubled, Penalty.redoubled)


def add(found: dict[int, SeatStats], seat: int, **counts: int) -> None:
    found[seat] = found.get(seat, SeatStats()) + SeatStats(**counts)


def card_counts(found: dict[int, SeatStats], seat: int, declaring: bool, cost: int, lead: bool):
    if declaring:
        add(found, seat, declarer_cards=1, declarer_costly=int(cost > 0), declarer_lost=cost)
    else:
        add(found, seat, defence_cards=1, defence_costly=int(cost > 0), defence_lost=cost)
    if lead:
        add(found, seat, leads=1, good_leads=int(cost == 0))


def direct_bridge(state: BridgeState, ns_vul: bool, ew_vul: bool) -> dict[int, SeatStats]:
    found: dict[int, SeatStats] = {int(s): SeatStats(deals=1) for s in Seat}
    play = state.play
    if play is not None:
        held = {seat: set(state.deal.hands[seat]) for seat in Seat}
        for number, trick in enumerate(play.tricks, start=1):
            start = {seat: set(cards) for seat, cards in held.items()}
            for i, card in enumerate(trick.cards):
                seat = trick.leader.after(i)
                led = trick.cards[0].suit if i else None
                legal = [c for c in held[seat] if c.suit == led] or list(held[seat])
                if len(legal) > 1:
                    board = solver_position(start, trick.leader, play.trump, trick.cards[:i])
                    with SOLVER_LOCK:
                        values = {solver_card(c): int(t) for c, t in solve_board(board)}
                    cost = max(values.values()) - values[card]
                    actor = play.declarer if seat is play.dummy else seat
                    declaring = seat.side is play.declarer.side
                    card_counts(found, int(actor), declaring, cost, number == 1 and i == 0)
                held[seat].discard(card)
    deal = SolverDeal.from_pbn(state.deal.to_pbn())
    vul = {(False, False): Vul.none, (True, False): Vul.ns, (False, True): Vul.ew}.get(
        (ns_vul, ew_vul), Vul.both
    )
    with SOLVER_LOCK:
        table = calc_dd_table(deal)
        par_ns = par(table, vul, SEATS[int(state.deal.dealer)]).score
    score = 0
    contract, declarer = state.contract, state.declarer
    if contract is not None and declarer is not None:
        tricks = table[DENOMS[int(contract.strain)], SEATS[int(declarer)]]
        side_vul = ns_vul if declarer.side is Side.NS else ew_vul
        made = SolverContract(
            level=contract.level,
            denom=DENOMS[int(contract.strain)],
            declarer=SEATS[int(declarer)],
            penalty=PENALTY[int(contract.doubling)],
            result=tricks - 6 - contract.level,
        ).score(Vul.both if side_vul else Vul.none)
        score = made if declarer.side is Side.NS else -made
    for seat in Seat:
        diff = (score - par_ns) * (1 if seat.side is Side.NS else -1)
        add(found, int(seat), contracts=1, at_par=int(diff == 0), par_imps=imps(diff))
    return found


def direct_preferans(state: PrefState) -> dict[int, SeatStats]:
    found: dict[int, SeatStats] = {seat: SeatStats(deals=1) for seat in state.active}
    declarer = state.declarer
    if declarer is None or state.kind is Kind.RASPASY:
        return found
    misere = state.kind is Kind.MISERE
    deal = state.deal
    first = deal.first_hand
    order = (first, deal.left_of(first), deal.left_of(deal.left_of(first)))
    whisters = [s for s in state._whisters() if s != declarer]
    open_whister = whisters[0] if state.shown and len(whisters) == 1 else None
    held = {seat: set(cards) for seat, cards in played_hands(state).items()}
    for number, trick in enumerate(state.tricks, start=1):
        for k, (seat, card) in enumerate(trick.plays):
            if len(held[seat]) > 1:
                values = {}
                for option in _legal(held[seat], trick.plays[:k], state):
                    values[option] = _after(state, order, held, trick, k, seat, option, misere)
                if len(values) > 1:
                    declaring = seat == declarer
                    wants_more = declaring is not misere
                    best = max(values.values()) if wants_more else min(values.values())
                    cost = abs(best - values[card])
                    actor = open_whister if open_whister is not None and not declaring else seat
                    card_counts(found, actor, declaring, cost, number == 1 and k == 0)
            held[seat].discard(card)
    analysis = analyse(state)
    if isinstance(analysis, GameAnalysis):
        add(found, declarer, contracts=1, at_par=int(analysis.best == analysis.contract))
    elif isinstance(analysis, MisereAnalysis):
        add(found, declarer, contracts=1, at_par=int(not analysis.caught))
    return found


def _legal(hand: set, plays: tuple, state: PrefState) -> list:
    if not plays:
        return list(hand)
    led = plays[0][1].suit
    follow = [c for c in hand if c.suit == led]
    if follow:
        return follow
    trumps = [c for c in hand if state.trump is not None and c.suit == state.trump]
    return trumps or list(hand)


def _after(state, order, held, trick, k, seat, card, misere) -> int:  # type: ignore[no-untyped-def]
    """Declarer's tricks from here on if ``seat`` plays ``card``: the trick's, then solved."""
    hands = {s: set(c) for s, c in held.items()}
    hands[seat].discard(card)
    plays = (*trick.plays[:k], (seat, card))
    won = 0
    if len(plays) == 3:
        winner = Trick(trick.leader, plays).winner(state.trump)
        won = int(winner == state.declarer)
        leader, cards = winner, ()
    else:
        leader, cards = trick.leader, tuple(c for _, c in plays)
    position = Position(
        tuple(frozenset(hands[s]) for s in order), order.index(leader), cards, state.trump
    )
    if not any(position.hands):
        return won
    return won + solve(position, order.index(state.declarer), maximize=not misere)


@settings(max_examples=examples(30), deadline=None)
@given(played_deals(extras=False), st.booleans(), st.booleans())
def test_a_bridge_review_is_the_direct_count(played, ns_vul: bool, ew_vul: bool) -> None:
    deal, actions = played
    state = BridgeState.replay(deal, actions)
    assert bridge_review(state, ns_vul, ew_vul).seats == direct_bridge(state, ns_vul, ew_vul)


@settings(max_examples=examples(10, least=2), deadline=None)
@given(played_deals(extras=False), st.booleans(), st.booleans())
def test_a_bridge_review_reuses_the_results_analysis_of_its_own_deal_only(
    played, ns_vul: bool, ew_vul: bool
) -> None:
    """With the result post's analysis (#48: one solve a deal) the review is the same as
    solving afresh; the analysis is what the review reads (a par moved by 2,000 points moves
    every seat's IMPs), and one of another deal or vulnerability is never trusted."""
    deal, actions = played
    state = BridgeState.replay(deal, actions)
    own = bridge_analyse(state.deal, ns_vul, ew_vul)
    fresh = bridge_review(state, ns_vul, ew_vul)
    assert bridge_review(state, ns_vul, ew_vul, own) == fresh
    # Far enough to turn North-South's IMPs round: a wild auction's result may be 4,000
    # points from par already, where 2,000 more would leave the IMPs at the scale's end.
    away = 20_000 if fresh.seats[int(Seat.N)].par_imps >= 0 else -20_000
    moved = dataclasses.replace(own, par_score=own.par_score + away)
    assert bridge_review(state, ns_vul, ew_vul, moved) != fresh
    other_vul = dataclasses.replace(moved, vulnerable=(not ns_vul, ew_vul))
    shuffled = (Deal.shuffled(Seat.N, random.Random(n).randrange) for n in (1, 2))
    other = next(d for d in shuffled if d.to_pbn() != deal.to_pbn())  # hypothesis may draw 1
    other_deal = dataclasses.replace(moved, pbn=other.to_pbn())
    for stale in (other_vul, other_deal, "not an analysis"):
        assert bridge_review(state, ns_vul, ew_vul, stale) == fresh


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 10**9))
def test_a_preferans_review_is_the_direct_count(seed: int) -> None:
    state, _ = random_deal(seed)
    assert pref_review(state).seats == direct_preferans(state)


def test_a_costly_card_is_the_first_of_its_side_and_charged_to_who_chose_it() -> None:
    rng = random.Random(4)
    for _ in range(6):
        state, _ = random_deal(rng.randrange(10**9))
        found = pref_review(state)
        for costly in found.costly:
            stats = found.seats[costly.seat]
            lost = stats.declarer_lost if costly.side == "declarer" else stats.defence_lost
            assert costly.cost >= 1 and lost >= costly.cost
