"""How well and how fast the Preferans robot plays, over random deals (issue #28).

    python -m bench.pref_robots [--deals 300] [--budget 0.5] [--seed 1] [--cores 2]
                                [--parts declarer,defence,misere]

Each deal (three players, seeded) is used four ways, through the rules' own ``DealState`` so
that every robot acts from its seat's view alone:

- **declarer**: the first hand wins the auction at 6♠, takes the talon, and the robot discards
  and names the game; both others whist and defend double-dummy; the robot's tricks are
  compared with the double-dummy value of its contract after its discard;
- **defence**: the same game (the robot's discard and contract) played by a double-dummy
  declarer, the two robots defend (closed whisting); the declarer's tricks over the game's
  double-dummy value are the tricks the defence gave away;
- **bid**: how often the contract the robot names is the double-dummy best contract for its
  hand after its discard (the highest that makes);
- **misère**: the seat whose hand is the most misère-like bids it (its two highest cards laid
  away), two robots catch it against a double-dummy declarer; counted among the misères the
  solver says can be caught (declarer forced to a trick).

The baseline player stands in for the robot on the same deals: as declarer, the highest card
if it beats the trick so far, else the lowest (leading: the highest); as a defender, the
lowest card that beats the trick, else the lowest. Prints the averages and the seconds per robot
decision (median, p90, worst; each decision on one core). Asserts nothing. The targets:
declarer within 0.3 tricks of double-dummy, defence within 0.4, 95 % of catchable misères
caught, a decision in 0.5 s median and 3 s at worst."""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from games.preferans.analysis import GameAnalysis, MisereAnalysis, analyse
from games.preferans.bids import Bid
from games.preferans.cards import Card, Deal
from games.preferans.deal import (
    Action,
    Call,
    DealState,
    Discard,
    Kind,
    Phase,
    Play,
    Show,
    Whist,
)
from games.preferans.robot import Robot
from games.preferans.solver import Position, card_values

Chooser = Callable[[DealState, int], Action]


@dataclass
class Tally:
    declarer_short: list[int] = field(default_factory=list)  # DD - robot declarer's tricks
    baseline_declarer_short: list[int] = field(default_factory=list)
    given: list[int] = field(default_factory=list)  # declarer's tricks - DD, robots defending
    baseline_given: list[int] = field(default_factory=list)
    bid_best: list[bool] = field(default_factory=list)
    catchable: int = 0
    caught: int = 0
    baseline_caught: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.declarer_short += other.declarer_short
        self.baseline_declarer_short += other.baseline_declarer_short
        self.given += other.given
        self.baseline_given += other.baseline_given
        self.bid_best += other.bid_best
        self.catchable += other.catchable
        self.caught += other.caught
        self.baseline_caught += other.baseline_caught
        self.seconds += other.seconds


def _position(state: DealState) -> tuple[Position, tuple[int, int, int]]:
    """The play as the solver sees it, every card in view: seats from the trick's leader."""
    trick = state.current_trick()
    order = tuple(state.order_from(trick.leader))
    hands = tuple(frozenset(state.hands[s]) for s in order)
    position = Position((hands[0], hands[1], hands[2]), 0, trick.cards, state.trump)
    return position, (order[0], order[1], order[2])


def dd_card(state: DealState, seat: int) -> Play:
    """The double-dummy card of whoever is on turn (``seat`` presses it)."""
    assert state.declarer is not None
    position, order = _position(state)
    turn = state.turn
    assert turn is not None
    maximize = state.kind is Kind.GAME
    values = card_values(position, order.index(state.declarer), maximize)
    wants_high = (turn == state.declarer) == maximize
    card = (max if wants_high else min)(sorted(values), key=lambda c: values[c])
    return Play(seat, card)


def baseline_card(state: DealState, seat: int) -> Play:
    turn = state.turn
    assert turn is not None
    legal = sorted(state.legal_cards(turn), key=lambda c: (int(c.rank), int(c.suit)))
    trick = state.current_trick()
    if not trick.plays:
        return Play(seat, legal[-1] if turn == state.declarer else legal[0])
    trump = state.trump
    led = trick.plays[0][1].suit

    def beats(card: Card) -> bool:
        for _, other in trick.plays:
            if other.suit is card.suit and other.rank > card.rank:
                return False
            if card.suit is not led and card.suit is not trump:
                return False
            if trump is not None and other.suit is trump and card.suit is not trump:
                return False
        return True

    winning = [c for c in legal if beats(c)]
    if turn == state.declarer:
        return Play(seat, winning[-1] if winning else legal[0])
    return Play(seat, winning[0] if winning else legal[0])


def _timed(robot: Robot, state: DealState, seat: int, tally: Tally | None) -> Action:
    started = time.perf_counter()
    action = robot.act(state.view(seat))
    if tally is not None:
        tally.seconds.append(time.perf_counter() - started)
    return action


def _play_out(state: DealState, choose: dict[int, Chooser]) -> DealState:
    while state.result is None:
        actor, turn = state.actor, state.turn
        assert actor is not None and turn is not None
        if state.phase is Phase.SHOW:
            state = state.apply(Show(actor, False))
            continue
        state = state.apply(choose[turn](state, actor))
    return state


