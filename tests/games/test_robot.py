"""The bridge robot: its system's calls on example hands, what its calls promise, legal moves
only over whole random deals, no use of hidden cards, and claims checked double-dummy."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.bridge.auction import AuctionState
from games.bridge.bidding import HandInfo, choose_call, promises, read_auction
from games.bridge.calls import Call
from games.bridge.cards import Card, Deal, Rank, Seat, Suit
from games.bridge.deal import (
    AnswerClaim,
    DealState,
    MakeCall,
    MakeClaim,
    Phase,
    PlayCard,
)
from games.bridge.robot import (
    ATTITUDE,
    COUNT,
    LEAD,
    SIGNAL_TRUST,
    Position,
    Robot,
    _Bidding,
    _checks,
    _discard_card,
    _lead_card,
    _signal_card,
    _signal_weights,
    _weights,
    agreed_lead,
    is_discard,
    move,
    signal_kind,
    wants_high,
)
from tests.sizes import examples


def hand(text: str) -> frozenset[Card]:
    """``AKJ32.K32.Q32.32``: spades, hearts, diamonds, clubs."""
    cards = set()
    for suit, ranks in zip(reversed(Suit), text.split("."), strict=True):
        for letter in ranks:
            cards.add(Card(suit, Rank.parse(letter)))
    assert len(cards) == 13, text
    return frozenset(cards)


def call_with(text: str, auction: str = "", dealer: Seat = Seat.N) -> str:
    calls = tuple(Call.parse(c) for c in auction.split())

    state = AuctionState(dealer, calls)
    chosen, _ = choose_call(dealer, calls, hand(text), state.legal_calls())
    return str(chosen)


@pytest.mark.parametrize(
    ("cards", "auction", "expected"),
    [
        # openings
        ("AK32.KQ2.K32.J32", "", "1NT"),  # 16, balanced
        ("AK32.KQ2.AK2.Q32", "", "2NT"),  # 21, balanced
        ("AKQ2.AKQ2.AK2.A2", "", "2C"),  # 26
        ("AKJ32.K32.Q32.32", "", "1S"),  # 13, five spades
        ("AK532.KQJ42.2.32", "", "1S"),  # five-five: the higher
        ("A32.K32.AJ32.Q32", "", "1D"),  # 14, 4-4... four diamonds, three clubs
        ("A32.K32.AJ2.Q432", "", "1C"),  # 14 but clubs longer
        ("32.KQJ932.32.432", "", "2H"),  # weak two
        ("2.32.KQJ9532.432", "", "3D"),  # seven diamonds, weak
        ("Q32.K32.J432.432", "", "P"),  # 6 points
        # responses to one of a major
        ("Q32.K32.J432.Q32", "1H P", "2H"),  # 8 points, three hearts
        ("Q32.K432.A432.Q2", "1H P", "3H"),  # 11, four hearts: limit raise
        ("KQ32.32.J432.Q32", "1H P", "1S"),  # 8, four spades, no fit
        ("K32.32.J432.Q432", "1H P", "1NT"),  # 6, nothing to show
        ("32.32.J5432.5432", "1H P", "P"),  # 1 point
        # 1NT: Stayman, and its answers
        ("KQ32.32.Q432.K32", "1NT P", "2C"),
        ("AK32.KQ2.K32.J32", "1NT P 2C P", "2S"),
        ("AK3.KQ2.K432.J32", "1NT P 2C P", "2D"),
        ("Q32.K32.Q432.K32", "1NT P", "3NT"),  # 10, balanced, no major
        # Blackwood: the answer counts aces
        ("A2.K5432.K32.KQ2", "1H P 3H P 4NT P", "5D"),
        ("A2.A5432.K32.KQ2", "1H P 3H P 4NT P", "5H"),
        # competition
        ("KQJ32.32.A32.432", "1D", "1S"),  # overcall, 10 points, five spades
        ("AQ32.KJ32.2.Q432", "1D", "X"),  # takeout: short in diamonds
        ("AK2.KQ2.K32.J432", "1D", "1NT"),  # 16 balanced, a diamond stopper
    ],
)
def test_the_system_calls(cards: str, auction: str, expected: str) -> None:
    assert call_with(cards, auction) == expected


def test_calls_promise_what_the_rules_say() -> None:
    calls = tuple(Call.parse(c) for c in ["1NT", "P", "2C", "P", "2S"])
    meanings = read_auction(Seat.N, calls)
    opening, stayman, answer = meanings[0], meanings[2], meanings[4]
    assert opening is not None and opening.hcp == (15, 17) and opening.balanced
    assert stayman is not None and stayman.tag == "stayman" and stayman.hcp[0] >= 8
    assert answer is not None and answer.lengths == {Suit.SPADES: 4}
    shown = promises(Seat.N, calls)
    assert shown[Seat.N].hcp == (15, 17) and shown[Seat.N].lengths[Suit.SPADES] == 4
    weak = read_auction(Seat.E, (Call.parse("2H"),))[0]
    assert weak is not None and weak.tag == "weak" and weak.lengths == {Suit.HEARTS: 6}


def test_hand_information() -> None:
    info = HandInfo.of(hand("AK32.KQ2.K32.J32"))
    assert info.hcp == 16 and info.balanced and info.aces == 1


def _play_deal(deal: Deal, robot: Robot) -> DealState:
    """Four robots, each acting from its own seat's view (declarer's for dummy)."""
    state = DealState.new(deal)
    while state.phase is not Phase.FINISHED:
        actor = state.actor
        assert actor is not None
        view = state.view(actor)
        action = robot.act(view)
        if isinstance(action, MakeCall):
            assert action.call in view.legal_calls
        else:
            assert isinstance(action, PlayCard) and action.card in view.legal_cards
        state = state.apply(action)
    return state


@settings(
    max_examples=examples(12, least=3), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.integers(0, 2**32), st.sampled_from(list(Seat)))
def test_robots_only_make_legal_calls_and_plays(seed: int, dealer: Seat) -> None:
    deal = Deal.shuffled(dealer, random.Random(seed).randrange)
    final = _play_deal(deal, Robot(seed=seed, budget_s=0.05))
    assert final.result is not None
    if final.play is not None:
        assert final.play.is_over


def test_a_robot_does_not_use_cards_it_cannot_see() -> None:
    """Two deals that differ only in hidden cards give the robot the same view, so the same
    card: it is handed the seat's view and nothing else."""
    rng = random.Random(11)
    robot = Robot(seed=4, budget_s=0.05)
    for _ in range(5):
        deal = Deal.shuffled(Seat.N, rng.randrange)
        state = DealState.new(deal)
        for call in ("1NT", "P", "3NT", "P", "P", "P"):
            state = state.apply(MakeCall(state.actor or Seat.N, Call.parse(call)))
        # E leads: its view holds E's hand only. Swap a card between S and W (both hidden).
        s_card = min(deal.hand(Seat.S))
        w_card = min(deal.hand(Seat.W))
        hands = list(deal.hands)
        hands[Seat.S] = hands[Seat.S] - {s_card} | {w_card}
        hands[Seat.W] = hands[Seat.W] - {w_card} | {s_card}
        other = Deal(deal.dealer, (hands[0], hands[1], hands[2], hands[3]))
        twin = DealState.replay(other, state.history)
        assert state.view(Seat.E) == twin.view(Seat.E)
        assert robot.act(state.view(Seat.E)) == robot.act(twin.view(Seat.E))
        # and the same view twice: the same card (deterministic for a seed)
        assert move(state.view(Seat.E), 4, 0.05) == robot.act(state.view(Seat.E))


