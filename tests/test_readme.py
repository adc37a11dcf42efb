"""The README a new host follows: its two commands are the ones CI runs, it says how long the
tests take, it names every command of the bot's menu, it stays short, and every page, picture
and file it (or a page under docs/) links to is there."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from bot.app import PRIVATE_COMMANDS, group_commands
from bot.plugin import Plugins
from bot.plugins import PLUGINS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def commands() -> list[str]:
    return re.findall(r"^```sh\n(python3 -m venv .venv[^\n]*)\n```", README, re.M)


def test_the_two_commands_set_up_and_run_the_bot_then_the_tests_as_ci_does() -> None:
    run, tests = commands()
    assert run.endswith(".venv/bin/python -m bot") and ". ./.env" in run
    assert tests.endswith(".venv/bin/python -m pytest") and "'.[test]'" in tests
    assert "-c constraints.txt" in run and "-c constraints.txt" in tests
    ci = (ROOT / ".ci" / "run").read_text()
    assert tests in ci  # CI runs the README's test command as it is written
    assert "SOAK=1" in ci and "-m soak" in ci  # and then the soaks at full size
    assert "SOAK=1 .venv/bin/python -m pytest -m soak" in README
    # how long, said plainly
    assert re.search(r"about \d+ minutes on a 2-core machine", README)


def test_the_readme_names_every_command_of_the_menu() -> None:
    table = README[README.index("## Commands") : README.index("## Questions")]
    for command in (*group_commands(Plugins(PLUGINS)), *PRIVATE_COMMANDS):
        assert f"/{command}" in table, command


def test_the_readme_is_for_hosts_and_players() -> None:
    words = len(README.split())
    assert words < 1600, words  # the developers' material lives under docs/
    for team_word in ("RULES.md", "seed", "the team", "../shared"):
        assert team_word not in README, team_word
    assert "docs/playing.md" in README and "docs/hosting.md" in README


def test_every_link_of_the_readme_and_the_docs_is_there() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    checked = 0
    for page in pages:
        text = page.read_text()
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if target.startswith(("http://", "https://")):
                continue
            assert (page.parent / target).exists(), (page.name, target)
            checked += 1
        assert "RULES.md" not in text and "../shared" not in text, page.name
    assert checked > 15
    for picture in re.findall(r"!\[[^\]]*\]\((docs/img/[a-z]+\.png)\)", README):
        assert (ROOT / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", picture


def test_the_licence_is_shipped_and_declared() -> None:
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    project = (ROOT / "pyproject.toml").read_text()
    assert 'license = "MIT"' in project and 'license-files = ["LICENSE"]' in project


async def test_the_readmes_pictures_are_drawn_from_the_real_bot(tmp_path: Path) -> None:
    """docs/pictures.py (which made docs/img) still runs: a kept rubber's sheet, a pulka and a
    table mid-play, each a PNG."""
    spec = importlib.util.spec_from_file_location("pictures", ROOT / "docs" / "pictures.py")
    assert spec is not None and spec.loader is not None
    pictures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pictures)
    drawn = await pictures.draw(tmp_path)
    assert sorted(p.name for p in drawn) == ["pulka.png", "rubber.png", "table.png"]
    for path in drawn:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000


def test_the_fairness_text_claims_what_holds_and_says_what_does_not() -> None:
    """The players' value is a Telegram number players never see: the texts must not claim
    that even whoever runs the bot cannot choose a deal, and must say what is not proved."""
    from bot.i18n import Translator

    texts = [README, (ROOT / "docs" / "playing.md").read_text()]
    texts += [Translator(lang)("fair.how") for lang in ("en", "ru")]
    for text in (" ".join(t.split()) for t in texts):
        assert "not even whoever runs the bot" not in text
        assert "whoever runs the bot could" in text or "тот, кто запускает бота" in text
