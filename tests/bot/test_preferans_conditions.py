"""A group's conditions at the table (PREFERANS.md §8), through the fake Bot API and a real
SQLite file: set in /settings by buttons and typed, refused when they do not read, shown on the
table's header and in full on /score, fixed while a pulka is on, and played: a Stalingrad pulka
(6♠ whisted by both without asking) and a Sochi pulka with raspasy 1-2-4 and the exit 6-7-8,
each across a restart, settled in the ledger as an independent replay of the stored logs says."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.tables import Snapshot, TableService
from games.core.registry import find_game
from games.preferans.deal import DealState, Kind, Phase
from games.preferans.game import write
from games.preferans.pulka import Pulka
from storage.events import replay
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, Harness
from tests.bot.test_preferans_table import _offer, sit_all
from tests.bot.test_settings_choices import row_of, ticked
from tests.fakeapi import FakeBotApi, Sent, User

WHISTS = "whists"  # the unit the game names (storage names none)

PLAYERS = [User(601, "Аня", "ru", "anya"), User(602, "Боря", "ru"), User(603, "Вика", "ru")]
GROUP_ID = 1  # the group's own id in storage (its Telegram id is GROUP)
ANNA, BORYA, VIKA = PLAYERS
STRANGER = User(699, "Гость", "ru")
OVER = "Пуля закрыта"


async def settings_message(h: Harness, user: User = ANNA) -> Sent:
    await h.say(user, GROUP, "/settings")
    return h.api.chat_messages(GROUP)[-1]


async def press_setting(h: Harness, user: User, sent: Sent, value: str) -> str:
    data = next(b["callback_data"] for b in sent.buttons() if b["callback_data"].endswith(value))
    return str((await h.press(user, sent, data)).get("text", ""))


async def test_conditions_set_by_buttons_and_typed_and_shown(
    api: FakeBotApi, tmp_path: Path
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"))
    await h.start()
    try:
        for user in PLAYERS:
            await h.say(user, user.id, "/start")
        await h.say(ANNA, GROUP, "/preferans")
        await sit_all(h, PLAYERS[:1])  # Аня sits: she may change the table's settings
        sent = await settings_message(h)
        assert ticked(row_of(sent, "exit")) == ["exit=6-6-6"]
        assert ticked(row_of(sent, "progression")) == ["progression=1-2-3"]
        assert "жлобский вист" in sent.text and "выход из распасов 6-6-6" in sent.text
        # A press sets the value it names, and the ✓ moves on the same message.
        assert await press_setting(h, ANNA, sent, "exit=6-7-8") == "Сохранено."
        await h.settle()
        edited = next(m for m in h.api.chat_messages(GROUP) if m.message_id == sent.message_id)
        assert ticked(row_of(edited, "exit")) == ["exit=6-7-8"]
        # Typed, in the words a club uses.
        for typed in ("/settings распасы 1-2-4", "/settings вистующий джентльменский",
                      "/settings обязательный 6♠+10", "/settings полвиста нет"):  # fmt: skip
            await h.say(ANNA, GROUP, typed)
        shown = h.api.chat_messages(GROUP)[-1]
        assert ticked(row_of(shown, "progression")) == ["progression=1-2-4"]
        assert ticked(row_of(shown, "one_whister")) == ["one_whister=gentleman"]
        assert ticked(row_of(shown, "compulsory")) == ["compulsory=6S+10"]
        assert ticked(row_of(shown, "half_whist")) == ["half_whist=off"]
        # What does not read is refused in the table's words, and nothing changes.
        before = (await service_of(h).snapshot(1)).settings
        for typed, words in (("/settings выход 9-9-9", "/settings выход 6-6-6"),
                             ("/settings распасы 1-3-9", "/settings распасы 1-2-3")):  # fmt: skip
            await h.say(ANNA, GROUP, typed)
            assert words in h.api.chat_messages(GROUP)[-1].text
        assert (await service_of(h).snapshot(1)).settings == before
        # Someone neither seated nor an admin cannot change them.
        await h.say(STRANGER, GROUP, "/settings выход 7-7-7")
        assert (await service_of(h).snapshot(1)).settings == before
        # The table's header names the switches that differ from the preset, in one line.
        await h.settle()  # the seating message is edited to the settings
        header = next(
            m for m in reversed(h.api.chat_messages(GROUP)) if ":sit:" in str(m.buttons())
        )
        line = next(x for x in header.text.splitlines() if x.startswith("Условия:"))
        for part in ("джентльменский вист", "без полвиста", "6♠ и десятерные", "распасы 1-2-4",
                     "выход из распасов 6-7-8"):  # fmt: skip
            assert part in line, line
        assert "жлобский" not in line and "выбирает" not in line  # the preset's, not named
        # A preset is a whole set of conditions: choosing one clears the switches; Rostov has
        # no raspasy multiplier to offer.
        sent = await settings_message(h)
        assert await press_setting(h, ANNA, sent, "variant=rostov") == "Сохранено."
        sent = await settings_message(h)
        assert ticked(row_of(sent, "exit")) == ["exit=6-6-6"]
        assert not [r for r in row_of_all(sent) if r.startswith("progression=")]
        await h.say(ANNA, GROUP, "/settings распасы 1-2-4")
        assert "ростовском" in h.api.chat_messages(GROUP)[-1].text
        # Stalingrad shows its own preset's values ticked.
        assert await press_setting(h, ANNA, sent, "variant=stalingrad") == "Сохранено."
        sent = await settings_message(h)
        assert ticked(row_of(sent, "compulsory")) == ["compulsory=6S"]
        assert ticked(row_of(sent, "half_whist")) == ["half_whist=off"]
    finally:
        await h.stop()


def row_of_all(sent: Sent) -> list[str]:
    return [b["callback_data"].rsplit(":", 1)[-1] for b in sent.buttons()]


def service_of(h: Harness) -> TableService:
    assert h.app is not None
    service: TableService = h.app.bot_data["service"]
    return service


Steer = Callable[[int, DealState, list[str], random.Random], str]


@dataclass(frozen=True)
class Place:
    """Where a pulka is played: its table, chat and forum topic, and the three who play it."""

    table_id: int = 1
    chat: int = GROUP
    thread: int | None = None
    users: tuple[User, ...] = tuple(PLAYERS)

    def messages(self, h: Harness) -> list[Sent]:
        return [m for m in h.api.chat_messages(self.chat) if m.thread_id == self.thread]


async def play_pulka(
    h: Harness, steer: Steer, restart_in: int, seen: list[Snapshot], place: Place
) -> None:
    """The players press what ``steer`` picks until the pulka closes; the bot is killed and
    started again in the middle of deal ``restart_in``'s play. ``seen`` gets a snapshot at the
    start of each deal."""
    rng = random.Random(restart_in)
    restarted = False
    dealt: set[int] = set()
    presses = 0
    while not any(OVER in m.text for m in place.messages(h)[-4:]):
        snap = await service_of(h).snapshot(place.table_id)
        state = snap.state
        assert isinstance(state, DealState)
        deal = snap.deal_in_match(snap.deal_no)
        if deal not in dealt:
            dealt.add(deal)
            seen.append(snap)
        found = _offer(h, list(place.users))
        assert found is not None, [m.text for m in place.messages(h)[-3:]]
        user, sent, data = found
        answer = await h.press(user, sent, steer(deal, state, data, rng))
        assert not answer.get("text"), answer
        presses += 1
        if (
            deal == restart_in
            and not restarted
            and state.phase is Phase.PLAY
            and len(state.tricks) > 4
        ):
            restarted = True
            before = (await service_of(h).snapshot(place.table_id)).state
            await h.crash()
            await h.start()
            await h.settle()
            after = (await service_of(h).snapshot(place.table_id)).state
            assert isinstance(before, DealState) and isinstance(after, DealState)
            assert (after.conditions, after.floor) == (before.conditions, before.floor)
            assert after.history == before.history
        assert presses < 600
    await h.settle()
    assert restarted


async def sit_here(h: Harness, place: Place) -> None:
    """Each of the place's users presses their seat's Sit button on its newest seating."""
    for seat, user in enumerate(place.users):
        seating = next(m for m in reversed(place.messages(h)) if ":sit:" in str(m.buttons()))
        sit = next(
            b["callback_data"]
            for b in seating.buttons()
            if b["callback_data"].endswith(f":sit:{seat}")
        )
        assert not (await h.press(user, seating, sit)).get("text")


def pick(data: list[str], rng: random.Random, bid: str | None) -> str:
    """The press: ``bid`` for the first caller (others pass; None: all pass), the lowest game
    named, both defenders pass if asked, the first discard, cards at random."""
    actions = [d for d in data if ":a:" in d]
    if not actions:  # a card for the discard
        return max(data, key=lambda d: d.count("."))
    for kind in (":a:drop.", ":a:name."):
        found = [d for d in actions if kind in d]
        if found:
            return found[0]
    bids = [d for d in actions if ":a:bid." in d]
    if bids:
        wanted = [d for d in bids if bid is not None and d.endswith(f"bid.{bid}")]
        return wanted[0] if wanted else next(d for d in bids if d.endswith("bid.P"))
    words = [d for d in actions if d.endswith(":a:whist.pass")]
    if words:
        return words[0]
    claims = [d for d in actions if ":a:claim." in d or ":a:answer." in d]
    return rng.choice([d for d in actions if d not in claims] or actions)


async def test_a_stalingrad_pulka_and_a_sochi_pulka_with_1_2_4_and_exit_6_7_8(
    api: FakeBotApi, tmp_path: Path
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=5)
    await h.start()
    try:
        for user in PLAYERS:
            await h.say(user, user.id, "/start")
        h.api.admins.add(ANNA.id)
        await two_pulkas(h, Place())
    finally:
        if h.app is not None:
            await h.stop()
    expected = await pulkas_settled(h.database, GROUP_ID, 1)
    store = await SqliteStorage.open(h.database)
    try:
        assert await store.balances(GROUP_ID, WHISTS) == expected
    finally:
        await store.close()


async def two_pulkas(h: Harness, place: Place) -> None:
    """At ``place``'s table (opened here): a Stalingrad pulka to 2, then, by consent, a Sochi
    pulka to 2 with raspasy 1-2-4 and the exit 6-7-8; each across a restart. The first of the
    users is a group admin."""
    anna, borya, vika = place.users
    chat, thread = place.chat, place.thread

    async def say(user: User, text: str) -> Sent:
        await h.say(user, chat, text, thread)
        return place.messages(h)[-1]

    await say(anna, "/preferans")
    for typed in ("/settings вариант сталинград", "/settings пуля 2"):
        await say(anna, typed)
    await sit_here(h, place)
    # While a pulka is on, its conditions are fixed: a change is refused, nothing changes.
    before = (await service_of(h).snapshot(place.table_id)).settings
    assert "только между пулями" in (await say(anna, "/settings выход 7-7-7")).text
    assert (await service_of(h).snapshot(place.table_id)).settings == before

    # Stalingrad: deal 1 a 6♠ that nobody is asked to whist; then tens nobody whists.
    whist_asked: list[str] = []

    def stalingrad(deal: int, state: DealState, data: list[str], rng: random.Random) -> str:
        whist_asked.extend(d for d in data if ":a:whist." in d and deal == 1)
        return pick(data, rng, "6S" if deal == 1 else "10NT")

    seen: list[Snapshot] = []
    await play_pulka(h, stalingrad, 1, seen, place)
    assert not whist_asked  # compulsory whist: nobody was asked
    first = await service_of(h).snapshot(place.table_id)
    table = place.messages(h)
    assert any("Вист обязателен" in text for m in table for _, text in m.history)

    # Between pulkas the seated players set the next one's conditions, then all agree.
    await say(borya, "/settings вариант сочи")
    for typed in ("/settings распасы 1-2-4", "/settings выход 6-7-8"):
        await say(vika, typed)
    result = next(m for m in reversed(place.messages(h)) if OVER in m.text)
    again = next(b["callback_data"] for b in result.buttons() if b["callback_data"].endswith(":nr"))
    for user in place.users:
        await h.press(user, result, again)
    await h.settle()
    assert (await service_of(h).snapshot(place.table_id)).first_deal != first.first_deal

    # Sochi 1-2-4, exit 6-7-8: three raspasy (×1, ×2, ×4), the third bid from 7♠ at least;
    # then a ten, bid from 8♠ at least.
    floors: dict[int, set[str]] = {}

    def sochi(deal: int, state: DealState, data: list[str], rng: random.Random) -> str:
        levels = {d.rsplit("bid.", 1)[1] for d in data if ":a:bid." in d}
        floors.setdefault(deal, set()).update(levels)
        return pick(data, rng, None if deal <= 3 else "10NT")

    seen = []
    await play_pulka(h, sochi, 3, seen, place)
    assert [s.state.floor for s in seen if isinstance(s.state, DealState)][:4] == [6, 6, 7, 8]
    assert not any(b.startswith("6") for b in floors[3]) and "7S" in floors[3]
    assert "MIS" in floors[3] and "P" in floors[3]  # misère and pass stay legal
    assert not any(b[0] in "67" for b in floors[4])
    group = place.messages(h)
    assert any("торговля с 7♠" in text for m in group for _, text in m.history)
    assert any("×4" in m.text for m in group), "the third raspasy's ×4"
    h.api.rich_refused = True  # /score's lines as text (its table: tests/bot/test_rich.py)
    score = await say(anna, "/score")
    await h.settle()
    score = next(m for m in reversed(place.messages(h)) if "<pre>" in m.text)
    rules = next(x for x in score.text.splitlines() if x.startswith("Условия:"))
    for part in (
        "жлобский вист",
        "с полвистом",
        "обязательного виста нет",
        "распасы 1-2-4",
        "выход из распасов 6-7-8",
    ):  # fmt: skip  (every switch, on /score)
        assert part in rules, rules


async def pulkas_settled(database: str, chat_id: int, table_id: int) -> dict[int, int]:
    """Each player's whists from the table's pulkas, computed anew from the stored logs: each
    deal replayed, written on a fresh pulka of the conditions the match was written with."""
    store = await SqliteStorage.open(database)
    try:
        matches = [m for m in await store.matches(chat_id) if m.table_id == table_id]
        assert len(matches) == 2
        expected: dict[int, int] = {}
        kinds = []
        for match in matches:
            options = match.options
            switches = {
                k: v for k, v in options.items() if k not in ("variant", "target", "players")
            }
            independent = Pulka(3, int(options["target"]), str(options["variant"]), switches)
            for deal in await store.deals(match.id):
                state = replay(
                    find_game("preferans"), 3, await store.events(table_id, deal.deal_no)
                )
                assert isinstance(state, DealState) and state.result is not None
                kinds.append((str(options["variant"]), state.result.kind))
                write(independent, state.result, state.deal.dealer)
            assert independent.finished
            for seat, amount in enumerate(independent.whole()):
                expected[match.seats[seat]] = expected.get(match.seats[seat], 0) + amount
        assert ("stalingrad", Kind.GAME) in kinds and kinds.count(("sochi", Kind.RASPASY)) == 3
        return expected
    finally:
        await store.close()