def _seven_spades() -> DealState:
    """North holds all thirteen spades and plays 7♠."""
    deal = Deal(
        Seat.N,
        (
            hand("AKQJT98765432..."),
            hand("..AKQJT98765432."),
            hand(".AKQJT98765432.."),
            hand("...AKQJT98765432"),
        ),
    )
    state = DealState.new(deal)
    for call in ("7S", "P", "P", "P"):
        state = state.apply(MakeCall(state.actor or Seat.N, Call.parse(call)))
    state = state.apply(PlayCard(Seat.E, Card(Suit.DIAMONDS, Rank.ACE)))
    return state


def test_a_robot_accepts_a_good_claim_and_rejects_a_wrong_one() -> None:
    robot = Robot(seed=1, budget_s=0.05)
    good = _seven_spades()
    good = good.apply(PlayCard(Seat.N, Card(Suit.HEARTS, Rank.TWO)))  # dummy's, by declarer
    good = good.apply(PlayCard(Seat.W, Card(Suit.CLUBS, Rank.TWO)))
    # North will ruff and take every trick: a robot defender accepts (North's hand is faced).
    claimed = good.apply(MakeClaim(Seat.N, 13))
    assert robot.act(claimed.view(Seat.E)) == AnswerClaim(Seat.E, True)
    assert robot.act(claimed.view(Seat.W)) == AnswerClaim(Seat.W, True)
    # East claims tricks the defence cannot take: a robot declarer rejects it.
    wrong = good.apply(PlayCard(Seat.N, Card(Suit.SPADES, Rank.TWO)))
    wrong = wrong.apply(MakeClaim(Seat.E, 5))
    assert robot.act(wrong.view(Seat.N)) == AnswerClaim(Seat.N, False)
    # A concession is always accepted.
    conceded = good.apply(PlayCard(Seat.N, Card(Suit.SPADES, Rank.TWO))).apply(MakeClaim(Seat.W, 0))
    assert robot.act(conceded.view(Seat.N)) == AnswerClaim(Seat.N, True)


