"""Views are pure: rendered from states and snapshots without Telegram."""

from __future__ import annotations

import csv
import dataclasses
import io
import random
import re
from collections.abc import Callable
from functools import partial
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from telegram import Bot

from bot.callback_data import MAX_BYTES, Act, BadCallbackData, Button, action_data
from bot.games.bridge.buttons import CARD
from bot.games.bridge.cards import call_text, card_text
from bot.games.bridge.table import (
    auction_grid,
    bidding_box,
    card_buttons,
    render_private,
    render_seating,
    render_table,
    seat_waits,
    waiting,
)
from bot.games.bridge.ui import BRIDGE_UI
from bot.handlers.common import refusal_message, refusal_text
from bot.i18n import LANGUAGES, Translator, add_words, from_words, keys, plural_forms
from bot.outbox import Outbox, wire
from bot.plugin import Plugins
from bot.plugins import PLUGINS
from bot.presenter import Presenter
from bot.rendered import Rendered
from bot.screens import Drawing, Kept
from bot.tables import Change, Holder, Refusal, Snapshot
from bot.views import memo
from bot.views import text as text_module
from bot.views.money import ledger_csv
from bot.views.text import KEPT_LENGTH, plain_text
from games.bridge.calls import Call
from games.bridge.cards import FULL_DECK, Card, Deal, Seat, sort_hand
from games.bridge.deal import AnswerClaim, DealState, MakeCall, MakeClaim, PlayCard
from games.bridge.errors import BridgeReason
from games.bridge.game import BridgeState
from games.core.registry import find_game
from games.errors import Reason
from games.preferans.errors import PrefReason
from storage.interface import Chat, ChatSettings, LedgerRow, TableSettings, TableStatus
from storage.sqlite import SqliteStorage
from tests.fakeapi import FakeBotApi, InProcessRequest
from tests.games.strategies import played_deals
from tests.sizes import examples

SUITED = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")


def snapshot(state: DealState) -> Snapshot:
    seats = {s: Holder(i + 1, f"P{s.name}", 100 + i, "en") for i, s in enumerate(Seat)}
    return Snapshot(
        1,
        Chat(1, -100, "Club", "ru"),
        None,
        TableSettings(),
        TableStatus.PLAYING,
        seats,
        1,
        state,
        None,
        frozenset(),
        find_game("bridge"),
    )


@settings(max_examples=60, deadline=None)
@given(played_deals(finish=False), st.sets(st.sampled_from(list(Seat)), max_size=2))
def test_a_seat_waits_as_its_view_says(
    played: tuple[Deal, list[object]], paused: set[Seat]
) -> None:
    """Whether a seat's screen is a prompt is read from the state without building its view
    (a press asks it of all four seats): the same answer as the view's, at every step."""
    deal, actions = played
    state = DealState.new(deal)
    for action in [None, *actions]:
        if action is not None:
            state = state.apply(action)  # type: ignore[arg-type]
        snap = dataclasses.replace(snapshot(state), paused=frozenset(paused))
        for seat in Seat:
            assert seat_waits(snap, state, seat) == waiting(snap, state.view(seat))


def _all_screens(state: DealState) -> list[Callable[[], Rendered]]:
    """Every screen of ``state`` (the group's table, the four seats'), in each language and
    vulnerability, to be drawn."""
    snap = snapshot(state)
    screens: list[Callable[[], Rendered]] = []
    for language in ("ru", "en"):
        t = Translator(language)
        for vul in ((False, False), (True, False), (True, True)):
            screens.append(partial(render_table, snap, 1, state.view(None), vul, t, "bot"))
            for seat in Seat:
                screens.append(partial(render_private, snap, 1, state.view(seat), vul, t))
    return screens


