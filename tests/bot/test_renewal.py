"""Renewing on a thread of its own (``bot.renewal``), on a real PostgreSQL server: a process whose
event loop is busy for longer than its lease lasts keeps the lease (at saturation the loop's
queue is seconds long), while one whose loop is stuck past ``HUNG_S`` loses it; and several
members' shards and fences hold the same way."""

from __future__ import annotations

import asyncio
import time

import pytest

import bot.renewal
from bot.renewal import Renewal
from bot.standby import Lease
from storage.interface import LeaseLost, TableSettings
from storage.postgres import PostgresStorage
from storage.postgres.lease import ActiveLock
from storage.postgres.schema import MEMBER_FENCE
from storage.postgres.shards import ShardLock, ShardsDiffer


async def test_a_busy_loop_keeps_its_lease(pg_url: str) -> None:
    lease = Lease(pg_url, 0.5)  # the lease lasts 2 s, renewed every 0.5 s
    other = ActiveLock(pg_url, ttl=2)
    await lease.acquire()
    try:
        time.sleep(3.5)  # the loop runs nothing for longer than the lease lasts
        assert lease.may_call()
        assert not await other.try_take()
    finally:
        await lease.release()
        await other.close()
    assert await ActiveLock(pg_url, ttl=2).try_take()  # let go at the release


async def test_a_stuck_loop_stops_renewing(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.renewal, "HUNG_S", 1.0)
    renewed: list[float] = []
    lost: list[BaseException] = []

    async def renew(conn: object) -> None:
        assert await conn.fetchval("SELECT 1") == 1  # type: ignore[attr-defined]
        renewed.append(time.monotonic())

    renewal = Renewal(pg_url, 0.1, renew, lost.append)
    renewal.start()
    try:
        await asyncio.sleep(0.5)
        assert len(renewed) >= 2 and not lost
        time.sleep(1.6)  # stuck past HUNG_S
        await asyncio.sleep(0.3)
        assert lost and isinstance(lost[0], TimeoutError), lost
        count = len(renewed)
        await asyncio.sleep(0.3)
        assert len(renewed) == count  # no renewal after it was found stuck
    finally:
        await asyncio.to_thread(renewal.stop)


async def test_members_share_the_shards_and_a_gone_member_writes_nothing(pg_url: str) -> None:
    first, second = ShardLock(pg_url, 8, ttl=30), ShardLock(pg_url, 8, ttl=30)
    store = await PostgresStorage.open(pg_url)
    try:
        await first.join()
        assert (await first.balance()) == (list(range(8)), [])
        await second.join()
        assert (await second.balance()) == ([], [])  # nothing free yet
        taken, extra = await first.balance()
        assert taken == [] and extra == [4, 5, 6, 7]  # beyond its share, another has less
        await first.release(extra)
        assert (await second.balance()) == ([4, 5, 6, 7], [])
        assert (await first.balance()) == ([], [])
        store.fence_sql, store.fence = MEMBER_FENCE, first.fence
        chat = await store.ensure_chat(-1, "Club", "ru")
        await store.create_table(chat.id, None, TableSettings(), game="bridge")
        # The first is seen gone (its row expired): the second takes its shards, and the
        # first's writes and renewals are refused.
        conn = first._conn
        await conn.execute(
            "UPDATE bot_member SET expires_at = now() - interval '1 second' WHERE holder = $1",
            first.holder,
        )
        assert (await second.balance())[0] == [0, 1, 2, 3]
        with pytest.raises(LeaseLost):
            await store.ensure_chat(-2, "Other", "ru")
        with pytest.raises(LeaseLost):
            await first.renew(5)
        # Updates handed on: in order, to the shard's holder, gone once handled.
        await first.hand_on([(5, '{"n": 1}'), (2, '{"n": 2}'), (5, '{"n": 3}')])
        rows = await second.inbox([5])
        assert [body for _, _, body in rows] == ['{"n": 1}', '{"n": 3}']
        await second.handled([rows[0][0]])
        assert [body for _, _, body in await second.inbox([2, 5])] == ['{"n": 2}', '{"n": 3}']
    finally:
        await store.close()
        await first.close()
        await second.close()


async def test_a_process_with_another_number_of_shards_is_refused_while_others_run(
    pg_url: str,
) -> None:
    first = ShardLock(pg_url, 8, ttl=30)
    await first.join()
    try:
        with pytest.raises(ShardsDiffer, match="SHARDS=4"):
            await ShardLock(pg_url, 4, ttl=30).join()
    finally:
        await first.close()
    again = ShardLock(pg_url, 4, ttl=30)  # nobody running: the database is reshaped
    await again.join()
    try:
        assert (await again.balance()) == ([0, 1, 2, 3], [])
    finally:
        await again.close()
