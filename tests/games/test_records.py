"""Hand records: PBN files and BBO hand-viewer links read back, with ``endplay``'s own parsers,
to the same deals, auctions, play and results."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import endplay.parsers.lin as lin
import endplay.parsers.pbn as pbn
from endplay.types import Penalty, Vul
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bridge.calls import Call
from games.bridge.cards import Card, Deal, Seat
from games.bridge.deal import (
    AnswerClaim,
    DealState,
    MakeCall,
    MakeClaim,
    Phase,
    PlayCard,
    effective_actions,
)
from games.bridge.records import VIEWER, Record, to_lin, to_pbn, viewer_url
from games.bridge.records import board as endplay_board
from tests.sizes import examples

_VUL = {
    (False, False): Vul.none,
    (True, False): Vul.ns,
    (False, True): Vul.ew,
    (True, True): Vul.both,
}


def _played(seed: int, stop_after: int | None = None, claim: bool = False) -> DealState:
    """A deal bid and played at random (to the end, or ``stop_after`` cards, or a claim)."""
    rng = random.Random(seed)
    deal = Deal.shuffled(Seat(rng.randrange(4)), rng.randrange)
    state = DealState.new(deal)
    cards = 0
    while state.phase is not Phase.FINISHED:
        if stop_after is not None and cards >= stop_after:
            break
        if claim and state.play is not None and state.claim is None and cards >= 20:
            declarer = state.play.declarer
            state = state.apply(MakeClaim(declarer, 0))  # a concession: accepted
            continue
        claim = state.claim
        if claim is not None:
            state = state.apply(AnswerClaim(min(claim.responders - claim.accepted), True))
            continue
        actor = state.actor
        assert actor is not None
        view = state.view(actor)
        if view.legal_calls:
            calls = view.legal_calls
            call = calls[0] if rng.random() < 0.6 else rng.choice(calls[: min(len(calls), 8)])
            state = state.apply(MakeCall(actor, call))
        else:
            state = state.apply(PlayCard(actor, rng.choice(sorted(view.legal_cards))))
            cards += 1
    return state


def _cards(state: DealState) -> list[Card]:
    return [a.card for a in effective_actions(state.history) if isinstance(a, PlayCard)]


def _same(board: object, state: DealState, record: Record) -> None:
    assert Deal.from_pbn(board.deal.to_pbn()).hands == state.deal.hands  # type: ignore[attr-defined]
    assert board.dealer.abbr == state.deal.dealer.name  # type: ignore[attr-defined]
    assert board.vul == _VUL[(record.ns_vulnerable, record.ew_vulnerable)]  # type: ignore[attr-defined]
    calls = [
        str(b).replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
        for b in board.auction
    ]  # type: ignore[attr-defined]
    assert len(calls) == len(state.auction.calls)
    played = [Card.parse(str(c).translate(str.maketrans("♠♥♦♣", "SHDC"))) for c in board.play]  # type: ignore[attr-defined]
    assert played == _cards(state)


@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.booleans(), st.booleans())
def test_pbn_reads_back_to_the_same_deals(seed: int, ns: bool, ew: bool) -> None:
    states = [_played(seed), _played(seed + 1, stop_after=7), _played(seed + 2, claim=True)]
    records = [
        Record(n, s, ns, ew, {Seat.N: 'Анна "А"', Seat.E: "<b>Bob</b>"}, "Клуб", "2026.12.01")
        for n, s in enumerate(states, start=1)
    ]
    boards = pbn.loads(to_pbn(records))
    assert len(boards) == 3
    for board, state, record in zip(boards, states, records, strict=True):
        _same(board, state, record)
        assert board.board_num == record.number
        if state.result is not None and state.contract is not None:
            assert board.contract.level == state.contract.level
            assert state.declarer is not None
            assert board.contract.declarer.abbr == state.declarer.name
            made = board.contract.result + state.contract.tricks_needed
            assert made == state.result.declarer_tricks
    assert boards[0].info.north == "Анна А"


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_pbn_writes_doubled_contracts_as_the_standard_does(seed: int) -> None:
    """PBN 2.1 writes "4SX" and "3NTXX" (endplay writes a lower-case x); read back, the
    penalty is the same."""
    rng = random.Random(seed)
    deal = Deal.shuffled(Seat(rng.randrange(4)), rng.randrange)
    state = DealState.new(deal)
    level = rng.randrange(1, 8)
    strain = rng.choice(["C", "D", "H", "S", "NT"])
    redouble = rng.random() < 0.5
    calls = [f"{level}{strain}", "X"] + (["XX"] if redouble else []) + ["P", "P", "P"]
    for text in calls:
        actor = state.actor
        assert actor is not None
        state = state.apply(MakeCall(actor, Call.parse(text)))
    record = Record(1, state, False, False)
    text = to_pbn([record])
    written = "X" * (2 if redouble else 1)
    assert f'[Contract "{level}{strain}{written}"]' in text, text
    assert not re.search(r'\[Contract "[^"]*x', text)
    [board] = pbn.loads(text)
    assert board.contract.level == level
    assert board.contract.penalty is (Penalty.redoubled if redouble else Penalty.doubled)


def test_the_viewer_link_carries_the_deal_auction_and_play() -> None:
    state = _played(42)
    record = Record(3, state, True, False, {Seat.S: "Cat|Dog"})
    url = viewer_url(record)
    assert url.startswith(VIEWER)
    text = unquote(url.removeprefix(VIEWER))
    assert text == to_lin(record)
    assert "|pc|" in text and "|mb|" in text and "Cat|Dog" not in text
    [board] = lin.loads(text)
    _same(board, state, record)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10_000),
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, 0, 7, 30]),
    st.dictionaries(st.sampled_from(list(Seat)), st.text(max_size=50), max_size=4),
)
def test_the_viewer_line_is_what_endplays_encoder_writes(
    seed: int, ns: bool, ew: bool, stop_after: int | None, names: dict[Seat, str]
) -> None:
    """The LIN line is written without ``endplay`` (the bot's process draws one each finished
    deal); it must be the line endplay's encoder writes for the same deal, to the character:
    finished, claimed, unfinished or never bid, with any names."""
    claim = stop_after == 30
    state = _played(seed, None if claim else stop_after, claim=claim)
    record = Record(seed, state, ns, ew, names, "Клуб")
    assert to_lin(record) == lin.dumps([endplay_board(record)]).strip()


def test_a_viewer_link_imports_neither_endplay_nor_numpy() -> None:
    """The bot's process draws a link for every finished deal; importing ``endplay`` there
    (numpy and matplotlib with it) froze play for 0.7 s of CPU the first time."""
    code = (
        "import random, sys\n"
        "from games.bridge.calls import Call\n"
        "from games.bridge.cards import Deal, Seat\n"
        "from games.bridge.deal import DealState, MakeCall, Phase, PlayCard\n"
        "from games.bridge.records import Record, viewer_url\n"
        "state = DealState.new(Deal.shuffled(Seat.N, random.Random(1).randrange))\n"
        "for text in ('1NT', 'P', 'P', 'P'):\n"
        "    state = state.apply(MakeCall(state.actor, Call.parse(text)))\n"
        "while state.phase is not Phase.FINISHED:\n"
        "    state = state.apply(PlayCard(state.actor, min(state.view(state.actor).legal_cards)))\n"
        "print(viewer_url(Record(1, state)))\n"
        "heavy = {'endplay', 'numpy', 'matplotlib'}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & heavy))\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0].startswith(VIEWER) and "pc%7C" in out[0]
    assert out[1] == "[]"