@settings(max_examples=examples(40), deadline=None)
@given(played_deals(), played_deals())
def test_screens_drawn_from_kept_parts_are_the_screens_drawn_anew(
    one: tuple[Deal, list[object]], other: tuple[Deal, list[object]]
) -> None:
    """The auction grid and the tricks are drawn once a press and kept by the identity of the
    state's part they come from (``bot.views.memo``). Two tables play random deals (undos,
    claims) side by side; at every step each screen, in each language and vulnerability,
    drawn with what was kept from both tables' steps before equals the screen drawn with
    nothing kept."""
    states = [DealState.new(one[0]), DealState.new(other[0])]
    before = list(states)
    for step in range(max(len(one[1]), len(other[1])) + 1):
        for i, (_, actions) in enumerate((one, other)):
            before[i] = states[i]
            if 0 < step <= len(actions):
                states[i] = states[i].apply(actions[step - 1])  # type: ignore[arg-type]
        screens = [draw for state in states for draw in _all_screens(state)]
        anew = []
        for draw in screens:
            memo.forget()
            anew.append(draw())
        memo.forget()
        for state in before:  # the press before, as the bot drew it
            for draw in _all_screens(state):
                draw()
        kept = [draw() for draw in screens]
        assert kept == anew


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 10**12 - 1) | st.just(10**12),
    st.integers(0, 10**6 - 1) | st.just(10**6),
    st.integers(0, 10**4 - 1) | st.just(10**4),
    st.text(st.characters(codec="utf-8"), max_size=50)
    | st.text("ab.=+-_SQ19", min_size=0, max_size=45),
)
@example(10**12 - 1, 10**6 - 1, 10**4 - 1, "card." + "S" * 29)  # 64 bytes: the most
@example(10**12 - 1, 10**6 - 1, 10**4 - 1, "card." + "S" * 30)  # 65: one too many
@example(1, 1, 1, "card.SQ\n")  # "$" would let a last newline through
def test_an_action_buttons_data_is_the_buttons_encoding(
    table: int, deal: int, at: int, text: str
) -> None:
    """Action buttons' data is made with its head once per keyboard: the same text as
    ``Button.encode`` makes, and refused exactly where it refuses (too long, a bad number, a
    character the codec does not take)."""
    try:
        expected: str | None = Button(table, deal, Act.ACTION, text, at).encode()
    except ValueError:
        expected = None
    try:
        made: str | None = action_data(table, deal, at, text)
    except ValueError:
        made = None
    assert made == expected


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.integers(1, 60))
def test_a_name_cleaned_once_is_kept_and_a_long_text_is_not(text: str, limit: int) -> None:
    """Names are cleaned once and kept (every screen names four players); what is kept and
    what is not read the same, and a hostile long text never fills the memory kept."""
    kept, again = plain_text(text, limit), plain_text(text, limit)
    assert kept == again
    assert text_module._clean(text, limit) == kept
    long = (text or "x") * (KEPT_LENGTH + 1)
    before = text_module._kept.cache_info().currsize
    assert plain_text(long, limit) == text_module._clean(long, limit)
    assert text_module._kept.cache_info().currsize == before


def test_every_button_fits_telegrams_64_bytes() -> None:
    big = Button(999_999_999_999, 999_999, Act.SETTING, "rules=classic")
    assert len(big.encode().encode()) <= MAX_BYTES
    state = DealState.new(SUITED)
    for row in bidding_box(999_999_999_999, 999_999, 9_999, state.legal_calls(Seat.N), "ru"):
        for key in row:
            assert Button.decode(key.data).table_id == 999_999_999_999
    for row in card_buttons(1, 1, 52, frozenset(FULL_DECK), "en"):
        assert len(row) <= 7


