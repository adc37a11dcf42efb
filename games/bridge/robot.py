"""A robot for an empty bridge seat: it bids by the system in ``bidding`` and plays by sampling.

For a card it deals the hidden hands at random many times, consistent with what it can see: the
cards played, the voids shown, and the auction (each hidden hand is redealt until its player
would have made every call they made by the robots' system; a call depends only on the
caller's cards, so hands are fitted one at a time, the hardest to please first); weighs each
layout by how well it explains the unseen players' recent cards (a card that would have cost a
trick in a layout makes that layout less likely); solves every layout double-dummy
(``endplay``'s DDS, many per call so DDS's own threads share them) and plays the card with the
best weighted average. The number of samples grows as the deal shortens (later positions solve
much faster), sized so a card takes about ``budget_s`` seconds on two cores.

In defence robots signal to each other (the agreed card when leading a new suit, attitude on
partner's lead, count on declarer's, attitude with a first discard of a suit; see
``signal_kind`` and ``is_discard``) with cards that cost at most
``SLACK`` tricks on average in its layouts, and read a robot partner's signals as weights on
the layouts; a person's cards are read only by the double-dummy check above.

It sees only a ``SeatView`` (declarer's, which holds dummy, when dummy plays), so it cannot see a
hidden card; and for a given seed and view it always does the same thing.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from games.bridge.analysis import solve_positions, solver_position
from games.bridge.auction import AuctionState
from games.bridge.bidding import HandInfo, Meaning, Turn, choose_call, promises
from games.bridge.calls import Call
from games.bridge.cards import FULL_DECK, Card, Seat, Suit
from games.bridge.deal import Action, AnswerClaim, MakeCall, Phase, PlayCard, SeatView
from games.core.data import remote
from games.errors import OutOfTurn, Reason

# Samples a second on two cores, by tricks left (bench.robots: 24 samples at trick 1 take
# 0.4 s on average, 1.9 s at worst; by trick 4 a sample costs a twentieth of that).
_RATE = {13: 40, 12: 60, 11: 80, 10: 120, 9: 160, 8: 220}
MAX_SAMPLES = 256
MIN_SAMPLES = 6
# A check (was a seen card best in a layout?) asks DDS only for the best cards, not every
# card's tricks: about a third of the cost (bench: 2.2-4.0 s against 6.9-8.3 s a hundred deals).
CHECK_COST = 0.4
# Tricks on average (in the robot's layouts) a signal or an agreed lead may cost: a little,
# for what partner learns (bench.robots, 300 deals: defence 0.573 -> 0.520 tricks given away).
SLACK = 0.05


@dataclass(frozen=True, slots=True)
class Position:
    """What the robot knows in play: hands it sees, cards played by each seat, voids."""

    known: Mapping[Seat, frozenset[Card]]  # cards still held by the seats in view
    played: Mapping[Seat, frozenset[Card]]
    voids: Mapping[Seat, frozenset[Suit]]
    counts: Mapping[Seat, int]  # cards still held by each seat
    leader: Seat  # of the trick in progress
    trick: tuple[Card, ...]
    trump: Suit | None

    @classmethod
    def of(cls, view: SeatView) -> Position:
        played: dict[Seat, set[Card]] = {seat: set() for seat in Seat}
        voids: dict[Seat, set[Suit]] = {seat: set() for seat in Seat}
        for trick in view.tricks:
            led = trick.suit_led
            for seat, card in trick.plays():
                played[seat].add(card)
                if led is not None and card.suit is not led:
                    voids[seat].add(led)
        current = view.tricks[-1]
        return cls(
            known=dict(view.hands),
            played={s: frozenset(c) for s, c in played.items()},
            voids={s: frozenset(v) for s, v in voids.items()},
            counts={s: 13 - len(played[s]) for s in Seat},
            leader=current.leader,
            trick=current.cards,
            trump=view.trump,
        )

    @property
    def tricks_left(self) -> int:
        return max(self.counts.values())


class Robot:
    """``Robot(seed=…, budget_s=…).act(view)``: the robot's call, card or claim answer."""

    def __init__(
        self,
        seed: int = 0,
        budget_s: float = 1.0,
        cores: int = 2,
        lead_factor: float = 1.0,
        signals: frozenset[Seat] = frozenset(),
        check_cost: float = CHECK_COST,
        slack: float = SLACK,
        leads: bool = True,
        discards: bool = False,
    ) -> None:
        self.seed = seed
        self.budget_s = budget_s
        self.cores = cores  # the cores it thinks on (``_RATE`` is for two)
        # The opening lead's budget, in budgets: the one card chosen with no card seen.
        self.lead_factor = lead_factor
        # A check's solve, in full solves, for sizing the sampling (1.0: sized as before the
        # checks asked DDS for the best cards only).
        self.check_cost = check_cost
        # The seats that signal by the robots' agreement (``signal_kind``): the robots. A
        # robot defending signals when a card is free to choose; it reads its partner's
        # cards as signals only if the partner is one of these (a person's are not trusted).
        self.signals = signals
        self.leads = leads  # defenders lead by the agreement (``agreed_lead``)
        self.slack = slack  # tricks on average a signal or agreed lead may cost
        self.discards = discards  # a defender's first discard of a suit is attitude

    def act(self, view: SeatView) -> Action:
        seat = view.viewer
        if seat is None:
            raise OutOfTurn("robot", Reason.NOT_YOUR_TURN)
        claim = view.claim
        if claim is not None and seat in claim.responders and seat not in claim.accepted:
            return AnswerClaim(seat, self.claim_is_good(view))
        if view.phase is Phase.AUCTION and view.legal_calls:
            call, _ = choose_call(view.dealer, view.calls, view.hands[seat], view.legal_calls)
            return MakeCall(seat, call)
        if view.phase is Phase.PLAY and view.legal_cards:
            return PlayCard(seat, self.card(view))
        raise OutOfTurn("robot", Reason.NOT_YOUR_TURN)

    # --- play ---------------------------------------------------------------------------

    def samples_for(self, left: int, *checked: int, factor: float = 1.0) -> int:
        """Layouts ``factor`` budgets pay for when each is solved at the position with
        ``left`` tricks left and checked at positions with ``checked`` tricks left (earlier
        positions are dearer)."""
        speed = max(1, self.cores) / 2
        solves = [(left, 1.0)] + [(c, self.check_cost) for c in checked]
        seconds = sum(cost / (_RATE.get(n, MAX_SAMPLES) * speed) for n, cost in solves)
        return max(MIN_SAMPLES, min(MAX_SAMPLES, int(self.budget_s * factor / seconds)))

    def card(self, view: SeatView) -> Card:
        if len(view.legal_cards) == 1:
            return next(iter(view.legal_cards))
        weights, solved = self.layouts(view)
        return self.choose(view, weights, solved)

    def layouts(self, view: SeatView) -> tuple[list[float], list[dict[Card, int]]]:
        """The layouts the robot samples for ``view``: how likely each is, and the tricks each
        of the seat's cards then takes in it, double-dummy."""
        position = Position.of(view)
        rng = self._rng(view)
        # Weighing a layout solves it again at each checked card (``check_cost`` of a full
        # solve each): all solves counted.
        checks = _checks(view, position)
        opening = not any(position.played.values())
        factor = self.lead_factor if opening else 1.0
        count = self.samples_for(
            position.tricks_left, *(13 - index for index, _ in checks), factor=factor
        )
        worlds, prior = self._sample(view, position, rng, count)
        reads = view.viewer is not None and view.viewer.partner in self.signals
        read = _signal_weights(view, worlds, self.leads, self.discards) if reads else None
        weights = [
            p * w * (read[i] if read is not None else 1.0)
            for i, (p, w) in enumerate(
                zip(prior, _weights(view, checks, position.trump, worlds), strict=True)
            )
        ]
        return weights, _solve(worlds, position)

    def choose(
        self, view: SeatView, weights: Sequence[float], solved: Sequence[Mapping[Card, int]]
    ) -> Card:
        """The card to play, given the ``layouts``."""
        legal = sorted(view.legal_cards, key=lambda c: (c.rank, c.suit))
        totals = dict.fromkeys(legal, 0.0)
        best_in = dict.fromkeys(legal, 0.0)  # layouts in which the card is among the best
        for weight, tricks in zip(weights, solved, strict=True):
            top = max(tricks[card] for card in legal)
            for card in legal:
                totals[card] += weight * tricks[card]
                best_in[card] += weight * (tricks[card] == top)
        # The most tricks on average; then the card right in the most layouts; then the
        # lowest (it gives nothing away that the sampling cannot see), or the signal.
        most = max(totals.values())
        mass = sum(weights) or 1.0
        slack = max(self.slack * mass, 1e-9 * max(1.0, abs(most)))
        tied = [card for card in legal if totals[card] >= most - slack]
        best = max(legal, key=lambda card: (totals[card], best_in[card], -legal.index(card)))
        if self.signals:
            signal = _signal_card(view, tied)
            if signal is None and self.leads and not view.tricks[-1].cards:
                signal = _lead_card(view, best, tied)
            if signal is None and self.discards:
                signal = _discard_card(view, best, tied)
            if signal is not None:
                return signal
        return best

    def claim_is_good(self, view: SeatView) -> bool:
        """Accept a claim only if the claiming side takes that many tricks in every sampled
        layout, double-dummy: a wrong claim is rejected."""
        claim = view.claim
        assert claim is not None and view.viewer is not None
        position = Position.of(view)
        left = position.tricks_left
        if claim.tricks == 0:
            return True
        rng = self._rng(view)
        worlds, _ = self._sample(view, position, rng, self.samples_for(position.tricks_left))
        to_play = position.leader.after(len(position.trick))
        for solved in _solve(worlds, position):
            best = max(solved.values())
            side_tricks = best if to_play.side is claim.claimant.side else left - best
            if side_tricks < claim.tricks:
                return False
        return True

    def _rng(self, view: SeatView) -> random.Random:
        """Seeded by the seed and the position, so the same view gets the same answer."""
        text = f"{self.seed}|{position_text(view)}"
        digest = hashlib.sha256(text.encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def _sample(
        self, view: SeatView, position: Position, rng: random.Random, count: int
    ) -> tuple[list[dict[Seat, frozenset[Card]]], list[float]]:
        """``count`` layouts of the hidden cards (cards still held, per seat), and how likely
        each is. Each hidden hand is dealt on its own, tightest first, redealt until its
        player would have made every call they made by the robots' system (a call depends on
        the caller's own cards only); the last takes what is left. A layout that cannot be
        made to fit that way is kept at a tenth of the weight, after the others."""
        hidden = [seat for seat in Seat if seat not in position.known]
        seen = {c for hand in position.known.values() for c in hand}
        seen |= {c for cards in position.played.values() for c in cards}
        pool = [c for c in FULL_DECK if c not in seen]
        bidding = _Bidding(view, hidden, position)
        order = bidding.tightest_first(pool, rng)
        fitting: list[dict[Seat, frozenset[Card]]] = []
        others: list[dict[Seat, frozenset[Card]]] = []
        for _ in range(count):
            layout, fits = _deal_fitting(pool, order, position, bidding, rng)
            (fitting if fits else others).append({**position.known, **layout})
        prior = [1.0] * len(fitting) + [MISBID] * len(others)
        return fitting + others, prior


def position_text(view: SeatView) -> str:
    """What a robot decides from, as text: the seat, the auction, the cards played and the
    cards in view (its randomness is drawn from this and its seed)."""
    return "|".join(
        (
            str(view.viewer),
            str(view.dealer),
            " ".join(map(str, view.calls)),
            " ".join(str(c) for t in view.tricks for c in t.cards),
            " ".join(sorted(str(c) for h in view.hands.values() for c in h)),
        )
    )


SEAT_TRIES = 60  # hands dealt to one hidden seat at most, looking for one that bid as it did
ROUNDS = 4  # layouts begun at most, looking for one whose last hand fits too
_PROBES = 12  # random hands per hidden seat, to tell which seat's calls are hardest to fit
MISBID = 0.1  # how much less likely a layout is in which someone bid off the robots' system


class _Bidding:
    """The hidden players' calls, each with what came before it and what was legal then."""

    def __init__(self, view: SeatView, hidden: Sequence[Seat], position: Position) -> None:
        self.position = position
        self.shown = promises(view.dealer, view.calls, passes=False)  # a filter: never too tight
        self.turns: dict[Seat, list[tuple[Turn, Call]]] = {seat: [] for seat in hidden}
        auction = AuctionState(view.dealer)
        for i, call in enumerate(view.calls):
            seat = view.dealer.after(i)
            if seat in self.turns:
                turn = Turn(view.dealer, auction.calls, auction.legal_calls())
                self.turns[seat].append((turn, call))
            auction = auction.apply(call)

    def fits(self, seat: Seat, held: frozenset[Card]) -> bool:
        """Would ``seat``, holding ``held`` now (plus the cards it has played), have made
        every call it made? What its calls promise is checked first: it is cheaper."""
        info = HandInfo.of(held | self.position.played[seat])
        if not _keeps(self.shown[seat], info):
            return False
        return all(turn.choose(info)[0] == call for turn, call in self.turns[seat])

    def explains(self, world: Mapping[Seat, frozenset[Card]]) -> bool:
        """Would each hidden player, with this layout's cards, have made every call they made?"""
        return all(self.fits(seat, world[seat]) for seat in self.turns)

    def tightest_first(self, pool: Sequence[Card], rng: random.Random) -> list[Seat]:
        """The hidden seats, those whose calls fewest random hands would fit first (the last
        seat takes what is left, so it had better be easy to please)."""
        position = self.position
        rate = {}
        for seat in self.turns:
            allowed = [c for c in pool if c.suit not in position.voids[seat]]
            size = min(position.counts[seat], len(allowed))
            rate[seat] = sum(
                self.fits(seat, frozenset(rng.sample(allowed, size))) for _ in range(_PROBES)
            )
        return sorted(self.turns, key=rate.__getitem__)  # stable: ties keep the seats' order


def _deal_fitting(
    pool: Sequence[Card],
    order: Sequence[Seat],
    position: Position,
    bidding: _Bidding,
    rng: random.Random,
) -> tuple[dict[Seat, frozenset[Card]], bool]:
    """One layout of the hidden cards, voids always kept, and whether every hidden hand in it
    fits its calls. Seats are dealt in ``order``, each redealt up to ``SEAT_TRIES`` times
    until it fits; if the last seat's leftovers do not fit, the layout is begun again (up to
    ``ROUNDS`` times) and the one with the fewest misfits is kept."""
    best: tuple[int, dict[Seat, frozenset[Card]]] | None = None
    for _ in range(ROUNDS):
        left = list(pool)
        layout: dict[Seat, frozenset[Card]] = {}
        misfits = 0
        for i, seat in enumerate(order):
            later = order[i + 1 :]
            hand = None
            for _ in range(SEAT_TRIES if later else 1):
                drawn = _draw(left, seat, later, position, rng)
                if drawn is None:
                    continue
                hand = drawn
                if bidding.fits(seat, drawn):
                    break
            else:
                misfits += 1
            if hand is None:  # the voids admit no hand for this seat: begin again
                break
            layout[seat] = hand
            left = [c for c in left if c not in hand]
        if len(layout) == len(order):
            if misfits == 0:
                return layout, True
            if best is None or misfits < best[0]:
                best = (misfits, layout)
    if best is None:  # pragma: no cover (the true layout keeps every void)
        raise AssertionError("no layout of the hidden cards")
    return best[1], False


def _draw(
    left: Sequence[Card],
    seat: Seat,
    later: Sequence[Seat],
    position: Position,
    rng: random.Random,
) -> frozenset[Card] | None:
    """A random hand for ``seat`` from the cards ``left``, such that the ``later`` seats can
    still be dealt the rest without breaking a void; None if there is no such hand."""
    room = position.counts[seat]
    if not later:
        return frozenset(left) if all(c.suit not in position.voids[seat] for c in left) else None
    if not position.voids[seat] and not any(position.voids[s] for s in later):
        return frozenset(rng.sample(left, room))  # what the general case comes to, faster
    forced = [c for c in left if all(c.suit in position.voids[s] for s in later)]
    free = [c for c in left if c.suit not in position.voids[seat] and c not in forced]
    if len(forced) > room or any(c.suit in position.voids[seat] for c in forced):
        return None
    if len(free) < room - len(forced):
        return None
    hand = frozenset(forced) | frozenset(rng.sample(free, room - len(forced)))
    rest = [c for c in left if c not in hand]
    if len(later) == 2:  # each of the two takes the cards only it may hold, within its room
        first, second = later
        only_first = sum(1 for c in rest if c.suit in position.voids[second])
        only_second = sum(1 for c in rest if c.suit in position.voids[first])
        if only_first > position.counts[first] or only_second > position.counts[second]:
            return None
    return hand


def _keeps(meaning: Meaning, info: HandInfo) -> bool:
    """Does a hand keep what the calls promised: points, balance, suit lengths? A filter
    before the calls are checked one by one, so never too tight: a promise of SAYC's points
    (high cards and length, as a strong 2♣) reads as high cards two below them, which a 6-5
    hand's three length points undercut, so its points are counted too."""
    low, high = meaning.hcp
    if info.hcp > high or (info.hcp < low and info.points < low + 2):
        return False
    if meaning.balanced and not info.balanced:
        return False
    return all(info.lengths[s] >= n for s, n in meaning.lengths.items())


def _solve(
    worlds: Sequence[Mapping[Seat, frozenset[Card]]], position: Position
) -> list[dict[Card, int]]:
    """For each layout, every card of the seat to play and the tricks (of the remaining ones)
    its side then takes, double-dummy."""
    deals = []
    for world in worlds:
        at_start = {seat: set(world[seat]) for seat in Seat}
        for i, card in enumerate(position.trick):
            at_start[position.leader.after(i)].add(card)
        deals.append(solver_position(at_start, position.leader, position.trump, position.trick))
    return solve_positions(deals)


UNLIKELY = 0.25  # how much less likely a layout is for each recent card that was a mistake in it
CHECKED = 3  # recent cards of the unseen hands checked


def _checks(view: SeatView, position: Position) -> list[tuple[int, int]]:
    """The unseen players' last cards (trick, place in it), at most ``CHECKED``."""
    hidden = {seat for seat in Seat if seat not in position.known}
    tricks = view.tricks
    return [
        (index, step)
        for index in range(max(0, len(tricks) - 2), len(tricks))
        for step, (seat, _) in enumerate(tricks[index].plays())
        if seat in hidden
    ][-CHECKED:]


def _weights(
    view: SeatView,
    checks: Sequence[tuple[int, int]],
    trump: Suit | None,
    worlds: Sequence[Mapping[Seat, frozenset[Card]]],
    fast: bool = True,
) -> list[float]:
    """How likely each layout is given the unseen players' recent cards (``checks``):
    players mostly play a card that does not cost a trick, so a layout in which a recent card
    of theirs was a double-dummy mistake is less likely (not ruled out: people do err)."""
    tricks = view.tricks
    if not checks:
        return [1.0] * len(worlds)
    deals = []
    for world in worlds:
        for index, step in checks:
            at_start = {seat: set(world[seat]) for seat in Seat}
            for trick in tricks[index:]:
                for seat, card in trick.plays():
                    at_start[seat].add(card)
            trick = tricks[index]
            deals.append(solver_position(at_start, trick.leader, trump, trick.cards[:step]))
    from endplay.dds.solve import SolveMode  # here: the bot's process never solves

    best = solve_positions(deals, SolveMode.OptimalAll if fast else SolveMode.Default)
    weights = []
    for i in range(len(worlds)):
        weight = 1.0
        for j, (index, step) in enumerate(checks):
            found = best[i * len(checks) + j]
            played = tricks[index].cards[step]
            if found.get(played, -1) < max(found.values()):
                weight *= UNLIKELY
        weights.append(weight)
    return weights


# --- signals: the robots' defensive agreement ------------------------------------------------
#
# A defender leading a side suit for the first time leads the agreed card (``agreed_lead``: top
# of touching honours, fourth highest, ...) if it costs at most ``SLACK`` tricks on average.
# On the first round of a side suit, a defender following suit with small cards (below the ten)
# free to choose among (costing at most ``SLACK`` on average in its layouts) plays
# - attitude, when its partner led: a high one if it holds the ace, king or queen of the suit,
#   else its lowest;
# - count, when declarer or dummy led: a high one from an even number of cards, else its lowest.
# - attitude with its first discard of a side suit (``discards``): of the small cards of that
#   suit free to choose, a high one if it holds the ace, king or queen there, else its lowest.
# A robot reads its robot partner's cards by the same rule: a layout in which the partner
# would have signalled otherwise counts ``SIGNAL_TRUST`` as much.

SIGNAL_TRUST = 0.3
SPOT = 9  # the highest rank a signal is given with (a ten or an honour may be a try to win)
ATTITUDE, COUNT, LEAD = "attitude", "count", "lead"


def _agreed(view: SeatView, seat: Seat, suit: Suit | None, index: int) -> bool:
    """Whether the agreement speaks for ``seat``'s card of ``suit`` in trick ``index``: a
    defender's, in a side suit, on that suit's first round."""
    if view.declarer is None or seat.side is view.declarer.side:
        return False
    if suit is None or suit is view.trump:
        return False
    return not any(t.suit_led is suit for t in view.tricks[:index])


def signal_kind(view: SeatView, index: int, seat: Seat) -> str | None:
    """Whether ``seat``'s card in trick ``index`` is a signal by the agreement, and which."""
    trick = view.tricks[index]
    if not _agreed(view, seat, trick.suit_led, index):
        return None
    if trick.leader is seat:
        return LEAD
    return ATTITUDE if trick.leader is seat.partner else COUNT


def is_discard(view: SeatView, index: int, seat: Seat, suit: Suit) -> bool:
    """Whether ``seat``'s card of ``suit`` in trick ``index`` is a defender's first discard of
    that side suit (not the suit led, not a trump): an attitude signal when robots agree on
    ``discards``."""
    trick = view.tricks[index]
    if view.declarer is None or seat.side is view.declarer.side:
        return False
    if trick.suit_led in (None, suit) or suit is view.trump:
        return False
    return not any(
        who is seat and card.suit is suit and t.suit_led is not suit
        for t in view.tricks[:index]
        for who, card in t.plays()
    )


def agreed_lead(holding: Iterable[Card]) -> Card:
    """The card the agreement leads from a suit's ``holding``: the top of touching honours
    (the ten up), else the fourth highest from four or more, the lowest from three with an
    honour (the jack up), and the highest from three small or from two."""
    cards = sorted(holding, key=lambda c: c.rank, reverse=True)
    if len(cards) >= 2 and cards[0].rank >= 10 and cards[1].rank == cards[0].rank - 1:
        return cards[0]
    if len(cards) >= 4:
        return cards[3]
    if len(cards) == 3 and cards[0].rank >= 11:
        return cards[-1]
    return cards[0]


def _lead_card(view: SeatView, best: Card, tied: Sequence[Card]) -> Card | None:
    """The agreed lead in the suit of the ``best`` lead, if it is among the cards ``tied``
    for best and the suit has not been led; None otherwise."""
    seat = view.viewer
    if seat is None or not _agreed(view, seat, best.suit, len(view.tricks)):
        return None
    agreed = agreed_lead(c for c in view.hands[seat] if c.suit is best.suit)
    return agreed if agreed in tied else None


def wants_high(kind: str, holding: Iterable[Card]) -> bool:
    """The agreement: high to encourage (an honour from the ace to the queen) or to show an
    even number of cards; low otherwise."""
    held = list(holding)
    if kind == ATTITUDE:
        return any(card.rank >= 12 for card in held)
    return len(held) % 2 == 0


def _signal_card(view: SeatView, tied: Sequence[Card]) -> Card | None:
    """The card to signal with, among the cards tied for best; None if this is no signal."""
    seat = view.viewer
    if seat is None or not view.tricks or not view.tricks[-1].cards:
        return None
    kind = signal_kind(view, len(view.tricks) - 1, seat)
    led = view.tricks[-1].suit_led
    if kind is None or kind == LEAD or led is None:
        return None
    return _small_card(view.hands[seat], led, kind, tied)


def _discard_card(view: SeatView, best: Card, tied: Sequence[Card]) -> Card | None:
    """The attitude card in the suit of the ``best`` card, if that is a first discard and
    small cards of the suit are among those ``tied`` for best; None otherwise."""
    seat = view.viewer
    if seat is None or not view.tricks or not view.tricks[-1].cards:
        return None
    if not is_discard(view, len(view.tricks) - 1, seat, best.suit):
        return None
    return _small_card(view.hands[seat], best.suit, ATTITUDE, tied)


def _small_card(hand: Iterable[Card], suit: Suit, kind: str, tied: Sequence[Card]) -> Card | None:
    """Of the small cards of ``suit`` among those ``tied`` for best, the highest if the
    agreement (``kind``) wants it of the ``hand``'s holding there, else the lowest; None with
    fewer than two to choose from (no choice: no signal)."""
    spots = sorted((c for c in tied if c.suit is suit and c.rank <= SPOT), key=lambda c: c.rank)
    if len(spots) < 2:
        return None
    return spots[-1] if wants_high(kind, [c for c in hand if c.suit is suit]) else spots[0]


@dataclass(frozen=True, slots=True)
class Signal:
    """A robot partner's card read by the agreement: its ``kind``, the ``card`` and the cards of
    that suit the partner played from then on (they were in its hand when it signalled)."""

    kind: str
    card: Card
    later: tuple[Card, ...]

    def kept(self, held: Iterable[Card]) -> bool:
        """Would a partner holding ``held`` now have given this signal?"""
        holding = [c for c in held if c.suit is self.card.suit] + list(self.later)
        if self.kind == LEAD:
            return agreed_lead(holding) == self.card
        spots = [c.rank for c in holding if c.rank <= SPOT]
        if len(spots) < 2:
            return True  # no choice: nothing to read
        return wants_high(self.kind, holding) == (self.card.rank != min(spots))


def partner_signals(
    view: SeatView, leads: bool = True, discards: bool = False
) -> tuple[Signal, ...]:
    """The viewer's partner's cards so far that the agreement reads as signals."""
    seat = view.viewer
    assert seat is not None
    partner = seat.partner
    signals: list[Signal] = []
    for index, trick in enumerate(view.tricks):
        for who, card in trick.plays():
            if who is not partner:
                continue
            if card.suit is not trick.suit_led:
                if not (discards and is_discard(view, index, partner, card.suit)):
                    continue
                kind: str | None = ATTITUDE
            else:
                kind = signal_kind(view, index, partner)
            if kind is None or (kind == LEAD and not leads):
                continue
            if kind == LEAD or card.rank <= SPOT:  # a lead is read whatever its rank
                later = tuple(
                    c
                    for t in view.tricks[index:]
                    for w, c in t.plays()
                    if w is partner and c.suit is card.suit
                )
                signals.append(Signal(kind, card, later))
    return tuple(signals)


def _signal_weights(
    view: SeatView,
    worlds: Sequence[Mapping[Seat, frozenset[Card]]],
    leads: bool = True,
    discards: bool = False,
) -> list[float]:
    """How likely each layout is given the partner's signals so far (``SIGNAL_TRUST`` for each
    signal the partner would have given otherwise with its cards in that layout)."""
    assert view.viewer is not None
    partner = view.viewer.partner
    signals = partner_signals(view, leads, discards)
    weights = []
    for world in worlds:
        weight = 1.0  # multiplied signal by signal, as before: 0.3 ** 3 is not 0.3 * 0.3 * 0.3
        for signal in signals:
            if not signal.kept(world[partner]):
                weight *= SIGNAL_TRUST
        weights.append(weight)
    return weights


@remote
def move(
    view: SeatView,
    seed: int,
    budget_s: float,
    cores: int = 2,
    robots: frozenset[int] = frozenset(),
) -> Action:
    """The robot's action for ``view``: a top-level function, so a worker process can run it.
    ``robots``: the seats robots sit in (they signal to each other)."""
    seats = frozenset(Seat(i) for i in robots)
    robot = Robot(seed=seed, budget_s=budget_s, cores=cores, signals=seats, discards=True)
    return robot.act(view)
