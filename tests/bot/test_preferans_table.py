"""Preferans through the real bot: three players seat themselves, deals are bid, the talon taken,
the discard chosen and confirmed, whisted and played by pressing only offered buttons, a restart
in the middle changes nothing, and the pulka the bot keeps equals an independent replay of the
deals' logs through games.preferans."""

from __future__ import annotations

import random
from pathlib import Path

from bot.callback_data import Act, Button
from bot.i18n import Translator
from bot.tables import TableService
from games.core.registry import find_game
from games.preferans.cards import PACK
from games.preferans.deal import DealState, Phase
from games.preferans.game import PulkaMatch, write
from games.preferans.pulka import Pulka
from storage.events import replay
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, Harness
from tests.fakeapi import FakeBotApi, Sent, User

PLAYERS = [User(401, "Аня", "ru", "anya"), User(402, "Bob", "en", "bob"), User(403, "Вика", "ru")]


def _offer(h: Harness, players: list[User] = PLAYERS) -> tuple[User, Sent, list[str]] | None:
    """A player whose newest screen offers buttons (actions, or the discard's choice), where
    the harness reads the screens (private chats, or the group's ephemeral messages)."""
    for user in players:
        for sent in reversed(h.screens(user)):
            data = [
                b["callback_data"]
                for b in sent.buttons()
                if ":a:" in b["callback_data"] or ":mn:" in b["callback_data"]
            ]
            if data:
                return user, sent, data
    return None


async def sit_all(h: Harness, players: list[User]) -> None:
    """Each player presses their seat's Sit button on the newest seating message, in order."""
    for seat, user in enumerate(players):
        seating = next(
            m for m in reversed(h.api.chat_messages(GROUP)) if ":sit:" in str(m.buttons())
        )
        sit = next(
            b["callback_data"]
            for b in seating.buttons()
            if b["callback_data"].endswith(f":sit:{seat}")
        )
        assert not (await h.press(user, seating, sit)).get("text")


async def seated(h: Harness) -> TableService:
    """The three players met the bot, opened a table in the group and sat down."""
    for user in PLAYERS:
        await h.say(user, user.id, "/start")
    await h.say(PLAYERS[0], GROUP, "/preferans")
    await sit_all(h, PLAYERS)
    assert h.app is not None
    service: TableService = h.app.bot_data["service"]
    return service


def _choose(rng: random.Random, data: list[str]) -> str:
    actions = [d for d in data if ":a:" in d]
    drop = [d for d in actions if ":a:drop." in d]
    if drop:
        return drop[0]
    if not actions:
        return rng.choice(data)  # pick a card for the discard
    bids = [d for d in actions if ":a:bid." in d]
    if bids:
        passes = [d for d in bids if d.endswith("bid.P")]
        others = [d for d in bids if d not in passes]
        if others and rng.random() < 0.35:
            return rng.choice(others[:3])
        return passes[0] if passes else rng.choice(bids)
    return rng.choice(actions)


def _deals_done(h: Harness) -> int:
    return sum(
        1
        for m in h.api.chat_messages(GROUP)
        if m.text.startswith("<b>Сдача ") and "🃏" not in m.text
    )


async def test_three_players_play_preferans_deals_through_the_bot(
    api: FakeBotApi, tmp_path: Path
) -> None:
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=11)
    await h.start()
    rng = random.Random(5)
    try:
        for user in PLAYERS:
            await h.say(user, user.id, "/start")
        await h.say(PLAYERS[0], GROUP, "/preferans")
        await sit_all(h, PLAYERS)
        presses, restarted = 0, False
        while _deals_done(h) < 4:
            found = _offer(h)
            assert found is not None, "nobody has a button to press"
            user, sent, data = found
            # A private screen names its group: a player at two groups' tables tells them apart.
            group = Translator(user.language_code)("pref.private.group", chat="Club")
            assert group in sent.text, sent.text
            choice = _choose(rng, data)
            if presses % 7 == 0:  # another player's press of it is refused, changing nothing
                other = PLAYERS[(PLAYERS.index(user) + 1) % 3]
                assert (await h.press(other, sent, choice)).get("text")
            answer = await h.press(user, sent, choice)
            assert not answer.get("text"), (answer, choice)
            if ":a:" in choice:  # a double tap is refused
                assert (await h.press(user, sent, choice)).get("text")
            presses += 1
            if not restarted and ":mn:" in choice:  # a restart half-way through a discard
                restarted = True
                await h.crash()
                await h.start()
                await h.settle()
            assert presses < 2000
        await h.settle()
        assert restarted
        assert h.app is not None
        service: TableService = h.app.bot_data["service"]
        snap = await service.snapshot(1)
        match = snap.match
        assert isinstance(match, PulkaMatch)
        kept = match.pulka.state()
    finally:
        if h.app is not None:
            await h.stop()
    store = await SqliteStorage.open(h.database)
    try:
        table = await store.get_table(1)
        assert table.game == "preferans" and table.match_id is not None
        independent = Pulka(players=3, target=10, variant="sochi")
        for deal in await store.deals(table.match_id):
            if deal.result is None:
                continue
            state = replay(find_game("preferans"), 3, await store.events(1, deal.deal_no))
            assert isinstance(state, DealState) and state.result is not None
            write(independent, state.result, state.deal.dealer)
        assert independent.state() == kept
    finally:
        await store.close()


