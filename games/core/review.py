"""What each player's play in a finished deal was worth, double-dummy (#32): the same counts for
every game, so the bot adds them up per player without knowing the game.

A card "costs" when, with every hand in view and everyone playing on perfectly, the side that
chose it ends with fewer tricks (or, in a misère, its declarer with more) than its best card
would have left it. Each card is charged to whoever chose it: bridge's declarer for dummy's
cards, Preferans's open whister for the passer's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SeatStats:
    """One seat's counts in one deal (or summed over many)."""

    deals: int = 0  # deals counted
    leads: int = 0  # opening leads made (the first card of the play)
    good_leads: int = 0  # of them, those that cost nothing
    declarer_cards: int = 0  # cards chosen as declarer
    declarer_costly: int = 0  # of them, those that cost at least a trick
    declarer_lost: int = 0  # the tricks they cost
    defence_cards: int = 0  # cards chosen as a defender (a whister, a catcher of a misère)
    defence_costly: int = 0
    defence_lost: int = 0
    contracts: int = 0  # auctions judged against par (bridge: every one; Preferans: declarer's)
    at_par: int = 0  # of them, those that reached par (Preferans: the contract was sound)
    par_imps: int = 0  # bridge: IMPs of the contract reached against par, for the seat's side

    def __add__(self, other: SeatStats) -> SeatStats:
        pairs = zip(dataclasses.astuple(self), dataclasses.astuple(other), strict=True)
        return SeatStats(*(a + b for a, b in pairs))

    def to_payload(self) -> dict[str, int]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v}

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> SeatStats:
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: int(v) for k, v in payload.items() if k in names})


@dataclass(frozen=True, slots=True)
class CostlyCard:
    """The first card of a side that cost it tricks: who chose it, which, in which trick."""

    side: str  # "NS"/"EW" in bridge; "declarer"/"defence" in Preferans
    seat: int  # the seat that chose it
    card: str  # the game's card text (``SQ``, ``H10``)
    trick: int  # from 1
    cost: int  # tricks

    def to_payload(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> CostlyCard:
        return cls(
            str(payload["side"]),
            int(payload["seat"]),
            str(payload["card"]),
            int(payload["trick"]),
            int(payload["cost"]),
        )


@dataclass(frozen=True, slots=True)
class DealReview:
    """A finished deal's review: each seat's counts, and each side's first costly card."""

    seats: Mapping[int, SeatStats]
    costly: tuple[CostlyCard, ...] = ()
    refused: bool = False  # the deal could not be reviewed (and never will be)

    def to_payload(self) -> dict[str, Any]:
        return {
            "seats": {str(s): st.to_payload() for s, st in sorted(self.seats.items())},
            "costly": [c.to_payload() for c in self.costly],
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> DealReview:
        seats = {int(s): SeatStats.from_payload(v) for s, v in payload.get("seats", {}).items()}
        costly = tuple(CostlyCard.from_payload(c) for c in payload.get("costly", ()))
        return cls(seats, costly, "refused" in payload)


class CardCosts:
    """Builds a review card by card: ``card`` for each card as it was chosen, with its cost."""

    def __init__(self) -> None:
        self._seats: dict[int, SeatStats] = {}
        self._first: dict[str, CostlyCard] = {}

    def add(self, seat: int, **counts: int) -> None:
        self._seats[seat] = self._seats.get(seat, SeatStats()) + SeatStats(**counts)

    def card(
        self, seat: int, declarer: bool, side: str, card: str, trick: int, cost: int, lead: bool
    ) -> None:
        costly = 1 if cost > 0 else 0
        if declarer:
            self.add(seat, declarer_cards=1, declarer_costly=costly, declarer_lost=cost)
        else:
            self.add(seat, defence_cards=1, defence_costly=costly, defence_lost=cost)
        if lead:
            self.add(seat, leads=1, good_leads=1 - costly)
        if costly and side not in self._first:
            self._first[side] = CostlyCard(side, seat, card, trick, cost)

    def review(self, seats: tuple[int, ...]) -> DealReview:
        for seat in seats:
            self.add(seat, deals=1)
        return DealReview(dict(sorted(self._seats.items())), tuple(self._first.values()))
