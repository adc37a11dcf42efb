"""Hand records: deals as PBN (the file bridge software reads) and as LIN (BBO's hand viewer,
which replays a deal from a link). ``endplay``'s encoder writes PBN, so the files are what its
own parsers, and other programs, read back; we only translate our deal into its board. The LIN
line is written here, to the character as endplay writes it: it is drawn in the bot's process.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote

from games.bridge.analysis import solver_denom, solver_penalty, solver_player, solver_vul
from games.bridge.calls import Call, CallKind, Doubling
from games.bridge.cards import Card, Seat, Suit
from games.bridge.deal import DealState, PlayCard, effective_actions

if TYPE_CHECKING:  # imported where a file is written: endplay brings numpy and matplotlib
    from endplay.types import Board
    from endplay.types.bid import ContractBid, PenaltyBid

VIEWER = "https://www.bridgebase.com/tools/handviewer.html?lin="


@dataclass(frozen=True, slots=True)
class Record:
    """One deal as played: its number, its state (the auction and the cards played, to the
    end or as far as it went), the vulnerability, and optionally who sat where."""

    number: int
    state: DealState
    ns_vulnerable: bool = False
    ew_vulnerable: bool = False
    names: Mapping[Seat, str] = field(default_factory=dict)
    event: str = ""
    date: str = ""  # YYYY.MM.DD


def _bid(call: Call) -> ContractBid | PenaltyBid:
    from endplay.types.bid import ContractBid, PenaltyBid

    if call.bid is not None:
        return ContractBid(call.bid.level, solver_denom(call.bid.strain))
    doubling = {
        CallKind.PASS: Doubling.NONE,
        CallKind.DOUBLE: Doubling.DOUBLED,
        CallKind.REDOUBLE: Doubling.REDOUBLED,
    }[call.kind]
    return PenaltyBid(solver_penalty(doubling))


def _played(state: DealState) -> list[Card]:
    """The cards played so far, in order (an undone card is not among them)."""
    return [a.card for a in effective_actions(state.history) if isinstance(a, PlayCard)]


def _clean(name: str) -> str:
    """A name as a file field may hold it: no quotes, separators or line breaks."""
    kept = "".join(ch for ch in name if ch.isprintable() and ch not in '"|,\\')
    return kept.strip()[:40] or "?"


def board(record: Record) -> Board:
    """The deal as ``endplay``'s board: hands, dealer, vulnerability, auction, play, result."""
    from endplay.types import Board
    from endplay.types import Card as SolverCard
    from endplay.types import Contract as SolverContract
    from endplay.types import Deal as SolverDeal

    state = record.state
    deal = SolverDeal.from_pbn(state.deal.to_pbn())
    cards = _played(state)
    contract = None
    result = state.result
    if state.contract is not None and state.declarer is not None:
        made = result.declarer_tricks if result is not None else None
        contract = SolverContract(
            level=state.contract.level,
            denom=solver_denom(state.contract.strain),
            declarer=solver_player(state.declarer),
            penalty=solver_penalty(state.contract.doubling),
            result=0 if made is None else made - state.contract.tricks_needed,
        )
    found = Board(
        deal,
        auction=[_bid(call) for call in state.auction.calls],
        play=[SolverCard(str(card)) for card in cards],
        board_num=record.number,
        vul=solver_vul(record.ns_vulnerable, record.ew_vulnerable),
        dealer=solver_player(state.deal.dealer),
        contract=contract,
        claimed=bool(result is not None and result.claimed),
    )
    found.info.event = _clean(record.event) if record.event else "?"
    if record.date:
        found.info.date = record.date
    for seat, tag in ((Seat.N, "north"), (Seat.E, "east"), (Seat.S, "south"), (Seat.W, "west")):
        if seat in record.names:
            setattr(found.info, tag, _clean(record.names[seat]))
    return found


# endplay writes a doubled contract as "4Sx" / "3NTxx"; PBN 2.1 (§3.4.9) writes "4SX", "3NTXX".
_DOUBLED = re.compile(r'^(\[Contract "[1-7](?:NT|[SHDC]))(xx|x)("\])$', re.MULTILINE)


def to_pbn(records: Sequence[Record]) -> str:
    """A PBN file of the deals, in order, written as the standard spells it."""
    import endplay.parsers.pbn as pbn

    text = pbn.dumps([board(record) for record in records])
    return _DOUBLED.sub(lambda m: m.group(1) + m.group(2).upper() + m.group(3), text)


# LIN names the seats from south, clockwise: the players in that order, the dealer as a digit
# (south 1 … east 4), and the hands (east's is left out: it is what the other three are not).
_LIN_SEATS = (Seat.S, Seat.W, Seat.N, Seat.E)
_LIN_DEALER = {Seat.S: "1", Seat.W: "2", Seat.N: "3", Seat.E: "4"}
# The vulnerability (north-south, east-west) as LIN's letter; the double-dummy button says it so.
LIN_VUL = {(False, False): "o", (True, False): "n", (False, True): "e", (True, True): "b"}
_LIN_CALL = {CallKind.PASS: "p", CallKind.DOUBLE: "d", CallKind.REDOUBLE: "r"}


def to_lin(record: Record) -> str:
    """The deal as one LIN line (BBO's format: players, hands, auction, play), as ``endplay``'s
    encoder writes it (a test holds them equal). Written here: every finished deal's link is
    drawn in the bot's process, where importing ``endplay`` froze play for 0.7 s of CPU.

    >>> from games.bridge.cards import Deal
    >>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 "
    ...                      "432.AKQJ.T98.765")
    >>> line = to_lin(Record(7, DealState.new(deal), ns_vulnerable=True, names={Seat.N: "A|n"}))
    >>> for part in line.split("||")[:-1]:
    ...     print(part + "||")
    pn|,,An,|st||
    md|3S567H234DJQKAC89T,S234HJQKAD89TC567,SJQKAH89TD567C234,|rh||
    ah|Board 7|sv|n|pg||
    """
    state = record.state
    names = [_clean(record.names[seat]) if seat in record.names else "" for seat in _LIN_SEATS]
    hands = [_lin_hand(state.deal.hand(seat)) for seat in _LIN_SEATS[:3]]
    parts = [
        f"pn|{','.join(names)}|st||",
        f"md|{_LIN_DEALER[state.deal.dealer]}{','.join(hands)},|rh||",
        f"ah|Board {record.number}|",
        f"sv|{LIN_VUL[(record.ns_vulnerable, record.ew_vulnerable)]}|",
    ]
    for call in state.auction.calls:
        bid = call.bid
        text = _LIN_CALL[call.kind] if bid is None else f"{bid.level}{str(bid.strain)[0]}"
        parts.append(f"mb|{text}|")
    parts.append("pg||")
    cards = _played(state)
    for n, card in enumerate(cards, 1):
        parts.append(f"pc|{card}|" + ("pg||" if n % 4 == 0 else ""))
    result = state.result
    if result is not None and result.claimed and state.contract is not None:
        parts.append(f"mc|{result.declarer_tricks}|")
    return "".join(parts)


def _lin_hand(cards: frozenset[Card]) -> str:
    """A hand as LIN writes it: each suit's letter, spades first, then its ranks low to high."""
    return "".join(
        suit.letter + "".join(r.letter for r in sorted(c.rank for c in cards if c.suit is suit))
        for suit in reversed(Suit)
    )


def viewer_url(record: Record) -> str:
    """A link that opens the deal in BBO's hand viewer, ready to replay card by card."""
    return VIEWER + quote(to_lin(record), safe="")
