"""A snapshot's match is a copy made when the match changes, not on every press: presses within
a deal share one copy (the copy per press cost every table's every action), a deal's end, a
setting or a stop makes a new one, and what an older snapshot holds never changes."""

from __future__ import annotations

import random
from pathlib import Path

from bot.tables import TableService
from storage.sqlite import SqliteStorage


async def test_presses_share_the_matchs_copy_and_its_changes_make_a_new_one(
    tmp_path: Path,
) -> None:
    storage = await SqliteStorage.open(str(tmp_path / "bot.sqlite3"))
    try:
        service = TableService(storage, random.Random(3).randrange)
        change, _ = await service.open_table(-5, "Club", None, "en", "bridge")
        table = change.snapshot.table_id
        for seat in range(4):
            player = await service.player(100 + seat, f"P{seat}", "en")
            change = await service.sit(table, player, seat)
        first = change.snapshot
        assert first.deal_no == 1 and first.match is not None
        recorded = first.match.summary()
        snap = first
        while snap.deal_no == 1:  # everyone passes: the deal is passed out
            assert snap.match is first.match, "a press made a copy of the match"
            state = snap.state
            assert state is not None and state.turn is not None
            holder = snap.seats[state.turn]
            change = await service.act(table, 1, holder.player_id, "call.P", snap.actions)
            snap = change.snapshot
        assert snap.deal_no == 2 and snap.match is not None
        assert snap.match is not first.match  # the deal's end wrote on the match
        assert first.match.summary() == recorded  # and the older snapshot kept what it showed
        again = await service.snapshot(table)
        assert again.match is snap.match
        stopped = await service.end_by_admin(table)
        assert stopped.snapshot.match is not snap.match
    finally:
        await storage.close()
