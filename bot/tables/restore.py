"""Rebuilding a live table from storage: its deal replayed, its match re-recorded, its open votes
read back from the log."""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.tables.model import (
    END,
    ROBOT,
    SUB_ANSWER,
    SUB_ASK,
    TAKEOVER,
    UNDO_ANSWER,
    UNDO_ASK,
    VOTE,
    Fairness,
    Holder,
    Live,
    PlayedDeal,
    Seat,
    SubRequest,
    UndoRequest,
    _holder,
    match_options,
)
from games.core.base import recorded
from games.core.protocols import Game, Match
from games.core.registry import find_game
from storage.events import replay
from storage.interface import (
    Chat,
    DealSummary,
    Event,
    MatchRecord,
    TableBundle,
    TableSettings,
)

log = logging.getLogger(__name__)

_MatchLogs = tuple[MatchRecord, Mapping[Seat, str], Sequence[tuple[DealSummary, list[Event]]]]


def _replay_played(
    game: Game,
    chat: Chat,
    matches: Sequence[_MatchLogs],
    since: str,
    until: str,
) -> list[PlayedDeal]:
    """``played_deals``'s CPU half: each match's deals replayed from their logs, the match
    rebuilt deal by deal beside them (so each deal knows the score it was played at)."""
    found: list[PlayedDeal] = []
    for record, names, deals in matches:
        players = len(record.seats)
        match = game.new_match(players, match_options(TableSettings(options=record.options), chat))
        for number, (summary, events) in enumerate(deals, start=1):
            before = copy.deepcopy(match)
            if summary.result is not None:
                match.record(summary.result)
            day = events[0].at[:10] if events else ""
            if not events or (since and day < since) or (until and day > until):
                continue
            state = replay(game, players, events)
            if not state.finished and record.finished_at is None:
                continue  # under way: its hands are nobody's to see yet
            found.append(PlayedDeal(summary.deal_no, number, state, before, names, events[0].at))
    return found


def _live_from(bundle: TableBundle) -> Live:
    """Rebuild a table from storage: the match from its deals' outcomes, the deal by replay."""
    table = bundle.table
    game = find_game(table.game)
    holders = {
        seat: _holder(bundle.players[pid], ROBOT in bundle.flags.get(pid, ()))
        for seat, pid in table.seats.items()
    }
    players = len(holders) if table.match_id is not None else 0
    match = None
    if table.match_id is not None:
        options = match_options(table.settings, bundle.chat)
        match = _recorded(game, players, options, bundle.match_deals)
    state = replay(game, players, bundle.events) if bundle.events and players else None
    rules_events = [e for e in bundle.events if e.kind != VOTE]
    paused = {
        seat
        for seat, holder in holders.items()
        if holder.tg_user_id is not None and "blocked" in bundle.flags.get(holder.player_id, ())
    }
    last_at = (
        datetime.fromisoformat(rules_events[-1].at).timestamp() if rules_events else time.time()
    )
    live = Live(
        table,
        bundle.chat,
        game,
        holders,
        table.match_id,
        match,
        table.current_deal,
        state,
        len(bundle.events),
        paused,
        match_deals={d.deal_no for d in bundle.match_deals},
        scored={d.deal_no for d in bundle.match_deals if d.result is not None},
        last_at=last_at,
        moves=max(1, len(rules_events)),
        players=players,
    )
    if bundle.events:
        live.fair = Fairness.of(table.current_deal, bundle.events[0].payload)
    _restore_votes(live, bundle.events)
    return live


def _recorded(
    game: Game,
    players: int,
    options: Mapping[str, Any],
    deals: Sequence[DealSummary],
    before: int | None = None,
) -> Match:
    """A match with its deals' outcomes recorded: all of them, or those dealt before deal
    ``before`` (the match as that deal was played)."""
    return recorded(game, players, options, outcomes_before(deals, before))


def outcomes_before(
    deals: Sequence[DealSummary], before: int | None = None
) -> list[Mapping[str, Any]]:
    """The outcomes of the finished deals, in order: all, or those dealt before ``before``."""
    return [
        summary.result
        for summary in deals
        if summary.result is not None and (before is None or summary.deal_no < before)
    ]


def _seat_value(value: Any) -> Seat:
    """A seat as a vote records it: an index, or (logs written before the game seam, when
    bridge was the only game) a bridge seat letter."""
    if isinstance(value, str) and value in ("N", "E", "S", "W"):
        return "NESW".index(value)
    return int(value)


def _restore_votes(live: Live, events: Sequence[Event]) -> None:
    """The votes open when the process stopped, from the deal's log: any rules action after an
    undo request makes it moot, a refusal closes a request, a substitute seated ends theirs."""
    moves = 0
    for event in events:
        if event.kind != VOTE:
            moves += 1
            live.undo_request = None
            continue
        vote = event.payload
        what, seat = vote.get("what"), _seat_value(vote.get("seat", 0))
        agree = bool(vote.get("agree", True))
        if what == UNDO_ASK:
            live.undo_request = UndoRequest(seat, moves)
        elif what == UNDO_ANSWER and live.undo_request is not None:
            if agree:
                live.undo_request.allowed.add(seat)
            else:
                live.undo_request = None
        elif what == SUB_ASK:
            live.sub_request = SubRequest(seat, Holder(**vote["newcomer"]))
            proposer = _seat_value(vote["by"])
            if proposer != seat:
                live.sub_request.agreed.add(proposer)
        elif what == SUB_ANSWER and live.sub_request is not None:
            if agree:
                live.sub_request.agreed.add(seat)
            else:
                live.sub_request = None
        elif what == TAKEOVER:
            live.takeovers[seat] = Holder(**vote["newcomer"])
        elif what == END:
            if agree:
                if not live.end_votes:  # a proposal: counted, so a restart resets no bound
                    live.end_proposals[seat] = live.end_proposals.get(seat, 0) + 1
                live.end_votes.add(seat)
            else:
                live.end_votes.clear()
    request = live.sub_request
    if request is not None and live.holders.get(request.seat) == request.newcomer:
        live.sub_request = None  # done: the newcomer holds the seat
    for seat, newcomer in list(live.takeovers.items()):
        if live.holders.get(seat) == newcomer:
            del live.takeovers[seat]  # done before the process stopped
