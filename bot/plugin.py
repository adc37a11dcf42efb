"""The seam between the bot and a game: what a game's UI package brings, and the one collection of
them the application hands to the presenter, the timers, the robots and the handlers.

A game's UI (``GameUI``) renders: it turns the table service's snapshots and notices into
messages and keyboards, drawn as values on a ``Drawing`` (``bot.screens``) that the presenter
alone writes to the outbox. A ``Plugin``
adds what sits above the services: the game's own commands and buttons (handlers), its button
kinds, its robot, its typed settings and the words of its units. Nothing here imports a game:
``bot/plugins.py`` lists the built-in ones and only ``bot/app.py`` reads that list, so no
module below the application depends on which games exist.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from telegram import Update
from telegram.ext import BaseHandler

from bot.callback_data import SHARED_KINDS
from bot.i18n import Translator
from bot.rendered import Choice, Rendered
from bot.screens import Drawing
from bot.tables import Snapshot
from bot.views.offer import Offer
from storage.interface import MatchRecord

# A robot's move: (seat view, seed, seconds per card, cores to think on, the seats robots sit
# in) -> the game's action. Run in a worker process, so a top-level function.
RobotMove = Callable[[Any, int, float, int, frozenset[int]], Any]
Handlers = Callable[[], Sequence[BaseHandler[Update, Any, Any]]]
# What the game's result post solved of a deal, found by the deal event's payload, for the
# deal's review (``Game.review``'s ``solved``): one solve serves both.
Solved = Callable[[Mapping[str, Any]], Awaitable[object | None]]


class Keeping(Protocol):
    """A game's scorekeeper for real cards (``bot.keeping.handlers.KeeperHandlers``)."""

    command: str  # its opening command: "/<command> end" stops its sheet

    async def typed(
        self, update: Update, context: Any, table_id: int, count: int, undo: bool
    ) -> None:
        """/deal (a typed result) or /undo at the group's open sheet of the game, which has
        ``count`` entries."""


class GameUI(Protocol):
    """What the bot asks of a game's UI. ``UIBase`` gives the defaults."""

    game: str
    commands: tuple[str, ...]  # group commands that open a table of this game

    def seat_name(self, seat: int, language: str) -> str:
        """A seat as players of the game call it (bridge: N, E, S, W; in Russian С, В, Ю, З)."""

    def seat_code(self, seat: int) -> str:
        """The seat in a button's data or a deep link: one letter or digit."""

    review_sides: tuple[str, ...]
    par_in_imps: bool  # /stats gives a contract against par in IMPs (else: at par or not)

    def card_word(self, code: str, language: str) -> str:
        """A card as the game's text writes it (``SQ``), in the players' words."""

    def seat_from_word(self, word: str) -> int | None:
        """A seat as players type or buttons carry it (its code, or a word for it)."""

    def hand_key(self, seat: int, deal_no: int) -> str:
        """The kept message of a seat's private screen in a deal."""

    def show_deal(self, screens: Drawing, snap: Snapshot) -> None:
        """The deal as it stands: the group's table message and each player's screen."""

    def show_finished(
        self, screens: Drawing, snap: Snapshot, deal_no: int, final: Any, before: Any
    ) -> None:
        """A finished deal's table and screens as it ended (``before``: the match as it was
        played, e.g. bridge's vulnerability): at its end, and again after a restart."""

    def show_hand(self, screens: Drawing, snap: Snapshot, seat: int, menu: str = "") -> None:
        """One player's private screen (``menu``: a sub-menu the player opened, e.g. claims)."""

    def seating(self, snap: Snapshot, t: Translator, bot_username: str) -> Rendered:
        """The group message between matches: who sits where, buttons to sit."""

    def notice(self, screens: Drawing, snap: Snapshot, notice: Any, t: Translator) -> bool:
        """Show one notice of the table service or of the game; False if it is not one this
        UI knows (the presenter shows the common ones)."""

    def scoresheet(self, snap: Snapshot, t: Translator) -> Rendered:
        """The match so far (/score)."""

    def score_picture(self, screens: Drawing, snap: Snapshot, t: Translator) -> None:
        """Post the match's sheet as a picture on /score, if the game draws one there."""

    def history_line(self, match: MatchRecord, names: Mapping[int, str], t: Translator) -> str:
        """One finished match in /history: who played, and how it ended."""

    def options_view(
        self, options: Mapping[str, Any], t: Translator
    ) -> tuple[list[str], list[tuple[Choice, ...]]]:
        """The game's options as lines of /settings, and one row of choices per option."""

    def option_changed(self, options: Mapping[str, Any], arg: str) -> dict[str, Any] | None:
        """The options after a settings button ``key=value`` (None if not the game's key)."""

    def button_action(self, act: str, arg: str) -> str | None:
        """The codec text for a button of one of the game's table kinds (None if it is not
        one): buttons of an older release that chats still show."""

    def button_menu(self, act: str, arg: str) -> str | None:
        """The sub-menu of the player's screen a button of the game's own kind opens."""


