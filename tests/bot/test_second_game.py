"""A second game plugs in with its rules package, its UI package and one registration each:
the toy game (tests/toy) is played end to end through the real bot, a restart included, and its
match lands in the group's ledger, with no edit to the table service, storage or the outbox."""

from __future__ import annotations

from pathlib import Path

from bot.plugins import PLUGINS
from games.core.registry import games, register
from storage.events import replay
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, Harness
from tests.fakeapi import FakeBotApi, Sent, User
from tests.toy.game import TOY, ToyState
from tests.toy.ui import TOY_PLUGIN

ANN, BEN = User(301, "Ann", "en", "ann"), User(302, "Ben", "en", "ben")


def _register() -> None:
    if "toy" not in {g.name for g in games()}:
        register(TOY)


def _to_press(h: Harness) -> tuple[User, Sent, str] | None:
    for user in (ANN, BEN):
        for sent in reversed(h.api.chat_messages(user.id)):
            data = [b["callback_data"] for b in sent.buttons() if ":a:lay." in b["callback_data"]]
            if data:
                return user, sent, data[0]
    return None


def _over(h: Harness) -> bool:
    return any("Toy match over" in m.text for m in h.api.chat_messages(GROUP))


async def test_the_toy_game_is_played_through_the_bot(api: FakeBotApi, tmp_path: Path) -> None:
    _register()
    h = Harness(api, str(tmp_path / "bot.sqlite3"), plugins=(*PLUGINS, TOY_PLUGIN))
    await h.start()
    try:
        for user in (ANN, BEN):
            await h.say(user, user.id, "/start")
        await h.say(ANN, GROUP, "/toy")
        for user, code in ((ANN, "0"), (BEN, "1")):
            seating = next(m for m in reversed(h.api.chat_messages(GROUP)) if "Toy table" in m.text)
            sit = next(
                b["callback_data"]
                for b in seating.buttons()
                if b["callback_data"].endswith(f":sit:{code}")
            )
            assert not (await h.press(user, seating, sit)).get("text")
        presses = 0
        while not _over(h):
            found = _to_press(h)
            assert found is not None, "nobody has a card to lay"
            user, sent, data = found
            other = BEN if user is ANN else ANN
            refused = await h.press(other, sent, data)  # a stranger's press of it changes nothing
            assert refused.get("text")
            assert not (await h.press(user, sent, data)).get("text")
            assert (await h.press(user, sent, data)).get("text")  # a double tap is refused
            presses += 1
            if presses == 3:  # a restart mid-deal: the deal goes on from its log
                await h.crash()
                await h.start()
                await h.settle()
            assert presses < 200
        await h.settle()
    finally:
        if h.app is not None:
            await h.stop()
    store = await SqliteStorage.open(h.database)
    try:
        table = await store.get_table(1)
        assert table.game == "toy"
        chat = await store.chat_by_tg(GROUP)
        assert chat is not None
        [match] = await store.matches(chat.id)
        assert match.game == "toy"
        # Independently: every deal of the match replayed through the toy rules.
        score = [0, 0]
        for deal in await store.deals(match.id):
            state = replay(TOY, 2, await store.events(table.id, deal.deal_no))
            assert isinstance(state, ToyState) and state.finished
            score = [score[0] + state.taken[0], score[1] + state.taken[1]]
        assert abs(score[0] - score[1]) >= 3 and match.result == {"score": score}
        ann = await store.player_by_tg(ANN.id)
        ben = await store.player_by_tg(BEN.id)
        assert ann is not None and ben is not None
        diff = score[0] - score[1]
        assert await store.balances(chat.id) == {ann.id: diff, ben.id: -diff}
    finally:
        await store.close()
