"""The table service: the one owner of live tables, for every game. Knows nothing of Telegram.

It takes (table id, player, action), serialises work per table with a lock, applies the action
through ``games``, writes the event to storage *before* anything is said about it, and returns
a ``Change``: a snapshot to render and the notices to post. Its cache of live tables is only a
cache: any table can be rebuilt from storage by replaying its events.

It stands on its ground (``base``: the cache, locks, loading, players, writing events) and is
made of parts, one module each, each given what it works with: the match's life (``matches``),
the deal's actions (``play``), the players' votes (``votes``), seating and settings
(``seating``). Its methods are theirs, named here once.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from bot.tables.base import TableBase
from bot.tables.matches import MatchLife
from bot.tables.model import Live, Notice
from bot.tables.play import Play
from bot.tables.seating import Seating
from bot.tables.votes import Votes
from storage.interface import Storage


class TableService(TableBase):
    """Owns live tables. ``randbelow`` is the shuffle's randomness (``secrets`` by default)."""

    def __init__(
        self,
        storage: Storage,
        randbelow: Callable[[int], int] = secrets.randbelow,
        fair_key: bytes | None = None,
    ) -> None:
        super().__init__(storage, randbelow, fair_key)
        self.matches = MatchLife(self)
        self.play = Play(self, self.matches)
        self.votes = Votes(self, self.matches, self.play)
        self.seating = Seating(self, self.matches)
        # The deal's actions.
        self.act = self.play.act
        # What the players agree to together.
        self.ask_undo = self.votes.ask_undo
        self.answer_undo = self.votes.answer_undo
        self.propose_sub = self.votes.propose_sub
        self.answer_sub = self.votes.answer_sub
        self.vote_to_end = self.votes.vote_to_end
        self.end_by_admin = self.votes.end_by_admin
        # Tables, seats and settings.
        seating = self.seating
        self.open_table = seating.open_table
        self.switch_game = seating.switch_game
        self.played_deals = seating.played_deals
        self.finished_deal = seating.finished_deal
        self.table_by_token = seating.table_by_token
        self.chat_language = seating.chat_language
        self.table_for = seating.table_for
        self.sheet_for = seating.sheet_for
        self.sit = seating.sit
        self.seat_robot = seating.seat_robot
        self.leave = seating.leave
        self.next_match = seating.next_match
        self.update_settings = seating.update_settings
        self.choose_hands = seating.choose_hands
        self.update_chat_settings = seating.update_chat_settings
        self.update_group = seating.update_group

    async def _advance(self, live: Live) -> list[Notice]:
        """The ground's follow-up of a finished deal (after a restart or a recovery) is the
        match's life's."""
        return await self.matches.advance(live)
