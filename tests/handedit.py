"""A change to a bot's SQLite file made by hand, as someone editing the file would: past the
append-only guard of the events, which is put back after."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any


def edit_events(con: sqlite3.Connection, sql: str, args: Sequence[Any]) -> None:
    """Runs ``sql`` (an UPDATE of ``events``) with the table's triggers lifted meanwhile."""
    guards = con.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"
    ).fetchall()
    for name, _ in guards:
        con.execute(f"DROP TRIGGER {name}")
    con.execute(sql, args)
    for _, trigger in guards:
        con.execute(trigger)
