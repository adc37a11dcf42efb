"""Double-dummy analysis of a finished Preferans deal (#28): what the game made with every card
in view, the best game declarer could have named, whether whisting paid, whether a misère could
be caught. Pure and deterministic; the solving is ``games.preferans.solver``.

Declarer's hand is the one he played: his ten with the talon, less the actual discard. The
first trick is led by the first hand (left of the dealer), as in play. A raspasy has nothing to
analyse here (its tricks 1 and 2 follow the talon, and nobody chose a contract).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.data import remote
from games.preferans.bids import OBLIGATION, Bid, Strain
from games.preferans.cards import Card, Suit
from games.preferans.deal import DealState, Kind
from games.preferans.solver import Position, at_least, solve


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A game: ``makes`` is declarer's tricks in the contract played; ``best`` the highest
    contract he could have named (at least the auction's bid) that makes with that discard,
    None if none does; ``obligation`` what the defenders had to take together."""

    declarer: int
    contract: Bid
    makes: int
    best: Bid | None
    obligation: int

    @property
    def defence(self) -> int:
        return 10 - self.makes

    @property
    def whisting_paid(self) -> bool:
        """Whisting against the best defence pays: the contract goes down, or the defenders
        take their obligation (they are not written short)."""
        return self.makes < self.contract.level or self.defence >= self.obligation


@dataclass(frozen=True, slots=True)
class MisereAnalysis:
    """A misère: ``caught`` whether the defenders can force a trick on declarer, every card in
    view (asked as yes or no: the count would cost the solver several times as long)."""

    declarer: int
    caught: bool


Analysis = GameAnalysis | MisereAnalysis


def played_hands(state: DealState) -> dict[int, frozenset[Card]]:
    """Each active seat's ten cards as the play began: declarer's with the talon, less his
    discard."""
    deal = state.deal
    hands = {seat: frozenset(deal.hands[seat]) for seat in deal.active}
    if state.declarer is not None and len(state.discard) == 2:
        declarer = state.declarer
        hands[declarer] = (hands[declarer] | frozenset(deal.talon)) - frozenset(state.discard)
    return hands


def _position(state: DealState, trump: Suit | None) -> tuple[Position, tuple[int, int, int]]:
    deal = state.deal
    first = deal.first_hand
    order = (first, deal.left_of(first), deal.left_of(deal.left_of(first)))
    hands = played_hands(state)
    return Position((hands[order[0]], hands[order[1]], hands[order[2]]), 0, (), trump), order


def tricks_in(state: DealState, strain: Strain | None) -> int:
    """Declarer's double-dummy tricks with ``strain`` as trumps (None: no trump)."""
    assert state.declarer is not None
    position, order = _position(state, None if strain is None else Suit.of(strain))
    return solve(position, order.index(state.declarer), maximize=True)


@remote
def analyse(state: DealState) -> Analysis | None:
    """The analysis of a deal whose contract is known (a game or a misère, played or not);
    None for a raspasy or a deal still in its auction or discard."""
    declarer, contract = state.declarer, state.contract
    if declarer is None or contract is None or len(state.discard) < 2:
        return None
    if state.kind is Kind.MISERE:
        position, order = _position(state, None)
        caught = at_least(position, order.index(declarer), 1, maximize=False)
        return MisereAnalysis(declarer, caught)
    if state.kind is not Kind.GAME or contract.strain is None:
        return None
    floor = state.bid or contract
    makes_by_strain = {strain: tricks_in(state, strain) for strain in Strain}
    makeable = [
        Bid.of(level, strain)
        for strain, tricks in makes_by_strain.items()
        for level in range(6, min(tricks, 10) + 1)
    ]
    best = max((bid for bid in makeable if bid >= floor), default=None)
    return GameAnalysis(
        declarer,
        contract,
        makes_by_strain[contract.strain],
        best,
        OBLIGATION[contract.level],
    )
