"""The lines every game's messages share for deals anyone can check (``games.core.fair``): the
next deal's commitment on the table and seating messages, its seed with the deal's result."""

from __future__ import annotations

from html import escape

from bot.i18n import Translator
from bot.tables import Fairness, Revealed, Snapshot
from bot.views import Rendered
from storage.interface import TableStatus


def commitment_lines(snap: Snapshot, deal_no: int, t: Translator) -> list[str]:
    """The commitment of the table's deal ``deal_no`` (shown before it is dealt), if any."""
    found = snap.commitments.get(deal_no)
    return [t("fair.commitment", hash=found)] if found else []


def seating_commitment(snap: Snapshot, t: Translator) -> list[str]:
    """On a seating message: the match's first deal (the one the last seat taken deals)."""
    upcoming = snap.deal_no if snap.status is TableStatus.PLAYING else snap.deal_no + 1
    return commitment_lines(snap, upcoming, t)


def reveal_lines(fair: Fairness | None, t: Translator) -> list[str]:
    """With a deal's result: the seed its commitment hid and the players' value."""
    if fair is None:
        return []
    return [t("fair.reveal", deal=fair.deal_no, seed=fair.seed, entropy=fair.entropy)]


def check_command(revealed: Revealed) -> str:
    """The checker's command line for a revealed deal (``games.core.fair``, run as a script)."""
    fair = revealed.fair
    parts = [
        "python3 fair.py",
        revealed.game,
        fair.seed,
        fair.entropy,
        str(fair.deal_no),
        f"--dealer {revealed.dealer}",
    ]
    if revealed.game != "bridge":
        parts.append(f"--players {revealed.players}")
    parts.append(f"--commitment {fair.commitment}")
    return " ".join(parts)


def render_fair(t: Translator, revealed: Revealed | None, upcoming: str) -> Rendered:
    """``/fair``: how the deals are made and checked; at a table, the next deal's commitment
    and the command that checks its last finished deal."""
    lines = [t("fair.how")]
    if upcoming:
        lines.append(t("fair.commitment", hash=upcoming))
    if revealed is not None:
        command = escape(check_command(revealed))
        lines.append(t("fair.last", deal=revealed.fair.deal_no, command=command))
    return Rendered("\n\n".join(lines))
