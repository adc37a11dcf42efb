"""A Preferans robot (#28): ``Robot(seed=…, budget_s=…).act(view)`` returns the action of the
seat whose view it is, from that view alone (a robot never gets a card its seat may not see).

It thinks the way the bridge robot does: it deals the cards it cannot see at random, many
times, consistently with everything seen (each hand's size, the suits a player has shown out
of), solves each layout with every card in view (``games.preferans.solver``) and takes the
choice that does best on average.

- Auction: its ten cards with a sampled talon, the two worst cards laid away, solved in each
  strain with it as declarer; it bids on while the expected tricks carry the next bid, and
  bids a misère when the sampled layouts rarely catch it.
- Discard and contract: the strain first (each with its quick discard, solved over sampled
  defenders' hands), then all 66 discards solved over layouts in rounds, each keeping the best
  quarter for more layouts (a misère's by whether it is caught); then the contract with the
  best expected score at or above the auction's bid is named.
- Whisting: the defence's expected tricks against the obligation; half-whist when whisting
  would not pay; open whisting (the whister sees both defenders' hands).
- Play: the card with the best average over the layouts (declarer the most tricks, defenders
  the fewest for him; in a misère the reverse; in raspasy each the fewest of their own, the
  paranoid value); where only the discard is unknown (open hands) all its layouts are solved.
  A defender knows the talon but not which of declarer's twelve went to the discard; catching
  a misère, the layouts where the discard holds high cards weigh more (``DISCARD_LEAN``).
  Raspasy's two tricks led by the talon follow the lowest card (the solver has no talon lead).
- Claims: accepted when no sampled layout gives the claimant less than he claims.

Deterministic for a seed and a view: the number of layouts follows from ``budget_s`` and the
tricks left (``SECONDS``, measured), not from a clock."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from games.core.data import remote
from games.preferans.bids import OBLIGATION, PRICE, Bid, Strain
from games.preferans.cards import PACK, Card, Rank, Suit
from games.preferans.deal import (
    HALF,
    PASS,
    WHIST,
    Action,
    AnswerClaim,
    Call,
    Declare,
    Discard,
    Kind,
    Phase,
    Play,
    SeatView,
    Show,
    Whist,
)
from games.preferans.pulka import Pulka
from games.preferans.solver import (
    Position,
    at_least_seats,
    card_reaches,
    card_values,
    solve_seats,
)

# Seconds a solve takes on average by tricks left, on one core (the compiled solver; measured
# over random positions, a game's; Python's own work for a layout is counted apart).
SECONDS = {10: 0.0025, 9: 0.0008, 8: 0.0003, 7: 0.00015, 6: 0.00006, 5: 0.00003}
# Seconds ``card_values`` takes for one layout (every card of the player on turn), by tricks
# left: a game's, and the fewest-tricks search of a misère or raspasy (measured means).
PLAY_SECONDS = {10: 0.003, 9: 0.0011, 8: 0.0004, 7: 0.0002, 6: 0.0001, 5: 0.00006}
FEWEST_SECONDS = {10: 0.023, 9: 0.006, 8: 0.0022, 7: 0.0007, 6: 0.00025, 5: 0.00012}
LAYOUT_SECONDS = 0.0002  # dealing a layout and asking the solver, beside the search itself
MIN_LAYOUTS, MAX_LAYOUTS = 1, 120
# How much likelier a card one rank higher is to be in a misère player's discard (a catcher's
# weighing of the layouts; measured: catchable misères caught 94 % at 1.0, 96-98 % at 1.5-2).
DISCARD_LEAN = 1.5
MISERE_RISK = 0.15  # the share of caught layouts a robot accepts to bid a misère
# Tricks a closed defence moves from double-dummy, as ``bench.pref_robots`` measures them
# (seeds 1 and 2, 300 deals each): a robot declarer who cannot see the defenders' hands takes
# about DECLARER_SLIP fewer, robot defenders who cannot see each other's give away about
# DEFENCE_SLIP (each against double-dummy play on the other side).
DECLARER_SLIP, DEFENCE_SLIP = 0.21, 0.31
# What a layout's hidden hands must hold to fit their players' words (``_said_weight``): a
# game bid of level L sure and long tricks of at least L - BID_MARGIN (the talon, and
# optimism), a player who only passed at most PASS_STRENGTH; a layout that does not fit
# counts UNLIKELY.
BID_MARGIN, PASS_STRENGTH, UNLIKELY = 3, 6, 0.3
STRAINS = tuple(Strain)


def _seconds(tricks_left: int, misere: bool = False) -> float:
    """One solve's seconds (a misère's counts eight: its searches run that much longer)."""
    return SECONDS.get(tricks_left, 0.00002) * (8 if misere else 1) + LAYOUT_SECONDS


def _play_seconds(tricks_left: int, fewest: bool) -> float:
    table = FEWEST_SECONDS if fewest else PLAY_SECONDS
    return table.get(tricks_left, 0.00004) + LAYOUT_SECONDS


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the view tells of the cards: who holds how many, what is known where."""

    order: tuple[int, ...]  # active seats clockwise
    known: dict[int, frozenset[Card]]  # hands in view
    counts: dict[int, int]  # cards each active seat holds now
    unknown: frozenset[Card]  # cards in no known place (hidden hands, talon, discard)
    void: dict[int, frozenset[Suit]]  # suits each seat has shown out of


