"""Scorekeeper mode: /keep names the four (N, E, S, W), then each deal's result is entered
through the wizard under the sheet or typed as /deal 4SX N -2; /undo takes the last entry back;
/keep end stops the rubber early (scored as unfinished). Finished rubbers go to the same ledger
as online play, scored by the same rules engine.

Anyone in the group may enter a result, as anyone at the table may write on a paper sheet:
every entry is shown with the sheet at once, and /undo puts a mistake right. What every game's
scorekeeper shares is ``bot.keeping.handlers.KeeperHandlers``; here is what bridge's does its way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.callback_data import Button
from bot.context import BotContext
from bot.games.bridge.buttons import KEEP_PICTURE, KEEP_UNDO, KEEP_WHO, KEEPER_BUTTONS
from bot.games.bridge.cards import contract_text, seat_text
from bot.games.bridge.keeper_view import entry_of, parse_stage, render_keeper
from bot.games.bridge.notation import read_entry
from bot.games.bridge.scorekeeper import Sheet, keeper, seated
from bot.games.bridge.ui import post_scoresheet
from bot.i18n import Translator
from bot.keeping.handlers import KeeperHandlers, named_players
from bot.keeping.sheets import SheetKeeper
from bot.rendered import Rendered
from bot.tables import Refusal
from bot.views.amounts import signed
from games.bridge.chicago import FIFTY
from games.bridge.entry import Entry
from games.bridge.game import CHICAGO, RubberMatch
from storage.interface import Player, Storage


class BridgeKeeper(KeeperHandlers[RubberMatch, Entry]):
    game = "bridge"
    command = "keep"
    buttons = KEEPER_BUTTONS
    undo_button = KEEP_UNDO
    who_button = KEEP_WHO

    def new_keeper(self, storage: Storage) -> SheetKeeper[RubberMatch, Entry]:
        return keeper(storage)

    def render(self, sheet: Sheet, arg: str, t: Translator, note: str) -> Rendered:
        return render_keeper(sheet, arg, t, note)

    def parse(self, text: str) -> Entry:
        return read_entry(text)

    def entry_text(self, entry: Entry, sheet: Sheet, t: Translator) -> str:
        """The entry as the table writes it ("4♠X Ю −2", "3БК С =", "пас"; honours as
        "100С-Ю"), which the keeper also reads back when typed."""
        if entry.contract is None or entry.declarer is None:
            return t("keeper.echo.passed")
        lang = t.language
        result = signed(entry.delta) if entry.delta else "="
        text = f"{contract_text(entry.contract, lang)} {seat_text(entry.declarer, lang)} {result}"
        for side, points in entry.honours.items():
            if points:
                text += f" {points}{t(f'bridge.input.side.{side.value}')}"
        return text

    async def players(
        self, words: list[str], picked: Mapping[str, Any], context: BotContext, chat_id: int
    ) -> tuple[list[Player], dict[str, Any]]:
        """The four, N E S W (N deals first); ``чикаго`` among them keeps a Chicago (and
        ``50`` after it: 50 for each part score, nothing carried)."""
        options: dict[str, Any] = {}
        names = []
        for word in words:
            if word.lower() in ("чикаго", "chicago"):
                options["form"] = CHICAGO
            elif word == FIFTY and options.get("form") == CHICAGO:
                options["chicago_part"] = FIFTY
            else:
                names.append(word)
        if len(names) != 4:
            raise Refusal("keeper_usage")
        keeper = self.keeper(context)
        found = await named_players(
            context,
            names,
            picked,
            keeper.known,
            lambda name: keeper.guest(chat_id, name),
            chat_id,
        )
        return found, options

    async def wizard(
        self, context: BotContext, sheet: Sheet, pressed: Button, player: Player
    ) -> None:
        """Level, strain, doubling, declarer, result, then honours; or a passed-out deal."""
        if pressed.arg == "pass":
            await self.save(context, sheet.table.id, pressed.deal_no, Entry(None), player)
        elif ".h" in pressed.arg:
            stage, _, honours = pressed.arg.rpartition(".")
            entry = entry_of(stage, honours)
            await self.save(context, sheet.table.id, pressed.deal_no, entry, player)
        else:
            parse_stage(pressed.arg)
            if pressed.deal_no != sheet.count or sheet.finished is not None:
                raise Refusal("stale")
            self.show(context, sheet, pressed.arg)

    async def finished(self, context: BotContext, sheet: Sheet, note: str) -> None:
        """The rubber as it ended, and its picture."""
        self.show(context, sheet)
        self.picture(context, sheet)

    async def free_button(self, context: BotContext, sheet: Sheet, pressed: Button) -> bool:
        if pressed.act != KEEP_PICTURE:
            return False
        self.picture(context, sheet)
        return True

    def picture(self, context: BotContext, sheet: Sheet) -> None:
        t = self.t(sheet)
        caption = " · ".join(
            f"{seat_text(s, t.language)} {p.name}" for s, p in seated(sheet).items()
        )
        post_scoresheet(
            context.outbox,
            sheet.chat.tg_chat_id,
            sheet.table.topic_id,
            sheet.match.rubber,
            {seat: player.name for seat, player in seated(sheet).items()},
            t("keeper.picture_title", number=sheet.table.id),
            caption,
            t,
        )


KEEPER = BridgeKeeper()
