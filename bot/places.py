"""Where each seated player's screen goes: an ephemeral message in the group (seen by that
player alone, under the table) or their private chat.

The group chooses (``TableSettings.hands``: "group", "private", or "" for the group where the
bot is a group administrator, else private); a player may choose their private chat for
themselves (``TableSettings.private_hands``). Where the bot is an administrator, the screen is
ephemeral only; where it is not, the bot may answer only a press with an ephemeral message
(the "🂠 My cards" button), so the private chat keeps the screen too and the ephemeral one is
edited once the player opened it. When Telegram refuses a player's ephemeral message, that
player's screen goes back to their private chat (``fallen``); when it keeps slowing a group's
ephemeral calls down, the whole group's do (``quiet``). Both are kept in memory: after a
restart the group is tried again.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from bot.tables import Holder, Snapshot

HANDS = ("group", "private")  # the group's choices ("" is the default: by the bot's rights)
REMEMBERED = 20_000  # (table, player) pairs whose last ephemeral deal is remembered


def screen_key(tg_user_id: int) -> str:
    """The kept message of a player's ephemeral screen at a table: one per player, edited from
    deal to deal (a bot that is no administrator cannot post a new one unasked)."""
    return f"eph:{tg_user_id}"


@dataclass(frozen=True, slots=True)
class Place:
    """Where one player's screen goes now."""

    group: bool  # an ephemeral message in the group
    private: bool  # their private chat
    may_post: bool  # the ephemeral one may be posted unasked (the bot is an administrator)


PRIVATE = Place(group=False, private=True, may_post=False)


class Places:
    def __init__(self) -> None:
        self.rights: dict[int, bool] = {}  # group -> the bot is a group administrator there
        self.fallen: set[tuple[int, int]] = set()  # (table id, tg user id): refused lately
        self.quiet: set[int] = set()  # groups whose ephemeral calls Telegram kept slowing
        self._deals: OrderedDict[tuple[int, int], int] = OrderedDict()

    def in_group(self, snap: Snapshot) -> bool:
        """Whether the table's screens are shown in its group (the "🂠 My cards" button)."""
        chat = snap.chat.tg_chat_id
        if chat in self.quiet:
            return False
        hands = snap.settings.hands
        return hands == "group" or (hands == "" and self.rights.get(chat, False))

    def of(self, snap: Snapshot, holder: Holder) -> Place:
        user = holder.tg_user_id
        if (
            user is None
            or not self.in_group(snap)
            or holder.player_id in snap.settings.private_hands
            or (snap.table_id, user) in self.fallen
        ):
            return PRIVATE
        admin = self.rights.get(snap.chat.tg_chat_id, False)
        return Place(group=True, private=not admin, may_post=admin)

    def first_sight(self, snap: Snapshot, tg_user_id: int, deal_no: int) -> bool:
        """Whether the player's ephemeral screen moves on to a new deal here (it is posted anew
        at the bottom of the group, where the bot may). One this process has not shown yet
        (after a restart) is not: it is edited where it is, or posted if it never was."""
        key = (snap.table_id, tg_user_id)
        before = self._deals.get(key)
        if before == deal_no:
            return False
        self._deals[key] = deal_no
        self._deals.move_to_end(key)
        while len(self._deals) > REMEMBERED:
            self._deals.popitem(last=False)
        return before is not None
