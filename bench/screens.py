"""What drawing a press's screens costs (issue #48), in this process, without HTTP or timing
noise from the players: one bridge table is opened and seated through the real table service
(SQLite in a temporary file, four people with Russian names, the table's language Russian), and
the presenter draws it at a fixed set of positions, as many presses of random deals reach them
(seeded: the same positions every run, so two versions of the code can be compared).

    python -m bench.screens [--deals 40] [--repeat 5] [--seed 1]

For each position it times what a press draws at once (``Presenter._draw``: the prompt of the
player on turn, and the rest wanted undrawn), then what the outbox draws when those go (the
waiting screens and the group's table). Prints microseconds a position, the best of
``--repeat`` rounds (the round least disturbed by the rest of the machine); asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import tempfile
import time
from pathlib import Path

from telegram import Bot

from bot import i18n
from bot.outbox import Outbox
from bot.plugin import Plugins
from bot.plugins import PLUGINS
from bot.presenter import Presenter
from bot.screens import Drawing, Kept
from bot.tables import Change, Snapshot, TableService
from bot.views import memo
from games.bridge.cards import Deal, Seat
from games.bridge.deal import DealState, MakeCall, PlayCard
from games.bridge.game import BridgeState
from storage.sqlite import SqliteStorage

TOKEN = "123456:" + "A" * 35
NAMES = ("Анна Петрова", "Борис", "Светлана Ивановна", "Дмитрий 🃏")


def positions(deals: int, seed: int) -> list[DealState]:
    """Every position a player must act at, in ``deals`` random deals: calls (a pass six
    times in ten, as ``bench.load``'s players) and cards, to the end."""
    rng = random.Random(seed)
    found = []
    for _ in range(deals):
        state = DealState.new(Deal.shuffled(Seat(rng.randrange(4)), rng.randrange))
        while state.result is None:
            actor = state.actor
            assert actor is not None
            calls = state.legal_calls(actor)
            if calls:
                call = calls[0] if rng.random() < 0.6 else rng.choice(calls)
                state = state.apply(MakeCall(actor, call))
            else:
                card = rng.choice(sorted(state.legal_cards(actor)))
                state = state.apply(PlayCard(actor, card))
            if state.actor is not None:
                found.append(state)
    return found


async def seated_table(storage: SqliteStorage) -> Snapshot:
    service = TableService(storage, random.Random(7).randrange)
    change, _ = await service.open_table(-100_500, "Клуб «Пятница»", None, "ru", "bridge")
    for i, seat in enumerate(Seat):
        player = await service.player(1000 + i, NAMES[i], "ru")
        change = await service.sit(change.snapshot.table_id, player, seat)
    return change.snapshot


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        storage = await SqliteStorage.open(str(Path(tmp) / "screens.sqlite3"))
        outbox = Outbox(Bot(TOKEN), storage)
        try:
            seated = await seated_table(storage)
            presenter = Presenter(outbox, "bridge_test_bot", Plugins(PLUGINS))
            states = positions(args.deals, args.seed)
            auction = sum(1 for s in states if s.play is None)

            def fresh() -> list[Snapshot]:
                """The positions as new states, as each press makes one: a state keeps what
                was worked out from it (``DealState._memo``), a new one starts without."""
                return [
                    # A later deal of the match: the first deal's presses also ask for the
                    # seating message it started from (drawn as it goes).
                    dataclasses.replace(
                        seated,
                        state=BridgeState(dataclasses.replace(s)),
                        actions=len(s.history),
                        dealer_drawn=False,
                    )
                    for s in states
                ]

            at_once = later = float("inf")
            for _ in range(args.repeat):
                snaps = fresh()
                memo.forget()  # and nothing drawn from them kept (``bot.views.memo``),
                i18n.forget()  # nor any word or message (``bot.i18n.from_words``)
                start = time.perf_counter()
                drawings: list[Drawing] = []
                for snap in snaps:
                    drawing = Drawing("bridge_test_bot", lambda table_id, key: False)
                    presenter._draw(drawing, Change(snap))
                    drawings.append(drawing)
                middle = time.perf_counter()
                for drawing in drawings:
                    for shown in drawing.shown:
                        if isinstance(shown, Kept) and callable(shown.content):
                            shown.content()
                end = time.perf_counter()
                at_once, later = min(at_once, middle - start), min(later, end - middle)
            n = len(snaps)
            print(
                f"{n} positions ({auction} in the auction), best of {args.repeat}: "
                f"a press draws {1e6 * at_once / n:.0f} µs at once; "
                f"its screens drawn as they go {1e6 * later / n:.0f} µs "
                f"(three waiting screens and the table); "
                f"{1e6 * (at_once + later) / n:.0f} µs in all"
            )
        finally:
            await outbox.close()
            await storage.close()


if __name__ == "__main__":
    asyncio.run(main())
