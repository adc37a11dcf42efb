"""How cards, calls, seats and contracts read in each language (Russian ranks Т К Д В)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import Translator, from_words
from games.bridge.calls import Call, CallKind, Contract, Strain
from games.bridge.cards import Card, Rank, Seat, Side, Suit, sort_hand
from games.bridge.deal import DealResult

SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
# The words of the notation are the catalogues' (bridge.rank.*, bridge.seat.*, bridge.nt,
# bridge.pass): a language is added there, not here.
_RANK_KEYS = {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J", Rank.TEN: "T"}


@from_words
def rank_text(rank: Rank, language: str) -> str:
    key = _RANK_KEYS.get(rank)
    return str(int(rank)) if key is None else Translator(language)(f"bridge.rank.{key}")


@from_words
def card_text(card: Card, language: str) -> str:
    return SUIT_SYMBOL[card.suit] + rank_text(card.rank, language)


def side_text(side: Side, t: Translator) -> str:
    """N-S or E-W in the reader's language: the one place a side is named."""
    return t("side.ns") if side is Side.NS else t("side.ew")


_SEAT_KEYS = {seat: f"bridge.seat.{seat.name}" for seat in Seat}  # a seat that is none: KeyError


@from_words
def seat_text(seat: Seat, language: str) -> str:
    return Translator(language)(_SEAT_KEYS[seat])


@from_words
def strain_text(strain: Strain, language: str) -> str:
    suit = strain.suit
    return Translator(language)("bridge.nt") if suit is None else SUIT_SYMBOL[suit]


@from_words
def call_text(call: Call, language: str, long: bool = False) -> str:
    """A call as the auction grid shows it (``X``, ``XX``), or ``long`` as a button says it
    (Контра, Реконтра)."""
    if call.bid is not None:
        return f"{call.bid.level}{strain_text(call.bid.strain, language)}"
    if call.kind is CallKind.PASS:
        return Translator(language)("bridge.pass")
    if long:
        return Translator(language)(f"bridge.call.{call.kind.value}")
    return str(call.kind.value)


def contract_text(contract: Contract, language: str) -> str:
    return f"{contract.level}{strain_text(contract.strain, language)}{contract.doubling.code}"


def suit_line(cards: Iterable[Card], suit: Suit, language: str) -> str:
    ranks = [rank_text(c.rank, language) for c in sort_hand(cards) if c.suit is suit]
    return f"{SUIT_SYMBOL[suit]} {' '.join(ranks) if ranks else '—'}"


def hand_lines(cards: Iterable[Card], language: str) -> list[str]:
    """Four lines, spades first, each suit high to low."""
    held = list(cards)
    return [suit_line(held, suit, language) for suit in reversed(Suit)]


def result_text(result: DealResult, language: str) -> str:
    """``4♥X =``, ``3БК +1``, ``2♠ −2``: the contract and how it went."""
    if result.contract is None:
        return ""
    delta = result.declarer_tricks - result.contract.tricks_needed
    mark = "=" if delta == 0 else (f"+{delta}" if delta > 0 else f"−{-delta}")
    return f"{contract_text(result.contract, language)} {mark}"


def vulnerability_text(vul: tuple[bool, bool], t: Translator) -> str:
    """Who is vulnerable (N-S, E-W) in the players' words."""
    ns, ew = vul
    if ns and ew:
        return t("vul.both")
    if ns:
        return t("vul.ns")
    if ew:
        return t("vul.ew")
    return t("vul.none")
