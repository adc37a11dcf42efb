"""The shared table service speaks no game's words: it names its refusals neutrally and says
which game's table refused, and the words are the game's where the game has its own (a rubber,
a pulka), the neutral ones otherwise."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.handlers.common import refusal_text
from bot.i18n import Translator
from bot.tables import Refusal, TableService
from storage.sqlite import SqliteStorage


async def _refused_seat(service: TableService, game: str, chat: int) -> Refusal:
    change, _ = await service.open_table(chat, "Club", None, "ru", game)
    table = change.snapshot.table_id
    size = change.snapshot.game.table_size(change.snapshot.settings.options)
    for seat in range(size):
        change = await service.sit(table, await service.player(chat * 10 + seat, "P", "ru"), seat)
    late = await service.player(chat * 10 + 9, "Late", "ru")
    with pytest.raises(Refusal) as refused:
        await service.sit(table, late, 0)
    return refused.value


async def test_a_seat_during_a_match_is_refused_in_its_games_words(tmp_path: Path) -> None:
    storage = await SqliteStorage.open(str(tmp_path / "bot.sqlite3"))
    try:
        service = TableService(storage, random.Random(5).randrange)
        ru, en = Translator("ru"), Translator("en")
        bridge = await _refused_seat(service, "bridge", -1)
        assert (bridge.key, bridge.game) == ("match_in_progress", "bridge")
        assert refusal_text(bridge, ru) == "Роббер уже идёт."
        pulka = await _refused_seat(service, "preferans", -2)
        assert (pulka.key, pulka.game) == ("match_in_progress", "preferans")
        assert refusal_text(pulka, ru) == "Пуля уже идёт."
        assert refusal_text(pulka, en) == "A pulka is already in progress."
    finally:
        await storage.close()


@pytest.mark.parametrize(
    ("refusal", "ru", "en"),
    [
        (Refusal("need_players", count=3), "Нужны 3 игрока.", "3 players are needed."),
        (Refusal("need_players", count=4), "Нужны 4 игрока.", "4 players are needed."),
        (Refusal("no_match", game="preferans"), "За этим столом сейчас не идёт пуля.", None),
        (Refusal("no_match", game="bridge"), "За этим столом сейчас не идёт роббер.", None),
        (Refusal("no_match", game="chess"), "За этим столом сейчас не идёт партия.", None),
        (Refusal("no_match"), "За этим столом сейчас не идёт партия.", None),
        (Refusal("keeper_closed", game="preferans"), "Эта пуля закончена.", "This pulka is over."),
        (
            Refusal("keeper_same_player", game="preferans"),
            None,
            "Each seat needs a different player.",
        ),
        (
            Refusal("settings_between_deals", game="preferans"),
            None,
            "A pulka's conditions change only between pulkas: this one is played out on its own.",
        ),
    ],
)
def test_the_games_words_win_over_the_neutral_ones(
    refusal: Refusal, ru: str | None, en: str | None
) -> None:
    if ru is not None:
        assert refusal_text(refusal, Translator("ru")) == ru
    if en is not None:
        assert refusal_text(refusal, Translator("en")) == en
