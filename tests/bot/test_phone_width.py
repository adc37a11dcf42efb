"""Every monospace block of both games fits a phone: at most 32 display cells a line (an emoji
two, the RTL isolates none), whatever the names: long, emoji, RTL, HTML, three and four
players. Tables (group and private, every state of random deals to the end), the compass of
the full deal, the rubber's and the pulka's sheets (online and kept) and the Preferans hands."""

from __future__ import annotations

import dataclasses
import html
import random
import re
from collections.abc import Iterator

import pytest

from bot.games.bridge.score import scoresheet
from bot.games.bridge.table import render_private as bridge_private
from bot.games.bridge.table import render_table as bridge_table
from bot.games.preferans.table import render_private as pref_private
from bot.games.preferans.table import render_table as pref_table
from bot.games.preferans.views import full_deal_block, hands_block, pulka_block
from bot.i18n import Translator
from bot.views.text import PHONE, cells
from games.bridge.calls import Contract
from games.bridge.cards import Deal, Seat, Side
from games.bridge.deal import DealState
from games.bridge.rubber import Rubber
from games.preferans.pulka import Pulka
from tests.bot import test_preferans_views, test_views
from tests.games.strategies import random_actions
from tests.games.test_preferans_deal import random_deal

HOSTILE = (
    "Геннадий Петрович Засядько-Оболенский",
    "🐻🐻🐻🐻🐻🐻🐻🐻🐻🐻🐻🐻",
    "שלום עליכם חברים יקרים",
    "<b>Anna</b> & Co",
    "🤖 Робот",
    "🤖 Робот",
    "Ann",
    "Александра Николаевна",
)
PRE = re.compile(r"<pre>(.*?)</pre>", re.S)


def names(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(HOSTILE) for _ in range(count)]


def wide_lines(text: str) -> Iterator[str]:
    for block in PRE.findall(text):
        for line in html.unescape(block).splitlines():
            if cells(line) > PHONE:
                yield line


def test_the_measure_counts_a_phones_cells() -> None:
    assert cells("Аня") == 3 and cells("🐻") == 2 and cells("\u2068שלום\u2069") == 4
    assert list(wide_lines("<pre>" + "x" * 33 + "</pre>")) == ["x" * 33]


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("players", [3, 4])
def test_the_pulka_fits_a_phone(language: str, players: int) -> None:
    t = Translator(language)
    for seed in range(30):
        rng = random.Random(seed)
        pulka = Pulka(players=players, target=rng.choice((10, 20, 50)))
        state = pulka.state()
        state["pool"] = [rng.randrange(0, 60) for _ in range(players)]
        state["gora"] = [rng.randrange(-200, 99_999) for _ in range(players)]
        whists = [
            [0 if w == o else rng.randrange(0, 99_999) for o in range(players)]
            for w in range(players)
        ]
        state["whists"] = whists
        board = dict(enumerate(names(seed, players)))
        text = pulka_block(_Fixed(state), board, t)  # type: ignore[arg-type]
        assert not list(wide_lines(text)), text
        rows = html.unescape(PRE.findall(text)[0]).splitlines()
        heads = rows[0]
        assert len(set(heads.split())) == players, heads  # every column its own label
        pairs = [row for row in rows if "→" in row]
        assert len(pairs) == players * (players - 1), rows  # one row per pair written
        assert "🤖 Роб" not in text


class _Fixed:
    def __init__(self, state: dict[str, object]) -> None:
        self._state = state

    def state(self) -> dict[str, object]:
        return self._state


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_preferans_screen_fits_a_phone(language: str) -> None:
    t = Translator(language)
    for seed in range(30):
        _final, states = random_deal(seed)
        players = states[0].deal.players
        board = names(seed, players)
        for state in states:
            snap = test_preferans_views.snapshot(state)
            seats = {s: dataclasses.replace(h, name=board[s]) for s, h in snap.seats.items()}
            snap = dataclasses.replace(snap, seats=seats)
            texts = [pref_table(snap, 3, state.view(None), t).text]
            for seat in range(players):
                texts.append(pref_private(snap, seat, 3, state.view(seat), t, "").text)
                texts.append(hands_block(state.view(seat), dict(enumerate(board)), t))
            if state.result is not None:
                texts.append(full_deal_block(state.view(None), dict(enumerate(board)), t))
            for text in texts:
                assert not list(wide_lines(text)), text


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_bridge_screen_fits_a_phone(language: str) -> None:
    t = Translator(language)
    for seed in range(30):
        rng = random.Random(seed)
        deal = Deal.shuffled(rng.choice(list(Seat)), rng.randrange)
        board = names(seed, 4)
        state = DealState.new(deal)
        snap = test_views.snapshot(state)
        seats = {
            s: dataclasses.replace(h, name=board[i]) for i, (s, h) in enumerate(snap.seats.items())
        }
        for action in random_actions(deal, rng):
            state = state.apply(action)
            now = dataclasses.replace(snap, seats=seats, state=state)
            done = deal if state.result is not None else None
            view = state.view(None)
            texts = [bridge_table(now, 1, view, (True, False), t, "bot", done).text]
            for seat in Seat:
                texts.append(bridge_private(now, 1, state.view(seat), (False, True), t).text)
            for text in texts:
                assert not list(wide_lines(text)), text
            if done is not None:  # the compass shows the hands: no dummy (empty) above it
                assert "<pre>♠" not in texts[0] and "<pre>♠ —" not in texts[0], texts[0]


def test_the_longest_suits_fit_the_compass() -> None:
    """Thirteen cards of one suit in a hand: the compass still fits (the worst case)."""
    deal = test_views.SUITED
    state = DealState.new(deal)
    for call in ("7S", "P", "P", "P"):
        from games.bridge.calls import Call
        from games.bridge.deal import MakeCall

        state = state.apply(MakeCall(state.actor or Seat.N, Call.parse(call)))
    snap = test_views.snapshot(state)
    board = names(1, 4)
    seats = {
        s: dataclasses.replace(h, name=board[i]) for i, (s, h) in enumerate(snap.seats.items())
    }
    from games.bridge.deal import AnswerClaim, MakeClaim

    state = state.apply(MakeClaim(Seat.N, 13))
    for seat in sorted(state.claim.responders) if state.claim else ():
        state = state.apply(AnswerClaim(seat, True))
    assert state.result is not None
    now = dataclasses.replace(snap, seats=seats, state=state)
    for language in ("ru", "en"):
        view = state.view(None)
        text = bridge_table(now, 1, view, (True, True), Translator(language), "b", deal).text
        assert "<pre>" in text and not list(wide_lines(text)), text


def test_the_rubbers_sheet_fits_a_phone() -> None:
    rubber = Rubber()
    rng = random.Random(3)
    while not rubber.finished:
        side = rng.choice(list(Side))
        contract = Contract.parse(rng.choice(("7NTXX", "6SX", "2H", "3NT", "1C")))
        rubber.record(side, contract, rng.choice((6 + contract.level, 13, 0)))
    for language in ("ru", "en"):
        sheet = scoresheet(rubber, Translator(language))
        assert all(cells(line) <= PHONE for line in sheet.splitlines()), sheet