def test_a_hand_following_suit_keeps_its_shape_with_the_rest_greyed_out() -> None:
    """The whole hand is the keyboard: the cards that may not be played are disabled buttons
    (Bot API 10.3), so the keyboard keeps its shape as the playable cards change."""
    hand = frozenset(sorted(FULL_DECK, key=lambda c: (c.suit, c.rank))[::4])  # 13 cards
    hearts = frozenset(c for c in hand if c.suit.name == "HEARTS")
    assert hearts and hearts != hand
    rows = card_buttons(1, 1, 5, hearts, "en", hand)
    keys = [key for row in rows for key in row]
    assert len(keys) == len(hand)
    assert {key.label for key in keys if not key.disabled} == {card_text(c, "en") for c in hearts}
    assert all(not key.data for key in keys if key.disabled)
    markup = wire.markup(Rendered("hand", rows))
    shown = [b for row in markup["inline_keyboard"] for b in row]  # type: ignore[union-attr]
    assert sum(b == {"text": b["text"], "disabled": {}} for b in shown) == len(hand - hearts)
    # With every card playable nothing is greyed out, and the shape is the same.
    assert [len(r) for r in card_buttons(1, 1, 5, hand, "en", hand)] == [len(r) for r in rows]


def test_every_seat_on_play_sees_its_whole_hand_with_the_rest_greyed_out() -> None:
    """Whoever is to play (North too, whose seat is 0), following suit, gets the hand played
    from as the keyboard: the legal cards pressable, the rest disabled."""
    rng = random.Random(4)
    greyed: set[Seat] = set()
    for _ in range(40):
        state = DealState.new(Deal.shuffled(Seat.N, rng.randrange))
        for call in ("1C", "P", "P", "P"):
            state = state.apply(MakeCall(state.actor, Call.parse(call)))  # type: ignore[arg-type]
        while state.play is not None and state.result is None:
            actor = state.actor
            assert actor is not None
            view = state.view(actor)
            hand = view.hands[view.turn] if view.turn is not None else frozenset()
            if len(view.legal_cards) < len(hand):
                rendered = render_private(
                    snapshot(state), 1, view, (False, False), Translator("en")
                )
                keys = [k for row in rendered.keys for k in row]
                disabled = {k.label for k in keys if k.disabled}
                assert disabled == {card_text(c, "en") for c in hand - view.legal_cards}
                greyed.add(actor)
            state = state.apply(PlayCard(actor, rng.choice(sorted(view.legal_cards))))
    assert Seat.N in greyed  # not only the seats whose number is not 0


def test_codec_round_trips_and_refuses_junk() -> None:
    button = Button(12, 3, CARD, "SQ")
    assert Button.decode(button.encode()) == button
    junk_data = ("", "b1:1:1", "b1:1:1:c:" + "x" * 41, "b2:1:1:c:P", "b1:-1:1:c:P", "b1:1:1:c:P\n")
    for junk in junk_data:
        try:
            Button.decode(junk)
        except BadCallbackData:
            continue
        raise AssertionError(junk)


def test_catalogues_have_the_same_keys() -> None:
    assert keys("ru") == keys("en")
    assert LANGUAGES == ("ru", "en")


def test_auction_grid_starts_in_the_dealers_column() -> None:
    state = DealState.new(SUITED.with_dealer(Seat.S))
    state = state.apply(MakeCall(Seat.S, Call.parse("1NT")))
    grid = auction_grid(state.view(None), "en").splitlines()
    assert grid[0].split() == ["N", "E", "S", "W"]
    assert grid[1].split() == ["1NT", "?"]
    assert grid[1].index("1NT") == 12  # third column


def test_the_group_follows_the_auction_call_by_call_and_names_whose_call_it_is() -> None:
    t = Translator("en")
    state = DealState.new(SUITED)
    table = render_table(snapshot(state), 1, state.view(None), (False, False), t, "bot")
    assert "▶ To call: PN (N)" in table.text and "?" in table.text
    state = state.apply(MakeCall(Seat.N, Call.parse("1S")))
    table = render_table(snapshot(state), 1, state.view(None), (False, False), t, "bot")
    grid = table.text.split("<pre>")[1].split("</pre>")[0].splitlines()
    assert grid[1].split() == ["1♠", "?"] and "▶ To call: PE (E)" in table.text
    ru = render_table(snapshot(state), 1, state.view(None), (False, False), Translator("ru"), "b")
    assert "▶ Слово: PE (В)" in ru.text