class UIBase:
    """Defaults for a game's UI, so that a game writes only what differs (as python-chess's
    variants override only the rules that differ)."""

    game: str = ""
    commands: tuple[str, ...] = ()

    def seat_name(self, seat: int, language: str) -> str:
        return str(seat + 1)

    def seat_code(self, seat: int) -> str:
        return str(seat)

    def seat_from_word(self, word: str) -> int | None:
        return int(word) if word.isascii() and word.isdigit() and len(word) == 1 else None

    def hand_key(self, seat: int, deal_no: int) -> str:
        return f"{self.game}:{seat}:{deal_no}"

    # The sides a deal's review names (``games.core.review.CostlyCard.side``), in order.
    review_sides: tuple[str, ...] = ()
    # A deal's contract against par: IMPs (bridge), or the share of contracts at par.
    par_in_imps: bool = False

    def card_word(self, code: str, language: str) -> str:
        """A card of the game's text (``SQ``) as players read it; the code itself by default."""
        return code

    def score_picture(self, screens: Drawing, snap: Snapshot, t: Translator) -> None:
        """No picture on /score unless the game draws one."""

    def options_view(
        self, options: Mapping[str, Any], t: Translator
    ) -> tuple[list[str], list[tuple[Choice, ...]]]:
        return [], []

    def option_changed(self, options: Mapping[str, Any], arg: str) -> dict[str, Any] | None:
        return None

    def button_action(self, act: str, arg: str) -> str | None:
        return None

    def button_menu(self, act: str, arg: str) -> str | None:
        return None


@dataclass(frozen=True)
class Price:
    """How a group prices one of a game's units, typed as ``/settings <word> 10 RUB``: the
    money buys ``per`` units (bridge's stake is per 100 points; a whist is priced one by one).
    Its words in the catalogues: ``settings.price.<unit>``, ``settings.no_price.<unit>``,
    ``settings.price_hint.<unit>``, ``refusal.bad_price.<unit>``, ``amount.<unit>``."""

    unit: str
    words: tuple[str, ...]
    per: int = 1
    rounding: bool = False  # the group's rounding applies to it (a rubber to hundreds)


def _no_handlers() -> Sequence[BaseHandler[Update, Any, Any]]:
    return ()