def _see(view: SeatView) -> _Seen:
    order = tuple(view.active)
    played = [card for trick in view.tricks for _, card in trick.plays]
    counts = {seat: 10 for seat in order}
    for trick in view.tricks:
        for seat, _card in trick.plays:
            counts[seat] -= 1
    if view.declarer is not None and view.phase is Phase.DISCARD:
        counts[view.declarer] = 12  # his ten and the talon
    known = {seat: frozenset(cards) for seat, cards in view.hands.items()}
    placed = set(played) | set(view.discard)
    if view.kind is Kind.RASPASY or view.viewer == view.declarer:
        placed |= set(view.talon)  # out of play, or the declarer knows what he kept
    # else the talon seen went to declarer's hand, and two of his twelve to the discard: where
    # each talon card is, the others do not know
    for cards in known.values():
        placed |= cards
    void: dict[int, set[Suit]] = {seat: set() for seat in order}
    trump = _trump(view)
    for trick in view.tricks:
        if not trick.plays:
            continue
        led = trick.talon_card.suit if trick.talon_card is not None else trick.plays[0][1].suit
        for seat, card in trick.plays[1:] if trick.talon_card is None else trick.plays:
            if card.suit is not led:
                void[seat].add(led)
                if trump is not None and card.suit is not trump:
                    void[seat].add(trump)
    return _Seen(
        order,
        known,
        counts,
        frozenset(PACK) - placed,
        {seat: frozenset(suits) for seat, suits in void.items()},
    )


def _trump(view: SeatView) -> Suit | None:
    if view.kind is not Kind.GAME or view.contract is None or view.contract.strain is None:
        return None
    return Suit.of(view.contract.strain)


