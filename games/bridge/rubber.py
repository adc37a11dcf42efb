"""A rubber's scoresheet: games, vulnerability, above and below the line, bonuses, the result.

A side that reaches 100 trick points below the line wins a game; both sides then start the next
game from zero. The first side with two games wins the rubber (700 in two games, 500 in three).
A rubber stopped early (Law 80) gives 300 to a side with a game and the part-score premium
(100, or 50 as a table setting) to a side with a part score in the unfinished game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from games.bridge.calls import Contract
from games.bridge.cards import Side
from games.bridge.errors import BridgeReason
from games.bridge.scoring import Rules, check_honours, score
from games.errors import NotationError, Reason, RubberError


class Line(Enum):
    ABOVE = "above"
    BELOW = "below"


class EntryKind(Enum):
    TRICKS = "tricks"
    OVERTRICKS = "overtricks"
    INSULT = "insult"
    SLAM = "slam"
    UNDERTRICKS = "undertricks"
    HONOURS = "honours"
    RUBBER = "rubber"
    UNFINISHED_GAME = "unfinished_game"
    UNFINISHED_PART = "unfinished_part"
    GAME = "game"  # a Chicago's game: 300 or 500
    PART_SCORE = "part_score"  # a Chicago's part score: 100 on deal 4, or 50 (the setting)


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """One number written on the sheet: whose, where, why, and in which game (for below)."""

    side: Side
    points: int
    line: Line
    kind: EntryKind
    game: int
    deal: int


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A deal as the rubber saw it; ``contract`` None means passed out."""

    side: Side | None
    contract: Contract | None
    tricks: int
    honours: Mapping[Side, int]


def _side(side: str | Side) -> Side:
    return side if isinstance(side, Side) else Side.parse(side)


class ScoreSheet:
    """What every bridge sheet shares (the rubber's, the Chicago's): its entries, the sums
    above and below the line, each side's total and the result."""

    entries: list[ScoreEntry]
    records: list[DealRecord]
    games: dict[Side, int]
    game_number: int
    closed: bool
    rules: Rules

    @property
    def finished(self) -> bool:
        raise NotImplementedError

    def vulnerable(self, side: str | Side) -> bool:
        """For the deal about to be played."""
        raise NotImplementedError

    def record(
        self,
        side: str | Side | None,
        contract: str | Contract | None,
        tricks: int = 0,
        honours: Mapping[str, int] | Mapping[Side, int] | None = None,
    ) -> list[ScoreEntry]:
        """Score one deal: ``side`` declared ``contract`` and took ``tricks`` (of 13).

        ``contract`` None (or "P") records a passed-out deal. ``honours`` maps the side holding
        them to 100 or 150. Returns the entries written.
        """
        if self.finished:
            raise RubberError("record", BridgeReason.RUBBER_OVER)
        rec = self._parse_deal(side, contract, tricks, honours)
        new = [] if rec.contract is None else self._score(rec, len(self.records))
        self.records.append(rec)
        return new

    def record_passed_out(self) -> list[ScoreEntry]:
        return self.record(None, None)

    def _score(self, rec: DealRecord, deal: int) -> list[ScoreEntry]:
        """What a played deal writes, on this sheet's rules."""
        raise NotImplementedError

    def _reset(self) -> None:
        """The sheet empty again (``undo_last`` rebuilds it from the deals kept)."""
        raise NotImplementedError

    def undo_last(self) -> None:
        """Take back the last thing written: the early close if there was one, else the last deal
        (the scorekeeper's correction). The sheet is rebuilt from the remaining deals."""
        if not self.records and not self.closed:
            raise RubberError("undo", Reason.NOTHING_TO_UNDO)
        records = self.records if self.closed else self.records[:-1]
        self.records, self.entries, self.closed = [], [], False
        self._reset()
        for rec in records:
            self.record(rec.side, rec.contract, rec.tricks, rec.honours)

    def _contract_entries(
        self, rec: DealRecord, deal: int, vulnerable: bool
    ) -> tuple[int, list[ScoreEntry]]:
        """What the contract itself writes (trick points, overtricks, the insult, a slam,
        undertricks, honours), by the rules' tables; with the trick points below."""
        assert rec.side is not None and rec.contract is not None
        side, game = rec.side, self.game_number
        points = score(rec.contract, rec.tricks, vulnerable, self.rules)
        items = [
            (side, points.below, Line.BELOW, EntryKind.TRICKS),
            (side, points.overtricks, Line.ABOVE, EntryKind.OVERTRICKS),
            (side, points.insult, Line.ABOVE, EntryKind.INSULT),
            (side, points.slam, Line.ABOVE, EntryKind.SLAM),
            (side.other, points.penalty, Line.ABOVE, EntryKind.UNDERTRICKS),
            *(
                (holder, amount, Line.ABOVE, EntryKind.HONOURS)
                for holder, amount in rec.honours.items()
            ),
        ]
        new = [
            ScoreEntry(who, amount, line, kind, game, deal)
            for who, amount, line, kind in items
            if amount
        ]
        return points.below, new

    def _sum(self, line: Line | None, side: Side, game: int | None = None) -> int:
        return sum(
            e.points
            for e in self.entries
            if e.side is side
            and (line is None or e.line is line)
            and (game is None or e.game == game)
        )

    @property
    def above(self) -> dict[Side, int]:
        return {side: self._sum(Line.ABOVE, side) for side in Side}

    @property
    def below(self) -> dict[Side, int]:
        return {side: self._sum(Line.BELOW, side) for side in Side}

    def below_in_game(self, side: str | Side, game: int | None = None) -> int:
        """Trick points toward the game in progress (or game ``game``, counted from 0)."""
        number = self.game_number if game is None else game
        return self._sum(Line.BELOW, _side(side), number)

    def totals(self) -> dict[Side, int]:
        return {side: self._sum(None, side) for side in Side}

    def result(self, rounded: bool = True) -> tuple[Side | None, int]:
        """The side with more points, and the difference rounded to hundreds (50 rounds up);
        ``rounded=False`` for a group that settles to the point."""
        totals = self.totals()
        difference = totals[Side.NS] - totals[Side.EW]
        if difference == 0:
            return None, 0
        winner = Side.NS if difference > 0 else Side.EW
        return winner, round_hundreds(abs(difference)) if rounded else abs(difference)

    @staticmethod
    def _parse_deal(
        side: str | Side | None,
        contract: str | Contract | None,
        tricks: int,
        honours: Mapping[str, int] | Mapping[Side, int] | None,
    ) -> DealRecord:
        """A deal as recorded: honours checked, "P" a passed-out deal, the rest validated."""
        held = {_side(s): int(p) for s, p in (honours or {}).items() if p}
        check_honours(held)
        if isinstance(contract, str) and contract.strip().upper() in ("P", "PASS"):
            contract = None
        if contract is None:
            return DealRecord(None, None, 0, {})
        parsed = contract if isinstance(contract, Contract) else Contract.parse(contract)
        if side is None:
            raise NotationError("no declaring side", BridgeReason.BAD_SIDE)
        if not 0 <= tricks <= 13:
            raise NotationError(repr(tricks), Reason.BAD_TRICKS)
        return DealRecord(_side(side), parsed, tricks, held)


