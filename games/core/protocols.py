"""The protocols every game meets. Seats are plain indices 0..seats-1, clockwise.

States are immutable values: ``apply`` returns the next state or raises a ``RuleError`` with a
reason, so a state is the replay of its actions and a table can be rebuilt from its event log.
A view holds nothing its seat may not see; the bot renders only views.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeVar, runtime_checkable

from games.core.fair import Dealing
from games.core.review import DealReview
from games.errors import NotationError, Reason

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

    @property
    def dealer(self) -> int: ...

    def legal_actions(self, seat: int) -> Sequence[A]:
        """Everything ``seat`` may do now: the only definition of legality (``apply`` uses it)."""

    def apply(self, action: A) -> State[A, V]: ...

    def view(self, seat: int | None) -> V:
        """What ``seat`` may see (None: a kibitzer)."""


def may_act(state: State[Any, Any], seat: int) -> bool:
    """Whether ``state.legal_actions(seat)`` is not empty, without listing them where the
    game can say so (a ``may_act`` method of its state: the turn timers ask it of every seat at
    every press, and a bidding box lists 36 calls). A game without one is asked the list.

    >>> class Leading:
    ...     def legal_actions(self, seat: int) -> list[str]:
    ...         return ["lead"] if seat == 1 else []
    >>> may_act(Leading(), 0), may_act(Leading(), 1)  # type: ignore[arg-type]
    (False, True)
    """
    own = getattr(state, "may_act", None)
    if own is None:
        return bool(state.legal_actions(seat))
    return bool(own(seat))


class Codec(Protocol[A]):
    """One vocabulary for actions, written once: ``decode(encode(a)) == a``."""

    def encode(self, action: A) -> str: ...

    def decode(self, seat: int, text: str) -> A: ...


class Match(Protocol):
    """A rubber, a pulka: records deals' outcomes, knows when it is over, settles to per-player
    amounts that sum to zero. Rebuilt after a restart by recording the stored outcomes again."""

    @property
    def finished(self) -> bool: ...

    def record(self, outcome: Mapping[str, Any]) -> Any:
        """Write one deal's outcome (``Game.outcome``); returns what was written, for show."""

    def configure(self, options: Mapping[str, Any]) -> None:
        """The table's options changed between deals (bridge: the scoring variant)."""

    def close(self) -> None:
        """Stop early (all agreed): settlement follows the game's early-stop rule."""

    def settle(self) -> Sequence[Fraction | int]:
        """Each seat's amount, in the game's unit; they sum to zero."""

    def summary(self) -> dict[str, Any]:
        """The match's result as JSON, kept with it (bridge: the winning side and points)."""


@runtime_checkable
class Game(Protocol):
    """A game as the table service needs it."""

    name: str
    aliases: tuple[str, ...]
    unit: str  # what its matches settle in for the ledger: "points" (bridge), "whists"

    @property
    def practice_unit(self) -> str:
        """What its matches with a robot are written in (``practice_<unit>``; bridge's is
        ``practice``, as it always was)."""

    @property
    def codec(self) -> Codec[Any]:
        """The game's one vocabulary for actions (buttons, logs, typed moves)."""

    @property
    def seats(self) -> Sequence[int]:
        """Every seat a table of this game may have (the optional ones included)."""

    def table_size(self, options: Mapping[str, Any]) -> int:
        """How many players a table with these options seats before its match starts
        (Preferans: three, or four with the dealer sitting out)."""

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        """The seats that play a deal (Preferans with four: the dealer sits out)."""

    def dealing(self, players: int, dealer: int) -> Dealing:
        """The game's pack and who gets each shuffled card (``games.core.fair``): ``new_deal``
        deals by it, and ``/fair``'s check command names it, so the checker needs no game."""

    def new_deal(
        self,
        players: int,
        dealer: int,
        randbelow: RandBelow,
        options: Mapping[str, Any] | None = None,
    ) -> Mapping[str, Any]:
        """A freshly shuffled deal as a JSON-able payload (the first event of a deal), with what
        of the table's ``options`` the deal's rules need (Preferans: the variant), so that the
        log alone replays it."""

    def start(self, players: int, payload: Mapping[str, Any]) -> State[Any, Any]:
        """The state at the start of the deal that ``payload`` describes."""

    def new_match(self, players: int, options: Mapping[str, Any]) -> Match: ...

    def outcome(self, state: State[Any, Any]) -> dict[str, Any]:
        """A finished deal's result as JSON, what its match records."""

    def next_dealer(self, dealer: int, players: int, match: Match | None = None) -> int:
        """Who deals after ``dealer``'s deal, ``match`` as it stands after it (Chicago: a
        passed-out deal is dealt again by the same dealer)."""

    def deal_rules(self, match: Match) -> Mapping[str, Any]:
        """What the next deal's rules take from the match as it stands, passed to ``new_deal``
        with the table's options (Preferans: raspasy in a row, for the exit)."""

    def undo(self, state: State[Any, Any], seat: int) -> Any:
        """The action that takes back ``seat``'s last one (RuleError if it may not)."""

    def undo_voters(self, state: State[Any, Any], seat: int) -> frozenset[int]:
        """Who must all allow ``seat`` to take back (bridge: the two opponents)."""

    def by_consent(self, action: Any) -> bool:
        """An action the table applies only when a vote allows it (a take-back): never from a
        press, though the codec reads it (logs and votes name it)."""

    def notices(
        self, before: State[Any, Any], after: State[Any, Any], seat: int
    ) -> tuple[Any, ...]:
        """What an action means that players must be told beyond the new state (a claim
        refused, say); the game's UI renders them."""

    def review(
        self, state: State[Any, Any], before: Match, solved: object = None
    ) -> DealReview | None:
        """A finished deal's double-dummy review (``games.core.review``), ``before`` the match
        as it was played (bridge: the vulnerability); None for a game without one. Costly:
        the bot runs it in a worker process. ``solved``: what the result post solved of the
        deal already (bridge: its ``Analysis``), so the review need not solve it again; a
        game checks it is this deal's before it trusts it."""

    def to_event(self, action: Any) -> tuple[str, dict[str, Any]]:
        """(kind, JSON-able payload) for one action of a deal's log."""

    def from_event(self, kind: str, payload: Mapping[str, Any]) -> Any | None:
        """The action a logged event records; None for one the rules do not act on (a vote)."""


ACT = "act"  # the event kind of an action logged as its codec text


def codec_event(codec: Codec[Any], seat: int, action: Any) -> tuple[str, dict[str, Any]]:
    """The plain way to log an action: its seat and its codec text (a game may keep older
    kinds of its own, as bridge does, so that logs written before stay readable)."""
    return ACT, {"seat": seat, "act": codec.encode(action)}


def codec_action(codec: Codec[Any], kind: str, payload: Mapping[str, Any]) -> Any | None:
    if kind != ACT:
        return None
    seat = payload.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise NotationError(repr(seat), Reason.BAD_CALL)
    return codec.decode(seat, str(payload.get("act", "")))
