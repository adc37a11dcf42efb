"""The pulka and its settlement against the published vectors, refusals with reasons, and the
properties every sheet must have."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import PulkaError, Reason, RuleError
from games.preferans.errors import PrefReason
from games.preferans.pulka import Pulka
from games.preferans.settlement import settle, whole_whists
from tests.sizes import examples

# The team's shared vectors beside the checkout when they are there (they grow), else the copy
# kept with the tests so a bare clone runs the same checks.
SHARED = Path(__file__).resolve().parents[3] / "shared" / "preferans-examples.jsonl"
EXAMPLES = (
    SHARED if SHARED.exists() else Path(__file__).parent / "data" / "preferans-examples.jsonl"
)
VECTORS = [json.loads(line) for line in EXAMPLES.read_text().splitlines() if line.strip()]


def exact(value: Any) -> Any:
    if isinstance(value, list):
        return [exact(v) for v in value]
    return Fraction(value) if isinstance(value, str) else value


def play(p: Pulka, deal: dict[str, Any]) -> None:
    if deal["op"] == "game":
        p.game(deal["declarer"], deal["contract"], deal["whist"], deal["tricks"], deal["dealer"])
    elif deal["op"] == "misere":
        p.misere(deal["declarer"], deal["tricks"], deal["dealer"])
    else:
        p.raspasy(deal["tricks"], deal["dealer"])


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_every_published_vector(vector: dict[str, Any]) -> None:
    if vector["type"] == "settle":
        balances = settle(
            vector["pool"], vector["gora"], vector["whists"], vector["target"], vector["variant"]
        )
    else:
        p = Pulka(players=vector["players"], target=vector["target"], variant=vector["variant"])
        for number, deal in enumerate(vector["deals"]):
            play(p, deal)
            expected = {k: exact(v) for k, v in deal["state"].items()}
            assert p.state() == expected, f"after deal {number + 1}"
        balances = p.balances()
        assert p.whole() == vector["whole"]
    assert balances == exact(vector["balances"])
    assert whole_whists(balances) == vector["whole"]


def test_the_examples_are_all_there() -> None:
    assert len(VECTORS) >= 40 and {v["type"] for v in VECTORS} == {"pulka", "settle"}


@pytest.mark.parametrize(
    ("call", "reason"),
    [
        (lambda p: p.game(0, "7H", {1: "whist", 2: "pass"}, {0: 7, 1: 2, 2: 2}), Reason.BAD_TRICKS),
        (lambda p: p.game(0, "8H", {1: "pass", 2: "half"}, None), PrefReason.BAD_WHIST),
        (lambda p: p.game(0, "6H", {1: "half", 2: "pass"}, None), PrefReason.BAD_WHIST),
        (lambda p: p.game(0, "6H", {1: "whist", 2: "half"}, None), PrefReason.BAD_WHIST),
        (lambda p: p.game(0, "6H", {1: "whist"}, {0: 6, 1: 2, 2: 2}), PrefReason.BAD_WHIST),
        (lambda p: p.game(0, "6H", {1: "whist", 2: "pass"}, None), Reason.BAD_TRICKS),
        (lambda p: p.game(0, "11H", {1: "pass", 2: "pass"}, None), Reason.BAD_CONTRACT),
        (lambda p: p.game(0, "MIS", {1: "pass", 2: "pass"}, None), Reason.BAD_CONTRACT),
        (lambda p: p.game(3, "6H", {1: "pass", 2: "pass"}, None), Reason.BAD_SEAT),
        (lambda p: p.game(0, "6H", {1: "pass", 2: "pass"}, None, dealer=1), PrefReason.BAD_DEALER),
        (lambda p: p.misere(0, 11), Reason.BAD_TRICKS),
        (lambda p: p.raspasy({0: 5, 1: 5}), Reason.BAD_TRICKS),
    ],
)
def test_impossible_results_are_refused_and_write_nothing(call: Any, reason: Reason) -> None:
    p = Pulka()
    with pytest.raises(RuleError) as refused:  # a PulkaError, or a NotationError for bad text
        call(p)
    assert refused.value.reason is reason
    assert p.state() == Pulka().state()


def test_a_four_player_pulka_needs_the_dealer_and_the_dealer_does_not_play() -> None:
    p = Pulka(players=4)
    with pytest.raises(PulkaError) as refused:
        p.game(0, "6S", {1: "pass", 2: "pass"}, None)
    assert refused.value.reason is PrefReason.BAD_DEALER
    with pytest.raises(PulkaError):
        p.game(3, "6S", {0: "pass", 1: "pass"}, None, dealer=3)  # the dealer cannot declare
    p.game(0, "6S", {1: "pass", 2: "pass"}, None, dealer=3)
    assert p.pool == [2, 0, 0, 0]


def test_unknown_variant_players_and_target() -> None:
    for kwargs, reason in (
        ({"variant": "moscow"}, PrefReason.BAD_VARIANT),
        ({"players": 5}, PrefReason.BAD_PLAYERS),
        ({"target": 0}, PrefReason.BAD_TARGET),
    ):
        with pytest.raises(PulkaError) as refused:
            Pulka(**kwargs)
        assert refused.value.reason is reason


def test_no_deal_after_the_pulka_is_over() -> None:
    p = Pulka(target=10)
    for declarer in (0, 1, 2):
        p.game(declarer, "10NT", {(declarer + 1) % 3: "pass", (declarer + 2) % 3: "pass"}, None)
    assert p.finished
    with pytest.raises(PulkaError) as refused:
        p.misere(0, 0)
    assert refused.value.reason is PrefReason.PULKA_OVER


# --- properties -------------------------------------------------------------------------------

amounts = st.integers(0, 400)


@st.composite
def sheets(draw: st.DrawFn) -> tuple[list[int], list[int], list[list[int]], int, str]:
    n = draw(st.sampled_from([3, 4]))
    target = draw(st.sampled_from([10, 20, 30, 50]))
    pool = [draw(st.integers(0, target)) for _ in range(n)]
    gora = [draw(st.integers(-50, 400)) for _ in range(n)]
    whists = [[0 if i == j else draw(amounts) for j in range(n)] for i in range(n)]
    return pool, gora, whists, target, draw(st.sampled_from(["sochi", "leningrad", "rostov"]))


def amnesty(
    pool: list[int], gora: list[int], whists: list[list[int]], target: int, variant: str
) -> list[Fraction]:
    """Option 1: close each gora (shortfall to gora), then every other player writes that gora
    × 10/n whists on its owner; the balance is whists written less whists received."""
    n = len(pool)
    m = 2 if variant == "leningrad" else 1
    closed = [Fraction(gora[i] + m * (target - pool[i])) for i in range(n)]
    written = [[Fraction(whists[i][j]) for j in range(n)] for i in range(n)]
    for owner in range(n):
        for writer in range(n):
            if writer != owner:
                written[writer][owner] += closed[owner] * 10 / n
    return [sum(written[i][j] - written[j][i] for j in range(n)) for i in range(n)]


@given(sheets())
def test_balances_sum_to_zero_and_both_options_agree(sheet: Any) -> None:
    balances = settle(*sheet)
    assert sum(balances) == 0
    assert balances == amnesty(*sheet)
    whole = whole_whists(balances)
    assert sum(whole) == 0
    assert all(abs(w - b) < 1 for w, b in zip(whole, balances, strict=True))


@st.composite
def deals(draw: st.DrawFn, n: int) -> dict[str, Any]:
    dealer = draw(st.integers(0, 3)) if n == 4 else None
    active = [i for i in range(n) if i != dealer]
    kind = draw(st.sampled_from(["game", "game", "game", "misere", "raspasy"]))
    split = sorted(draw(st.lists(st.integers(0, 10), min_size=2, max_size=2)))
    tricks = dict(zip(active, [split[0], split[1] - split[0], 10 - split[1]], strict=True))
    if kind == "raspasy":
        return {"op": kind, "tricks": tricks, "dealer": dealer}
    declarer = draw(st.sampled_from(active))
    if kind == "misere":
        return {
            "op": kind,
            "declarer": declarer,
            "tricks": draw(st.integers(0, 10)),
            "dealer": dealer,
        }
    level = draw(st.integers(6, 10))
    contract = f"{level}{draw(st.sampled_from(['S', 'C', 'D', 'H', 'NT']))}"
    first = active[(active.index(declarer) + 1) % 3]
    second = active[(active.index(declarer) + 2) % 3]
    choice = draw(st.sampled_from(["ww", "wp", "pw", "pp", "ph"]))
    if choice == "ph" and level > 7:
        choice = "pp"
    words = {"w": "whist", "p": "pass", "h": "half"}
    whist = {first: words[choice[0]], second: words[choice[1]]}
    played = "w" in choice
    return {
        "op": "game",
        "declarer": declarer,
        "contract": contract,
        "whist": whist,
        "tricks": tricks if played else None,
        "dealer": dealer,
    }


def test_two_full_pools_in_one_raspasy_both_help_the_same_player() -> None:
    """§6: at four, seat 1's two misères fill its pool and, through help, seat 2's; in the
    raspasy that follows both write a point they cannot keep, and each goes to seat 3, the
    only other player below the target (the dealer, seat 0, sits out)."""
    p = Pulka(players=4, target=10, variant="sochi")
    p.misere(1, 0, 0)
    p.misere(1, 0, 0)
    assert p.pool[1:] == [10, 10, 0]
    p.raspasy({1: 0, 2: 0, 3: 10}, 0)
    assert sorted((h.helper, h.helped, h.amount) for h in p.last_help) == [(1, 3, 1), (2, 3, 1)]
    assert p.pool[1:] == [10, 10, 2]


@settings(max_examples=examples(150))
@given(st.data())
def test_any_run_of_deals_keeps_the_sheet_sound(data: st.DataObject) -> None:
    n = data.draw(st.sampled_from([3, 4]))
    variant = data.draw(st.sampled_from(["sochi", "leningrad", "rostov"]))
    target = data.draw(st.sampled_from([10, 20]))
    p = Pulka(players=n, target=target, variant=variant)
    for _ in range(data.draw(st.integers(1, 40))):
        if p.finished:
            break
        deal = data.draw(deals(n))
        pool_before = list(p.pool)
        play(p, deal)
        if variant != "leningrad":
            assert all(x <= target for x in p.pool)  # help keeps every pool at the target
        # each help named by the pulka is another's pool growing, never the dealer sitting out;
        # two full pools in one raspasy may both help the same player
        received: dict[int, Any] = {}
        for h in p.last_help:
            assert h.amount > 0
            assert h.helper != h.helped != deal["dealer"]
            received[h.helped] = received.get(h.helped, 0) + h.amount
        assert variant != "leningrad" or not received
        for seat, amount in received.items():
            assert p.pool[seat] - pool_before[seat] >= amount
        balances = p.balances()
        assert sum(balances) == 0
        assert sum(p.whole()) == 0
        assert all(abs(w - b) < 1 for w, b in zip(p.whole(), balances, strict=True))