def test_a_claimants_hand_is_faced_to_the_table_while_the_claim_stands() -> None:
    state = _seven_spades().apply(MakeClaim(Seat.N, 12))
    assert Seat.N in state.view(Seat.E).hands and Seat.N in state.view(Seat.W).hands
    assert Seat.N not in state.view(None).hands  # the group's view stays as it was
    rejected = state.apply(AnswerClaim(Seat.E, False))
    assert Seat.N not in rejected.view(Seat.E).hands


@settings(
    max_examples=examples(15, least=4), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.integers(0, 2**32), st.sampled_from(list(Seat)))
@example(seed=874, dealer=Seat.N)  # a strong 2♣ on 19 high-card points and a 6-5 shape
def test_the_layouts_a_robot_leads_from_are_ones_the_auction_explains(
    seed: int, dealer: Seat
) -> None:
    """At the opening lead the robot samples layouts in which every hidden player would have
    bid as they did (when others do fill up, they weigh far less); with four robots bidding,
    the true layout is always one of those."""
    robot = Robot(seed=seed, budget_s=0.05)
    state = DealState.new(Deal.shuffled(dealer, random.Random(seed).randrange))
    while state.phase is Phase.AUCTION:
        actor = state.actor
        assert actor is not None
        state = state.apply(robot.act(state.view(actor)))
    if state.phase is not Phase.PLAY:
        return  # passed out: no lead
    assert state.actor is not None
    view = state.view(state.actor)
    position = Position.of(view)
    hidden = [s for s in Seat if s not in position.known]
    bidding = _Bidding(view, hidden, position)
    truth = {s: frozenset(state.deal.hands[s]) for s in Seat}
    assert bidding.explains(truth)
    worlds, prior = robot._sample(view, position, random.Random(seed), 30)
    assert len(worlds) == len(prior) == 30
    for world, weight in zip(worlds, prior, strict=True):
        assert all(world[s] == view.hands[s] for s in position.known)
        assert sorted(c for s in hidden for c in world[s]) == sorted(
            c for s in hidden for c in truth[s]
        )
        rebid = AuctionState(view.dealer)
        for i, call in enumerate(view.calls):
            seat = view.dealer.after(i)
            if seat in hidden and weight == 1.0:
                assert (
                    choose_call(view.dealer, rebid.calls, world[seat], rebid.legal_calls())[0]
                    == call
                )
            rebid = rebid.apply(call)
    assert prior == sorted(prior, reverse=True)  # the explained layouts first


