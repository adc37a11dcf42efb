"""How well and how fast the bridge robot plays, over random deals.

    python -m bench.robots [--deals 100] [--budget 1.0] [--seed 1] [--cores 2]
    python -m bench.robots --versions today lead3 [--parts lead defence declarer] [--deals 500]
        [--after 300]

With ``--versions``, robot versions (``VERSIONS``) play the same deals with the same seeds, and
each version after the first is compared with it deal by deal: the mean difference and its
standard error (per-deal results vary by about 0.8 tricks, so only a paired difference over
hundreds of deals tells 0.45 from 0.50). A position both versions decide alike is thought over
once. ``lead``: the tricks the opening lead gives away against the best lead, double-dummy.
``--after N`` plays the deals after the first N (dealt and bid alike): a run cut short carries on,
and its means combine with the first run's, weighted by deals.

Each deal is bid by four robots (a passed-out deal is replaced by the next one). Its contract is
then played four ways, each compared with the double-dummy result of that contract:

- robot declarer (playing dummy too) against double-dummy defenders: tricks below double-dummy;
- double-dummy declarer against two robot defenders: tricks given away;
- the same two with the baseline player instead of the robot (highest card if it beats the
  trick so far, else the lowest; the lowest legal card when leading is its only idea).

A double-dummy player sees all four hands and plays a card that keeps the most tricks. Prints
the averages, and the median and worst seconds a robot took per card and per call. Asserts
nothing. The targets (issue #16): each average within 0.4 tricks, median 1 s or less per card.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from endplay.dds import solve_board

from games.bridge.analysis import SOLVER_LOCK, analyse, solver_card, solver_position
from games.bridge.cards import Card, Deal, Seat
from games.bridge.deal import DealState, MakeCall, Phase, PlayCard, SeatView
from games.bridge.robot import Robot, position_text

Chooser = Callable[[DealState, Seat], Card]


def dd_tricks(state: DealState) -> dict[Card, int]:
    """Each card of the seat to play, with the tricks its side then takes, double-dummy."""
    play = state.play
    assert play is not None
    trick = play.current
    at_start = {seat: set(play.hand(seat)) for seat in Seat}
    for i, card in enumerate(trick.cards):
        at_start[trick.leader.after(i)].add(card)
    deal = solver_position(at_start, trick.leader, play.trump, trick.cards)
    with SOLVER_LOCK:
        return {solver_card(c): int(t) for c, t in solve_board(deal)}


def dd_card(state: DealState, actor: Seat) -> Card:
    """The double-dummy card: every hand in view, a card that keeps the most tricks."""
    solved = dd_tricks(state)
    legal = sorted(state.legal_cards(actor), key=lambda c: (c.rank, c.suit))
    best = max(solved[c] for c in legal)
    return next(c for c in legal if solved[c] == best)


def baseline_card(state: DealState, actor: Seat) -> Card:
    """Highest card if it wins the trick so far, else the lowest."""
    play = state.play
    assert play is not None
    legal = sorted(state.legal_cards(actor), key=lambda c: (c.rank, c.suit))
    trick = play.current
    if not trick.cards:
        return legal[-1] if legal[-1].rank == 14 else legal[0]
    led = trick.cards[0].suit

    def power(card: Card) -> int:
        if card.suit is play.trump:
            return 100 + card.rank
        return card.rank if card.suit is led else 0

    top = legal[-1] if legal[-1].suit is led else max(legal, key=power)
    if power(top) > max(power(c) for c in trick.cards):
        return top
    return legal[0]


def robot_chooser(robot: Robot, times: list[float]) -> Chooser:
    def choose(state: DealState, actor: Seat) -> Card:
        view: SeatView = state.view(actor)
        started = time.perf_counter()
        action = robot.act(view)
        times.append(time.perf_counter() - started)
        assert isinstance(action, PlayCard)
        return action.card

    return choose


def play_out(state: DealState, declaring: Chooser, defending: Chooser) -> int:
    """Declarer's tricks when declarer's side plays with one chooser and the defence with the
    other."""
    assert state.play is not None
    side = state.play.declarer.side
    while state.phase is Phase.PLAY:
        actor = state.actor
        assert actor is not None
        choose = declaring if actor.side is side else defending
        state = state.apply(PlayCard(actor, choose(state, actor)))
    assert state.result is not None
    return state.result.declarer_tricks


def bid(deal: Deal, robot: Robot, call_times: list[float]) -> DealState:
    state = DealState.new(deal)
    while state.phase is Phase.AUCTION:
        actor = state.actor
        assert actor is not None
        started = time.perf_counter()
        action = robot.act(state.view(actor))
        call_times.append(time.perf_counter() - started)
        assert isinstance(action, MakeCall)
        state = state.apply(action)
    return state


# Robot versions the paired comparison knows, by name: keyword arguments of ``Robot``.
EVERY_SEAT = frozenset(Seat)  # robots in every seat: defenders signal to each other
TODAY: dict[str, Any] = {"check_cost": 1.0}  # sampling sized as when checks cost a full solve
VERSIONS: dict[str, dict[str, Any]] = {
    "today": TODAY,  # the robot as it was when issue #31 was filed
    "lead2": {**TODAY, "lead_factor": 2.0},
    "lead3": {**TODAY, "lead_factor": 3.0},
    "lead6": {**TODAY, "lead_factor": 6.0},
    # Issue #31's steps: signals as first built (small cards exactly tied only, no agreed
    # leads); checks solved for the best cards only; and the agreement as the bot played it until
    # the first discard joined it ("discards").
    "signals": {**TODAY, "signals": EVERY_SEAT, "leads": False, "slack": 0.0},
    "lead3signals": {
        **TODAY,
        "lead_factor": 3.0,
        "signals": EVERY_SEAT,
        "leads": False,
        "slack": 0.0,
    },
    "fastchecks": {"signals": EVERY_SEAT, "leads": False, "slack": 0.0},
    "agreed": {"signals": EVERY_SEAT},
    # Issue #45: the opening lead with more layouts, now that SAYC's auctions shape them.
    "agreedlead3": {"signals": EVERY_SEAT, "lead_factor": 3.0},
    "agreedlead6": {"signals": EVERY_SEAT, "lead_factor": 6.0},
    # The first discard of a side suit as attitude, given and read (issue #45, defence): the
    # agreement as the bot plays it since (``move``).
    "discards": {"signals": EVERY_SEAT, "discards": True},
}
PARTS = ("lead", "defence", "declarer")


Shared = dict[tuple[str, tuple[object, ...]], Card]


class Versioned:
    """A version's cards, remembered by position: a card of a position both versions decide
    alike (the opening lead is the only one ``lead_factor`` touches) is thought over once, so
    a pair of versions that differ at the lead replays the rest of a deal for free when their
    leads agree."""

    def __init__(self, name: str, seed: int, budget: float, cores: int, shared: Shared) -> None:
        self.name = name
        self.shared = shared
        self.robot = Robot(seed=seed, budget_s=budget, cores=cores, **VERSIONS[name])
        self.times: list[float] = []

    def _params(self, view: SeatView) -> tuple[object, ...]:
        """The settings that may decide this card: the opening lead's budget only at the
        opening lead, the first-discard agreement only once someone has discarded or the
        robot must (before, it neither gives nor reads a thing)."""
        robot = self.robot
        opening = not any(t.cards for t in view.tricks)
        settings = {**vars(robot), "lead_factor": robot.lead_factor if opening else None}
        if not _discarding(view):
            settings["discards"] = None
        return tuple(sorted(settings.items()))

    def card(self, state: DealState, actor: Seat) -> Card:
        view = state.view(actor)
        key = (position_text(view), self._params(view))
        found = self.shared.get(key)
        if found is None:
            started = time.perf_counter()
            action = self.robot.act(view)
            self.times.append(time.perf_counter() - started)
            assert isinstance(action, PlayCard)
            found = self.shared[key] = action.card
        return found


def _discarding(view: SeatView) -> bool:
    """Has a card been played off the suit led, or may the seat to play play one now?"""
    if any(card.suit is not t.suit_led for t in view.tricks for _, card in t.plays()):
        return True
    led = view.tricks[-1].suit_led if view.tricks else None
    return led is not None and any(card.suit is not led for card in view.legal_cards)


def lead_cost(state: DealState, lead: Card) -> int:
    """Tricks the opening lead gives away against the best lead, double-dummy."""
    play = state.play
    assert play is not None
    trick = play.current
    at_start = {seat: set(play.hand(seat)) for seat in Seat}
    deal = solver_position(at_start, trick.leader, play.trump, ())
    with SOLVER_LOCK:
        solved = {solver_card(c): int(t) for c, t in solve_board(deal)}
    return max(solved.values()) - solved[lead]


def paired(
    deals: int,
    budget: float,
    seed: int,
    cores: int,
    names: list[str],
    parts: list[str],
    after: int = 0,
) -> None:
    """Each version on the same deals, bid alike (bidding does not depend on the versions),
    with the same seeds; the differences per deal, their mean and its standard error. The
    first ``after`` deals are dealt and bid but not played: a run can take up where another
    stopped (the same deals, the same cards)."""
    rng = random.Random(seed)
    bidder = Robot(seed=seed, budget_s=budget, cores=cores)
    shared: Shared = {}
    versions = [Versioned(n, seed, budget, cores, shared) for n in names]
    rows: dict[tuple[str, str], list[int]] = {(v.name, p): [] for v in versions for p in parts}
    played = skipped = 0
    started = time.perf_counter()
    while played < deals:
        deal = Deal.shuffled(Seat(rng.randrange(4)), rng.randrange)
        state = bid(deal, bidder, [])
        if state.phase is not Phase.PLAY or state.contract is None or state.declarer is None:
            continue
        if skipped < after:
            skipped += 1
            continue
        played += 1
        shared.clear()  # positions of one deal only
        dd = analyse(deal, False, False).makes(state.contract.strain, state.declarer)
        for v in versions:
            if "lead" in parts:
                actor = state.actor
                assert actor is not None
                rows[(v.name, "lead")].append(lead_cost(state, v.card(state, actor)))
            if "defence" in parts:
                rows[(v.name, "defence")].append(play_out(state, dd_card, v.card) - dd)
            if "declarer" in parts:
                rows[(v.name, "declarer")].append(dd - play_out(state, v.card, dd_card))
        if played % 25 == 0:
            so_far = "".join(
                f"; {part} {v.name} {_difference(rows[(v.name, part)], rows[(names[0], part)])}"
                for part in parts
                for v in versions[1:]
            )
            print(f"  {played} deals, {time.perf_counter() - started:.0f} s{so_far}", flush=True)
    print(
        f"\n{played} deals after the first {after}, paired "
        f"(budget {budget} s a card on {cores} cores, seed {seed})"
    )
    labels = {
        "lead": "opening lead: tricks it gives away",
        "defence": "defence: tricks given away to DD declarer",
        "declarer": "declarer: tricks below double-dummy",
    }
    for part in parts:
        print(labels[part])
        base = rows[(names[0], part)]
        for v in versions:
            mine = rows[(v.name, part)]
            line = f"  {v.name:10} {statistics.fmean(mine):.3f}"
            if v is not versions[0]:
                line += f"   minus {names[0]}: {_difference(mine, base)}"
            print(line)
    for v in versions:
        if v.times:
            print(
                f"  {v.name}: seconds a card thought over median "
                f"{statistics.median(v.times):.3f}, worst {max(v.times):.3f} ({len(v.times)})"
            )


def _difference(mine: list[int], base: list[int]) -> str:
    """The mean paired difference, its standard error and how many deals differ."""
    diffs = [m - b for m, b in zip(mine, base, strict=True)]
    se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    return (
        f"{statistics.fmean(diffs):+.3f} ± {se:.3f} "
        f"(standard error; {sum(d != 0 for d in diffs)} deals differ)"
    )


def run(deals: int, budget: float, seed: int, cores: int = 2) -> None:
    rng = random.Random(seed)
    robot = Robot(seed=seed, budget_s=budget, cores=cores)
    card_times: list[float] = []
    call_times: list[float] = []
    rows: dict[str, list[int]] = {k: [] for k in ("rd", "rdef", "bd", "bdef")}
    played = 0
    started = time.perf_counter()
    while played < deals:
        deal = Deal.shuffled(Seat(rng.randrange(4)), rng.randrange)
        state = bid(deal, robot, call_times)
        if state.phase is not Phase.PLAY or state.contract is None or state.declarer is None:
            continue
        played += 1
        dd = analyse(deal, False, False).makes(state.contract.strain, state.declarer)
        robot_cards = robot_chooser(robot, card_times)
        rows["rd"].append(dd - play_out(state, robot_cards, dd_card))
        rows["rdef"].append(play_out(state, dd_card, robot_cards) - dd)
        rows["bd"].append(dd - play_out(state, baseline_card, dd_card))
        rows["bdef"].append(play_out(state, dd_card, baseline_card) - dd)
        if played % 10 == 0:
            print(f"  {played} deals, {time.perf_counter() - started:.0f} s", flush=True)

    def avg(key: str) -> str:
        return f"{statistics.fmean(rows[key]):.2f}"

    print(f"\n{played} deals (robot budget {budget} s a card on {cores} cores, seed {seed})")
    print(f"{'':44}{'robot':>8}{'baseline':>10}")
    print(f"{'declarer: tricks below double-dummy':44}{avg('rd'):>8}{avg('bd'):>10}")
    print(f"{'defence: tricks given away to DD declarer':44}{avg('rdef'):>8}{avg('bdef'):>10}")
    print(
        f"seconds per card: median {statistics.median(card_times):.3f}, "
        f"p90 {statistics.quantiles(card_times, n=10)[-1]:.3f}, worst {max(card_times):.3f} "
        f"({len(card_times)} cards)"
    )
    print(
        f"seconds per call: median {statistics.median(call_times):.4f}, "
        f"worst {max(call_times):.4f} ({len(call_times)} calls)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cores",
        type=int,
        default=2,
        help="cores the robot thinks on (the bot gives robots all but one; pin with taskset)",
    )
    parser.add_argument(
        "--versions",
        nargs="+",
        choices=sorted(VERSIONS),
        help="compare these robot versions on the same deals, paired (the first is the base)",
    )
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument(
        "--after",
        type=int,
        default=0,
        help="with --versions: play the deals after this many (to carry on a run cut short)",
    )
    args = parser.parse_args()
    if args.versions:
        paired(
            args.deals, args.budget, args.seed, args.cores, args.versions, args.parts, args.after
        )
    else:
        run(args.deals, args.budget, args.seed, args.cores)


if __name__ == "__main__":
    main()
