"""Tables and seats: opening a table, switching its game, sitting, robots, leaving, the next
match, settings, and the finished deals a table shows on request."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.tables.base import TableBase
from bot.tables.matches import MatchLife
from bot.tables.model import (
    ROBOT,
    TAKEOVER,
    Change,
    GameSwitched,
    Live,
    NextReady,
    PlayedDeal,
    Refusal,
    Seat,
    SwitchAsked,
    TakeoverAsked,
    _check_sit,
    _holder,
    _seat_of,
    match_options,
)
from bot.tables.restore import _replay_played
from games.core.protocols import Game, State
from games.core.registry import find_game
from games.core.shuffle import shuffled
from games.errors import RuleError
from storage.events import replay
from storage.interface import (
    Chat,
    ChatSettings,
    NotFound,
    Player,
    Table,
    TableSettings,
    TableStatus,
)

log = logging.getLogger(__name__)


class Seating:
    """Who sits where, and the table's settings (a part of the table service)."""

    def __init__(self, tables: TableBase, matches: MatchLife) -> None:
        self.tables = tables
        self.matches = matches

    async def open_table(
        self,
        tg_chat_id: int,
        title: str,
        topic_id: int | None,
        language: str,
        game: str,
        asker: int | None = None,
        admin: Callable[[], Awaitable[bool]] | None = None,
    ) -> tuple[Change, bool]:
        """The chat's (topic's) table, opened for ``game`` if there is none. True if it was
        just opened, or switched to ``game`` from another (between matches; Refusal
        "switch_mid_match" during one); False if it already plays ``game``.

        A switch stands people up and changes what the seated sat down to play: it is for
        the seated people together (each asks; ``SwitchAsked`` until all have) or an
        ``admin`` of the group; anyone else is refused. ``asker``: the player asking."""
        name = find_game(game).name
        chat = await self.tables.storage.ensure_chat(tg_chat_id, title, language)
        existing = await self.tables.storage.table_in(chat.id, topic_id)
        if existing is not None and existing.game != name:
            by_admin = admin is not None and await admin()
            return await self.switch_game(existing.id, name, asker, by_admin), True
        if existing is not None:
            return Change(await self.tables.snapshot(existing.id)), False
        # A new table speaks the group's language (first met in its opener's, changeable).
        settings = TableSettings(language=chat.language)
        table = await self.tables.storage.create_table(chat.id, topic_id, settings, game=name)
        return Change(await self.tables.snapshot(table.id)), True

    async def switch_game(
        self, table_id: int, game: str, asker: int | None = None, admin: bool = True
    ) -> Change:
        """The table plays ``game`` from its next match (between matches only). Seats that
        the new game has keep their players; the others stand up, and so do robots (a robot
        plays the game it was seated for). The ledger runs on: it is the group's.

        Unless ``admin``, it takes the consent of every seated person: ``asker`` must be
        seated, and the switch waits (``SwitchAsked``) until each of them has asked."""
        async with self.tables._guard(table_id):
            live = await self.tables._get(table_id)
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("switch_mid_match")
            if live.table.status is TableStatus.CLOSED:
                raise Refusal("table_closed")
            new = find_game(game)
            if not admin:
                people = {h.player_id for h in live.holders.values() if not h.robot}
                if people and asker not in people:
                    raise Refusal("switch_not_seated")
                votes = live.switch_votes
                agreed = set(votes[1]) if votes is not None and votes[0] == new.name else set()
                if asker is not None:
                    agreed = (agreed | {asker}) & people
                if agreed != people:
                    live.switch_votes = (new.name, frozenset(agreed))
                    asked = SwitchAsked(new.name, len(agreed), len(people))
                    return Change(self.tables._snapshot(live), (asked,))
            live.switch_votes = None
            size = new.table_size(live.table.settings.options)
            stood = [
                (seat, holder)
                for seat, holder in sorted(live.holders.items())
                if seat >= size or holder.robot
            ]
            for seat, _ in stood:
                await self.tables.storage.set_seat(table_id, seat, None)
            await self.tables.storage.set_game(table_id, new.name)
            self.tables.forget(table_id)
            live = self.tables._live[table_id] = await self.tables._load(table_id)
            kept = tuple(holder.name for _, holder in sorted(live.holders.items()))
            notice = GameSwitched(new.name, kept, tuple(h.name for _, h in stood), size)
            if len(live.holders) == live.table_size:  # every seat taken: play, as on a sit
                await self.matches.start_match(live)
            return Change(self.tables._snapshot(live), (notice,))

    async def played_deals(
        self, table_id: int, since: str = "", until: str = ""
    ) -> tuple[Game, list[PlayedDeal]]:
        """The deals of the table's match in progress (or its last one), or with ``since`` and
        ``until`` (ISO dates, inclusive) every deal of the table's matches dealt in that range.
        Only deals that are over: finished, or abandoned when their match was stopped; a deal
        still being bid or played is never a record (all its hands would be shown)."""
        table = await self.tables.storage.get_table(table_id)
        game = find_game(table.game)
        chat = await self.tables.storage.get_chat(table.chat_id)
        finished = [
            m
            for m in await self.tables.storage.matches(chat.id, 1000)
            if m.table_id == table.id and m.game == game.name  # a table may switch games
        ]
        if since or until:
            chosen = sorted(finished, key=lambda m: m.id)
            if table.match_id is not None:
                chosen.append(await self.tables.storage.get_match(table.match_id))
        elif table.match_id is not None:
            chosen = [await self.tables.storage.get_match(table.match_id)]
        else:
            chosen = finished[:1]
        # Storage is read here; the replays (CPU: a whole history can be hundreds of deals)
        # run in a thread, so that a long record does not stall every other group's answers.
        matches = []
        for record in chosen:
            names = {
                seat: (await self.tables.storage.get_player(pid)).name
                for seat, pid in record.seats.items()
            }
            deals = [
                (summary, await self.tables.storage.events(table.id, summary.deal_no))
                for summary in await self.tables.storage.deals(record.id)
            ]
            matches.append((record, names, deals))
        found = await asyncio.to_thread(_replay_played, game, chat, matches, since, until)
        return game, found

    async def finished_deal(
        self, table_id: int, deal_no: int, game_name: str
    ) -> tuple[Chat, State[Any, Any]]:
        """A deal of an online table of ``game_name`` that is over (all its cards may be
        shown), with its group; Refusal("unknown_action") for one still being played, never dealt,
        of another game or a scoresheet (forged data: no button of ours names it)."""
        try:
            table = await self.tables.storage.get_table(table_id)
        except NotFound:
            raise Refusal("unknown_action") from None
        events = await self.tables.storage.events(table_id, deal_no)
        if not events or table.scorekeeper or table.game != game_name:
            raise Refusal("unknown_action")  # never dealt here: no button of ours named it
        game = find_game(table.game)
        players = len(table.seats) or game.table_size(table.settings.options)
        try:
            state = replay(game, players, events)
        except (ValueError, RuleError):
            raise Refusal("stale") from None
        if not state.finished:
            raise Refusal("unknown_action")  # no button of ours shows a deal under way
        return await self.tables.storage.get_chat(table.chat_id), state

    async def table_by_token(self, token: str) -> int | None:
        """The table a deep link names, if the token is one of ours."""
        table = await self.tables.storage.table_by_token(token)
        return None if table is None or table.scorekeeper else table.id

    async def chat_language(self, tg_chat_id: int, topic_id: int | None) -> str | None:
        """The language a group (or forum topic) is spoken to in: its table's, else its
        scoresheet's, else the group's own; None for a chat the bot has not met."""
        chat = await self.tables.storage.chat_by_tg(tg_chat_id)
        if chat is None:
            return None
        for scorekeeper in (False, True):
            table = await self.tables.storage.table_in(chat.id, topic_id, scorekeeper=scorekeeper)
            if table is not None:
                return table.settings.language
        return chat.language

    async def table_for(self, tg_chat_id: int, topic_id: int | None) -> int | None:
        chat = await self.tables.storage.chat_by_tg(tg_chat_id)
        if chat is None:
            return None
        table = await self.tables.storage.table_in(chat.id, topic_id)
        return None if table is None else table.id

    async def sheet_for(self, tg_chat_id: int, topic_id: int | None) -> Table | None:
        """The scoresheet open in a group (or forum topic), of whatever game."""
        chat = await self.tables.storage.chat_by_tg(tg_chat_id)
        if chat is None:
            return None
        return await self.tables.storage.table_in(chat.id, topic_id, scorekeeper=True)

    async def sit(
        self, table_id: int, player: Player, seat: Seat, heard: int | None = None
    ) -> Change:
        async with self.tables._guard(table_id):
            live = await self.tables._get(table_id)
            robot = live.holders.get(seat)
            if robot is not None and robot.robot and _seat_of(live, player.id) is None:
                return await self._take_from_robot(live, player, seat)
            _check_sit(live.table.status, live.holders, player.id, seat, live.game.name)
            if not 0 <= seat < live.table_size:
                raise Refusal("unknown_action")
            current = _seat_of(live, player.id)
            if current is not None:
                await self.tables.storage.set_seat(table_id, current, None)
                del live.holders[current]
            await self.tables.storage.set_seat(table_id, seat, player.id)
            live.holders[seat] = _holder(player)
            live.paused.discard(seat)
            if len(live.holders) == live.table_size:
                live.heard = heard if heard is not None else live.heard
                await self.matches.start_match(live)
            return Change(self.tables._snapshot(live))

    async def _take_from_robot(self, live: Live, player: Player, seat: Seat) -> Change:
        """A person sits in a robot's place: at once between matches; during one, from the next
        deal (the deal in progress is the robot's to finish)."""
        if live.table.status is TableStatus.CLOSED:
            raise Refusal("table_closed")
        newcomer = _holder(player)
        if live.table.status is not TableStatus.PLAYING:
            await self.tables.storage.set_seat(live.table.id, seat, player.id)
            live.holders[seat] = newcomer
            return Change(self.tables._snapshot(live))
        if seat in live.takeovers:
            raise Refusal("seat_taken", name=live.takeovers[seat].name)
        if any(h.player_id == player.id for h in live.takeovers.values()):
            raise Refusal("takeover_pending")  # one robot's seat per person
        payload = {"what": TAKEOVER, "seat": seat, "newcomer": dataclasses.asdict(newcomer)}
        await self.tables._log_vote(live, player.id, payload)
        live.takeovers[seat] = newcomer
        return Change(self.tables._snapshot(live), (TakeoverAsked(seat, newcomer.name),))

    async def seat_robot(
        self, table_id: int, player_id: int, seat: Seat, name: str, heard: int | None = None
    ) -> Change:
        """A seated player fills an empty seat with a robot (between matches). ``name`` is the
        robot's, in the table's language; robots are players of the group flagged as such."""
        async with self.tables._guard(table_id):
            live = await self.tables._get(table_id)
            if _seat_of(live, player_id) is None:
                raise Refusal("not_seated")
            if live.table.status is TableStatus.CLOSED:
                raise Refusal("table_closed")
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("match_in_progress", game=live.game.name)
            if not 0 <= seat < live.table_size:
                raise Refusal("unknown_action")
            if seat in live.holders:
                raise Refusal("seat_taken", name=live.holders[seat].name)
            taken = {holder.name for holder in live.holders.values()}
            number = 1
            while f"{name} {number}" in taken:
                number += 1
            robot = await self.tables.storage.add_guest(live.chat.id, f"{name} {number}")
            await self.tables.storage.set_player_flag(robot.id, ROBOT, True)
            await self.tables.storage.set_seat(table_id, seat, robot.id)
            live.holders[seat] = _holder(robot, robot=True)
            if len(live.holders) == live.table_size:
                live.heard = heard if heard is not None else live.heard
                await self.matches.start_match(live)
            return Change(self.tables._snapshot(live))

    async def leave(self, table_id: int, player_id: int) -> Change:
        async with self.tables._guard(table_id):
            live = await self.tables._get(table_id)
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("leave_mid_match", game=live.game.name)
            await self.tables.storage.set_seat(table_id, seat, None)
            del live.holders[seat]
            if not live.next_votes:
                return Change(self.tables._snapshot(live))
            live.next_votes.clear()  # the next match is another table's now: asked anew
            people = sum(1 for h in live.holders.values() if not h.robot)
            notice = NextReady((), people, live.deal_no, cancelled=True)
            return Change(self.tables._snapshot(live), (notice,))

    async def next_match(
        self, table_id: int, player_id: int, new_partners: bool, heard: int | None = None
    ) -> Change:
        """Another match with the same players, same seats or seats (partners) drawn again: it
        starts when every seated person has pressed for it (one press must not deal the
        others into a money match); until then anyone may still leave."""
        async with self.tables._guard(table_id):
            live = await self.tables._get(table_id)
            seat = _seat_of(live, player_id)
            if seat is None:
                raise Refusal("not_seated")
            if live.table.status is TableStatus.PLAYING:
                raise Refusal("match_in_progress", game=live.game.name)
            if len(live.holders) < live.table_size:
                raise Refusal("need_players", count=live.table_size)
            if seat in live.next_votes:
                raise Refusal("already_voted")  # a double tap, or a second press
            live.next_votes[seat] = new_partners
            people = {s for s, h in live.holders.items() if not h.robot}
            ready = tuple(sorted(s for s in live.next_votes if s in people))
            if not people <= set(live.next_votes):  # each seated person's own press
                notice = NextReady(ready, len(people), live.deal_no)
                return Change(self.tables._snapshot(live), (notice,))
            new_partners = any(live.next_votes.values())  # anyone may ask partners drawn
            live.next_votes.clear()
            opened_at = live.deal_no
            if new_partners:
                seats = sorted(live.holders)
                order = shuffled([live.holders[seat] for seat in seats], self.tables.randbelow)
                for seat in seats:
                    await self.tables.storage.set_seat(table_id, seat, None)
                for seat, holder in zip(seats, order, strict=True):
                    await self.tables.storage.set_seat(table_id, seat, holder.player_id)
                live.holders = dict(zip(seats, order, strict=True))
            live.heard = heard if heard is not None else live.heard
            await self.matches.start_match(live)
            started = NextReady(ready, len(people), opened_at, started=True)
            return Change(self.tables._snapshot(live), (started,))

    async def update_settings(
        self, table_id: int, settings: TableSettings, admin: bool = True
    ) -> Change:
        """The table's settings. One that leaves fewer seats than people sit in (a Preferans
        table from four to three) stands them up: an ``admin``'s change does, a seated
        player's is refused until they have left (``settings_unseat``)."""
        async with self.tables._guard(table_id):
            live = await self.tables._get(table_id)
            size = live.game.table_size(settings.options)
            beyond = [s for s, h in live.holders.items() if s >= size]
            if any(not live.holders[s].robot for s in beyond) and not admin:
                raise Refusal("settings_unseat")
            changed = dict(live.table.settings.options) != dict(settings.options)
            playing = live.match_id is not None  # a stopped match's deal is no one's now
            if changed and playing and live.state is not None and not live.state.finished:
                raise Refusal("settings_between_deals", game=live.game.name)
            if changed and playing and live.match is not None:
                try:  # the game checks them (a pulka's are fixed until it ends)
                    live.match.configure(match_options(settings, live.chat))
                    live.match_changed()
                except RuleError:
                    raise Refusal("settings_between_matches", game=live.game.name) from None
            for seat in beyond:
                await self.tables.storage.set_seat(table_id, seat, None)
                del live.holders[seat]
            await self.tables.storage.update_settings(table_id, settings)
            live.table = await self.tables.storage.get_table(table_id)
            return Change(self.tables._snapshot(live))

    async def choose_hands(self, table_id: int, player_id: int, private: bool) -> Change:
        """A seated player's own choice of where their screen goes at the table: their
        private chat (``private``), or wherever the table's go (``bot.places``)."""
        async with self.tables._guard(table_id):
            live = await self.tables._get(table_id)
            if player_id not in {h.player_id for h in live.holders.values()}:
                raise Refusal("not_seated")
            settings = live.table.settings
            chosen = set(settings.private_hands) - {player_id} | ({player_id} if private else set())
            if chosen != set(settings.private_hands):
                changed = dataclasses.replace(settings, private_hands=frozenset(chosen))
                await self.tables.storage.update_settings(table_id, changed)
                live.table = dataclasses.replace(live.table, settings=changed)
            return Change(self.tables._snapshot(live))

    async def update_chat_settings(
        self, chat_id: int, settings: ChatSettings, table_id: int
    ) -> Change:
        """The group's money settings; every cached table of the chat sees them at once."""
        await self.update_group(chat_id, settings)
        return Change(await self.tables.snapshot(table_id))

    async def update_group(
        self, chat_id: int, settings: ChatSettings | None = None, language: str | None = None
    ) -> Chat:
        """The group's own settings, with or without a table: its money, and the language it
        is spoken to in where no table says otherwise (a new table starts in it)."""
        if settings is not None:
            chat = await self.tables.storage.update_chat_settings(chat_id, settings)
        if language is not None:
            chat = await self.tables.storage.set_chat_language(chat_id, language)
        if settings is None and language is None:
            chat = await self.tables.storage.get_chat(chat_id)
        for live in self.tables._live.values():
            if live.chat.id == chat_id:
                live.chat = chat
        return chat
