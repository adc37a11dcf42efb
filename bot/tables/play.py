"""The deal's actions: a press becomes an action of the game, applied and written before any
answer."""

from __future__ import annotations

import logging
import time
from typing import Any

from bot.tables.base import TableBase
from bot.tables.matches import MatchLife
from bot.tables.model import (
    Change,
    Live,
    Notice,
    Refusal,
    Seat,
    Written,
    _seat_of,
    stale_or_forged,
)
from storage.interface import (
    TableStatus,
)

log = logging.getLogger(__name__)


class Play:
    """Actions of the deal (a part of the table service)."""

    def __init__(self, tables: TableBase, matches: MatchLife) -> None:
        self.tables = tables
        self.matches = matches

    async def act(
        self,
        table_id: int,
        deal_no: int,
        player_id: int,
        text: str,
        at: int | None,
        heard: int | None = None,
    ) -> Change:
        """One press: an action in the game's own words (``call.1H``, ``card.SQ``: its codec's
        text) from the player's seat, made for position ``at`` of the deal (its event count
        when the button was shown). ``heard``: the press's Telegram update id, which the
        next deal's shuffle takes if it is the last press the table took (``Live.heard``).

        Refusal for the table's reasons (stale, moved on, not seated, paused); RuleError for
        the rules'. A press made for an earlier position is refused even if it would be legal
        now: a double tap must not become the lead of the next trick.
        """
        async with self.tables._guard(table_id):
            live, seat = await self.acting(table_id, deal_no, player_id)
            if at != live.moves:
                raise Refusal("moved_on")
            action = live.game.codec.decode(seat, text)  # NotationError: a RuleError
            if live.game.by_consent(action):  # a take-back goes through its vote only
                raise Refusal("unknown_action")
            return await self.tables._heard(live, heard, self.apply(live, action, seat, player_id))

    async def in_match(self, table_id: int) -> Live:
        """The live table, if a match is being played at it (Refusal "no_match" if not)."""
        live = await self.tables._get(table_id)
        if live.table.status is not TableStatus.PLAYING or live.match is None:
            raise Refusal("no_match", game=live.game.name)
        return live

    async def acting(self, table_id: int, deal_no: int, player_id: int) -> tuple[Live, Seat]:
        """The live table and the player's seat, if they may act in this deal now."""
        live = await self.tables._get(table_id)
        if deal_no != live.deal_no:
            raise stale_or_forged(deal_no, live.deal_no)
        if (
            live.state is None
            or live.state.finished
            or live.table.status is not TableStatus.PLAYING
        ):
            raise Refusal("stale")
        seat = _seat_of(live, player_id)
        if seat is None:
            raise Refusal("not_seated")
        if live.paused:
            await self.tables._back(live)  # play resumes at the first press after
        if live.paused:
            names = ", ".join(live.holders[s].name for s in sorted(live.paused))
            raise Refusal("paused", names=names)
        return live, seat

    async def apply(
        self, live: Live, action: Any, seat: Seat, player_id: int, *extra: Notice
    ) -> Change:
        """Check ``action`` with the rules, write its event, then follow up. Nothing is written
        if the rules refuse it; nothing is changed if the write fails."""
        assert live.state is not None
        state = live.state.apply(action)  # RuleError propagates: nothing written
        await self.tables._append(live, *live.game.to_event(action), player_id)
        before = live.state
        live.state = state
        live.moves += 1
        live.last_at = time.time()
        live.undo_request = None  # anything done makes an open request to take back moot
        notices: list[Notice] = list(extra)
        notices += live.game.notices(before, state, seat)
        try:
            notices += await self.matches.advance(live)
        except Exception as exc:  # the press stands: say so, not "try again"
            raise Written() from exc
        return Change(self.tables._snapshot(live), tuple(notices))
