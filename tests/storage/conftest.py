from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage.sqlite import SqliteStorage


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "bridge.sqlite3")


@pytest.fixture
async def store(db_path: str) -> AsyncIterator[SqliteStorage]:
    storage = await SqliteStorage.open(db_path)
    yield storage
    await storage.close()
