"""What operators run as documented: the Dockerfile passes hadolint, `.env.example` lists every
setting and does not override the image's database path, the README's Docker command restarts
the bot and keeps its data on the volume."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_dockerfile_passes_hadolint() -> None:
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    result = subprocess.run(
        [hadolint, "--no-color", str(ROOT / "Dockerfile")], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_env_example_lists_every_setting_and_leaves_the_database_to_the_image() -> None:
    example = (ROOT / ".env.example").read_text()
    config = (ROOT / "bot" / "config.py").read_text()
    names = set(re.findall(r'source\.get\("([A-Z_]+)"', config))
    assert names and all(re.search(rf"^#? ?{name}=", example, re.M) for name in names), names
    assert not re.search(r"^BRIDGE_DB=", example, re.M)  # it would override /data in Docker
    assert "BRIDGE_DB=/data/" in (ROOT / "Dockerfile").read_text()


def test_the_readme_docker_command_restarts_and_keeps_data() -> None:
    readme = (ROOT / "README.md").read_text()
    [command] = [line for line in readme.splitlines() if line.startswith("docker build")]
    assert "--restart unless-stopped" in command
    assert "--env-file .env" in command and "-v bridge-data:/data" in command
    assert "../shared" not in readme  # no link that leaves the repository
