"""A Preferans deal: random legal deals to the end, replay, privacy of every view, and the rules
(auction, talon and contract, whisting, play, misère, raspasy, claims)."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.registry import find_game
from games.errors import OutOfTurn, Reason, RuleError
from games.preferans.bids import Bid
from games.preferans.cards import PACK, Card, Deal, Suit
from games.preferans.conditions import SWITCHES, Conditions, switches_of
from games.preferans.deal import (
    REDROPS,
    Action,
    AnswerClaim,
    Call,
    DealState,
    Declare,
    Discard,
    Kind,
    MakeClaim,
    Phase,
    Play,
    Redrop,
    Show,
    Undo,
    Whist,
    legal_everywhere,
)
from games.preferans.entry import Entry, parse_entry
from games.preferans.errors import PrefReason
from games.preferans.game import CODEC, write
from games.preferans.pulka import Pulka
from tests.sizes import examples

VARIANTS = ["sochi", "leningrad", "rostov", "stalingrad"]


def random_conditions(rng: random.Random, variant: str) -> Conditions:
    """A variant's preset with some of its switches set at random (§8)."""
    switches = {
        key: rng.choice(SWITCHES[key]) for key in switches_of(variant) if rng.random() < 0.5
    }
    return Conditions.of(variant, switches)


def allowed(state: DealState, viewer: int | None) -> set[Card]:
    """Who may see what, stated independently of the engine's views (PREFERANS.md §2–§5)."""
    played = {c for trick in state.tricks for c in trick.cards}
    if state.result is not None:
        return set(PACK)  # the full deal, as dealt, once the deal is over
    seen = set(played)
    if viewer is not None and viewer in state.hands:
        seen |= state.hands[viewer]
    if state.kind in (Kind.GAME, Kind.MISERE):
        seen |= set(state.deal.talon)  # shown to all once the auction is over
        if viewer == state.declarer:
            seen |= set(state.discard)
        first, second = state.defenders
        misere_open = state.kind is Kind.MISERE and state.tricks and len(state.tricks[0].plays) == 3
        if (state.kind is Kind.GAME and state.shown) or misere_open:
            seen |= state.hands[first] | state.hands[second]
    if state.kind is Kind.RASPASY and state.variant.value != "rostov":
        done = sum(1 for t in state.tricks if len(t.plays) == 3)
        seen |= set(state.deal.talon[: min(done + 1, 2)])
    return seen


def random_deal(seed: int) -> tuple[DealState, list[DealState]]:
    rng = random.Random(seed)
    players = rng.choice([3, 4])
    deal = Deal.shuffled(players, rng.randrange(players), rng.randrange)
    variant = rng.choice(VARIANTS)
    state = DealState.new(deal, variant, random_conditions(rng, variant), rng.choice((6, 6, 7, 8)))
    states = [state]
    while state.result is None:
        options = legal_everywhere(state)
        assert options, (state.phase, state.turn)
        # Fewer high bids than a uniform choice would make: more played deals and raspasy.
        calls = [a for a in options if isinstance(a, Call)]
        if calls and rng.random() < 0.6:
            action = calls[0] if rng.random() < 0.7 else rng.choice(calls[:4])
        else:
            action = rng.choice(list(options))
        state = state.apply(action)
        states.append(state)
    return state, states


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 10**9))
def test_random_legal_deals_end_replay_and_score(seed: int) -> None:
    final, _states = random_deal(seed)
    result = final.result
    assert result is not None
    if result.tricks is not None:
        assert sum(result.tricks.values()) == 10
        if not result.claimed:
            played = [c for t in final.tricks for c in t.cards]
            assert len(played) == 30 and len(set(played)) == 30
    # replay from the actions, and from their text, gives the same state
    assert again(final, final.history) == final
    # the conditions held (§8): the exit, compulsory whist, no half-whist, who shows
    rules = final.conditions
    bids = [a.bid for a in final.history if isinstance(a, Call) and a.bid is not None]
    assert all(b.is_misere or b.level >= final.floor for b in bids)
    words = [a.word for a in final.history if isinstance(a, Whist)]
    shows = [a for a in final.history if isinstance(a, Show)]
    if result.kind is Kind.GAME and result.contract is not None:
        if rules.compulsory_on(result.contract):
            assert not words and set(result.whist.values()) == {"whist"}
            assert result.tricks is not None and not result.shown
        if rules.whist_play != "choice":
            assert not shows
            if list(result.whist.values()).count("whist") == 1 and result.tricks is not None:
                assert result.shown == (rules.whist_play == "open")
    if not rules.half_whist:
        assert "half" not in words
    texts = [CODEC.encode(a) for a in final.history]
    decoded = [CODEC.decode(a.seat, t) for a, t in zip(final.history, texts, strict=True)]
    assert decoded == list(final.history)
    assert all(len(t) <= 24 for t in texts)
    # it scores on a pulka, and the sheet still balances
    pulka = Pulka(final.deal.players, 50, final.variant.value, final.conditions)
    write(pulka, result, final.deal.dealer)
    assert sum(pulka.balances()) == Fraction(0)


