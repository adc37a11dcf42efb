"""The only encoder and decoder of inline-button data.

``b1:<table>:<deal>:<action>[:<arg>]`` in at most 64 bytes (Telegram's limit). Each button says
which table and deal it belongs to, so a stale button is recognised without any server-side cache
and buttons keep working after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from telegram.constants import InlineKeyboardButtonLimit

VERSION = "b1"
MAX_BYTES = int(InlineKeyboardButtonLimit.MAX_CALLBACK_DATA)
PATTERN = re.compile(r"^b1:(\d{1,12}):(\d{1,6}):([a-z]{1,3})(?::([A-Za-z0-9_.=-]{1,24}))?$")


class Act(StrEnum):
    SIT = "sit"  # arg: seat
    LEAVE = "lv"
    CALL = "c"  # arg: call text, "1H", "P", "X", "XX"
    CARD = "p"  # arg: card text, "SQ"
    CLAIM = "cl"  # arg: tricks
    CLAIM_MENU = "cm"
    CLAIM_ANSWER = "ca"  # arg: "y" or "n"
    NEXT_RUBBER = "nr"
    NEW_PARTNERS = "np"
    STAND_UP = "su"
    UNDO = "un"  # take back my last call or card (the opponents decide)
    UNDO_ANSWER = "ua"  # arg: "y" or "n"
    SUB = "sb"  # arg: "y" or "n": agree to the proposed substitute
    END = "end"  # arg: "y" (stop the rubber now) or "n" (keep playing)
    SETTING = "st"  # arg: key=value
    REFRESH = "rf"
    # The group's money; the "table" field holds the chat's id, the "deal" field the ledger's
    # size when the button was made, so a button from before a payment is recognised as stale.
    CHART = "chr"
    CSV = "csv"
    SETTLE = "stl"
    PAY = "pay"  # arg: payer-payee-points (player ids)
    # Scorekeeping for games played with real cards; "deal" is the number of deals entered.
    KEEP = "sk"  # arg: the entry so far, e.g. "4SX.N.m2"
    KEEP_UNDO = "ku"
    KEEP_PICTURE = "pic"


class BadCallbackData(ValueError):
    """Data that no button of ours produced (or of a version we no longer read)."""


@dataclass(frozen=True, slots=True)
class Button:
    table_id: int
    deal_no: int
    act: Act
    arg: str = ""

    def encode(self) -> str:
        text = f"{VERSION}:{self.table_id}:{self.deal_no}:{self.act.value}"
        if self.arg:
            text += f":{self.arg}"
        if len(text.encode()) > MAX_BYTES or not PATTERN.match(text):
            raise ValueError(f"callback data {text!r} does not fit the codec")
        return text

    @classmethod
    def decode(cls, data: str | None) -> Button:
        match = PATTERN.match(data or "")
        if match is None:
            raise BadCallbackData(repr(data))
        table, deal, act, arg = match.groups()
        try:
            action = Act(act)
        except ValueError:
            raise BadCallbackData(repr(data)) from None
        return cls(int(table), int(deal), action, arg or "")
