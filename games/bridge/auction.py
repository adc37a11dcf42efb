"""The auction: whose turn, which calls are legal, when it ends, the contract and its declarer.

``legal_calls`` and ``check_call`` are the only definition of legality; ``AuctionState.apply``
checks through them, and the bot builds its bidding box from ``legal_calls``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.bridge.calls import (
    ALL_CALLS,
    DOUBLE,
    PASS,
    REDOUBLE,
    Bid,
    Call,
    CallKind,
    Contract,
    Doubling,
)
from games.bridge.cards import Seat
from games.bridge.errors import BridgeReason
from games.errors import IllegalCall, Reason

BID_CALLS = ALL_CALLS[3:]  # every bid as a call, 1C to 7NT (``ALL_CALLS`` starts P X XX)


@dataclass(frozen=True, slots=True)
class AuctionState:
    """The calls made so far, starting with the dealer. Immutable: ``apply`` returns a new state."""

    dealer: Seat
    calls: tuple[Call, ...] = ()

    @property
    def turn(self) -> Seat | None:
        """The seat to call next, or None once the auction is over."""
        if self.is_over:
            return None
        return self.dealer.after(len(self.calls))

    def seat_of(self, index: int) -> Seat:
        """Who made the call at this index."""
        return self.dealer.after(index)

    @property
    def is_over(self) -> bool:
        """Three passes after any call, or four passes to start (Law 17E)."""
        n = len(self.calls)
        if n < 4:
            return False
        return all(c.kind is CallKind.PASS for c in self.calls[-3:])

    @property
    def is_passed_out(self) -> bool:
        return self.is_over and all(c.kind is CallKind.PASS for c in self.calls)

    def _last_action(self) -> tuple[int, Call] | None:
        """Index and call of the last call that was not a pass."""
        for i in range(len(self.calls) - 1, -1, -1):
            if self.calls[i].kind is not CallKind.PASS:
                return i, self.calls[i]
        return None

    def _last_bid(self) -> tuple[int, Bid] | None:
        for i in range(len(self.calls) - 1, -1, -1):
            bid = self.calls[i].bid
            if bid is not None:
                return i, bid
        return None

    @property
    def last_bid(self) -> Bid | None:
        found = self._last_bid()
        return None if found is None else found[1]

    @property
    def doubling(self) -> Doubling:
        """The doubling of the last bid as it stands now (a new bid cancels any double)."""
        doubling = Doubling.NONE
        for call in self.calls:
            if call.kind is CallKind.BID:
                doubling = Doubling.NONE
            elif call.kind is CallKind.DOUBLE:
                doubling = Doubling.DOUBLED
            elif call.kind is CallKind.REDOUBLE:
                doubling = Doubling.REDOUBLED
        return doubling

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction is over and was not passed out."""
        if not self.is_over:
            return None
        bid = self.last_bid
        if bid is None:
            return None
        return Contract(bid.level, bid.strain, self.doubling)

    @property
    def declarer(self) -> Seat | None:
        """The first player of the declaring side to name the final strain (Laws: Declarer)."""
        if not self.is_over:
            return None
        found = self._last_bid()
        if found is None:
            return None
        index, bid = found
        side = self.seat_of(index).side
        for i, call in enumerate(self.calls):
            seat = self.seat_of(i)
            if call.bid is not None and call.bid.strain is bid.strain and seat.side is side:
                return seat
        raise AssertionError("the last bidder named the strain")  # pragma: no cover

    def check_call(self, call: Call) -> None:
        """Raise IllegalCall with the reason if the player in turn may not make ``call`` now."""
        turn = self.turn
        if turn is None:
            raise IllegalCall(str(call), Reason.AUCTION_OVER)
        if call.kind is CallKind.PASS:
            return
        if call.bid is not None:
            highest = self.last_bid
            if highest is not None and call.bid.rank <= highest.rank:
                raise IllegalCall(str(call), Reason.INSUFFICIENT_BID)
            return
        action = self._last_action()
        if call.kind is CallKind.DOUBLE:
            # Law 19A: only the last bid, only an opponent's, only if not already doubled.
            if action is None:
                raise IllegalCall(str(call), BridgeReason.DOUBLE_NOTHING)
            index, last = action
            if last.kind is not CallKind.BID:
                raise IllegalCall(str(call), BridgeReason.ALREADY_DOUBLED)
            if self.seat_of(index).side is turn.side:
                raise IllegalCall(str(call), BridgeReason.DOUBLE_PARTNER)
            return
        # Redouble, Law 19B: only the last double, made by an opponent, nothing but passes since.
        if action is None or action[1].kind is CallKind.BID:
            raise IllegalCall(str(call), BridgeReason.REDOUBLE_NOT_DOUBLED)
        index, last = action
        if last.kind is CallKind.REDOUBLE:
            raise IllegalCall(str(call), BridgeReason.ALREADY_DOUBLED)
        if self.seat_of(index).side is turn.side:
            raise IllegalCall(str(call), BridgeReason.REDOUBLE_OWN_DOUBLE)

    def legal_calls(self) -> tuple[Call, ...]:
        """Every call the player in turn may make: pass, double, redouble, then bids upwards."""
        if self.turn is None:
            return ()
        calls: list[Call] = [PASS]
        for special in (DOUBLE, REDOUBLE):
            try:
                self.check_call(special)
            except IllegalCall:
                continue
            calls.append(special)
        last = self.last_bid
        start = 0 if last is None else last.rank + 1
        calls.extend(BID_CALLS[start:])  # made once: a bidding box is drawn at every call
        return tuple(calls)

    def apply(self, call: Call) -> AuctionState:
        """The state after the player in turn makes ``call``; IllegalCall if they may not."""
        self.check_call(call)
        return AuctionState(self.dealer, (*self.calls, call))


class Auction:
    """String-level facade over AuctionState for scripts, tests and other tools.

    ``Auction("N").call("1H")``; ``legal_calls()`` returns strings like ``"P"``, ``"X"``, ``"2S"``.
    """

    def __init__(self, dealer: str | Seat) -> None:
        seat = dealer if isinstance(dealer, Seat) else Seat.parse(dealer)
        self.state = AuctionState(seat)

    def call(self, call: str | Call) -> None:
        """Make the next call; raises IllegalCall (a ValueError) and changes nothing if illegal."""
        parsed = call if isinstance(call, Call) else Call.parse(call)
        self.state = self.state.apply(parsed)

    def legal_calls(self) -> list[str]:
        return [str(c) for c in self.state.legal_calls()]

    @property
    def turn(self) -> str | None:
        seat = self.state.turn
        return None if seat is None else seat.name

    @property
    def calls(self) -> list[str]:
        return [str(c) for c in self.state.calls]

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def is_passed_out(self) -> bool:
        return self.state.is_passed_out

    @property
    def contract(self) -> str | None:
        contract = self.state.contract
        return None if contract is None else str(contract)

    @property
    def declarer(self) -> str | None:
        seat = self.state.declarer
        return None if seat is None else seat.name