@settings(
    max_examples=examples(25, least=5), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.integers(0, 2**32), st.sampled_from(list(Seat)), st.integers(1, 45))
def test_layouts_sampled_mid_deal_deal_out_exactly_the_unseen_cards_and_keep_every_void(
    seed: int, dealer: Seat, cards_played: int
) -> None:
    """Hands are dealt one hidden seat at a time: whatever the order and the voids shown, each
    hidden seat gets as many cards as it holds, never one of a suit it has shown out of, the
    hidden seats together get exactly the cards the robot cannot see, and a layout counted as
    fitting the auction does fit it."""
    rng = random.Random(seed)
    robot = Robot(seed=seed, budget_s=0.05)
    state = DealState.new(Deal.shuffled(dealer, rng.randrange))
    while state.phase is Phase.AUCTION:
        actor = state.actor
        assert actor is not None
        state = state.apply(robot.act(state.view(actor)))
    if state.phase is not Phase.PLAY:
        return
    for _ in range(cards_played):  # random legal cards: voids come early and often
        actor = state.actor
        assert actor is not None and state.play is not None
        state = state.apply(PlayCard(actor, rng.choice(sorted(state.legal_cards(actor)))))
    assert state.phase is Phase.PLAY and state.actor is not None and state.play is not None
    view = state.view(state.actor)
    position = Position.of(view)
    hidden = [s for s in Seat if s not in position.known]
    bidding = _Bidding(view, hidden, position)
    worlds, prior = robot._sample(view, position, random.Random(seed), 20)
    unseen = sorted(c for s in hidden for c in state.play.hand(s))
    for world, weight in zip(worlds, prior, strict=True):
        assert sorted(c for s in hidden for c in world[s]) == unseen
        for seat in hidden:
            assert len(world[seat]) == position.counts[seat]
            assert not {c.suit for c in world[seat]} & position.voids[seat]
        if weight == 1.0:
            assert bidding.explains(world)


# --- signals between robot partners ----------------------------------------------------------


def _hearts_led(west: str) -> DealState:
    """North declares 3NT; East leads the ♥4 and dummy (South) takes the ace: West follows.
    ``west`` is West's hand; the other hands fit around it."""
    north = hand("AKQ2.K52.AK2.A32")
    south = hand("543.A76.QJ43.KQ4")
    east = hand("JT9.JT94.T98.T98")
    used = north | south | east
    rest = sorted((c for c in FULL if c not in used), key=lambda c: (c.suit, c.rank))
    assert len(rest) == 13 and hand(west) == frozenset(rest), sorted(map(str, rest))
    state = DealState.new(Deal(Seat.N, (north, east, south, hand(west))))
    for call in ("1N", "P", "3N", "P", "P", "P"):
        state = state.apply(MakeCall(state.actor or Seat.N, Call.parse(call)))
    state = state.apply(PlayCard(Seat.E, Card(Suit.HEARTS, Rank.FOUR)))
    return state.apply(PlayCard(Seat.N, Card(Suit.HEARTS, Rank.ACE)))  # dummy's, by declarer


FULL = frozenset(Card(suit, rank) for suit in Suit for rank in Rank)
WEST = "876.Q83.765.J765"


def test_the_agreement_says_when_a_card_is_a_signal_and_what_it_asks() -> None:
    state = _hearts_led(WEST)
    view = state.view(Seat.W)
    assert signal_kind(view, 0, Seat.W) == ATTITUDE  # partner led
    assert signal_kind(view, 0, Seat.S) is None  # declarer's side does not signal
    assert signal_kind(view, 0, Seat.E) == LEAD  # the leader's card is an agreed lead
    hearts = [Card(Suit.HEARTS, r) for r in (Rank.EIGHT, Rank.THREE)]
    # An honour held: encourage with the higher of the cards free to choose; without: low.
    assert _signal_card(view, hearts) == Card(Suit.HEARTS, Rank.EIGHT)
    assert wants_high(COUNT, hearts) and not wants_high(COUNT, hearts[:1])
    assert not wants_high(ATTITUDE, hearts)
    # One small card free to choose, or a ten or honour: no signal.
    assert _signal_card(view, hearts[:1]) is None
    assert _signal_card(view, [Card(Suit.HEARTS, Rank.QUEEN), hearts[0]]) is None
    # Declarer's lead of a new suit to a defender: count.
    after = state.apply(PlayCard(Seat.W, hearts[1])).apply(
        PlayCard(Seat.N, Card(Suit.HEARTS, Rank.TWO))
    )
    after = after.apply(PlayCard(Seat.N, Card(Suit.CLUBS, Rank.FOUR)))  # dummy won: leads
    assert signal_kind(after.view(Seat.W), 1, Seat.W) == COUNT
    assert signal_kind(after.view(Seat.W), 1, Seat.S) is None


