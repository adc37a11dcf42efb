"""The scorekeepers in the chat, every game's alike: the players named after the opening
command, the sheet's message (one per number of entries), and the handlers themselves
(``KeeperHandlers``): the opening command and its "end", /deal and /undo typed, the sheet's
buttons. A game's keeper module says only what differs: how its entries are read and shown,
who it seats, what its wizard's buttons mean. The sheets themselves are ``bot.keeping.sheets``."""

from __future__ import annotations

import abc
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Generic

from telegram import MessageEntity, Update
from telegram.ext import BaseHandler, CallbackQueryHandler, CommandHandler, filters

from bot.callback_data import BadCallbackData, Button, route
from bot.context import BotContext
from bot.handlers.common import (
    acting_player,
    chat_translator,
    first_language,
    is_member,
    on_button,
    refusal_message,
    refusal_text,
    thread_of,
    update_key,
    user_translator,
)
from bot.i18n import Translator, translator
from bot.keeping.sheets import E, M, Sheet, SheetKeeper
from bot.rendered import Key, Rendered
from bot.tables import ROBOT, Refusal
from bot.views.text import plain_text, user_text
from games.errors import RuleError
from storage.interface import (
    AlreadyApplied,
    Chat,
    NotFound,
    Player,
    Storage,
    Table,
)

log = logging.getLogger(__name__)


def command_words(update: Update) -> tuple[list[str], dict[str, Any]]:
    """The words after the command (comma-separated if there are commas) and the Telegram users
    picked from the mention list among them."""
    message = update.effective_message
    assert message is not None
    text = message.text or ""
    command_end = text.find(" ")
    body = text[command_end + 1 :] if command_end >= 0 else ""
    picked = {
        entity_text: entity.user
        for entity, entity_text in message.parse_entities([MessageEntity.TEXT_MENTION]).items()
        if entity.user is not None
    }
    words = [w.strip() for w in (body.split(",") if "," in body else body.split())]
    return [w for w in words if w], picked


async def group_people(context: BotContext, chat_id: int) -> list[Player]:
    """The people this group has played with: everyone in its ledger and at its tables (in
    every forum topic, and its open sheets)."""
    ids = {row.player_id for row in await context.storage.ledger(chat_id)}
    for table in await context.storage.tables_in_chat(chat_id):
        ids |= set(table.seats.values())
    return [await context.storage.get_player(pid) for pid in sorted(ids)]


def same_person(word: str, people: Sequence[Player]) -> list[Player]:
    """Those of ``people`` a plain name means: their whole name, or its first word, either
    case; a person with Telegram before a guest of the same name.

    >>> anna = Player(1, 10, "Аня Петрова", "ru"); guest = Player(2, None, "Аня", "ru", 5)
    >>> [p.id for p in same_person("аня", [guest, anna])]
    [1]
    >>> [p.id for p in same_person("Боря", [guest, anna])]
    []
    """
    key = word.strip().casefold()
    found = [
        p for p in people if key in (p.name.strip().casefold(), *p.name.casefold().split()[:1])
    ]
    members = [p for p in found if p.tg_user_id is not None]
    return members or found


GUEST = "guest"  # the answer "someone else: a new guest of that name"


class Ambiguous(Refusal):
    """A plain name more than one of the group's people answer to: asked with buttons."""

    def __init__(self, word: str, candidates: Sequence[Player]) -> None:
        choices = ", ".join(user_text(p.name) for p in candidates)
        super().__init__("keeper_ambiguous", name=word, choices=choices)
        self.word = word
        self.candidates = tuple(candidates)


@dataclasses.dataclass
class Pending:
    """A sheet's opening command waiting for its typist to say who a name meant."""

    chat_id: int
    tg_chat_id: int
    thread: int | None
    user_id: int  # Telegram id of who typed it: only they answer
    words: list[str]
    picked: dict[str, Any]  # word -> Player (named by a mention, or answered) or GUEST
    word: str
    candidates: tuple[Player, ...]


