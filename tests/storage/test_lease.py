"""The active process's lease on a real PostgreSQL server: one holder at a time; a holder that
stops renewing (frozen) loses it when it expires, one whose connection is gone (dead) at once;
every write of a fenced storage checks the lease, so a holder that lost it writes nothing, and
its next renewal says so."""

from __future__ import annotations

import asyncio
import contextlib
import time

import asyncpg
import pytest

from storage.interface import LeaseLost, TableSettings
from storage.postgres import IDLE_WRITE_MS, PostgresStorage
from storage.postgres.lease import ActiveLock


async def _expire(url: str) -> None:
    """What a frozen holder's silence does to its lease, without waiting for it."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("UPDATE bot_lease SET expires_at = now() - interval '1 second'")
    finally:
        await conn.close()


async def test_a_lease_lost_while_frozen_fences_every_write(pg_url: str) -> None:
    first, second = ActiveLock(pg_url, ttl=30), ActiveLock(pg_url, ttl=30)
    store = await PostgresStorage.open(pg_url)
    try:
        assert await first.try_take()
        assert not await second.try_take()  # held, renewed, alive: not to be taken
        assert first.valid() and first.epoch == 1
        store.fence = first.fence
        chat = await store.ensure_chat(-1, "Club", "ru")
        table = await store.create_table(chat.id, None, TableSettings(), game="bridge")
        await store.start_deal(table.id, 1, {"pbn": "x"}, None)
        await store.append_event(table.id, 1, 1, "call", {"seat": "N", "call": "P"}, None)
        await first.renew(5)
        # Frozen past its lease: the standby takes it, with the next fencing number.
        await _expire(pg_url)
        assert await second.try_take() and second.epoch == 2
        with pytest.raises(LeaseLost):
            await store.append_event(table.id, 1, 2, "call", {"seat": "E", "call": "P"}, None)
        with pytest.raises(LeaseLost):
            await store.ensure_chat(-2, "Another", "ru")
        assert [e.seq for e in await store.events(table.id, 1)] == [0, 1]  # nothing more
        with pytest.raises(LeaseLost):
            await first.renew(5)
        assert not first.valid()
        # The new holder's fence lets its writes through.
        store.fence = second.fence
        await store.append_event(table.id, 1, 2, "call", {"seat": "E", "call": "P"}, None)
    finally:
        await store.close()
        await first.close()
        await second.close()


async def test_a_dead_holders_lease_is_taken_at_once(pg_url: str) -> None:
    first, second = ActiveLock(pg_url, ttl=60), ActiveLock(pg_url, ttl=60)
    try:
        assert await first.try_take()
        assert not await second.try_take()
        conn = await asyncpg.connect(pg_url)
        try:  # the holder's session ends (SIGKILL closes its connection)
            backend = await conn.fetchval("SELECT backend FROM bot_lease")
            await conn.execute("SELECT pg_terminate_backend($1)", backend)
        finally:
            await conn.close()
        assert await second.try_take() and second.epoch == 2  # not 60 s later: now
    finally:
        await first.close()
        await second.close()


async def test_a_holder_frozen_inside_a_write_does_not_keep_the_standby_out(pg_url: str) -> None:
    """A write transaction holds a share lock on the lease row, and taking the lease waits for
    it. A holder frozen (SIGSTOP) between its fence check and its commit would keep the
    standby waiting as long as it stayed frozen; the server ends the idle transaction after
    ``IDLE_WRITE_MS`` and the standby takes over."""
    first, second = ActiveLock(pg_url, ttl=1), ActiveLock(pg_url, ttl=30)
    store = await PostgresStorage.open(pg_url)
    entered = asyncio.Event()

    async def frozen_write() -> None:
        async with store._tx() as tx:
            await tx.execute("SELECT 1")
            entered.set()
            await asyncio.sleep(60)  # frozen: the transaction is open, its client silent

    try:
        assert await first.try_take()
        store.fence = first.fence
        writer = asyncio.create_task(frozen_write())
        await asyncio.wait_for(entered.wait(), 10)
        started = time.monotonic()
        await asyncio.sleep(1.2)  # its lease expires: it renews nothing while frozen
        while not await asyncio.wait_for(second.try_take(), IDLE_WRITE_MS / 1000 + 10):
            await asyncio.sleep(0.2)
        took = time.monotonic() - started
        assert took < IDLE_WRITE_MS / 1000 + 3, took  # not the minute it stays frozen
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
    finally:
        await store.close()
        await first.close()
        await second.close()