def test_group_view_shows_dummy_only_after_the_lead_and_names_trick_winners() -> None:
    state = DealState.new(SUITED)
    for call in ("1S", "P", "P", "P"):
        state = state.apply(MakeCall(state.actor or Seat.N, Call.parse(call)))
    t = Translator("en")
    before = render_table(snapshot(state), 1, state.view(None), (False, False), t, "bot")
    assert "Dummy" not in before.text and "♦" not in before.text
    for seat, card in ((Seat.E, "HA"), (Seat.N, "D2"), (Seat.W, "C2"), (Seat.N, "S2")):
        state = state.apply(PlayCard(seat, Card.parse(card)))
    after = render_table(snapshot(state), 1, state.view(None), (False, False), t, "bot")
    assert "Dummy S" in after.text and "♦ A K Q J 10" in after.text
    assert "→ N" in after.text
    assert "Trick 1: " in after.text  # the completed first trick, under its own number
    assert "▶ Turn: PN (N)" in after.text  # N won the trick and leads
    state = state.apply(PlayCard(Seat.N, Card.parse("S3")))
    second = render_table(snapshot(state), 1, state.view(None), (False, False), t, "bot")
    # every card shows as it is played, the trick before beside it, and whose turn it is
    assert "Trick 2: N ♠3" in second.text
    assert "Previous trick 1: E ♥A · S ♦2 · W ♣2 · N ♠2 → N" in second.text
    assert "▶ Turn: PE (E)" in second.text
    east = render_private(snapshot(state), 1, state.view(Seat.E), (False, False), t)
    own = east.text.split("Your hand")[1].split("</pre>")[0]
    assert "♠ —" in own and "♦ —" in own and "♣ —" in own and "♥ K Q J" in own


def test_a_waiting_players_message_follows_the_others_play() -> None:
    """A waiting player sees partner's call and each card as it comes, and whose turn it is,
    without switching to the group (the outbox sends it after the prompts)."""
    t = Translator("en")
    state = DealState.new(Deal.shuffled(Seat.N, lambda n: 0))

    def private(seat: Seat) -> str:
        return render_private(snapshot(state), 1, state.view(seat), (False, False), t).text

    west = private(Seat.W)
    assert "Your buttons appear here when it is your turn." in west
    assert "▶ To call: PN (N)" in west
    state = state.apply(MakeCall(Seat.N, Call.parse("1S")))
    west = private(Seat.W)
    assert "1♠" in west and "▶ To call: PE (E)" in west  # North's call, at once
    state = state.apply(MakeCall(Seat.E, Call.parse("P")))
    assert "▶ To call: PS (S)" in private(Seat.W)
    state = state.apply(MakeCall(Seat.S, Call.parse("P")))
    state = state.apply(MakeCall(Seat.W, Call.parse("P")))
    assert "Contract" in private(Seat.W) or "contract" in private(Seat.W)
    lead = sorted(state.legal_cards(Seat.E))[0]
    state = state.apply(PlayCard(Seat.E, lead))
    assert "dummy" in private(Seat.S).lower() and "Your hand" not in private(Seat.S)
    west = private(Seat.W)
    assert f"E {card_text(lead, 'en')}" in west  # the lead, on West's own screen
    assert "▶ Turn: PN from dummy (S)" in west or "dummy" in west.lower()
    state = state.apply(PlayCard(Seat.N, sorted(state.legal_cards(Seat.N))[0]))
    assert "Not your turn" not in private(Seat.W)  # now West must play: buttons


