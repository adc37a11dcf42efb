"""What every game's scorekeeper shares: an entry log (each entered result is a deal of its own
whose one event says what was entered; an undo is another such deal, never an erasure), the
players named after the opening command, and the sheet's message, one per number of entries."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from telegram import MessageEntity, Update

from bot.handlers.common import (
    acting_player,
    chat_translator,
    refusal_message,
    thread_of,
    update_key,
)
from bot.service import ROBOT, Refusal
from bot.views import Rendered
from games.errors import RuleError
from storage.interface import (
    AlreadyApplied,
    Chat,
    ConflictError,
    Player,
    Storage,
    Table,
    TableSettings,
    TableStatus,
)

if TYPE_CHECKING:
    from bot.context import BotContext

log = logging.getLogger(__name__)

ENTRY, ENTRY_UNDO = "entry", "entry_undo"


class EntryLog:
    """A scoresheet's entries in storage."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def results(self, table: Table) -> list[Mapping[str, Any]]:
        """Every entry's result in order (``{"undo": True}`` for an undo), completing one whose
        process was killed between its two writes: the event says it all."""
        if table.match_id is None:
            return []
        found = []
        for summary in await self.storage.deals(table.match_id):
            result = summary.result
            if result is None:
                events = await self.storage.events(table.id, summary.deal_no)
                result = dict(events[0].payload) if events else {"undo": True}
                await self.storage.finish_deal(table.id, summary.deal_no, result)
            found.append(result)
        return found

    @staticmethod
    def check_open(table: Table, count: int, expected: int) -> None:
        """Refusal unless the sheet is open and has the ``expected`` number of entries (what the
        button or command saw: a double tap or a stale wizard writes nothing)."""
        if table.status is not TableStatus.PLAYING or table.match_id is None:
            raise Refusal("keeper_closed")
        if expected != count:
            raise Refusal("stale")

    async def write(
        self,
        table_id: int,
        expected: int,
        kind: str,
        payload: Mapping[str, Any],
        player_id: int | None,
        update_key: str | None,
    ) -> None:
        """Entry number ``expected + 1``; Refusal "stale" if another got there first;
        AlreadyApplied if ``update_key`` (a typed command's update) was applied before."""
        number = expected + 1
        try:
            await self.storage.start_deal(
                table_id, number, payload, player_id, update_key, kind=kind
            )
        except ConflictError:
            raise Refusal("stale") from None
        await self.storage.finish_deal(table_id, number, payload)


class SheetKeeper:
    """A game's scorekeeper: what every game's shares (its sheets are tables of ``game`` kept
    for real cards, their entries in an ``EntryLog``)."""

    game = ""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.log = EntryLog(storage)

    async def open_sheet(self, chat_id: int, topic_id: int | None) -> Table | None:
        """The sheet open in this group or topic, of whatever game (one at a time)."""
        return await self.storage.table_in(chat_id, topic_id, scorekeeper=True)

    async def chat(self, tg_chat_id: int, title: str, language: str) -> Chat:
        return await self.storage.ensure_chat(tg_chat_id, title, language)

    async def known(self, username: str) -> Player | None:
        """A Telegram player named by @username, if the bot has met them."""
        return await self.storage.player_by_username(username)

    async def guest(self, chat_id: int, name: str) -> Player:
        """A player without Telegram, by name, reused within the group."""
        return await self.storage.add_guest(chat_id, name)

    async def table_settings(self, chat: Chat, topic_id: int | None) -> TableSettings:
        """A new sheet takes the settings of the online table of its game here, if any."""
        online = await self.storage.table_in(chat.id, topic_id)
        if online is not None and online.game == self.game:
            return online.settings
        return TableSettings(language=chat.language)

    async def open_new(
        self, chat: Chat, topic_id: int | None, players: Sequence[Player], settings: TableSettings
    ) -> int:
        """A new sheet (its table id) with ``players`` in seat order and its match started."""
        if len({p.id for p in players}) != len(players):
            raise Refusal("keeper_same_player")
        if await self.open_sheet(chat.id, topic_id) is not None:
            raise Refusal("keeper_already_open")
        table = await self.storage.create_table(
            chat.id, topic_id, settings, scorekeeper=True, game=self.game
        )
        seats = {seat: player.id for seat, player in enumerate(players)}
        for seat, pid in seats.items():
            await self.storage.set_seat(table.id, seat, pid)
        await self.storage.start_match(table.id, seats)
        return table.id


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


async def named_players(
    context: BotContext,
    names: Sequence[str],
    picked: Mapping[str, Any],
    known: Callable[[str], Awaitable[Player | None]],
    guest: Callable[[str], Awaitable[Player]],
) -> list[Player]:
    """Each name as a player: a Telegram user picked from the mention list, @username of
    someone the bot has seen, or any other name for a guest without Telegram."""
    players = []
    for word in names:
        user = picked.get(word)
        if user is not None:
            players.append(
                await context.service.player(
                    user.id, user.full_name, user.language_code or "", user.username
                )
            )
        elif word.startswith("@"):
            found = await known(word[1:])
            if found is None:
                raise Refusal("keeper_unknown_user", name=word)
            players.append(found)
        else:
            players.append(await guest(word[:40]))
        if await context.storage.player_flag(players[-1].id, ROBOT):
            # A robot plays online only: on a sheet for real cards it would get an account.
            raise Refusal("keeper_robot", name=word)
    return players


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
