"""What the table service hands out and keeps: refusals, snapshots to render, the notices of a
change, and the live table it holds in memory (only a cache: storage can always rebuild it)."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core.fair import Dealing, commitment
from games.core.protocols import Game, Match, State, may_act
from games.core.registry import games as registered_games
from storage.interface import (
    PRACTICE,
    Chat,
    ConflictError,
    Player,
    Storage,
    Table,
    TableSettings,
    TableStatus,
)

log = logging.getLogger(__name__)

Seat = int  # a seat index, 0.. clockwise; what a seat is called is the game UI's business

# Seconds before each attempt to bring a table back after a storage failure (about 10 minutes).
RECOVERY_DELAYS = (0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 60, 120, 120, 120, 120)


VOTE = "vote"  # an event kind of the deal's log that the rules skip
UNDO_ASK, UNDO_ANSWER, SUB_ASK, SUB_ANSWER, END = "undo", "undo_answer", "sub", "sub_answer", "end"
TAKEOVER = "takeover"  # a person asked for a robot's seat: theirs from the next deal
ROBOT = "robot"  # the player flag of a robot


class Written(Exception):
    """The action was written and stands, but what follows it failed (storage trouble while
    scoring the deal, say); the table is reloaded from its log and catches up by itself."""


class Refusal(Exception):
    """An action the table will not take now; the bot translates ``refusal.<key>``, or the
    game's own words for it (``refusal.<game>.<key>``: a rubber, a pulka) where it has them."""

    def __init__(self, key: str, *, game: str = "", **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.game = game
        self.values = values


@dataclass(frozen=True, slots=True)
class Fairness:
    """What a deal was shuffled from (``games.core.fair``): the server seed, whose hash the
    table showed before the deal, and the players' value it was combined with. The seed is
    shown only once the deal is over."""

    deal_no: int  # the table's count of deals (the stream's third input), not the match's
    seed: str
    entropy: str

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def to_payload(self) -> dict[str, str]:
        return {"seed": self.seed, "entropy": self.entropy}

    @classmethod
    def of(cls, deal_no: int, payload: Mapping[str, Any]) -> Fairness | None:
        """From a deal's first event (None for a deal dealt without it: a test's fixed
        shuffle, or a deal from before fair dealing)."""
        fair = payload.get("fair")
        if not isinstance(fair, Mapping):
            return None
        return cls(deal_no, str(fair["seed"]), str(fair["entropy"]))


@dataclass(frozen=True, slots=True)
class Revealed:
    """A finished deal's seed and what its check needs (``games.core.fair``'s arguments): the
    game's pack and deal order for that deal, as the game says them (``Game.dealing``)."""

    fair: Fairness
    dealing: Dealing


@dataclass(frozen=True, slots=True)
class Holder:
    """The person in a seat, as views need them."""

    player_id: int
    name: str
    tg_user_id: int | None
    language: str
    robot: bool = False


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A table as it stands, for rendering. Hands are reached only through ``view``."""

    table_id: int
    chat: Chat
    topic_id: int | None
    settings: TableSettings
    status: TableStatus
    seats: Mapping[Seat, Holder]
    deal_no: int
    state: State[Any, Any] | None
    match: Match | None
    paused: frozenset[Seat]
    game: Game
    dealer_drawn: bool = False
    end_votes: frozenset[Seat] = frozenset()
    actions: int = 0  # events in the current deal: a turn timer checks nothing happened since
    last_at: float = 0.0  # when the last of them was written (epoch seconds)
    token: str = ""  # the table's deep-link token
    players: int = 0  # seats in play: the match's, or the game's most while seating
    first_deal: int = 1  # the number of the match's first deal
    takeovers: Mapping[Seat, Holder] = dataclasses.field(default_factory=dict)
    # The SHA-256 commitments of the server seeds of this deal and the next, by the table's
    # deal number (none where deals are not dealt fairly: a test's fixed shuffle): each is
    # shown before its deal exists.
    commitments: Mapping[int, str] = dataclasses.field(default_factory=dict)

    def robot_turns(self) -> list[Seat]:
        """The robot seats that have something to do now (a call, a card, a claim to answer)."""
        state = self.state
        if state is None or state.finished or self.status is not TableStatus.PLAYING:
            return []
        return [
            seat
            for seat, holder in sorted(self.seats.items())
            if holder.robot and may_act(state, seat)
        ]

    def deal_in_match(self, deal_no: int) -> int:
        """A deal as players count it: from 1 in each match (the log counts per table)."""
        return deal_no - self.first_deal + 1 if deal_no >= self.first_deal else deal_no

    def check_sit(self, player_id: int, seat: Seat) -> None:
        """Refusal if the player may not take ``seat`` now (the same checks ``sit`` makes)."""
        holder = self.seats.get(seat)
        if holder is not None and holder.robot and self.seat_of(player_id) is None:
            if self.status is TableStatus.CLOSED:
                raise Refusal("table_closed")
            return  # a person may always take a robot's place (during a match: next deal)
        _check_sit(self.status, self.seats, player_id, seat, self.game.name)

    def view(self, viewer: Seat | None) -> Any:
        return None if self.state is None else self.state.view(viewer)

    def seat_of(self, player_id: int) -> Seat | None:
        return _seat_in(self.seats, player_id)


@dataclass(frozen=True, slots=True)
class SetAside:
    """A table that could not be restored from its log: its group is told, nothing else stops."""

    table_id: int
    chat: Chat
    topic_id: int | None
    language: str  # the table's


@dataclass(frozen=True, slots=True)
class DealFinished:
    """A deal ended and its outcome was written on the match."""

    deal_no: int
    outcome: Mapping[str, Any]  # the game's JSON result, as stored
    written: Any  # what the match wrote (bridge: score entries)
    final: State[Any, Any]
    match: Match  # after the deal
    before: Match  # as the deal was played (bridge: who was vulnerable)
    holders: Mapping[Seat, Holder] = dataclasses.field(default_factory=dict)  # who played it
    fair: Fairness | None = None  # what it was shuffled from, revealed with its result


@dataclass(frozen=True, slots=True)
class DealRedrawn:
    """After a restart: the last finished deal's screens as they should have ended. A process
    that died between writing a deal's end and showing it left the players' old keyboards up;
    only messages already shown are corrected, and nothing is posted again."""

    deal_no: int
    final: State[Any, Any]
    before: Match  # the match as the deal was played


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A match (a rubber, a pulka) ended and was entered in the group's ledger."""

    summary: Mapping[str, Any]  # the game's JSON summary, as stored
    entries: Mapping[int, int]  # player id -> amount
    balances: Mapping[str, Mapping[int, int]]  # unit -> player id -> running account here
    names: Mapping[int, str]
    match: Match
    unfinished: bool = False
    unit: str = "points"  # what ``entries`` count (the game's unit)


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """A deal of a match as it was played, for hand records and analysis."""

    deal_no: int  # the table's count
    number: int  # the deal's number in its match
    state: State[Any, Any]  # replayed from its log: to its end, or as far as it went
    before: Match  # the match as the deal was played (bridge: who was vulnerable)
    names: Mapping[Seat, str]  # who sat where
    at: str  # when it was dealt (ISO time)


@dataclass
class UndoRequest:
    seat: Seat
    seq: int  # the event count when asked: any action since makes it moot
    allowed: set[Seat] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class UndoAsked:
    seat: Seat


@dataclass(frozen=True, slots=True)
class UndoAnswered:
    asker: Seat
    by: Seat
    allowed: bool


@dataclass
class SubRequest:
    seat: Seat
    newcomer: Holder
    agreed: set[Seat] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class SubProposed:
    seat: Seat
    leaving: str
    newcomer: str
    agreed: frozenset[Seat]
    fresh: bool = True  # a new proposal (a new message), not an answer to the open one


@dataclass(frozen=True, slots=True)
class SubDone:
    seat: Seat
    left: Holder
    newcomer: Holder


@dataclass(frozen=True, slots=True)
class SubRefused:
    seat: Seat
    by: Seat


@dataclass(frozen=True, slots=True)
class GameSwitched:
    """The table changed its game between matches."""

    game: str
    kept: tuple[str, ...]  # names still seated
    stood: tuple[str, ...]  # names that stood up (no such seat, or a robot)
    seats: int  # the new game's seats


@dataclass(frozen=True, slots=True)
class SwitchAsked:
    """A seated player asked for another game; it starts when every seated person has."""

    game: str
    agreed: int
    of: int


@dataclass(frozen=True, slots=True)
class NextReady:
    """Seated people ready for the next match (``started``: all were, and it began). The
    vote's message is keyed by ``deal_no``, the table's deal when the vote was opened."""

    ready: tuple[Seat, ...]
    of: int
    deal_no: int
    started: bool = False
    cancelled: bool = False  # someone stood up: the table must fill again first


@dataclass(frozen=True, slots=True)
class TakeoverAsked:
    """A person will take a robot's seat when the deal in progress ends."""

    seat: Seat
    newcomer: str


@dataclass(frozen=True, slots=True)
class EndVote:
    seat: Seat
    agree: bool


Notice = Any  # the service's notices above, and whatever a game's ``notices`` returns


@dataclass(frozen=True, slots=True)
class Change:
    snapshot: Snapshot
    notices: tuple[Notice, ...] = ()


@dataclass
class Live:
    table: Table
    chat: Chat
    game: Game
    holders: dict[Seat, Holder]
    match_id: int | None
    match: Match | None
    deal_no: int
    state: State[Any, Any] | None
    seq: int  # events in the deal's log (rules' and votes'): the next one's key
    paused: set[Seat] = field(default_factory=set)
    end_votes: set[Seat] = field(default_factory=set)  # consent to stop the match now
    end_proposals: dict[Seat, int] = field(default_factory=dict)  # this deal's, by seat
    # Seated people who asked for another game between matches (the game, their player ids):
    # it takes every seated person's consent, or an admin (memory only).
    switch_votes: tuple[str, frozenset[int]] | None = None
    # Seated people ready for the next match (seat -> asked for partners drawn again): it
    # starts when every seated person is (memory only; robots are always ready).
    next_votes: dict[Seat, bool] = field(default_factory=dict)
    undo_request: UndoRequest | None = None
    sub_request: SubRequest | None = None
    last_at: float = field(default_factory=time.time)
    match_deals: set[int] = field(default_factory=set)  # deal numbers of the match
    scored: set[int] = field(default_factory=set)  # those whose result storage holds
    moves: int = 1  # the deal event and every rules action: the position buttons name
    players: int = 0  # seats in play in the match
    takeovers: dict[Seat, Holder] = field(default_factory=dict)  # robot seats people asked for
    fair: Fairness | None = None  # what the current deal was shuffled from
    # The Telegram id of the last press a seated person made here that the table took: the
    # players' value the next deal is shuffled with (memory only; a restart starts at none).
    heard: int | None = None
    # The match as snapshots show it: a copy, so that what a snapshot holds never changes
    # under a render; made again only after the match changed (at a deal's end, a setting,
    # a stop), not on every press.
    shown: Match | None = None
    # The commitments snapshots show, and the deal they are for: two HMACs and two SHA-256s,
    # made once a deal, not on every press (``TableBase._commitments``).
    committed: tuple[int, Mapping[int, str]] | None = None

    def shown_match(self) -> Match | None:
        if self.match is not None and self.shown is None:
            self.shown = copy.deepcopy(self.match)
        return self.shown if self.match is not None else None

    def match_changed(self, copied: Match | None = None) -> None:
        """The match was written on; ``copied``: a copy of it as it now stands, if one was
        made anyway."""
        self.shown = copied

    @property
    def dealer_drawn(self) -> bool:
        """The match's first deal is under way (its dealer was drawn by lot): read from what
        storage holds, so that a restart shows the same table and edits nothing."""
        return (
            self.match_id is not None
            and bool(self.match_deals)
            and (self.deal_no == min(self.match_deals))
        )

    @property
    def humans(self) -> set[Seat]:
        return {seat for seat, holder in self.holders.items() if not holder.robot}

    @property
    def table_size(self) -> int:
        """The seats of this table: its game's count for the table's options."""
        return self.game.table_size(self.table.settings.options)

    @property
    def seat_count(self) -> int:
        return self.players or self.table_size


def stale_or_forged(deal_no: int, current: int) -> Refusal:
    """A button of a deal other than the current one: an earlier deal's (stale), or one that
    was never dealt (no button of ours made it)."""
    return Refusal("stale" if 1 <= deal_no < current else "unknown_action")


async def people_practice(storage: Storage, chat_id: int, unit: str = PRACTICE) -> dict[int, int]:
    """The people's practice in ``unit`` in the group (robots' are no one's statistics)."""
    return {
        pid: points
        for pid, points in (await storage.balances(chat_id, unit)).items()
        if not await storage.player_flag(pid, ROBOT)
    }


async def people_practices(storage: Storage, chat_id: int) -> dict[str, dict[int, int]]:
    """Every game's practice in the group, by practice unit (those with any)."""
    found = {}
    for unit in sorted({game.practice_unit for game in registered_games()}):
        practice = await people_practice(storage, chat_id, unit)
        if practice:
            found[unit] = practice
    return found


def match_options(settings: TableSettings, chat: Chat) -> dict[str, Any]:
    """The match's options: the table's for its game, and the group's rounding of money."""
    return {**settings.options, "rounding": chat.settings.rounding.value}


async def write_result(
    storage: Storage,
    match_id: int,
    match: Match,
    players: Mapping[int, int],
    unfinished: bool,
    unit: str,
) -> dict[int, int]:
    """A finished match into the group's ledger, played online or kept on a sheet alike: each
    seat's player gets the match's settlement in whole units of ``unit`` (one transaction; a
    match written before a restart is left as it was). The entries, by player id."""
    amounts = match.settle()
    entries = {players[seat]: _whole(amounts[seat]) for seat in sorted(players)}
    with contextlib.suppress(ConflictError):
        await storage.finish_match(
            match_id, match.summary(), entries, players, unfinished, unit=unit
        )
    return entries


def _whole(amount: Any) -> int:
    """A ledger amount: matches settle in whole units of their game."""
    value = int(amount)
    if value != amount:
        raise ValueError(f"a match settled to a fraction ({amount}); the ledger keeps whole units")
    return value


def _check_sit(
    status: TableStatus, holders: Mapping[Seat, Holder], player_id: int, seat: Seat, game: str
) -> None:
    if status is TableStatus.CLOSED:
        raise Refusal("table_closed")
    if status is TableStatus.PLAYING:
        raise Refusal("match_in_progress", game=game)
    current = _seat_in(holders, player_id)
    if current == seat:
        raise Refusal("already_there")
    if seat in holders:
        raise Refusal("seat_taken", name=holders[seat].name)


def _holder(player: Player, robot: bool = False) -> Holder:
    return Holder(player.id, player.name, player.tg_user_id, player.language, robot)


def _seat_of(live: Live, player_id: int) -> Seat | None:
    return _seat_in(live.holders, player_id)


def _seat_in(holders: Mapping[Seat, Holder], player_id: int) -> Seat | None:
    for seat, holder in holders.items():
        if holder.player_id == player_id:
            return seat
    return None
