"""A real PostgreSQL server for the tests: ``initdb`` and ``pg_ctl`` into a temporary folder, on
a loopback port, as an unprivileged user (PostgreSQL refuses to run as root), stopped at the end.

The Debian binaries are found under /usr/lib/postgresql/*/bin or on PATH. Without them the
PostgreSQL tests are skipped on a developer's machine and fail in CI (``CI`` set), where
``.ci/run`` installs them.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

USER = "bot"


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    folder: Path
    port: int
    bindir: Path
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def admin_url(self) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL: each test starts from nothing."""
        name = f"t{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def psql(self, sql: str, database: str = "postgres") -> str:
        out = subprocess.run(
            [str(self.bindir / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", USER,
             "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        return out.stdout

    def stop(self) -> None:
        _run([str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "immediate",
              "stop"], check=False)  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def _as_owner() -> dict[str, Any]:
    """PostgreSQL will not run as root: as root, run it as ``nobody``."""
    if os.geteuid() != 0:
        return {}
    nobody = pwd.getpwnam("nobody")
    return {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}


def _run(args: list[str], check: bool = True) -> None:
    subprocess.run(
        args, check=check, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **_as_owner()
    )


def start_server(settings: str = "") -> PgServer:
    """A PostgreSQL server of its own (``settings``: more ``-c name=value`` options)."""
    bindir = _bindir()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL's binaries (initdb, pg_ctl) are missing: .ci/run installs them")
        pytest.skip("PostgreSQL's binaries (initdb, pg_ctl) are not installed")
    folder = Path(tempfile.mkdtemp(prefix="bridge-pg-"))
    owner = _as_owner()
    if owner:
        os.chown(folder, owner["user"], owner["group"])
    port = _free_port()
    data = folder / "data"
    _run([str(bindir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
          "--locale=C.UTF-8", "-N"])  # fmt: skip
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=300 "
        f"-c shared_buffers=64MB {settings}"
    )
    _run([str(bindir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-o",
          options, "start"])  # fmt: skip
    return PgServer(folder, port, bindir)


@contextlib.contextmanager
def server(settings: str = "") -> Iterator[PgServer]:
    started = start_server(settings)
    try:
        yield started
    finally:
        started.stop()
