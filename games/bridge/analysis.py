"""Double-dummy analysis of a dealt deal: how many tricks each declarer takes in each strain
with every card in view, and the par contracts. Pure and deterministic, like the rest of
``games``: the solving is ``endplay``'s (MIT licence), which bundles Bo Haglund's DDS, the
solver bridge sites use; writing our own would be slower and less trusted.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

from endplay.dds import calc_dd_table, par
from endplay.types import Deal as SolverDeal
from endplay.types import Denom, Penalty, Player, Vul

from games.bridge.calls import Contract, Doubling, Strain
from games.bridge.cards import Deal, Seat
from games.core.data import remote

# DDS keeps per-process solver state and crashes when two threads call it at once (found by
# the test suite: a segfault with two tables' analyses in flight). It runs one solve at a time;
# it parallelises a table's strains internally.
SOLVER_LOCK = threading.Lock()

DENOM = {
    Strain.CLUBS: Denom.clubs,
    Strain.DIAMONDS: Denom.diamonds,
    Strain.HEARTS: Denom.hearts,
    Strain.SPADES: Denom.spades,
    Strain.NOTRUMP: Denom.nt,
}
_STRAIN = {denom: strain for strain, denom in DENOM.items()}
PLAYER = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
_SEAT = {player: seat for seat, player in PLAYER.items()}
_DOUBLING = {
    Penalty.passed: Doubling.NONE,
    Penalty.doubled: Doubling.DOUBLED,
    Penalty.redoubled: Doubling.REDOUBLED,
}


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
    solver_deal = SolverDeal.from_pbn(deal.to_pbn())
    with SOLVER_LOCK:
        table = calc_dd_table(solver_deal)
    tricks = {
        (strain, seat): int(table[denom, player])
        for strain, denom in DENOM.items()
        for seat, player in PLAYER.items()
    }
    vul = {
        (False, False): Vul.none,
        (True, True): Vul.both,
        (True, False): Vul.ns,
        (False, True): Vul.ew,
    }[(ns_vulnerable, ew_vulnerable)]
    with SOLVER_LOCK:
        found = par(table, vul, PLAYER[deal.dealer])
    contracts = tuple(
        ParContract(
            Contract(int(c.level), _STRAIN[Denom(c.denom)], _DOUBLING[Penalty(c.penalty)]),
            _SEAT[Player(c.declarer)],
            int(c.result),
        )
        for c in found
        if int(c.level) > 0
    )
    return Analysis(tricks, int(found.score), contracts)
