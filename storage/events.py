"""How rules actions are written to the event log, and how a deal is rebuilt from it.

The log is the truth: ``replay`` folds a deal's events through ``games`` to the exact state it
had. Event kinds the rules do not know (requests, votes, notices) are kept in the log and skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.bridge.calls import Call
from games.bridge.cards import Card, Deal, Seat
from games.bridge.deal import (
    Action,
    AnswerClaim,
    DealState,
    MakeCall,
    MakeClaim,
    PlayCard,
    Undo,
)
from storage.interface import Event

DEAL = "deal"
RULE_KINDS = ("call", "card", "claim", "claim_answer", "undo")


def deal_payload(deal: Deal) -> dict[str, Any]:
    return {"dealer": deal.dealer.name, "pbn": deal.to_pbn()}


def deal_from_payload(payload: Mapping[str, Any]) -> Deal:
    return Deal.from_pbn(str(payload["pbn"]), Seat.parse(str(payload["dealer"])))


def encode(action: Action) -> tuple[str, dict[str, Any]]:
    """(kind, payload) for one rules action."""
    seat = action.seat.name
    if isinstance(action, MakeCall):
        return "call", {"seat": seat, "call": str(action.call)}
    if isinstance(action, PlayCard):
        return "card", {"seat": seat, "card": str(action.card)}
    if isinstance(action, MakeClaim):
        return "claim", {"seat": seat, "tricks": action.tricks}
    if isinstance(action, AnswerClaim):
        return "claim_answer", {"seat": seat, "accept": action.accept}
    return "undo", {"seat": seat}


def decode(kind: str, payload: Mapping[str, Any]) -> Action | None:
    """The rules action an event records, or None for an event the rules do not act on."""
    if kind not in RULE_KINDS:
        return None
    seat = Seat.parse(str(payload["seat"]))
    if kind == "call":
        return MakeCall(seat, Call.parse(str(payload["call"])))
    if kind == "card":
        return PlayCard(seat, Card.parse(str(payload["card"])))
    if kind == "claim":
        return MakeClaim(seat, int(payload["tricks"]))
    if kind == "claim_answer":
        return AnswerClaim(seat, bool(payload["accept"]))
    return Undo(seat)


def replay(events: Iterable[Event]) -> DealState:
    """The deal's state from its log, which must start with its ``deal`` event."""
    iterator = iter(events)
    first = next(iterator, None)
    if first is None or first.kind != DEAL:
        raise ValueError("a deal's log starts with its deal event")
    state = DealState.new(deal_from_payload(first.payload))
    for event in iterator:
        action = decode(event.kind, event.payload)
        if action is not None:
            state = state.apply(action)
    return state
