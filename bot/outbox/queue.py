"""What the outbox holds: each kept message (its latest wanted content, what was sent, its id),
and each chat's lane (its queue of kept-message edits, which coalesce, and posts, pictures and
plain edits, which keep their order)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
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
    sent: Rendered | None = None
    message_id: int | None = None
    # Storage was asked for its id already, or must not be: ``forget`` means post anew.
    looked_up: bool = False
    stored_digest: str = ""  # what storage says the message showed (after a restart)
    renew: bool = False  # post it anew at the bottom of the chat, deleting the old one
    priority: int = TABLE  # under the overall cap: URGENT (a prompt), TABLE, WAITING
    since: float | None = None  # when the oldest content not yet shown was wanted
    only_edit: bool = False  # a correction (``correcting``): never posted anew


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


@dataclass
class _Lane:
    """One chat's queue: kept-message edits coalesce, posts keep their order."""

    chat_id: int
    interval: float
    queue: deque[_Keep | _Post | _File | _Edit] = field(default_factory=deque)
    pending: set[KeepId] = field(default_factory=set)
    next_at: float = 0.0
    task: asyncio.Task[None] | None = None
    working: bool = False  # sending (not merely waiting out its interval before it is dropped)
    priority: int = URGENT  # of the call being made
    paid: bool = False  # the gate was passed for the next call already
    outage: float = 0.0  # the pause after the last unanswered call (0: none)
