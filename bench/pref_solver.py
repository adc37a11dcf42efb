"""How fast the Preferans double-dummy solver is, over random whole deals (ten cards each).

    python -m bench.pref_solver [--deals 100] [--seed 1]

Three kinds, as the rules have them: a game (declarer's most tricks; a trump suit or no trump,
drawn), a misère (no trump, the fewest) and a raspasy player's paranoid value (no trump, the
fewest against both others). Each deal is solved once from its opening lead, by a random
leader, after a first search that loads the compiled search (timed on its own). Prints the
median, 90th percentile and worst milliseconds per kind and overall. Run it
alone on a quiet machine (one core is what a robot's worker has). Asserts nothing; the targets
(issue #28): median 20 ms, worst 200 ms."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from games.preferans.cards import PACK, Suit
from games.preferans.solver import Position, solve


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    solve(Position((frozenset(PACK[:1]), frozenset(PACK[1:2]), frozenset(PACK[2:3])), 0), 0)
    print(
        f"first search of the process (numba and the compiled search loaded, or compiled if "
        f"not cached yet): {(time.perf_counter() - started) * 1e3:.0f} ms"
    )
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {"game": [], "misère": [], "raspasy": []}
    for number in range(args.deals):
        cards = list(PACK)
        rng.shuffle(cards)
        hands = (frozenset(cards[:10]), frozenset(cards[10:20]), frozenset(cards[20:30]))
        kind = ("game", "misère", "raspasy")[number % 3]
        trump = rng.choice([None, *Suit]) if kind == "game" else None
        position = Position(hands, rng.randrange(3), (), trump)
        side = 0 if kind != "raspasy" else rng.randrange(3)
        started = time.perf_counter()
        solve(position, side, maximize=kind == "game")
        times[kind].append(time.perf_counter() - started)
    everything = [t for kind in times.values() for t in kind]
    for name, found in (*times.items(), ("all", everything)):
        if not found:
            continue
        ordered = sorted(found)
        print(
            f"{name:8} {len(found):4} deals: median {statistics.median(found) * 1e3:6.1f} ms, "
            f"p90 {ordered[int(0.9 * (len(ordered) - 1))] * 1e3:6.1f} ms, "
            f"worst {max(found) * 1e3:7.1f} ms"
        )


if __name__ == "__main__":
    main()