@settings(max_examples=examples(120), deadline=None)
@given(st.integers(0, 10**9))
def test_no_view_ever_holds_a_card_its_seat_may_not_see(seed: int) -> None:
    _final, states = random_deal(seed)
    for state in states:
        for viewer in (None, *range(state.deal.players)):
            view = state.view(viewer)
            assert view.cards_seen() <= allowed(state, viewer), (state.phase, viewer)
            if state.phase is Phase.AUCTION:
                assert not set(view.talon) & set(state.deal.talon)
            if viewer != state.declarer:
                assert not view.discard


def again(state: DealState, history: tuple[Action, ...]) -> DealState:
    """``history`` replayed on ``state``'s deal under its rules."""
    return DealState.replay(state.deal, history, state.variant, state.conditions, state.floor)


# --- the rules, case by case ---------------------------------------------------------------


def fixed_deal(dealer: int = 2, players: int = 3) -> Deal:
    hands_text = {
        0: "SA SK SQ SJ S10 S9 S8 S7 CA CK",
        1: "CQ CJ C10 C9 C8 C7 DA DK DQ DJ",
        2: "D10 D9 D8 D7 HA HK HQ HJ H10 H9",
    }
    active = [i for i in range(players) if not (players == 4 and i == dealer)]
    hands = {
        seat: frozenset(Card.parse(w) for w in hands_text[k].split())
        for k, seat in enumerate(active)
    }
    return Deal(players, dealer, hands, (Card.parse("H8"), Card.parse("H7")))


def calls(state: DealState, *texts: str) -> DealState:
    for text in texts:
        seat = state.turn
        assert seat is not None
        state = state.apply(Call(seat, None if text == "P" else Bid.parse(text)))
    return state


def refused(state: DealState, action: object) -> Reason:
    with pytest.raises(RuleError) as error:
        state.apply(action)  # type: ignore[arg-type]
    return error.value.reason


def test_the_first_hand_bids_first_and_the_ladder_goes_up() -> None:
    state = DealState.new(fixed_deal(dealer=2))
    assert state.turn == 0  # left of the dealer
    state = calls(state, "6S")
    assert refused(state, Call(1, Bid.parse("6S"))) is Reason.INSUFFICIENT_BID
    state = calls(state, "6C", "6D")
    assert state.bid == Bid.parse("6D") and state.turn == 0


def test_misere_only_as_a_first_call_then_nine_or_more() -> None:
    state = calls(DealState.new(fixed_deal()), "6S")
    assert Call(1, Bid.misere()) in state.legal_actions(1)  # above 6♠, as a first call
    state = calls(state, "MIS")
    legal = {a.bid for a in state.legal_actions(state.turn or 0) if isinstance(a, Call)}
    assert min(b for b in legal if b is not None) == Bid.parse("9S")
    assert Bid.misere() not in legal
    state = calls(DealState.new(fixed_deal()), "6S", "P", "6C")
    assert refused(state, Call(0, Bid.misere())) is PrefReason.MISERE_NOT_FIRST


