"""The layers' dependencies point one way (bot -> storage -> games), and nothing outside a
game's two packages imports that game: a second game is a plug-in, not a fork."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("bridge", "preferans")
# The one line per game that registers it (games found by name, UIs found by game).
REGISTRIES = {"games/core/registry.py", "bot/games/__init__.py"}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def _modules(*packages: str) -> dict[str, set[str]]:
    return {
        str(path.relative_to(ROOT)): _imports(path)
        for package in packages
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_games_are_pure_rules() -> None:
    for path, imports in _modules("games").items():
        bad = {
            m for m in imports for p in ("bot", "storage", "telegram", "aiosqlite") if _under(m, p)
        }
        assert not bad, (path, bad)


def test_storage_knows_no_game_and_no_telegram() -> None:
    for path, imports in _modules("storage").items():
        bad = {
            m
            for m in imports
            if _under(m, "bot")
            or _under(m, "telegram")
            or any(_under(m, f"games.{g}") for g in GAMES)
        }
        assert not bad, (path, bad)


def test_only_a_games_own_packages_import_it() -> None:
    for path, imports in _modules("games", "bot", "storage").items():
        if path in REGISTRIES:
            continue
        for game in GAMES:
            if path.startswith((f"games/{game}/", f"bot/games/{game}/")):
                continue
            bad = {
                m for m in imports if _under(m, f"games.{game}") or _under(m, f"bot.games.{game}")
            }
            assert not bad, (path, bad)
