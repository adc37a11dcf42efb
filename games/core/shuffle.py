"""The one shuffle every game deals with: Fisher–Yates driven by the caller's randomness (the
fair stream of ``games.core.fair`` in the bot), so the rules stay deterministic and tests pass
their own. Defined in ``games.core.fair``, which must stand alone as the players' checker: the
deals and the checker shuffle with the very same lines."""

from __future__ import annotations

from games.core.fair import shuffled

__all__ = ["shuffled"]
