"""The words club players use, each in the message that carries it, in Russian and English:
what the Preferans declarer is doing while he chooses, the whisting line's label, the dealer
"на прикупе", a seat button at a Preferans table, the bridge table's auction and turn lines,
the double-dummy line and the BBO link."""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from collections.abc import Iterator

import pytest

from bot.games.bridge.score import render_deal_result
from bot.games.preferans.score import raspasy_times, written_lines
from bot.games.preferans.table import render_private, render_seating, render_table
from bot.games.preferans.views import (
    card_text,
    in_hand_order,
    result_line,
    settlement_lines,
    sheet_text,
)
from bot.i18n import Translator
from bot.plugin import Plugins
from bot.plugins import PLUGINS
from bot.stats import Line
from bot.tables import DealFinished, Snapshot
from bot.views.misc import render_settings
from bot.views.stats import render_stats
from games.bridge.calls import Call
from games.bridge.cards import Deal as BridgeDeal
from games.bridge.cards import Seat as BridgeSeat
from games.bridge.deal import DealState as BridgeState
from games.bridge.deal import MakeCall, PlayCard
from games.bridge.game import BridgeState as BridgeGameState
from games.bridge.game import RubberMatch, outcome
from games.core.review import SeatStats
from games.preferans.bids import Bid
from games.preferans.deal import DealState, Kind, Phase, Result, SeatView
from games.preferans.game import PulkaMatch, write
from storage.interface import ChatSettings, TableSettings, TableStatus
from tests.bot.test_preferans_views import snapshot
from tests.bot.test_views import snapshot as bridge_snapshot
from tests.games.test_preferans_deal import random_deal

