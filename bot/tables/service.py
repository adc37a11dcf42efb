"""The table service: the one owner of live tables, for every game. Knows nothing of Telegram.

It takes (table id, player, action), serialises work per table with a lock, applies the action
through ``games``, writes the event to storage *before* anything is said about it, and returns
a ``Change``: a snapshot to render and the notices to post. Its cache of live tables is only a
cache: any table can be rebuilt from storage by replaying its events.

Its jobs live in one module each (``bot.tables``): the ground it stands on (``base``: the cache,
locks, loading, players, writing events), the match's life (``matches``), seating and settings
(``seating``), the deal's actions (``play``) and the players' votes (``votes``).
"""

from __future__ import annotations

from bot.tables.seating import Seating
from bot.tables.votes import Votes


class TableService(Votes, Seating):
    """Owns live tables. ``randbelow`` is the shuffle's randomness (``secrets`` by default)."""
