"""Games found by name, as python-chess finds its variants: one list, aliases included."""

from __future__ import annotations

from games.core.protocols import Game
from games.errors import NotationError, Reason

_GAMES: list[Game] = []


def register(game: Game) -> Game:
    """Add a game (a test may register one of its own); a name already taken is refused."""
    taken = {name for known in _GAMES for name in (known.name, *known.aliases)}
    if {game.name, *game.aliases} & taken:
        raise ValueError(f"a game named {game.name!r} is registered already")
    _GAMES.append(game)
    return game


def find_game(name: str) -> Game:
    """The game called ``name`` (or one of its aliases), case-insensitive."""
    _load_builtin()
    key = name.strip().lower()
    for game in _GAMES:
        if key == game.name or key in game.aliases:
            return game
    raise NotationError(repr(name), Reason.BAD_GAME)


def games() -> tuple[Game, ...]:
    _load_builtin()
    return tuple(_GAMES)


def _load_builtin() -> None:
    """The built-in games register on first use: nothing runs at import of ``games.core``.
    This is the one line per game that adding a game takes."""
    names = {game.name for game in _GAMES}
    if "bridge" not in names:
        from games.bridge.game import BRIDGE

        register(BRIDGE)
    if "preferans" not in names:
        from games.preferans.game import PREFERANS

        register(PREFERANS)