def test_a_robot_reads_its_robot_partners_signal_as_a_weight_on_layouts() -> None:
    """West (a robot) played the ♥8 on partner's lead: a layout in which it holds the queen
    with it is as likely as before; one in which the 8 came from 8-5-3 (which would have
    signalled low) counts less. A person's card is read as nothing."""
    state = _hearts_led(WEST).apply(PlayCard(Seat.W, Card(Suit.HEARTS, Rank.EIGHT)))
    state = state.apply(PlayCard(Seat.N, Card(Suit.HEARTS, Rank.TWO)))
    view = state.view(Seat.E)
    west_now = hand(WEST) - {Card(Suit.HEARTS, Rank.EIGHT)}
    truth = {seat: (state.play.hand(seat) if state.play else frozenset()) for seat in Seat}
    honest = {**truth, Seat.W: west_now}
    # Swap West's ♥Q for North's ♥5: West then held 8-5-3, and the 8 said "I like it".
    q5, h5 = Card(Suit.HEARTS, Rank.QUEEN), Card(Suit.HEARTS, Rank.FIVE)
    swapped = {
        **truth,
        Seat.W: (west_now - {q5}) | {h5},
        Seat.N: (truth[Seat.N] - {h5}) | {q5},
    }
    assert _signal_weights(view, [honest, swapped]) == [1.0, SIGNAL_TRUST]


def _diamond_to_a_void() -> DealState:
    """North declares 3NT; East leads the ♥4, dummy's ace wins, and dummy leads the ♦3 to
    West, who has no diamond: West's card is its first discard."""
    north = hand("AKQ2.K52.AK2.A32")
    south = hand("543.A76.QJ43.JT4")
    east = hand("JT9.JT94.T98765.")
    west = hand("876.Q83..KQ98765")
    state = DealState.new(Deal(Seat.N, (north, east, south, west)))
    for call in ("1N", "P", "3N", "P", "P", "P"):
        state = state.apply(MakeCall(state.actor or Seat.N, Call.parse(call)))
    for seat, card in ((Seat.E, "H4"), (Seat.N, "HA"), (Seat.W, "H8"), (Seat.N, "H2")):
        state = state.apply(PlayCard(seat, Card.parse(card)))
    return state.apply(PlayCard(Seat.N, Card.parse("D3")))  # dummy's, by declarer


def test_a_first_discard_shows_attitude_to_its_suit() -> None:
    """West discards: from clubs, where it holds the king and queen, the highest small club
    free to choose; from spades (no honour) the lowest. Not for declarer's side, not a second
    discard of the suit, not with one small card to choose from."""
    state = _diamond_to_a_void()
    west = state.view(Seat.W)
    clubs = [Card.parse(c) for c in ("C5", "C6", "C7", "C9")]
    spades = [Card.parse(c) for c in ("S6", "S7", "S8")]
    assert is_discard(west, 1, Seat.W, Suit.CLUBS)
    assert not is_discard(west, 1, Seat.W, Suit.DIAMONDS)  # the suit led: no discard
    assert _discard_card(west, clubs[0], clubs + spades) == Card.parse("C9")
    assert _discard_card(west, clubs[0], clubs[:2]) == Card.parse("C6")
    assert _discard_card(west, spades[1], clubs + spades) == Card.parse("S6")
    assert _discard_card(west, clubs[0], clubs[:1] + spades) is None
    later = state.apply(PlayCard(Seat.W, Card.parse("C9")))
    for seat, card in ((Seat.N, "DA"), (Seat.E, "D5"), (Seat.N, "D2")):
        later = later.apply(PlayCard(seat, Card.parse(card)))
    # North's ♦A won; it leads the ♦K from its hand and West discards again.
    assert not is_discard(later.view(Seat.W), 2, Seat.W, Suit.CLUBS)
    assert is_discard(later.view(Seat.W), 2, Seat.W, Suit.SPADES)
    assert not is_discard(later.view(Seat.N), 2, Seat.N, Suit.CLUBS)  # declarer's side


