"""What a Preferans player does in a deal, as values: a call, a discard (and taking it back), the
contract named, a whisting word, open or closed, a card, a claim and its answer, a take-back.
``DealState.apply`` (``games.preferans.deal``) is what makes them legal or not."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.preferans.bids import Bid
from games.preferans.cards import Card

WHIST, PASS, HALF = "whist", "pass", "half"


@dataclass(frozen=True, slots=True)
class Call:
    """A bid, or a pass (``bid`` None)."""

    seat: int
    bid: Bid | None


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class Redrop:
    """Declarer takes the discard back into the hand to lay two cards away again: the Code
    allows a new discard until the game is named. A misère is named at the auction, so its
    discard stands at once (pinned, PREFERANS.md §2)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Declare:
    """Declarer names the contract (not lower than the final bid)."""

    seat: int
    contract: Bid


@dataclass(frozen=True, slots=True)
class Whist:
    seat: int
    word: str  # "whist" | "pass" | "half"


@dataclass(frozen=True, slots=True)
class Show:
    """The one whister plays open (both defenders' hands face up) or closed."""

    seat: int
    open: bool


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` is who acts: an open whister plays the passer's cards too."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class MakeClaim:
    """``tricks``: how many of the tricks left the claimant's side takes (0 concedes them all)."""

    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class AnswerClaim:
    seat: int
    accept: bool


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back ``seat``'s last call, word, contract or card while it is the last thing done
    in the deal (the others allow it first; the table asks them)."""

    seat: int


Action = Call | Discard | Redrop | Declare | Whist | Show | Play | MakeClaim | AnswerClaim | Undo

# A declarer may take the discard back and discard again before naming the contract, this many
# times a deal: enough to change one's mind, not a way to write the log without end.
REDROPS = 3


def effective_actions(history: Iterable[Action]) -> list[Action]:
    """The actions that stand once each Undo has taken back the action before it."""
    kept: list[Action] = []
    for action in history:
        if isinstance(action, Undo):
            if kept:
                kept.pop()
        else:
            kept.append(action)
    return kept
