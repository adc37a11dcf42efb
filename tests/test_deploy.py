"""What operators run as documented: the Dockerfile passes hadolint, `.env.example` lists every
setting and does not override the image's database path, the README's Docker command restarts
the bot and keeps its data on the volume."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import yaml

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
    [command] = [line.strip() for line in readme.splitlines() if "docker build" in line]
    assert "--restart unless-stopped" in command
    assert "--env-file .env" in command and "-v bridge-data:/data" in command
    assert "../shared" not in readme  # no link that leaves the repository


def test_the_compose_file_runs_a_bot_and_its_standby_on_its_postgres() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    postgres, bot, standby = services["postgres"], services["bot"], services["standby"]
    # The same image and settings, either may be the active one; the image is built once.
    assert {k: v for k, v in bot.items() if k != "build"} == {
        k: v for k, v in standby.items() if k != "pull_policy"
    }
    assert bot["build"] == "." and "build" not in standby and standby["pull_policy"] == "never"
    assert bot["image"] == standby["image"] and bot["env_file"] == ".env"
    assert bot["restart"] == postgres["restart"] == "unless-stopped"
    assert bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    env = postgres["environment"]
    url = urlsplit(bot["environment"]["DATABASE_URL"])
    assert url.scheme == "postgresql" and url.hostname == "postgres" and url.port == 5432
    assert url.username == env["POSTGRES_USER"] and url.path == "/" + env["POSTGRES_DB"]
    assert (
        url.password == "${POSTGRES_PASSWORD}" and "POSTGRES_PASSWORD" in env["POSTGRES_PASSWORD"]
    )
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    assert any(v.endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    example = (ROOT / ".env.example").read_text()
    assert re.search(r"^# POSTGRES_PASSWORD=", example, re.M)
    assert not re.search(r"^DATABASE_URL=", example, re.M)  # compose.yaml's would be overridden
    # the pages and headings its comments name are there
    named = re.findall(r'\((docs/[a-z-]+\.md), "([^"]+)"\)', (ROOT / "compose.yaml").read_text())
    assert len(named) == 2, named
    for page, heading in named:
        assert re.search(rf"^#+ {re.escape(heading)}$", (ROOT / page).read_text(), re.M)
    # Robots think on the thinker service, through a queue in the bot's own database.
    thinker = services["thinker"]
    assert thinker["command"] == ["python", "-m", "bot.thinker"]
    assert thinker["image"] == bot["image"] and thinker["pull_policy"] == "never"
    queue = thinker["environment"]["ROBOT_QUEUE_URL"]
    assert queue == bot["environment"]["ROBOT_QUEUE_URL"] == bot["environment"]["DATABASE_URL"]


def test_the_image_installs_the_pinned_versions_and_its_dependencies_ignore_the_docs() -> None:
    """Every dependency is pinned in constraints.txt, which the image, CI and the README's
    commands all install with; the dependency layer copies no documentation, so a README
    edit does not reinstall everything."""
    pins = {
        line.split("==")[0].lower().replace("_", "-")
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if "==" in line and not line.startswith("#")
    }
    project = (ROOT / "pyproject.toml").read_text()
    wanted = re.findall(r'^\s+"([A-Za-z0-9_.-]+)[\[><=]', project, re.M)
    assert wanted and {w.lower().replace("_", "-") for w in wanted} <= pins, set(wanted) - pins
    dockerfile = (ROOT / "Dockerfile").read_text()
    layer = dockerfile[: dockerfile.index("COPY games")]
    copied = [line for line in layer.splitlines() if line.startswith("COPY")]
    assert copied == ["COPY pyproject.toml constraints.txt LICENSE ./"]
    assert "pip install -c constraints.txt ." in layer
    assert "-c constraints.txt" in (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert readme.count("-c constraints.txt") >= 2  # the two commands


async def test_the_health_check_tells_a_ready_database_from_a_missing_one(
    tmp_path: Path, pg_url: str
) -> None:
    """Healthy: a fresh heartbeat (written here as the running bot writes it) and a database
    at the bot's schema. No heartbeat, an old one, or no database: unhealthy."""
    from storage import open_storage

    ready = tmp_path / "bot.sqlite3"
    for database in (str(ready), pg_url):
        await (await open_storage(database)).close()
    beat = tmp_path / "bot.heartbeat"

    def health(database: str, beat_age: float | None) -> subprocess.CompletedProcess[str]:
        beat.unlink(missing_ok=True)
        if beat_age is not None:
            beat.write_text(f"{os.getpid()} {time.time() - beat_age}\n")
        env = {**os.environ, "DATABASE_URL": database, "HEARTBEAT_FILE": str(beat)}
        return subprocess.run(
            [sys.executable, "-m", "bot", "health"], cwd=ROOT, env=env,
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip

    cases = [
        (str(ready), 1.0, 0),
        (pg_url, 1.0, 0),
        (str(tmp_path / "none.sqlite3"), 1.0, 1),
        (str(ready), None, 1),  # no bot running
        (str(ready), 31.0, 1),  # three beats of ten seconds missed: hung
    ]
    for database, age, code in cases:
        result = health(database, age)
        assert result.returncode == code, (database, age, result.stderr)
        assert code == 0 or "bridge bot: health:" in result.stderr
    assert "HEALTHCHECK" in (dockerfile := (ROOT / "Dockerfile").read_text())
    assert '"python", "-m", "bot", "health"' in dockerfile
