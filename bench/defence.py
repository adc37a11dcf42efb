"""Where robot defence loses, and what a change does there, at a fraction of a play-out's cost.

    python -m bench.defence record FILE [--deals 400] [--version today]
    python -m bench.defence compare FILE --versions fastchecks agreed [--at switches]
    python -m bench.defence calibration FILE [--at opening]

``record`` plays deals (bench.robots' deals: seed 1, bid by four robots) with a double-dummy
declarer against two robot defenders of one version, and keeps every defender's position: its
view, the double-dummy tricks of each legal card, the card played. It prints the tricks given
away by trick and by the card's place in the trick: nearly all of them are given away by leads.

``compare`` asks other versions for their card at the recorded positions (``--at``: the opening
lead, later leads, or both) and prints the tricks each gives away there against the recorded
card, paired by deal, with the standard error. It measures a change where it acts, not what it
does to the rest of the play (a signal's worth is in partner's later cards: bench.robots' paired
play-outs measure that).

``calibration`` compares the tricks the robot expects to lose by its own layouts (the weighted
average of each layout's best card's tricks, less its chosen card's) with the tricks it loses:
if they agree, the robot decides as well as its knowledge allows, and only more knowledge
(partner's signals, a sharper reading of the auction or of the play) makes it better.
"""

from __future__ import annotations

import argparse
import collections
import pickle
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass

from bench.robots import VERSIONS, Chooser, bid, dd_card, dd_tricks, play_out
from games.bridge.calls import Strain
from games.bridge.cards import Card, Deal, Seat
from games.bridge.deal import DealState, Phase, PlayCard, SeatView
from games.bridge.robot import Robot


@dataclass(frozen=True)
class Decision:
    trick: int  # 0: the opening lead's trick
    place: int  # 0: a lead
    view: SeatView
    tricks: dict[Card, int]  # each legal card's double-dummy tricks for the defence
    card: Card  # the recorded version's

    @property
    def given(self) -> int:
        return max(self.tricks.values()) - self.tricks[self.card]


@dataclass(frozen=True)
class Recorded:
    number: int
    strain: Strain
    decisions: list[Decision]


def _recording(
    robot: Robot, decisions: list[Decision], given: dict[tuple[int, int], int]
) -> Chooser:
    """The robot as a defender that keeps each of its decisions, and what it gave away where."""

    def defend(state: DealState, actor: Seat) -> Card:
        play = state.play
        assert play is not None
        legal = state.legal_cards(actor)
        tricks = {c: t for c, t in dd_tricks(state).items() if c in legal}
        view = state.view(actor)
        action = robot.act(view)
        assert isinstance(action, PlayCard)
        trick, place = len(play.tricks) - 1, len(play.current.cards)
        decision = Decision(trick, place, view, tricks, action.card)
        given[(min(trick, 3), place)] += decision.given
        decisions.append(decision)
        return action.card

    return defend


def record(path: str, deals: int, version: str) -> None:
    rng = random.Random(1)
    robot = Robot(seed=1, **VERSIONS[version])
    bidder = Robot(seed=1)
    played = 0
    started = time.perf_counter()
    given: dict[tuple[int, int], int] = collections.Counter()
    with open(path, "wb") as out:
        while played < deals:
            deal = Deal.shuffled(Seat(rng.randrange(4)), rng.randrange)
            state = bid(deal, bidder, [])
            contract = state.contract
            if state.phase is not Phase.PLAY or contract is None:
                continue
            played += 1
            decisions: list[Decision] = []
            play_out(state, dd_card, _recording(robot, decisions, given))
            pickle.dump(Recorded(played, contract.strain, decisions), out)
            if played % 25 == 0:
                print(f"  {played} deals, {time.perf_counter() - started:.0f} s", flush=True)
    print(f"{played} deals of {version}'s defence; tricks given away a deal, by trick and place:")
    for (trick, place), lost in sorted(given.items()):
        where = ("lead", "second hand", "third hand", "fourth hand")[place]
        when = f"trick {trick + 1}" if trick < 3 else "tricks 4-13"
        print(f"  {when:12} {where:18} {lost / played:.3f}")


