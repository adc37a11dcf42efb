"""A finished Preferans deal reviewed double-dummy (``games.core.review``): in a game and in a
misère, each card with a choice against the best card at its position (``solver``), the first
card of the play among them; declarer's contract judged sound or not.

A game's declarer plays for the most tricks and its defenders for the fewest; a misère's
declarer for the fewest and its catchers for the most. A raspasy is not judged card by card:
each plays for himself there, with no side to charge a trick to. Declarer's contract is "at
par" when a game names the highest contract its hand makes with the discard it made (at least
the auction's bid) and when a misère cannot be caught.
"""

from __future__ import annotations

from games.core.review import CardCosts, DealReview
from games.preferans.analysis import GameAnalysis, MisereAnalysis, analyse, played_hands
from games.preferans.cards import Card
from games.preferans.deal import DealState, Kind
from games.preferans.solver import Position, card_values


def review(state: DealState) -> DealReview:
    costs = CardCosts()
    declarer = state.declarer
    if state.kind in (Kind.GAME, Kind.MISERE) and declarer is not None and state.tricks:
        _judge_cards(state, declarer, costs)
    found = analyse(state) if declarer is not None and state.kind is not Kind.RASPASY else None
    if isinstance(found, GameAnalysis):
        costs.add(declarer or 0, contracts=1, at_par=int(found.best == found.contract))
    elif isinstance(found, MisereAnalysis):
        costs.add(found.declarer, contracts=1, at_par=int(not found.caught))
    return costs.review(tuple(state.active))


def _judge_cards(state: DealState, declarer: int, costs: CardCosts) -> None:
    deal = state.deal
    first = deal.first_hand
    order = (first, deal.left_of(first), deal.left_of(deal.left_of(first)))
    side = order.index(declarer)
    misere = state.kind is Kind.MISERE
    open_whister = _open_whister(state, declarer)
    held = {seat: set(cards) for seat, cards in played_hands(state).items()}
    for number, trick in enumerate(state.tricks, start=1):
        played: list[Card] = []
        for seat, card in trick.plays:
            if len(held[seat]) > 1:
                position = Position(
                    (
                        frozenset(held[order[0]]),
                        frozenset(held[order[1]]),
                        frozenset(held[order[2]]),
                    ),
                    order.index(trick.leader),
                    tuple(played),
                    state.trump,
                )
                # declarer's tricks after each card, all playing on as their side wants
                values = card_values(position, side, maximize=not misere)
                if len(values) > 1:
                    declaring = seat == declarer
                    wants_more = declaring is not misere
                    best = max(values.values()) if wants_more else min(values.values())
                    cost = abs(best - values[card])
                    actor = open_whister if open_whister is not None and not declaring else seat
                    costs.card(
                        actor,
                        declaring,
                        "declarer" if declaring else "defence",
                        str(card),
                        number,
                        cost,
                        lead=number == 1 and not played,
                    )
            held[seat].discard(card)
            played.append(card)


def _open_whister(state: DealState, declarer: int) -> int | None:
    """Under open whisting the whister chooses the passer's cards as well as his own."""
    if state.kind is not Kind.GAME or not state.shown:
        return None
    whisters = [seat for seat in state._whisters() if seat != declarer]
    return whisters[0] if len(whisters) == 1 else None
