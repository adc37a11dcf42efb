"""The protocols every game meets. Seats are plain indices 0..seats-1, clockwise.

States are immutable values: ``apply`` returns the next state or raises a ``RuleError`` with a
reason, so a state is the replay of its actions and a table can be rebuilt from its event log.
A view holds nothing its seat may not see; the bot renders only views.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeVar, runtime_checkable

A = TypeVar("A")  # a game's action type
V = TypeVar("V", covariant=True)  # a game's per-seat view type

RandBelow = Callable[[int], int]  # the caller's randomness (``secrets.randbelow``)


@runtime_checkable
class State(Protocol[A, V]):
    """One deal in progress."""

    @property
    def turn(self) -> int | None:
        """The seat that must act now (None once the deal is over or when nobody must)."""

    @property
    def finished(self) -> bool: ...

    def legal_actions(self, seat: int) -> Sequence[A]:
        """Everything ``seat`` may do now: the only definition of legality (``apply`` uses it)."""

    def apply(self, action: A) -> State[A, V]: ...

    def view(self, seat: int | None) -> V:
        """What ``seat`` may see (None: a kibitzer)."""


class Codec(Protocol[A]):
    """One vocabulary for actions, written once: ``decode(encode(a)) == a``."""

    def encode(self, action: A) -> str: ...

    def decode(self, seat: int, text: str) -> A: ...


class Match(Protocol):
    """A rubber, a pulka: records deals' outcomes, knows when it is over, settles to per-player
    amounts that sum to zero."""

    @property
    def finished(self) -> bool: ...

    def close(self) -> None:
        """Stop early (all agreed): settlement follows the game's early-stop rule."""

    def settle(self) -> Sequence[Fraction | int]:
        """Each seat's amount, in the game's unit; they sum to zero."""


@runtime_checkable
class Game(Protocol):
    """A game as the table service needs it."""

    name: str
    aliases: tuple[str, ...]

    @property
    def seats(self) -> Sequence[int]:
        """Every seat a table of this game may have (the optional ones included)."""

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        """The seats that play a deal (Preferans with four: the dealer sits out)."""

    def new_deal(self, players: int, dealer: int, randbelow: RandBelow) -> Mapping[str, Any]:
        """A freshly shuffled deal as a JSON-able payload (the first event of a deal)."""

    def start(self, players: int, payload: Mapping[str, Any]) -> State[Any, Any]:
        """The state at the start of the deal that ``payload`` describes."""

    def new_match(self, players: int, options: Mapping[str, Any]) -> Match: ...
