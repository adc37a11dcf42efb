"""Defaults for a game, so that a game writes only what differs from the common case (as
python-chess's variants override only the rules that differ): every seat plays every deal, the
deal passes to the left, nothing is taken back, actions are logged as their codec text."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.core.protocols import Codec, Game, Match, State, codec_action, codec_event
from games.core.review import DealReview
from games.errors import OutOfTurn, Reason


class GameBase:
    """A ``games.core.protocols.Game`` but for its rules proper: a subclass gives ``name``,
    ``unit``, ``codec``, ``seats``, ``new_deal``, ``start``, ``new_match`` and ``outcome``."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    unit: str = ""
    codec: Codec[Any]

    @property
    def practice_unit(self) -> str:
        """What a match a robot sat in is written in: ``practice_<unit>``, never money and
        never another game's practice."""
        return f"practice_{self.unit}"

    @property
    def seats(self) -> Sequence[int]:
        raise NotImplementedError

    def table_size(self, options: Mapping[str, Any]) -> int:
        """Every seat is taken before a match starts."""
        return len(self.seats)

    def active_seats(self, players: int, dealer: int) -> tuple[int, ...]:
        """Everyone plays every deal."""
        return tuple(range(players))

    def next_dealer(self, dealer: int, players: int, match: Match | None = None) -> int:
        """The deal passes clockwise."""
        return (dealer + 1) % players

    def deal_rules(self, match: Match) -> Mapping[str, Any]:
        """Nothing of the match changes a deal's rules."""
        return {}

    def undo(self, state: State[Any, Any], seat: int) -> Any:
        """Nothing is taken back unless the game says how."""
        raise OutOfTurn("undo", Reason.NOTHING_TO_UNDO)

    def undo_voters(self, state: State[Any, Any], seat: int) -> frozenset[int]:
        """Everyone else at the deal agrees to a take-back."""
        return frozenset(range(len(self.seats))) - {seat}

    def by_consent(self, action: Any) -> bool:
        """No action needs a vote unless the game has a take-back."""
        return False

    def notices(
        self, before: State[Any, Any], after: State[Any, Any], seat: int
    ) -> tuple[Any, ...]:
        """Nothing to tell beyond the new state."""
        return ()

    def review(
        self, state: State[Any, Any], before: Match, solved: object = None
    ) -> DealReview | None:
        """No double-dummy review unless the game has one."""
        return None

    def to_event(self, action: Any) -> tuple[str, dict[str, Any]]:
        """The action's seat and codec text."""
        return codec_event(self.codec, action.seat, action)

    def from_event(self, kind: str, payload: Mapping[str, Any]) -> Any | None:
        return codec_action(self.codec, kind, payload)


def recorded(
    game: Game, players: int, options: Mapping[str, Any], outcomes: Iterable[Mapping[str, Any]]
) -> Match:
    """A new match with these deals' outcomes recorded in order: the match as the next deal
    was played (a restore's, and a review's in its worker process)."""
    match = game.new_match(players, options)
    for outcome in outcomes:
        match.record(outcome)
    return match
