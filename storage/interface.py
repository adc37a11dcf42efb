"""The storage interface every backend implements, and the values it hands out.

Nothing here is SQLite-specific: ids are ints, times are ISO-8601 UTC strings, payloads are
JSON-able dicts. Nothing here is a game's either: a table names its game and keeps that game's
settings as JSON options, seats are indices 0.., a match (a rubber, a pulka) keeps its game's
result as JSON, and the ledger takes per-player amounts from any match. Both backends (SQLite,
and PostgreSQL for a bot with a standby) give the same guarantees, listed in the README: a
unique (table, deal, seq) key that turns a racing append into ``ConflictError``; all rows of
one match in one transaction summing to zero; append-only events and ledger.
"""

from __future__ import annotations

import abc
import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class StorageError(Exception):
    """Base of every storage failure that a caller may want to tell apart."""


class ConflictError(StorageError):
    """Another writer already appended this (table, deal, seq): reload and retry."""


class NotOurDatabase(StorageError):
    """The file exists but was not made by this bot."""


class DatabaseTooNew(StorageError):
    """The file was migrated by a newer version of the bot than this one."""


class DatabaseLocked(StorageError):
    """Another bot process holds the database."""


class UnbalancedLedger(StorageError):
    """Ledger rows written together must sum to zero."""


class LeaseLost(StorageError):
    """This process's lease on the database is another's now (or expired): it may neither
    write nor send; it leaves, and the process that holds the lease goes on."""


class NotFound(StorageError):
    """No row with that id."""


class AlreadyApplied(StorageError):
    """This Telegram update was applied before (delivered again after a crash): skip it."""


class TableStatus(StrEnum):
    OPEN = "open"  # seating
    PLAYING = "playing"  # a match in progress
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Per-table choices a group makes: the table's language and turn timer, and the game's own
    options (bridge: ``rules``, ``unfinished_part_score``), which only the game reads."""

    language: str = "ru"
    turn_timer: int = 0  # minutes; 0 = off
    options: Mapping[str, Any] = field(default_factory=dict)
    # Where the players' screens are: "group" (ephemeral messages in the group, each seen by
    # its player alone), "private" (private chats), "" (the group where the bot is a group
    # administrator, else private); and the players who chose their private chat for
    # themselves (player ids).
    hands: str = ""
    private_hands: frozenset[int] = frozenset()


CENTS = "cents"
"""What a ledger row counts: a game's unit (``Game.unit``: storage keeps any and names none), or
money (hundredths of the group's currency: payments made on a plan that priced several games
together)."""
PRACTICE = "practice"
"""Practice: a match a robot sat in, in its game's practice unit (``Game.practice_unit``:
bridge's points as ``practice``, as it always was; any other game's ``practice_<unit>``, so two
games' practice is never added together). Kept for the players' statistics, never money: no
account, settle plan or payment counts them. Storage knows only the prefix, no game's unit."""


def is_practice(unit: str) -> bool:
    """A practice unit: ``practice``, or ``practice_`` and a game's unit.

    >>> is_practice("practice"), is_practice("practice_whists"), is_practice("whists")
    (True, True, False)
    """
    return unit == PRACTICE or unit.startswith(PRACTICE + "_")


class Rounding(StrEnum):
    HUNDREDS = "hundreds"  # RULES.md: a remainder of 50 or more rounds up
    EXACT = "exact"  # the difference as it stands, for groups that settle to the point


class PaymentPolicy(StrEnum):
    """Who may record that a debt was paid (a group admin always may)."""

    PAYEE = "payee"  # the one who received the money
    EITHER = "either"  # payer or payee
    ADMINS = "admins"  # group admins only


UNIT = re.compile(r"^[a-z_]{1,24}$")
"""The shape of a unit's name: a game names its own (``Game.unit``), the ledger keeps any."""


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """The group's money: one ledger per chat, whatever table a match was played at. Prices
    are data, one per unit the group has priced (bridge's 10 per 100 points is 10 hundredths
    of the currency per point; a whist at 0.50 is 50), so a new game's unit needs no column."""

    currency: str = ""
    rounding: Rounding = Rounding.HUNDREDS
    payments: PaymentPolicy = PaymentPolicy.PAYEE
    prices: Mapping[str, int] = field(default_factory=dict)  # unit -> hundredths per unit
    # Whether everyone in the group sees everyone's statistics (/stats); off: each their own.
    stats_public: bool = False

    def price(self, unit: str) -> int:
        """Hundredths of the currency per one ``unit``; 0 when the group has not priced it."""
        if unit == CENTS:
            return 1
        if is_practice(unit):
            return 0  # never money
        return int(self.prices.get(unit, 0))

    def priced_together(self, units: Iterable[str]) -> bool:
        """Several units at once are shown and settled as money only when the group prices
        each (the ledger settles them so, and the views show them so)."""
        units = set(units)
        return len(units) > 1 and all(self.price(unit) for unit in units)

    def priced(self, unit: str, price: int) -> ChatSettings:
        """The settings with ``unit`` at ``price`` (0: unpriced)."""
        prices = {u: p for u, p in self.prices.items() if u != unit}
        if price:
            prices[unit] = price
        return dataclasses.replace(self, prices=dict(sorted(prices.items())))


