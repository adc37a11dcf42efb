"""Bridge's own refusal reasons: the auction's doubles, dummy, claims, the rubber."""

from __future__ import annotations

from enum import StrEnum


class BridgeReason(StrEnum):
    """Refusals only this game's rules give (the shared ones are ``games.errors.Reason``). The
    values are stable: they are i18n keys (``reason.<value>``) and log codes."""

    BAD_SIDE = "bad_side"
    BAD_HONOURS = "bad_honours"
    BAD_RULES = "bad_rules"
    DOUBLE_NOTHING = "double_nothing"
    DOUBLE_PARTNER = "double_partner"
    ALREADY_DOUBLED = "already_doubled"
    REDOUBLE_NOT_DOUBLED = "redouble_not_doubled"
    REDOUBLE_OWN_DOUBLE = "redouble_own_double"
    DUMMY_CANNOT_ACT = "dummy_cannot_act"
    CLAIM_TOO_MANY = "claim_too_many"
    ALREADY_ANSWERED = "already_answered"
    RUBBER_OVER = "rubber_over"
