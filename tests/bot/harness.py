"""Runs the real application against the fake Bot API, and drives it as players would."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.app import build_application
from bot.config import Config
from bot.context import BridgeApp
from bot.outbox import Outbox
from bot.plugin import Plugin
from bot.plugins import PLUGINS
from games.bridge.cards import Card, Rank, Seat, Suit
from tests.fakeapi import FakeBotApi, InProcessRequest, Sent, User

GROUP = -100
CARD_TOKEN = re.compile(r"([♠♥♦♣])(10|[2-9]|[ТКДВAKQJ])")
# A suit's cards after its symbol: "♠ Т К 10" (a hand line; the deal's compass puts two on a row)
SUIT_LINE = re.compile(r"([♠♥♦♣]) ((?:(?:10|[2-9]|[ТКДВAKQJ])(?: (?=[0-9ТКДВAKQJ])|(?=\s|$)))+)")
SYMBOLS = {"♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS}
RANKS = {
    "Т": Rank.ACE,
    "К": Rank.KING,
    "Д": Rank.QUEEN,
    "В": Rank.JACK,
    "A": Rank.ACE,
    "K": Rank.KING,
    "Q": Rank.QUEEN,
    "J": Rank.JACK,
    "10": Rank.TEN,
}
DEAL_NUMBER = re.compile(r"(?:Deal|deal|Сдача|сдача) (\d+)")


def parse_rank(text: str) -> Rank:
    return RANKS.get(text) or Rank(int(text))


def cards_in(text: str) -> set[Card]:
    """Every card a message shows: single cards (♠Д) and hand lines (♠ Т К 10)."""
    text = re.sub(r"</?pre>", "\n", text)  # a hand's last line ends at the tag
    found = {Card(SYMBOLS[s], parse_rank(r)) for s, r in CARD_TOKEN.findall(text)}
    for symbol, ranks in SUIT_LINE.findall(text):
        for rank in ranks.split():
            found.add(Card(SYMBOLS[symbol], parse_rank(rank)))
    return found


def deal_number(text: str) -> int | None:
    match = DEAL_NUMBER.search(text)
    return int(match.group(1)) if match else None


@dataclass
class Harness:
    api: FakeBotApi
    database: str
    app: BridgeApp | None = None
    group_interval: float = 0.002  # the bot's pacing; benchmarks set real values
    private_interval: float = 0.0
    in_process: bool = False  # PTB's transport answered in-process (benchmarks), not over HTTP
    timer_minute: float = 60.0  # seconds in a turn-timer minute; timer tests shorten it
    turn_notice: float = 0.0  # seconds before an idle player's screen is sent anew (0: off)
    shuffle_seed: int | None = None  # reproducible deals (the release comparison)
    robot_delay: float = 0.0  # the bot's pause before a robot acts
    robot_budget: float = 0.05  # a robot's seconds per card (few samples: tests test paths)
    robot_workers: int = 2  # robots' processes (0: the production default, benchmarks)
    robot_queue: str | None = None  # robots think on queue workers (bot.thinking) instead
    review_workers: int = 0  # deals' reviews for /stats (production: 1; tests of it set 1)
    record_pause: float = 0.0  # between two hand records of one chat (tests ask many)
    plugins: Sequence[Plugin] = PLUGINS  # the games served (a test adds its own)
    overall_rate: float = 1_000_000  # calls a second (benchmarks set the production cap, 30)
    group_rate: int = 1_000_000  # PTB's per-group backstop a minute (production: 20)
    ephemeral_rate: int = 1_000_000  # a group's ephemeral calls a minute (production: 60)
    live_interval: float = 0.0  # a waiting player's screen's pace (production: 8 s)
    # Where the players' screens are read (``action_message``): their private chats (None), or
    # ephemeral messages in this group.
    screens_in: int | None = None

    def config(self) -> Config:
        return Config(
            token=self.api.token,
            database=self.database,
            language="ru",
            base_url=self.api.base_url,
            group_interval=self.group_interval,
            private_interval=self.private_interval,
            group_rate_per_minute=self.group_rate,
            overall_rate_per_second=self.overall_rate,
            ephemeral_per_minute=self.ephemeral_rate,
            live_interval=self.live_interval,
            poll_timeout=1,
            timer_minute=self.timer_minute,
            turn_notice_seconds=self.turn_notice,
            shuffle_seed=self.shuffle_seed,
            robot_delay=self.robot_delay,
            robot_budget=self.robot_budget,
            robot_workers=self.robot_workers,
            robot_queue_url=self.robot_queue,
            review_workers=self.review_workers,
            record_pause=self.record_pause,
        )

    async def start(self) -> None:
        app = build_application(
            self.config(), InProcessRequest(self.api) if self.in_process else None, self.plugins
        )
        await app.initialize()
        assert app.post_init is not None
        await app.post_init(app)
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.0, timeout=1)
        self.app = app

    async def _stop_polling(self) -> None:
        """Stop the updater without waiting out its long poll: PTB waits for the getUpdates
        in flight, which the fake API answers at once once asked (as a closed connection)."""
        app = self.app
        assert app is not None and app.updater is not None
        stopping = asyncio.ensure_future(app.updater.stop())
        while not stopping.done():
            await self.api.release_polls()
            await asyncio.wait([stopping], timeout=0.01)
        await stopping

    async def stop(self) -> None:
        app = self.app
        assert app is not None and app.updater is not None
        await self._stop_polling()
        await app.stop()
        assert app.post_stop is not None and app.post_shutdown is not None
        await app.post_stop(app)  # as run_polling does
        await app.post_shutdown(app)
        await app.shutdown()
        self.app = None

    async def crash(self) -> None:
        """Stop without draining the outbox or closing anything gracefully: a kill, as far as
        storage is concerned (only what was committed survives), then release the file."""
        app = self.app
        assert app is not None and app.updater is not None
        outbox: Outbox = app.bot_data["outbox"]
        await outbox.close()
        await self._stop_polling()
        await app.stop()
        await app.bot_data["storage"].close()
        lease = app.bot_data.get("lease")
        if lease is not None:  # a killed process's connection closes: its lock is gone
            await lease.release()
        await app.shutdown()
        self.app = None

    @property
    def outbox(self) -> Outbox:
        assert self.app is not None
        outbox: Outbox = self.app.bot_data["outbox"]
        return outbox

    async def settle(self, timeout: float = 20.0) -> None:
        """Wait until every injected update is handled and the outbox has sent everything."""
        assert self.app is not None
        deadline = time.monotonic() + timeout
        stable_since, last = time.monotonic(), -1
        while time.monotonic() < deadline:
            busy = (
                self.api.pending_updates
                or not self.app.update_queue.empty()
                or self.app.update_processor.current_concurrent_updates
                or any(lane.queue for lane in self.outbox._lanes.values())
                or not self.app.bot_data["redraw"].done()  # a restart's redraw
            )
            count = len(self.api.calls)
            if busy or count != last:
                stable_since, last = time.monotonic(), count
            elif time.monotonic() - stable_since > 0.01:
                return
            await asyncio.sleep(0.01)
        raise TimeoutError("the bot did not settle")

    async def press(self, user: User, sent: Sent, data: str) -> dict[str, Any]:
        """Press and wait for the answer; the handler queues every message it causes before it
        answers, so once the outbox is drained the chats show the press's effect."""
        query = await self.api.press(user, sent, data)
        answer = await self.api.answer_of(query)
        await self.outbox.drain()
        return answer

    async def say(self, user: User, chat_id: int, text: str, thread: int | None = None) -> None:
        await self.api.send_text(user, chat_id, text, thread)
        await self.settle()

    def table_message(self, chat_id: int = GROUP) -> Sent:
        """The newest group message that is a table message (has a title line)."""
        for sent in reversed(self.api.chat_messages(chat_id)):
            if "🃏" in sent.text:
                return sent
        raise AssertionError("no table message")

    def screens(self, user: User) -> list[Sent]:
        """The messages a player's screens are in: their private chat, or (``screens_in``) the
        ephemeral messages they see in the group."""
        if self.screens_in is not None:
            return self.api.visible(user, self.screens_in)
        return self.api.chat_messages(user.id)

    def action_message(self, user: User) -> Sent | None:
        """The player's screen that offers calls or cards now, if any."""
        for sent in reversed(self.screens(user)):
            if any(
                re.match(r"^b1:\d+:\d+(?:\.\d+)?:a:(call|card)\.", b.get("callback_data", ""))
                for b in sent.buttons()
            ):
                return sent
        return None