FOUR = [*PLAYERS, User(404, "Дима", "ru", "dima")]


async def test_four_players_the_dealer_sits_out_and_restarts_in_every_phase_change_nothing(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """With four, each deal's dealer sits it out (no hand, no buttons); a restart in each phase
    (auction, discard, contract, whisting, play) finishes the deal as if nothing happened."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=3)
    await h.start()
    rng = random.Random(9)
    phases_restarted: set[str] = set()
    try:
        for user in FOUR:
            await h.say(user, user.id, "/start")
        await h.say(FOUR[0], GROUP, "/pref")
        h.api.admins.add(FOUR[0].id)  # a group admin sets the table for four
        await h.say(FOUR[0], GROUP, "/settings")
        settings = next(
            m for m in reversed(h.api.chat_messages(GROUP)) if "players=4" in str(m.buttons())
        )
        switch = next(
            b["callback_data"]
            for b in settings.buttons()
            if b["callback_data"].endswith("players=4")
        )
        assert (await h.press(FOUR[0], settings, switch)).get("text") in ("Сохранено.", "Saved.")
        seating = next(
            m for m in reversed(h.api.chat_messages(GROUP)) if ":sit:" in str(m.buttons())
        )
        assert "игроков: 4" in seating.text
        await sit_all(h, FOUR)
        assert h.app is not None
        presses = 0
        every = {"auction", "discard", "contract", "whist", "play"}
        while _deals_done(h) < 3 or not every <= phases_restarted:
            service: TableService = h.app.bot_data["service"]
            snap = await service.snapshot(1)
            state = snap.state
            assert isinstance(state, DealState) and snap.players == 4
            dealer_user = FOUR[state.deal.dealer]
            # the dealer sits out: no hand of theirs, no button for them in this deal
            assert state.deal.dealer not in state.deal.hands
            phase = state.phase.value
            if phase not in phases_restarted and rng.random() < 0.5:
                phases_restarted.add(phase)
                await h.crash()
                await h.start()
                await h.settle()
                service = h.app.bot_data["service"]
                again = (await service.snapshot(1)).state
                assert again == state  # the replay is the state it was
            found = _offer(h, FOUR)
            assert found is not None
            user, sent, data = found
            assert user is not dealer_user
            answer = await h.press(user, sent, _choose(rng, data))
            assert not answer.get("text"), answer
            presses += 1
            assert presses < 3000
    finally:
        if h.app is not None:
            await h.stop()


async def test_a_substitute_mid_deal_and_stopping_early_by_consent(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """Bob leaves mid-deal for Дима (the others agree); later all three agree to stop: the
    pulka is settled as it stands (§6) and Дима, not Bob, gets the seat's share."""
    dima = User(404, "Дима", "ru", "dima")
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=5)
    await h.start()
    rng = random.Random(3)
    try:
        for user in [*PLAYERS, dima]:
            await h.say(user, user.id, "/start")
        await h.say(PLAYERS[0], GROUP, "/pref")
        await sit_all(h, PLAYERS)
        players = list(PLAYERS)
        for press in range(60):
            if press == 8:  # Bob hands his seat to Дима, the other two agree
                await h.say(PLAYERS[1], GROUP, "/sub @dima")
                proposal = h.api.chat_messages(GROUP)[-1]
                agree = next(
                    b["callback_data"]
                    for b in proposal.buttons()
                    if b["callback_data"].endswith(":sb:y")
                )
                for user in (PLAYERS[0], PLAYERS[2]):
                    assert not (await h.press(user, proposal, agree)).get("text")
                await h.settle()
                players[1] = dima
                assert any(
                    "теперь играет Дима" in m.text and "место 2" in m.text
                    for m in h.api.chat_messages(GROUP)
                )
            found = _offer(h, players)
            assert found is not None
            user, sent, data = found
            assert user is not PLAYERS[1] or press < 8  # Bob's old buttons are gone
            answer = await h.press(user, sent, _choose(rng, data))
            assert not answer.get("text"), answer
        await h.say(PLAYERS[0], GROUP, "/end")
        proposal = h.api.chat_messages(GROUP)[-1]
        assert "Остановить пулю" in proposal.text
        agree = next(
            b["callback_data"] for b in proposal.buttons() if b["callback_data"].endswith(":end:y")
        )
        for user in (dima, PLAYERS[2]):
            assert not (await h.press(user, proposal, agree)).get("text")
        await h.settle()
        assert any("Пуля закрыта. (досрочно)" in m.text for m in h.api.chat_messages(GROUP))
        assert h.app is not None
        storage: SqliteStorage = h.app.bot_data["storage"]
        (match,) = await storage.matches(1)
        independent = Pulka(players=3, target=10, variant="sochi")
        for deal in await storage.deals(match.id):
            if deal.result is not None:
                state = replay(find_game("preferans"), 3, await storage.events(1, deal.deal_no))
                assert isinstance(state, DealState) and state.result is not None
                write(independent, state.result, state.deal.dealer)
        independent.close()
        whole = independent.whole()
        rows = {r.player_id: r.points for r in await storage.ledger(1)}
        bob = await storage.player_by_tg(PLAYERS[1].id)
        assert bob is not None and bob.id not in rows
        assert rows == {match.seats[s]: whole[s] for s in range(3)} and match.unfinished
    finally:
        if h.app is not None:
            await h.stop()


