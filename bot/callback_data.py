"""The only encoder and decoder of inline-button data.

``b1:<table>:<deal>[.<position>]:<action>[:<arg>]`` in at most 64 bytes (Telegram's limit).
Each button says which table and deal it belongs to, so a stale button is recognised without any
server-side cache and buttons keep working after a restart. Calls, cards and claims also carry
the position in the deal (its number of events when the button was made): a second tap, or a
tap made for one trick, can never apply to another.

The data is untrusted input: Telegram does not check it against the keyboard it showed, so a
modified client can send anything. Decoding only says it is well formed; every handler checks
the presser's rights and the table's state as for any other request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from telegram.constants import InlineKeyboardButtonLimit

VERSION = "b1"
MAX_BYTES = int(InlineKeyboardButtonLimit.MAX_CALLBACK_DATA)
PATTERN = re.compile(
    r"^b1:(\d{1,12}):(\d{1,6})(?:\.(\d{1,4}))?:([a-z]{1,3})(?::([A-Za-z0-9_.=-]{1,24}))?$"
)


class Act(StrEnum):
    SIT = "sit"  # arg: seat (its code: the game's UI reads it)
    ROBOT = "rb"  # arg: seat: fill it with a robot
    ACTION = "a"  # arg: the action in the game's own words (its codec's text, "card.SQ")
    MENU = "mn"  # arg: a screen of the game's UI on the way to an action ("drop.SA": one picked)
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
    DD = "dd"  # arg: the vulnerability (o, n, e, b): a finished deal's double-dummy table
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
    PREF_KEEP = "pk"  # arg: the pulka entry so far, e.g. "g0.7H.wp.7"
    PREF_KEEP_UNDO = "pku"


def action_data(table_id: int, deal_no: int, at: int, text: str) -> str:
    """The generic action button of every game: the game's own action text (its codec's,
    ``card.SQ``) for position ``at`` of a deal."""
    return Button(table_id, deal_no, Act.ACTION, text, at).encode()


MONEY_ACTS = (Act.CHART, Act.CSV, Act.SETTLE, Act.PAY)
KEEPER_ACTS = (Act.KEEP, Act.KEEP_UNDO, Act.KEEP_PICTURE)
PULKA_KEEPER_ACTS = (Act.PREF_KEEP, Act.PREF_KEEP_UNDO)
# Acts whose button names the exact position in the deal; one without it is stale.
POSITIONED = frozenset({Act.ACTION, Act.CALL, Act.CARD, Act.CLAIM, Act.CLAIM_ANSWER})


def route(*acts: Act, exclude: bool = False) -> str:
    """The anchored pattern a handler registers for these actions (all others with ``exclude``):
    written once here, so a change to the format cannot leave a route behind."""
    names = "|".join(re.escape(act.value) for act in acts)
    head = r"^b1:\d{1,12}:\d{1,6}(?:\.\d{1,4})?:"
    if exclude:
        return head + rf"(?!(?:{names})(?::|$))"
    return head + rf"(?:{names})(?::|$)"


class BadCallbackData(ValueError):
    """Data that no button of ours produced (or of a version we no longer read)."""


@dataclass(frozen=True, slots=True)
class Button:
    table_id: int
    deal_no: int
    act: Act
    arg: str = ""
    at: int | None = None  # the position in the deal the button was made for

    def encode(self) -> str:
        deal = str(self.deal_no) if self.at is None else f"{self.deal_no}.{self.at}"
        text = f"{VERSION}:{self.table_id}:{deal}:{self.act.value}"
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
        table, deal, at, act, arg = match.groups()
        try:
            action = Act(act)
        except ValueError:
            raise BadCallbackData(repr(data)) from None
        return cls(int(table), int(deal), action, arg or "", None if at is None else int(at))
