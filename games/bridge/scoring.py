"""Rubber-bridge scores for one contract, and honours found from the hands.

Two variants (RULES.md): ``modern`` (the current Laws, default) and ``classic`` (the seed's
older table: doubled undertricks 100/200 and 200/300, one 50 bonus for any made doubled contract).
Rubber bonuses, honours and the unfinished-rubber premiums are the rubber's business (rubber.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from games.bridge.calls import Contract, Doubling, Strain
from games.bridge.cards import HONOUR_RANKS, Card, Deal, Rank, Seat, Side
from games.bridge.errors import BridgeReason
from games.errors import NotationError, Reason, RubberError


class Rules(Enum):
    MODERN = "modern"
    CLASSIC = "classic"

    @classmethod
    def parse(cls, text: str | Rules) -> Rules:
        if isinstance(text, Rules):
            return text
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise NotationError(repr(text), BridgeReason.BAD_RULES) from None


@dataclass(frozen=True, slots=True)
class ContractScore:
    """Points from one played contract.

    ``below``: declarer's trick points (0 if defeated); ``above``: declarer's overtricks,
    doubled/redoubled bonus and slam bonus; ``penalty``: the defenders' undertrick points.
    """

    below: int
    above: int
    penalty: int
    overtricks: int = 0
    undertricks: int = 0
    insult: int = 0
    slam: int = 0

    @property
    def made(self) -> bool:
        return self.penalty == 0


def trick_points(contract: Contract, tricks_over_six: int) -> int:
    """Value of ``tricks_over_six`` tricks at the strain and doubling (NT: 40, then 30 each)."""
    if tricks_over_six <= 0:
        return 0
    multiplier = contract.doubling.multiplier
    if contract.strain is Strain.NOTRUMP:
        return (40 + 30 * (tricks_over_six - 1)) * multiplier
    per_trick = 30 if contract.strain.is_major else 20
    return per_trick * tricks_over_six * multiplier


def undertrick_points(down: int, vulnerable: bool, doubling: Doubling, rules: Rules) -> int:
    """Penalty for ``down`` undertricks (RULES.md tables; classic differs only when doubled)."""
    if down <= 0:
        return 0
    if doubling is Doubling.NONE:
        return down * (100 if vulnerable else 50)
    total = 0
    for n in range(1, down + 1):
        if vulnerable:
            total += 200 if n == 1 else 300
        elif rules is Rules.CLASSIC:
            total += 100 if n == 1 else 200
        else:
            total += 100 if n == 1 else (200 if n <= 3 else 300)
    return total * (doubling.multiplier // 2)


def score(contract: Contract, tricks: int, vulnerable: bool, rules: Rules) -> ContractScore:
    """Score ``contract`` when declarer took ``tricks`` of 13."""
    if not 0 <= tricks <= 13:
        raise NotationError(repr(tricks), Reason.BAD_TRICKS)
    needed = contract.tricks_needed
    if tricks < needed:
        down = needed - tricks
        penalty = undertrick_points(down, vulnerable, contract.doubling, rules)
        return ContractScore(0, 0, penalty, undertricks=penalty)
    below = trick_points(contract, contract.level)
    over = tricks - needed
    if contract.doubling is Doubling.NONE:
        overtricks = over * (20 if contract.strain in (Strain.CLUBS, Strain.DIAMONDS) else 30)
        insult = 0
    else:
        per = (200 if vulnerable else 100) * (contract.doubling.multiplier // 2)
        overtricks = over * per
        insult = 50 * (contract.doubling.multiplier // 2)
        if rules is Rules.CLASSIC:
            insult = 50
    slam = 0
    if contract.level == 6:
        slam = 750 if vulnerable else 500
    elif contract.level == 7:
        slam = 1500 if vulnerable else 1000
    return ContractScore(
        below=below,
        above=overtricks + insult + slam,
        penalty=0,
        overtricks=overtricks,
        insult=insult,
        slam=slam,
    )


def score_contract(
    contract: str, tricks: int, vulnerable: bool, rules: str = "modern"
) -> ContractScore:
    """Public string-level entry: ``score_contract("4SX", 9, False)``."""
    return score(Contract.parse(contract), tricks, vulnerable, Rules.parse(rules))


def honours(deal: Deal | Mapping[Seat, frozenset[Card]], strain: Strain) -> dict[Side, int]:
    """Honours held in one hand (Law 77): at a suit, all five of A K Q J 10 of trumps 150 and any
    four 100; at no-trump, all four aces 150. Scored by whichever side holds them."""
    hands = deal.hands if isinstance(deal, Deal) else tuple(deal[s] for s in Seat)
    for seat in Seat:
        hand = hands[seat]
        trump = strain.suit
        if trump is None:
            if sum(1 for c in hand if c.rank is Rank.ACE) == 4:
                return {seat.side: 150}
            continue
        held = sum(1 for c in hand if c.suit is trump and c.rank in HONOUR_RANKS)
        if held == 5:
            return {seat.side: 150}
        if held == 4:
            return {seat.side: 100}
    return {}


def check_honours(points: Mapping[Side, int]) -> None:
    """Only one side can hold honours, and only 100 or 150 of them."""
    nonzero = {side: p for side, p in points.items() if p}
    if len(nonzero) > 1 or any(p not in (100, 150) for p in nonzero.values()):
        raise RubberError(repr(dict(points)), Reason.BAD_CONTRACT)
