"""The layers' dependencies point one way (bot -> storage -> games), no module is in a circle,
and nothing outside a game's two packages imports that game: a new game is a plug-in, not a
fork."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from games.core.registry import games

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "storage", "bot")
# The games the registry serves (a test-only game registers from the tests, not here).
GAMES = tuple(sorted(g.name for g in games() if (ROOT / "games" / g.name).is_dir()))
# The one line per game that registers it (rules found by name, plug-ins listed for the bot).
REGISTRIES = {"games/core/registry.py", "bot/plugins.py"}


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _paths(*packages: str) -> list[Path]:
    return [path for package in packages for path in sorted((ROOT / package).rglob("*.py"))]


def _imported(node: ast.AST) -> Iterator[str]:
    """The absolute module names an import statement names (``from a import b``: a and a.b)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        yield node.module
        yield from (f"{node.module}.{alias.name}" for alias in node.names)


def _imports(path: Path) -> set[str]:
    return {m for node in ast.walk(ast.parse(path.read_text(), str(path))) for m in _imported(node)}


def _modules(*packages: str) -> dict[str, set[str]]:
    return {str(path.relative_to(ROOT)): _imports(path) for path in _paths(*packages)}


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


# What converts old databases names what they held (bridge's points, Preferans's whists).
HISTORY = {"storage/migrations.py", "storage/postgres/schema.py"}


def test_storage_names_no_game_and_no_games_unit() -> None:
    """Storage keeps any game's tables and any unit's rows: no string of it names a game or a
    game's unit (the conversions of old databases aside)."""
    named = {name for g in games() for name in (g.name, g.unit, g.practice_unit)}
    named -= {"practice", "points"}  # the practice prefix, and the ledger's amount column
    for path in _paths("storage"):
        if str(path.relative_to(ROOT)) in HISTORY:
            continue
        tree = ast.parse(path.read_text(), str(path))
        strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
        assert not strings & named, (path, strings & named)


def test_only_a_games_own_packages_import_it() -> None:
    assert {"bridge", "preferans"} <= set(GAMES)
    for path, imports in _modules(*PACKAGES).items():
        if path in REGISTRIES:
            continue
        for game in GAMES:
            if path.startswith((f"games/{game}/", f"bot/games/{game}/")):
                continue
            bad = {
                m for m in imports if _under(m, f"games.{game}") or _under(m, f"bot.games.{game}")
            }
            assert not bad, (path, bad)


# Inside bot, what sends and what keeps accounts sits below what renders: the outbox, the
# ledger, the table service and the values a message is made of import no view, presenter
# or handler (a view may use them, never the other way).
LOWER = ("bot/outbox/", "bot/ledger.py", "bot/rendered.py", "bot/i18n.py", "bot/tables/")
UPPER = ("bot.views", "bot.presenter", "bot.handlers", "bot.games", "bot.app")


def test_the_outbox_ledger_and_tables_import_no_view() -> None:
    for path, imports in _modules("bot").items():
        if path.startswith(LOWER):
            bad = {m for m in imports if any(_under(m, upper) for upper in UPPER)}
            assert not bad, (path, bad)


def test_a_games_ui_and_the_views_hold_no_outbox() -> None:
    """A game's UI and the views draw on a ``bot.screens.Drawing``: the presenter is the one
    writer of table messages, so none of them imports the outbox."""
    for path, imports in _modules("bot").items():
        if path.startswith(("bot/games/", "bot/views/", "bot/keeping/")):
            assert not {m for m in imports if _under(m, "bot.outbox")}, path


def _graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports, wherever the import stands (in a function,
    under TYPE_CHECKING: a circle hidden there is still a circle)."""
    names = {_name(path): path for path in _paths(*PACKAGES)}
    return {name: (_imports(path) & names.keys()) - {name} for name, path in names.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_is_in_a_circle() -> None:
    graph = _graph()
    assert len(graph) > 100 and "bot.plugin" in graph
    assert _circles(graph) == []


def test_the_circle_check_finds_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]


def test_no_bot_module_imports_ours_inside_a_function() -> None:
    """An import inside a function hides a circle from the reader; the third-party ones that
    stay (matplotlib, loaded when a picture is first drawn) are not ours."""
    for path in _paths("bot"):
        tree = ast.parse(path.read_text(), str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                ours = {m for m in _imported(node) if m.split(".")[0] in PACKAGES}
                assert not ours, (str(path.relative_to(ROOT)), node.lineno, ours)