def test_the_ledger_csv_never_hands_a_spreadsheet_a_formula() -> None:
    names = {1: '=HYPERLINK("http://x")', 2: "@SUM(A1:A9)", 3: "-2+3", 4: "+cmd", 5: "Anna"}
    rows = [
        LedgerRow(
            i, 1, pid, points, "rubber", 1, "t", "=1+1" if pid == 1 else "", "2026-01-01", "points"
        )
        for i, (pid, points) in enumerate([(1, 300), (2, -300), (3, 100), (4, -100), (5, 0)])
    ]
    data = ledger_csv(rows, names, ChatSettings(prices={"points": 10}, currency="=RUB"))
    parsed = list(csv.reader(io.StringIO(data.decode())))[1:]
    for line in parsed:
        for cell in (line[3], line[6], line[8]):  # player, currency, note
            assert not cell.startswith(("=", "+", "-", "@")), line
    assert [line[3] for line in parsed] == [
        '\'=HYPERLINK("http://x")',
        "'@SUM(A1:A9)",
        "'-2+3",
        "'+cmd",
        "Anna",
    ]
    assert [int(line[4]) for line in parsed] == [300, -300, 100, -100, 0]  # numbers stay numbers


def test_a_popup_never_exceeds_what_telegram_accepts() -> None:
    """Every refusal, its every value as long as a hostile client can make it, fits a popup
    (Telegram refuses more than 200 characters); posted as a message it is escaped."""
    hostile = "<b>" + "x" * 300
    for language in ("en", "ru"):
        t = Translator(language)
        counted = set(plural_forms(language))
        for key in sorted(k for k in keys(language) if k.startswith("refusal.")):
            count = {"count": 4} if key in counted else {}
            fields = set(re.findall(r"{(\w+)}", t(key, **count))) - set(count)
            values: dict[str, object] = {**dict.fromkeys(fields, hostile), **count}
            refusal = Refusal(key.removeprefix("refusal."), **values)
            text = refusal_text(refusal, t)
            assert len(text) <= 200, key
            if fields:
                assert "<b>" in text, key  # a popup is plain text: nothing escaped
                assert "&lt;b&gt;" in refusal_message(refusal, t).text, key


def test_every_rule_refusal_has_its_words_in_both_languages() -> None:
    """The shared reasons and each game's own (``games/<game>/errors.py``)."""
    reasons = [*Reason, *BridgeReason, *PrefReason]
    for language in LANGUAGES:
        missing = [r.value for r in reasons if f"reason.{r.value}" not in keys(language)]
        assert not missing, (language, missing)


def test_russian_players_read_their_own_terms() -> None:
    """Контра and Реконтра on the buttons, full seat names to sit, "все в зоне"; a claim is a
    претензия."""
    t = Translator("ru")
    state = DealState.new(SUITED).apply(MakeCall(Seat.N, Call.parse("1C")))
    east = render_private(snapshot(state), 1, state.view(Seat.E), (True, True), t)
    labels = [k.label for row in east.keys for k in row]
    assert "Контра" in labels and "X" not in labels
    assert "все в зоне" in east.text
    doubled = state.apply(MakeCall(Seat.E, Call.parse("X")))
    south = render_private(snapshot(doubled), 1, doubled.view(Seat.S), (False, False), t)
    assert "Реконтра" in [k.label for row in south.keys for k in row]
    assert "никто не в зоне" in south.text
    empty = snapshot(state)
    seating = render_seating(
        Snapshot(
            1,
            empty.chat,
            None,
            TableSettings(),
            TableStatus.OPEN,
            {},
            0,
            None,
            None,
            frozenset(),
            find_game("bridge"),
        ),
        t,
    )
    assert [k.label for k in seating.keys[0]] == [
        "Сесть Север",
        "Сесть Восток",
        "Сесть Юг",
        "Сесть Запад",
    ]
    assert t("button.claim").startswith("🏳 Претензия") and "претензи" in t("claim.rejected")


