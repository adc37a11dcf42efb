"""How a Preferans deal ended, as the pulka writes it: a game, a misère or raspasy, with the
whisting words and every active player's tricks; as JSON, what a table's match records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from games.preferans.bids import Bid


class Kind(Enum):
    GAME = "game"
    MISERE = "misere"
    RASPASY = "raspasy"


@dataclass(frozen=True, slots=True)
class Result:
    """How the deal ended, as the pulka needs it."""

    kind: Kind
    declarer: int | None
    contract: Bid | None
    whist: Mapping[int, str]  # each defender's final decision (games only)
    tricks: Mapping[int, int] | None  # every active player's tricks; None if not played
    shown: bool = False  # an open whister showed the hands
    claimed: bool = False

    def to_payload(self) -> dict[str, Any]:
        """The result as JSON (seat keys as strings), what a table's match records."""
        return {
            "kind": self.kind.value,
            "declarer": self.declarer,
            "contract": None if self.contract is None else str(self.contract),
            "whist": {str(seat): word for seat, word in self.whist.items()},
            "tricks": None
            if self.tricks is None
            else {str(seat): n for seat, n in self.tricks.items()},
            "shown": self.shown,
            "claimed": self.claimed,
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> Result:
        tricks = payload.get("tricks")
        contract = payload.get("contract")
        declarer = payload.get("declarer")
        return cls(
            kind=Kind(str(payload["kind"])),
            declarer=None if declarer is None else int(declarer),
            contract=None if contract is None else Bid.parse(str(contract)),
            whist={int(seat): str(word) for seat, word in payload.get("whist", {}).items()},
            tricks=None if tricks is None else {int(s): int(n) for s, n in tricks.items()},
            shown=bool(payload.get("shown", False)),
            claimed=bool(payload.get("claimed", False)),
        )
