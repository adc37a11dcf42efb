"""The floor under the bot's CPU: what the smallest PTB bot spends per press over real HTTP.

    python -m bench.floor [--chats 100] [--seconds 30] [--think 2.0] [--edits 1 2]
                          [--variants ptb nolimiter raw lean ours] [--chars 0] [--buttons 0]

A bot of a dozen lines, in a process of its own, built on our stack (PTB's ``Application``,
concurrent updates, long polling, our aiohttp transport): each press is answered
(``answerCallbackQuery``) and followed by ``--edits`` message edits. It renders nothing, stores
nothing, knows no game. Its CPU a press, read from ``/proc`` as ``bench.load --http`` does, is
the least any bot on this stack can spend; ours cannot go below it. The variants (issue #48):

- ``ptb``: as PTB is usually built: ``AIORateLimiter`` (Telegram's limits lifted), edits by
  ``Bot.edit_message_text`` (a PTB ``Message`` built from each reply), form bodies;
- ``nolimiter``: the same without a rate limiter;
- ``raw``: no limiter, and edits by ``Bot.do_api_request`` read as plain JSON;
- ``lean``: ``raw`` with JSON bodies, the leanest;
- ``ours``: ``lean`` with the bot's own limiter (``SlowDown``), as the bot is built now.

Each edit says which step it is and carries one button; with ``--chars`` it carries a message
of that many characters (HTML, a block of cards and Russian words) and ``--buttons`` more
buttons, as ours sends (``bench.load --floor`` passes its own averages): the stack's cost of
what ours sends, with none of the work of deciding it. The pressed message is the last edit,
so a press brings it back, as Telegram does.

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from typing import Any

from bench.load import cpu_seconds, percentile
from tests.fakeapi import FakeBotApi, Sent, User

VARIANTS = ("ptb", "nolimiter", "raw", "lean", "ours")


def payload(chars: int, buttons: int) -> tuple[str, list[list[dict[str, str]]]]:
    """A message of about ``chars`` characters of HTML, as a table's screen is written (a
    block of cards, suits and Russian words), and ``buttons`` card buttons in rows of five.

    >>> text, rows = payload(60, 7)
    >>> len(text), [len(row) for row in rows], rows[0][0]
    (60, [5, 2], {'text': 'A♠', 'callback_data': 'b1:1:12.3:c:AS'})
    """
    block = "♠ AKQ ♥ 1098 ♦ J76 ♣ 5432 Пики, взятки 7\n"
    filler = (block * (chars // len(block) + 1))[: max(0, chars - len("<pre></pre>"))]
    keys = [{"text": "A♠", "callback_data": "b1:1:12.3:c:AS"} for _ in range(buttons)]
    return f"<pre>{filler}</pre>", [keys[i : i + 5] for i in range(0, buttons, 5)]


def serve_bot(edits: int, variant: str, chars: int = 0, buttons: int = 0) -> None:
    """The bot's process: answer, then edit the pressed message ``edits`` times (with
    ``chars``: a message of that size with ``buttons`` buttons, as ours sends)."""
    import warnings

    from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
    from telegram.ext import AIORateLimiter, ApplicationBuilder, CallbackQueryHandler, ContextTypes
    from telegram.warnings import PTBUserWarning

    from bot.outbox.slowdown import SlowDown
    from bot.transport import AiohttpRequest, SlimUpdates

    warnings.filterwarnings("ignore", category=PTBUserWarning)  # do_api_request of a known one
    raw = variant in ("raw", "lean", "ours")
    filler, rows = payload(chars, buttons) if chars else ("", [])

    async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None and query.data is not None
        await query.answer()
        step = int(query.data)
        for k in range(edits):
            if raw:
                go = [{"text": "go", "callback_data": str(step + 1)}]
                markup = {"inline_keyboard": [go, *rows]}
                params = {
                    "chat_id": query.message.chat.id,
                    "message_id": query.message.message_id,
                    "text": f"step {step} edit {k}\n{filler}",
                    "reply_markup": markup,
                }
                if filler:
                    params["parse_mode"] = "HTML"
                await context.bot.do_api_request("editMessageText", api_kwargs=params)
                continue
            key = InlineKeyboardButton("go", callback_data=str(step + 1))
            more = [[InlineKeyboardButton(b["text"], callback_data=b["callback_data"]) for b in row]
                    for row in rows]  # fmt: skip
            await context.bot.edit_message_text(
                chat_id=query.message.chat.id,
                message_id=query.message.message_id,
                text=f"step {step} edit {k}\n{filler}",
                parse_mode="HTML" if filler else None,
                reply_markup=InlineKeyboardMarkup([[key], *more]),
            )

    async def started(_: Any) -> None:
        print("ready", flush=True)

    json_bodies = variant in ("lean", "ours")
    builder = ApplicationBuilder().token(os.environ["BOT_TOKEN"])
    if variant == "ptb":
        builder = builder.rate_limiter(AIORateLimiter(overall_max_rate=0, group_max_rate=0))
    elif variant == "ours":
        builder = builder.rate_limiter(SlowDown())
    app = (
        builder.base_url(os.environ["BOT_API_BASE_URL"])
        .concurrent_updates(True)
        .request(AiohttpRequest(connection_pool_size=256, json_bodies=json_bodies))
        .get_updates_request(
            SlimUpdates(AiohttpRequest(connection_pool_size=1, json_bodies=json_bodies))
        )
        .post_init(started)
        .build()
    )
    app.add_handler(CallbackQueryHandler(pressed))
    app.run_polling(poll_interval=0, timeout=1, drop_pending_updates=False)


class FloorApi(FakeBotApi):
    def __init__(self) -> None:
        super().__init__()
        self.answered = 0
        self.edited: dict[int, asyncio.Event] = {}

    async def _m_answerCallbackQuery(self, params: dict[str, Any]) -> bool:
        self.answered += 1
        return await super()._m_answerCallbackQuery(params)


async def run(
    chats: int,
    seconds: float,
    think: float,
    edits: int,
    variant: str = "ours",
    chars: int = 0,
    buttons: int = 0,
) -> dict[str, float]:
    api = FloorApi()
    api.keep_calls = api.keep_history = False
    await api.start()
    env = {**os.environ, "BOT_TOKEN": api.token, "BOT_API_BASE_URL": api.base_url}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.floor", "--serve", str(edits), variant, str(chars),
        str(buttons), env=env, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    await process.stdout.readline()
    rng = random.Random(chats)
    users = [User(1_000_000 + i, f"U{i}") for i in range(chats)]
    messages: list[Sent] = []
    for i in range(chats):
        chat = -10_000 - i
        await api.add_to_group(users[i], chat)
        api._message_id += 1
        sent = Sent(chat_id=chat, message_id=api._message_id, text="go", markup=None)
        api.messages[(chat, sent.message_id)] = sent
        messages.append(sent)
    latencies: list[float] = []
    stop = asyncio.Event()

    async def player(i: int) -> None:
        step = 0
        while not stop.is_set():
            await asyncio.sleep(think * rng.uniform(0.5, 1.5) if think else 0)
            arrived = time.monotonic()
            query = await api.press(users[i], messages[i], str(step))
            await api.answer_of(query, timeout=60)
            latencies.append(time.monotonic() - arrived)
            step += 1

    tasks = [asyncio.create_task(player(i)) for i in range(chats)]
    await asyncio.sleep(3)
    latencies.clear()
    answered, cpu = api.answered, cpu_seconds(process.pid)
    start = time.monotonic()
    await asyncio.sleep(seconds)
    window = time.monotonic() - start
    cpu, answered = cpu_seconds(process.pid) - cpu, api.answered - answered
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    process.terminate()
    await process.wait()
    await api.stop()
    return {
        "presses_per_s": answered / window,
        "cpu_ms_per_press": cpu / max(1, answered) * 1000,
        "cpu_share": cpu / window,
        "answer_p99_ms": percentile(latencies, 0.99) * 1000,
    }


def main() -> None:
    if len(sys.argv) == 6 and sys.argv[1] == "--serve":
        serve_bot(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--chats", type=int, nargs="+", default=[100])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--edits", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=["ours"])
    parser.add_argument("--chars", type=int, default=0)
    parser.add_argument("--buttons", type=int, default=0)
    args = parser.parse_args()
    for chats in args.chats:
        for edits in args.edits:
            for variant in args.variants:
                r = asyncio.run(
                    run(chats, args.seconds, args.think, edits, variant, args.chars, args.buttons)
                )
                print(
                    f"{variant:9} chats {chats:5d} think {args.think:.1f}s edits {edits}: "
                    f"{r['presses_per_s']:7.1f} presses/s, {r['cpu_ms_per_press']:.2f} ms CPU a "
                    f"press ({r['cpu_share'] * 100:.0f} % of a core), answer p99 "
                    f"{r['answer_p99_ms']:.1f} ms",
                    flush=True,
                )


if __name__ == "__main__":
    main()