def test_no_undo_button_before_the_player_has_done_anything() -> None:
    t = Translator("en")
    state = DealState.new(SUITED)  # N deals: N calls first
    for seat in (Seat.E, Seat.S, Seat.W):
        waiting = render_private(snapshot(state), 1, state.view(seat), (False, False), t)
        assert ":un" not in str(waiting.keys), seat
    after = state.apply(MakeCall(Seat.N, Call.parse("1C")))
    north = render_private(snapshot(after), 1, after.view(Seat.N), (False, False), t)
    assert any(Button.decode(k.data).act is Act.UNDO for row in north.keys for k in row)


def test_a_finished_deal_shows_how_it_went_and_the_hand_held() -> None:
    """Not four empty suits: the result, and the thirteen cards the player was dealt."""
    t = Translator("en")
    state = DealState.new(SUITED)
    for seat, call in ((Seat.N, "1S"), (Seat.E, "P"), (Seat.S, "P"), (Seat.W, "P")):
        state = state.apply(MakeCall(seat, Call.parse(call)))
    while state.result is None:
        actor = state.actor
        assert actor is not None
        card = min(state.legal_cards(actor), key=lambda c: (c.suit, c.rank))
        state = state.apply(PlayCard(actor, card))
    for seat in Seat:
        text = render_private(snapshot(state), 1, state.view(seat), (False, False), t).text
        assert "1♠ +6" in text, text
        block = text.split("<pre>")[1].split("</pre>")[0]
        shown = [w for line in block.splitlines() for w in line.split()[1:] if w != "—"]
        assert len(shown) == 13
        assert shown == [card_text(c, "en")[1:] for c in sort_hand(SUITED.hand(seat))]


def test_money_reads_as_money_first() -> None:
    """Currency first, points after; thin spaces in thousands; a real minus sign."""
    from bot.views.amounts import THIN, amount, number

    ru = Translator("ru")
    group = ChatSettings(prices={"points": 10}, currency="₽")
    assert number(1234567) == f"1{THIN}234{THIN}567" and number(-1200) == f"−1{THIN}200"
    assert amount(1200, group, ru) == f"120 ₽ (1{THIN}200 очк.)"
    assert amount(-1250, group, ru, sign=True) == f"−125 ₽ (−1{THIN}250 очк.)"
    penny = ChatSettings(prices={"points": 1}, currency="RUB")
    assert amount(5, penny, ru, sign=True) == "+0,05 RUB (+5 очк.)"  # a decimal comma
    assert amount(5, penny, Translator("en"), sign=True) == "+0.05 RUB (+5 pts)"
    assert amount(1200, ChatSettings(), ru) == f"1{THIN}200"  # no stake: points alone
    assert "-" not in amount(-30, group, ru, sign=True)


def test_one_screen_shows_the_auction_grid_and_the_trick_as_they_go() -> None:
    """A player sees the seat-labelled auction and the trick as they stand, waiting or on
    turn: dummy's card shows on East's screen at once."""
    t = Translator("en")
    state = DealState.new(Deal.shuffled(Seat.N, lambda n: 0))
    for call in ("1S", "P", "2S", "P", "P", "P"):
        assert state.turn is not None
        state = state.apply(MakeCall(state.turn, Call.parse(call)))
    view = render_private(snapshot(state), 1, state.view(Seat.E), (False, False), t).text
    assert "<pre>N     E     S     W" in view and "2♠" in view  # East leads: the whole grid
    lead = sorted(state.legal_cards(Seat.E))[0]
    state = state.apply(PlayCard(Seat.E, lead))
    east = render_private(snapshot(state), 1, state.view(Seat.E), (False, False), t).text
    assert state.turn is Seat.S and state.actor is Seat.N  # declarer plays dummy's card
    assert "▶ Turn: PN plays from dummy (S)" in east
    south_card = sorted(state.legal_cards(Seat.N))[0]
    state = state.apply(PlayCard(Seat.N, south_card))
    later = render_private(snapshot(state), 1, state.view(Seat.E), (False, False), t).text
    assert f"E {card_text(lead, 'en')} · S {card_text(south_card, 'en')}" in later


