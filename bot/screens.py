"""What a table shows for one change, as values: a game's UI describes its table message, its
players' screens, its posts and pictures on a ``Drawing``, and the presenter alone writes them
to the outbox (``Presenter.write``). A UI holds no outbox, so the presenter is the one writer
of table messages and their keys; a drawing written nowhere has shown nothing.

Kept messages are named by a key per table (``table:<deal>``, a seat's screen, a vote): the
outbox edits the one message under it, or posts it when it is new."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import InputFile

from bot.i18n import Translator, translator
from bot.rendered import TABLE, URGENT, WAITING, Rendered
from bot.tables import Holder, Snapshot


@dataclass(frozen=True, slots=True)
class Kept:
    """Kept message ``key`` shows ``content`` (posted if new). ``only_shown``: edit it only if
    this process shows it already (a correction; never posted anew)."""

    table_id: int
    key: str
    chat_id: int
    thread_id: int | None
    content: Rendered
    priority: int = TABLE
    only_shown: bool = False


@dataclass(frozen=True, slots=True)
class Posted:
    """A new message (``in_order``: after the edits queued before it, as a deal's result)."""

    chat_id: int
    thread_id: int | None
    content: Rendered | Coroutine[Any, Any, Rendered]
    in_order: bool = False


@dataclass(frozen=True, slots=True)
class Filed:
    """A picture or a document (``method``/``field``: ``sendPhoto``/``photo``, …)."""

    chat_id: int
    thread_id: int | None
    method: str
    field: str
    file: InputFile | Coroutine[Any, Any, InputFile]
    caption: str = ""


@dataclass(frozen=True, slots=True)
class Renewed:
    """Kept message ``key`` goes out as a new message next time (a notification), the old one
    deleted; ``scrolled``: it is simply posted anew (the old one scrolled away)."""

    table_id: int
    key: str
    scrolled: bool = False


Shown = Kept | Posted | Filed | Renewed


class FilePoster(Protocol):
    """Whatever sends a picture: the outbox (a handler's own) or a drawing (a table's)."""

    def post_file(
        self,
        chat_id: int,
        thread_id: int | None,
        method: str,
        field: str,
        file: InputFile | Coroutine[Any, Any, InputFile],
        caption: str = "",
    ) -> None: ...


def group_translator(snap: Snapshot) -> Translator:
    """The group's language, for what the table shows there."""
    return translator(snap.settings.language)


def private_translator(snap: Snapshot, holder: Holder) -> Translator:
    """A holder's own language, else their table's, for their private screen."""
    return translator(holder.language, snap.settings.language)


class Drawing:
    """One change's screens, collected in order (``shown``). ``showing`` answers whether this
    process shows a kept message already (a vote's message is edited, not posted again)."""

    def __init__(self, bot_username: str, showing: Callable[[int, str], bool]) -> None:
        self.bot_username = bot_username
        self.shown: list[Shown] = []
        self._showing = showing

    group_translator = staticmethod(group_translator)
    private_translator = staticmethod(private_translator)

    def showing(self, table_id: int, key: str) -> bool:
        """Whether the kept message ``key`` is shown, or about to be by this drawing."""
        drawn = any(
            isinstance(s, Kept) and (s.table_id, s.key) == (table_id, key) and not s.only_shown
            for s in self.shown
        )
        return drawn or self._showing(table_id, key)

    def want(
        self,
        table_id: int,
        key: str,
        chat_id: int,
        thread_id: int | None,
        content: Rendered,
        priority: int = TABLE,
    ) -> None:
        self.shown.append(Kept(table_id, key, chat_id, thread_id, content, priority))

    def update(
        self, table_id: int, key: str, chat_id: int, thread_id: int | None, content: Rendered
    ) -> None:
        self.shown.append(Kept(table_id, key, chat_id, thread_id, content, only_shown=True))

    def post(
        self,
        chat_id: int,
        thread_id: int | None,
        content: Rendered | Coroutine[Any, Any, Rendered],
        in_order: bool = False,
    ) -> None:
        self.shown.append(Posted(chat_id, thread_id, content, in_order))

    def post_file(
        self,
        chat_id: int,
        thread_id: int | None,
        method: str,
        field: str,
        file: InputFile | Coroutine[Any, Any, InputFile],
        caption: str = "",
    ) -> None:
        self.shown.append(Filed(chat_id, thread_id, method, field, file, caption))

    def renew(self, table_id: int, key: str) -> None:
        self.shown.append(Renewed(table_id, key))

    def forget(self, table_id: int, key: str) -> None:
        self.shown.append(Renewed(table_id, key, scrolled=True))

    def private(
        self,
        snap: Snapshot,
        seat: int,
        key: str,
        render: Callable[[Translator], Rendered],
        urgent: bool = False,
    ) -> None:
        """A seat's private screen, in its holder's language, for a holder the bot may write
        to (not a guest, not one who blocked it: play waits for them). ``urgent``: the screen
        asks its player to act (their prompt goes first under the overall cap)."""
        holder = snap.seats.get(seat)
        if holder is None or holder.tg_user_id is None or seat in snap.paused:
            return
        content = render(private_translator(snap, holder))
        priority = URGENT if urgent else WAITING
        self.want(snap.table_id, key, holder.tg_user_id, None, content, priority)
