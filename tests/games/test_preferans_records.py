"""Preferans hand records: random finished deals (all three variants, three and four players,
claims among them) written and read back are the same deals, names with quotes and
backslashes included; a record changed by hand does not read as another deal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import NotationError
from games.preferans.deal import effective_actions
from games.preferans.records import Record, from_text, one_line, to_text
from tests.games.test_preferans_deal import random_deal
from tests.sizes import examples

NAMES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)  # line breaks too


@settings(max_examples=examples(200, least=20), deadline=None)
@given(st.lists(st.integers(0, 10**9), min_size=1, max_size=3), NAMES)
def test_records_read_back_as_the_same_deals(seeds: list[int], name: str) -> None:
    records = []
    for number, seed in enumerate(seeds, 1):
        state, _ = random_deal(seed)
        names = {seat: f'{name} "{seat}" \\' for seat in state.deal.active}
        records.append(Record(number, state, names, "2026.12.02"))
    text = to_text(records, title='Клуб "Пуля"')
    back = from_text(text)
    assert len(back) == len(records)
    for mine, read in zip(records, back, strict=True):
        assert read.number == mine.number and read.date == mine.date
        assert read.names == {s: one_line(n) for s, n in mine.names.items()}
        assert read.state.deal == mine.state.deal
        assert read.state.variant == mine.state.variant
        assert read.state.result == mine.state.result
        assert read.state.tricks == mine.state.tricks
        assert list(read.state.history) == effective_actions(mine.state.history)
    assert to_text(back, title='Клуб "Пуля"') == text  # and written again, the same text


def test_a_record_changed_by_hand_is_refused() -> None:
    state, _ = random_deal(7)
    text = to_text([Record(1, state)])
    hand = next(line for line in text.splitlines() if line.startswith("[Hand"))
    cards = hand.split('"')[1].split()
    swapped = hand.replace(cards[0], "XX")
    with pytest.raises(NotationError):
        from_text(text.replace(hand, swapped))
    result = next(line for line in text.splitlines() if line.startswith("[Result"))
    with pytest.raises(NotationError):
        from_text(text.replace(result, '[Result "game 10NT by 1; tricks 1:10"]'))
    with pytest.raises(NotationError):
        from_text("[Deal 1]")
