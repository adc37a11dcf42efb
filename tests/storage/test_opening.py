"""Opening the database: every way it can be unusable is said at start, in one clear error,
and one bot process owns the file however it is reached."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from storage.interface import DatabaseLocked, StorageError, TableSettings
from storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]


async def test_the_same_file_through_a_symlink_or_a_hard_link_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bridge.sqlite3"
    first = await SqliteStorage.open(str(path))
    (tmp_path / "alias.sqlite3").symlink_to(path)
    os.link(path, tmp_path / "hard.sqlite3")
    for other in ("alias.sqlite3", "hard.sqlite3"):
        with pytest.raises(DatabaseLocked):
            await SqliteStorage.open(str(tmp_path / other))
    await first.close()
    again = await SqliteStorage.open(str(tmp_path / "hard.sqlite3"))
    await again.close()


async def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match=r"folder .* does not exist"):
        await SqliteStorage.open(str(tmp_path / "no" / "such" / "bridge.sqlite3"))


async def test_a_damaged_database_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "bridge.sqlite3"
    store = await SqliteStorage.open(str(path))
    chat = await store.ensure_chat(-1, "Club")
    for _ in range(300):
        await store.create_table(chat.id, None, TableSettings(), game="bridge")
    await store.close()
    size = path.stat().st_size
    assert size >= 8 * 4096
    for page in (size // 4096 - 1, size // 2 // 4096):  # a data page, then a schema page
        with open(path, "r+b") as handle:
            handle.seek(page * 4096)
            handle.write(b"\xa5" * 4096)
        with pytest.raises(StorageError, match="is damaged"):
            await SqliteStorage.open(str(path))


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder an unprivileged user can reach (pytest's own tmp folders are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="bridge-ro-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database_is_refused_at_start(shared_dir: Path, what: str) -> None:
    """Root writes any file, so the check runs as an unprivileged user where we are root."""
    path = shared_dir / "bridge.sqlite3"
    prepare = f"""
import asyncio
from storage.sqlite import SqliteStorage
async def main():
    s = await SqliteStorage.open({str(path)!r})
    await s.close()
asyncio.run(main())
"""
    subprocess.run([sys.executable, "-c", prepare], cwd=ROOT, check=True, timeout=60)
    for name in os.listdir(shared_dir):
        os.chmod(shared_dir / name, 0o644)
    if what == "file":
        path.chmod(0o444)
    else:
        shared_dir.chmod(0o555)
    attempt = f"""
import asyncio, os
from storage.interface import StorageError
from storage.sqlite import SqliteStorage
if os.geteuid() == 0:  # after the imports: root's own Python is not readable by nobody
    os.setgid(65534)
    os.setuid(65534)
async def main():
    try:
        s = await SqliteStorage.open({str(path)!r})
    except StorageError as exc:
        print("refused:", exc)
        return
    await s.close()
    print("opened")
asyncio.run(main())
"""
    try:
        done = subprocess.run(
            [sys.executable, "-c", attempt],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        shared_dir.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused:"), done.stdout + done.stderr
    assert "Traceback" not in done.stderr