def test_every_screen_shows_the_latest_call_or_card_over_whole_deals() -> None:
    """Over whole random deals, after each call or card every player's screen shows it (the
    auction grid, or the trick under way or just completed): nobody has to switch to the
    group to follow partner. Under the overall cap the outbox sends the prompt first."""
    t = Translator("ru")
    for seed in range(6):
        rng = random.Random(seed)
        state = DealState.new(Deal.shuffled(Seat(seed % 4), rng.randrange))
        while state.result is None:
            actor = state.actor
            assert actor is not None
            if state.play is None:
                call = rng.choice(list(state.legal_calls(actor)))
                state = state.apply(MakeCall(actor, call))
                shown = call_text(call, "ru")
            else:
                card = rng.choice(sorted(state.legal_cards(actor)))
                state = state.apply(PlayCard(actor, card))
                shown = card_text(card, "ru")
            if state.result is not None:
                break
            for seat in Seat:
                text = render_private(snapshot(state), 1, state.view(seat), (False, False), t)
                assert shown in text.text, (seed, seat, shown, text.text)


def test_the_table_shows_a_claims_tricks_and_no_tricks_for_a_passed_out_deal() -> None:
    """After an accepted claim the group table gives the tricks the claim gave (not those
    played before it); a passed-out deal shows no tricks line at all."""
    t = Translator("en")
    passed = DealState.new(SUITED)
    for _ in range(4):
        passed = passed.apply(MakeCall(passed.actor or Seat.N, Call.parse("P")))
    assert passed.result is not None
    text = render_table(snapshot(passed), 1, passed.view(None), (False, False), t, "bot").text
    assert "Tricks:" not in text
    state = DealState.new(SUITED)
    for call in ("1S", "P", "P", "P"):
        state = state.apply(MakeCall(state.actor or Seat.N, Call.parse(call)))
    for seat, card in ((Seat.E, "HA"), (Seat.N, "D2"), (Seat.W, "C2"), (Seat.N, "S2")):
        state = state.apply(PlayCard(seat, Card.parse(card)))
    state = state.apply(MakeClaim(Seat.N, 12))
    claimed = render_table(snapshot(state), 1, state.view(None), (False, False), t, "bot").text
    assert "🏳 PN (N) claims 12 of 12" in claimed, claimed  # who, and of how many
    state = state.apply(AnswerClaim(Seat.E, True)).apply(AnswerClaim(Seat.W, True))
    assert state.result is not None and state.result.claimed
    text = render_table(snapshot(state), 1, state.view(None), (False, False), t, "bot").text
    assert "By the claim — N-S: 13 · E-W: 0" in text, text
    assert "Tricks — N-S: 1" not in text


def test_the_auction_grid_marks_the_vulnerable_seats() -> None:
    """As BBO colours them: a star beside each vulnerable seat, in every screen's grid."""
    state = DealState.new(SUITED).apply(MakeCall(Seat.N, Call.parse("1S")))
    assert auction_grid(state.view(None), "ru", (True, False)).splitlines()[0].split() == [
        "С*", "В", "Ю*", "З",
    ]  # fmt: skip
    t = Translator("en")
    table = render_table(snapshot(state), 1, state.view(None), (False, True), t, "bot").text
    assert "N     E*    S     W*" in table
    private = render_private(snapshot(state), 1, state.view(Seat.E), (False, True), t).text
    waiting = render_private(snapshot(state), 1, state.view(Seat.W), (False, True), t).text
    assert "E*" in private and "W*" in waiting


