"""One group plays both games at its one table: a rubber, then (with /preferans between matches)
a pulka, then a rubber again. Seats that the new game has are kept, the others stand up, and
the group is told; during a match the command says how to finish it first; the ledger runs on
across the switches, and the records of each game hold only that game's deals."""

from __future__ import annotations

import random

from bot.i18n import Translator
from games.bridge.game import BridgeState
from games.preferans.deal import DealState
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, data_of, seat_four
from tests.bot.test_preferans_table import _offer, sit_all
from tests.bot.test_records_privacy import _choose
from tests.fakeapi import User

RU = Translator("ru")


async def _status(h: Harness) -> tuple[str, str]:
    assert h.app is not None
    table = await h.app.bot_data["storage"].get_table(1)
    return table.game, table.status.value


async def _end_by_all(h: Harness, users: list[object]) -> None:
    for user in users:
        await h.say(user, GROUP, "/end")  # type: ignore[arg-type]
    await h.settle()


async def test_a_rubber_a_pulka_and_a_rubber_at_one_table(h: Harness) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(6))
    group = h.api.chat_messages
    await driver.play_until(lambda: any("Сдача 1</b>:" in m.text for m in group(GROUP)))
    # During the rubber: the other game's command says how to finish first; nothing changes.
    await h.say(PLAYERS[0], GROUP, "/preferans")
    assert h.api.chat_messages(GROUP)[-1].text == RU("refusal.switch_mid_match")
    assert await _status(h) == ("bridge", "playing")
    await _end_by_all(h, PLAYERS)
    assert (await _status(h))[1] == "open"

    # Between matches: the table becomes a Preferans table once every seated person has
    # asked (Dima's fourth seat is no more); until then it waits, and says how many agree.
    for agreed, user in enumerate(PLAYERS[1:], start=1):
        await h.say(user, GROUP, "/preferans")
        if agreed < 4:
            asked = RU("table.switch_asked", game=RU("game.preferans"), agreed=agreed, of=4)
            assert f"{asked} /preferans" in [m.text for m in h.api.chat_messages(GROUP)[-2:]]
            assert await _status(h) == ("bridge", "open")
    await h.say(PLAYERS[0], GROUP, "/preferans")
    told = [m.text for m in h.api.chat_messages(GROUP)[-3:]]
    assert any(RU("table.switched", game=RU("game.preferans")) in m for m in told), told
    assert any("Dima" in m and RU("table.switched_stood", names="Dima", seats=3) in m for m in told)
    # Three kept their seats, all a pulka needs: it starts, as when the last one sits down.
    assert await _status(h) == ("preferans", "playing")
    players = PLAYERS[:3]
    assert h.app is not None
    service = h.app.bot_data["service"]
    first = service._live[1].deal_no
    for _ in range(300):  # one deal of the pulka, pressing offered buttons
        state = service._live[1].state
        if service._live[1].deal_no != first:
            break
        offer = _offer(h, players)
        assert offer is not None and isinstance(state, DealState)
        user, sent, data = offer
        assert not (await h.press(user, sent, _choose(state, data, random.Random(1)))).get("text")
        await h.settle()
    assert service._live[1].deal_no == first + 1
    await _end_by_all(h, players)
    assert await _status(h) == ("preferans", "open")

    # And back to bridge: three seats kept, Dima sits again, a rubber starts.
    for user in players:
        await h.say(user, GROUP, "/bridge")
    assert await _status(h) == ("bridge", "open")
    table = next(m for m in reversed(h.api.chat_messages(GROUP)) if ":sit:" in str(m.buttons()))
    assert not (await h.press(PLAYERS[3], table, data_of(table, ":sit:W"))).get("text")
    await h.settle()
    assert await _status(h) == ("bridge", "playing")
    assert isinstance(service._live[1].state, BridgeState)
    assert [h.name for _, h in sorted(service._live[1].holders.items())] == [
        u.first_name for u in PLAYERS
    ]

    # The ledger ran on: the rubber in points, the pulka in whists, one history of both.
    assert h.app is not None
    storage = h.app.bot_data["storage"]
    chat = await storage.chat_by_tg(GROUP)
    matches = await storage.matches(chat.id, 10)
    assert [m.game for m in sorted(matches, key=lambda m: m.id)] == ["bridge", "preferans"]
    accounts = await storage.accounts(chat.id)
    assert set(accounts) >= {"points", "whists"}
    # /pbn (bridge) reads only bridge's deals: the pulka's are not replayed as bridge.
    await h.say(PLAYERS[0], GROUP, "/pbn 0000-01-01 9999-12-31")
    last = h.api.chat_messages(GROUP)[-1]
    assert last.kind == "document" and last.upload is not None
    # The first rubber's deal 1 (finished) and deal 2 (abandoned by /end); not the pulka's,
    # not the new rubber's deal under way.
    assert last.upload.data.decode().count('[Deal "') == 2


async def test_only_the_seated_together_or_an_admin_switch_the_game(h: Harness) -> None:
    """A member who neither sits at the table nor administers the group cannot switch its
    game between matches (the switch would stand the fourth player up): they get the reason
    and nothing changes. An admin can, at once."""
    await seat_four(h)
    await _end_by_all(h, PLAYERS)
    assert await _status(h) == ("bridge", "open")
    stranger = User(777, "Zed", "ru")
    await h.say(stranger, GROUP, "/preferans")
    assert RU("refusal.switch_not_seated") in [m.text for m in h.api.chat_messages(GROUP)[-2:]]
    assert await _status(h) == ("bridge", "open")
    assert h.app is not None
    holders = h.app.bot_data["service"]._live[1].holders
    assert len(holders) == 4  # nobody was stood up
    h.api.admins.add(stranger.id)
    await h.say(stranger, GROUP, "/preferans")
    await h.settle()
    assert await _status(h) == ("preferans", "playing")  # three kept seats: a pulka starts


def _data(button: dict[str, str]) -> str:
    return button.get("callback_data", "")


async def test_a_setting_that_would_stand_a_player_up_is_the_admins(h: Harness) -> None:
    """Four at a Preferans table between pulkas: a seated player's "three players" would
    stand the fourth up, so it is refused and nobody moves; an admin's stands them up."""
    users = PLAYERS
    for user in users:
        await h.say(user, user.id, "/start")
    await h.say(users[0], GROUP, "/preferans")
    h.api.admins.add(users[0].id)
    await h.say(users[0], GROUP, "/settings")
    screen = h.api.chat_messages(GROUP)[-1]
    four = next(d for d in map(_data, screen.buttons()) if d.endswith("players=4"))
    await h.press(users[0], screen, four)
    await sit_all(h, users)
    await _end_by_all(h, users)
    assert await _status(h) == ("preferans", "open")
    await h.say(users[1], GROUP, "/settings")
    screen = h.api.chat_messages(GROUP)[-1]
    three = next(d for d in map(_data, screen.buttons()) if d.endswith("players=3"))
    answer = await h.press(users[1], screen, three)  # Bob: seated, not an admin
    assert answer.get("text") == Translator("en")("refusal.settings_unseat"), answer
    assert h.app is not None
    service = h.app.bot_data["service"]
    assert len(service._live[1].holders) == 4
    saved = await h.press(users[0], screen, three)  # Anna, an admin: the fourth stands up
    assert saved.get("text") == Translator("ru")("settings.saved"), saved
    assert sorted(service._live[1].holders) == [0, 1, 2]
    assert sorted((await h.app.bot_data["storage"].get_table(1)).seats) == [0, 1, 2]
