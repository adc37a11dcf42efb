"""The pulka kept for real cards: /prefkeep names three or four players in seat order (the first
deals first; optionally the pool and the variant: ``/prefkeep Аня Боря Вика 20 ленинград``),
then each deal is entered through the wizard under the sheet or typed as ``/deal 7H 0
whist/pass 6/3/1``; /undo takes the last entry back; ``/prefkeep end`` stops the pulka by
consent (settled by §6's rule). The finished pulka goes to the group's ledger in whists.

Anyone in the group may write on the sheet, as anyone at a real table may write on the paper.
What every game's scorekeeper shares is ``bot.games.keeping.KeeperHandlers``; here is what the
pulka's does its way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.callback_data import Button
from bot.context import BotContext
from bot.games.keeping import KeeperHandlers, named_players
from bot.games.preferans.buttons import KEEP_UNDO, KEEPER_BUTTONS
from bot.games.preferans.keeper_view import entry_of, render_pulka_keeper
from bot.games.preferans.scorekeeper import PulkaKeeper, PulkaSheet
from bot.i18n import Translator
from bot.tables import Refusal
from bot.views import Rendered
from games.errors import RuleError
from games.preferans.entry import Entry, parse_entry
from games.preferans.settlement import Variant
from storage.interface import Player, Storage


def _split_options(words: list[str]) -> tuple[list[str], dict[str, Any]]:
    """The players' names, and the pool target and variant typed after them (if any)."""
    options: dict[str, Any] = {}
    names = []
    for word in words:
        if word.isdecimal() and 1 <= int(word) <= 500 and "target" not in options:
            options["target"] = int(word)
            continue
        try:
            options["variant"] = Variant.parse(word).value
            continue
        except RuleError:
            pass
        names.append(word)
    return names, options


class PreferansKeeper(KeeperHandlers[PulkaSheet, Entry]):
    game = "preferans"
    command = "prefkeep"
    buttons = KEEPER_BUTTONS
    undo_button = KEEP_UNDO

    def new_keeper(self, storage: Storage) -> PulkaKeeper:
        return PulkaKeeper(storage)

    def render(self, sheet: PulkaSheet, arg: str, t: Translator, note: str) -> Rendered:
        return render_pulka_keeper(sheet, arg, t, note)

    def parse(self, text: str) -> Entry:
        return parse_entry(text)

    async def players(
        self, words: list[str], picked: Mapping[str, Any], context: BotContext, chat_id: int
    ) -> tuple[list[Player], dict[str, Any]]:
        """Three or four, the first dealing first; the pool and the variant among them."""
        names, options = _split_options(words)
        if len(names) not in (3, 4):
            raise Refusal("pref_keeper_usage")
        keeper = self.keeper(context)
        found = await named_players(
            context, names, picked, keeper.known, lambda name: keeper.guest(chat_id, name)
        )
        return found, options

    async def wizard(
        self, context: BotContext, sheet: PulkaSheet, pressed: Button, player: Player
    ) -> None:
        if pressed.arg:
            entry = entry_of(pressed.arg, sheet)
            if pressed.deal_no != sheet.count or sheet.finished is not None:
                raise Refusal("stale")
            if entry is None:
                self.show(context, sheet, pressed.arg)
            else:
                await self.save(context, sheet.table.id, pressed.deal_no, entry, player)
        else:  # back to the start of the wizard
            if pressed.deal_no != sheet.count:
                raise Refusal("stale")
            self.show(context, sheet)


KEEPER = PreferansKeeper()
