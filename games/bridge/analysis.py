"""Double-dummy analysis of a dealt deal: how many tricks each declarer takes in each strain
with every card in view, and the par contracts; and positions in play solved card by card
(``solve_positions``), for the robot's layouts and the review alike. Pure and deterministic,
like the rest of ``games``: the solving is ``endplay``'s (MIT licence), which bundles Bo
Haglund's DDS, the solver bridge sites use; writing our own would be slower and less trusted.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from games.bridge.calls import Contract, Doubling, Strain
from games.bridge.cards import Card, Deal, Seat, Suit, hand_pbn
from games.core.data import remote

if TYPE_CHECKING:  # imported where a solve needs it: see ``_solver``
    from endplay.dds.solve import SolveMode
    from endplay.types import Deal as SolverDeal
    from endplay.types import Denom, Penalty, Player

# DDS keeps per-process solver state and crashes when two threads call it at once (found by
# the test suite: a segfault with two tables' analyses in flight). It runs one solve at a time;
# it parallelises a table's strains internally.
SOLVER_LOCK = threading.Lock()


@cache
def _solver() -> tuple[dict[Strain, Denom], dict[Seat, Player], dict[Penalty, Doubling]]:
    """``endplay``'s names for strains, seats and doublings, importing it on first use: it
    brings numpy and matplotlib's pyplot (0.6 s and tens of MB), which a bot process that only
    hands deals to its solver's process never needs (bench.restart)."""
    from endplay.types import Denom, Penalty, Player

    denoms = {
        Strain.CLUBS: Denom.clubs,
        Strain.DIAMONDS: Denom.diamonds,
        Strain.HEARTS: Denom.hearts,
        Strain.SPADES: Denom.spades,
        Strain.NOTRUMP: Denom.nt,
    }
    players = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
    doublings = {
        Penalty.passed: Doubling.NONE,
        Penalty.doubled: Doubling.DOUBLED,
        Penalty.redoubled: Doubling.REDOUBLED,
    }
    return denoms, players, doublings


def solver_denom(strain: Strain) -> Denom:
    """A strain as ``endplay`` names it."""
    return _solver()[0][strain]


def solver_player(seat: Seat) -> Player:
    """A seat as ``endplay`` names it."""
    return _solver()[1][seat]


@dataclass(frozen=True, slots=True)
class ParContract:
    contract: Contract
    declarer: Seat
    overtricks: int  # negative: a sacrifice going down


@dataclass(frozen=True, slots=True)
class Analysis:
    tricks: Mapping[tuple[Strain, Seat], int]  # declarer's tricks, double-dummy
    par_score: int  # for North-South (negative: East-West's)
    par: tuple[ParContract, ...]

    def makes(self, strain: Strain, declarer: Seat) -> int:
        return self.tricks[(strain, declarer)]


@remote
def analyse(deal: Deal, ns_vulnerable: bool, ew_vulnerable: bool) -> Analysis:
    """The double-dummy table and the par of ``deal`` with this vulnerability."""
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal as SolverDeal
    from endplay.types import Denom, Penalty, Player, Vul

    denoms, players, doublings = _solver()
    strains = {denom: strain for strain, denom in denoms.items()}
    seats = {player: seat for seat, player in players.items()}
    solver_deal = SolverDeal.from_pbn(deal.to_pbn())
    with SOLVER_LOCK:
        table = calc_dd_table(solver_deal)
    tricks = {
        (strain, seat): int(table[denom, player])
        for strain, denom in denoms.items()
        for seat, player in players.items()
    }
    vul = {
        (False, False): Vul.none,
        (True, True): Vul.both,
        (True, False): Vul.ns,
        (False, True): Vul.ew,
    }[(ns_vulnerable, ew_vulnerable)]
    with SOLVER_LOCK:
        found = par(table, vul, players[deal.dealer])
    contracts = tuple(
        ParContract(
            Contract(int(c.level), strains[Denom(c.denom)], doublings[Penalty(c.penalty)]),
            seats[Player(c.declarer)],
            int(c.result),
        )
        for c in found
        if int(c.level) > 0
    )
    return Analysis(tricks, int(found.score), contracts)


_BATCH = 100  # DDS solves at most 200 boards a call


def solver_position(
    hands: Mapping[Seat, Iterable[Card]],
    leader: Seat,
    trump: Suit | None,
    played: Sequence[Card],
) -> SolverDeal:
    """A position for DDS: the hands as the trick began, its leader, trumps, and the cards
    of the trick played so far."""
    from endplay.types import Deal as SolverDeal
    from endplay.types import Denom

    deal = SolverDeal.from_pbn("N:" + " ".join(hand_pbn(hands[seat]) for seat in Seat))
    deal.first = solver_player(leader)
    deal.trump = Denom.nt if trump is None else solver_denom(Strain(trump.value))
    for card in played:
        deal.play(str(card))
    return deal


def solve_positions(
    deals: Sequence[SolverDeal], mode: SolveMode | None = None
) -> list[dict[Card, int]]:
    """Each position's cards for the seat to play, with the tricks its side then takes (with
    ``SolveMode.OptimalAll``, only the cards that take the most; None: ``Default``): DDS's
    batch solve, one batch at a time under the lock (the robot's layouts, the review's
    positions)."""
    from endplay.dds import solve_all_boards
    from endplay.dds.solve import SolveMode

    mode = SolveMode.Default if mode is None else mode
    found: list[dict[Card, int]] = []
    for start in range(0, len(deals), _BATCH):
        with SOLVER_LOCK:
            solved = solve_all_boards(deals[start : start + _BATCH], mode)
        found += [{solver_card(c): int(t) for c, t in board} for board in solved]
    return found


def solver_card(card: object) -> Card:
    """A card as DDS names it ("♠A"), as ours."""
    text = str(card)
    suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(text[0], text[0])
    return Card.parse(suit + text[1:])
