"""What every Preferans screen reads off a snapshot: the deal, the names, the table's options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import Translator
from bot.tables import (
    Snapshot,
)
from games.preferans.cards import Card
from games.preferans.deal import (
    DealState,
)

VARIANTS = ("sochi", "leningrad", "rostov", "stalingrad")
TARGETS = (10, 20, 30, 50)
MAX_TARGET = 500  # a pool target typed with /settings target N


def deal_of(snap: Snapshot) -> DealState | None:
    state = snap.state
    if state is None:
        return None
    assert isinstance(state, DealState)
    return state


def names_of(snap: Snapshot) -> dict[int, str]:
    return {seat: holder.name for seat, holder in snap.seats.items()}


def pulka_options(options: Mapping[str, Any]) -> tuple[str, int, int]:
    return (
        str(options.get("variant", "sochi")),
        int(options.get("target", 10)),
        int(options.get("players", 3)),
    )


def picked_cards(menu: str, hand: frozenset[Card]) -> list[Card]:
    """The cards of a half-chosen discard (``drop.SA``), those still in the hand only."""
    if not menu.startswith("drop"):
        return []
    picked = []
    for text in menu.split(".")[1:3]:
        try:
            card = Card.parse(text)
        except Exception:  # a forged menu: start the choice again
            return []
        if card in hand and card not in picked:
            picked.append(card)
    return picked


def seat_name(seat: int, language: str) -> str:
    """A seat as the table names it ("Место 1")."""
    return Translator(language)("pref.seat", number=seat + 1)