class Rubber(ScoreSheet):
    """The scoresheet of one rubber. ``record`` one deal at a time; ``close`` to stop early."""

    def __init__(self, rules: str | Rules = "modern", unfinished_part_score: int = 100) -> None:
        if unfinished_part_score not in (50, 100):
            raise NotationError(repr(unfinished_part_score), BridgeReason.BAD_RULES)
        self.rules = Rules.parse(rules)
        self.unfinished_part_score = unfinished_part_score
        self.records: list[DealRecord] = []
        self.entries: list[ScoreEntry] = []
        self.games: dict[Side, int] = {Side.NS: 0, Side.EW: 0}
        self.game_number = 0
        self.closed = False
        self._winner_of_rubber: Side | None = None

    # --- state ------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """Two games won by one side, or closed early."""
        return self._winner_of_rubber is not None or self.closed

    def vulnerable(self, side: str | Side) -> bool:
        return self.games[_side(side)] >= 1

    # --- recording --------------------------------------------------------------------

    def _score(self, rec: DealRecord, deal: int) -> list[ScoreEntry]:
        assert rec.side is not None
        side, game = rec.side, self.game_number
        below, new = self._contract_entries(rec, deal, self.vulnerable(side))

        def write(who: Side, amount: int, line: Line, kind: EntryKind) -> None:
            if amount:
                new.append(ScoreEntry(who, amount, line, kind, game, deal))

        if self.below_in_game(side) + below >= 100:
            self.games[side] += 1
            self.game_number += 1
            if self.games[side] == 2:
                self._winner_of_rubber = side
                bonus = 700 if self.games[side.other] == 0 else 500
                write(side, bonus, Line.ABOVE, EntryKind.RUBBER)
        self.entries.extend(new)
        return new

    def close(self) -> list[ScoreEntry]:
        """Stop an unfinished rubber (Law 80): 300 for a game won, the premium for a part score."""
        if self.finished:
            return []
        self.closed = True
        new: list[ScoreEntry] = []
        deal = len(self.records)
        for side in Side:
            if self.games[side] == 1:
                new.append(
                    ScoreEntry(
                        side, 300, Line.ABOVE, EntryKind.UNFINISHED_GAME, self.game_number, deal
                    )
                )
            if self.below_in_game(side) > 0:
                new.append(
                    ScoreEntry(
                        side,
                        self.unfinished_part_score,
                        Line.ABOVE,
                        EntryKind.UNFINISHED_PART,
                        self.game_number,
                        deal,
                    )
                )
        self.entries.extend(new)
        return new

    def _reset(self) -> None:
        self.games = {Side.NS: 0, Side.EW: 0}
        self.game_number = 0
        self._winner_of_rubber = None

    @property
    def winner_of_rubber(self) -> Side | None:
        """The side that won two games (not necessarily the side with more points)."""
        return self._winner_of_rubber


def round_hundreds(points: int) -> int:
    """Round a non-negative difference to hundreds; 50 rounds up (270 -> 300, 249 -> 200)."""
    return (points + 50) // 100 * 100
