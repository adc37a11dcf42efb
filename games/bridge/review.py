"""A finished bridge deal reviewed double-dummy (``games.core.review``): each card with a choice
against the best card at its position (DDS through ``endplay``), the opening lead among them,
and the contract reached against par in IMPs, scored as DDS scores par (duplicate scores, the
vulnerability the deal was played at)."""

from __future__ import annotations

from typing import TypeGuard

from endplay.types import Contract as SolverContract

from games.bridge.analysis import (
    Analysis,
    analyse,
    solve_positions,
    solver_denom,
    solver_penalty,
    solver_player,
    solver_position,
    solver_vul,
)
from games.bridge.cards import Seat, Side
from games.bridge.deal import DealState
from games.core.review import CardCosts, DealReview

# The IMP scale: a difference of points at or above each step is worth one IMP more.
IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)  # fmt: skip


def imps(points: int) -> int:
    size = sum(1 for step in IMP_STEPS if abs(points) >= step)
    return size if points >= 0 else -size


def side_name(seat: Seat) -> str:
    return "NS" if seat.side is Side.NS else "EW"


def review(
    state: DealState, ns_vulnerable: bool, ew_vulnerable: bool, solved: object = None
) -> DealReview:
    """The review of a finished deal (played out or claimed: the cards played are judged).
    ``solved``: the deal's analysis if the result post solved it already (four fifths of a
    review's solving: #48's one solve a deal), used if it is this deal's at this
    vulnerability."""
    costs = CardCosts()
    play = state.play
    if play is not None:
        _judge_cards(state, costs)
    analysis = solved if _fits(solved, state, (ns_vulnerable, ew_vulnerable)) else None
    if analysis is None:
        analysis = analyse(state.deal, ns_vulnerable, ew_vulnerable)
    contract, declarer = state.contract, state.declarer
    ns_score = 0  # the contract reached, double-dummy, for North-South
    if contract is not None and declarer is not None:
        vul = ns_vulnerable if declarer.side is Side.NS else ew_vulnerable
        tricks = analysis.makes(contract.strain, declarer)
        scored = SolverContract(
            level=contract.level,
            denom=solver_denom(contract.strain),
            declarer=solver_player(declarer),
            penalty=solver_penalty(contract.doubling),
            result=tricks - 6 - contract.level,
        ).score(solver_vul(vul, vul))  # the declaring side vulnerable or not
        ns_score = scored if declarer.side is Side.NS else -scored
    for seat in Seat:
        sign = 1 if seat.side is Side.NS else -1
        difference = sign * (ns_score - analysis.par_score)
        costs.add(int(seat), contracts=1, at_par=int(difference == 0), par_imps=imps(difference))
    return costs.review(tuple(int(s) for s in Seat))


def _fits(solved: object, state: DealState, vulnerable: tuple[bool, bool]) -> TypeGuard[Analysis]:
    """Is ``solved`` the analysis of this deal's cards at this vulnerability?"""
    if not isinstance(solved, Analysis):
        return False
    return solved.vulnerable == vulnerable and solved.pbn == state.deal.to_pbn()


def _judge_cards(state: DealState, costs: CardCosts) -> None:
    """Each card chosen among two or more, against the best at its position."""
    play = state.play
    assert play is not None
    held = {seat: set(state.deal.hands[seat]) for seat in Seat}
    positions, chosen = [], []
    for number, trick in enumerate(play.tricks, start=1):
        at_start = {seat: set(cards) for seat, cards in held.items()}
        for i, card in enumerate(trick.cards):
            seat = trick.leader.after(i)
            hand = held[seat]
            follow = [c for c in hand if c.suit == trick.cards[0].suit] if i else []
            if len(follow or hand) > 1:
                before = trick.cards[:i]
                positions.append(solver_position(at_start, trick.leader, play.trump, before))
                chosen.append((number, i, seat, card))
            hand.discard(card)
    values = solve_positions(positions)
    for (number, i, seat, card), value in zip(chosen, values, strict=True):
        actor = play.declarer if seat is play.dummy else seat
        declaring = seat.side is play.declarer.side
        cost = max(value.values()) - value[card]
        costs.card(
            int(actor),
            declaring,
            side_name(seat),
            str(card),
            number,
            cost,
            lead=number == 1 and i == 0,
        )
