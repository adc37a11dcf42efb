"""The pulka: pool (пуля), gora (гора) and whists (висты) written deal by deal (PREFERANS.md §4–§6).

``Pulka`` is the one place a deal's result becomes writing on the sheet, for online play and for
a scorekeeper alike. Seats are indices 0..n-1 clockwise; with four players the dealer of each deal
sits out (and still writes consolation). Amounts are ints, or Fractions where a split leaves half
a whist; ``balances`` settles exactly (§7) and ``whole`` in whole whists.

    p = Pulka(players=3, target=10, variant="sochi", conditions={"exit": "6-7-8"})
    p.game(declarer=0, contract="7H", whist={1: "whist", 2: "pass"}, tricks={0: 6, 1: 3, 2: 1})
    p.misere(declarer=0, tricks=1)
    p.raspasy(tricks={0: 2, 1: 5, 2: 3})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from games.errors import PulkaError, Reason
from games.preferans.bids import OBLIGATION, Bid
from games.preferans.cards import active_seats
from games.preferans.conditions import GENTLEMAN, Conditions
from games.preferans.errors import PrefReason
from games.preferans.settlement import Number, Variant, closed_gora, settle, whole_whists

WHIST, PASS, HALF = "whist", "pass", "half"
MISERE_RATE = {Variant.SOCHI: 10, Variant.LENINGRAD: 20, Variant.ROSTOV: 10, Variant.STALINGRAD: 10}


def _num(value: Fraction) -> Number:
    return int(value) if value.denominator == 1 else value


@dataclass
class _Deal:
    """What one deal writes, gathered before the pool write so §6 knows who failed."""

    failed: set[int] = field(default_factory=set)
    dealer: int | None = None
    helps: list[Help] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Help:
    """§6: ``helper``'s pool was full, so ``amount`` of it went to ``helped``'s pool (and the
    helper wrote ten whists a point on them)."""

    helper: int
    helped: int
    amount: Number


class Pulka:
    """One pulka's sheet. Invalid input raises ``PulkaError`` with a reason and writes nothing.

    ``conditions``: the group's switches (§8, ``games.preferans.conditions``), a mapping of
    text or resolved ``Conditions``; a switch left out takes the variant's preset value."""

    def __init__(
        self,
        players: int = 3,
        target: int = 10,
        variant: str = "sochi",
        conditions: Mapping[str, Any] | Conditions | None = None,
    ) -> None:
        if players not in (3, 4):
            raise PulkaError(repr(players), PrefReason.BAD_PLAYERS)
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise PulkaError(repr(target), PrefReason.BAD_TARGET)
        self.players = players
        self.target = target
        self.variant = Variant.parse(variant)
        self.conditions = (
            conditions
            if isinstance(conditions, Conditions)
            else Conditions.of(self.variant, conditions)
        )
        self._pool = [Fraction(0)] * players
        self._gora = [Fraction(0)] * players
        self._whists = [[Fraction(0)] * players for _ in range(players)]
        self._raspasy_run = 0  # raspasy in a row (the multiplier and the exit, §5 and §8)
        self.closed = False  # stopped early by consent (§6)
        self.deals = 0
        self.last_help: tuple[Help, ...] = ()  # what §6's help wrote in the last deal

    # --- the sheet ------------------------------------------------------------------------

    @property
    def pool(self) -> list[Number]:
        return [_num(x) for x in self._pool]

    @property
    def gora(self) -> list[Number]:
        return [_num(x) for x in self._gora]

    @property
    def whists(self) -> list[list[Number]]:
        """``whists[i][j]``: whists written by player i on player j."""
        return [[_num(x) for x in row] for row in self._whists]

    @property
    def finished(self) -> bool:
        """§6: Sochi and Rostov end when every pool is at the target; Leningrad when the pools
        add up to n × T. A pulka stopped by consent is finished too."""
        if self.closed:
            return True
        if self.variant is Variant.LENINGRAD:
            return sum(self._pool) >= self.players * self.target
        return all(x == self.target for x in self._pool)

    @property
    def raspasy_run(self) -> int:
        """How many deals in a row up to now were raspasy (§8's exit reads it)."""
        return self._raspasy_run

    def close(self) -> None:
        """Stop now, by everyone's consent: settled by the same formula (§6)."""
        self.closed = True

    def balances(self) -> list[Fraction]:
        """Exact balances in whists (§7); they sum to zero."""
        return settle(self._pool, self._gora, self._whists, self.target, self.variant)

    def closed_gora(self) -> list[Fraction]:
        """Each player's gora with the pool they lacked (§7), what ``balances`` averages."""
        return closed_gora(self._pool, self._gora, self.target, self.variant)

    def whole(self) -> list[int]:
        return whole_whists(self.balances())

    def state(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "gora": self.gora,
            "whists": self.whists,
            "finished": self.finished,
        }

    # --- seats --------------------------------------------------------------------------------

    def active(self, dealer: int | None) -> list[int]:
        """The players of a deal, clockwise from seat 0 (with four, the dealer sits out)."""
        self._check_dealer(dealer)
        return list(active_seats(self.players, dealer))

    def left_of(self, seat: int, dealer: int | None) -> int:
        """The next active seat clockwise."""
        active = self.active(dealer)
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if nxt in active:
                return nxt
        raise PulkaError(repr(seat), Reason.BAD_SEAT)

    def _check_dealer(self, dealer: int | None) -> None:
        if self.players == 4:
            if dealer is None or not isinstance(dealer, int) or not 0 <= dealer < 4:
                raise PulkaError(f"dealer {dealer!r}", PrefReason.BAD_DEALER)
        elif dealer is not None:
            raise PulkaError(f"dealer {dealer!r} in a three-player pulka", PrefReason.BAD_DEALER)

    def _seat(self, value: object, active: list[int]) -> int:
        try:
            seat = int(str(value))
        except ValueError:
            raise PulkaError(repr(value), Reason.BAD_SEAT) from None
        if seat not in active:
            raise PulkaError(repr(value), Reason.BAD_SEAT)
        return seat

    def _tricks(self, tricks: Mapping[Any, int] | None, active: list[int]) -> dict[int, int]:
        if tricks is None:
            raise PulkaError("tricks", Reason.BAD_TRICKS)
        taken = {self._seat(k, active): v for k, v in tricks.items()}
        if (
            set(taken) != set(active)
            or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in taken.values())
            or sum(taken.values()) != 10
        ):
            raise PulkaError(repr(dict(tricks)), Reason.BAD_TRICKS)
        return taken

    def _open(self) -> None:
        if self.finished:
            raise PulkaError("the pulka is over", PrefReason.PULKA_OVER)

    # --- deals --------------------------------------------------------------------------------

    def game(
        self,
        declarer: int,
        contract: str | Bid,
        whist: Mapping[Any, str],
        tricks: Mapping[Any, int] | None,
        dealer: int | None = None,
    ) -> None:
        """A contract 6♠..10NT: each defender's final whisting decision, and every active
        player's tricks (None when the deal was not played)."""
        self._open()
        active = self.active(dealer)
        declarer = self._seat(declarer, active)
        bid = contract if isinstance(contract, Bid) else Bid.parse(str(contract))
        if bid.is_misere:
            raise PulkaError(str(contract), Reason.BAD_CONTRACT)
        first = self.left_of(declarer, dealer)
        second = self.left_of(first, dealer)
        said = {self._seat(k, active): str(v).strip().lower() for k, v in whist.items()}
        if set(said) != {first, second} or any(v not in (WHIST, PASS, HALF) for v in said.values()):
            raise PulkaError(repr(dict(whist)), PrefReason.BAD_WHIST)
        rules = self.conditions
        if said[first] == HALF or (
            said[second] == HALF
            and (said[first] != PASS or bid.level not in (6, 7) or not rules.half_whist)
        ):
            raise PulkaError(repr(dict(whist)), PrefReason.BAD_WHIST)
        if rules.compulsory_on(bid) and set(said.values()) != {WHIST}:
            raise PulkaError(f"{bid}: whisting is compulsory", PrefReason.BAD_WHIST)
        whisters = [s for s in (first, second) if said[s] == WHIST]
        played = bool(whisters)
        taken = self._tricks(tricks, active) if played else {}

        v = self.variant
        p = bid.price
        level = bid.level
        obligation = OBLIGATION[level]
        w = 2 * p if v is Variant.LENINGRAD else p  # whists per defender trick
        undertrick = 2 * p if v is Variant.LENINGRAD else p  # gora and consolation per trick
        short_rate = Fraction(p, 2) if v is Variant.ROSTOV else Fraction(p)
        deal = _Deal(dealer=dealer)
        others = [i for i in range(self.players) if i != declarer]

        if not played:
            if said[second] == HALF:
                self._whists[second][declarer] += Fraction(obligation, 2) * w
            self._raspasy_run = 0
            self._add_pool(declarer, Fraction(p), deal)
            self._written(deal)
            return

        defence = taken[first] + taken[second]
        made = taken[declarer] >= level
        consolation = {i: Fraction(0) for i in others}
        if not made:
            down = level - taken[declarer]
            self._gora[declarer] += down * undertrick
            deal.failed.add(declarer)
            for i in others:
                consolation[i] = Fraction(down * undertrick)
        if len(whisters) == 2:
            trick_whists = {s: Fraction(taken[s] * w) for s in whisters}
        else:
            whister = whisters[0]
            passer = second if whister == first else first
            trick_whists = {whister: Fraction(defence * w)}
            if rules.one_whister == GENTLEMAN and not made:  # split with the passer
                pot = trick_whists[whister] + consolation[whister] + consolation[passer]
                trick_whists = {whister: pot / 2 - consolation[whister]}
                trick_whists[passer] = pot / 2 - consolation[passer]
        for seat, amount in trick_whists.items():
            self._whists[seat][declarer] += amount
        for seat, amount in consolation.items():
            self._whists[seat][declarer] += amount
        if made and defence < obligation:
            self._short(whisters, second, taken, level, obligation, defence, short_rate, deal)
        self._raspasy_run = 0
        if made:
            self._add_pool(declarer, Fraction(p), deal)
        self._written(deal)

    def _short(
        self,
        whisters: list[int],
        second: int,
        taken: Mapping[int, int],
        level: int,
        obligation: int,
        defence: int,
        rate: Fraction,
        deal: _Deal,
    ) -> None:
        """Whisters short of the obligation on a made contract (§4)."""
        owed: dict[int, Fraction]
        if len(whisters) == 1:
            owed = {whisters[0]: Fraction(obligation - defence)}
        elif level in (6, 7):
            half = Fraction(obligation, 2)
            owed = {s: max(Fraction(0), half - taken[s]) for s in whisters}
        else:
            owed = {second: Fraction(obligation - defence)}  # the second to whist (pinned)
        for seat, tricks in owed.items():
            if tricks > 0:
                self._gora[seat] += tricks * rate
                deal.failed.add(seat)

    def misere(self, declarer: int, tricks: int, dealer: int | None = None) -> None:
        """A misère: declarer's tricks (0 makes it)."""
        self._open()
        active = self.active(dealer)
        declarer = self._seat(declarer, active)
        if not isinstance(tricks, int) or isinstance(tricks, bool) or not 0 <= tricks <= 10:
            raise PulkaError(repr(tricks), Reason.BAD_TRICKS)
        deal = _Deal(dealer=dealer)
        self._raspasy_run = 0
        if tricks == 0:
            self._add_pool(declarer, Fraction(Bid.misere().price), deal)
        else:
            self._gora[declarer] += tricks * MISERE_RATE[self.variant]
        self._written(deal)

    def raspasy(self, tricks: Mapping[Any, int], dealer: int | None = None) -> None:
        """All passed: each active player's tricks (§5)."""
        self._open()
        active = self.active(dealer)
        taken = self._tricks(tricks, active)
        deal = _Deal(dealer=dealer)
        if self.variant is Variant.ROSTOV:
            for j in active:
                charge = 5 * taken[j]
                if not charge:
                    continue
                rest = [i for i in active if i != j]
                fewest = min(taken[i] for i in rest)
                writers = [i for i in rest if taken[i] == fewest]
                for i in writers:
                    self._whists[i][j] += Fraction(charge, len(writers))
            zero_pool = Fraction(1)
        else:
            m = self.conditions.multiplier(self._raspasy_run + 1)
            for j in active:
                self._gora[j] += taken[j] * m
            zero_pool = Fraction(m)
        for j in active:  # pool writes in increasing seat index (pinned)
            if taken[j] == 0:
                self._add_pool(j, zero_pool, deal)
        self._raspasy_run += 1
        self._written(deal)

    def _written(self, deal: _Deal) -> None:
        """A deal is on the sheet: counted, and what §6's help wrote in it kept to be read."""
        self.deals += 1
        self.last_help = tuple(deal.helps)

    # --- §6 -----------------------------------------------------------------------------------

    def _add_pool(self, seat: int, amount: Fraction, deal: _Deal) -> None:
        """Write to the pool; in Sochi and Rostov a pool never passes the target, and the
        excess helps the others (§6)."""
        if self.variant is Variant.LENINGRAD:
            self._pool[seat] += amount
            return
        total = self._pool[seat] + amount
        if total <= self.target:
            self._pool[seat] = total
            return
        excess = total - self.target
        self._pool[seat] = Fraction(self.target)
        order = [(seat + k) % self.players for k in range(1, self.players)]  # helper's left first
        while excess > 0:
            open_ = [
                i
                for i in order
                if self._pool[i] < self.target and i != deal.dealer and i not in deal.failed
            ]
            if not open_:
                self._gora[seat] -= excess
                return
            best = max(self._pool[i] for i in open_)
            helped = next(i for i in open_ if self._pool[i] == best)
            given = min(excess, self.target - self._pool[helped])
            self._pool[helped] += given
            self._whists[seat][helped] += 10 * given
            deal.helps.append(Help(seat, helped, _num(given)))
            excess -= given
