"""Each player's statistics from the deals' reviews (#32): summed per player and game over all
time and over the last 30 days, robots apart. Pure: the rows come from storage."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from games.core.review import DealReview, SeatStats
from storage.interface import PlayerDeal, Storage

RECENT_DAYS = 30
ROBOTS = 0  # the key robots are summed under (no player has id 0)


@dataclass(frozen=True, slots=True)
class Line:
    """One player's (or all robots') statistics in one game."""

    game: str
    player_id: int  # ROBOTS for the robots together
    all_time: SeatStats
    recent: SeatStats


def recent_since(today: datetime.date) -> str:
    return (today - datetime.timedelta(days=RECENT_DAYS - 1)).isoformat()


def summarize(rows: Iterable[PlayerDeal], since: str) -> list[Line]:
    """Lines per game and player, most deals first; ``since``: the first day counted recent."""
    totals: dict[tuple[str, int], tuple[SeatStats, SeatStats]] = {}
    for row in rows:
        key = (row.game, ROBOTS if row.robot else row.player_id)
        stats = SeatStats.from_payload(row.stats)
        all_time, recent = totals.get(key, (SeatStats(), SeatStats()))
        totals[key] = (all_time + stats, recent + stats if row.day >= since else recent)
    lines = [Line(game, pid, a, r) for (game, pid), (a, r) in totals.items()]
    return sorted(
        lines, key=lambda line: (line.game, line.player_id == ROBOTS, -line.all_time.deals)
    )


def weekly(rows: Iterable[PlayerDeal]) -> Mapping[int, list[tuple[str, SeatStats]]]:
    """Each person's counts week by week (Monday's date), for the chart; robots left out."""
    weeks: dict[int, dict[str, SeatStats]] = {}
    for row in rows:
        if row.robot:
            continue
        day = datetime.date.fromisoformat(row.day)
        monday = (day - datetime.timedelta(days=day.weekday())).isoformat()
        found = weeks.setdefault(row.player_id, {})
        found[monday] = found.get(monday, SeatStats()) + SeatStats.from_payload(row.stats)
    return {pid: sorted(found.items()) for pid, found in weeks.items()}


@dataclass(frozen=True, slots=True)
class Report:
    lines: list[Line]
    names: Mapping[int, str]
    weeks: Mapping[int, list[tuple[str, SeatStats]]]


class StatsService:
    """What ``/stats`` and the costly-card button read: reviews, never the live tables."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def report(
        self, today: datetime.date, chat_id: int | None = None, player_id: int | None = None
    ) -> Report:
        """A group's (every player's) or one player's statistics (in a group, or anywhere)."""
        rows = await self.storage.player_deals(chat_id, player_id)
        names = {}
        for pid in sorted({row.player_id for row in rows if not row.robot}):
            names[pid] = (await self.storage.get_player(pid)).name
        return Report(summarize(rows, recent_since(today)), names, weekly(rows))

    async def costly(self, table_id: int, deal_no: int) -> tuple[DealReview | None, dict[int, str]]:
        """A finished deal's review (None until the reviewer has reached it) and the names of
        who held each seat in it."""
        found = await self.storage.review_of(table_id, deal_no)
        if found is None:
            return None, {}
        names = {}
        for seat, pid in found.get("holders", {}).items():
            names[int(seat)] = (await self.storage.get_player(int(pid))).name
        return DealReview.from_payload(found), names