def _layouts(seen: _Seen, rng: random.Random, count: int) -> list[dict[int, frozenset[Card]]]:
    """``count`` random placings of the unseen cards into the hands not in view, each of its
    size and void where its player showed out (the rest lies in the talon or discard)."""
    hidden = [seat for seat in seen.order if seat not in seen.known]
    if not hidden:  # every hand in view: the one layout there is
        return [dict(seen.known)]
    found: list[dict[int, frozenset[Card]]] = []
    pool = sorted(seen.unknown)
    if len(hidden) == 1:  # one hand unseen (open cards): every layout, when they are few
        seat = hidden[0]
        need = seen.counts[seat]
        if math.comb(len(pool), need) <= MAX_LAYOUTS * 2:
            every = [
                {**seen.known, seat: frozenset(cards)}
                for cards in combinations(pool, need)
                if not any(c.suit in seen.void[seat] for c in cards)
            ]
            if every:
                return every
    for attempt in range(count * 20):
        if len(found) >= count:
            break
        rng.shuffle(pool)
        strict = attempt < count * 15  # at the end, voids are let go rather than nothing
        hands: dict[int, list[Card]] = {seat: [] for seat in hidden}
        rest: list[Card] = []
        for card in pool:
            room = [
                seat
                for seat in hidden
                if len(hands[seat]) < seen.counts[seat]
                and not (strict and card.suit in seen.void[seat])
            ]
            if room:
                # fill in proportion to the room left, so no hand is short at the end
                weights = [seen.counts[s] - len(hands[s]) for s in room]
                spare = len(pool) - sum(seen.counts[s] for s in hidden)
                total = sum(weights) + max(0, spare - len(rest))
                pick = rng.randrange(total)
                for seat, weight in zip(room, weights, strict=True):
                    if pick < weight:
                        hands[seat].append(card)
                        break
                    pick -= weight
                else:
                    rest.append(card)
            else:
                rest.append(card)
        if all(len(hands[s]) == seen.counts[s] for s in hidden):
            layout = dict(seen.known)
            layout.update({seat: frozenset(cards) for seat, cards in hands.items()})
            found.append(layout)
    return found


def _worst_two(cards: frozenset[Card], trump: Suit | None) -> tuple[Card, Card]:
    """A quick discard: the two lowest cards of the shortest suits other than trumps."""

    def cost(card: Card) -> tuple[int, int, int]:
        suit_len = sum(1 for c in cards if c.suit is card.suit)
        return (card.suit is trump, suit_len, int(card.rank))

    first, second = sorted(cards, key=cost)[:2]
    return first, second


