"""Double-dummy analysis: a deal whose outcome a player sees at a glance, and the table turning
with the cards over random deals."""

from __future__ import annotations

import random

from games.bridge.analysis import analyse
from games.bridge.calls import Strain
from games.bridge.cards import FULL_DECK, Deal, Seat, Suit


def _suits_deal() -> Deal:
    """North holds all the spades, East the hearts, South the diamonds, West the clubs."""
    by_suit = {Seat.N: Suit.SPADES, Seat.E: Suit.HEARTS, Seat.S: Suit.DIAMONDS, Seat.W: Suit.CLUBS}
    hands = tuple(frozenset(c for c in FULL_DECK if c.suit is by_suit[seat]) for seat in Seat)
    return Deal(Seat.N, hands)  # type: ignore[arg-type]


def test_a_deal_with_one_suit_each() -> None:
    a = analyse(_suits_deal(), False, False)
    assert a.makes(Strain.SPADES, Seat.N) == 13  # North ruffs every lead
    assert a.makes(Strain.DIAMONDS, Seat.N) == 13  # South's diamonds are trumps for North too
    assert a.makes(Strain.NOTRUMP, Seat.N) == 0  # East leads hearts and takes them all
    assert a.makes(Strain.CLUBS, Seat.N) == 0  # West ruffs everything
    assert a.makes(Strain.HEARTS, Seat.E) == 13
    assert a.par  # someone bids a grand slam


def test_turning_the_table_turns_the_analysis() -> None:
    """Hand every seat's cards to the next seat clockwise: each declarer's tricks move with
    the cards (an independent check of the solver and of our seat and strain mapping)."""
    rng = random.Random(3)
    for _ in range(15):
        deal = Deal.shuffled(Seat(rng.randrange(4)), rng.randrange)
        turned = Deal(
            deal.dealer.next,
            tuple(deal.hands[(seat - 1) % 4] for seat in Seat),  # type: ignore[arg-type]
        )
        a, b = analyse(deal, False, False), analyse(turned, False, False)
        for strain in Strain:
            for seat in Seat:
                assert b.makes(strain, seat.next) == a.makes(strain, seat)
