"""Records leave the table only for deals that are over. In every phase of both games, every
command and button that shows a record (``/pbn``, ``/pbn <from> <to>``, ``/score``,
``/history``, ``/history csv``, ``/ledger``, the double-dummy button) is used by a seated
player, a kibitzer of the group and a stranger to it, and everything the bot posts or answers is
scanned for cards of the deal under way that a kibitzer may not see yet."""

from __future__ import annotations

import datetime
import random
import re

from bot.callback_data import Button
from bot.games.bridge.buttons import DD
from games.bridge.cards import Card as BridgeCard
from games.bridge.cards import Seat
from games.bridge.game import BridgeState
from games.preferans.deal import DealState, Phase
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, cards_in, seat_four
from tests.bot.test_preferans_table import _offer, sit_all
from tests.bot.test_preferans_views import shown
from tests.fakeapi import User
from tests.games.test_preferans_deal import allowed

KIBITZER = User(701, "Kira", "ru", "kira")
STRANGER = User(702, "Stan", "en", "stan")
PBN_DEAL = re.compile(r'\[Deal "([NESW]):([^"]+)"\]')


def pbn_hands(text: str) -> list[list[frozenset[str]]]:
    """Each board's four hands as written (texts of cards, e.g. "SA"), in the file's order."""
    found = []
    for first, hands in PBN_DEAL.findall(text):
        written = [
            frozenset(
                suit + rank
                for suit, ranks in zip("SHDC", hand.split("."), strict=True)
                for rank in ranks
            )
            for hand in hands.split()
        ]
        start = "NESW".index(first)  # the file's first hand is that seat's: rotate to N E S W
        found.append([written[(i - start) % 4] for i in range(4)])
    return found


def commands() -> list[str]:
    today = datetime.date.today().isoformat()
    return [
        "/pbn",
        f"/pbn {today} {today}",
        "/pbn 0000-01-01 9999-12-31",
        "/score",
        "/history",
        "/history csv",
        "/ledger",
    ]


async def sweep(h: Harness, users: list[User]) -> list[tuple[str, str]]:
    """Every record command by each user, in the group and in their private chat; returns
    (what, text) for everything the bot sent in answer: messages, captions, files."""
    before = {key: sent.version for key, sent in h.api.messages.items()}
    for user in users:
        for command in commands():
            await h.say(user, GROUP, command)
            await h.say(user, user.id, command)
    out = []
    for key, sent in h.api.messages.items():
        if key in before and before[key] == sent.version:
            continue
        out.append(("text", sent.text))
        if sent.upload is not None and sent.upload.filename.endswith((".pbn", ".csv", ".txt")):
            out.append((sent.upload.filename, sent.upload.data.decode()))
    return out


def deal_hands(h: Harness) -> list[frozenset[str]]:
    """The bridge deal under way, each hand as card texts (N E S W)."""
    state = current_state(h)
    assert isinstance(state, BridgeState)
    return [frozenset(str(c) for c in state.deal.deal.hands[seat]) for seat in Seat]


def current_state(h: Harness) -> object:
    assert h.app is not None
    service = h.app.bot_data["service"]
    live = service._live.get(1)
    assert live is not None
    return live.state


def kibitzer_sees(state: BridgeState) -> set[BridgeCard]:
    view = state.view(None)
    seen = {card for hand in view.hands.values() for card in hand}
    for trick in view.tricks:
        seen |= set(trick.cards)
    return seen


