"""The bridge values behind a snapshot's game-neutral state and match."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import Translator
from bot.tables import Snapshot
from games.bridge.cards import Side
from games.bridge.chicago import CARRY, DEALS, Chicago
from games.bridge.deal import DealState
from games.bridge.game import BridgeState, RubberMatch, form_of
from games.bridge.rubber import ScoreSheet


def deal_of(snap: Snapshot) -> DealState | None:
    """The bridge deal on the table (None if none is on)."""
    return None if snap.state is None else bridge_deal(snap.state)


def bridge_deal(state: Any) -> DealState:
    assert isinstance(state, BridgeState)
    return state.deal


def rubber_of(snap: Snapshot) -> ScoreSheet | None:
    """The rubber being played (None between rubbers)."""
    return None if snap.match is None else bridge_rubber(snap.match)


def bridge_rubber(match: Any) -> ScoreSheet:
    assert isinstance(match, RubberMatch)
    return match.rubber


def vulnerability(snap: Snapshot) -> tuple[bool, bool]:
    """N-S and E-W vulnerable now."""
    rubber = rubber_of(snap)
    return (False, False) if rubber is None else sheet_vulnerability(rubber)


def sheet_vulnerability(sheet: ScoreSheet) -> tuple[bool, bool]:
    """N-S and E-W vulnerable on the deal the sheet is about to score."""
    return (sheet.vulnerable(Side.NS), sheet.vulnerable(Side.EW))


def bridge_options(options: Mapping[str, Any]) -> tuple[str, int]:
    """The table's scoring variant and unfinished part score (RULES.md), with their defaults."""
    return str(options.get("rules", "modern")), int(options.get("unfinished_part_score", 100))


def bridge_form(options: Mapping[str, Any]) -> tuple[str, str]:
    """The table's form of match (rubber, chicago) and a Chicago's part-score setting."""
    return form_of(options), str(options.get("chicago_part", CARRY))


def deal_label(snap: Snapshot, deal_no: int, t: Translator) -> str:
    """A deal as the players count it: its number in the match; at a Chicago "2 из 4" (a
    passed-out deal is dealt again and keeps its number)."""
    number = snap.deal_in_match(deal_no)
    sheet = rubber_of(snap)
    if not isinstance(sheet, Chicago):
        return str(number)
    counted = sum(1 for rec in sheet.records[: number - 1] if rec.contract is not None)
    return t("chicago.deal", number=min(counted + 1, DEALS), deals=DEALS)
