"""The repositories both SQL backends share, written once in the SQL they have in common."""

from __future__ import annotations

from storage.sql.chats import ChatRepository
from storage.sql.deals import DealRepository
from storage.sql.matches import MAX_PAYMENT, LedgerRepository
from storage.sql.reviews import ReviewRepository
from storage.sql.tables import TableRepository

__all__ = ["MAX_PAYMENT", "Repositories"]


class Repositories(
    ChatRepository, TableRepository, DealRepository, LedgerRepository, ReviewRepository
):
    """Every row kind's queries; a backend class adds the connection underneath."""
