"""Preferans screens: every version of the group's table message and of each player's private
screen, over random legal deals (three and four players, every variant), shows only cards its
reader may see (the rules' own statement of who sees what, in tests/games), and offers buttons
for exactly the legal actions."""

from __future__ import annotations

import re

import pytest

from bot.callback_data import Act, Button
from bot.games.preferans.buttons import TRICKS
from bot.games.preferans.table import (
    completed_tricks,
    render_private,
    render_table,
    tricks_popup,
)
from bot.i18n import Translator
from bot.tables import Holder, Snapshot
from games.core.registry import find_game
from games.preferans.cards import Card, Rank, Suit
from games.preferans.deal import DealState, Kind, MakeClaim, Phase, Play
from games.preferans.game import CODEC
from storage.interface import Chat, TableSettings, TableStatus
from tests.games.test_preferans_deal import allowed, random_deal

SYMBOLS = {"♠": Suit.SPADES, "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS}
RANKS = {"Т": Rank.ACE, "К": Rank.KING, "Д": Rank.QUEEN, "В": Rank.JACK}
RANKS |= {"A": Rank.ACE, "K": Rank.KING, "Q": Rank.QUEEN, "J": Rank.JACK}
RANKS |= {str(int(r)): r for r in (Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)}
SINGLE = re.compile(r"([♠♣♦♥])(10|[7-9]|[ТКДВAKQJ])")
LINE = re.compile(r"^([♠♣♦♥]) ([0-9ТКДВAKQJ ]+)$", re.MULTILINE)


def shown(text: str) -> set[Card]:
    text = re.sub(r"</?pre>", "\n", text)
    found = {Card(SYMBOLS[s], RANKS[r]) for s, r in SINGLE.findall(text)}
    for symbol, ranks in LINE.findall(text):
        found |= {Card(SYMBOLS[symbol], RANKS[r]) for r in ranks.split()}
    return found


def snapshot(state: DealState) -> Snapshot:
    seats = {s: Holder(100 + s, f"P{s}", 1000 + s, "ru") for s in range(state.deal.players)}
    return Snapshot(
        1,
        Chat(1, -100, "Club", "ru"),
        None,
        TableSettings(options={"players": state.deal.players}),
        TableStatus.PLAYING,
        seats,
        3,
        state,
        None,
        frozenset(),
        actions=7,
        game=find_game("preferans"),
        players=state.deal.players,
    )


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_screen_shows_only_what_its_reader_may_see(seed: int, language: str) -> None:
    t = Translator(language)
    _final, states = random_deal(seed)
    greyed = 0  # cards shown as disabled buttons: the hand, though not playable now
    for state in states:
        snap = snapshot(state)
        table = render_table(snap, 3, state.view(None), t)
        assert shown(table.text) <= allowed(state, None), (state.phase, table.text)
        # Its one button looks back at the completed tricks: played cards only.
        assert all(Button.decode(k.data).act == TRICKS for row in table.keys for k in row)
        popup = tricks_popup(state.view(None), {s: f"P{s}" for s in range(4)}, t)
        assert len(popup) <= 200 and shown(popup) <= allowed(state, None), popup
        for seat in range(state.deal.players):
            view = state.view(seat)
            menus = [""]
            if state.phase is Phase.DISCARD and seat == state.declarer:
                held = sorted(state.hands[seat])
                menus += [f"drop.{held[0]}", f"drop.{held[0]}.{held[5]}", "drop.SA.SA", "drop.XX"]
            claims = {a for a in state.legal_actions(seat) if isinstance(a, MakeClaim)}
            if claims:
                menus.append("claim")
            for menu in menus:
                screen = render_private(snap, seat, 3, view, t, menu)
                assert shown(screen.text) <= allowed(state, seat), (seat, state.phase, screen.text)
                assert " 0 карт" not in screen.text and " 0 cards" not in screen.text
                if menu.count(".") == 2 and menu != "drop.SA.SA":  # both chosen: confirm
                    assert t("pref.discard_chosen") in screen.text, screen.text
                actions = set()
                for row in screen.keys:
                    for key in row:
                        if key.disabled:  # a card of the hand played from, not playable now
                            assert shown(key.label) <= allowed(state, seat), key
                            assert view.legal and not menu, key
                            greyed += 1
                            continue
                        pressed = Button.decode(key.data)
                        assert pressed.table_id == 1 and pressed.deal_no == 3
                        if pressed.act is Act.ACTION:
                            assert pressed.at == 7
                            actions.add(CODEC.decode(seat, pressed.arg))
                        else:
                            if pressed.act is Act.UNDO:  # only who did the last thing
                                assert view.undoable_by == seat  # waiting, or on play again
                                continue
                            assert pressed.act is Act.MENU
                            assert state.phase is Phase.DISCARD or (
                                claims and pressed.arg in ("claim", "")
                            )
                        # a button shows a card only if its reader may see it
                        assert shown(key.label) <= allowed(state, seat)
                legal = set(state.legal_actions(seat))
                if state.phase is Phase.DISCARD and seat == state.declarer:
                    assert actions <= legal and len(actions) == (
                        1
                        if menu.count(".") == 2 and "SA.SA" not in menu and "XX" not in menu
                        else 0
                    )
                elif menu == "claim":
                    assert actions == claims  # the claim menu: exactly the claims allowed
                else:
                    offered_legal = {a for a in legal if not isinstance(a, MakeClaim)}
                    assert actions == offered_legal, (state.phase, seat)
    # Following suit, the rest of the hand stays on the keyboard, greyed out.
    assert greyed or not any(_follows(state, seat) for state in states for seat in range(4))


def _follows(state: DealState, seat: int) -> bool:
    """Whether ``seat`` is to play a card now and may not play every card it could show."""
    if seat >= state.deal.players:
        return False
    view = state.view(seat)
    plays = [a for a in view.legal if isinstance(a, Play)]
    hand = view.hands.get(view.turn, frozenset()) if view.turn is not None else frozenset()
    return bool(plays) and len(plays) < len(hand)


@pytest.mark.parametrize("seed", range(40))
def test_the_look_back_names_who_took_each_trick(seed: int) -> None:
    """The popup's takers, read off the view (the next trick's leader, the count for the last),
    are the rules' own winners."""
    _final, states = random_deal(seed)
    for state in states:
        for number, trick, taker in completed_tricks(state.view(None)):
            assert taker == state._winner(trick), (number, trick)


def test_the_look_back_names_raspasys_first_trick_winner() -> None:
    """In raspasy the first hand leads trick 2 again (the talon's second card): the taker of
    trick 1 is not the next trick's leader. The popup names the rules' winner."""
    checked = 0
    for seed in range(400):
        final, _ = random_deal(seed)
        view = final.view(None)
        if final.kind is not Kind.RASPASY or len(view.tricks) < 2:
            continue
        [(number, first, taker), *_] = completed_tricks(view)
        assert number == 1 and taker == first.winner(None), seed
        checked += view.tricks[1].leader != taker
    assert checked >= 5  # deals where the next leader is not the taker were among them
