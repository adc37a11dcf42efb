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
from functools import lru_cache

from telegram.constants import InlineKeyboardButtonLimit

VERSION = "b1"
MAX_BYTES = int(InlineKeyboardButtonLimit.MAX_CALLBACK_DATA)
_ARG_TEXT = r"[A-Za-z0-9_.=+-]{1,40}"  # ASCII only: its length in bytes is its length
PATTERN = re.compile(
    rf"^b1:(\d{{1,12}}):(\d{{1,6}})(?:\.(\d{{1,4}}))?:([a-z]{{1,3}})(?::({_ARG_TEXT}))?$"
)
_ARG = re.compile(_ARG_TEXT)


class Act(StrEnum):
    """The button kinds every table has. A game's own kinds are plain strings its plug-in
    names (``bot.plugin.Plugin.buttons``); each kind has one owner, checked at start."""

    SIT = "sit"  # arg: seat (its code: the game's UI reads it)
    ROBOT = "rb"  # arg: seat: fill it with a robot
    ACTION = "a"  # arg: the action in the game's own words (its codec's text, "card.SQ")
    MENU = "mn"  # arg: a screen of the game's UI on the way to an action ("drop.SA": one picked)
    LEAVE = "lv"
    NEXT_MATCH = "nr"  # the next match (rubber, pulka) with the same partners
    NEW_PARTNERS = "np"
    STAND_UP = "su"
    UNDO = "un"  # take back my last action (the others decide)
    UNDO_ANSWER = "ua"  # arg: "y" or "n"
    SUB = "sb"  # arg: "y" or "n": agree to the proposed substitute
    END = "end"  # arg: "y" (stop the match now) or "n" (keep playing)
    SETTING = "st"  # arg: key=value
    REFRESH = "rf"
    COSTLY = "cc"  # under a deal's result: the first card that cost each side a trick
    CARDS = "my"  # "🂠 My cards" on the table message: the presser's screen in the group
    HANDS = "hd"  # arg: "p" (my screen in my private chat) or "g" (in the group)
    # The group's money; the "table" field holds the chat's id, the "deal" field the ledger's
    # size when the button was made, so a button from before a payment is recognised as stale.
    CHART = "chr"
    CSV = "csv"
    SETTLE = "stl"
    PAY = "pay"  # arg: payer-payee-points (player ids)


def action_data(table_id: int, deal_no: int, at: int, text: str) -> str:
    """The generic action button of every game: the game's own action text (its codec's,
    ``card.SQ``) for position ``at`` of a deal. The same as ``Button.encode`` makes it, with
    the part before the text made once for a keyboard: a bidding box has up to 38 of them.

    >>> action_data(12, 3, 40, "card.SQ")
    'b1:12:3.40:a:card.SQ'
    """
    head = _action_head(table_id, deal_no, at)
    if not text:
        return head
    data = f"{head}:{text}"
    if len(data) > MAX_BYTES or not _ARG.fullmatch(text):
        raise ValueError(f"callback data {data!r} does not fit the codec")
    return data


@lru_cache(maxsize=1024)
def _action_head(table_id: int, deal_no: int, at: int) -> str:
    return Button(table_id, deal_no, Act.ACTION, "", at).encode()


MONEY_ACTS = (Act.CHART, Act.CSV, Act.SETTLE, Act.PAY)
# The kinds the table's own handler answers (a game adds its table kinds to them).
TABLE_ACTS = (
    Act.SIT,
    Act.ROBOT,
    Act.ACTION,
    Act.MENU,
    Act.LEAVE,
    Act.NEXT_MATCH,
    Act.NEW_PARTNERS,
    Act.STAND_UP,
    Act.UNDO,
    Act.UNDO_ANSWER,
    Act.SUB,
    Act.END,
    Act.REFRESH,
    Act.COSTLY,
    Act.CARDS,
    Act.HANDS,
)


def route(*acts: str) -> str:
    """The anchored pattern a handler registers for exactly these button kinds: written once
    here, so a change to the format cannot leave a route behind."""
    names = "|".join(re.escape(act) for act in sorted(acts))
    return r"^b1:\d{1,12}:\d{1,6}(?:\.\d{1,4})?:" + rf"(?:{names})(?::|$)"


class BadCallbackData(ValueError):
    """Data that no button of ours produced (or of a version we no longer read)."""


@dataclass(frozen=True, slots=True)
class Button:
    table_id: int
    deal_no: int
    act: str  # an ``Act`` for the kinds every table has, a game's own kind otherwise
    arg: str = ""
    at: int | None = None  # the position in the deal the button was made for

    def encode(self) -> str:
        deal = str(self.deal_no) if self.at is None else f"{self.deal_no}.{self.at}"
        text = f"{VERSION}:{self.table_id}:{deal}:{self.act}"
        if self.arg:
            text += f":{self.arg}"
        if len(text.encode()) > MAX_BYTES or not PATTERN.fullmatch(text):
            raise ValueError(f"callback data {text!r} does not fit the codec")
        return text

    @classmethod
    def decode(cls, data: str | None) -> Button:
        match = PATTERN.fullmatch(data or "")
        if match is None:
            raise BadCallbackData(repr(data))
        table, deal, at, act, arg = match.groups()
        kind: str = Act(act) if act in SHARED_KINDS else act
        return cls(int(table), int(deal), kind, arg or "", None if at is None else int(at))


SHARED_KINDS = frozenset(act.value for act in Act)  # every table's kinds, the rest are games'
