"""The match's life: it starts, each deal is dealt and recorded, robots' seats pass to people
between deals, and it ends in the group's ledger."""

from __future__ import annotations

import copy
import logging
import time

from bot.tables.base import TableBase
from bot.tables.model import (
    ROBOT,
    DealFinished,
    Fairness,
    Live,
    MatchFinished,
    Notice,
    Seat,
    SubDone,
    match_options,
    people_practice,
    write_result,
)
from games.core.fair import FairStream, seed_for
from storage.interface import (
    TableStatus,
    is_practice,
)

log = logging.getLogger(__name__)


class MatchLife:
    """A match from its first deal to its entry in the ledger (a part of the table service,
    on the ground ``tables`` gives)."""

    def __init__(self, tables: TableBase) -> None:
        self.tables = tables

    async def start_match(self, live: Live) -> None:
        """A new match at the table; the first dealer is drawn by lot."""
        seats = {seat: holder.player_id for seat, holder in live.holders.items()}
        record = await self.tables.storage.start_match(live.table.id, seats)
        live.table = await self.tables.storage.get_table(live.table.id)
        live.match_id = record.id
        live.players = len(seats)
        live.match = live.game.new_match(
            live.players, match_options(live.table.settings, live.chat)
        )
        live.match_changed()
        live.match_deals, live.scored = set(), set()
        await self.start_deal(live, self.tables.randbelow(live.players))

    async def start_deal(self, live: Live, dealer: Seat) -> None:
        options = dict(live.table.settings.options)
        if live.match is not None:
            options.update(live.game.deal_rules(live.match))
        number = live.deal_no + 1
        fair = None
        randbelow = self.tables.randbelow
        if self.tables.fair_key is not None:
            # The seed was fixed (and its hash shown) before this deal; the players' last
            # press came after: neither side alone chose the cards.
            seed = seed_for(self.tables.fair_key, live.table.id, number, live.table.token)
            fair = Fairness(number, seed, str(live.heard or 0))
            randbelow = FairStream(fair.seed, fair.entropy, number).randbelow
        payload = dict(live.game.new_deal(live.players, dealer, randbelow, options))
        if fair is not None:
            payload["fair"] = fair.to_payload()
        await self.tables.storage.start_deal(live.table.id, number, payload, None)
        live.fair = fair
        state = live.game.start(live.players, payload)
        live.deal_no, live.state, live.seq, live.moves = number, state, 1, 1
        live.last_at = time.time()
        # Votes belong to the deal they were cast in (its log keeps them across a restart):
        # a new deal starts with none open.
        live.end_votes.clear()
        live.end_proposals.clear()
        live.undo_request = live.sub_request = None
        live.match_deals.add(number)

    async def advance(self, live: Live) -> list[Notice]:
        """Follow up a finished deal: write its outcome, then the next deal or the end of the
        match. Idempotent, so a restart after a crash at any point between these writes
        completes them."""
        state, match = live.state, live.match
        if match is not None and live.match_id is not None and not live.match_deals:
            # The match was written but not its first deal (a kill or a failed write between
            # the two): deal it now, as the start would have, or the table plays nothing.
            await self.start_deal(live, self.tables.randbelow(live.players))
            return []
        if state is None or not state.finished or match is None or live.match_id is None:
            return []
        notices: list[Notice] = []
        if live.deal_no not in live.match_deals:
            return []  # the current deal belongs to an earlier match
        if live.deal_no not in live.scored:
            outcome = live.game.outcome(state)
            await self.tables.storage.finish_deal(live.table.id, live.deal_no, outcome)
            live.scored.add(live.deal_no)
            before = copy.deepcopy(match)
            written = match.record(outcome)
            after = copy.deepcopy(match)
            live.match_changed(after)
            notices.append(
                DealFinished(
                    live.deal_no,
                    outcome,
                    written,
                    state,
                    after,
                    before,
                    dict(live.holders),
                    live.fair,
                )
            )
        if match.finished:
            notices.extend(await self.finish_match(live))
        else:
            notices.extend(await self.hand_over(live))
            dealer = live.game.next_dealer(state.dealer, live.players, match)
            await self.start_deal(live, dealer)
        return notices

    async def finish_match(self, live: Live, unfinished: bool = False) -> list[Notice]:
        assert live.match is not None and live.match_id is not None
        match = live.match
        match.configure(match_options(live.table.settings, live.chat))  # the group's rounding now
        live.match_changed()
        players = {seat: holder.player_id for seat, holder in live.holders.items()}
        robots = await self.with_robots(live)
        unit = live.game.practice_unit if robots else live.game.unit
        entries = await write_result(
            self.tables.storage, live.match_id, match, players, unfinished, unit
        )
        summary = match.summary()
        live.table = await self.tables.storage.get_table(live.table.id)
        if live.table.status is TableStatus.PLAYING:
            await self.tables.storage.set_status(live.table.id, TableStatus.OPEN)
            live.table = await self.tables.storage.get_table(live.table.id)
        live.match_id = None
        balances = await self.tables.storage.accounts(live.chat.id)
        if is_practice(unit):
            balances = {unit: await people_practice(self.tables.storage, live.chat.id, unit)}
        names = {h.player_id: h.name for h in live.holders.values()}
        finished = MatchFinished(
            summary, entries, balances, names, copy.deepcopy(match), unfinished, unit
        )
        return [finished, *await self.hand_over(live)]

    async def with_robots(self, live: Live) -> bool:
        """A robot sat in the match (at its start, or now): it is practice, not money."""
        if any(holder.robot for holder in live.holders.values()):
            return True
        assert live.match_id is not None
        started = await self.tables.storage.get_match(live.match_id)
        for player_id in started.seats.values():
            if await self.tables.storage.player_flag(player_id, ROBOT):
                return True
        return False

    async def hand_over(self, live: Live) -> list[Notice]:
        """Seat the people who asked for robots' seats (between deals)."""
        notices: list[Notice] = []
        for seat, newcomer in sorted(live.takeovers.items()):
            left = live.holders.get(seat)
            await self.tables.storage.set_seat(live.table.id, seat, newcomer.player_id)
            live.holders[seat] = newcomer
            if left is not None:
                notices.append(SubDone(seat, left, newcomer))
        live.takeovers.clear()
        return notices
