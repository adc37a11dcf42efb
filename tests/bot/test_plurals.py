"""Counts read as the language counts them: gettext plural forms (Russian has three) in every
message that shows a count with its noun, rendered for 1, 2, 5, 11, 21, 22 in both languages."""

from __future__ import annotations

import pytest

from bot.i18n import Translator, plural_forms
from bot.views.amounts import amount
from storage.interface import ChatSettings

WHISTS = "whists"  # the unit the game names (storage names none)

COUNTS = (1, 2, 5, 11, 21, 22)
RU_TRICK = {1: "взятка", 2: "взятки", 5: "взяток", 11: "взяток", 21: "взятка", 22: "взятки"}
RU_WHIST = {1: "вист", 2: "виста", 5: "вистов", 11: "вистов", 21: "вист", 22: "виста"}
EN_TRICK = {n: "trick" if n == 1 else "tricks" for n in COUNTS}


@pytest.mark.parametrize(("language", "forms"), [("en", 2), ("ru", 3)])
def test_every_counted_message_has_its_languages_forms(language: str, forms: int) -> None:
    found = plural_forms(language)
    assert set(found) == set(plural_forms("ru" if language == "en" else "en"))
    assert {"history.title", "result.made", "pref.discard_ask", "amount.whists"} <= set(found)
    for key, texts in found.items():
        assert len(texts) == forms, key
        # Every form but English's singular names its number ("21 взятка" is form one).
        for index, text in enumerate(texts):
            if language == "ru" or index:
                assert "{count}" in text or "{amount}" in text, (key, index)


@pytest.mark.parametrize("count", COUNTS)
def test_counts_in_both_languages(count: int) -> None:
    ru, en = Translator("ru"), Translator("en")
    assert ru("result.made", count=count) == f"выполнено, {count} {RU_TRICK[count]}"
    assert en("result.made", count=count) == f"made, {count} {EN_TRICK[count]}"
    contract = ru("pref.result.game", name="Аня", contract="7♥", count=count)
    assert contract.endswith(f"{count} {RU_TRICK[count]}")
    assert en("pref.result.misere", name="Bob", count=count).endswith(f"{count} {EN_TRICK[count]}")
    ru_history, en_history = ru("history.title", count=count), en("history.title", count=count)
    assert ru_history.startswith(
        {1: "1 последняя партия", 2: "2 последние партии", 5: "5 последних партий",
         11: "11 последних партий", 21: "21 последняя партия", 22: "22 последние партии"}[count]
    )  # fmt: skip
    assert en_history.startswith("The last match" if count == 1 else f"The last {count} matches")
    assert not en_history.startswith("The last 1 ")
    group = ChatSettings()
    assert amount(count, group, ru, unit=WHISTS) == f"{count} {RU_WHIST[count]}"
    assert amount(-count, group, en, unit=WHISTS).endswith("whist" if count == 1 else "whists")
    discard = en("pref.discard_ask", count=count)
    assert ("card to discard" if count == 1 else "cards to discard") in discard
