"""A whole pulka through the bot, over the fake Bot API's real HTTP and a real SQLite file: the
players steer the deals (all pass, a misère, a half-whist, then games that fill the pools) so
that every kind of deal is written; the ledger after it equals an independent computation with
``games.preferans`` from the stored logs, in both languages; the group then prices a whist and
settles up in the ledger."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.tables import TableService
from games.core.registry import find_game
from games.preferans.analysis import GameAnalysis, MisereAnalysis, analyse
from games.preferans.cards import Card
from games.preferans.deal import DealState, Kind, Phase, Undo, effective_actions
from games.preferans.game import write
from games.preferans.pulka import Pulka
from storage.events import replay
from storage.sqlite import SqliteStorage
from tests.bot.harness import GROUP, Harness
from tests.bot.test_preferans_table import _offer, sit_all
from tests.bot.test_preferans_views import shown
from tests.fakeapi import FakeBotApi, User
from tests.games.test_preferans_deal import allowed

WHISTS = "whists"  # the unit the game names (storage names none)

PLAYERS = [
    User(501, "Аня", "ru", "anya"),
    User(502, "Bob", "en", "bob"),
    User(503, "Вика", "ru"),
    User(504, "Дима", "ru", "dima"),
]


def _check_privacy(
    h: Harness,
    users: list[User],
    state: DealState,
    deal: int,
    seen: dict[tuple[int, int | None], set[Card]],
) -> int:
    """Every version of every message of the current deal (its head names the deal), in the
    group and in each private chat, shows only cards its reader may see now or might see at an
    earlier step of the deal (a card taken back by an undo was seen). Returns how many
    versions it read."""
    head = re.compile(rf"(сдача|deal) {deal}\b")
    read = 0
    chats: list[tuple[int, int | None]] = [(GROUP, None)]
    chats += [(user.id, seat) for seat, user in enumerate(users)]
    for chat, viewer in chats:
        for sent in h.api.chat_messages(chat):
            for _, text in sent.history:
                if not head.search(text) or "🃏" not in text:
                    continue
                may = seen.setdefault((deal, viewer), set())
                may |= allowed(state, viewer)
                leaked = shown(text) - may
                assert not leaked, (chat, state.phase, leaked, text)
                read += 1
    return read


async def _take_back(h: Harness, users: list[User]) -> bool:
    """The player who did the last thing asks to take it back; the others allow it."""
    assert h.app is not None
    await h.settle()
    state = (await h.app.bot_data["service"].snapshot(1)).state
    assert isinstance(state, DealState)
    who = state.undoable_by()
    assert who is not None
    user = users[who]
    screen = h.api.chat_messages(user.id)[-1]
    asked = [b["callback_data"] for b in screen.buttons() if b["callback_data"].endswith(":un")]
    assert asked, screen.text
    assert not (await h.press(user, screen, asked[0])).get("text")
    await h.settle()
    question = h.api.chat_messages(GROUP)[-1]
    allow = next(
        b["callback_data"] for b in question.buttons() if b["callback_data"].endswith(":ua:y")
    )
    assert (await h.press(user, question, allow)).get("text")  # not theirs to allow
    for seat in state.deal.active:
        if seat != who:
            assert not (await h.press(users[seat], question, allow)).get("text")
    await h.settle()
    service: TableService = h.app.bot_data["service"]
    after = (await service.snapshot(1)).state
    assert isinstance(after, DealState) and isinstance(after.history[-1], Undo)
    return len(effective_actions(after.history)) == len(effective_actions(state.history)) - 1


def _steer(deal: int, state: DealState, data: list[str], rng: random.Random) -> str:
    """The press a player makes, steering the pulka: deal 1 all pass (raspasy), deal 2 a misère,
    deal 3 a six with one defender passing and the other saying half, later deals a ten that
    nobody whists, so the pools fill; cards at random."""
    actions = [d for d in data if ":a:" in d]
    if deal == 2 and any(d.endswith(":mn:claim") for d in data):
        return next(d for d in data if d.endswith(":mn:claim"))  # misère: claim the rest
    claims = [d for d in actions if ":a:claim." in d]
    if claims:
        return claims[-1]  # the misère player takes none of the tricks left
    answers = [d for d in actions if ":a:answer." in d]
    if answers:
        return next(d for d in answers if d.endswith("answer.yes"))
    if not actions:  # a card for the discard (not the button that takes one back)
        return max(data, key=lambda d: d.count("."))
    drops = [d for d in actions if ":a:drop." in d]
    if drops:
        return drops[0]
    bids = [d for d in actions if ":a:bid." in d]
    if bids:
        bid_before = any(c.bid is not None for c in state.view(None).calls)
        passes = [d for d in bids if d.endswith("bid.P")]
        others = [d for d in bids if d not in passes]
        if deal == 1 or bid_before or not others:
            return passes[0]
        if deal == 2:
            misere = [d for d in others if d.endswith("bid.MIS")]
            return misere[0] if misere else passes[0]
        games = [d for d in others if "MIS" not in d]
        return games[0] if deal == 3 else games[-1]
    names = [d for d in actions if ":a:name." in d]
    if names:
        return names[0]
    words = {d.rsplit(".", 1)[1]: d for d in actions if ":a:whist." in d}
    if words:
        return words.get("half") or words.get("pass") or words["whist"]
    shows = [d for d in actions if ":a:show." in d]
    if shows:
        return shows[-1]
    return rng.choice(actions)


@pytest.mark.parametrize(("players", "language"), [(3, "ru"), (3, "en"), (4, "ru")])
async def test_a_pulka_to_the_end_with_raspasy_misere_and_half_whist_lands_in_the_ledger(
    api: FakeBotApi, tmp_path: Path, players: int, language: str
) -> None:
    users = PLAYERS[:players]
    h = Harness(api, str(tmp_path / "bot.sqlite3"), shuffle_seed=21)
    await h.start()
    rng = random.Random(2)
    try:
        for user in users:
            await h.say(user, user.id, "/start")
        await h.say(users[0], GROUP, "/preferans")
        h.api.admins.add(users[0].id)
        await h.say(users[0], GROUP, "/settings")
        settings = h.api.chat_messages(GROUP)[-1]
        for wanted in ("lang=en" if language == "en" else "", "players=4" if players == 4 else ""):
            if wanted:
                switch = next(
                    b["callback_data"]
                    for b in settings.buttons()
                    if b["callback_data"].endswith(wanted)
                )
                assert (await h.press(users[0], settings, switch)).get("text") == "Сохранено."
        await sit_all(h, users)
        assert h.app is not None
        over = "Пуля закрыта" if language == "ru" else "The pulka is over"
        presses = checked = 0
        undone = False
        seen: dict[tuple[int, int | None], set[Card]] = {}
        restarted: set[Kind | None] = set()
        while not any(over in m.text for m in h.api.chat_messages(GROUP)):
            service: TableService = h.app.bot_data["service"]
            snap = await service.snapshot(1)
            state = snap.state
            assert isinstance(state, DealState)
            found = _offer(h, users)
            assert found is not None, [m.text for m in h.api.chat_messages(GROUP)[-3:]]
            user, sent, data = found
            deal = snap.deal_in_match(snap.deal_no)
            checked += _check_privacy(h, users, state, deal, seen)
            choice = _steer(deal, state, data, rng)
            answer = await h.press(user, sent, choice)
            assert not answer.get("text"), (answer, choice)
            presses += 1
            restart = state.phase is Phase.PLAY and state.kind not in restarted
            if restart and (state.kind is Kind.MISERE or len(state.tricks) > 3):
                restarted.add(state.kind)  # a restart in raspasy, and in the misère
                await h.crash()
                await h.start()
                await h.settle()
            if presses == 10:  # a card taken back, the other two allowing it
                played = (await service.snapshot(1)).state
                assert isinstance(played, DealState)
                for viewer in (None, *range(players)):  # what was seen before the undo stays seen
                    seen.setdefault((deal, viewer), set()).update(allowed(played, viewer))
                undone = await _take_back(h, users)
            if presses == 60:  # /score: the sheet as text and drawn as on paper
                await h.say(users[1], GROUP, "/score")
                await h.settle()
                text, photo = h.api.chat_messages(GROUP)[-2:]
                assert text.kind == "rich" and photo.kind == "photo"  # the sheet as a table
                rows = re.findall(r"<tr>(.*?)</tr>", text.text)
                assert len(rows) == players + 1  # a head, then each player's pool, gora, whists
                assert all(row.count("<td>") == players + 3 for row in rows[1:])
                assert photo.upload is not None and photo.upload.data[:4] == b"\x89PNG"
            assert presses < 1500
        await h.settle()
        assert undone and checked > 500 and {Kind.RASPASY, Kind.MISERE} <= restarted
        result = next(m for m in reversed(h.api.chat_messages(GROUP)) if over in m.text)
        picture = h.api.chat_messages(GROUP)[-1]  # the pulka drawn, right after its result
        assert picture.kind == "photo" and picture.upload is not None
        # A deal posts one message, its result in a few lines (the hands are on the table,
        # the sheet on /score); the pulka is drawn on /score and with its end, not every deal.
        group = h.api.chat_messages(GROUP)
        results = [m for m in group if m.text.startswith(("<b>Deal ", "<b>Сдача "))]
        assert len(results) >= 2
        for m in results:
            assert len(m.text.splitlines()) <= 8 and "<pre>" not in m.text, m.text
        assert len([m for m in group if m.kind == "photo"]) == 2  # /score's and the end's
        written = "Written — " if language == "en" else "Записано — "
        on = "whists → " if language == "en" else "висты → "
        assert any(written in m.text and on in m.text for m in h.api.chat_messages(GROUP))
        if language == "en":
            assert "Result:" in result.text and "whists" in result.text
        else:
            assert "Итог:" in result.text and re.search(r"\d вист(а|ов)?\b", result.text)
        assert "<blockquote expandable>" in result.text  # the breakdown, folded
        labels = [b["text"] for b in result.buttons()]  # no partners at a pulka: seats drawn
        assert labels and not any("artner" in x or "партн" in x for x in labels), labels
        # the group prices a whist at half a rouble and settles up through the ledger
        await h.say(users[0], GROUP, "/settings вист 0,5 RUB")
        await h.say(users[0], GROUP, "/ledger")
        ledger = h.api.chat_messages(GROUP)[-1]
        assert "RUB" in ledger.text and re.search(r"\d (вист(а|ов)?|whists?)\b", ledger.text)
        for _ in range(players):  # at most n - 1 transfers settle n players
            await h.say(users[0], GROUP, "/settle")
            plan = h.api.chat_messages(GROUP)[-1]
            paid = [b["callback_data"] for b in plan.buttons() if ":pay:" in b["callback_data"]]
            if not paid:
                break
            assert all(":pay:w." in d for d in paid)  # in whists, as the pulka was played
            assert (await h.press(users[0], plan, paid[0])).get("text") == "Платёж записан"
        assert not paid
    finally:
        if h.app is not None:
            await h.stop()
    store = await SqliteStorage.open(h.database)
    try:
        (match,) = await store.matches(1)
        assert match.game == "preferans" and match.finished_at is not None
        independent = Pulka(players=players, target=10, variant="sochi")
        kinds, words = set(), set()
        claimed = False
        posts = [
            m.text
            for m in h.api.chat_messages(GROUP)
            if m.text.startswith("<b>Deal ") or m.text.startswith("<b>Сдача ")
        ]
        analysed = 0
        deals = await store.deals(match.id)
        assert len(posts) == len(deals)
        for deal, post in zip(deals, posts, strict=True):
            state = replay(find_game("preferans"), players, await store.events(1, deal.deal_no))
            assert isinstance(state, DealState) and state.result is not None
            # Each result post says what the solver says of that deal, and only of that deal.
            found = analyse(state)
            lines = [line for line in post.splitlines() if "🔍" in line]
            if isinstance(found, GameAnalysis):
                assert len(lines) == 1 and f" {found.makes} " in lines[0], (lines, found)
                paid = "Whisting paid" if language == "en" else "Вист окупался"
                assert (paid in post) is found.whisting_paid, post
                analysed += 1
            elif isinstance(found, MisereAnalysis):
                assert len(lines) == 1
                safe = "could not be caught" if language == "en" else "не ловился"
                caught = "could be caught" if language == "en" else "Мизер ловился"
                assert (caught if found.caught else safe) in lines[0], lines
                analysed += 1
            else:
                assert not lines
            kinds.add(state.result.kind)
            claimed = claimed or state.result.claimed
            words |= set(state.result.whist.values())
            write(independent, state.result, state.deal.dealer)
        assert independent.finished and analysed >= 2
        assert {Kind.RASPASY, Kind.MISERE, Kind.GAME} <= kinds and "half" in words
        assert claimed  # the misère was settled by a claim the others accepted
        whole = independent.whole()
        rows = await store.ledger(1)
        assert {r.unit for r in rows} == {WHISTS}
        assert {r.player_id: r.points for r in rows if r.kind == "match"} == {
            match.seats[seat]: whole[seat] for seat in range(players)
        }
        assert set((await store.balances(1, WHISTS)).values()) == {0}  # settled up
        assert sum(whole) == 0
    finally:
        await store.close()
