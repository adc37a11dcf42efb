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

from games.bridge.cards import Seat, Side
from games.bridge.errors import BridgeReason
from games.bridge.rubber import DealRecord, EntryKind, Line, ScoreEntry, ScoreSheet, _side
from games.bridge.scoring import Rules
from games.errors import NotationError

DEALS = 4  # a Chicago's deals, passed-out ones not counted
GAME = {False: 300, True: 500}  # a game's bonus, by the vulnerability on the deal that made it
LAST_PART = 100  # a part score made on deal 4 that is no game (carry)
PART = 50  # any made part score (the "50" setting)
CARRY, FIFTY = "carry", "50"


class Chicago(ScoreSheet):
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
            raise NotationError(repr(part_score), BridgeReason.BAD_RULES)
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

    def below_in_game(self, side: str | Side, game: int | None = None) -> int:
        """Trick points toward the next game (with ``part_score="50"`` none are carried)."""
        if self.part_score == FIFTY and game is None:
            return 0
        return super().below_in_game(side, game)

    # --- recording --------------------------------------------------------------------

    def _score(self, rec: DealRecord, deal: int) -> list[ScoreEntry]:
        assert rec.side is not None
        side, game, last = rec.side, self.game_number, self.deals_played == DEALS - 1
        vulnerable = self.vulnerable(side)
        below, new = self._contract_entries(rec, deal, vulnerable)

        def write(who: Side, amount: int, line: Line, kind: EntryKind) -> None:
            if amount:
                new.append(ScoreEntry(who, amount, line, kind, game, deal))

        if below:  # made: a game, or a part score
            if self.below_in_game(side) + below >= 100:
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

    def _reset(self) -> None:
        self.games = {Side.NS: 0, Side.EW: 0}
        self.game_number = 0

    @property
    def winner_of_rubber(self) -> Side | None:
        """No rubber is won at a Chicago: the result is the totals' difference."""
        return None