def test_the_bots_robots_discard_by_the_agreement() -> None:
    """The robot the bot runs (``move``) signals with its first discard: West, holding the
    king and queen of clubs, discards its highest small club where a robot without the
    agreement throws its lowest."""
    view = _diamond_to_a_void().view(Seat.W)
    everyone = frozenset(int(seat) for seat in Seat)
    moved = move(view, 1, 0.05, 2, everyone)
    assert isinstance(moved, PlayCard) and moved.card == Card.parse("C9")
    plain = Robot(seed=1, budget_s=0.05, signals=frozenset(Seat)).act(view)
    assert isinstance(plain, PlayCard) and plain.card.suit is Suit.CLUBS
    assert plain.card.rank < Rank.NINE


def test_a_robot_reads_its_partners_first_discard() -> None:
    """West (a robot) discarded the ♣9, a high one: a layout in which it holds the ♣K-Q is
    as likely as before; one in which they are North's (West's clubs all small, when it
    would have discarded its lowest) counts less. Read only under the agreement."""
    state = _diamond_to_a_void().apply(PlayCard(Seat.W, Card.parse("C9")))
    view = state.view(Seat.E)
    truth = {seat: (state.play.hand(seat) if state.play else frozenset()) for seat in Seat}
    honours, smalls = {Card.parse("CK"), Card.parse("CQ")}, {Card.parse("C3"), Card.parse("C2")}
    swapped = {
        **truth,
        Seat.W: (truth[Seat.W] - honours) | smalls,
        Seat.N: (truth[Seat.N] - smalls) | honours,
    }
    assert _signal_weights(view, [truth, swapped], discards=True) == [1.0, SIGNAL_TRUST]
    assert _signal_weights(view, [truth, swapped]) == [1.0, 1.0]


@settings(
    max_examples=examples(6, least=2), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.integers(0, 2**32), st.sampled_from(list(Seat)))
def test_robots_who_signal_play_random_deals_to_the_end(seed: int, dealer: Seat) -> None:
    """Four robots who give and read signals: every card legal, every deal finished, and
    the same card for the same view (the reading is as deterministic as the rest)."""
    deal = Deal.shuffled(dealer, random.Random(seed).randrange)
    robot = Robot(seed=seed, budget_s=0.05, signals=frozenset(Seat))
    final = _play_deal(deal, robot)
    assert final.result is not None
    if final.play is not None:
        assert final.play.is_over


@pytest.mark.parametrize(
    ("holding", "led"),
    [
        ("KQ5", "K"),  # top of touching honours
        ("AK73", "A"),
        ("QJ4", "Q"),
        ("T93", "T"),
        ("K852", "2"),  # fourth highest
        ("KJ853", "5"),
        ("Q73", "3"),  # lowest from three with an honour
        ("J52", "2"),
        ("852", "8"),  # top of three small
        ("95", "9"),  # top of two
        ("A5", "A"),
        ("7", "7"),
    ],
)
def test_the_agreed_lead_from_a_holding(holding: str, led: str) -> None:
    cards = [Card(Suit.SPADES, Rank.parse(r)) for r in holding]
    assert agreed_lead(cards) == Card(Suit.SPADES, Rank.parse(led))


