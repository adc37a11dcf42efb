"""How well and how fast the bridge robot plays, over random deals.

    python -m bench.robots [--deals 100] [--budget 1.0] [--seed 1] [--cores 2]

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

from endplay.dds import solve_board

from games.bridge.analysis import SOLVER_LOCK, analyse
from games.bridge.cards import Card, Deal, Seat
from games.bridge.deal import DealState, MakeCall, Phase, PlayCard, SeatView
from games.bridge.robot import Robot, _card, solver_position

Chooser = Callable[[DealState, Seat], Card]


def dd_card(state: DealState, actor: Seat) -> Card:
    """The double-dummy card: every hand in view, a card that keeps the most tricks."""
    play = state.play
    assert play is not None
    trick = play.current
    at_start = {seat: set(play.hand(seat)) for seat in Seat}
    for i, card in enumerate(trick.cards):
        at_start[trick.leader.after(i)].add(card)
    deal = solver_position(at_start, trick.leader, play.trump, trick.cards)
    with SOLVER_LOCK:
        solved = {_card(c): int(t) for c, t in solve_board(deal)}
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
    args = parser.parse_args()
    run(args.deals, args.budget, args.seed, args.cores)


if __name__ == "__main__":
    main()