def test_all_pass_is_raspasy_and_the_talon_sets_the_first_two_tricks() -> None:
    state = calls(DealState.new(fixed_deal(), "sochi"), "P", "P", "P")
    assert state.kind is Kind.RASPASY and state.turn == 0
    assert state.view(1).talon == (Card.parse("H8"),)  # turned for trick 1 only
    # trick 1 is in hearts (the talon's H8): seat 2 must play a heart; seats 0 and 1 have none
    # and follow the first hand's card (pinned).
    state = state.apply(Play(0, Card.parse("SA")))
    assert state.legal_cards(1) == {c for c in state.hands[1] if c.suit is Suit.SPADES} or all(
        c.suit is not Suit.SPADES for c in state.hands[1]
    )
    state = state.apply(Play(1, Card.parse("CQ")))
    assert all(c.suit is Suit.HEARTS for c in state.legal_cards(2))
    state = state.apply(Play(2, Card.parse("H9")))
    assert state.taken[2] == 1  # the only heart wins
    assert state.turn == 0  # the first hand plays first to trick 2 as well
    assert state.view(None).talon == (Card.parse("H8"), Card.parse("H7"))
    rostov = calls(DealState.new(fixed_deal(), "rostov"), "P", "P", "P")
    assert rostov.view(0).talon == ()  # Rostov: the talon stays closed, the first hand leads
    for variant, leader in (("rostov", 0), ("sochi", 1)):
        state = calls(DealState.new(fixed_deal(dealer=0), variant), "P", "P", "P")
        assert state.turn == 1
        for seat, card in ((1, "CQ"), (2, "D10"), (0, "CA")):
            if card in {str(c) for c in state.legal_cards(seat)}:
                state = state.apply(Play(seat, Card.parse(card)))
            else:  # Sochi: the turned talon card may ask for another suit
                state = state.apply(Play(seat, min(state.legal_cards(seat))))
        assert sum(state.taken.values()) == 1
        if variant == "rostov":
            assert state.taken[0] == 1 and state.turn == leader  # the winner leads trick 2
        else:
            assert state.turn == leader  # the first hand plays first to trick 2 as well


def test_talon_discard_contract_whist_and_open_play() -> None:
    state = calls(DealState.new(fixed_deal()), "6S", "P", "P")
    assert state.declarer == 0 and state.phase is Phase.DISCARD
    assert set(state.view(1).talon) == {Card.parse("H8"), Card.parse("H7")}  # shown to all
    assert (
        refused(state, Discard(0, (Card.parse("DA"), Card.parse("H8")))) is PrefReason.BAD_DISCARD
    )
    state = state.apply(Discard(0, (Card.parse("H8"), Card.parse("H7"))))
    assert state.view(0).discard and not state.view(1).discard and not state.view(None).discard
    assert refused(state, Declare(0, Bid.parse("MIS"))) is PrefReason.CONTRACT_BELOW_BID
    state = state.apply(Declare(0, Bid.parse("7S")))
    assert state.turn == 1  # the first defender, left of declarer
    state = state.apply(Whist(1, "pass"))
    assert Whist(2, "half") in state.legal_actions(2)  # half on a seven, by the second only
    state = state.apply(Whist(2, "half"))
    assert state.turn == 1 and Whist(1, "half") not in state.legal_actions(1)
    state = state.apply(Whist(1, "whist"))  # the second chance: the deal is played
    assert state.phase is Phase.SHOW and state.turn == 1
    state = state.apply(Show(1, True))
    assert state.view(0).hands.keys() == {0, 1, 2}  # open: both defenders' hands to all
    assert state.view(None).hands.keys() == {1, 2}
    state = state.apply(Play(0, Card.parse("SA")))
    assert state.turn == 1 and state.actor == 1
    state = state.apply(Play(1, Card.parse("CQ")))
    assert state.turn == 2 and state.actor == 1  # the whister plays the passer's cards
    assert refused(state, Play(2, Card.parse("D10"))) is Reason.NOT_YOUR_TURN


def test_the_discard_can_be_changed_until_the_game_is_named() -> None:
    """The Code: a new discard while no game is named (here up to ``REDROPS`` times a deal: a
    bound on the log, not a rule players meet); not once it is named, and never in a misère
    (named at the auction)."""
    state = calls(DealState.new(fixed_deal()), "6S", "P", "P")
    held = state.hands[0]
    assert Redrop(0) not in state.legal_actions(0)  # nothing laid away yet
    state = state.apply(Discard(0, (Card.parse("H8"), Card.parse("H7"))))
    assert Redrop(0) in state.legal_actions(0) and state.phase is Phase.CONTRACT
    assert refused(state, Redrop(1)) is Reason.NOT_YOUR_TURN
    state = state.apply(Redrop(0))
    assert state.phase is Phase.DISCARD and state.hands[0] == held and not state.discard
    state = state.apply(Discard(0, (Card.parse("CK"), Card.parse("CA"))))
    assert set(state.discard) == {Card.parse("CA"), Card.parse("CK")}
    assert state.hands[0] == held - {Card.parse("CA"), Card.parse("CK")}
    assert not state.view(1).discard and not state.view(None).discard
    state = state.apply(Declare(0, Bid.parse("6S")))
    assert refused(state, Redrop(0)) is Reason.NOT_YOUR_TURN  # the defenders speak now
    assert DealState.replay(state.deal, state.history) == state
    texts = [CODEC.encode(a) for a in state.history]
    assert "redrop" in texts
    assert [CODEC.decode(a.seat, t) for a, t in zip(state.history, texts, strict=True)] == list(
        state.history
    )
    misere = calls(DealState.new(fixed_deal()), "MIS", "P", "P")
    misere = misere.apply(Discard(0, (Card.parse("SA"), Card.parse("SK"))))
    assert refused(misere, Redrop(0)) is Reason.WRONG_PHASE
    again = calls(DealState.new(fixed_deal()), "6S", "P", "P")
    for _ in range(REDROPS):
        again = again.apply(Discard(0, (Card.parse("H8"), Card.parse("H7"))))
        again = again.apply(Redrop(0))
    again = again.apply(Discard(0, (Card.parse("H8"), Card.parse("H7"))))
    assert Redrop(0) not in again.legal_actions(0)
    assert refused(again, Redrop(0)) is not None
    assert again.apply(Declare(0, Bid.parse("6S"))).contract == Bid.parse("6S")