def test_a_deal_table_is_drawn_when_it_goes_not_when_it_changes() -> None:
    """A group's table is paced (one edit in 4 s), so several presses replace it before it
    goes: it is wanted as a way to draw it, drawn once by the outbox when it is sent, with
    "My cards" under it while the hands are in the group, the same as drawn at once."""
    state = DealState.new(SUITED)
    for text in ("1S", "P", "P", "P"):
        state = state.apply(MakeCall(state.actor, Call.parse(text)))  # type: ignore[arg-type]
    snap = dataclasses.replace(
        snapshot(state), state=BridgeState(state), settings=TableSettings(hands="group")
    )
    drawing = Drawing("bridge_test_bot", lambda table_id, key: False)
    BRIDGE_UI.show_deal(drawing, snap)
    [table] = [s for s in drawing.shown if isinstance(s, Kept) and s.key == "table:1"]
    assert callable(table.content)
    drawn = table.content()
    t = Translator("ru")
    at_once = render_table(snap, 1, state.view(None), (False, False), t, "bridge_test_bot")
    assert drawn.text == at_once.text
    assert drawn.keys[:-1] == at_once.keys
    [[my_cards]] = drawn.keys[-1:]
    assert my_cards.label == t("button.my_cards")
    assert Button.decode(my_cards.data).act is Act.CARDS


async def test_the_first_deals_seating_message_is_drawn_when_it_goes(tmp_path: Path) -> None:
    """Through the match's first deal every press asks for the seating message it started
    from (edited once to say the match is on, and the same from then on): it is wanted as a
    way to draw it, not drawn at every press, and draws what the seating view says."""
    api = FakeBotApi()
    storage = await SqliteStorage.open(str(tmp_path / "views.sqlite3"))
    bot = Bot(api.token, request=InProcessRequest(api), get_updates_request=InProcessRequest(api))
    outbox = Outbox(bot, storage)
    try:
        presenter = Presenter(outbox, "bridge_test_bot", Plugins(PLUGINS))
        state = DealState.new(SUITED).apply(MakeCall(Seat.N, Call.parse("1S")))
        snap = dataclasses.replace(snapshot(state), state=BridgeState(state), dealer_drawn=True)
        drawing = Drawing("bridge_test_bot", lambda table_id, key: False)
        presenter._draw(drawing, Change(snap))
        [seating] = [s for s in drawing.shown if isinstance(s, Kept) and s.key == "seating:0"]
        assert seating.only_shown and callable(seating.content)
        expected = BRIDGE_UI.seating(snap, Translator("ru"), "bridge_test_bot")
        assert seating.content() == expected
    finally:
        await outbox.close()
        await storage.close()


def test_a_plugins_words_join_after_the_same_key_was_asked(tmp_path: Path) -> None:
    """Messages without values are looked up once and kept; words a plug-in adds later (as
    the application is built) still replace what was asked before them."""
    key = "zz.views_test.word"
    assert Translator("en")(key) == key
    catalogue = (Path(__file__).parents[1] / "toy" / "locale" / "en.po").read_text()
    header = catalogue[: catalogue.index('msgid "command.toy"')]
    (tmp_path / "en.po").write_text(header + f'msgid "{key}"\nmsgstr "Zed"\n')
    named = from_words(lambda language: Translator(language)(key))  # kept as a card's name is
    assert named("en") == key
    filled = f"{key}.filled"
    assert Translator("en")(filled, name="Анна") == filled  # a message with values, kept too
    (tmp_path / "en.po").write_text(
        header + f'msgid "{key}"\nmsgstr "Zed"\n\nmsgid "{filled}"\nmsgstr "Zed, {{name}}"\n'
    )
    add_words(tmp_path)
    assert Translator("en")(key) == "Zed"
    assert Translator("ru")(key) == "Zed"  # English, as any key the language lacks
    assert named("en") == "Zed"  # what was read from the words before is read again
    assert Translator("en")(filled, name="Анна") == "Zed, Анна"
    assert Translator("en")(filled, name=["a list"]) == "Zed, ['a list']"  # kept or not
    assert Translator("en")(filled, name=2) == "Zed, 2"  # equal values of other types are
    assert Translator("en")(filled, name=2.0) == "Zed, 2.0"  # written each their own way
    assert Translator("en")(filled, name=True) == "Zed, True"
