"""Work a chat may ask for that costs the bot far more than an answer (a hand record of a whole
history): one at a time per chat, and not again within a pause of the last, so that one chat
cannot keep the bot busy for the others."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable


class Throttle:
    def __init__(self, pause: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.pause = pause
        self.clock = clock
        self._busy: set[Hashable] = set()
        self._last: dict[Hashable, float] = {}

    def begin(self, key: Hashable) -> bool:
        """True if ``key``'s job may start now (then ``end`` it); False while one runs or
        within the pause after the last."""
        now = self.clock()
        if key in self._busy or now - self._last.get(key, -self.pause) < self.pause:
            return False
        self._busy.add(key)
        # Forget keys whose pause is over: the map stays as small as the chats asking now.
        for old in [k for k, at in self._last.items() if now - at >= self.pause]:
            del self._last[old]
        return True

    def end(self, key: Hashable) -> None:
        self._busy.discard(key)
        self._last[key] = self.clock()

    def once(self, key: Hashable) -> bool:
        """For a job that is one post: True (and the pause starts) if it may go now."""
        if not self.begin(key):
            return False
        self.end(key)
        return True