@dataclass(frozen=True, slots=True)
class Chat:
    id: int
    tg_chat_id: int
    title: str
    language: str
    settings: ChatSettings = ChatSettings()


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    tg_user_id: int | None  # None for a guest entered by name (scorekeeping)
    name: str
    language: str
    chat_id: int | None = None  # the chat a guest belongs to


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    chat_id: int
    topic_id: int | None
    status: TableStatus
    settings: TableSettings
    game: str  # the registry name of the game it plays
    seats: Mapping[int, int] = field(default_factory=dict)  # seat index -> player id
    current_deal: int = 0  # number of the latest deal (0: none yet)
    match_id: int | None = None  # the match in progress
    scorekeeper: bool = False
    token: str = ""  # unguessable, for deep links (the id is sequential)


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a deal's append-only log."""

    table_id: int
    deal_no: int
    seq: int
    kind: str
    payload: Mapping[str, Any]
    player_id: int | None
    at: str


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A finished deal as the match needs it; derived from the deal's events and kept for speed."""

    table_id: int
    deal_no: int
    match_id: int | None
    result: Mapping[str, Any] | None  # None while the deal is in progress


@dataclass(frozen=True, slots=True)
class PlayerDeal:
    """One player's counts in one reviewed deal (``games.core.review.SeatStats`` as JSON)."""

    table_id: int
    deal_no: int
    player_id: int
    chat_id: int
    game: str
    day: str  # ISO date the deal was dealt
    robot: bool
    stats: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match as stored: a rubber, a pulka, the deals of one table between the same seats,
    settled at its end. The live one that scores them is the game's ``games.core`` Match."""

    id: int
    table_id: int
    chat_id: int
    game: str
    options: Mapping[str, Any]  # the table's game options when the match started
    seats: Mapping[int, int]  # who held each seat when the match ended (or now)
    started_at: str
    finished_at: str | None
    result: Mapping[str, Any] | None  # the game's summary of the outcome, once finished
    unfinished: bool


@dataclass(frozen=True, slots=True)
class LedgerRow:
    id: int
    chat_id: int
    player_id: int
    points: int
    kind: str  # "match" or "payment"
    match_id: int | None
    txn: str
    note: str
    at: str
    unit: str  # what ``points`` counts: a game's unit, a practice unit or ``CENTS``


@dataclass(frozen=True, slots=True)
class TableBundle:
    """Everything needed to bring one table back to life, fetched in bulk at start-up."""

    table: Table
    chat: Chat
    players: Mapping[int, Player]
    match_deals: Sequence[DealSummary]  # the match in progress, in order
    events: Sequence[Event]  # the current deal's log
    flags: Mapping[int, frozenset[str]]  # player id -> flags


