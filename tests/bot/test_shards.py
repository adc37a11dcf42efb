"""Several active processes (``SHARDS``): two real bot processes on one PostgreSQL database share
the groups; one polls and hands the other's updates on through the database. Either one is
SIGKILLed at random moments of a deal (between presses, with a press in flight, with a press
written and its answer on the way): the survivor takes the dead one's groups (and the polling)
within seconds, restores their tables and play goes on; a fresh process then takes its share
back. At the end the event log is one history: every press answered as done is in it once, at
the position its button named, nothing is in it that nobody pressed, and it replays legally."""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg
import pytest

from bot.config import Config, ConfigError
from storage.postgres import PostgresStorage
from storage.postgres.shards import shard_of
from tests.bot.driver import Driver
from tests.bot.harness import PLAYERS
from tests.bot.processes import BotProcess
from tests.bot.test_failover import (
    GUESTS,
    Press,
    Remote,
    one_history,
    play_on,
    press_then,
    second_guest_joins,
    settled,
    sit,
)
from tests.fakeapi import FakeBotApi
from tests.sizes import size

SHARDS = 16
# The table played at is in the second half of the shards (the one a newcomer takes); the other
# group in the first half (the one the first process keeps).
PLAYED, OTHER = -1001, -100
EXTRA = {"SHARDS": str(SHARDS)}


def test_shards_need_postgres_and_polling() -> None:
    base = {"BOT_TOKEN": "1:x", "SHARDS": "8"}
    with pytest.raises(ConfigError, match="PostgreSQL"):
        Config.from_env({**base, "DATABASE_PATH": "x.sqlite3"})
    with pytest.raises(ConfigError, match="long polling"):
        Config.from_env(
            {**base, "DATABASE_URL": "postgresql://u@h/db", "WEBHOOK_URL": "https://x/y"}
        )
    assert Config.from_env({**base, "DATABASE_URL": "postgresql://u@h/db"}).shards == 8
    assert (
        Config.from_env({**base, "DATABASE_URL": "postgresql://u@h/db", "SHARDS": "1"}).shards == 0
    )


async def _holders(pg_url: str) -> dict[int, str]:
    conn = await asyncpg.connect(pg_url)
    try:
        rows = await conn.fetch("SELECT shard, holder FROM bot_shard")
    finally:
        await conn.close()
    return {int(r["shard"]): r["holder"] for r in rows}


async def _shared(pg_url: str, seconds: float = 60.0) -> dict[int, str]:
    """Until every shard is held and two processes hold half each (letting go waits for the
    groups' work in hand and their sends, up to ``QUIET_S`` each: slow on a loaded machine)."""
    deadline = time.monotonic() + seconds
    while True:
        held = await _holders(pg_url)
        counts: dict[str, int] = {}
        for holder in held.values():
            if holder is not None:
                counts[holder] = counts.get(holder, 0) + 1
        if sorted(counts.values()) == [SHARDS // 2, SHARDS // 2]:
            return held
        assert time.monotonic() < deadline, held
        await asyncio.sleep(0.1)


def _member(process: BotProcess) -> str:
    line = next(line for line in process.lines if "shards: member " in line)
    return line.split("shards: member ")[1].split()[0]


async def test_two_active_processes_share_the_groups_and_either_may_die_mid_deal(
    api: FakeBotApi, pg_url: str
) -> None:
    await _kill_either(api, pg_url, 2)


@pytest.mark.soak
async def test_twelve_kills_of_either_active_process_lose_nothing_and_apply_nothing_twice(
    api: FakeBotApi, pg_url: str
) -> None:
    await _kill_either(api, pg_url, size(12, 2))


async def _kill_either(api: FakeBotApi, pg_url: str, kills: int) -> None:
    assert shard_of(PLAYED, SHARDS) >= SHARDS // 2 > shard_of(OTHER, SHARDS)
    rng = random.Random(20261205)
    remote = Remote(api)
    first = await BotProcess.start(api, pg_url, "bot-0", EXTRA)
    await first.until("ready")
    second = await BotProcess.start(api, pg_url, "bot-1", EXTRA)
    await second.until("ready")
    processes = [first, second]
    held = await _shared(pg_url)
    # The first keeps the first half (and polls); the newcomer serves the second half, its
    # updates handed on through the database.
    assert held[shard_of(OTHER, SHARDS)] == _member(first)
    assert held[shard_of(PLAYED, SHARDS)] == _member(second)
    driver = Driver(remote, PLAYERS, rng, chat=PLAYED)  # type: ignore[arg-type]
    presses: list[Press] = []
    takeovers: list[float] = []
    try:
        await remote.say(PLAYERS[0], PLAYED, "/bridge")
        for user, seat in zip(PLAYERS, "NESW", strict=True):
            await sit(remote, user, seat, PLAYED)
        # A table waiting for players in the other group: served by the poller itself.
        await remote.say(GUESTS[0], OTHER, "/bridge")
        await sit(remote, GUESTS[0], "N", OTHER)
        for kill in range(kills):
            mode = ("between", "in flight", "answering")[kill % 3]
            query, message, data = await press_then(api, driver, rng, mode, 5, presses, 0.05)
            # Even rounds: the one serving the played table (not the poller); odd: the poller.
            held = await _holders(pg_url)
            server = held[shard_of(PLAYED, SHARDS)]
            alive = [p for p in processes if p.process.returncode is None]
            serving = next(p for p in alive if _member(p) == server)
            victim = serving if kill % 2 == 0 else next(p for p in alive if p is not serving)
            survivor = next(p for p in alive if p is not victim)
            killed_at = time.monotonic()
            victim.kill()
            await victim.process.wait()
            api.release("answerCallbackQuery")
            # The survivor holds every shard, then a newcomer takes half back.
            while set((await _holders(pg_url)).values()) != {_member(survivor)}:
                assert time.monotonic() - killed_at < 30, await _holders(pg_url)
                await asyncio.sleep(0.05)
            takeovers.append(time.monotonic() - killed_at)
            newcomer = await BotProcess.start(api, pg_url, f"bot-{kill + 2}", EXTRA)
            processes.append(newcomer)
            await newcomer.until("ready")
            await _shared(pg_url)
            await remote.quiet()
            await settled(api, query, message, data)
        # The other group's table came through every change of hands: a guest joins it now.
        await second_guest_joins(remote, OTHER)
        await play_on(api, driver, 6, presses)
    except BaseException:
        for process in processes:
            print(f"--- {process.name}:", "".join(process.lines[-60:]))
        raise
    finally:
        for process in processes:
            if process.process.returncode is None:
                await process.stop()
    print(f"takeover seconds: max {max(takeovers):.2f}, all {[round(t, 2) for t in takeovers]}")
    assert max(takeovers) < 8.0, takeovers
    # The poller handed updates on, and the others handled them from the inbox.
    assert any("handed on" in line for p in processes for line in p.lines)

    store = await PostgresStorage.open(pg_url)
    try:
        chat = await store.chat_by_tg(PLAYED)
        assert chat is not None
        table = next(t for t in await store.tables_in_chat(chat.id) if t.status.value != "closed")
    finally:
        await store.close()
    await one_history(api, pg_url, table.id, presses, kills)
