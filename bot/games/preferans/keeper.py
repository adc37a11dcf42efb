"""The pulka kept for real cards: /prefkeep names three or four players in seat order (the first
deals first; optionally the pool, the variant and the group's conditions: ``/prefkeep Аня Боря
Вика 20 ленинград выход=6-7-8``),
then each deal is entered through the wizard under the sheet or typed as ``/deal 7H 0
whist/pass 6/3/1``; /undo takes the last entry back; ``/prefkeep end`` stops the pulka by
consent (settled by §6's rule). The finished pulka goes to the group's ledger in whists.

Anyone in the group may write on the sheet, as anyone at a real table may write on the paper.
What every game's scorekeeper shares is ``bot.keeping.handlers.KeeperHandlers``; here is what the
pulka's does its way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Any

from bot.callback_data import Button
from bot.context import BotContext
from bot.games.preferans.buttons import KEEP_UNDO, KEEP_WHO, KEEPER_BUTTONS
from bot.games.preferans.keeper_view import entry_of, render_pulka_keeper
from bot.games.preferans.scorekeeper import PulkaSheet, keeper
from bot.games.preferans.views import bid_text
from bot.i18n import Translator
from bot.keeping.handlers import KeeperHandlers, named_players
from bot.keeping.sheets import SheetKeeper
from bot.rendered import Rendered
from bot.tables import Refusal
from bot.views.text import user_text
from games.errors import Reason, RuleError
from games.preferans.conditions import SWITCHES, normal, preset
from games.preferans.entry import Entry, parse_entry
from games.preferans.game import PulkaMatch
from games.preferans.settlement import Variant
from storage.interface import Player, Storage


def _split_options(
    words: list[str], setting_words: Mapping[str, str]
) -> tuple[list[str], dict[str, Any]]:
    """The players' names, and the pool target, the variant and the group's conditions typed
    after them (if any): ``20 сталинград выход=6-7-8 распасы=1-2-4``, a condition as
    ``word=value`` with the words /settings reads. Refusal for a condition that does not read."""
    options: dict[str, Any] = {}
    switches: dict[str, str] = {}
    names = []
    for word in words:
        if word.isdecimal() and 1 <= int(word) <= 500 and "target" not in options:
            options["target"] = int(word)
            continue
        key, equals, value = word.partition("=")
        if equals and setting_words.get(key.lower()) in SWITCHES:
            name = setting_words[key.lower()]
            try:
                switches[name] = normal(name, value)
            except RuleError:
                raise Refusal(f"bad_{name}", game="preferans") from None
            continue
        try:
            options["variant"] = Variant.parse(word).value
            continue
        except RuleError:
            pass
        names.append(word)
    variant = str(options.get("variant", "sochi"))
    if "progression" in switches and "progression" not in preset(variant):
        raise Refusal("bad_progression", game="preferans")
    return names, {**options, **switches}


@contextlib.contextmanager
def _pulka_words() -> Iterator[None]:
    """An entry that does not read, or does not fit a pulka, refused in the pulka's words."""
    try:
        yield
    except RuleError as error:
        if error.reason in (Reason.BAD_ENTRY, Reason.BAD_TRICKS):
            raise Refusal(f"pulka_{error.reason.value}") from None
        raise


class PreferansKeeper(KeeperHandlers[PulkaMatch, Entry]):
    game = "preferans"
    command = "prefkeep"
    buttons = KEEPER_BUTTONS
    undo_button = KEEP_UNDO
    who_button = KEEP_WHO

    def new_keeper(self, storage: Storage) -> SheetKeeper[PulkaMatch, Entry]:
        return keeper(storage)

    def render(self, sheet: PulkaSheet, arg: str, t: Translator, note: str) -> Rendered:
        return render_pulka_keeper(sheet, arg, t, note)

    def parse(self, text: str) -> Entry:
        """A typed /deal; what does not read is answered with the pulka's own format (the
        rules' reasons speak of bridge's 13 tricks and 4SX N -2)."""
        with _pulka_words():
            return parse_entry(text, first_seat=1)  # as the table counts: "Место 1"

    async def save(
        self,
        context: BotContext,
        table_id: int,
        expected: int,
        entry: Entry,
        player: Player,
        key: str | None = None,
    ) -> None:
        with _pulka_words():
            await super().save(context, table_id, expected, entry, player, key)

    def entry_text(self, entry: Entry, sheet: PulkaSheet, t: Translator) -> str:
        """The entry in the table's words, the declarer by name, so a typed seat number
        (counted from 1, as the table's "Место 1") is seen to mean whom it meant:
        "Аня: 7♥, вист/пас, 6/3/1"."""
        tricks = "/".join(map(str, entry.tricks or ()))
        if entry.kind == "raspasy":
            return t("pref.keeper.echo.raspasy", tricks=tricks)
        holder = sheet.players.get(entry.declarer) if entry.declarer is not None else None
        who = user_text(holder.name) if holder is not None else "—"
        if entry.kind == "misere":
            return t("pref.keeper.echo.misere", name=who, tricks=tricks)
        words = "/".join(t(f"pref.word.{w}").lower() for w in entry.whist or ())
        game = bid_text(entry.contract, t)
        played = f", {tricks}" if entry.tricks is not None else ""
        return t("pref.keeper.echo.game", name=who, game=game, words=words) + played

    async def players(
        self, words: list[str], picked: Mapping[str, Any], context: BotContext, chat_id: int
    ) -> tuple[list[Player], dict[str, Any]]:
        """Three or four, the first dealing first; the pool and the variant among them."""
        names, options = _split_options(words, context.plugins[self.game].setting_words)
        if len(names) not in (3, 4):
            raise Refusal("pref_keeper_usage")
        keeper = self.keeper(context)
        found = await named_players(
            context, names, picked, keeper.known, lambda name: keeper.guest(chat_id, name), chat_id
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