def test_half_whist_on_an_eight_is_refused_and_both_passing_ends_the_deal() -> None:
    state = calls(DealState.new(fixed_deal()), "8S", "P", "P")
    state = state.apply(Discard(0, (Card.parse("H8"), Card.parse("H7"))))
    state = state.apply(Declare(0, Bid.parse("8S")))
    state = state.apply(Whist(1, "pass"))
    assert refused(state, Whist(2, "half")) is PrefReason.BAD_WHIST
    state = state.apply(Whist(2, "pass"))
    assert state.result is not None and state.result.tricks is None
    pulka = Pulka()
    write(pulka, state.result, 2)
    assert pulka.pool == [6, 0, 0]


def test_must_follow_then_must_trump() -> None:
    state = calls(DealState.new(fixed_deal()), "6H", "P", "P")
    state = state.apply(Discard(0, (Card.parse("CA"), Card.parse("CK"))))
    state = state.apply(Declare(0, Bid.parse("6H")))
    state = state.apply(Whist(1, "whist")).apply(Whist(2, "whist"))
    state = state.apply(Play(0, Card.parse("SA")))
    # seat 1 has no spade and no heart: anything; seat 2 has no spade but hearts: must trump
    assert state.legal_cards(1) == state.hands[1]
    state = state.apply(Play(1, Card.parse("CQ")))
    assert all(c.suit is Suit.HEARTS for c in state.legal_cards(2))
    assert refused(state, Play(2, Card.parse("D10"))) is PrefReason.MUST_TRUMP


def test_misere_shows_the_defenders_after_the_first_trick() -> None:
    state = calls(DealState.new(fixed_deal()), "MIS", "P", "P")
    assert state.kind is Kind.MISERE
    state = state.apply(Discard(0, (Card.parse("SA"), Card.parse("SK"))))
    assert state.phase is Phase.PLAY  # no contract to name, no whisting
    assert state.view(1).hands.keys() == {1}
    for _ in range(3):
        seat = state.actor
        assert seat is not None
        state = state.apply(Play(seat, min(state.legal_cards(state.turn or 0))))
    assert state.view(1).hands.keys() == {1, 2} and state.view(0).hands.keys() == {0, 1, 2}
    assert 0 not in state.view(1).hands  # declarer's hand stays hidden


def test_a_claim_accepted_ends_the_deal_and_a_rejected_one_does_not() -> None:
    state = calls(DealState.new(fixed_deal()), "6S", "P", "P")
    state = state.apply(Discard(0, (Card.parse("H8"), Card.parse("H7"))))
    state = state.apply(Declare(0, Bid.parse("6S")))
    state = state.apply(Whist(1, "whist")).apply(Whist(2, "pass")).apply(Show(1, False))
    assert MakeClaim(0, 10) in state.legal_actions(0)
    claimed = state.apply(MakeClaim(0, 8))
    assert refused(claimed, Play(0, Card.parse("SA"))) is Reason.CLAIM_PENDING
    back = claimed.apply(AnswerClaim(1, False))
    assert back.claim is None and back.result is None
    done = claimed.apply(AnswerClaim(1, True)).apply(AnswerClaim(2, True))
    assert done.result is not None and done.result.claimed
    assert done.result.tricks == {0: 8, 1: 2, 2: 0}


def test_four_players_the_dealer_sits_out() -> None:
    state = DealState.new(fixed_deal(dealer=1, players=4))
    assert state.active == (0, 2, 3) and state.turn == 2  # left of the dealer, skipping
    assert 1 not in state.hands
    for viewer in range(4):
        assert viewer != 1 or not state.view(viewer).hands


