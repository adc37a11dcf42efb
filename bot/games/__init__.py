"""UI plug-ins, one per game, found by the game's name as ``games.core`` finds the game.

A plug-in turns the table service's snapshots and notices into messages and keyboards; the
presenter, the outbox, the handlers and the table service stay the same for every game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from telegram import Update
from telegram.ext import BaseHandler

from bot.i18n import Translator
from bot.views import Rendered

if TYPE_CHECKING:
    from bot.presenter import Presenter
    from bot.service import Snapshot
    from storage.interface import Match


class GameUI(Protocol):
    """What the bot asks of a game's UI."""

    game: str
    commands: tuple[str, ...]  # group commands that open a table of this game
    # Robots for empty seats: (seat view, seed, seconds per card, cores to think on) -> the
    # game's action, run in a worker process (so a top-level function); None if it has none.
    robot: Callable[[Any, int, float, int], Any] | None

    def seat_name(self, seat: int, language: str) -> str:
        """A seat as players of the game call it (bridge: N, E, S, W; in Russian С, В, Ю, З)."""

    def seat_code(self, seat: int) -> str:
        """The seat in a button's data or a deep link: one letter or digit."""

    def seat_from_word(self, word: str) -> int | None:
        """A seat as players type or buttons carry it (its code, or a word for it)."""

    def hand_key(self, seat: int, deal_no: int) -> str:
        """The kept message of a seat's private screen in a deal."""

    def show_deal(self, presenter: Presenter, snap: Snapshot) -> None:
        """The deal as it stands: the group's table message and each player's screen."""

    def show_hand(self, presenter: Presenter, snap: Snapshot, seat: int, menu: str = "") -> None:
        """One player's private screen (``menu``: a sub-menu the player opened, e.g. claims)."""

    def seating(self, snap: Snapshot, t: Translator, bot_username: str) -> Rendered:
        """The group message between matches: who sits where, buttons to sit."""

    def notice(self, presenter: Presenter, snap: Snapshot, notice: Any, t: Translator) -> bool:
        """Show one notice of the table service or of the game; False if it is not one this
        UI knows (the presenter shows the common ones)."""

    def scoresheet(self, snap: Snapshot, t: Translator) -> Rendered:
        """The match so far (/score)."""

    def score_picture(self, presenter: Presenter, snap: Snapshot, t: Translator) -> None:
        """Post the match's sheet as a picture on /score, if the game draws one there."""

    def history_line(self, match: Match, names: Mapping[int, str], t: Translator) -> str:
        """One finished match in /history: who played, and how it ended."""

    def options_view(
        self, options: Mapping[str, Any], t: Translator
    ) -> tuple[list[str], list[tuple[str, str]]]:
        """The game's options as lines of /settings, and buttons (label, ``key=value``)."""

    def option_changed(self, options: Mapping[str, Any], arg: str) -> dict[str, Any] | None:
        """The options after a settings button ``key=value`` (None if not the game's key)."""

    def button_action(self, act: str, arg: str) -> str | None:
        """The codec text for a button of the game's own kind (None if it is not one)."""

    def handlers(self) -> list[BaseHandler[Update, Any, Any]]:
        """The game's own commands and buttons, registered before the tables' buttons."""

    async def keeper_typed(
        self, update: Update, context: Any, table_id: int, count: int, undo: bool
    ) -> None:
        """/deal (a typed result) or /undo at the group's open scoresheet of this game, which
        has ``count`` entries."""


_UIS: dict[str, GameUI] = {}


def register_ui(ui: GameUI) -> GameUI:
    if ui.game in _UIS:
        raise ValueError(f"a UI for {ui.game!r} is registered already")
    _UIS[ui.game] = ui
    return ui


def ui_for(game: str) -> GameUI:
    """The UI of the game called ``game`` (its registry name)."""
    _load_builtin()
    return _UIS[game]


def uis() -> tuple[GameUI, ...]:
    _load_builtin()
    return tuple(_UIS.values())


def _load_builtin() -> None:
    """The built-in UIs register on first use; one line per game, as in ``games.core``."""
    if "bridge" not in _UIS:
        from bot.games.bridge.ui import BRIDGE_UI

        register_ui(BRIDGE_UI)
    if "preferans" not in _UIS:
        from bot.games.preferans.ui import PREFERANS_UI

        register_ui(PREFERANS_UI)