PENDING_KEPT = 200  # questions remembered at once (in memory: after a restart, typed again)


async def named_players(
    context: BotContext,
    names: Sequence[str],
    picked: Mapping[str, Any],
    known: Callable[[str], Awaitable[Player | None]],
    guest: Callable[[str], Awaitable[Player]],
    chat_id: int | None = None,
) -> list[Player]:
    """Each name as a player: a Telegram user picked from the mention list, @username of
    someone the bot has seen, a plain name that is one of the group's people (so that one
    person keeps one account: ``/prefkeep Аня Боря Вика`` where Аня plays online too), or
    else a guest without Telegram. A name two of the group's people answer to raises
    ``Ambiguous``: the one who typed it is asked which (``picked`` then holds the answer:
    the ``Player``, or ``GUEST`` for a new guest of that name)."""
    people = await group_people(context, chat_id) if chat_id is not None else []
    players = []
    for word in names:
        named = picked.get(word)
        if isinstance(named, Player):
            players.append(named)  # asked and answered (``Ambiguous``)
        elif named == GUEST:
            players.append(await guest(word[:40]))
        elif named is not None:  # a Telegram user picked from the mention list
            players.append(
                await context.service.player(
                    named.id, named.full_name, named.language_code or "", named.username
                )
            )
        elif word.startswith("@"):
            found = await known(word[1:])
            if found is None:
                raise Refusal("keeper_unknown_user", name=word)
            players.append(found)
        else:
            meant = same_person(word, people)
            if len(meant) > 1:
                raise Ambiguous(word, meant)
            players.append(meant[0] if meant else await guest(word[:40]))
        if await context.storage.player_flag(players[-1].id, ROBOT):
            # A robot plays online only: on a sheet for real cards it would get an account.
            raise Refusal("keeper_robot", name=word)
    return players


NOTES_KEPT = 1000  # sheet messages whose ✅ line is remembered (a few per open sheet)


def _notes(context: BotContext) -> dict[tuple[int, int], str]:
    """The ✅ line each sheet message was shown with, by (table, entries): its own for good."""
    notes: dict[tuple[int, int], str] = context.bot_data.setdefault("keeper.notes", {})
    while len(notes) > NOTES_KEPT:
        del notes[next(iter(notes))]
    return notes


def show_sheet(
    context: BotContext, table: Table, tg_chat_id: int, count: int, content: Rendered
) -> None:
    """The sheet's message for this number of entries (a new one after each entry)."""
    context.outbox.want(table.id, f"keeper:{count}", tg_chat_id, table.topic_id, content)


def close_sheet(
    context: BotContext, table: Table, tg_chat_id: int, count: int, content: Rendered
) -> None:
    """An earlier sheet message keeps its text but loses its buttons."""
    show_sheet(context, table, tg_chat_id, count, Rendered(content.text))


async def typed_entry(
    update: Update,
    context: BotContext,
    write: Callable[[Player, str | None], Awaitable[None]],
) -> None:
    """A typed /deal or /undo: ``write`` enters it for the player who typed it. Telegram
    delivers an update again if the bot died before confirming it: the entry and the update's
    key are written in one transaction, so a second delivery writes nothing. A refusal is
    answered in the group."""
    chat = update.effective_chat
    assert chat is not None
    key = update_key(context, update)
    try:
        await write(await acting_player(update, context), key)
    except AlreadyApplied:
        log.info("update %s was applied before it was delivered again; skipped", key)
    except (Refusal, RuleError) as error:
        t = await chat_translator(update, context)
        context.outbox.post(chat.id, thread_of(update), refusal_message(error, t))


END_WORDS = ("end", "stop", "конец", "стоп")