class Storage(abc.ABC):
    """Everything durable the bot keeps. Every method is one transaction."""

    # --- life ----------------------------------------------------------------------------

    @abc.abstractmethod
    async def close(self) -> None: ...

    # --- chats and players ---------------------------------------------------------------

    @abc.abstractmethod
    async def ensure_chat(self, tg_chat_id: int, title: str = "", language: str = "ru") -> Chat:
        """The chat with this Telegram id, created on first sight."""

    @abc.abstractmethod
    async def chat_by_tg(self, tg_chat_id: int) -> Chat | None: ...

    @abc.abstractmethod
    async def get_chat(self, chat_id: int) -> Chat: ...

    @abc.abstractmethod
    async def migrate_chat(self, old_tg_chat_id: int, new_tg_chat_id: int) -> None:
        """A group became a supergroup: same chat, tables, players and ledger; new Telegram id."""

    @abc.abstractmethod
    async def update_chat_settings(self, chat_id: int, settings: ChatSettings) -> Chat: ...

    @abc.abstractmethod
    async def set_chat_language(self, chat_id: int, language: str) -> Chat:
        """The language the group is spoken to in where no table says otherwise (a new table
        starts in it)."""

    @abc.abstractmethod
    async def ensure_player(
        self, tg_user_id: int, name: str, language: str = "", username: str | None = None
    ) -> Player:
        """The player with this Telegram id; name, language and @username are refreshed."""

    @abc.abstractmethod
    async def player_by_username(self, username: str) -> Player | None:
        """A Telegram player by @username (case-insensitive), if they were ever seen."""

    @abc.abstractmethod
    async def add_guest(self, chat_id: int, name: str) -> Player:
        """A named player without Telegram, for scorekeeping; reused by name within the chat."""

    @abc.abstractmethod
    async def get_player(self, player_id: int) -> Player: ...

    @abc.abstractmethod
    async def player_by_tg(self, tg_user_id: int) -> Player | None: ...

    @abc.abstractmethod
    async def set_player_flag(self, player_id: int, flag: str, value: bool) -> None:
        """Per-player booleans such as ``can_write`` (bot may message them privately)."""

    @abc.abstractmethod
    async def player_flag(self, player_id: int, flag: str) -> bool: ...

    # --- tables and seats -----------------------------------------------------------------

    @abc.abstractmethod
    async def create_table(
        self,
        chat_id: int,
        topic_id: int | None,
        settings: TableSettings,
        *,
        game: str,
        scorekeeper: bool = False,
    ) -> Table: ...

    @abc.abstractmethod
    async def get_table(self, table_id: int) -> Table: ...

    @abc.abstractmethod
    async def table_in(
        self, chat_id: int, topic_id: int | None, scorekeeper: bool = False
    ) -> Table | None:
        """The table (or scorekeeper's sheet) not closed in this chat and forum topic, if any."""

    @abc.abstractmethod
    async def tables_of_player(self, player_id: int) -> list[Table]: ...

    @abc.abstractmethod
    async def tables_in_chat(self, chat_id: int) -> list[Table]:
        """Every table and sheet not closed in this chat, whatever its forum topic."""

    @abc.abstractmethod
    async def table_by_token(self, token: str) -> Table | None:
        """The table a deep link names (its unguessable token), if any."""

    @abc.abstractmethod
    async def load_bundles(self, table_ids: Sequence[int] | None = None) -> list[TableBundle]:
        """Tables with their chat, players, match deals, current deal's events and player
        flags; every online table not closed when ``table_ids`` is None. A few queries in all, not
        a few per table: a restart of a thousand tables must not take a thousand round trips."""

    @abc.abstractmethod
    async def update_settings(self, table_id: int, settings: TableSettings) -> None: ...

    @abc.abstractmethod
    async def set_status(self, table_id: int, status: TableStatus) -> None: ...

    @abc.abstractmethod
    async def set_game(self, table_id: int, game: str) -> None:
        """Another game at the table, between matches. Its options stay: each game reads its
        own (a group switching back finds its settings as it left them)."""

    @abc.abstractmethod
    async def set_seat(self, table_id: int, seat: int, player_id: int | None) -> None:
        """Seat a player (None: empty the seat). A player sits in one seat of a table at most."""

    # --- kept messages ---------------------------------------------------------------------

    @abc.abstractmethod
    async def set_message(
        self, table_id: int, key: str, tg_chat_id: int, message_id: int, digest: str = ""
    ) -> None:
        """Remember a message the bot keeps editing (the table message, a player's hand), and a
        digest of the content it shows now."""

    async def set_messages(self, rows: Sequence[tuple[int, str, int, int, str]]) -> None:
        """Several ``set_message`` (table, key, chat, message, digest) at once, in one commit
        where the backend can."""
        for row in rows:
            await self.set_message(*row)

    @abc.abstractmethod
    async def messages(self, table_id: int) -> dict[str, tuple[int, int]]:
        """key -> (Telegram chat id, message id)."""

    @abc.abstractmethod
    async def message(self, table_id: int, key: str) -> tuple[int, int, str] | None:
        """One kept message's (Telegram chat id, message id, digest of its content), if it was
        ever sent."""

    # --- deals and their events --------------------------------------------------------------

    @abc.abstractmethod
    async def start_deal(
        self,
        table_id: int,
        deal_no: int,
        payload: Mapping[str, Any],
        player_id: int | None,
        update_key: str | None = None,
        kind: str = "deal",
    ) -> Event:
        """Open deal ``deal_no`` of the table's match with its first event (``kind``: the
        deal, or a scorekeeper's entry).

        ConflictError if that deal number exists already. ``update_key`` names the Telegram
        update that caused it, recorded in the same transaction: AlreadyApplied (and nothing
        written) if that update was recorded before.
        """

    @abc.abstractmethod
    async def append_event(
        self,
        table_id: int,
        deal_no: int,
        seq: int,
        kind: str,
        payload: Mapping[str, Any],
        player_id: int | None,
    ) -> Event:
        """Append one event; ConflictError if (table, deal, seq) is taken. Never overwrites."""

    @abc.abstractmethod
    async def events(self, table_id: int, deal_no: int) -> list[Event]: ...

    @abc.abstractmethod
    async def finish_deal(self, table_id: int, deal_no: int, result: Mapping[str, Any]) -> None:
        """Keep the deal's result for the match (a cache of what its events say)."""

    @abc.abstractmethod
    async def deals(self, match_id: int) -> list[DealSummary]: ...

    # --- matches and the ledger ---------------------------------------------------------------

    @abc.abstractmethod
    async def start_match(self, table_id: int, seats: Mapping[int, int]) -> MatchRecord:
        """A new match at the table, of its game with its options as they stand now."""

    @abc.abstractmethod
    async def get_match(self, match_id: int) -> MatchRecord: ...

    @abc.abstractmethod
    async def finish_match(
        self,
        match_id: int,
        result: Mapping[str, Any],
        entries: Mapping[int, int],
        seats: Mapping[int, int],
        unfinished: bool = False,
        *,
        unit: str,
    ) -> None:
        """Close the match and write one ledger row per player in ``unit``, in one transaction.

        UnbalancedLedger (and nothing written) if ``entries`` do not sum to zero; ConflictError
        if the match was finished already.
        """

    @abc.abstractmethod
    async def matches(self, chat_id: int, limit: int = 20) -> list[MatchRecord]:
        """The chat's finished matches, newest first."""

    @abc.abstractmethod
    async def record_payment(
        self,
        chat_id: int,
        payer_id: int,
        payee_id: int,
        points: int,
        note: str = "",
        expected_size: int | None = None,
        *,
        unit: str,
    ) -> None:
        """A payment settles debt: payer's balance rises, payee's falls, by ``points`` of
        ``unit``.

        With ``expected_size``, ConflictError (and nothing written) unless the chat's ledger
        still has that many rows: a second press of the same "paid" button records nothing."""

    @abc.abstractmethod
    async def merge_accounts(self, chat_id: int, from_id: int, to_id: int, note: str) -> None:
        """One person's two accounts made one: ``from_id``'s balance in every unit moves to
        ``to_id`` in one transaction of balanced rows (each unit's pair sums to zero), so that
        ``from_id`` is square and the ledger's history stays as it was written."""

    @abc.abstractmethod
    async def ledger(self, chat_id: int) -> list[LedgerRow]: ...

    @abc.abstractmethod
    async def balances(self, chat_id: int, unit: str) -> dict[int, int]:
        """player id -> balance in ``unit``, over the chat's ledger rows in that unit."""

    @abc.abstractmethod
    async def accounts(self, chat_id: int) -> dict[str, dict[int, int]]:
        """unit -> player id -> balance, for every unit the chat's ledger has rows in (practice
        aside: it is not an account)."""

    @abc.abstractmethod
    async def ledger_size(self, chat_id: int) -> int:
        """How many ledger rows the chat has: a version number for buttons built from it."""

    @abc.abstractmethod
    async def match_counts(self, chat_id: int) -> dict[int, int]:
        """player id -> number of finished matches played in the chat."""

    # --- deals' reviews (#32): derived from the logs, each deal once --------------------------

    @abc.abstractmethod
    async def unreviewed(
        self, after: tuple[int, int] = (0, 0), limit: int = 50, table_id: int | None = None
    ) -> list[DealSummary]:
        """Finished deals with no review yet, in (table, deal) order after ``after`` (of one
        table, if given): a page of the work left."""

    @abc.abstractmethod
    async def record_review(
        self,
        table_id: int,
        deal_no: int,
        chat_id: int,
        game: str,
        day: str,
        review: Mapping[str, Any],
        players: Sequence[PlayerDeal],
    ) -> None:
        """A deal's review and its players' counts, in one transaction. A deal reviewed
        before (by a racing process) keeps its first review; this one is dropped."""

    @abc.abstractmethod
    async def review_of(self, table_id: int, deal_no: int) -> Mapping[str, Any] | None:
        """A deal's review as recorded (None: not reviewed yet)."""

    @abc.abstractmethod
    async def player_deals(
        self, chat_id: int | None = None, player_id: int | None = None, since: str = ""
    ) -> list[PlayerDeal]:
        """The players' counts of the deals reviewed: in a group, or of a player anywhere, or
        both; from the day ``since`` on (ISO date; "" for all time)."""


def check_balanced(entries: Mapping[int, int] | Sequence[int]) -> None:
    values = entries.values() if isinstance(entries, Mapping) else entries
    if sum(values) != 0:
        raise UnbalancedLedger(f"rows sum to {sum(values)}, not zero")