def load(path: str) -> Iterator[Recorded]:
    with open(path, "rb") as f:
        while True:
            try:
                yield pickle.load(f)
            except EOFError:
                return


def _chosen(decision: Decision, at: str) -> bool:
    if decision.place != 0:
        return at == "all"
    return at in ("leads", "all") or (at == "opening") == (decision.trick == 0)


def compare(path: str, names: list[str], at: str, limit: int) -> None:
    robots = {name: Robot(seed=1, **VERSIONS[name]) for name in names}
    lost: dict[str, list[int]] = {name: [] for name in names}
    base: list[int] = []
    differ = collections.Counter[str]()
    times: dict[str, list[float]] = {name: [] for name in names}
    for n, deal in enumerate(load(path)):
        if n >= limit:
            break
        chosen = [d for d in deal.decisions if _chosen(d, at)]
        base.append(sum(d.given for d in chosen))
        for name, robot in robots.items():
            total = 0
            for d in chosen:
                started = time.perf_counter()
                action = robot.act(d.view)
                times[name].append(time.perf_counter() - started)
                assert isinstance(action, PlayCard)
                total += max(d.tricks.values()) - d.tricks[action.card]
                differ[name] += action.card != d.card
            lost[name].append(total)
    print(f"{len(base)} deals, {at}: recorded {statistics.fmean(base):.3f} tricks given away")
    for name in names:
        diffs = [m - b for m, b in zip(lost[name], base, strict=True)]
        se = statistics.stdev(diffs) / len(diffs) ** 0.5
        print(
            f"  {name:11} {statistics.fmean(lost[name]):.3f}   minus recorded "
            f"{statistics.fmean(diffs):+.3f} ± {se:.3f} ({differ[name]} cards differ; "
            f"median {statistics.median(times[name]):.2f} s a card)"
        )


def calibration(path: str, at: str, limit: int, version: str) -> None:
    robot = Robot(seed=1, **VERSIONS[version])
    expected = measured = 0.0
    deals = 0
    for deal in load(path):
        if deals >= limit:
            break
        deals += 1
        for d in deal.decisions:
            if not _chosen(d, at) or len(d.tricks) < 2:
                continue
            legal = d.tricks
            weights, solved = robot.layouts(d.view)
            card = robot.choose(d.view, weights, solved)
            mass = sum(weights)
            mean = sum(w * s[card] for w, s in zip(weights, solved, strict=True)) / mass
            top = (
                sum(w * max(s[c] for c in legal) for w, s in zip(weights, solved, strict=True))
                / mass
            )
            expected += top - mean
            measured += max(d.tricks.values()) - d.tricks[card]
    print(
        f"{deals} deals, {at}: the robot expects to give away {expected / deals:.3f} tricks a "
        f"deal by its own layouts and gives away {measured / deals:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("file")
    rec.add_argument("--deals", type=int, default=400)
    rec.add_argument("--version", choices=sorted(VERSIONS), default="today")
    places = ("opening", "switches", "leads", "all")
    cmp = sub.add_parser("compare")
    cmp.add_argument("file")
    cmp.add_argument("--versions", nargs="+", choices=sorted(VERSIONS), required=True)
    cmp.add_argument("--at", choices=places, default="switches")
    cmp.add_argument("--deals", type=int, default=10**9)
    cal = sub.add_parser("calibration")
    cal.add_argument("file")
    cal.add_argument("--at", choices=places, default="opening")
    cal.add_argument("--deals", type=int, default=10**9)
    cal.add_argument("--version", choices=sorted(VERSIONS), default="today")
    args = parser.parse_args()
    if args.command == "record":
        record(args.file, args.deals, args.version)
    elif args.command == "compare":
        compare(args.file, args.versions, args.at, args.deals)
    else:
        calibration(args.file, args.at, args.deals, args.version)


if __name__ == "__main__":
    main()
