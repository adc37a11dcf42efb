"""A database written by the release before groups' own games (tests/storage/data/
release-5.sqlite3, made by make_release_5.py at 1aaf4d5) replays and settles as it did: each
finished match, rebuilt by today's rules from its deals' logs (a rubber online, a rubber kept
by hand, a pulka), comes to the result and the ledger entries the old release wrote."""

from __future__ import annotations

import shutil
from pathlib import Path

from games.bridge.game import BridgeState, RubberMatch, outcome
from games.core.registry import find_game
from games.preferans.deal import DealState
from games.preferans.game import PulkaMatch, write
from storage.events import replay
from storage.sqlite import SqliteStorage

FIXTURE = Path(__file__).parent / "data" / "release-5.sqlite3"


async def test_a_release_5_database_replays_and_settles_as_before(tmp_path: Path) -> None:
    path = tmp_path / "release-5.sqlite3"
    shutil.copy(FIXTURE, path)
    store = await SqliteStorage.open(str(path))
    try:
        seen = set()
        for chat_id in (1, 2, 3):
            for match in await store.matches(chat_id):
                assert match.result is not None and match.finished_at is not None
                seen.add(match.game)
                ledger = {
                    r.player_id: r.points
                    for r in await store.ledger(chat_id)
                    if r.kind == "match" and r.match_id == match.id
                }
                table = await store.get_table(match.table_id)
                if table.scorekeeper:  # each entry a deal of one event, undos included
                    kept = RubberMatch(match.options)
                    for deal in await store.deals(match.id):
                        for event in await store.events(table.id, deal.deal_no):
                            if event.payload.get("undo"):
                                kept.rubber.undo_last()
                            else:
                                kept.record(event.payload)
                    winner, points = kept.rubber.result()
                    assert {"winner": str(winner), "points": points} == dict(match.result)
                    continue
                game = find_game(match.game)
                if match.game == "bridge":
                    rubber = RubberMatch(match.options)
                    for deal in await store.deals(match.id):
                        state = replay(game, 4, await store.events(table.id, deal.deal_no))
                        if deal.result is not None:
                            assert isinstance(state, BridgeState)
                            rubber.record(outcome(state.deal))
                    winner, points = rubber.rubber.result()
                    assert dict(match.result) == {"winner": str(winner), "points": points}
                    sides = {s: ("NS" if s in (0, 2) else "EW") for s in range(4)}
                    assert ledger == {
                        pid: points if sides[s] == str(winner) else -points
                        for s, pid in match.seats.items()
                    }
                else:
                    pulka = PulkaMatch(3, match.options)
                    for deal in await store.deals(match.id):
                        state = replay(game, 3, await store.events(table.id, deal.deal_no))
                        assert isinstance(state, DealState)
                        if deal.result is not None and state.result is not None:
                            write(pulka.pulka, state.result, state.deal.dealer)
                    whole = pulka.pulka.whole()
                    assert list(match.result["whole"]) == whole
                    assert ledger == {pid: whole[s] for s, pid in match.seats.items()}
        assert seen == {"bridge", "preferans"}
    finally:
        await store.close()
