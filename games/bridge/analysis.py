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
    from endplay.types import Denom, Penalty, Player, Vul

# DDS keeps per-process solver state and crashes when two threads call it at once (found by
# the test suite: a segfault with two tables' analyses in flight). It runs one solve at a time;
# it parallelises a table's strains internally.
SOLVER_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class _Names:
    """``endplay``'s names for our strains, seats, doublings and vulnerabilities, both ways."""

    denoms: Mapping[Strain, Denom]
    players: Mapping[Seat, Player]
    penalties: Mapping[Doubling, Penalty]
    vuls: Mapping[tuple[bool, bool], Vul]  # (North-South, East-West) vulnerable
    strains: Mapping[Denom, Strain]
    seats: Mapping[Player, Seat]
    doublings: Mapping[Penalty, Doubling]


@cache
def _solver() -> _Names:
    """The names, importing ``endplay`` on first use: it brings numpy and matplotlib's pyplot
    (0.6 s and tens of MB), which a bot process that only hands deals to its solver's process
    never needs (bench.restart)."""
    from endplay.types import Denom, Penalty, Player, Vul

    denoms = {
        Strain.CLUBS: Denom.clubs,
        Strain.DIAMONDS: Denom.diamonds,
        Strain.HEARTS: Denom.hearts,
        Strain.SPADES: Denom.spades,
        Strain.NOTRUMP: Denom.nt,
    }
    players = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
    penalties = {
        Doubling.NONE: Penalty.passed,
        Doubling.DOUBLED: Penalty.doubled,
        Doubling.REDOUBLED: Penalty.redoubled,
    }
    vuls = {
        (False, False): Vul.none,
        (True, True): Vul.both,
        (True, False): Vul.ns,
        (False, True): Vul.ew,
    }
    return _Names(
        denoms,
        players,
        penalties,
        vuls,
        {denom: strain for strain, denom in denoms.items()},
        {player: seat for seat, player in players.items()},
        {penalty: doubling for doubling, penalty in penalties.items()},
    )


def solver_denom(strain: Strain) -> Denom:
    """A strain as ``endplay`` names it."""
    return _solver().denoms[strain]


def solver_player(seat: Seat) -> Player:
    """A seat as ``endplay`` names it."""
    return _solver().players[seat]


def solver_penalty(doubling: Doubling) -> Penalty:
    """A contract's doubling as ``endplay`` names it."""
    return _solver().penalties[doubling]


def solver_vul(ns_vulnerable: bool, ew_vulnerable: bool) -> Vul:
    """The vulnerability as ``endplay`` names it."""
    return _solver().vuls[(ns_vulnerable, ew_vulnerable)]


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
    vulnerable: tuple[bool, bool] = (False, False)  # North-South's, East-West's: the par's
    pbn: str = ""  # the deal solved

    def makes(self, strain: Strain, declarer: Seat) -> int:
        return self.tricks[(strain, declarer)]


@remote
def analyse(deal: Deal, ns_vulnerable: bool, ew_vulnerable: bool) -> Analysis:
    """The double-dummy table and the par of ``deal`` with this vulnerability."""
    from endplay.dds import calc_dd_table, par
    from endplay.types import Deal as SolverDeal
    from endplay.types import Denom, Penalty, Player

    names = _solver()
    solver_deal = SolverDeal.from_pbn(deal.to_pbn())
    with SOLVER_LOCK:
        table = calc_dd_table(solver_deal)
    tricks = {
        (strain, seat): int(table[denom, player])
        for strain, denom in names.denoms.items()
        for seat, player in names.players.items()
    }
    with SOLVER_LOCK:
        found = par(table, solver_vul(ns_vulnerable, ew_vulnerable), names.players[deal.dealer])
    contracts = tuple(
        ParContract(
            Contract(
                int(c.level),
                names.strains[Denom(c.denom)],
                names.doublings[Penalty(c.penalty)],
            ),
            names.seats[Player(c.declarer)],
            int(c.result),
        )
        for c in found
        if int(c.level) > 0
    )
    vulnerable = (ns_vulnerable, ew_vulnerable)
    return Analysis(tricks, int(found.score), contracts, vulnerable, deal.to_pbn())


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
