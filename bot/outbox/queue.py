"""What the outbox holds: each kept message (its latest wanted content, what was sent, its id),
and each chat's lane (its queue of kept-message edits, which coalesce, and posts, pictures and
plain edits, which keep their order)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from telegram import InputFile

from bot.rendered import TABLE, URGENT, Rendered

KeepId = tuple[int, str]  # (table id, key)


@dataclass
class _Kept:
    """What the outbox knows of one kept message."""

    chat_id: int
    thread_id: int | None
    wanted: Rendered
    later: Callable[[], Rendered] | None = None  # wanted, not drawn yet (``wanted``: older)
    sent: Rendered | None = None
    message_id: int | None = None
    # Storage was asked for its id already, or must not be: ``forget`` means post anew.
    looked_up: bool = False
    stored_digest: str = ""  # what storage says the message showed (after a restart)
    renew: bool = False  # post it anew at the bottom of the chat, deleting the old one
    priority: int = TABLE  # under the overall cap: URGENT (a prompt), TABLE, WAITING
    since: float | None = None  # when the oldest content not yet shown was wanted
    only_edit: bool = False  # a correction (``correcting``): never posted anew
    # An ephemeral message (``bot.outbox.ephemeral``) in the group ``chat_id`` for this member
    # alone; ``may_post``: the bot may send one unasked (it is a group administrator).
    receiver: int | None = None
    may_post: bool = True

    def changed(self) -> bool:
        """Whether what is wanted may differ from what was sent (undrawn content may)."""
        return self.later is not None or self.sent != self.wanted

    def drawn(self) -> Rendered:
        """The content wanted, drawn now if it was wanted undrawn (a waiting screen)."""
        if self.later is not None:
            later, self.later = self.later, None
            self.wanted = later()
        return self.wanted


@dataclass
class _Keep:
    keep: KeepId


@dataclass
class _Post:
    content: Rendered | asyncio.Task[Rendered]  # one still being made keeps its place
    thread_id: int | None
    at: float = field(default_factory=time.monotonic)
    in_order: bool = False  # passes no kept message queued before it (a deal's last table)


@dataclass
class _Edit:
    """A message the outbox does not keep, shown anew where it is (a group's own settings,
    which belong to no table): edited once, in the chat's order."""

    message_id: int
    content: Rendered


@dataclass
class _File:
    method: str  # "sendPhoto" or "sendDocument"
    field: str  # "photo" or "document"
    file: InputFile | asyncio.Task[InputFile]  # a picture still being drawn keeps its place
    caption: str
    thread_id: int | None


LaneId = tuple[int, bool]  # (chat id, ephemeral): a group's ephemeral messages have a lane


@dataclass
class _Lane:
    """One chat's queue: kept-message edits coalesce, posts keep their order. A group's
    ephemeral lane is paced by a budget of calls a minute instead (``Budget``), the most urgent
    screen first."""

    chat_id: int
    interval: float
    budget: Budget | None = None  # the ephemeral lane's
    queue: deque[_Keep | _Post | _File | _Edit] = field(default_factory=deque)
    pending: set[KeepId] = field(default_factory=set)
    next_at: float = 0.0
    task: asyncio.Task[None] | None = None
    working: bool = False  # sending (not merely waiting out its interval before it is dropped)
    priority: int = URGENT  # of the call being made
    paid: bool = False  # the gate was passed for the next call already
    outage: float = 0.0  # the pause after the last unanswered call (0: none)
    throttled: list[float] = field(default_factory=list)  # when Telegram said 429 lately
    live_at: float = 0.0  # when a waiting player's screen was last edited here
    wake: asyncio.Future[None] | None = None  # settled by new work while a screen waits

    @property
    def id(self) -> LaneId:
        return self.chat_id, self.budget is not None


@dataclass
class Budget:
    """A group's ephemeral calls: ``per_minute`` on average, up to ``burst`` at once, the last
    ``reserve`` of them kept for prompts (a waiting player's screen waits for more)."""

    per_minute: float
    burst: float = 4.0
    reserve: float = 1.0
    tokens: float = field(init=False)  # calls it may make now: a full burst to begin with
    at: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def wait(self, urgent: bool) -> float:
        """Seconds until a call of this urgency may go (0: now)."""
        now = time.monotonic()
        rate = self.per_minute / 60
        self.tokens = min(self.burst, self.tokens + (now - self.at) * rate)
        self.at = now
        need = 1.0 if urgent else 1.0 + self.reserve
        return 0.0 if self.tokens >= need else (need - self.tokens) / rate

    def spend(self) -> None:
        self.tokens -= 1.0

    def full(self) -> bool:
        """Whether it has refilled to its burst (nothing spent is remembered any more)."""
        self.wait(True)
        return self.tokens >= self.burst
