"""Child process for the crash test: appends events forever, printing each acknowledged seq."""

from __future__ import annotations

import asyncio
import contextlib
import sys

from storage.interface import ConflictError, TableSettings
from storage.sqlite import SqliteStorage


async def main(path: str) -> None:
    store = await SqliteStorage.open(path)
    chat = await store.ensure_chat(-1)
    table = await store.table_in(chat.id, None) or await store.create_table(
        chat.id, None, TableSettings(), game="bridge"
    )
    events = await store.events(table.id, 1)
    if not events:
        with contextlib.suppress(ConflictError):
            await store.start_deal(table.id, 1, {"dealer": "N", "pbn": "-"}, None)
        events = await store.events(table.id, 1)
    seq = events[-1].seq
    while True:
        seq += 1
        await store.append_event(table.id, 1, seq, "note", {"n": seq, "pad": "x" * 200}, None)
        print(seq, flush=True)  # acknowledged: committed before this line is written


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
