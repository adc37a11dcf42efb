"""What a table shows for one change, as values: a game's UI describes its table message, its
players' screens, its posts and pictures on a ``Drawing``, and the presenter alone writes them
to the outbox (``Presenter.write``). A UI holds no outbox, so the presenter is the one writer
of table messages and their keys; a drawing written nowhere has shown nothing.

Kept messages are named by a key per table (``table:<deal>``, a seat's screen, a vote): the
outbox edits the one message under it, or posts it when it is new. A seat's screen goes where
``bot.places`` says: the player's private chat, an ephemeral message in the group that they
alone see, or both."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import InputFile

from bot.callback_data import Act, Button
from bot.i18n import Translator, translator
from bot.places import Places, screen_key
from bot.rendered import TABLE, URGENT, WAITING, Content, Key, Rendered
from bot.tables import Holder, Snapshot


@dataclass(frozen=True, slots=True)
class Kept:
    """Kept message ``key`` shows ``content`` (posted if new). ``only_shown``: edit it only if
    this process shows it already (a correction; never posted anew)."""

    table_id: int
    key: str
    chat_id: int
    thread_id: int | None
    content: Content
    priority: int = TABLE
    only_shown: bool = False
    receiver: int | None = None  # an ephemeral message in the group, for this member alone
    may_post: bool = True  # (ephemeral) posted unasked: the bot is a group administrator


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

    def __init__(
        self,
        bot_username: str,
        showing: Callable[[int, str], bool],
        places: Places | None = None,
    ) -> None:
        self.bot_username = bot_username
        self.shown: list[Shown] = []
        self._showing = showing
        self.places = places if places is not None else Places()

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
        content: Content,
        priority: int = TABLE,
    ) -> None:
        self.shown.append(Kept(table_id, key, chat_id, thread_id, content, priority))

    def update(
        self, table_id: int, key: str, chat_id: int, thread_id: int | None, content: Content
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

    def deal_table(
        self, snap: Snapshot, deal_no: int, key: str, render: Callable[[], Rendered], live: bool
    ) -> None:
        """A deal's table message in the group; while the deal is ``live`` and the table's
        screens are in the group, with "🂠 My cards": a press (re)opens the presser's screen
        there (the only way a bot that is no administrator may, and how a screen that
        vanished from someone's app comes back).

        Drawn when it is sent: the group's pace lets several presses replace it meanwhile (the
        view is pure, the snapshot frozen), and most of a busy table's drawings were never
        shown."""
        content: Callable[[], Rendered] = render
        if live and deal_no == snap.deal_no and self.places.in_group(snap):
            label = group_translator(snap)("button.my_cards")
            data = Button(snap.table_id, deal_no, Act.CARDS).encode()

            def content() -> Rendered:
                drawn = render()
                return Rendered(drawn.text, (*drawn.keys, (Key(label, data),)))

        self.want(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, content)

    def private(
        self,
        snap: Snapshot,
        seat: int,
        key: str,
        render: Callable[[Translator], Rendered],
        urgent: bool = False,
        deal_no: int | None = None,
    ) -> None:
        """A seat's screen, in its holder's language, for a holder the bot may write to (not a
        guest, not one who blocked it: play waits for them), where ``bot.places`` puts it:
        their private chat under ``key``, and/or (for the deal under way, ``deal_no``) an
        ephemeral message in the group, one per player, that follows them from deal to deal.
        ``urgent``: the screen asks its player to act (their prompt goes first)."""
        holder = snap.seats.get(seat)
        if holder is None or holder.tg_user_id is None or seat in snap.paused:
            return
        user = holder.tg_user_id
        t = private_translator(snap, holder)
        priority = URGENT if urgent else WAITING
        place = self.places.of(snap, holder)
        current = deal_no is None or deal_no == snap.deal_no
        # A waiting player's screen in their private chat alone is drawn only if it is sent
        # (its pace lets the others' play replace it meanwhile): the view is pure, the
        # snapshot frozen. Any other screen is drawn once, here, for every place it goes.
        now = render(t) if urgent or place.group else None
        if place.private:
            moves = current and not place.group and self.places.in_group(snap)

            def drawn() -> Rendered:
                content = render(t) if now is None else now
                if moves:
                    return _with_key(content, t("button.hands_group"), snap, "g")
                return content

            self.want(snap.table_id, key, user, None, drawn if now is None else drawn(), priority)
        if place.group and current:
            assert now is not None  # drawn above: a screen in the group is drawn at once
            shown = _with_key(now, t("button.hands_private"), snap, "p")
            if place.may_post and self.places.first_sight(snap, user, snap.deal_no):
                self.renew(snap.table_id, screen_key(user))  # a new deal: at the bottom
            self.shown.append(
                Kept(
                    snap.table_id,
                    screen_key(user),
                    snap.chat.tg_chat_id,
                    snap.topic_id,
                    shown,
                    priority,
                    receiver=user,
                    may_post=place.may_post,
                )
            )

    def notify(self, snap: Snapshot, seat: int, key: str) -> None:
        """The seat's screen goes out as a new message next time (a notification): its private
        one, and its ephemeral one where the bot may post it."""
        self.renew(snap.table_id, key)
        holder = snap.seats.get(seat)
        user = holder.tg_user_id if holder is not None else None
        if holder is not None and user is not None and self.places.of(snap, holder).may_post:
            self.renew(snap.table_id, screen_key(user))


def _with_key(content: Rendered, label: str, snap: Snapshot, where: str) -> Rendered:
    """A screen with a last row that moves it: "p" to the private chat, "g" to the group."""
    data = Button(snap.table_id, snap.deal_no, Act.HANDS, where).encode()
    return Rendered(content.text, (*content.keys, (Key(label, data),)))
