"""Text drawn from a part of an immutable game state, drawn once while that part is in use.

A press draws the group's table and up to four private screens from views of one state, and
they share its parts by reference: the auction's tuple of calls, the play's tuple of tricks
(and through the play, the same tuples press after press until a call or a card changes
them). What a screen draws from such a part alone is the same text every time, so it is kept
by the part's identity, not its value: hashing a tuple of calls or tricks costs about as much
as drawing it. The part is held with its text, so its ``id`` cannot pass to another object
while the text is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")

_ALL: list[ByIdentity[object]] = []  # for ``forget``


class ByIdentity(Generic[T]):
    """Values worked out from ``part`` (and a few small hashable facts), kept for the last
    ``size`` asks.

    >>> drawn = []
    >>> memo: ByIdentity[str] = ByIdentity(2)
    >>> calls = ("1C", "P")
    >>> def draw() -> str:
    ...     drawn.append(1)
    ...     return " ".join(calls)
    >>> memo.get(calls, ("en",), draw), memo.get(calls, ("en",), draw), len(drawn)
    ('1C P', '1C P', 1)
    >>> equal = tuple(["1C", "P"])  # equal, but another object: drawn for itself
    >>> memo.get(equal, ("en",), draw), len(drawn)
    ('1C P', 2)
    >>> _ = memo.get(calls, ("ru",), draw); len(drawn), len(memo)  # the oldest let go
    (3, 2)
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self._kept: dict[tuple[int, Hashable], tuple[object, T]] = {}
        _ALL.append(self)  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, part: object, facts: Hashable, work: Callable[[], T]) -> T:
        key = (id(part), facts)
        found = self._kept.get(key)
        if found is not None and found[0] is part:
            return found[1]
        value = work()
        if len(self._kept) >= self.size:
            del self._kept[next(iter(self._kept))]  # the oldest
        self._kept[key] = (part, value)
        return value


def forget() -> None:
    """Every memo emptied: a benchmark draws each round as a bot's first press would."""
    for memo in _ALL:
        memo._kept.clear()
