"""The only encoder and decoder of deep-link payloads (``t.me/<bot>?start=<payload>``).

``j<token>_<seat>`` seats the presser at the table with that token: the token is random per
table, so a link cannot be made up for a table one was not shown. The seat is written as the
game's UI writes it (bridge: N, E, S, W; other games: the seat's index). The older ``s<id>_<seat>``
named the sequential table id; it is recognised only to say that the link is out of date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SIT = re.compile(r"^j([0-9a-f]{16})_([A-Z0-9])$")
OLD_SIT = re.compile(r"^s\d{1,12}_[NESW]$")
HAND = "hand"


@dataclass(frozen=True, slots=True)
class SitLink:
    token: str
    seat: str  # the seat's code: the table's game UI reads it


def sit_link(bot_username: str, token: str, seat: str) -> str:
    return f"https://t.me/{bot_username}?start=j{token}_{seat}"


def parse_sit(payload: str) -> SitLink | None:
    match = SIT.match(payload)
    return None if match is None else SitLink(match.group(1), match.group(2))


def is_old_sit(payload: str) -> bool:
    return OLD_SIT.match(payload) is not None