PLAYERS = [
    User(101, "Anna", "ru", "anna"),
    User(102, "Bob", "en", "bob"),
    User(103, "Cat", "en", "cat"),
    User(104, "Dima", "ru", "dima"),
]


async def seat_four(
    h: Harness, players: list[User] = PLAYERS, chat: int = GROUP, thread: int | None = None
) -> None:
    """Open the table and seat the four through the deep link, as new users would."""
    await h.say(players[0], chat, "/bridge", thread)
    for user, seat in zip(players, Seat, strict=True):
        answer = await sit(h, user, seat, chat)
        url = answer.get("url", "")
        assert re.search(rf"\?start=j[0-9a-f]{{16}}_{seat.name}$", url), answer


async def sit(h: Harness, user: User, seat: Seat, chat: int = GROUP) -> dict[str, Any]:
    """Press the table's Sit button for ``seat``; a new user is answered with a deep link,
    which they follow (/start in their private chat). The button's answer is returned."""
    table = h.table_message(chat)
    data = next(
        b["callback_data"]
        for b in table.buttons()
        if b.get("callback_data", "").endswith(f":sit:{seat.name}")
    )
    answer = await h.press(user, table, data)
    url = answer.get("url", "")
    if url:
        await h.say(user, user.id, f"/start {url.split('start=')[1]}")
    return answer


def actor(h: Harness, players: list[User] = PLAYERS) -> tuple[User, Sent]:
    """The player who has call or card buttons now."""
    for user in players:
        message = h.action_message(user)
        if message is not None:
            return user, message
    raise AssertionError("nobody to act")


def action_of(data: str) -> tuple[str, str]:
    """("call", "1H"), ("card", "SQ"), ("claim", "13"), ("answer", "yes") from a generic action
    button's data; ("", "") for any other button."""
    parts = data.split(":")
    if len(parts) < 5 or parts[3] != "a":
        return "", ""
    kind, _, arg = parts[4].partition(".")
    return kind, arg


def data_of(message: Sent, suffix: str) -> str:
    """The callback data of the button under ``message`` whose data ends with ``suffix``."""
    return next(
        b["callback_data"] for b in message.buttons() if b.get("callback_data", "").endswith(suffix)
    )


async def scorekept_rubber(h: Harness, user: User, names: str, chat: int = GROUP) -> None:
    """A rubber on a scorekeeper's sheet that N-S win 2-0 (``names``: the four, N E S W), so
    the group's ledger has something to settle."""
    await h.say(user, chat, f"/keep {names}")
    await h.say(user, chat, "/deal 3NT N =")
    await h.say(user, chat, "/deal 3NT S =")