def _keeps(hand: frozenset[Card], others: frozenset[Card]) -> int:
    """A quick count of the tricks a hand's suits are worth (top cards, and length once the
    others' cards are out): how discards are screened before the solver sees them."""
    total = 0
    for suit in Suit:
        mine = [c for c in hand if c.suit is suit]
        theirs = [c for c in others if c.suit is suit]
        tops = 0
        for card in sorted(mine + theirs, key=lambda c: -int(c.rank)):
            if card not in hand:
                break
            tops += 1
        total += max(tops, len(mine) - (len(theirs) + 1) // 2) if mine else 0
    return total


class Robot:
    """``Robot(seed=…, budget_s=…).act(view)``: the seat's next action."""

    def __init__(self, seed: int = 0, budget_s: float = 1.0) -> None:
        self.seed = seed
        self.budget_s = budget_s

    def _rng(self, view: SeatView) -> random.Random:
        done = sum(len(t.plays) for t in view.tricks)
        return random.Random(
            f"{self.seed}:{view.viewer}:{len(view.calls)}:{len(view.whists)}:{done}"
        )

    def _count(self, per_layout: float) -> int:
        return max(MIN_LAYOUTS, min(MAX_LAYOUTS, int(self.budget_s / max(per_layout, 1e-4))))

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("the robot has nothing to do in this view")
        answers = [a for a in legal if isinstance(a, AnswerClaim)]
        if answers:
            return self._answer_claim(view, answers)
        if view.phase is Phase.AUCTION:
            return self._call(view, [a for a in legal if isinstance(a, Call)])
        if view.phase is Phase.DISCARD:
            return self._discard(view, [a for a in legal if isinstance(a, Discard)])
        if view.phase is Phase.CONTRACT:
            return self._declare(view, [a for a in legal if isinstance(a, Declare)])
        if view.phase is Phase.WHIST:
            return self._whist(view, [a for a in legal if isinstance(a, Whist)])
        if view.phase is Phase.SHOW:
            return self._show(view, [a for a in legal if isinstance(a, Show)])
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return self._play(view, plays)
        return legal[0]

    # --- the auction -----------------------------------------------------------------------------

    def _own(self, view: SeatView) -> tuple[int, frozenset[Card], _Seen, random.Random]:
        """The robot's seat, its cards, what it has seen, and its random numbers for this
        decision."""
        assert view.viewer is not None
        me = view.viewer
        return me, frozenset(view.hands[me]), _see(view), self._rng(view)

    def _call(self, view: SeatView, calls: list[Call]) -> Call:
        me, hand, seen, rng = self._own(view)
        games = [c for c in calls if c.bid is not None and not c.bid.is_misere]
        misere = next((c for c in calls if c.bid is not None and c.bid.is_misere), None)
        passing = next(c for c in calls if c.bid is None)
        first = _first_hand(view)
        unknown = sorted(seen.unknown)
        if misere is not None and _misere_shape(hand):
            count = self._count(_seconds(10))  # a yes/no search, as cheap as a game's
            caught = 0
            layouts = _split(unknown, me, seen.order, rng, count)
            for others, talon in layouts:
                mine = hand | talon
                drop = _misere_drop(mine)
                hands = {**others, me: mine - drop}
                caught += at_least_seats(hands, seen.order, first, me, 1, None, maximize=False)
            if layouts and caught <= MISERE_RISK * len(layouts):
                return misere
        if not games or _keeps(hand, frozenset(PACK) - hand) < 4:
            return passing
        count = self._count(len(STRAINS) * _seconds(10))
        totals = dict.fromkeys(STRAINS, 0)
        layouts = _split(unknown, me, seen.order, rng, count)
        for others, talon in layouts:
            mine = hand | talon
            for strain in STRAINS:
                trump = Suit.of(strain)
                hands = {**others, me: mine - frozenset(_worst_two(mine, trump))}
                totals[strain] += solve_seats(hands, seen.order, first, me, trump, maximize=True)
        if not layouts:
            return passing
        # the highest game the average carries (less half a trick for what sampling misses);
        # the robot bids one step at a time while the next bid is not above it
        reach = {s: totals[s] / len(layouts) - 0.5 for s in STRAINS}
        best = max(
            (Bid.of(min(int(reach[s]), 10), s) for s in STRAINS if reach[s] >= 6), default=None
        )
        wanted = games[0].bid
        assert wanted is not None
        return games[0] if best is not None and wanted <= best else passing

    # --- discard and contract --------------------------------------------------------------------

    def _discard(self, view: SeatView, discards: list[Discard]) -> Discard:
        """All 66 discards, by the solver over layouts of the defenders' hands: each round
        keeps the best quarter and solves it over more layouts (successive halving), so the
        budget goes to the discards that matter. In a game the strain is chosen first (each
        with its quick discard), the one the discard is for."""
        me, mine, seen, rng = self._own(view)
        first = _first_hand(view)
        misere = view.kind is Kind.MISERE
        rounds = 4  # 66, 16, 4 and 3 discards
        worlds = self._defenders(seen, me, rng, MAX_LAYOUTS)
        if misere:
            trump = None
        else:
            tries = self._count(len(STRAINS) * _seconds(10) * rounds)
            floor = view.bid

            def strain_tricks(strain: Strain) -> float:
                trump = Suit.of(strain)
                hand = mine - frozenset(_worst_two(mine, trump))
                return statistics.fmean(
                    solve_seats({**w, me: hand}, seen.order, first, me, trump, True)
                    for w in worlds[:tries]
                )

            possible = [s for s in STRAINS if floor is None or Bid.of(10, s) >= floor]
            trump = Suit.of(max(possible, key=strain_tricks))

        def tricks(discard: Discard, world: dict[int, frozenset[Card]]) -> int:
            hands = {**world, me: mine - frozenset(discard.cards)}
            if misere:  # what counts is whether it is caught: a yes/no search, far cheaper
                return int(at_least_seats(hands, seen.order, first, me, 1, None, False))
            return solve_seats(hands, seen.order, first, me, trump, True)

        found: dict[tuple[Discard, int], int] = {}
        candidates = sorted(discards, key=lambda d: (d.cards[0], d.cards[1]))
        per_solve = _seconds(10)  # a game's solve, or a misère's yes/no search: about the same
        while True:
            count = int(self.budget_s / rounds / len(candidates) / per_solve)
            count = max(1, min(len(worlds), count))
            means = {}
            for discard in candidates:
                for k in range(count):
                    if (discard, k) not in found:
                        found[(discard, k)] = tricks(discard, worlds[k])
                means[discard] = statistics.fmean(found[(discard, k)] for k in range(count))
            # a game wants the most tricks, a misère the fewest; ties go to the earlier
            ranked = sorted(candidates, key=lambda d: -means[d] if not misere else means[d])
            if len(candidates) <= 3:
                return ranked[0]
            candidates = ranked[: max(3, len(candidates) // 4)]

    def _declare(self, view: SeatView, names: list[Declare]) -> Declare:
        me, hand, seen, rng = self._own(view)
        worlds = self._defenders(seen, me, rng, self._count(5 * _seconds(10)))
        bid, _ = _best_contract(hand, worlds, seen.order, _first_hand(view), me, view.bid)
        return next((d for d in names if d.contract == bid), names[0])

    def _defenders(
        self, seen: _Seen, me: int, rng: random.Random, count: int
    ) -> list[dict[int, frozenset[Card]]]:
        """Layouts of the two other hands (ten each) when the robot is declarer."""
        return [hands for hands, _ in _split(sorted(seen.unknown), me, seen.order, rng, count)]

    # --- whisting --------------------------------------------------------------------------------

    def _whist(self, view: SeatView, words: list[Whist]) -> Whist:
        assert view.viewer is not None and view.declarer is not None
        assert view.contract is not None and view.contract.level in OBLIGATION
        seen = _see(view)
        rng = self._rng(view)
        trump = _trump(view)
        first = _first_hand(view)
        count = self._count(_seconds(10))
        defence = []
        for layout in self._declarer_layouts(view, seen, rng, count, trump):
            tricks = solve_seats(layout, seen.order, first, view.declarer, trump, maximize=True)
            defence.append(10 - tricks)
        expected = statistics.fmean(defence) if defence else 0.0
        by_word = {w.word: w for w in words}
        obligation = OBLIGATION[view.contract.level]
        pays = expected >= obligation - 0.5 or expected > 10 - view.contract.level
        if pays and WHIST in by_word:
            return by_word[WHIST]
        if HALF in by_word:
            return by_word[HALF]
        return by_word.get(PASS, words[0])

    def _show(self, view: SeatView, shows: list[Show]) -> Show:
        """The lone whister plays open or closed, whichever is worth more to him on average,
        in whists by the table's own rules (this deal alone on a fresh pulka): open, both
        sides play near double-dummy (declarer sees the defenders' cards, the whister plays
        both hands); closed, each side slips by what ``bench.pref_robots`` measured."""
        assert view.viewer is not None and view.declarer is not None
        assert view.contract is not None
        seen = _see(view)
        trump = _trump(view)
        layouts = self._declarer_layouts(
            view, seen, self._rng(view), self._count(_seconds(10)), trump
        )
        first = _first_hand(view)
        defence = [
            10 - solve_seats(layout, seen.order, first, view.declarer, trump, maximize=True)
            for layout in layouts
        ]
        worth = _whister_worth(view)
        shift = DECLARER_SLIP - DEFENCE_SLIP
        opened = statistics.fmean(worth(d) for d in defence) if defence else 0.0
        closed = statistics.fmean(worth(d + shift) for d in defence) if defence else 0.0
        want_open = opened >= closed
        return next((s for s in shows if s.open == want_open), shows[0])

    def _declarer_layouts(
        self,
        view: SeatView,
        seen: _Seen,
        rng: random.Random,
        count: int,
        trump: Suit | None,
    ) -> list[dict[int, frozenset[Card]]]:
        """A defender's layouts: declarer's ten and the other defender's ten from the cards
        unseen, declarer's hand with the talon and his likely discard."""
        assert view.viewer is not None and view.declarer is not None
        me, declarer = view.viewer, view.declarer
        partner = next(s for s in seen.order if s not in (me, declarer))
        pool = sorted(seen.unknown)
        talon = frozenset(view.talon)
        layouts = []
        for _ in range(count):
            rng.shuffle(pool)
            twelve = frozenset(pool[:10]) | talon
            hand = twelve - frozenset(_worst_two(twelve, trump))
            layouts.append(
                {me: frozenset(view.hands[me]), partner: frozenset(pool[10:20]), declarer: hand}
            )
        return layouts

    # --- play ------------------------------------------------------------------------------------

    def _play(self, view: SeatView, plays: list[Play]) -> Play:
        turn = view.turn
        assert turn is not None
        trick = view.tricks[-1] if view.tricks and len(view.tricks[-1].plays) < 3 else None
        if _talon_led(view):
            return min(plays, key=lambda p: (int(p.card.rank), int(p.card.suit)))
        if len(plays) == 1:
            return plays[0]
        seen = _see(view)
        rng = self._rng(view)
        trump = _trump(view)
        left = max(seen.counts.values())
        if view.kind is Kind.RASPASY:
            side, maximize = turn, False
        else:
            assert view.declarer is not None
            side, maximize = view.declarer, view.kind is Kind.GAME
        misere = not maximize
        # Catching a misère not yet caught: what counts is forcing one trick, asked as yes or
        # no for each card (far cheaper than each card's count of tricks).
        catching = view.kind is Kind.MISERE and turn != side and not view.taken.get(side, 0)
        per_layout = _play_seconds(left, misere) / (3 if catching else 1)
        count = self._count(per_layout)
        layouts = _layouts(seen, rng, count)
        if len(layouts) > 3 * count:  # every layout of one hidden hand: as many as we can
            layouts = rng.sample(layouts, 3 * count)
        if not layouts:
            return plays[0]
        leader = trick.leader if trick is not None else _next_leader(view)
        played = tuple(card for _, card in trick.plays) if trick is not None else ()
        order = _from(seen.order, leader)
        totals: dict[Card, float] = {p.card: 0.0 for p in plays}
        said = _said_weight(view, seen)
        for layout in layouts:
            hands = tuple(frozenset(layout.get(s, frozenset())) for s in order)
            position = Position((hands[0], hands[1], hands[2]), 0, played, trump)
            weight = said(layout)
            if catching:
                caught = card_reaches(position, order.index(side), 1, maximize=False)
                weight *= _discard_weight(
                    seen.unknown.difference(*(layout[s] for s in seen.order if s not in seen.known))
                )
                for card in totals:
                    totals[card] += weight * caught.get(card, False)
                continue
            values = card_values(position, order.index(side), maximize)
            for card in totals:
                totals[card] += weight * values.get(card, 0)
        # the side wants its tricks high in a game, low in a misère or raspasy; the others
        # the reverse
        wants_high = (turn == side) == maximize
        ranked = sorted(
            plays,
            key=lambda p: (
                -totals[p.card] if wants_high else totals[p.card],
                int(p.card.rank),
                int(p.card.suit),
            ),
        )
        return ranked[0]

    # --- claims ----------------------------------------------------------------------------------

    def _answer_claim(self, view: SeatView, answers: list[AnswerClaim]) -> AnswerClaim:
        claim = view.claim
        accept = next(a for a in answers if a.accept)
        refuse = next(a for a in answers if not a.accept)
        if claim is None or view.declarer is None:
            return refuse
        seen = _see(view)
        rng = self._rng(view)
        trump = _trump(view)
        left = max(seen.counts.values())
        layouts = _layouts(seen, rng, self._count(_seconds(left)))
        leader = _next_leader(view)
        maximize = view.kind is Kind.GAME
        for layout in layouts:
            value = solve_seats(layout, seen.order, leader, view.declarer, trump, maximize)
            claimant_gets = value if claim.claimant == view.declarer else left - value
            if view.kind is Kind.MISERE and claim.claimant == view.declarer:
                if claim.tricks < claimant_gets:  # he claims fewer than he must take
                    return refuse
            elif claim.tricks > claimant_gets:
                return refuse
        return accept


def _split(
    unknown: list[Card], me: int, order: Sequence[int], rng: random.Random, count: int
) -> list[tuple[dict[int, frozenset[Card]], frozenset[Card]]]:
    """``count`` deals of the cards unseen to the two others, ten each, and what is left over
    (the talon, before it is seen)."""
    others = [s for s in order if s != me]
    pool = list(unknown)
    layouts = []
    for _ in range(count):
        rng.shuffle(pool)
        hands = {others[0]: frozenset(pool[:10]), others[1]: frozenset(pool[10:20])}
        layouts.append((hands, frozenset(pool[20:])))
    return layouts


def _whister_worth(view: SeatView) -> Callable[[float], float]:
    """What the lone whister's balance is, in whists, for the defence's tricks (a fraction
    is between its two whole neighbours): this deal scored alone on a fresh pulka of the
    table's size and rules."""
    assert view.viewer is not None and view.declarer is not None and view.contract is not None
    whister, declarer, contract = view.viewer, view.declarer, view.contract
    passer = next(s for s in view.active if s not in (whister, declarer))
    found: dict[int, float] = {}

    def whole(tricks: int) -> float:
        tricks = max(0, min(10, tricks))
        if tricks not in found:
            pulka = Pulka(view.players, 10, str(view.variant), view.conditions)
            pulka.game(
                declarer,
                contract,
                {whister: WHIST, passer: PASS},
                {declarer: 10 - tricks, whister: tricks, passer: 0},
                dealer=view.dealer if view.players == 4 else None,  # who sits out
            )
            found[tricks] = float(pulka.balances()[whister])
        return found[tricks]

    def worth(tricks: float) -> float:
        low = math.floor(tricks)
        part = tricks - low
        return whole(low) * (1 - part) + whole(low + 1) * part if part else whole(low)

    return worth


def _first_hand(view: SeatView) -> int:
    """Left of the dealer (who sits out at four): bids first, leads the first trick."""
    return min(view.active, key=lambda s: (s - view.dealer - 1) % view.players)


def _from(order: Sequence[int], seat: int) -> tuple[int, int, int]:
    at = order.index(seat)
    return (order[at], order[(at + 1) % 3], order[(at + 2) % 3])


def _next_leader(view: SeatView) -> int:
    """Who leads the next trick (the first: the first hand)."""
    done = [t for t in view.tricks if len(t.plays) == 3]
    if not done:
        return _first_hand(view)
    return done[-1].winner(_trump(view))


def _talon_led(view: SeatView) -> bool:
    """Whether the trick to play to is one of raspasy's two led by the turned talon card (not
    in Rostov, where the talon stays closed)."""
    if view.kind is not Kind.RASPASY:
        return False
    done = sum(1 for t in view.tricks if len(t.plays) == 3)
    if done >= 2:
        return False
    if view.tricks:
        return view.tricks[0].talon_card is not None
    return bool(view.talon)


def _best_contract(
    hand: frozenset[Card],
    worlds: list[dict[int, frozenset[Card]]],
    order: Sequence[int],
    first: int,
    me: int,
    floor: Bid | None,
) -> tuple[Bid, float]:
    """The contract at or above ``floor`` with the best expected score over ``worlds`` (made:
    its price; down: minus its price a trick short), and that score."""
    best: tuple[Bid, float] | None = None
    for strain in STRAINS:
        trump = Suit.of(strain)
        tricks = [solve_seats({**w, me: hand}, order, first, me, trump, True) for w in worlds]
        for level in range(6, 11):
            bid = Bid.of(level, strain)
            if floor is not None and bid < floor:
                continue
            score = statistics.fmean(
                PRICE[level] if t >= level else -PRICE[level] * (level - t) for t in tricks
            )
            if best is None or score > best[1]:
                best = (bid, score)
    if best is None:
        assert floor is not None
        return floor, -99.0
    return best


def _misere_shape(hand: frozenset[Card]) -> bool:
    """Worth sampling a misère: every suit's lowest card is low (a seven or eight), or the
    suit is short and low."""
    for suit in Suit:
        ranks = sorted(c.rank for c in hand if c.suit is suit)
        if ranks and ranks[0] > Rank.EIGHT and not (len(ranks) == 1 and ranks[0] <= Rank.NINE):
            return False
    return True


def _said_weight(view: SeatView, seen: _Seen) -> Callable[[dict[int, frozenset[Card]]], float]:
    """How well a layout fits what the hidden hands' players said: a game bid wants sure and
    long tricks for its level, a misère a misère's shape, a player who only passed no more
    than a pass would hold, a whist a trick or so and a pass in whisting few. A layout that
    does not fit counts ``UNLIKELY`` for each word it contradicts (people bid loosely, so
    it is a weight, not a rule). What each player said and played is read once, here; the
    function returned weighs each layout."""
    played: dict[int, set[Card]] = {seat: set() for seat in seen.order}
    for trick in view.tricks:
        for seat, card in trick.plays:
            played[seat].add(card)
    said: list[tuple[int, list[Bid], bool, str | None]] = []  # seat, bids, called, last word
    for seat in seen.order:
        if seat in seen.known:
            continue
        bids = [c.bid for c in view.calls if c.seat == seat and c.bid is not None]
        called = any(c.seat == seat for c in view.calls)
        words = [w.word for w in view.whists if w.seat == seat]
        said.append((seat, bids, called, words[-1] if words else None))

    def weigh(layout: dict[int, frozenset[Card]]) -> float:
        weight = 1.0
        for seat, bids, called, word in said:
            if seat not in layout:
                continue
            hand = layout[seat] | played[seat]
            strength = _keeps(hand, frozenset(PACK) - hand)
            if any(b.is_misere for b in bids):
                fits = _misere_shape(hand)
            elif bids:
                fits = strength >= min(bids[-1].level, 8) - BID_MARGIN
            elif called:
                fits = strength <= PASS_STRENGTH
            else:
                fits = True
            if word == WHIST:
                fits = fits and strength >= 1
            elif word == PASS:
                fits = fits and strength <= 3
            if not fits:
                weight *= UNLIKELY
        return weight

    return weigh


def _discard_weight(discard: frozenset[Card]) -> float:
    """How likely a misère player laid these cards away, as a catcher weighs a layout of the
    unseen cards: a misère player keeps his low cards and lays away the high ones, so each
    rank up makes a card likelier in the discard (by ``DISCARD_LEAN``)."""
    return float(DISCARD_LEAN ** sum(int(c.rank) - int(Rank.SEVEN) for c in discard))


def _misere_drop(twelve: frozenset[Card]) -> frozenset[Card]:
    return frozenset(sorted(twelve, key=lambda c: -int(c.rank))[:2])


@remote
def move(
    view: SeatView,
    seed: int,
    budget_s: float,
    cores: int = 1,
    robots: frozenset[int] = frozenset(),
) -> Action:
    """The robot's action for ``view``: a top-level function, so a worker process can run it.
    (``robots``, the seats robots sit in, changes nothing here: no signals in Preferans.)"""
    return Robot(seed=seed, budget_s=budget_s).act(view)
