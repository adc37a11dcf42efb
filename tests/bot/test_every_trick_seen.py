"""At a quick pace the group sees only some versions of the table (the outbox coalesces to
the group's pace): every completed Preferans trick stays in view, with who took it, for a
round of cards after it is taken, so any version in four shows every trick."""

from __future__ import annotations

import random
import re

import pytest

from bot.games.bridge.cards import seat_text
from bot.games.bridge.table import render_table as bridge_table
from bot.games.preferans.table import completed_tricks, render_table
from bot.i18n import Translator
from games.bridge.cards import Deal, Seat
from games.bridge.deal import DealState
from tests.bot import test_views
from tests.bot.test_preferans_views import snapshot
from tests.games.strategies import random_actions
from tests.games.test_preferans_deal import random_deal


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("pace", [2, 3, 4])
def test_a_group_seeing_one_version_in_four_sees_every_trick(language: str, pace: int) -> None:
    t = Translator(language)
    checked = 0
    for seed in range(40):
        final, states = random_deal(seed)
        done = completed_tricks(final.view(None))
        if not done:
            continue
        for offset in range(pace):
            shown_states = [*states[offset::pace], states[-1]]  # the latest always goes out
            seen = "\n".join(
                render_table(snapshot(s), 3, s.view(None), t).text for s in shown_states
            )
            for number, _trick, took in done:
                shown = re.search(rf"{number}: [^\n]* → P{took}\b", seen)
                assert shown is not None, (seed, number, seen)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("pace", [2, 3, 4, 5])
def test_a_bridge_group_seeing_one_version_in_five_sees_every_trick(pace: int) -> None:
    t = Translator("en")
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        deal = Deal.shuffled(Seat.N, rng.randrange)
        states = [DealState.new(deal)]
        for action in random_actions(deal, rng, extras=False):
            states.append(states[-1].apply(action))
        final = states[-1].view(None)
        done = [(n, tr) for n, tr in enumerate(final.tricks, start=1) if tr.is_complete]
        for offset in range(pace):
            shown_states = [*states[offset::pace], states[-1]]
            seen = "\n".join(
                bridge_table(test_views.snapshot(s), 1, s.view(None), (False, False), t, "b").text
                for s in shown_states
            )
            for number, trick in done:
                took = seat_text(trick.winner(final.trump), "en")
                assert re.search(rf"{number}: [^\n]* → {took}\b", seen), (seed, number)
                checked += 1
    assert checked > 100
