"""Where a table's change goes: the one dispatcher every writer of changes calls (handlers,
robots, timers, a restart), and everything that follows the tables subscribes to it, wired in
``bot/app.py``: the turn timers, the presenter (the screens), the reviewer, the robots. Nothing
is set on the presenter from outside, and the presenter knows none of them."""

from __future__ import annotations

from collections.abc import Callable

from bot.tables import Change

Follower = Callable[[Change], None]


class Changes:
    """``show(change)`` hands the change to each follower, in the order they followed."""

    def __init__(self, *followers: Follower) -> None:
        self._followers: list[Follower] = list(followers)

    def follow(self, follower: Follower) -> None:
        self._followers.append(follower)

    def show(self, change: Change) -> None:
        for follower in self._followers:
            follower(change)
