"""Typed access to the services made in ``post_init``: no globals, no singletons."""

from __future__ import annotations

from typing import Any

from telegram.ext import Application, CallbackContext, ExtBot

from bot.changes import Changes
from bot.config import Config
from bot.ledger import LedgerService
from bot.outbox import Outbox
from bot.plugin import Plugins
from bot.presenter import Presenter
from bot.reviews import Reviewer
from bot.stats import StatsService
from bot.tables import TableService
from bot.throttle import Throttle
from storage.interface import Storage


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], dict[Any, Any]]):
    @property
    def config(self) -> Config:
        config: Config = self.bot_data["config"]
        return config

    @property
    def storage(self) -> Storage:
        storage: Storage = self.bot_data["storage"]
        return storage

    @property
    def service(self) -> TableService:
        service: TableService = self.bot_data["service"]
        return service

    @property
    def stats(self) -> StatsService:
        stats: StatsService = self.bot_data["stats"]
        return stats

    @property
    def ledger(self) -> LedgerService:
        ledger: LedgerService = self.bot_data["ledger"]
        return ledger

    @property
    def outbox(self) -> Outbox:
        outbox: Outbox = self.bot_data["outbox"]
        return outbox

    @property
    def records(self) -> Throttle:
        """Hand records built on request: one at a time per chat, with a pause between."""
        records: Throttle = self.bot_data["records"]
        return records

    @property
    def plugins(self) -> Plugins:
        """The games this bot serves, by name."""
        plugins: Plugins = self.bot_data["plugins"]
        return plugins

    @property
    def changes(self) -> Changes:
        """Where a change goes: the screens, the timers, the reviewer and the robots."""
        changes: Changes = self.bot_data["changes"]
        return changes

    @property
    def reviewer(self) -> Reviewer:
        reviewer: Reviewer = self.bot_data["reviewer"]
        return reviewer

    @property
    def presenter(self) -> Presenter:
        presenter: Presenter = self.bot_data["presenter"]
        return presenter


BridgeApp = Application[
    ExtBot[None], BotContext, dict[Any, Any], dict[Any, Any], dict[Any, Any], Any
]
