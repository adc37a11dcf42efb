"""A Chicago's scoresheet (RULES.md, "Chicago"): four deals, vulnerability by the deal's number,
a game 300 or 500, a part score on deal 4 worth 100; the rubber's interface, so that the sheet,
the ledger and other tools read it as they read a rubber.

Deal 1 nobody is vulnerable, deals 2 and 3 the dealer's side, deal 4 both. A passed-out deal is
dealt again by the same dealer and does not count. With ``part_score="50"`` nothing is carried:
a made contract that is no game scores 50 on the deal, a made game 300/500 on its own.

The worked example of the rules:

>>> c = Chicago(dealer="N")
>>> _ = c.record("NS", "2S", 8)     # deal 1, nobody vulnerable: 60 below
>>> _ = c.record("EW", "3NT", 9)    # deal 2, dealer E: E-W vulnerable, a game: 500
>>> _ = c.record("NS", "1NT", 8)    # deal 3, dealer S: N-S vulnerable: 40 below, 30 above
>>> _ = c.record("EW", "2H", 8)     # deal 4, both vulnerable: no game, 100 for the part score
>>> c.finished, c.totals()[Side.NS], c.totals()[Side.EW], c.result()
(True, 130, 760, (<Side.EW: 'EW'>, 600))
"""

from __future__ import annotations

from collections.abc import Mapping

from games.bridge.calls import Contract
from games.bridge.cards import Seat, Side
from games.bridge.rubber import DealRecord, EntryKind, Line, ScoreEntry, round_hundreds
from games.bridge.scoring import Rules, check_honours, score
from games.errors import NotationError, Reason, RubberError

DEALS = 4  # a Chicago's deals, passed-out ones not counted
GAME = {False: 300, True: 500}  # a game's bonus, by the vulnerability on the deal that made it
LAST_PART = 100  # a part score made on deal 4 that is no game (carry)
PART = 50  # any made part score (the "50" setting)
CARRY, FIFTY = "carry", "50"


def _side(side: str | Side) -> Side:
    return side if isinstance(side, Side) else Side.parse(side)


