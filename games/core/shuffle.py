"""The one shuffle every game deals with: Fisher–Yates driven by the caller's randomness
(``secrets.randbelow`` in the bot), so the rules stay deterministic and tests pass their own."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def shuffled(items: Iterable[T], randbelow: Callable[[int], int]) -> list[T]:
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return order
