"""Votes: taking an action back, a substitute for a seat, ending the match early. Each vote is an
event of the deal's log, so it survives a restart."""

from __future__ import annotations

import dataclasses
import logging

from bot.tables.base import TableBase
from bot.tables.matches import MatchLife
from bot.tables.model import (
    END,
    SUB_ANSWER,
    SUB_ASK,
    UNDO_ANSWER,
    UNDO_ASK,
    Change,
    EndVote,
    Live,
    Notice,
    Refusal,
    Seat,
    SubDone,
    SubProposed,
    SubRefused,
    SubRequest,
    UndoAnswered,
    UndoAsked,
    UndoRequest,
    _holder,
    _seat_of,
)
from bot.tables.play import Play
from storage.interface import (
    Player,
    TableStatus,
)

log = logging.getLogger(__name__)

END_PROPOSALS = 2  # times a seat may propose to stop the match in one deal


class Votes:
    """What the players at a table agree to together (a part of the table service)."""

    def __init__(self, tables: TableBase, matches: MatchLife, play: Play) -> None:
        self.tables = tables
        self.matches = matches
        self.play = play

    async def ask_undo(self, table_id: int, deal_no: int, player_id: int) -> Change:
        """A player asks to take back their last action; those the game names decide (bridge:
        the opponents)."""
        async with self.tables._guard(table_id):
            live, seat = await self.play.acting(table_id, deal_no, player_id)
            assert live.state is not None
            live.game.undo(live.state, seat)  # RuleError if it is not theirs, or too late
            open_request = live.undo_request
            if open_request is not None and open_request.seq == live.moves:
                # Asked already (by them: the same question; by another: one at a time).
                raise Refusal("already_voted" if open_request.seat == seat else "undo_pending")
            await self.tables._log_vote(live, player_id, {"what": UNDO_ASK, "seat": seat})
            request = live.undo_request = UndoRequest(seat, live.moves)
            voters = live.game.undo_voters(live.state, seat)
            robots = sorted(s for s in voters if live.holders[s].robot)
            for robot in robots:  # a robot allows a take-back at once
                answer = {"what": UNDO_ANSWER, "seat": robot, "agree": True}
                await self.tables._log_vote(live, live.holders[robot].player_id, answer)
                request.allowed.add(robot)
            if robots and voters <= request.allowed:
                done = UndoAnswered(seat, robots[-1], True)
                undo = live.game.undo(live.state, seat)
                return await self.play.apply(live, undo, seat, player_id, UndoAsked(seat), done)
            return Change(self.tables._snapshot(live), (UndoAsked(seat),))

    async def answer_undo(self, table_id: int, deal_no: int, player_id: int, agree: bool) -> Change:
        """One of those the game names (bridge: an opponent of the asker) allows or refuses;
        all of them must allow."""
        async with self.tables._guard(table_id):
            live, seat = await self.play.acting(table_id, deal_no, player_id)
            request = live.undo_request
            if request is None or request.seq != live.moves or live.state is None:
                raise Refusal("undo_stale")
            voters = live.game.undo_voters(live.state, request.seat)
            if seat not in voters:
                raise Refusal("undo_opponents")
            if agree and seat in request.allowed:
                raise Refusal("already_voted")  # a second tap changes nothing, posts nothing
            vote = {"what": UNDO_ANSWER, "seat": seat, "agree": agree}
            if not agree:
                await self.tables._log_vote(live, player_id, vote)
                live.undo_request = None
                return Change(
                    self.tables._snapshot(live), (UndoAnswered(request.seat, seat, False),)
                )
            if not voters <= request.allowed | {seat}:
                await self.tables._log_vote(live, player_id, vote)
                request.allowed.add(seat)
                return Change(self.tables._snapshot(live))
            request.allowed.add(seat)
            asker = live.holders[request.seat].player_id
            done = UndoAnswered(request.seat, seat, True)
            undo = live.game.undo(live.state, request.seat)
            return await self.play.apply(live, undo, request.seat, asker, done)

    async def propose_sub(
        self, table_id: int, proposer_id: int, seat: Seat, newcomer: Player
    ) -> Change:
        """A substitute for ``seat`` during the rubber (mid-deal too): the other players agree,
        then the newcomer holds the seat, its hand, and its share of the rubber's result."""
        async with self.tables._guard(table_id):
            live = await self.play.in_match(table_id)
            proposer = _seat_of(live, proposer_id)
            if proposer is None:
                raise Refusal("not_seated")
            if seat not in live.holders:
                raise Refusal("sub_no_seat")
            if _seat_of(live, newcomer.id) is not None:
                raise Refusal("sub_already_seated", name=newcomer.name)
            open_request = live.sub_request
            if (
                open_request is not None
                and open_request.seat == seat
                and open_request.newcomer.player_id == newcomer.id
            ):
                raise Refusal("already_voted")  # proposed already: the others are asked
            request = SubRequest(seat, _holder(newcomer))
            if proposer != seat:
                request.agreed.add(proposer)
            await self.tables._log_vote(
                live,
                proposer_id,
                {
                    "what": SUB_ASK,
                    "seat": seat,
                    "by": proposer,
                    "newcomer": dataclasses.asdict(request.newcomer),
                },
            )
            live.sub_request = request
            return await self._sub_progress(live, fresh=True)

    async def answer_sub(self, table_id: int, player_id: int, agree: bool) -> Change:
        async with self.tables._guard(table_id):
            live = await self.tables._get(table_id)
            request = live.sub_request
            if request is None or live.table.status is not TableStatus.PLAYING:
                raise Refusal("sub_none")
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if seat == request.seat:
                raise Refusal("sub_others_decide")
            if agree and seat in request.agreed:
                raise Refusal("already_voted")
            await self.tables._log_vote(
                live, player_id, {"what": SUB_ANSWER, "seat": seat, "agree": agree}
            )
            if not agree:
                live.sub_request = None
                return Change(self.tables._snapshot(live), (SubRefused(request.seat, seat),))
            request.agreed.add(seat)
            return await self._sub_progress(live, fresh=False)

    async def _sub_progress(self, live: Live, fresh: bool) -> Change:
        request = live.sub_request
        assert request is not None
        others = {s for s in live.humans if s != request.seat}  # robots agree
        if not others <= request.agreed:
            leaving = live.holders[request.seat].name
            notice: Notice = SubProposed(
                request.seat, leaving, request.newcomer.name, frozenset(request.agreed), fresh
            )
            return Change(self.tables._snapshot(live), (notice,))
        left = live.holders[request.seat]
        await self.tables.storage.set_seat(live.table.id, request.seat, request.newcomer.player_id)
        live.holders[request.seat] = request.newcomer
        live.paused.discard(request.seat)
        live.sub_request = None
        return Change(self.tables._snapshot(live), (SubDone(request.seat, left, request.newcomer),))

    async def vote_to_end(self, table_id: int, player_id: int, agree: bool) -> Change:
        """A seated player agrees (or not) to stop the match now; when all agree, it stops."""
        async with self.tables._guard(table_id):
            live = await self.play.in_match(table_id)
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if (agree and seat in live.end_votes) or (not agree and not live.end_votes):
                raise Refusal("already_voted")  # the same answer again: nothing changes
            if agree and not live.end_votes:  # a new proposal: a few a deal, not a spam loop
                proposed = live.end_proposals.get(seat, 0)
                if proposed >= END_PROPOSALS:
                    raise Refusal("end_vote_limit")
                live.end_proposals[seat] = proposed + 1
            if live.state is not None and not live.state.finished:
                vote = {"what": END, "seat": seat, "agree": agree}
                await self.tables._log_vote(live, player_id, vote)
            if not agree:
                live.end_votes.clear()
                return Change(self.tables._snapshot(live), (EndVote(seat, False),))
            live.end_votes.add(seat)
            if not live.humans <= live.end_votes:  # robots agree to stop
                return Change(self.tables._snapshot(live), (EndVote(seat, True),))
            notices = await self._end_match(live)
            return Change(self.tables._snapshot(live), tuple(notices))

    async def end_by_admin(self, table_id: int) -> Change:
        """A group admin stops the match now (the caller checked the admin)."""
        async with self.tables._guard(table_id):
            live = await self.play.in_match(table_id)
            notices = await self._end_match(live)
            return Change(self.tables._snapshot(live), tuple(notices))

    async def _end_match(self, live: Live) -> list[Notice]:
        """Settled by the game's early-stop rule (bridge: RULES.md, Law 80) from the deals
        completed; a deal in progress is abandoned, its events kept."""
        assert live.match is not None
        live.end_votes.clear()
        live.match.close()
        live.match_changed()
        return await self.matches.finish_match(live, unfinished=True)
