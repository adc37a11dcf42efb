"""Fixtures every test folder may use: a real PostgreSQL server, started once per test run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pg import PgServer, server


@pytest.fixture(scope="session")
def pg() -> Iterator[PgServer]:
    with server() as started:
        yield started


@pytest.fixture
def pg_url(pg: PgServer) -> str:
    """A fresh, empty database on the test server."""
    return pg.new_database()
