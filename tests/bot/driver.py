"""Plays deals by pressing only the buttons the bot offers, and remembers what happened."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from games.bridge.cards import Card, Seat
from tests.bot.harness import GROUP, Harness, action_of, cards_in, deal_number
from tests.fakeapi import Sent, User


@dataclass
class DealLog:
    declarer: Seat | None = None
    passout: bool = False
    lead_at: int | None = None  # call index when the opening lead was pressed
    played: list[tuple[int, Card]] = field(default_factory=list)  # (call index, card)


@dataclass
class Driver:
    h: Harness
    players: list[User]
    rng: random.Random
    chat: int = GROUP
    # A short rubber: N-S open a game whenever they deal, E-W pass theirs out, so the rubber
    # ends in three deals, one of them four passes. For tests whose point is what comes with
    # and after a rubber, not the rubber's variety (which the full mode keeps).
    short: bool = False
    deals: dict[int, DealLog] = field(default_factory=dict)
    presses: int = 0
    _hand_cache: dict[int, dict[Seat, set[Card]]] = field(default_factory=dict)
    # message id -> the deal its buttons named: messages show the deal's number within its
    # rubber, buttons the table's own count, which goes on from rubber to rubber.
    deal_of_message: dict[int, int] = field(default_factory=dict)

    def seat_of(self, user: User) -> Seat:
        return Seat(self.players.index(user))

    def actor(self) -> tuple[User, Sent] | None:
        for user in self.players:
            message = self.h.action_message(user)
            if message is not None:
                return user, message
        return None

    def choose(self, user: User, message: Sent) -> str:
        data = [b["callback_data"] for b in message.buttons() if "callback_data" in b]
        deal_no = int(data[0].split(":")[2].split(".")[0])
        draw = self.rng.random()  # drawn at every choice: recorded rubbers replay the same
        if deal_no not in self.deals:  # the deal's first call is its dealer's
            ns_deals = self.seat_of(user).side.value == "NS"
            self.deals[deal_no] = DealLog(passout=not ns_deals if self.short else draw < 0.15)
        log = self.deals[deal_no]
        calls = {action_of(d)[1]: d for d in data if action_of(d)[0] == "call"}
        if calls:
            if log.declarer is None and not log.passout:
                # N-S open game contracts, E-W part scores: rubbers end in a few deals, and
                # both sides declare, make, go down, and double.
                wanted = (
                    ("3NT", "4S", "4H")
                    if self.seat_of(user).side.value == "NS"
                    else ("1C", "2D", "1NT")
                )
                for bid in wanted:
                    if bid in calls:
                        log.declarer = self.seat_of(user)
                        return calls[bid]
                bids = [c for c in calls if c[0].isdigit()]
                if bids:
                    log.declarer = self.seat_of(user)
                    return calls[self.rng.choice(bids)]
            if "X" in calls and self.rng.random() < 0.2:
                return calls["X"]
            if "XX" in calls and self.rng.random() < 0.3:
                return calls["XX"]
            return calls["P"]
        cards = {Card.parse(action_of(d)[1]): d for d in data if action_of(d)[0] == "card"}
        declaring = log.declarer is not None and self.seat_of(user).side is log.declarer.side
        low = min(cards, key=lambda c: (c.rank, c.suit))
        if not declaring or log.declarer is None:
            return cards[low]  # defenders always play low: declarer's side makes its games
        return cards[self._declarer_card(deal_no, log, set(cards)) or low]

    def _declarer_card(self, deal_no: int, log: DealLog, offered: set[Card]) -> Card | None:
        """Declarer's side plays like a beginner who counts: cash a card no opponent can beat,
        win the trick as cheaply as possible, else play low (None)."""
        assert log.declarer is not None
        hands = self._hands_of(deal_no)
        played = {card for _, card in log.played}
        opponents = hands.get(log.declarer.next, set()) | hands.get(log.declarer.rho, set())
        opponents -= played
        in_trick = len(log.played) % 4
        if in_trick == 0:
            for card in sorted(offered, key=lambda c: -c.rank):
                if not any(o.suit is card.suit and o.rank > card.rank for o in opponents):
                    return card
            return None
        trick = [card for _, card in log.played[-in_trick:]]
        led = trick[0].suit
        best = max((c for c in trick if c.suit is led), key=lambda c: c.rank)
        winner_index = trick.index(best)
        partner_winning = (in_trick - winner_index) == 2
        if partner_winning:
            return None
        beating = [c for c in offered if c.suit is led and c.rank > best.rank]
        return min(beating, key=lambda c: c.rank) if beating else None

    def _hands_of(self, deal_no: int) -> dict[Seat, set[Card]]:
        if deal_no not in self._hand_cache:
            self._hand_cache[deal_no] = self.hands().get(deal_no, {})
        return self._hand_cache[deal_no]

    async def step(self) -> bool:
        found = self.actor()
        if found is None:
            return False
        user, message = found
        await self.step_with(user, message, self.choose(user, message))
        return True

    async def step_with(self, user: User, message: Sent, data: str) -> None:
        """Press ``data`` (a legal call or card of ``user``'s), remembering what was played."""
        deal_no = int(data.split(":")[2].split(".")[0])
        self.deal_of_message[message.message_id] = deal_no
        index = len(self.h.api.calls)
        if action_of(data)[0] == "card":
            log = self.deals[deal_no]
            if log.lead_at is None:
                log.lead_at = index
            log.played.append((index, Card.parse(action_of(data)[1])))
        answer = await self.h.press(user, message, data)
        assert not answer.get("text"), (
            answer,
            user.first_name,
            data,
            [
                (u.first_name, (m := self.h.action_message(u)) and m.message_id)
                for u in self.players
            ],
            [
                (s.message_id, [(i, t[-60:]) for i, t in s.history])
                for s in self.h.api.chat_messages(user.id)
            ],
        )
        self.presses += 1

    def rubber_over(self) -> bool:
        return any(
            "Роббер окончен" in m.text or "Rubber over" in m.text
            for m in self.h.api.chat_messages(self.chat)
        )

    async def play_until(self, done: object, limit: int = 4000) -> None:
        for _ in range(limit):
            if callable(done) and done():
                return
            if not await self.step():
                raise AssertionError("nobody has a button to press")
        raise AssertionError("gave up: too many presses")

    # --- what each seat was dealt, read from the first version of its hand messages ------------

    def hands(self) -> dict[int, dict[Seat, set[Card]]]:
        hands: dict[int, dict[Seat, set[Card]]] = {}
        for user in self.players:
            screens = self.h.api.received(user) if self.h.screens_in else self.h.screens(user)
            for sent in screens:
                if sent.receiver is not None:  # one ephemeral screen from deal to deal
                    versions = [(deal_number(text), text) for _, text in sent.history]
                else:
                    _, first = sent.history[0]
                    number = self.deal_of_message.get(sent.message_id, deal_number(first))
                    versions = [(number, first)]
                for number, text in versions:
                    block = re.search(r"<pre>(.*?)</pre>", text, re.S)
                    if number is None or block is None:
                        continue
                    hands.setdefault(number, {}).setdefault(
                        self.seat_of(user), cards_in(block.group(1))
                    )
        return hands