@dataclass(frozen=True)
class Plugin:
    """Everything a game adds to the bot, found by the game's registry name."""

    ui: GameUI
    # The game's own commands and buttons (made anew for each application).
    handlers: Handlers = _no_handlers
    # Button kinds the game's own handlers answer (its scorekeeper's, its analysis').
    buttons: frozenset[str] = frozenset()
    # Button kinds the table's handler takes from this game: read through ``ui.button_action``
    # (older releases' buttons) or ``ui.button_menu``.
    table_buttons: frozenset[str] = frozenset()
    # The game's group commands beyond its openers, for Telegram's command menu.
    menu: tuple[str, ...] = ()
    keeper: Keeping | None = None  # its scorekeeper for real cards
    robot: RobotMove | None = None
    # Words typed after /settings for one of the game's options: word -> option key.
    setting_words: Mapping[str, str] = field(default_factory=dict)
    # Its own catalogue (``<words>/<language>.po``), if it brings its words along rather than
    # as a block in the shipped catalogues (``bot.i18n.add_words``).
    words: Path | None = None
    # How a group prices the game's unit (the group's money: typed at any of its tables).
    price: Price | None = None
    solved: Solved | None = None

    @property
    def game(self) -> str:
        return self.ui.game


class Plugins:
    """The games the bot serves, by name. Each button kind and command has one owner, checked
    here, so routing never depends on the order handlers are registered in."""

    def __init__(self, plugins: Iterable[Plugin]) -> None:
        self._by_game: dict[str, Plugin] = {}
        owners = dict.fromkeys(SHARED_KINDS, "the tables")
        commands: dict[str, str] = {}
        words: dict[str, str] = {}  # a price word typed after /settings, and its game
        settings: dict[str, set[str]] = {}  # each game's own setting words
        for plugin in plugins:
            if plugin.game in self._by_game:
                raise ValueError(f"two plug-ins for the game {plugin.game!r}")
            self._by_game[plugin.game] = plugin
            for kind in plugin.buttons | plugin.table_buttons:
                if kind in owners:
                    owner = owners[kind]
                    raise ValueError(f"button kind {kind!r} of {plugin.game!r}: {owner} has it")
                owners[kind] = plugin.game
            # A price word is typed at any table (the group's money): one game's alone. A
            # setting word is read at its own game's tables only: two games may share one.
            for word in plugin.price.words if plugin.price else ():
                if word in words:
                    raise ValueError(f"/settings {word} of {plugin.game!r}: {words[word]} has it")
                words[word] = plugin.game
            settings[plugin.game] = set(plugin.setting_words)
            for command in (*plugin.ui.commands, *plugin.menu):
                if command in commands:
                    owner = commands[command]
                    raise ValueError(f"command /{command} of {plugin.game!r}: {owner} has it")
                commands[command] = plugin.game
        for game, own in settings.items():  # a price word is read first: it would shadow it
            for word in sorted(own & set(words)):
                raise ValueError(f"/settings {word} of {game!r}: {words[word]}'s price has it")

    def __iter__(self) -> Iterator[Plugin]:
        return iter(self._by_game.values())

    def __contains__(self, game: object) -> bool:
        return game in self._by_game

    def __getitem__(self, game: str) -> Plugin:
        return self._by_game[game]

    def ui(self, game: str) -> GameUI:
        """The UI of the game called ``game`` (its registry name)."""
        return self._by_game[game].ui

    def prices(self) -> tuple[Price, ...]:
        """Every game's way of pricing its unit (one per unit: the first game that names it)."""
        found: dict[str, Price] = {}
        for plugin in self:
            if plugin.price is not None:
                found.setdefault(plugin.price.unit, plugin.price)
        return tuple(found.values())

    def price_word(self, word: str) -> Price | None:
        """The price a word typed after /settings sets, if it is one."""
        return next((p for p in self.prices() if word in p.words), None)

    def offer(self) -> Offer:
        """The games served and each one's opening command, for the messages that list them."""
        return Offer(
            tuple(p.game for p in self),
            tuple(f"/{p.ui.commands[0]}" for p in self if p.ui.commands),
        )

    async def solved(self, game: str, payload: Mapping[str, Any]) -> object | None:
        """What the game's result post solved of the deal dealt by ``payload``, if anything."""
        plugin = self._by_game.get(game)
        if plugin is None or plugin.solved is None:
            return None
        return await plugin.solved(payload)

    def table_buttons(self) -> frozenset[str]:
        """Every game's kinds that the table's own handler reads."""
        return frozenset().union(*(p.table_buttons for p in self))