class KeeperHandlers(abc.ABC, Generic[M, E]):
    """A game's scorekeeper in the chat: ``/<command> <players>`` opens a sheet,
    ``/<command> end`` stops it, /deal and /undo write on it, its buttons run its wizard.
    Anyone in the group may write on the sheet, as anyone at a real table may write on the
    paper; a passer-by in a public group may not. ``M``: the game's match a sheet keeps,
    ``E``: its entries."""

    game: str
    command: str  # the opening command, "keep"
    buttons: frozenset[str]  # the sheet's button kinds (wizard, undo, ...)
    undo_button: str  # the kind of its "take the last entry back" button
    who_button: str  # the kind of the buttons that say who an ambiguous name meant

    @abc.abstractmethod
    def new_keeper(self, storage: Storage) -> SheetKeeper[M, E]: ...

    @abc.abstractmethod
    def render(self, sheet: Sheet[M], arg: str, t: Translator, note: str) -> Rendered:
        """The sheet's message (``arg``: the wizard's stage so far)."""

    @abc.abstractmethod
    def parse(self, text: str) -> E:
        """A typed /deal (a RuleError with a reason if it does not read)."""

    @abc.abstractmethod
    async def players(
        self, words: list[str], picked: Mapping[str, Any], context: BotContext, chat_id: int
    ) -> tuple[list[Player], dict[str, Any]]:
        """The players named after the command (see ``named_players``), in seat order, and
        the options typed among them."""

    @abc.abstractmethod
    async def wizard(
        self, context: BotContext, sheet: Sheet[M], pressed: Button, player: Player
    ) -> None:
        """A press of the wizard under the sheet (not its undo)."""

    def entry_text(self, entry: E, sheet: Sheet[M], t: Translator) -> str:
        """An entry as the sheet's note echoes it (its notation unless the game words it)."""
        return entry.code()

    async def finished(self, context: BotContext, sheet: Sheet[M], note: str) -> None:
        """The sheet was closed (its last entry, or "end"): shown as it ended."""
        self.show(context, sheet, note=note)

    async def free_button(self, context: BotContext, sheet: Sheet[M], pressed: Button) -> bool:
        """A button anyone may press (bridge: the picture); True if it was one."""
        return False

    # --- shared -------------------------------------------------------------------------------

    def keeper(self, context: BotContext) -> SheetKeeper[M, E]:
        found: SheetKeeper[M, E] | None = context.bot_data.get(f"{self.game}.keeper")
        if found is None:  # made on first use: the bot's core knows nothing of it
            found = context.bot_data[f"{self.game}.keeper"] = self.new_keeper(context.storage)
        return found

    @staticmethod
    def t(sheet: Sheet[Any]) -> Translator:
        return translator(sheet.table.settings.language)

    def show(self, context: BotContext, sheet: Sheet[M], arg: str = "", note: str = "") -> None:
        """The sheet's message for this number of entries (a new one after each entry)."""
        content = self.render(sheet, arg, self.t(sheet), note)
        _notes(context)[(sheet.table.id, sheet.count)] = note
        show_sheet(context, sheet.table, sheet.chat.tg_chat_id, sheet.count, content)

    def close_old(self, context: BotContext, before: Sheet[M]) -> None:
        """The previous wizard message keeps its sheet, and the ✅ line it was shown with
        (what was entered to make it, not what was entered from it), but loses its buttons.
        After a restart that line is not known any more: the message keeps its sheet only."""
        note = _notes(context).pop((before.table.id, before.count), "")
        content = self.render(before, "", self.t(before), note)
        close_sheet(context, before.table, before.chat.tg_chat_id, before.count, content)

    async def save(
        self,
        context: BotContext,
        table_id: int,
        expected: int,
        entry: E,
        player: Player,
        key: str | None = None,
    ) -> None:
        before, sheet = await self.keeper(context).enter(table_id, expected, entry, player.id, key)
        t = self.t(sheet)
        said = self.entry_text(entry, sheet, t)
        summary = t("keeper.entered", entry=said, name=user_text(player.name))
        self.close_old(context, before)
        if sheet.finished is not None:
            await self.finished(context, sheet, summary)
        else:
            self.show(context, sheet, note=summary)

    async def undo(
        self,
        context: BotContext,
        table_id: int,
        expected: int,
        player: Player,
        key: str | None = None,
    ) -> None:
        before, sheet = await self.keeper(context).undo(table_id, expected, player.id, key)
        note = self.t(sheet)("keeper.undone", name=user_text(player.name))
        self.close_old(context, before)
        self.show(context, sheet, note=note)

    async def typed(
        self, update: Update, context: BotContext, table_id: int, count: int, undo: bool
    ) -> None:
        """/deal <entry> or /undo at this group's open sheet of the game (the command found
        it; ``count`` is the number of entries it saw)."""

        async def write(player: Player, key: str | None) -> None:
            if undo:
                await self.undo(context, table_id, count, player, key)
            else:
                entry = self.parse(" ".join(context.args or []))
                await self.save(context, table_id, count, entry, player, key)

        await typed_entry(update, context, write)

    async def open_command(self, update: Update, context: BotContext) -> None:
        """``/<command> <players>`` opens a sheet; ``/<command> end`` stops the open one."""
        chat = update.effective_chat
        assert chat is not None
        t = await chat_translator(update, context)
        thread = thread_of(update)
        keeper = self.keeper(context)
        record = await keeper.chat(chat.id, chat.title or "", first_language(update, context))
        try:
            if context.args and context.args[0].lower() in END_WORDS:
                table = await keeper.open_sheet(record.id, thread)
                if table is None:
                    raise Refusal("keeper_none", game=self.game)
                if table.game != self.game:  # another game's sheet: its own command ends it
                    plugins = context.plugins
                    other = plugins[table.game].keeper if table.game in plugins else None
                    end = t("keeper.end_word")  # "конец" / "end": one word in each language
                    command = f"/{other.command} {end}" if other is not None else "/end"
                    raise Refusal("keeper_other_game", command=command)
                await self.finished(context, await keeper.end(table.id), "")
                return
            words, picked = command_words(update)
            user = update.effective_user
            assert user is not None
            await self._open(context, record, thread, words, picked, user.id)
        except (Refusal, RuleError) as error:
            context.outbox.post(chat.id, thread, refusal_message(error, t))

    async def _open(
        self,
        context: BotContext,
        record: Chat,
        thread: int | None,
        words: list[str],
        picked: Mapping[str, Any],
        user_id: int,
    ) -> None:
        """Open the sheet the words name; a name that is ambiguous is asked about first."""
        keeper = self.keeper(context)
        try:
            players, options = await self.players(words, picked, context, record.id)
        except Ambiguous as asked:
            question = Pending(
                record.id,
                record.tg_chat_id,
                thread,
                user_id,
                words,
                dict(picked),
                asked.word,
                asked.candidates,
            )
            self._ask(context, question, record.language)
            return
        settings = await keeper.table_settings(record, thread)
        if options:
            settings = dataclasses.replace(settings, options={**settings.options, **options})
        self.show(context, await keeper.start(record, thread, players, settings))

    def _ask(self, context: BotContext, question: Pending, language: str) -> None:
        """Who did the typist mean? One button per person the name fits, and one for a new
        guest of that name. The command waits in memory for the answer."""
        pending: dict[int, Pending] = context.bot_data.setdefault("keeper.pending", {})
        while len(pending) >= PENDING_KEPT:
            del pending[next(iter(pending))]
        token = context.bot_data["keeper.asked"] = context.bot_data.get("keeper.asked", 0) + 1
        pending[token] = question
        t = translator(language)

        def key(label: str, choice: str) -> Key:
            return Key(label, Button(0, 0, self.who_button, f"{token}.{choice}").encode())

        labels = _labels(question.candidates, t("ledger.guest"))
        keys = [(key(plain_text(labels[p.id]), str(p.id)),) for p in question.candidates]
        keys.append((key(t("keeper.who_guest", name=plain_text(question.word)), GUEST),))
        text = t("keeper.who", name=user_text(question.word))
        context.outbox.post(question.tg_chat_id, question.thread, Rendered(text, tuple(keys)))

    async def who(
        self, update: Update, context: BotContext, pressed: Button, t: Translator
    ) -> None:
        """The answer to ``_ask``: the command is opened again with the name settled."""
        query, user = update.callback_query, update.effective_user
        assert query is not None and user is not None
        token, _, choice = pressed.arg.partition(".")
        pending: dict[int, Pending] = context.bot_data.get("keeper.pending", {})
        asked = pending.get(int(token)) if token.isdecimal() else None
        message = query.message
        if asked is None or message is None or message.chat.id != asked.tg_chat_id:
            raise Refusal("stale")
        if user.id != asked.user_id:
            raise Refusal("keeper_not_asked")
        meant: Any = GUEST
        if choice != GUEST:
            meant = next((p for p in asked.candidates if str(p.id) == choice), None)
            if meant is None:
                raise BadCallbackData(query.data)
        del pending[int(token)]
        record = await context.storage.get_chat(asked.chat_id)
        await query.answer()
        chat_t = translator(record.language)
        labels = _labels(asked.candidates, chat_t("ledger.guest"))
        answered = (
            user_text(labels[meant.id])
            if isinstance(meant, Player)
            else chat_t("keeper.who_guest", name=user_text(asked.word))
        )
        context.outbox.post(
            asked.tg_chat_id,
            asked.thread,
            Rendered(chat_t("keeper.who_answered", name=user_text(asked.word), who=answered)),
        )
        picked = {**asked.picked, asked.word: meant}
        try:
            await self._open(context, record, asked.thread, asked.words, picked, user.id)
        except (Refusal, RuleError) as error:
            context.outbox.post(asked.tg_chat_id, asked.thread, refusal_message(error, chat_t))

    async def button(self, update: Update, context: BotContext) -> None:
        query = update.callback_query
        assert query is not None
        t = user_translator(update.effective_user, context.config.language)
        keeper = self.keeper(context)
        try:
            pressed = Button.decode(query.data)
            try:
                sheet = await keeper.sheet(pressed.table_id)
            except NotFound:
                raise BadCallbackData(query.data) from None
            message = query.message
            if (
                message is None
                or not sheet.table.scorekeeper
                or message.chat.id != sheet.chat.tg_chat_id
            ):
                raise BadCallbackData(query.data)
            if await self.free_button(context, sheet, pressed):
                await query.answer()
                return
            # Anyone in the group may write on the sheet, as at a real table; in a public
            # group a passer-by can press buttons too, and may not.
            if not await is_member(context, sheet.chat.tg_chat_id, query.from_user.id):
                raise Refusal("not_member_keeper")
            player = await acting_player(update, context)
            if pressed.act == self.undo_button:
                await self.undo(context, sheet.table.id, pressed.deal_no, player)
            else:
                await self.wizard(context, sheet, pressed, player)
        except (Refusal, ValueError) as error:
            if isinstance(error, ValueError) and not isinstance(error, RuleError | BadCallbackData):
                error = BadCallbackData(query.data)  # wizard data no wizard of ours made
            await query.answer(refusal_text(error, t), show_alert=True)
            return
        await query.answer()

    def handlers(self) -> list[BaseHandler[Update, BotContext, None]]:
        return [
            CommandHandler(self.command, self.open_command, filters=filters.ChatType.GROUPS),
            CallbackQueryHandler(on_button(self.who), pattern=route(self.who_button)),
            CallbackQueryHandler(self.button, pattern=route(*(self.buttons - {self.who_button}))),
        ]


def _labels(people: Sequence[Player], guest: str) -> dict[int, str]:
    """People as a question tells them apart: the name, a guest marked as one, and the
    account's number where two would still read the same."""
    labels = {p.id: p.name + ("" if p.tg_user_id is not None else f" {guest}") for p in people}
    seen = [label for label in labels.values()]
    return {
        pid: label if seen.count(label) == 1 else f"{label} #{pid}" for pid, label in labels.items()
    }
