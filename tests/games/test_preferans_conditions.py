"""A group's conditions (PREFERANS.md §8): the shared vectors, the spec's worked examples, each
switch against hand-computed cases, and random pulkas under random conditions."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.data import dumps, loads
from games.core.registry import find_game
from games.errors import IllegalCall, PulkaError
from games.preferans.bids import Bid
from games.preferans.conditions import SWITCHES, Conditions, preset, switches_of
from games.preferans.deal import Call, DealState, Declare, Discard, Phase, Play, Show, Whist
from games.preferans.entry import Entry
from games.preferans.errors import PrefReason
from games.preferans.game import PulkaMatch
from games.preferans.pulka import Pulka
from tests.games.test_preferans_deal import calls, fixed_deal
from tests.games.test_preferans_pulka import exact, play
from tests.sizes import examples

SHARED = Path(__file__).resolve().parents[3] / "shared" / "preferans-conditions-examples.jsonl"
EXAMPLES = (
    SHARED
    if SHARED.exists()
    else Path(__file__).parent / "data" / "preferans-conditions-examples.jsonl"
)
VECTORS = [json.loads(line) for line in EXAMPLES.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_every_published_vector_under_its_conditions(vector: dict[str, Any]) -> None:
    p = Pulka(vector["players"], vector["target"], vector["variant"], vector["conditions"])
    for number, deal in enumerate(vector["deals"]):
        play(p, deal)
        expected = {k: exact(v) for k, v in deal["state"].items()}
        assert p.state() == expected, f"after deal {number + 1}"
    assert p.balances() == exact(vector["balances"])
    assert p.whole() == vector["whole"]


# --- §8's worked examples, and each switch by hand -----------------------------------------


def test_stalingrad_six_spades_whisted_by_both_the_short_one_pays() -> None:
    p = Pulka(3, 10, "stalingrad")
    p.game(0, "6S", {1: "whist", 2: "whist"}, {0: 7, 1: 2, 2: 1})
    assert p.pool == [2, 0, 0] and p.gora == [0, 0, 2]
    assert p.whists == [[0, 0, 0], [4, 0, 0], [2, 0, 0]]


def test_stalingrad_refuses_a_pass_on_six_spades_but_not_on_six_clubs() -> None:
    for whist in ({1: "pass", 2: "pass"}, {1: "whist", 2: "pass"}, {1: "pass", 2: "half"}):
        p = Pulka(3, 10, "stalingrad")
        with pytest.raises(PulkaError) as refused:
            p.game(0, "6S", whist, {0: 6, 1: 2, 2: 2} if "whist" in whist.values() else None)
        assert refused.value.reason is PrefReason.BAD_WHIST and p.deals == 0
    p = Pulka(3, 10, "stalingrad")
    p.game(0, "6C", {1: "pass", 2: "pass"}, None)
    assert p.pool == [2, 0, 0]
    with pytest.raises(PulkaError):  # no half-whist in Stalingrad
        p.game(0, "6C", {1: "pass", 2: "half"}, None)


def test_progression_one_two_four_the_third_raspasy_is_times_four() -> None:
    p = Pulka(3, 10, "sochi", {"progression": "1-2-4"})
    for _ in range(2):
        p.raspasy({0: 3, 1: 3, 2: 4})
    before = p.gora
    p.raspasy({0: 5, 1: 4, 2: 1})
    assert [a - b for a, b in zip(p.gora, before, strict=True)] == [20, 16, 4]


@pytest.mark.parametrize(
    ("progression", "multipliers"),
    [("1-2-3", [1, 2, 3, 3, 3]), ("1-2-4", [1, 2, 4, 4, 4]), ("flat", [1, 1, 1, 1, 1])],
)
def test_each_progression_and_its_reset(progression: str, multipliers: list[int]) -> None:
    p = Pulka(3, 50, "leningrad", {"progression": progression})
    for m in multipliers:
        before = p.gora[0]
        p.raspasy({0: 1, 1: 4, 2: 5})
        assert p.gora[0] - before == m
    p.game(0, "6S", {1: "pass", 2: "pass"}, None)  # not played: the run ends
    p.raspasy({0: 0, 1: 4, 2: 6})  # the first again: a zero writes 1 to the pool
    assert p.pool[0] == 2 + 1 and p.gora[1] == 4 * sum(multipliers) + 4 * 1


def test_a_raspasy_zero_writes_the_progressions_number_to_the_pool() -> None:
    p = Pulka(3, 50, "sochi", {"progression": "1-2-4"})
    for _ in range(3):
        p.raspasy({0: 0, 1: 4, 2: 6})
    assert p.pool[0] == 1 + 2 + 4


def test_rostov_has_no_progression_but_has_an_exit() -> None:
    with pytest.raises(PulkaError) as refused:
        Pulka(3, 10, "rostov", {"progression": "1-2-4"})
    assert refused.value.reason is PrefReason.BAD_CONDITIONS
    p = Pulka(3, 10, "rostov", {"exit": "7-8-8"})
    p.raspasy({0: 2, 1: 4, 2: 4})
    assert p.raspasy_run == 1 and p.conditions.lowest(p.raspasy_run) == 7
    assert "progression" not in switches_of("rostov") and "exit" in switches_of("rostov")


def test_unknown_switches_and_values_are_refused() -> None:
    for switches in ({"exit": "6-9-9"}, {"bombs": "on"}, {"one_whister": "kind"}):
        with pytest.raises(PulkaError) as refused:
            Pulka(3, 10, "sochi", switches)
        assert refused.value.reason is PrefReason.BAD_CONDITIONS


@pytest.mark.parametrize(
    ("variant", "switches", "whister", "passer"),
    [
        # Sochi is greedy: the whister writes all five tricks × 2 plus its consolation 2.
        ("sochi", {}, 12, 2),
        # gentleman's whist on Sochi: (10 + 2 + 2) / 2 each, as Rostov's line of §9.
        ("sochi", {"one_whister": "gentleman"}, 7, 7),
        # greedy on Leningrad: w = 2p = 4 a trick, consolation 2p = 4: 5 × 4 + 4 and 4.
        ("leningrad", {"one_whister": "greedy"}, 24, 4),
        ("leningrad", {}, 14, 14),
        ("rostov", {"one_whister": "greedy"}, 12, 2),
    ],
)
def test_one_whister_greedy_or_gentleman(
    variant: str, switches: dict[str, str], whister: int, passer: int
) -> None:
    p = Pulka(3, 10, variant, switches)
    p.game(0, "6S", {1: "whist", 2: "pass"}, {0: 5, 1: 3, 2: 2})
    assert (p.whists[1][0], p.whists[2][0]) == (whister, passer)


def test_half_whist_off_refuses_the_half_on_the_sheet_and_at_the_table() -> None:
    p = Pulka(3, 10, "sochi", {"half_whist": "off"})
    with pytest.raises(PulkaError) as refused:
        p.game(0, "6H", {1: "pass", 2: "half"}, None)
    assert refused.value.reason is PrefReason.BAD_WHIST
    on = whisting(Conditions.of("sochi"))
    off = whisting(Conditions.of("sochi", {"half_whist": "off"}))
    on, off = on.apply(Whist(1, "pass")), off.apply(Whist(1, "pass"))
    assert Whist(2, "half") in on.legal_actions(2)
    assert off.legal_actions(2) == (Whist(2, "whist"), Whist(2, "pass"))


def whisting(rules: Conditions, contract: str = "6S", variant: str = "sochi") -> DealState:
    """Seat 0 declares ``contract`` on the fixed deal; the defenders (1, 2) are to speak."""
    state = calls(DealState.new(fixed_deal(), variant, rules), "6S", "P", "P")
    state = state.apply(Discard(0, tuple(sorted(state.hands[0])[:2])))  # type: ignore[arg-type]
    return state.apply(Declare(0, Bid.parse(contract)))


@pytest.mark.parametrize("play_", ["open", "closed"])
def test_a_lone_whister_is_not_asked_when_the_group_fixed_how_it_plays(play_: str) -> None:
    state = whisting(Conditions.of("sochi", {"whist_play": play_}))
    state = state.apply(Whist(1, "whist")).apply(Whist(2, "pass"))
    assert state.phase is Phase.PLAY and state.shown is (play_ == "open")
    assert not any(isinstance(a, Show) for a in state.legal_actions(1))
    shown = state.view(0).hands
    assert (2 in shown) is (play_ == "open")  # the passer's cards on the table only if open
    choice = whisting(Conditions.of("sochi")).apply(Whist(1, "whist")).apply(Whist(2, "pass"))
    assert choice.phase is Phase.SHOW


@pytest.mark.parametrize(
    ("compulsory", "contract", "asked"),
    [
        ("6S", "6S", False),
        ("6S", "6C", True),
        ("6S", "10S", True),
        ("10", "10S", False),
        ("10", "10NT", False),
        ("10", "6S", True),
        ("6S+10", "10H", False),
        ("6S+10", "6S", False),
        ("none", "6S", True),
    ],
)
def test_compulsory_whist_nobody_is_asked(compulsory: str, contract: str, asked: bool) -> None:
    state = whisting(Conditions.of("sochi", {"compulsory": compulsory}), contract)
    assert (state.phase is Phase.WHIST) is asked
    if not asked:
        assert state.phase is Phase.PLAY and state.shown is False
        legal = state.legal_actions(state.turn or 0)
        assert any(isinstance(a, Play) for a in legal) and not any(
            isinstance(a, Whist) for a in legal
        )


def test_a_compulsory_ten_the_second_defender_is_liable() -> None:
    p = Pulka(3, 10, "leningrad", {"compulsory": "10"})
    p.game(1, "10H", {2: "whist", 0: "whist"}, {1: 10, 2: 0, 0: 0})
    assert p.pool == [0, 10, 0] and p.gora == [10, 0, 0]  # seat 0 is right of declarer 1


def test_the_exit_after_raspasy_sets_the_lowest_bid() -> None:
    rules = Conditions.of("sochi", {"exit": "6-7-8"})
    after_two = DealState.new(fixed_deal(), "sochi", rules, rules.lowest(2))
    legal = [a.bid for a in after_two.legal_actions(0) if isinstance(a, Call)]
    assert None in legal and Bid.misere() in legal and Bid.parse("7S") in legal
    assert not any(b is not None and b.level == 6 for b in legal)
    with pytest.raises(IllegalCall) as refused:
        after_two.apply(Call(0, Bid.parse("6NT")))
    assert refused.value.reason is PrefReason.BELOW_EXIT
    after_three = DealState.new(fixed_deal(), "sochi", rules, rules.lowest(3))
    assert min(a.bid for a in after_three.legal_actions(0) if isinstance(a, Call) and a.bid
               and not a.bid.is_misere) == Bid.parse("8S")  # fmt: skip
    assert calls(after_three, "P", "P", "P").kind is not None  # all pass: raspasy again


@pytest.mark.parametrize("players", [3, 4])
def test_the_exit_runs_on_through_the_table_as_the_dealer_rotates(players: int) -> None:
    """What the table does: the match counts raspasy in a row, each new deal takes its floor."""
    game = find_game("preferans")
    options = {"variant": "sochi", "exit": "6-7-8", "players": players}
    match = game.new_match(players, options)
    assert isinstance(match, PulkaMatch)
    rng = random.Random(players)
    floors = []
    dealer = 0
    for op in ("raspasy", "raspasy", "raspasy", "game", "raspasy"):
        payload = game.new_deal(
            players, dealer, rng.randrange, {**options, **game.deal_rules(match)}
        )
        state = game.start(players, payload)
        assert isinstance(state, DealState)
        floors.append(state.floor)
        active = state.active
        if op == "raspasy":
            tricks = {str(s): n for s, n in zip(active, (3, 3, 4), strict=True)}
            outcome: dict[str, Any] = {"kind": "raspasy", "tricks": tricks}
        else:
            whist = {str(active[1]): "pass", str(active[2]): "pass"}
            outcome = {"kind": "game", "declarer": active[0], "contract": "8S", "whist": whist}
        match.record({**outcome, "dealer": dealer})
        dealer = game.next_dealer(dealer, players, match)
    assert floors == [6, 6, 7, 8, 6]


# --- random pulkas under random conditions -------------------------------------------------


@st.composite
def conditions(draw: st.DrawFn) -> tuple[str, dict[str, str]]:
    variant = draw(st.sampled_from(["sochi", "leningrad", "rostov", "stalingrad"]))
    keys = draw(st.sets(st.sampled_from(switches_of(variant))))
    return variant, {k: draw(st.sampled_from(SWITCHES[k])) for k in sorted(keys)}


@settings(max_examples=examples(300), deadline=None)
@given(conditions(), st.integers(0, 10**9))
def test_random_pulkas_under_random_conditions_balance(
    chosen: tuple[str, dict[str, str]], seed: int
) -> None:
    """Legal results only (what the sheet refuses is what the conditions forbid), the
    balances sum to zero, and a pulka rebuilt from the written conditions is the same."""
    variant, switches = chosen
    rng = random.Random(seed)
    p = Pulka(3, 10, variant, switches)
    rules = p.conditions
    assert Conditions.of(variant, rules.text()) == rules == loads(dumps(rules))
    assert set(rules.text()) == set(preset(variant))
    written: list[Entry] = []
    while not p.finished and len(written) < 40:
        entry = random_entry(rng, rules, p.conditions.lowest(p.raspasy_run))
        if entry.whist == ("pass", "half") and not rules.half_whist:
            with pytest.raises(PulkaError) as refused:  # the only result these forbid
                entry.write(p)
            assert refused.value.reason is PrefReason.BAD_WHIST
            continue
        entry.write(p)
        written.append(entry)
    assert sum(p.balances()) == Fraction(0) and sum(p.whole()) == 0
    again = Pulka(3, 10, variant, rules.text())
    for entry in written:
        entry.write(again)
    assert again.state() == p.state()


def random_entry(rng: random.Random, rules: Conditions, floor: int) -> Entry:
    kind = rng.choice(["game", "game", "misere", "raspasy"])
    tricks = split(rng)
    if kind == "raspasy":
        return Entry("raspasy", tricks=tricks)
    declarer = rng.randrange(3)
    if kind == "misere":
        return Entry("misere", declarer, Bid.misere(), None, (rng.randrange(4),))
    level = rng.randint(floor, 10)
    contract = Bid.parse(f"{level}{rng.choice(['S', 'C', 'D', 'H', 'NT'])}")
    words = rng.choice([("whist", "whist"), ("whist", "pass"), ("pass", "whist"),
                        ("pass", "pass"), ("pass", "half")])  # fmt: skip
    if level > 7 and words == ("pass", "half"):
        words = ("pass", "pass")
    if rules.compulsory_on(contract):
        words = ("whist", "whist")
    played = "whist" in words
    return Entry("game", declarer, contract, words, tricks if played else None)


def split(rng: random.Random) -> tuple[int, int, int]:
    a = rng.randint(0, 10)
    b = rng.randint(0, 10 - a)
    return a, b, 10 - a - b