def test_the_game_is_found_by_name() -> None:
    game = find_game("Преферанс")
    assert game is find_game("pref") and game.name == "preferans"
    assert game.active_seats(4, 2) == (0, 1, 3)
    payload = game.new_deal(3, 0, random.Random(1).randrange)
    assert game.start(3, payload).turn == 1
    with pytest.raises(RuleError):
        find_game("whist")


# --- the scorekeeper's text ----------------------------------------------------------------


@st.composite
def entries(draw: st.DrawFn) -> Entry:
    dealer = draw(st.none() | st.integers(0, 3))
    split = sorted(draw(st.lists(st.integers(0, 10), min_size=2, max_size=2)))
    tricks = (split[0], split[1] - split[0], 10 - split[1])
    kind = draw(st.sampled_from(["game", "misere", "raspasy"]))
    if kind == "raspasy":
        return Entry("raspasy", tricks=tricks, dealer=dealer)
    declarer = draw(st.integers(0, 3))
    if kind == "misere":
        return Entry("misere", declarer, Bid.misere(), None, (draw(st.integers(0, 10)),), dealer)
    contract = draw(st.sampled_from([b for b in map(Bid, range(26)) if not b.is_misere]))
    whist = draw(st.sampled_from([("whist", "pass"), ("pass", "pass"), ("pass", "half")]))
    played = whist != ("pass", "pass") and whist != ("pass", "half")
    return Entry("game", declarer, contract, whist, tricks if played else None, dealer)


@given(entries(), st.sampled_from([0, 1]))
def test_typed_results_read_back(entry: Entry, first_seat: int) -> None:
    """From the engine's numbering and from the table's ("Место 1") alike."""
    assert parse_entry(entry.code(first_seat), first_seat) == entry


def test_typed_seats_from_one_mean_the_table_s_seats() -> None:
    assert parse_entry("7♥ 1 вист/пас 6/3/1", first_seat=1) == parse_entry("7♥ 0 вист/пас 6/3/1")
    assert parse_entry("мизер 3 0 d4", first_seat=1).declarer == 2
    assert parse_entry("мизер 3 0 d4", first_seat=1).dealer == 3
    for text in ("7♥ 0 вист/пас 6/3/1", "мизер 0 0", "пас 2/5/3 d0"):
        with pytest.raises(RuleError):  # no seat 0 where seats count from 1
            parse_entry(text, first_seat=1)


@pytest.mark.parametrize(
    ("text", "scores"),
    [
        ("7♥ 0 вист/пас 6/3/1", {"gora": [4, 0, 0]}),
        ("мизер 1 0", {"pool": [0, 10, 0]}),
        ("распасы 2/5/3", {"gora": [2, 5, 3]}),
        ("6S 2 pass/half", {"pool": [0, 0, 2]}),
    ],
)
def test_typed_results_score(text: str, scores: dict[str, list[int]]) -> None:
    pulka = Pulka()
    parse_entry(text).write(pulka)
    for key, expected in scores.items():
        assert getattr(pulka, key) == expected


@pytest.mark.parametrize(
    "text", ["", "7H", "7H 0 whist 6/3/1", "7H 0 maybe/pass", "pass 5/5", "11S 0 p/p", "мизер x 0"]
)
def test_typed_nonsense_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(RuleError):
        parse_entry(text)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 10**9))
def test_an_undo_takes_back_exactly_the_last_thing_done_and_replays(seed: int) -> None:
    """At every point of a random deal: only who pressed the last call, word, contract or card
    may take it back (never a discard or a claim), the deal is then as if it had not been done,
    and the log with the undo in it replays to the same state."""
    rng = random.Random(seed)
    _final, states = random_deal(seed)
    for before, after in itertools.pairwise(states):
        last = after.history[-1]
        who = after.undoable_by()
        takeable = isinstance(last, Call | Declare | Whist | Show | Play) and after.result is None
        assert (who is not None) == (takeable and after.claim is None)
        for seat in after.deal.active:
            if seat != who:
                with pytest.raises(OutOfTurn):
                    after.apply(Undo(seat))
        if who is None:
            continue
        undone = after.apply(Undo(who))
        assert replace(undone, history=before.history) == before
        assert again(after, undone.history) == undone
        if rng.random() < 0.2 and before.history:  # undo twice in a row: only if theirs again
            next_one = undone.undoable_by()
            if next_one is not None:
                twice = undone.apply(Undo(next_one))
                assert again(after, twice.history) == twice