def test_a_defender_leads_the_agreed_card_only_when_it_costs_nothing_it_may_not() -> None:
    """Among the cards tied for best (within the slack), the agreed card of the best card's
    suit; not in trumps, nor in a suit already led, nor for declarer's side."""
    state = _hearts_led(WEST)
    state = state.apply(PlayCard(Seat.W, Card(Suit.HEARTS, Rank.THREE)))
    state = state.apply(PlayCard(Seat.N, Card(Suit.HEARTS, Rank.TWO)))  # dummy's ace wins
    state = state.apply(PlayCard(Seat.N, Card(Suit.CLUBS, Rank.FOUR)))  # dummy's, by declarer
    state = state.apply(PlayCard(Seat.W, Card(Suit.CLUBS, Rank.JACK)))
    state = state.apply(PlayCard(Seat.N, Card(Suit.CLUBS, Rank.ACE)))
    state = state.apply(PlayCard(Seat.E, Card(Suit.CLUBS, Rank.EIGHT)))
    # North (declarer) won the club: no agreed lead for declarer's side.
    north = state.view(Seat.N)
    spade = Card(Suit.SPADES, Rank.TWO)
    assert _lead_card(north, spade, [spade]) is None
    # The same position seen as a defender's lead: West's diamonds 7-6-5 lead the 7.
    west = state.view(Seat.W)
    diamonds = sorted((c for c in west.hands[Seat.W] if c.suit is Suit.DIAMONDS), key=str)
    seven = Card(Suit.DIAMONDS, Rank.SEVEN)
    five = Card(Suit.DIAMONDS, Rank.FIVE)
    assert _lead_card(west, five, diamonds) == seven
    assert _lead_card(west, five, [five]) is None  # the agreed card would cost too much
    hearts = [c for c in west.hands[Seat.W] if c.suit is Suit.HEARTS]
    assert _lead_card(west, hearts[0], hearts) is None  # hearts were led


def test_a_robot_reads_its_robot_partners_lead_by_the_agreement() -> None:
    """East led the ♥4. From East's real J-10-9-4 the agreement leads the jack (touching
    honours), so that layout counts less; from J-9-5-4 (East's ♥10 swapped for North's ♥5)
    it leads the fourth highest, the 4: as likely as before. A robot without the agreement
    reads nothing into a lead."""
    state = _hearts_led(WEST)
    view = state.view(Seat.W)
    truth = {seat: (state.play.hand(seat) if state.play else frozenset()) for seat in Seat}
    ten, five = Card(Suit.HEARTS, Rank.TEN), Card(Suit.HEARTS, Rank.FIVE)
    assert ten in truth[Seat.E] and five in truth[Seat.N]
    swapped = {
        **truth,
        Seat.E: (truth[Seat.E] - {ten}) | {five},
        Seat.N: (truth[Seat.N] - {five}) | {ten},
    }
    assert _signal_weights(view, [truth, swapped]) == [SIGNAL_TRUST, 1.0]
    assert _signal_weights(view, [truth, swapped], leads=False) == [1.0, 1.0]


def test_checks_asking_only_for_the_best_cards_weigh_layouts_as_full_solves_do() -> None:
    """``CHECK_COST``'s cheaper solve (DDS's best cards only) changes no weight."""
    rng = random.Random(7)
    seen: list[float] = []
    while len(seen) < 60:
        deal = Deal.shuffled(Seat(rng.randrange(4)), rng.randrange)
        state = _play_until(deal, Robot(seed=1, budget_s=0.02), cards=6)
        if state.phase is not Phase.PLAY or state.actor is None:
            continue  # passed out
        view = state.view(state.actor)
        position = Position.of(view)
        checks = _checks(view, position)
        worlds, _ = Robot(seed=2)._sample(view, position, random.Random(3), 20)
        fast = _weights(view, checks, position.trump, worlds, True)
        assert checks and fast == _weights(view, checks, position.trump, worlds, False)
        seen += fast
    assert min(seen) < 1.0  # some layout was found less likely: the check was not idle


def _play_until(deal: Deal, robot: Robot, cards: int) -> DealState:
    """Four robots bid ``deal`` and play ``cards`` cards of it."""
    state = DealState.new(deal)
    while state.phase is not Phase.FINISHED:
        actor = state.actor
        if actor is None or (state.play is not None and state.play.cards_played >= cards):
            break
        state = state.apply(robot.act(state.view(actor)))
    return state


