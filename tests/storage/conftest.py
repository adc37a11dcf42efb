from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from storage.sql.base import SqlStore
from storage.sqlite import SqliteStorage
from tests.pg import PgServer

BACKENDS = ["sqlite", "postgres"]
Opener = Callable[[], Awaitable[SqlStore]]


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "bridge.sqlite3")


@pytest.fixture(params=BACKENDS)
def opener(request: pytest.FixtureRequest, db_path: str) -> Opener:
    """Opens one more storage on one database of the backend under test (several may be
    open at once, as several processes would be)."""
    if request.param == "sqlite":

        async def sqlite() -> SqlStore:
            return await SqliteStorage.open(db_path, exclusive=False)

        return sqlite
    from storage.postgres import PostgresStorage

    server: PgServer = request.getfixturevalue("pg")
    url = server.new_database()

    async def postgres() -> SqlStore:
        return await PostgresStorage.open(url)

    return postgres


@pytest.fixture
async def store(opener: Opener) -> AsyncIterator[SqlStore]:
    storage = await opener()
    yield storage
    await storage.close()