WORDS = {
    "ru": {
        Phase.DISCARD: "берёт прикуп и сносит",
        Phase.CONTRACT: "назначает игру",
        "whists": "Висты: ",
        "sits_out": "на прикупе",
        "sit": "Сесть на место 1",
    },
    "en": {
        Phase.DISCARD: "takes the talon and discards",
        Phase.CONTRACT: "names the game",
        "whists": "Whisting: ",
        "sits_out": "deals and sits out",
        "sit": "Take seat 1",
    },
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_pulkas_table_says_what_is_being_done(language: str) -> None:
    t = Translator(language)
    words = WORDS[language]
    seen: set[object] = set()
    for seed in range(60):
        _final, states = random_deal(seed)
        for state in states:
            text = render_table(snapshot(state), 3, state.view(None), t).text
            if state.phase in (Phase.DISCARD, Phase.CONTRACT):
                assert str(words[state.phase]) in text, text
                seen.add(state.phase)
            if state.whists:
                assert str(words["whists"]) in text, text
                seen.add("whists")
            if state.deal.players == 4:
                assert str(words["sits_out"]) in text, text
                seen.add("sits_out")
            assert "(выбирает)" not in text and "(choosing)" not in text
    assert seen == {Phase.DISCARD, Phase.CONTRACT, "whists", "sits_out"}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_preferans_seat_button_reads_as_a_seat(language: str) -> None:
    _final, states = random_deal(0)
    empty = dataclasses.replace(snapshot(states[0]), seats={}, status=TableStatus.OPEN)
    seating = render_seating(empty, Translator(language))
    labels = [key.label for row in seating.keys for key in row]
    assert WORDS[language]["sit"] in labels, labels


@pytest.mark.parametrize(
    ("kind", "bid", "tricks", "claimed", "ru", "en"),
    [
        ("game", "7H", 7, False, "Аня: 7♥, 7 взяток — сыграна", "Ann: 7♥, 7 tricks — made"),
        ("game", "7H", 5, False, "Аня: 7♥, 5 взяток — без двух", "Ann: 7♥, 5 tricks — down 2"),
        ("game", "6S", 5, True, "— без одной (по претензии)", "— down 1 (by claim)"),
        ("misere", None, 0, False, "мизер: 0 взяток — мизер сыгран", "misère made"),
        ("misere", None, 2, False, "мизер: 2 взятки — мизер не сыгран", "misère lost"),
        ("game", "8NT", None, False, "вистующие спасовали: игра записана", "both defenders passed"),
    ],
)
def test_a_pulkas_result_says_its_verdict(
    kind: str, bid: str | None, tricks: int | None, claimed: bool, ru: str, en: str
) -> None:
    result = Result(
        Kind(kind),
        0,
        None if bid is None else Bid.parse(bid),
        {},
        None if tricks is None else {0: tricks, 1: 1, 2: 10 - tricks - 1},
        claimed=claimed,
    )
    assert ru in result_line(result, {0: "Аня"}, Translator("ru"))
    assert en in result_line(result, {0: "Ann"}, Translator("en"))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_pulka_sheets_rows_line_up_and_say_whose_whists(language: str) -> None:
    names = {0: "Аня", 1: "Борис", 2: "Вика"}
    text = sheet_text(
        [10, 4, 0], [2, 0, 6], [[0, 12, 4], [3, 0, 0], [0, 8, 0]], names, Translator(language)
    )
    rows = text.splitlines()
    assert len({len(row) for row in rows[:3]}) == 1, rows  # every number under its name
    # one row per pair written, its number in a column: "Аня→Борис 12"
    pairs = [row.split() for row in rows[4:]]
    assert pairs == [
        ["Аня→Борис", "12"],
        ["Аня→Вика", "4"],
        ["Борис→Аня", "3"],
        ["Вика→Борис", "8"],
    ]
    assert len({len(row) for row in rows[4:]}) == 1, rows


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_pulkas_settings_offer_no_rubbers_rounding(language: str) -> None:
    plugins = Plugins(PLUGINS)
    t = Translator(language)
    rounding = t("settings.rounding", rounding=t("rounding.hundreds"))
    for game, shown in (("bridge", True), ("preferans", False)):
        view = render_settings(
            1, TableSettings(), ChatSettings(), t, plugins.ui(game), plugins.prices()
        )
        assert (rounding in view.text) is shown, view.text
        assert any("round=" in key.data for row in view.keys for key in row) is shown


PROMPTS = {
    "ru": {
        Phase.AUCTION: "Ваше слово",
        Phase.CONTRACT: "Назначьте игру",
        Phase.WHIST: "Вист или пас?",
    },
    "en": {
        Phase.AUCTION: "Your bid",
        Phase.CONTRACT: "Name the game",
        Phase.WHIST: "Whist or pass?",
    },
}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_pulka_players_screen_says_what_is_asked_and_what_is_open(language: str) -> None:
    t = Translator(language)
    caught = opened = 0
    for seed in range(80):
        _final, states = random_deal(seed)
        for state in states:
            snap = snapshot(state)
            for seat in range(state.deal.players):
                view = state.view(seat)
                text = render_private(snap, seat, 3, view, t, "").text
                prompt = PROMPTS[language].get(state.phase)
                if view.legal and prompt is not None:
                    assert f"<b>{prompt}</b>" in text, text
                catching = (
                    state.phase is Phase.PLAY
                    and view.kind is Kind.MISERE
                    and seat in view.active
                    and seat != view.declarer
                    and len(view.hands) > 1
                )
                assert (t("pref.misere_open") in text) is catching, text
                caught += catching
                opened += t("pref.whister_plays_yours") in text
    assert caught and opened


def private_views(seeds: int) -> Iterator[tuple[Snapshot, DealState, int, SeatView]]:
    """Every player's view in every state of ``seeds`` random Preferans deals."""
    for seed in range(seeds):
        _final, states = random_deal(seed)
        for state in states:
            snap = snapshot(state)
            for seat in range(state.deal.players):
                yield snap, state, seat, state.view(seat)


def test_every_screen_shows_cards_in_one_order() -> None:
    """The hand, the play buttons and the discard buttons list cards alike: suit by suit,
    each high to low (they differed)."""
    t = Translator("ru")
    checked = 0
    for snap, _state, seat, view in private_views(30):
        screen = render_private(snap, seat, 3, view, t, "")
        labels = [k.label.lstrip("✅") for row in screen.keys for k in row]
        cards = [c for c in in_hand_order(view.hands.get(seat, ())) if card_text(c, t) in labels]
        shown = [label for label in labels if label in {card_text(c, t) for c in cards}]
        assert shown == [card_text(c, t) for c in cards], (shown, cards)
        checked += len(shown) > 1
    assert checked > 50


@pytest.mark.parametrize(("language", "said"), [("ru", "Распасы подряд: ×"), ("en", "in a row: ×")])
def test_raspasy_in_a_row_say_their_multiplier(language: str, said: str) -> None:
    t = Translator(language)
    match = PulkaMatch(3, {"variant": "sochi", "target": 20})
    raspasy = Result(Kind.RASPASY, None, None, {}, {0: 4, 1: 3, 2: 3})
    seen = []
    for _ in range(4):
        before = copy.deepcopy(match)
        write(match.pulka, raspasy, 0)
        seen.append(raspasy_times(raspasy, before, match, t))
    assert seen[0] == []  # the first costs once: nothing to say
    assert [lines[0].rsplit("×", 1)[1] for lines in seen[1:]] == ["2", "3", "3"]
    assert all(said in lines[0] for lines in seen[1:])


@pytest.mark.parametrize(
    ("language", "said"),
    [("ru", "Помощь в пулю: Dan → Аня +2"), ("en", "Help to the pool: Dan → Аня +2")],
)
def test_a_full_pool_names_whom_it_helped(language: str, said: str) -> None:
    """§6: Dan's pool is full, so his next made game's points go to Аня's pool; the result
    says so by name, once, and a deal without help says nothing of it."""
    t = Translator(language)
    names = {0: "Dan", 1: "Аня", 2: "Вика"}
    match = PulkaMatch(3, {"variant": "sochi", "target": 10})
    made = Result(Kind.GAME, 0, Bid.parse("6S"), {1: "pass", 2: "pass"}, None)
    seen = []
    for _ in range(6):  # five sixes fill the pool of ten; the sixth overflows by two
        before = copy.deepcopy(match)
        write(match.pulka, made, 2)
        seen.append(written_lines(before, match, names, t))
    assert all(said not in " ".join(lines) for lines in seen[:5])
    assert [line for line in seen[5] if said in line] == [said]
    assert "+20" in seen[5][0]  # and the whists Dan wrote on her for it


NAME_FIELDS = {
    "name", "names", "payer", "payee", "newcomer", "left", "leaving", "by", "helper",
    "helped", "dealer", "others", "holder", "player", "kept", "stood",
}  # fmt: skip
# Words after which Russian would decline a name (prepositions, and the verbs and nouns
# that take an object or a genitive here): names cannot be declined reliably, so no
# message puts one there; it writes around them ("Слово: Боря", "Аня → Вика").
GOVERNING = {
    "за", "на", "у", "от", "для", "с", "со", "к", "ко", "о", "об", "про", "вместо", "после",
    "до", "без", "при", "через", "против", "между", "перед", "над", "под", "по",
    "заплатил(а)", "заплатил", "отдал(а)", "передал(а)", "ход", "место", "месте",
}  # fmt: skip


def test_no_russian_message_puts_a_name_where_russian_would_decline_it() -> None:
    from babel.messages.pofile import read_po

    from bot.i18n import LOCALE_DIR

    with open(LOCALE_DIR / "ru" / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalogue = read_po(handle)
    wrong = []
    for message in catalogue:
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in texts:
            for found in re.finditer(r"(\S+)\s+\{(\w+)\}", text or ""):
                word, field = found.group(1).lower().strip("«(,"), found.group(2)
                if field in NAME_FIELDS and word in GOVERNING:
                    wrong.append((message.id, found.group(0)))
    assert wrong == [], wrong


def test_the_english_catalogue_writes_english_and_the_fair_lines_use_players_words() -> None:
    """English quotes and numbers in English («…» and № are Russian typography); the fair
    lines say "the number of the players' last press", not a coined "players' value"."""
    from babel.messages.pofile import read_po

    from bot.i18n import LOCALE_DIR

    found = {}
    for language in ("en", "ru"):
        with open(LOCALE_DIR / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
            found[language] = [
                text
                for m in read_po(handle)
                for text in (m.string if isinstance(m.string, tuple) else (m.string,))
            ]
    for text in found["en"]:
        assert not any(mark in text for mark in "«»№"), text
        assert "players' value" not in text, text
    assert not any("ход игроков" in text for text in found["ru"])


@pytest.mark.parametrize("language", ["ru", "en"])
def test_preferans_cards_are_a_row_per_suit_in_alternating_colours(language: str) -> None:
    """The hand reads ♠ ♦ ♣ ♥ (no two black suits side by side), and the card buttons (to
    play, to discard) are a row per suit in the same order, as bridge's are."""
    t = Translator(language)
    order = ["♠", "♦", "♣", "♥"]
    rows_seen = 0
    for snap, state, seat, view in private_views(30):
        hand = view.hands.get(seat)
        if hand:
            block = render_private(snap, seat, 3, view, t, "").text
            suits = [line[0] for line in block.split("<pre>")[1].splitlines()[1:5]]
            assert suits == order, block
        menus = [""]
        if state.phase is Phase.DISCARD and seat == state.declarer:
            menus.append("drop")
        for menu in menus:
            screen = render_private(snap, seat, 3, view, t, menu)
            rows = [
                [k.label.lstrip("✅")[0] for k in row]
                for row in screen.keys
                if all(k.label.lstrip("✅")[:1] in order for k in row)
            ]
            for row in rows:
                assert len(set(row)) == 1, row  # one suit to a row
                rows_seen += 1
            firsts = [row[0] for row in rows]
            assert firsts == sorted(firsts, key=order.index), firsts
    assert rows_seen > 200


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_pulkas_end_is_one_list_when_its_result_is_the_balance(language: str) -> None:
    """The first pulka of a group: its result is the group's balance, said once. After an
    earlier match the group's accounts follow. Negative numbers carry a real minus."""
    t = Translator(language)
    names = {1: "Аня", 2: "Боря", 3: "Вика"}
    entries = {1: 12, 2: -5, 3: -7}
    accounts = t("rubber.accounts")
    first = "\n".join(
        settlement_lines(False, entries, {"whists": entries}, names, ChatSettings(), t)
    )
    assert t("pref.result_list") in first and accounts not in first
    assert first.count("Боря") == 1 and "−5" in first and "-5" not in first
    later = {"whists": {1: 20, 2: -13, 3: -7}}
    second = "\n".join(settlement_lines(False, entries, later, names, ChatSettings(), t))
    assert accounts in second and "−13" in second
    sheet = sheet_text([10, 4, 0], [-3, 0, 6], [[0, 1, 0], [0, 0, 0], [0, 0, 0]], names, t)
    assert "−3" in sheet and "-3" not in sheet


def test_stats_speak_each_games_words_and_name_double_dummy_one_way() -> None:
    """/stats: the bridge section in bridge's words, the Preferans one in Preferans's; the
    figures say which is the last 30 days; double dummy has one name in each catalogue."""
    stats = SeatStats(deals=10, leads=4, good_leads=3, declarer_cards=20, declarer_costly=2,
                      defence_cards=30, defence_costly=3, contracts=5, at_par=4)  # fmt: skip
    lines = [Line("bridge", 1, stats, stats), Line("preferans", 1, stats, stats)]
    for language, bridge_only, pref_only, recent in (
        ("ru", "разыгрывающий", "мизер", "за 30 дней: 10"),
        ("en", "as declarer", "misère", "last 30 days: 10"),
    ):
        t = Translator(language)
        bridge, pref = (r.text for r in render_stats(lines, {1: "Аня"}, "📊", t, ("bridge",)))
        assert bridge_only in bridge and bridge_only not in pref, (bridge, pref)
        assert pref_only in pref and pref_only not in bridge and "вист" not in bridge
        assert recent in bridge and recent in pref
    ru = polib_values("ru")
    assert "двойн" not in ru and "DD" not in ru and "при игре в открытую" not in ru
    assert "при открытых картах" in ru.lower()


def polib_values(language: str) -> str:
    from bot.i18n import LOCALE_DIR

    text = (LOCALE_DIR / language / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    return "\n".join(re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', text, re.M))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_preferans_turn_line_and_words_mid_line_read_as_bridges(language: str) -> None:
    t = Translator(language)
    turn = {"ru": ("▶ Слово: ", "▶ Ход: "), "en": ("▶ To call: ", "▶ Turn: ")}[language]
    words = "Пас|Вист|Полвиста|Мизер|Pass|Whist|Half|Misère"
    capital = re.compile(rf"(?:Торговля|Висты|Bidding|Whisting): .*\S ({words})\b")
    seen = set()
    for seed in range(30):
        _final, states = random_deal(seed)
        for state in states:
            text = render_table(snapshot(state), 3, state.view(None), t).text
            assert not capital.search(text), text
            assert "Ждём" not in text and "Waiting for" not in text
            if state.actor is not None and state.result is None:
                wanted = turn[0] if state.phase is Phase.AUCTION else turn[1]
                assert wanted in text, text
                seen.add(wanted)
    assert seen == set(turn)


def test_points_are_abbreviated_one_way() -> None:
    ru = polib_values("ru")
    assert "очк." in ru and not re.search(r"\bоч\.", ru)


BRIDGE_DEAL = BridgeDeal.shuffled(BridgeSeat.N, random.Random(4).randrange)


def test_down_is_said_in_words_in_both_games() -> None:
    """'без шести' at bridge as at Preferans (not 'без 6' in one game and words in the
    other)."""
    t = Translator("ru")
    # bridge: 7NT by N taking 7 tricks, played to the end through the rules
    state = BridgeState.new(BRIDGE_DEAL)
    for call in ("7NT", "P", "P", "P"):
        state = state.apply(MakeCall(state.actor or BridgeSeat.N, Call.parse(call)))
    rng = random.Random(1)
    while state.result is None or state.result.declarer_tricks != 7:
        if state.result is not None:
            state = BridgeState.new(BRIDGE_DEAL)
            for call in ("7NT", "P", "P", "P"):
                state = state.apply(MakeCall(state.actor or BridgeSeat.N, Call.parse(call)))
        actor = state.actor
        assert actor is not None
        state = state.apply(PlayCard(actor, rng.choice(sorted(state.legal_cards(actor)))))
    match = RubberMatch({})
    before = copy.deepcopy(match)
    written = match.record(outcome(state))
    notice = DealFinished(1, outcome(state), written, BridgeGameState(state), match, before)
    snap = dataclasses.replace(bridge_snapshot(state), state=BridgeGameState(state), match=match)
    text = render_deal_result(snap, notice, t).text
    assert "без шести" in text and "без 6" not in text, text
    assert t("verdict.down.6") == "без шести" and t("verdict.down.13") == "без тринадцати"
    result = Result(Kind.GAME, 0, Bid.parse("10NT"), {1: "whist", 2: "pass"}, {0: 4, 1: 6, 2: 0})
    assert "без шести" in result_line(result, {0: "Аня"}, t)


def test_a_rubbers_result_is_in_hundreds_only_when_the_group_rounds_to_them() -> None:
    from bot.games.bridge.score import result_line as rubber_result
    from games.bridge.cards import Side

    t = Translator("ru")
    assert rubber_result(Side.NS, 1300, t, True) == "С-Ю выиграли 1\u202f300 (в сотнях: 13)"
    assert rubber_result(Side.NS, 1270, t, False) == "С-Ю выиграли 1\u202f270"


def test_a_table_is_numbered_one_way_in_each_language() -> None:
    ru, en = polib_values("ru"), polib_values("en")
    assert not re.search(r"стол \{number\}", ru) and "стол №{number}" in ru
    assert not re.search(r"table \{number\}", en) and "table #{number}" in en


def test_money_words_once_each() -> None:
    """The group's money: a price's label once (its command under it, not a second label);
    the chart in money as soon as a stake is set, not only when two units are priced."""
    from bot.plugin import Plugins
    from bot.plugins import PLUGINS
    from bot.views.misc import render_group_settings
    from bot.views.pictures import in_money

    staked = ChatSettings(currency="RUB", prices={"points": 10})
    for language, label in (("ru", "Ставка"), ("en", "Stake")):
        text = render_group_settings(
            language,
            staked,
            Translator(language),
            Plugins(PLUGINS).prices(),
            Plugins(PLUGINS).offer(),
        ).text
        assert text.count(label) == 1, text
    assert in_money(["points"], staked) and not in_money(["points", "whists"], staked)
    assert not in_money(["points"], ChatSettings())


def test_no_gendered_forms_in_russian() -> None:
    """A player's gender is unknown: no "заплатил(а)" — the messages are written around it."""
    assert "(а)" not in polib_values("ru")


def test_help_speaks_the_clubs_words() -> None:
    """Bridge help names the stake command; /keep's example is names in seat order (not
    letters to copy); ending a sheet is one word in each language; 'сдающий', not 'сдатчик'."""
    ru = polib_values("ru")
    t = Translator("ru")
    assert "/settings stake" in t("help.bridge") and "/settings stake" in Translator("en")(
        "help.bridge"
    )
    assert "/keep С В Ю З" not in ru and "сдатчик" not in ru
    assert "/keep end" not in ru and "/prefkeep end" not in ru


def test_the_double_dummy_popup_never_reads_a_count_as_a_card() -> None:
    """ "♠: 2", not "♠2" (a card); the whole table fits a popup, in both languages."""
    from bot.games.bridge.score import dd_table
    from games.bridge.analysis import Analysis
    from games.bridge.calls import Strain

    tricks = {(s, seat): (3 * int(s) + int(seat)) % 14 for s in Strain for seat in BridgeSeat}
    analysis = Analysis(tricks, 0, ())
    for language in ("ru", "en"):
        text = Translator(language)("analysis.table_title") + "\n" + dd_table(analysis, language)
        assert len(text) <= 200, text
        assert not re.search(r"[♠♥♦♣]\d", text), text
        assert re.search(r"♠: \d", text)


def test_a_seat_letter_never_stands_beside_a_number() -> None:
    """'З' reads as '3' beside a number: the sides' counts follow a colon ('В-З: 2'), a
    robot's call follows a dot ('🤖 З · 1♠')."""
    ru = polib_values("ru")
    assert not re.search(r"(С-Ю|В-З) \{", ru), "a count right after a side"
    assert "В-З: {ew}" in ru


def test_help_names_people_with_at() -> None:
    """/help's sheet examples name a member with @ (a plain name is a guest or the group's
    player of that name)."""
    for language in ("ru", "en"):
        t = Translator(language)
        assert re.search(r"/keep @\w+", t("help.bridge")), t("help.bridge")
        assert re.search(r"/prefkeep @\w+", t("help.preferans")), t("help.preferans")