class Chicago:
    """The sheet of one Chicago. ``record`` one deal at a time; ``close`` to stop early (settled
    on the deals played, nothing added for the rest)."""

    def __init__(
        self,
        rules: str | Rules = "modern",
        part_score: str | int = CARRY,
        dealer: str | Seat = "N",
    ) -> None:
        setting = str(part_score).strip().lower()
        if setting not in (CARRY, FIFTY):
            raise NotationError(repr(part_score), Reason.BAD_RULES)
        self.rules = Rules.parse(rules)
        self.part_score = setting
        self.first_dealer = dealer if isinstance(dealer, Seat) else Seat.parse(dealer)
        self.records: list[DealRecord] = []
        self.entries: list[ScoreEntry] = []
        self.games: dict[Side, int] = {Side.NS: 0, Side.EW: 0}
        self.game_number = 0  # games made so far: a line under each cancels the part scores
        self.closed = False

    # --- state ------------------------------------------------------------------------

    @property
    def deals_played(self) -> int:
        """Deals that count: passed-out ones are dealt again and do not."""
        return sum(1 for rec in self.records if rec.contract is not None)

    @property
    def finished(self) -> bool:
        return self.deals_played >= DEALS or self.closed

    @property
    def dealer(self) -> Seat:
        """Who deals the deal about to be played (a passed-out deal's dealer deals again)."""
        return self.first_dealer.after(self.deals_played)

    @property
    def deal_number(self) -> int:
        """The deal about to be played, 1 to 4."""
        return min(self.deals_played, DEALS - 1) + 1

    def vulnerable(self, side: str | Side) -> bool:
        """For the deal about to be played: deal 1 nobody, 2 and 3 the dealer's side, 4 both."""
        number = self.deals_played
        if number == 0:
            return False
        if number >= DEALS - 1:
            return True
        return self.dealer.side is _side(side)

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
        """Trick points toward the next game (with ``part_score="50"`` none are carried)."""
        if self.part_score == FIFTY and game is None:
            return 0
        number = self.game_number if game is None else game
        return self._sum(Line.BELOW, _side(side), number)

    def totals(self) -> dict[Side, int]:
        return {side: self._sum(None, side) for side in Side}

    def result(self, rounded: bool = True) -> tuple[Side | None, int]:
        """The side with more points and the difference, rounded to hundreds as a rubber's."""
        totals = self.totals()
        difference = totals[Side.NS] - totals[Side.EW]
        if difference == 0:
            return None, 0
        winner = Side.NS if difference > 0 else Side.EW
        return winner, round_hundreds(abs(difference)) if rounded else abs(difference)

    # --- recording --------------------------------------------------------------------

    def record(
        self,
        side: str | Side | None,
        contract: str | Contract | None,
        tricks: int = 0,
        honours: Mapping[str, int] | Mapping[Side, int] | None = None,
    ) -> list[ScoreEntry]:
        """Score one deal: ``side`` declared ``contract`` and took ``tricks`` (of 13);
        ``contract`` None (or "P") is a passed-out deal, which does not count. Returns the
        entries written."""
        if self.finished:
            raise RubberError("record", Reason.RUBBER_OVER)
        held = {_side(s): int(p) for s, p in (honours or {}).items() if p}
        check_honours(held)
        if isinstance(contract, str) and contract.strip().upper() in ("P", "PASS"):
            contract = None
        if contract is None:
            self.records.append(DealRecord(None, None, 0, {}))
            return []
        parsed = contract if isinstance(contract, Contract) else Contract.parse(contract)
        if side is None:
            raise NotationError("no declaring side", Reason.BAD_SIDE)
        if not 0 <= tricks <= 13:
            raise NotationError(repr(tricks), Reason.BAD_TRICKS)
        rec = DealRecord(_side(side), parsed, tricks, held)
        new = self._score(rec, len(self.records))
        self.records.append(rec)
        return new

    def record_passed_out(self) -> list[ScoreEntry]:
        return self.record(None, None)

    def _score(self, rec: DealRecord, deal: int) -> list[ScoreEntry]:
        assert rec.side is not None and rec.contract is not None
        side, game, last = rec.side, self.game_number, self.deals_played == DEALS - 1
        vulnerable = self.vulnerable(side)
        points = score(rec.contract, rec.tricks, vulnerable, self.rules)
        new: list[ScoreEntry] = []

        def write(who: Side, amount: int, line: Line, kind: EntryKind) -> None:
            if amount:
                new.append(ScoreEntry(who, amount, line, kind, game, deal))

        write(side, points.below, Line.BELOW, EntryKind.TRICKS)
        write(side, points.overtricks, Line.ABOVE, EntryKind.OVERTRICKS)
        write(side, points.insult, Line.ABOVE, EntryKind.INSULT)
        write(side, points.slam, Line.ABOVE, EntryKind.SLAM)
        write(side.other, points.penalty, Line.ABOVE, EntryKind.UNDERTRICKS)
        for holder, amount in rec.honours.items():
            write(holder, amount, Line.ABOVE, EntryKind.HONOURS)
        if points.below:  # made: a game, or a part score
            if self.below_in_game(side) + points.below >= 100:
                write(side, GAME[vulnerable], Line.ABOVE, EntryKind.GAME)
                self.games[side] += 1
                self.game_number += 1  # a line: both sides' part scores are cancelled
            elif self.part_score == FIFTY:
                write(side, PART, Line.ABOVE, EntryKind.PART_SCORE)
            elif last:
                write(side, LAST_PART, Line.ABOVE, EntryKind.PART_SCORE)
        self.entries.extend(new)
        return new

    def close(self) -> list[ScoreEntry]:
        """Stop early: settled on the deals played, nothing added for the rest."""
        self.closed = True
        return []

    def undo_last(self) -> None:
        """Take back the last thing written: the early close, else the last deal."""
        if not self.records and not self.closed:
            raise RubberError("undo", Reason.NOTHING_TO_UNDO)
        records = self.records if self.closed else self.records[:-1]
        self.records, self.entries, self.closed = [], [], False
        self.games = {Side.NS: 0, Side.EW: 0}
        self.game_number = 0
        for rec in records:
            self.record(rec.side, rec.contract, rec.tricks, rec.honours)

    @property
    def winner_of_rubber(self) -> Side | None:
        """No rubber is won at a Chicago: the result is the totals' difference."""
        return None
