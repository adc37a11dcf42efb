"""The examples in the code's docstrings (``>>>``) hold: each module that has them is run
through doctest."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for package in ("games", "storage", "bot", "bench")
    for path in (ROOT / package).rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8")
)


def test_the_modules_with_examples_are_found() -> None:
    assert "games.core.data" in MODULES and "games.errors" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, result
