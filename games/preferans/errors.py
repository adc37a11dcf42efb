"""Preferans's own refusal reasons: the pulka, whists, the talon, misère, the exit."""

from __future__ import annotations

from enum import StrEnum


class PrefReason(StrEnum):
    """Refusals only this game's rules give (the shared ones are ``games.errors.Reason``). The
    values are stable: they are i18n keys (``reason.<value>``) and log codes."""

    BAD_VARIANT = "bad_variant"
    BAD_PLAYERS = "bad_players"
    BAD_TARGET = "bad_target"
    BAD_DEALER = "bad_dealer"
    BAD_WHIST = "bad_whist"
    PULKA_OVER = "pulka_over"
    BAD_CONDITIONS = "bad_conditions"
    MISERE_NOT_FIRST = "misere_not_first"
    CONTRACT_BELOW_BID = "contract_below_bid"
    BAD_DISCARD = "bad_discard"
    MUST_TRUMP = "must_trump"
    BELOW_EXIT = "below_exit"
    CANNOT_CLAIM = "cannot_claim"
