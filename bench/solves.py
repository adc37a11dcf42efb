"""What a finished bridge deal costs the solver's processes: the result post's analysis and the
deal's review for ``/stats``, each solving the deal's table of tricks (as before issue #48's one
solve a deal), against the review handed the result's analysis (``Game.review``'s ``solved``).

    python -m bench.solves [--deals 100] [--seed 1]

Deals are bid by four robots and played out double-dummy, as ``bench.robots`` does; then, on
the same deals, alternating which way goes first, the CPU seconds (every thread: DDS solves on
several) of the analysis plus the review solving afresh, and of the analysis plus the review
reusing it. Prints milliseconds a deal, each way, and the review's alone. Asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.robots import bid, dd_card
from games.bridge.analysis import analyse
from games.bridge.cards import Deal, Seat
from games.bridge.deal import DealState, Phase, PlayCard
from games.bridge.review import review
from games.bridge.robot import Robot


def played(deals: int, seed: int) -> list[tuple[DealState, bool, bool]]:
    """Finished deals (bid by robots, played double-dummy) and a vulnerability each."""
    rng = random.Random(seed)
    bidder = Robot(seed=seed)
    found = []
    while len(found) < deals:
        state = bid(Deal.shuffled(Seat(rng.randrange(4)), rng.randrange), bidder, [])
        while state.phase is Phase.PLAY:
            actor = state.actor
            assert actor is not None
            state = state.apply(PlayCard(actor, dd_card(state, actor)))
        found.append((state, rng.random() < 0.5, rng.random() < 0.5))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    deals = played(args.deals, args.seed)
    apart: list[float] = []
    shared: list[float] = []
    review_apart: list[float] = []
    review_shared: list[float] = []
    for n, (state, ns, ew) in enumerate(deals):
        for way in ("apart", "shared") if n % 2 == 0 else ("shared", "apart"):
            started = time.process_time()
            analysis = analyse(state.deal, ns, ew)  # the result post's
            reviewing = time.process_time()
            review(state, ns, ew, analysis if way == "shared" else None)
            ended = time.process_time()
            (apart if way == "apart" else shared).append(ended - started)
            (review_apart if way == "apart" else review_shared).append(ended - reviewing)
    print(f"{len(deals)} finished deals (seed {args.seed}), CPU ms a deal, mean (median):")
    for label, whole, alone in (
        ("analysis and review solved apart", apart, review_apart),
        ("the review reusing the analysis", shared, review_shared),
    ):
        print(
            f"  {label:34} {1000 * statistics.fmean(whole):6.1f} "
            f"({1000 * statistics.median(whole):.1f}); the review alone "
            f"{1000 * statistics.fmean(alone):.1f} ({1000 * statistics.median(alone):.1f})"
        )


if __name__ == "__main__":
    main()
