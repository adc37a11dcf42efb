"""Fixtures every test folder may use: a real PostgreSQL server, started once per test run; the
tests' sizes and Hypothesis profiles (``tests.sizes``), loaded before any test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import tests.sizes  # noqa: F401  (loads the Hypothesis profile before any test is collected)
from tests.pg import PgServer, server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every Hypothesis test is sized by its profile: a soak, run again at full size in CI."""
    for item in items:
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker(pytest.mark.soak)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "soak: sized by SOAK=1 (tests.sizes); CI runs these again at full size"
    )


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    with server() as started:
        yield started


@pytest.fixture
def pg_url(pg: PgServer) -> str:
    """A fresh, empty database on the test server."""
    return pg.new_database()
