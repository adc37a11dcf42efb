"""What the bot offers a group: the games it serves and the commands that open their tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import Translator


@dataclass(frozen=True, slots=True)
class Offer:
    """The games the bot serves and the commands that open their tables, for the messages that
    list them (the greeting, /start, "no table here"): filled from the plug-ins, so a new game
    is named there without a catalogue edit. Game names stand in a list, never in a sentence
    that would decline them."""

    games: tuple[str, ...]  # registry names
    openers: tuple[str, ...]  # "/bridge", …

    def words(self, t: Translator) -> dict[str, str]:
        """``games``, ``openers`` ("/a, /b or /c") and ``first`` for the catalogue's texts.

        >>> Offer(("bridge", "preferans"), ("/bridge", "/preferans")).words(Translator("en"))
        {'games': 'bridge, Preferans', 'openers': '/bridge or /preferans', 'first': '/bridge'}
        """
        return {
            "games": ", ".join(t(f"game.{game}") for game in self.games),
            "openers": either(self.openers, t),
            "first": self.openers[0] if self.openers else "",
        }


def either(items: Sequence[str], t: Translator) -> str:
    """``a``, ``a or b``, ``a, b or c`` in the reader's language.

    >>> either(["/a", "/b", "/c"], Translator("ru"))
    '/a, /b или /c'
    """
    if len(items) < 2:
        return "".join(items)
    return t("list.or", rest=", ".join(items[:-1]), last=items[-1])