def test_the_system_reads_people_s_conventional_calls_and_a_one_club_opening() -> None:
    """The table that makes the robots' calls reads anyone's (SAYC): a 1♣ opening means
    something (it read as nothing once, so what followed was misread), a 2♦ over 1NT is a
    transfer to hearts, a 4♣ over 1NT asks aces, a double of an overcall is negative."""

    def read(auction: str, dealer: Seat = Seat.N) -> list[Any]:
        return read_auction(dealer, tuple(Call.parse(c) for c in auction.split()))

    club = read("1C")[0]
    assert club is not None and club.hcp[0] >= 10 and club.tag == "natural"
    transfer = read("1NT P 2D")[2]
    assert transfer is not None and transfer.tag == "transfer"
    assert transfer.lengths == {Suit.HEARTS: 5}
    assert read("1NT P 2H")[2].lengths == {Suit.SPADES: 5}  # type: ignore[union-attr]
    gerber = read("1NT P 4C")[2]
    assert gerber is not None and gerber.tag == "gerber"
    negative = read("1C 1S X")[2]
    assert negative is not None and negative.tag == "negative" and negative.hcp[0] >= 6
    penalty = read("1NT X")[1]
    assert penalty is not None and penalty.tag == "penalty"  # not "takeout" over 1NT
    michaels = read("1D 2D")[1]
    assert michaels is not None and michaels.lengths == {Suit.HEARTS: 5, Suit.SPADES: 5}
    # and what follows reads on: 1♣ – 1♠ – X – P, the opener with four hearts bids them
    assert call_with("A2.KJ32.Q32.KJ32", "1C 1S X P") == "2H"


@pytest.mark.parametrize(
    ("cards", "auction", "expected"),
    [
        # opener after a limit raise of a major: a sound opening accepts (it passed once)
        ("A2.AJ982.K32.K32", "1H P 3H P", "4H"),  # 15, and a point for the fifth heart
        ("A2.AJ982.Q32.432", "1H P 3H P", "P"),  # 11: a minimum
        # slam interest: the cheapest ace outside trumps; a bypassed suit has none
        ("32.AKQ82.AK2.A32", "1H P 3H P", "4C"),
        ("A2.AKQ82.K2.KJ32", "1H P 3H P", "3S"),
        ("AKQ82.K2.Q32.AJ2", "1S P 3S P", "4C"),
        ("AKQ82.K2.A32.K32", "1S P 3S P", "4D"),
        ("KQ2.AKJ82.KQ2.Q2", "1H P 3H P", "4H"),  # 21 points, no ace outside: game
        # responder answers: its own control with more than a minimum, else trumps
        ("K432.A32.Q32.J32", "1S P 3S P 4C P", "4H"),
        ("K32.K432.A32.Q32", "1H P 3H P 3S P", "4D"),
        ("K32.K432.K32.Q32", "1H P 3H P 3S P", "4H"),
        ("K432.K32.Q2.A432", "1S P 3S P 4D P", "4S"),  # clubs' ace is above game now
        # opener: Blackwood after partner's control, a pass after the sign-off
        ("A2.AKQ82.K2.KJ32", "1H P 3H P 3S P 4C P", "4NT"),
        ("A2.AKQ82.K2.KJ32", "1H P 3H P 3S P 4H P", "P"),
    ],
)
def test_control_bids_after_a_limit_raise(cards: str, auction: str, expected: str) -> None:
    assert call_with(cards, auction) == expected


def test_a_control_bid_reads_as_one_and_says_nothing_of_length() -> None:
    auction = ("1H", "P", "3H", "P", "4C", "P", "4D")
    meanings = read_auction(Seat.N, tuple(Call.parse(c) for c in auction))
    control, answer = meanings[4], meanings[6]
    assert control is not None and control.tag == "control" and control.lengths == {}
    assert control.hcp[0] >= 16
    assert answer is not None and answer.tag == "control" and answer.lengths == {}
