"""The lines every game's messages share for deals anyone can check (``games.core.fair``): the
next deal's commitment on the table and seating messages, its seed with the deal's result."""

from __future__ import annotations

from html import escape

from bot.i18n import Translator
from bot.rendered import Rendered
from bot.tables import Fairness, Revealed, Snapshot
from games.core.fair import SHOWN
from storage.interface import TableStatus


def commitment_lines(snap: Snapshot, deal_no: int, t: Translator) -> list[str]:
    """The commitment of the table's deal ``deal_no`` (shown before it is dealt), if any."""
    found = snap.commitments.get(deal_no)
    return [t("fair.commitment", hash=fingerprint(found))] if found else []


def fingerprint(digest: str) -> str:
    """The commitment as the table shows it: its first :data:`SHOWN` hex digits (64 bits; the
    checker accepts them, and /fair gives the whole hash)."""
    return digest[:SHOWN]


def seating_commitment(snap: Snapshot, t: Translator) -> list[str]:
    """On a seating message: the match's first deal (the one the last seat taken deals)."""
    upcoming = snap.deal_no if snap.status is TableStatus.PLAYING else snap.deal_no + 1
    return commitment_lines(snap, upcoming, t)


def reveal_lines(fair: Fairness | None, t: Translator) -> list[str]:
    """With a deal's result: one short line, the command that shows its key, the players'
    value and the check (``/fair_12``: a tap sends it)."""
    if fair is None:
        return []
    return [t("fair.reveal", command=f"/fair_{fair.deal_no}")]


def check_command(revealed: Revealed) -> str:
    """The checker's command line for a revealed deal (``games.core.fair``, run as a script)."""
    fair, dealing = revealed.fair, revealed.dealing
    return (
        f"python3 fair.py {fair.seed} {fair.entropy} {fair.deal_no} "
        f"--pack {dealing.pack} --deal {dealing.order} --commitment {fair.commitment}"
    )


def render_fair(t: Translator, revealed: Revealed | None, upcoming: str) -> Rendered:
    """``/fair``: how the deals are made and checked; at a table, the next deal's whole
    commitment and the check of its last finished deal."""
    lines = [t("fair.how")]
    if upcoming:
        lines.append(t("fair.commitment_whole", hash=upcoming))
    if revealed is not None:
        lines.append(deal_check(revealed, t))
    return Rendered("\n\n".join(lines))


def render_deal_check(t: Translator, revealed: Revealed | None, number: int) -> Rendered:
    """``/fair_12``: deal 12's key, the players' value, its commitment and the command that
    checks it (or why it cannot be shown: not dealt here, or not over yet)."""
    if revealed is None:
        return Rendered(t("fair.no_deal", number=number))
    return Rendered(deal_check(revealed, t))


def deal_check(revealed: Revealed, t: Translator) -> str:
    fair = revealed.fair
    return t(
        "fair.deal",
        deal=fair.deal_no,
        seed=fair.seed,
        entropy=fair.entropy,
        hash=fair.commitment,
        command=escape(check_command(revealed)),
    )
