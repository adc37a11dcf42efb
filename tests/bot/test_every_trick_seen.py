"""At a quick pace the group sees only some versions of the table (the outbox coalesces to
the group's pace): every completed Preferans trick stays in view, with who took it, until the
next trick is complete, so any version in three shows every trick."""

from __future__ import annotations

import re

import pytest

from bot.games.preferans.table import completed_tricks, render_table
from bot.i18n import Translator
from tests.bot.test_preferans_views import snapshot
from tests.games.test_preferans_deal import random_deal


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("pace", [2, 3])
def test_a_group_seeing_one_version_in_three_sees_every_trick(language: str, pace: int) -> None:
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
