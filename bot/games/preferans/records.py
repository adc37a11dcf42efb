"""``/prefrecords``: the Preferans table's finished deals as a text file of hand records
(``games.preferans.records``; the format is docs/preferans-records.md), as ``/pbn`` is for
bridge (``bot.games.records``). Only deals that are over: a deal under way is nobody's to read;
one stopped with its pulka is written as unfinished."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import Update
from telegram.ext import BaseHandler, CommandHandler, filters

from bot.context import BotContext
from bot.games.records import RecordsCommand
from bot.tables import PlayedDeal
from games.preferans.deal import DealState
from games.preferans.records import Record, to_text


def _text_of(played: Sequence[PlayedDeal], title: str) -> str:
    """The records file (CPU: run off the event loop)."""
    records = []
    for deal in played:
        assert isinstance(deal.state, DealState)  # over: finished, or stopped with its match
        names = {int(seat): name for seat, name in deal.names.items()}
        records.append(Record(deal.number, deal.state, names, deal.at[:10].replace("-", ".")))
    return to_text(records, title)


RECORDS_COMMAND = RecordsCommand(
    "preferans",
    "pref.records.usage",
    "pref.records.none",
    "pref.records.caption",
    ".txt",
    _text_of,
)


def handlers() -> list[BaseHandler[Update, BotContext, None]]:
    return [CommandHandler("prefrecords", RECORDS_COMMAND, filters=filters.ChatType.GROUPS)]
