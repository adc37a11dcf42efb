"""The ledger service: the group's money as handlers need it, whatever game wrote it.

Handlers ask here, never storage: the running accounts with names, the settle plan, the
matches played, and recording a payment, which is accepted only as a transfer on the plan as it
stands (button data is untrusted; the ledger's size, checked again inside the write, pins
"as it stands")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.tables import Refusal, people_practices
from games.core.settlement import Transfer, transfers
from storage.interface import (
    CENTS,
    Chat,
    ChatSettings,
    ConflictError,
    LedgerRow,
    MatchRecord,
    NotFound,
    Storage,
)

Balances = Mapping[str, Mapping[int, int]]  # unit -> player id -> amount


@dataclass(frozen=True, slots=True)
class Accounts:
    """The chat's balances, each with a name and the number of matches played."""

    balances: Balances
    counts: Mapping[int, int]
    names: Mapping[int, str]
    version: int  # the ledger's size: what its buttons carry
    # people's practice (matches with robots), by practice unit
    practice: Mapping[str, Mapping[int, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Plan:
    transfers: Sequence[tuple[str, Transfer[int]]]  # (unit, transfer)
    names: Mapping[int, str]
    version: int


@dataclass(frozen=True, slots=True)
class History:
    matches: Sequence[MatchRecord]
    entries: Mapping[int, Mapping[int, int]]  # match id -> player id -> amount
    units: Mapping[int, str]  # match id -> the unit of its entries
    names: Mapping[int, str]
    version: int


def settle_plan(accounts: Balances, group: ChatSettings) -> list[tuple[str, Transfer[int]]]:
    """Who pays whom to bring every account to zero. One unit: in that unit, as the matches were
    played. Several (rubbers and pulkas) all priced by the group: in money, one plan for both
    games. Several not all priced: a plan per unit, since points and whists have no rate."""
    live = {unit: balances for unit, balances in accounts.items() if any(balances.values())}
    if group.priced_together(live):
        cash: dict[int, int] = {}
        for unit, balances in live.items():
            for pid, value in balances.items():
                cash[pid] = cash.get(pid, 0) + value * group.price(unit)
        return [(CENTS, t) for t in transfers(cash)]
    return [(unit, t) for unit in sorted(live) for t in transfers(live[unit])]


class InvalidTransfer(Exception):
    """A payment that is not a transfer on the group's plan (forged or stale button data)."""


class LedgerService:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def chat(self, tg_chat_id: int, title: str, language: str) -> Chat:
        """The group, met for the first time if need be."""
        return await self.storage.ensure_chat(tg_chat_id, title, language)

    async def chat_by_id(self, chat_id: int) -> Chat | None:
        try:
            return await self.storage.get_chat(chat_id)
        except NotFound:
            return None

    async def names(self, ids: Iterable[int], guest: str = "") -> dict[int, str]:
        """Each player's name as the money views show it: a guest (no Telegram) marked with
        ``guest`` ("(гость)"), and two accounts that would read alike told apart by number,
        so that one person never seems to hold two accounts."""
        players = [await self.storage.get_player(pid) for pid in sorted(set(ids))]
        shown = {
            p.id: f"{p.name} {guest}" if guest and p.tg_user_id is None else p.name for p in players
        }
        alike = Counter(name.casefold() for name in shown.values())
        return {
            pid: f"{name} #{pid}" if alike[name.casefold()] > 1 else name
            for pid, name in shown.items()
        }

    async def accounts(self, chat_id: int, guest: str = "") -> Accounts:
        balances = await self.storage.accounts(chat_id)
        counts = await self.storage.match_counts(chat_id)
        practice = await people_practices(self.storage, chat_id)
        ids = [pid for b in (*balances.values(), *practice.values()) for pid in b]
        names = await self.names(ids, guest)
        size = await self.storage.ledger_size(chat_id)
        return Accounts(balances, counts, names, size, practice)

    async def plan(self, chat: Chat, guest: str = "") -> Plan:
        balances = await self.storage.accounts(chat.id)
        names = await self.names((pid for b in balances.values() for pid in b), guest)
        plan = settle_plan(balances, chat.settings)
        return Plan(plan, names, await self.storage.ledger_size(chat.id))

    async def history(self, chat_id: int, limit: int = 10, guest: str = "") -> History:
        matches = await self.storage.matches(chat_id, limit=limit)
        entries: dict[int, dict[int, int]] = {}
        units: dict[int, str] = {}
        for row in await self.storage.ledger(chat_id):
            if row.kind == "match" and row.match_id is not None:
                entries.setdefault(row.match_id, {})[row.player_id] = row.points
                units[row.match_id] = row.unit
        ids = {pid for m in matches for pid in m.seats.values()}
        ids |= {pid for e in entries.values() for pid in e}
        names = await self.names(ids, guest)
        return History(matches, entries, units, names, await self.storage.ledger_size(chat_id))

    async def rows(self, chat_id: int, guest: str = "") -> tuple[list[LedgerRow], dict[int, str]]:
        rows = await self.storage.ledger(chat_id)
        return rows, await self.names((r.player_id for r in rows), guest)

    async def balance_of(self, chat_id: int, player_id: int) -> dict[str, int]:
        """unit -> the player's balance in the chat."""
        accounts = await self.storage.accounts(chat_id)
        return {unit: b[player_id] for unit, b in accounts.items() if b.get(player_id)}

    async def record_payment(
        self, chat: Chat, unit: str, transfer: Transfer[int], version: int, recorded_by: str
    ) -> None:
        """Refusal("payment_stale") if the ledger moved since the button was made;
        InvalidTransfer if the transfer is not on the plan as it stands."""
        if version != await self.storage.ledger_size(chat.id):
            raise Refusal("payment_stale")
        if (unit, transfer) not in settle_plan(await self.storage.accounts(chat.id), chat.settings):
            raise InvalidTransfer(transfer)
        try:
            await self.storage.record_payment(
                chat.id,
                transfer.payer,
                transfer.payee,
                transfer.amount,
                note=f"recorded by {recorded_by}",
                expected_size=version,
                unit=unit,
            )
        except ConflictError:
            raise Refusal("payment_stale") from None
