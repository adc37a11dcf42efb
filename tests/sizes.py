"""How big the tests run. By default each property and code path is exercised at a size a
newcomer can wait for (the whole suite in a few minutes); ``SOAK=1`` restores the full sizes,
which CI runs after the default command (``SOAK=1 pytest -m soak``). Tests whose size changes
carry the ``soak`` mark, so that CI's second run is exactly them.

Hypothesis runs two profiles: ``dev`` (a tenth of each test's examples, at least eight; twelve
where a test asks for none) and ``ci`` (every example asked for, a hundred where a test asks for
none), chosen by ``SOAK`` or by ``HYPOTHESIS_PROFILE``."""

from __future__ import annotations

import os

from hypothesis import settings

SOAK = os.environ.get("SOAK", "") == "1"
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci" if SOAK else "dev")

settings.register_profile("ci", max_examples=100, deadline=None)
settings.register_profile("dev", max_examples=12, deadline=None)
settings.load_profile(PROFILE)


def size(full: int, quick: int) -> int:
    """``full`` under SOAK=1 (CI's second run), ``quick`` otherwise."""
    return full if SOAK else quick


def examples(full: int, least: int = 8) -> int:
    """A Hypothesis test's examples: all of them in the ``ci`` profile, a tenth (at least
    ``least``) in ``dev``."""
    return full if PROFILE == "ci" else min(full, max(least, full // 10))