async def test_forged_and_out_of_turn_presses_are_refused_and_change_nothing(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """A discard of cards not held, a contract below the bid, half-whist on an eight, another
    player's action, malformed data: each gets an answer and writes nothing."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=8)
    await h.start()
    try:
        service = await seated(h)
        refused: set[str] = set()

        async def forge(user: User, arg: str) -> None:
            snap = await service.snapshot(1)
            before = (snap.actions, snap.state)
            data = Button(1, snap.deal_no, Act.ACTION, arg, snap.actions).encode()
            screen = h.api.chat_messages(user.id)[-1]
            answer = await h.press(user, screen, data)
            assert answer.get("text"), (arg, answer)
            snap = await service.snapshot(1)
            assert (snap.actions, snap.state) == before  # nothing written
            refused.add(arg.split(".")[0])

        for _ in range(40):
            snap = await service.snapshot(1)
            state = snap.state
            assert isinstance(state, DealState)
            actor = state.actor
            assert actor is not None
            user = PLAYERS[actor]
            other = PLAYERS[(actor + 1) % 3]
            if state.phase is Phase.AUCTION:
                bid = "bid.8S" if not state.calls else "bid.P"
                if not state.calls:
                    await forge(other, "bid.6S")  # out of turn
                await _press_action(h, user, bid)
            elif state.phase is Phase.DISCARD:
                held = state.hands[actor]
                absent = sorted(c for c in PACK if c not in held)[:2]
                await forge(user, f"drop.{absent[0]}.{absent[1]}")
                low = sorted(held)[:2]
                await _press_action(h, user, f"drop.{low[0]}.{low[1]}")
            elif state.phase is Phase.CONTRACT:
                await forge(user, "name.7NT")  # below the bid of eight
                await _press_action(h, user, "name.8S")
            elif state.phase is Phase.WHIST:
                if not state.whists:
                    await _press_action(h, user, "whist.pass")
                else:
                    await forge(user, "whist.half")  # not on an eight
                    break
        assert refused == {"bid", "drop", "name", "whist"}
        screen = h.api.chat_messages(PLAYERS[0].id)[-1]
        for junk in (
            "b1:1:1:a:",
            "b1:1:1:a:zzz.zz",
            "b1:99:1:a:bid.P",
            "nonsense",
            "b1:1:1.0:a:bid.99Q",
        ):
            assert (await h.press(PLAYERS[0], screen, junk)).get("text"), junk
    finally:
        if h.app is not None:
            await h.stop()


async def _press_action(h: Harness, user: User, arg: str) -> None:
    """An action as its button carries it, for the position the deal is at (the discard's
    confirmation is made this way after two picks; here in one)."""
    assert h.app is not None
    snap = await h.app.bot_data["service"].snapshot(1)
    data = Button(1, snap.deal_no, Act.ACTION, arg, snap.actions).encode()
    screen = h.api.chat_messages(user.id)[-1]
    assert not (await h.press(user, screen, data)).get("text"), arg
    await h.settle()


def _button(sent: Sent, label: str) -> str:
    return next(b["callback_data"] for b in sent.buttons() if b["text"] == label)


async def test_declarer_changes_the_discard_before_naming_the_game(
    api: FakeBotApi, tmp_path: Path
) -> None:
    """After the discard, the screen naming the game offers to change it; pressed, the two
    cards come back and another two are laid away. Nobody else ever sees either discard, and
    once the game is named the offer is gone."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=8)
    await h.start()
    try:
        service = await seated(h)
        while True:
            state = (await service.snapshot(1)).state
            assert isinstance(state, DealState)
            if state.phase is not Phase.AUCTION:
                break
            actor = state.actor
            assert actor is not None
            await _press_action(h, PLAYERS[actor], "bid.6S" if not state.calls else "bid.P")
        assert state.phase is Phase.DISCARD and state.declarer is not None
        declarer = PLAYERS[state.declarer]
        held = sorted(state.hands[state.declarer])
        lang = declarer.language_code
        change = {"ru": "↩ Поменять снос", "en": "↩ Change the discard"}[lang]
        first, second = held[:2], held[-2:]
        for pair in (first, second):
            for card in pair:  # pick the two cards on the screen, then confirm
                screen = h.api.chat_messages(declarer.id)[-1]
                data = next(
                    b["callback_data"]
                    for b in screen.buttons()
                    if ":mn:drop" in b["callback_data"] and b["callback_data"].endswith(str(card))
                )
                assert not (await h.press(declarer, screen, data)).get("text")
                await h.settle()
            screen = h.api.chat_messages(declarer.id)[-1]
            confirm = next(b for b in screen.buttons() if ":a:drop." in b["callback_data"])
            assert confirm["text"].startswith({"ru": "Снести", "en": "Discard"}[lang])
            assert not (await h.press(declarer, screen, confirm["callback_data"])).get("text")
            await h.settle()
            state = (await service.snapshot(1)).state
            assert isinstance(state, DealState)
            assert set(state.discard) == set(pair) and state.phase is Phase.CONTRACT
            if pair is first:
                screen = h.api.chat_messages(declarer.id)[-1]
                redrop = _button(screen, change)
                assert not (await h.press(declarer, screen, redrop)).get("text")
                await h.settle()
                state = (await service.snapshot(1)).state
                assert isinstance(state, DealState)
                assert state.phase is Phase.DISCARD and not state.discard
                # the old button is stale now: a second press changes nothing
                assert (await h.press(declarer, screen, redrop)).get("text")
        await _press_action(h, declarer, "name.6S")
        screen = h.api.chat_messages(declarer.id)[-1]
        assert change not in str(screen.buttons())
        for user in [u for u in PLAYERS if u is not declarer] + [None]:
            chat = GROUP if user is None else user.id
            for sent in h.api.chat_messages(chat):
                for _, version in [*sent.history, (0, sent.text)]:
                    assert "Ваш снос" not in version and "Your discard" not in version
    finally:
        if h.app is not None:
            await h.stop()


async def test_a_refused_claim_is_said_in_the_group(api: FakeBotApi, tmp_path: Path) -> None:
    """A claim's line leaves the table when a player refuses it: the group is told who
    refused whose claim, and play goes on."""
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=11)
    await h.start()
    rng = random.Random(2)
    try:
        await seated(h)
        refused = False
        for _ in range(1500):
            found = _offer(h)
            assert found is not None
            user, sent, data = found
            claims = [d for d in data if ":a:claim." in d]
            answers = [d for d in data if d.endswith(":a:answer.no")]
            if answers:  # refuse the claim
                assert not (await h.press(user, sent, answers[0])).get("text")
                refused = True
                break
            menu = [d for d in data if d.endswith(":mn:claim")]
            if claims:
                choice = claims[0]
            elif menu and rng.random() < 0.5:
                choice = menu[0]
            else:
                choice = _choose(rng, [d for d in data if ":mn:claim" not in d])
            assert not (await h.press(user, sent, choice)).get("text"), choice
        assert refused
        await h.settle()
        said = Translator("ru")("pref.claim_rejected", name="@", claimant="@").split("@")[1]
        assert any(said in m.text for m in h.api.chat_messages(GROUP))
    finally:
        await h.stop()
