"""The fair stream and the checker: its documented format, and the games dealing exactly what
the stand-alone checker rebuilds, for any seed, players' value, deal number and dealer."""

from __future__ import annotations

import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.bridge.cards import FULL_DECK, Seat
from games.bridge.cards import Deal as BridgeDeal
from games.core import fair
from games.core.registry import find_game
from games.preferans.cards import PACK
from games.preferans.cards import Deal as PrefDeal

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
entropies = st.integers(min_value=0, max_value=2**53).map(str)
numbers = st.integers(min_value=1, max_value=10**6)


@given(seeds, entropies, numbers)
def test_the_stream_is_the_documented_one(seed: str, entropy: str, deal_no: int) -> None:
    """Read back from the module's docstring by hand: the key, the blocks, 64-bit numbers."""
    key = hashlib.sha256(f"fair-v1|{seed}|{entropy}|{deal_no}".encode()).digest()
    blocks = b"".join(hashlib.sha256(key + i.to_bytes(8, "big")).digest() for i in range(4))
    numbers_read = [int.from_bytes(blocks[k : k + 8], "big") for k in range(0, 32, 8)]
    stream = fair.FairStream(seed, entropy, deal_no)
    # A bound of a power of two rejects nothing: the numbers come through modulo the bound.
    assert [stream.randbelow(1 << 16) for _ in range(4)] == [n % (1 << 16) for n in numbers_read]


@given(seeds, entropies, numbers, st.integers(min_value=1, max_value=60))
def test_randbelow_stays_below_its_bound(seed: str, entropy: str, deal_no: int, n: int) -> None:
    stream = fair.FairStream(seed, entropy, deal_no)
    assert all(0 <= stream.randbelow(n) < n for _ in range(50))


def test_randbelow_takes_no_number_from_the_biased_top() -> None:
    """A bound just over half of 2**64 rejects nearly half the numbers: what is returned is
    always one of the accepted ones, never a wrapped-around rejected one."""
    stream = fair.FairStream("00" * 32, "1", 1)
    bound = (1 << 63) + 1
    limit = (1 << 64) - (1 << 64) % bound
    copy = fair.FairStream("00" * 32, "1", 1)
    for _ in range(20):
        value = stream.randbelow(bound)
        while (raw := copy._next64()) >= limit:
            pass
        assert value == raw % bound


@given(seeds, entropies, numbers, st.sampled_from(list(Seat)))
def test_bridge_deals_are_what_the_checker_rebuilds(
    seed: str, entropy: str, deal_no: int, dealer: Seat
) -> None:
    """What the game deals (by its own ``dealing``) is what the checker rebuilds, and what
    the pack shuffled and dealt from dealer's left, as at the table, gives."""
    game = find_game("bridge")
    payload = game.new_deal(4, dealer, fair.FairStream(seed, entropy, deal_no).randbelow)
    dealt = BridgeDeal.from_pbn(str(payload["pbn"]))
    order = fair.shuffled(FULL_DECK, fair.FairStream(seed, entropy, deal_no).randbelow)
    by_hand = {
        seat: {c for i, c in enumerate(order) if dealer.after(1 + i % 4) is seat} for seat in Seat
    }
    assert {seat: set(dealt.hands[seat]) for seat in Seat} == by_hand
    rebuilt = fair.hands(seed, entropy, deal_no, game.dealing(4, dealer))
    assert rebuilt == fair.hands(
        seed, entropy, deal_no, fair._posted_before("bridge", dealer.name, 4)
    )
    assert {seat: set(cards) for seat, cards in rebuilt.items()} == {
        seat.name: {str(c) for c in dealt.hands[seat]} for seat in Seat
    }


@given(seeds, entropies, numbers, st.sampled_from([3, 4]), st.integers(0, 3))
def test_preferans_deals_are_what_the_checker_rebuilds(
    seed: str, entropy: str, deal_no: int, players: int, dealer: int
) -> None:
    dealer %= players
    game = find_game("preferans")
    payload = game.new_deal(players, dealer, fair.FairStream(seed, entropy, deal_no).randbelow)
    dealt = PrefDeal.from_payload(payload)
    # By hand, as at the table: the pack shuffled, ten to each seat in play, two to the talon.
    cards = fair.shuffled(PACK, fair.FairStream(seed, entropy, deal_no).randbelow)
    in_play = [seat for seat in range(players) if not (players == 4 and seat == dealer)]
    by_hand = {seat: set(cards[10 * k : 10 * k + 10]) for k, seat in enumerate(in_play)}
    assert {s: set(h) for s, h in dealt.hands.items()} == by_hand
    assert dealt.talon == (cards[30], cards[31])
    dealing = game.dealing(players, dealer)
    rebuilt = fair.hands(seed, entropy, deal_no, dealing)
    old = fair._posted_before("preferans", str(dealer), players)
    assert rebuilt == fair.hands(seed, entropy, deal_no, old)
    assert rebuilt.pop("talon") == [str(c) for c in dealt.talon]
    assert {s: set(h) for s, h in rebuilt.items()} == {
        str(s): {str(c) for c in h} for s, h in dealt.hands.items()
    }


def test_seeds_come_from_the_key_by_hmac_and_differ_by_table_nonce_and_deal() -> None:
    key = b"k" * 32
    seed = fair.seed_for(key, 5, 9, "ab12")
    assert seed == hmac.new(key, b"fair-v1|seed|ab12|5|9", hashlib.sha256).hexdigest()
    seeds = {fair.seed_for(key, t, d, n) for t in (1, 2) for d in (1, 2) for n in ("a1", "b2")}
    assert len(seeds) == 8
    with pytest.raises(ValueError):  # a table with no nonce would repeat another's seeds
        fair.seed_for(key, 5, 9, "")
    assert fair.commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def test_the_checker_takes_the_tables_16_digits_and_no_fewer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The table shows a commitment's first 16 hex digits (64 bits): the checker accepts
    them, refuses a shorter start (a few digits could be matched by search), and a changed
    seed still does not match."""
    seed = fair.seed_for(b"k" * 32, 1, 1, "n1")
    whole = fair.commitment(seed)
    args = ["bridge", seed, "7", "1", "--dealer", "N", "--commitment"]
    assert fair.main([*args, whole[:16]]) == 0
    assert fair.main([*args, whole]) == 0
    assert fair.main([*args, whole[:8]]) == 1
    other = fair.seed_for(b"k" * 32, 1, 2, "n1")
    assert fair.main(["bridge", other, "7", "1", "--commitment", whole[:16]]) == 1
    assert capsys.readouterr().out.count("DOES NOT MATCH") == 2