def _declared(deal: Deal, robot: Robot, tally: Tally | None) -> DealState:
    """The first hand wins the auction at 6♠, and the robot discards and names a game; both
    others whist."""
    state = DealState.new(deal)
    first = deal.first_hand
    state = state.apply(Call(first, Bid.parse("6S")))
    for _ in range(2):
        assert state.turn is not None
        state = state.apply(Call(state.turn, None))
    state = state.apply(_timed(robot, state, first, tally))
    state = state.apply(_timed(robot, state, first, tally))
    return _with_whists(state)


def _with_whists(state: DealState) -> DealState:
    while state.phase is Phase.WHIST:
        assert state.turn is not None
        state = state.apply(Whist(state.turn, "whist"))
    return state


PARTS = ("declarer", "defence", "misere")


def one_deal(seed: int, budget: float, parts: tuple[str, ...] = PARTS) -> Tally:
    tally = Tally()
    rng = random.Random(seed)
    deal = Deal.shuffled(3, rng.randrange(3), rng.randrange)
    robot = Robot(seed=seed, budget_s=budget)
    first = deal.first_hand
    others = [s for s in deal.active if s != first]

    def robot_card(state: DealState, seat: int) -> Action:
        return _timed(robot, state, seat, tally)

    # declarer: the robot's discard and game, then its play against double-dummy defenders
    declared = _declared(deal, robot, tally if "declarer" in parts else None)
    found = analyse(declared) if {"declarer", "defence"} & set(parts) else None
    if "declarer" in parts and declared.phase is Phase.PLAY and isinstance(found, GameAnalysis):
        tally.bid_best.append(found.best == declared.contract)
        for name, declare in (("robot", robot_card), ("baseline", baseline_card)):
            end = _play_out(declared, {first: declare, **dict.fromkeys(others, dd_card)})
            assert end.result is not None and end.result.tricks is not None
            short = found.makes - end.result.tricks[first]
            (tally.declarer_short if name == "robot" else tally.baseline_declarer_short).append(
                short
            )
    # defence: a double-dummy declarer in the same game, two robots (or baselines) defend
    if "defence" in parts and declared.phase is Phase.PLAY and isinstance(found, GameAnalysis):
        for name, defend in (("robot", robot_card), ("baseline", baseline_card)):
            end = _play_out(declared, {first: dd_card, **dict.fromkeys(others, defend)})
            assert end.result is not None and end.result.tricks is not None
            given = end.result.tricks[first] - found.makes
            (tally.given if name == "robot" else tally.baseline_given).append(given)
    # misère: the lowest hand bids it; robots catch it if it can be caught
    if "misere" not in parts:
        return tally
    seat = min(deal.active, key=lambda s: sum(int(c.rank) for c in deal.hands[s]))
    state = DealState.new(deal)
    while state.phase is Phase.AUCTION:
        assert state.turn is not None
        bid = Bid.misere() if state.turn == seat else None
        state = state.apply(Call(state.turn, bid))
    if state.declarer == seat and state.phase is Phase.DISCARD:
        twelve = sorted(state.hands[seat], key=lambda c: -int(c.rank))
        state = state.apply(Discard(seat, (twelve[0], twelve[1])))
        caught = analyse(state)
        if isinstance(caught, MisereAnalysis) and caught.caught > 0:
            tally.catchable += 1
            catchers = [s for s in deal.active if s != seat]
            for name, catch in (("robot", robot_card), ("baseline", baseline_card)):
                end = _play_out(state, {seat: dd_card, **dict.fromkeys(catchers, catch)})
                assert end.result is not None and end.result.tricks is not None
                if end.result.tricks[seat] > 0:
                    if name == "robot":
                        tally.caught += 1
                    else:
                        tally.baseline_caught += 1
    return tally


def _run(args: tuple[int, float, tuple[str, ...]]) -> Tally:
    return one_deal(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument(
        "--parts", default=",".join(PARTS), help="which of declarer,defence,misere (all)"
    )
    args = parser.parse_args()
    parts = tuple(p for p in args.parts.split(",") if p in PARTS)
    total = Tally()
    started = time.monotonic()
    jobs = [(args.seed * 100_000 + n, args.budget, parts) for n in range(args.deals)]
    with ProcessPoolExecutor(args.cores) as pool:
        for tally in pool.map(_run, jobs):
            total.add(tally)

    def mean(values: list[int]) -> str:
        return f"{statistics.fmean(values):.2f} ({len(values)} deals)" if values else "—"

    print(f"{args.deals} deals, budget {args.budget} s a decision, seed {args.seed}")
    print(
        f"declarer: robot {mean(total.declarer_short)} tricks below double-dummy; "
        f"baseline {mean(total.baseline_declarer_short)}"
    )
    print(f"defence: robot gives away {mean(total.given)}; baseline {mean(total.baseline_given)}")
    if total.bid_best:
        share = sum(total.bid_best) / len(total.bid_best)
        print(f"bid: the double-dummy best contract {share:.0%} of {len(total.bid_best)}")
    if total.catchable:
        print(
            f"misère: robots caught {total.caught} of {total.catchable} catchable "
            f"({total.caught / total.catchable:.0%}); baseline {total.baseline_caught}"
        )
    seconds = sorted(total.seconds)
    if seconds:
        print(
            f"seconds a decision: median {statistics.median(seconds):.3f}, "
            f"p90 {seconds[int(0.9 * (len(seconds) - 1))]:.3f}, worst {seconds[-1]:.3f} "
            f"({len(seconds)} decisions)"
        )
    print(f"took {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
