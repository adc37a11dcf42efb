"""One person, one account: a plain name on a sheet kept by hand that is one of the group's
people is that person (not a guest of the same name, whose whists or points would split the
person's money in two); any other name is a guest."""

from __future__ import annotations

from bot.tables import TableService
from storage.interface import Storage
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four


async def test_a_plain_name_of_someone_at_the_groups_table_is_that_person(h: Harness) -> None:
    await seat_four(h)  # Anna, Bob, Cat and Dima play here online
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    service: TableService = h.app.bot_data["service"]
    online = await service.snapshot(1)
    await service.end_by_admin(1)  # the rubber stopped: the four still sit at the table
    ids = {}
    for user in PLAYERS:
        found = await storage.player_by_tg(user.id)
        assert found is not None
        ids[user.first_name] = found.id
    await h.say(PLAYERS[0], GROUP, "/prefkeep anna Bob Кто-то")  # any case; one stranger
    await h.settle()
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    sheet = await storage.table_in(chat.id, None, True)
    assert sheet is not None and sheet.id != online.table_id
    seated = {seat: await storage.get_player(pid) for seat, pid in sheet.seats.items()}
    assert seated[0].id == ids["Anna"] and seated[1].id == ids["Bob"]  # the people themselves
    assert seated[2].tg_user_id is None and seated[2].name == "Кто-то"  # a guest
