from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot.harness import Harness
from tests.fakeapi import FakeBotApi


@pytest.fixture
async def api() -> AsyncIterator[FakeBotApi]:
    fake = FakeBotApi()
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
async def h(api: FakeBotApi, tmp_path: Path) -> AsyncIterator[Harness]:
    harness = Harness(api, str(tmp_path / "bot.sqlite3"))
    await harness.start()
    yield harness
    if harness.app is not None:
        await harness.stop()
