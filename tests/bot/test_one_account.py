"""One person, one account: a plain name on a sheet kept by hand that is one of the group's
people is that person (not a guest of the same name, whose whists or points would split the
person's money in two); a name two people answer to is asked about; any other is a guest."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import Translator
from bot.ledger import LedgerService
from bot.tables import TableService
from storage.interface import Player, Storage
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.bot.test_preferans_table import sit_all
from tests.fakeapi import FakeBotApi, User


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


async def test_the_money_views_never_show_two_accounts_under_one_name(tmp_path: Path) -> None:
    """A guest is marked as one, and two accounts that would read alike are told apart."""
    storage = await SqliteStorage.open(str(tmp_path / "names.sqlite3"))
    try:
        chat = await storage.ensure_chat(-7, "Club", "ru")
        anya = await storage.ensure_player(1, "Аня", "ru")
        guest = await storage.add_guest(chat.id, "Аня")
        borya = await storage.add_guest(chat.id, "Боря")
        other = await storage.ensure_player(2, "аня", "ru")
        names = await LedgerService(storage).names(
            [anya.id, guest.id, borya.id], Translator("ru")("ledger.guest")
        )
        assert names == {anya.id: "Аня", guest.id: "Аня (гость)", borya.id: "Боря (гость)"}
        alike = await LedgerService(storage).names([anya.id, other.id])
        assert len(set(alike.values())) == 2 and alike[anya.id] == f"Аня #{anya.id}"
    finally:
        await storage.close()


async def test_an_admin_merges_a_guest_into_a_member(h: Harness) -> None:
    h.api.rich_refused = True  # the ledger's lines as text (its table: tests/bot/test_rich.py)
    await seat_four(h)
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    guest = await storage.add_guest(chat.id, "Аня")  # a sheet kept before Anna met the bot
    bob = await storage.player_by_tg(PLAYERS[1].id)
    anna = await storage.player_by_tg(PLAYERS[0].id)
    assert bob is not None and anna is not None
    await storage.record_payment(chat.id, guest.id, bob.id, 300, "cash", unit="points")
    t = Translator("ru")
    await h.say(PLAYERS[1], GROUP, "/merge Аня @anna")  # not an admin: nothing moves
    assert h.api.chat_messages(GROUP)[-1].text == t("refusal.group_admins")
    h.api.admins.add(PLAYERS[1].id)
    for wrong in ("/merge Аня", "/merge Кто-то @anna"):
        await h.say(PLAYERS[1], GROUP, wrong)
    assert (await storage.balances(chat.id, "points")).get(guest.id) == 300
    await h.say(PLAYERS[1], GROUP, "/merge аня @anna")
    done = h.api.chat_messages(GROUP)[-1].text
    assert "Аня" in done and "Anna" in done, done
    balances = await storage.balances(chat.id, "points")
    assert balances.get(guest.id, 0) == 0 and balances[anna.id] == 300
    await h.say(PLAYERS[1], GROUP, "/ledger")
    ledger = h.api.chat_messages(GROUP)[-1].text
    assert "Anna: +300" in ledger and "Аня (гость): 0" in ledger, ledger


async def test_a_name_two_people_answer_to_is_asked_about_with_buttons(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """Two of the group's people are called Аня: /prefkeep Аня … asks its typist which one (or
    a guest of that name), with a button each; only the typist answers, once, and the sheet
    then seats the person meant."""
    petrova, sidorova = User(801, "Аня Петрова", "ru"), User(802, "Аня Сидорова", "ru")
    borya = User(803, "Боря", "ru", "borya")
    h = Harness(api, str(tmp_path / "bot.sqlite3"))
    await h.start()
    try:
        for user in (petrova, sidorova, borya):
            await h.say(user, user.id, "/start")
        await h.say(borya, GROUP, "/preferans")
        await sit_all(h, [petrova, sidorova])  # both play at the group's table
        await h.say(borya, GROUP, "/prefkeep Аня Боря Вика")
        question = h.api.chat_messages(GROUP)[-1]
        assert "«Аня» — так зовут нескольких" in question.text, question.text
        labels = [b["text"] for b in question.buttons()]
        assert labels == ["Аня Петрова", "Аня Сидорова", "Другой игрок: гость «Аня»"]
        meant = next(b["callback_data"] for b in question.buttons() if b["text"] == labels[1])
        refused = await h.press(petrova, question, meant)  # not hers to answer
        assert refused.get("text") == "Это вопрос тому, кто набрал команду."
        assert not (await h.press(borya, question, meant)).get("text")
        await h.settle()
        assert (await h.press(borya, question, meant)).get("text")  # answered already
        assert any("«Аня» — это Аня Сидорова." in m.text for m in h.api.chat_messages(GROUP))
        first = await seated_on_sheet(h, 0)
        assert first.tg_user_id == sidorova.id  # the person meant, not a guest
        # A guest of that name, when the typist says so.
        await h.say(borya, GROUP, "/prefkeep конец")
        await h.say(borya, GROUP, "/prefkeep Боря Аня Вика")
        question = h.api.chat_messages(GROUP)[-1]
        guest = next(b["callback_data"] for b in question.buttons() if "гость" in b["text"])
        assert not (await h.press(borya, question, guest)).get("text")
        await h.settle()
        second = await seated_on_sheet(h, 1)
        assert second.tg_user_id is None and second.name == "Аня"
    finally:
        await h.stop()


async def test_people_at_a_table_in_a_forum_topic_are_the_groups_people_too(
    api: FakeBotApi, tmp_path: Path
) -> None:
    anya, borya = User(811, "Аня", "ru"), User(812, "Боря", "ru")
    h = Harness(api, str(tmp_path / "bot.sqlite3"))
    await h.start()
    try:
        for user in (anya, borya):
            await h.say(user, user.id, "/start")
        await h.say(anya, GROUP, "/preferans", 55)  # the Preferans table is in topic 55
        seating = next(
            m for m in reversed(h.api.chat_messages(GROUP)) if ":sit:" in str(m.buttons())
        )
        sit = next(
            b["callback_data"] for b in seating.buttons() if b["callback_data"].endswith(":sit:0")
        )
        assert not (await h.press(anya, seating, sit)).get("text")
        await h.say(borya, GROUP, "/prefkeep Аня Боря Вика")  # in the group's main chat
        await h.settle()
        first = await seated_on_sheet(h, 0)
        assert first.tg_user_id == anya.id  # the person at the topic's table, not a guest
    finally:
        await h.stop()


async def seated_on_sheet(h: Harness, seat: int) -> Player:
    """Who sits at ``seat`` of the group's open sheet."""
    assert h.app is not None
    storage: Storage = h.app.bot_data["storage"]
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    sheet = await storage.table_in(chat.id, None, True)
    assert sheet is not None
    return await storage.get_player(sheet.seats[seat])