async def test_bridge_records_never_show_a_deal_under_way(h: Harness) -> None:
    h.api.outsiders.add((GROUP, STRANGER.id))
    for user in (KIBITZER, STRANGER):
        await h.say(user, user.id, "/start")
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(3))
    readers = [PLAYERS[0], KIBITZER, STRANGER]
    checked = 0
    finished_before = 0
    # Phases: the auction under way, the opening lead made (dummy shown), the play half way,
    # and (after the first deal ended) the next deal's auction.
    for presses in (1, 4, 12, 30, 60, 90):
        while driver.presses < presses:
            assert await driver.step()
        state = current_state(h)
        assert isinstance(state, BridgeState)
        if state.finished:
            continue
        hands = deal_hands(h)
        visible = kibitzer_sees(state)
        for what, text in await sweep(h, readers):
            for board in pbn_hands(text):
                assert board != hands, f"the deal under way is in {what}"
            if what == "text":
                leaked = cards_in(text) - visible
                # Cards of finished deals may be shown (a result post): only those of the
                # deal under way, concealed now, are a leak.
                concealed = {c for c in leaked if str(c) in set().union(*hands)}
                assert not concealed, (what, concealed, text)
            checked += 1
        # The double-dummy button, forged for the deal under way, is refused.
        deal_no = h.app.bot_data["service"]._live[1].deal_no if h.app else 0
        forged = Button(1, deal_no, DD, "o").encode()
        for user in readers:
            answer = await h.press(user, h.table_message(), forged)
            assert answer.get("show_alert") and not cards_in(answer.get("text", ""))
        finished_before = max(finished_before, deal_no - 1)
    assert checked > 50
    assert finished_before >= 1  # a finished deal was there to be recorded
    # After the first deal, /pbn writes that finished deal, and only it.
    await h.say(PLAYERS[0], GROUP, "/pbn")
    files = [m for m in h.api.chat_messages(GROUP) if m.upload and m.upload.filename[-4:] == ".pbn"]
    assert files, "no PBN file for the finished deal"
    boards = pbn_hands(files[-1].upload.data.decode() if files[-1].upload else "")
    assert boards and deal_hands(h) not in boards


def _choose(state: DealState, data: list[str], rng: random.Random) -> str:
    """A six by the first bidder, passes after it, both whisters whist: every phase is met."""
    actions = [d for d in data if ":a:" in d]
    if not actions:
        return max(data, key=lambda d: d.count("."))  # a card for the discard
    for kind in ("drop.", "name.", "show."):
        picked = [d for d in actions if f":a:{kind}" in d]
        if picked:
            return picked[0]
    bids = [d for d in actions if ":a:bid." in d]
    if bids:
        bid_before = any(c.bid is not None for c in state.view(None).calls)
        games = [d for d in bids if not d.endswith(("bid.P", "bid.MIS"))]
        return games[0] if games and not bid_before else next(d for d in bids if d.endswith("P"))
    whists = [d for d in actions if d.endswith(":a:whist.whist")]
    return whists[0] if whists else rng.choice(actions)


async def test_preferans_records_never_show_a_deal_under_way(h: Harness) -> None:
    h.api.outsiders.add((GROUP, STRANGER.id))
    players = [User(401, "Аня", "ru", "anya"), User(402, "Bob", "en", "bob"), User(403, "Вика")]
    for user in (*players, KIBITZER, STRANGER):
        await h.say(user, user.id, "/start")
    await h.say(players[0], GROUP, "/preferans")
    await sit_all(h, players)
    await h.settle()
    rng = random.Random(5)
    readers = [players[0], KIBITZER, STRANGER]
    phases: set[Phase] = set()
    checked = 0
    for _ in range(400):
        state = current_state(h)
        assert isinstance(state, DealState)
        if state.phase not in phases and state.result is None:
            phases.add(state.phase)
            may = allowed(state, None)
            concealed = set(state.deal.talon) | {c for hand in state.hands.values() for c in hand}
            concealed |= set(state.discard or ())
            for what, text in await sweep(h, readers):
                leaked = {c for c in shown(text) - may if c in concealed}
                assert not leaked, (state.phase, what, leaked, text)
                checked += 1
        offer = _offer(h, players)
        assert offer is not None, (state.phase, [m.text for m in h.api.chat_messages(GROUP)][-3:])
        user, sent, data = offer
        answer = await h.press(user, sent, _choose(state, data, rng))
        assert not answer.get("text"), answer
        await h.settle()
        if Phase.PLAY in phases:
            break
    assert {Phase.AUCTION, Phase.DISCARD, Phase.WHIST, Phase.PLAY} <= phases, phases
    assert checked > 20
