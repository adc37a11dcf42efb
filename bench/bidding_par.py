"""How close to double-dummy par the robots bid, on random deals all four bid.

    python -m bench.bidding_par [--deals 400] [--seed 1]

Each deal (the same ones for the same seed, whatever the code) is bid by four robots, its
contract scored at the tricks it makes double-dummy (as a duplicate score, game and part-score
bonuses included, nobody vulnerable), and compared with the deal's par: the IMPs between them,
from North-South's side, taken as a loss whichever way they go (bidding too high or too low
both miss par). Prints the mean IMPs a deal, how often the contract is par's score exactly,
and the time a call takes. Run it at the commit before a bidding change and after it: the
deals are the same, so the two means compare deal by deal. Asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics

from bench.robots import bid
from games.bridge.analysis import analyse
from games.bridge.cards import Deal, Seat
from games.bridge.review import imps
from games.bridge.robot import Robot
from games.bridge.scoring import score_contract


def duplicate(contract: str, tricks: int) -> int:
    """Declarer's duplicate score, not vulnerable: trick points, overtricks and penalties as
    the rubber scores them, plus 300 for a game and 50 for a part score."""
    made = score_contract(contract, tricks, False)
    if made.penalty:
        return -made.penalty
    bonus = 300 if made.below >= 100 else 50
    return made.below + made.above + bonus


def run(deals: int, seed: int) -> None:
    rng = random.Random(seed)
    robot = Robot(seed=seed, budget_s=0.05, cores=1)
    losses: list[int] = []
    exact = passed = 0
    call_times: list[float] = []
    for _ in range(deals):
        deal = Deal.shuffled(Seat(rng.randrange(4)), rng.randrange)
        state = bid(deal, robot, call_times)
        found = analyse(deal, False, False)
        if state.contract is None or state.declarer is None:
            ns = 0
            passed += 1
        else:
            tricks = found.makes(state.contract.strain, state.declarer)
            points = duplicate(str(state.contract), tricks)
            ns = points if state.declarer.side.value == "NS" else -points
        loss = abs(imps(ns - found.par_score))
        losses.append(loss)
        exact += loss == 0
    print(f"{deals} deals bid by four robots (seed {seed}), nobody vulnerable")
    print(f"  IMPs from par a deal: {statistics.fmean(losses):.2f}")
    print(f"  at par (0 IMPs): {100 * exact / deals:.1f} %, passed out: {passed}")
    print(f"  seconds a call: median {statistics.median(call_times):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.deals, args.seed)


if __name__ == "__main__":
    main()
