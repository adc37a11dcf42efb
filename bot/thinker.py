"""``python -m bot.thinker``: a robot worker for ``ROBOT_QUEUE_URL`` (``bot.thinking``).

It takes one thought at a time from the queue, thinks in a thread of its own (the solvers
release Python's lock, so the worker's heartbeat goes on meanwhile), writes the answer to
``bot_thoughts`` and notifies the bot. Run as many as the machines have cores to spare, one a
core (the robots size their sampling for one core a thought). It runs at the lowest priority,
so on the bot's own machine the people's answers come first. Nothing here writes a game: the
bot applies what a worker answers, if the table is still where the question was asked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from typing import Any

from bot.config import ConfigError, database_password, robot_queue_from_env
from bot.redact import install
from bot.thinking import (
    CHANNEL,
    HEARTBEAT_S,
    QUEUE,
    STALL_S,
    TASK,
    answer,
    decode,
    ensure_schema,
    queue_app,
    think,
)
from games.core.data import NotData

log = logging.getLogger("bot.thinker")


def build(url: str) -> Any:
    """The queue's app with the one task a worker runs."""
    app = queue_app(url)

    @app.task(name=TASK, queue=QUEUE, pass_context=True)  # type: ignore[untyped-decorator]
    async def thought(context: Any, key: str, payload: str) -> None:
        try:
            work, args = decode(payload)
        except NotData as error:  # not a question of the bot's: nothing of it is run
            log.warning("thought %s refused: %s", key, error)
            result = answer(False, f"refused question: {error}")
        else:
            log.info("thinking %s", key)
            try:
                result = answer(True, await asyncio.to_thread(think, None, work, *args))
            except Exception as error:
                log.exception("thought %s failed", key)
                result = answer(False, f"{type(error).__name__}: {error}")
        connector = context.app.connector
        await connector.execute_query_async(
            f"INSERT INTO {CHANNEL} (key, result) VALUES (%(key)s, %(result)s) "
            "ON CONFLICT (key) DO NOTHING",
            key=key,
            result=result,
        )
        await connector.execute_query_async("SELECT pg_notify(%(c)s, %(k)s)", c=CHANNEL, k=key)
        log.info("answered %s", key)

    return app


async def work(url: str) -> None:
    await ensure_schema(url)
    app = build(url)
    async with app.open_async():
        await app.run_worker_async(
            queues=[QUEUE],
            name="thinker",
            concurrency=1,
            fetch_job_polling_interval=1.0,
            update_heartbeat_interval=HEARTBEAT_S,
            stalled_worker_timeout=STALL_S,
            delete_jobs="successful",
            install_signal_handlers=True,
        )


def main() -> int:
    given = os.environ.get("ROBOT_QUEUE_URL", "").strip()
    level = os.environ.get("LOG_LEVEL", "INFO").strip().upper()
    logging.basicConfig(
        level=level if level in logging.getLevelNamesMapping() else "INFO",
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stdout,
    )
    install("", database_password(given))  # the queue's password: never in a line
    try:  # the bot's own rule for the setting
        url = robot_queue_from_env(os.environ)
    except ConfigError as error:
        log.error("%s", error)
        return 2
    if url is None:
        log.error("ROBOT_QUEUE_URL is not set: give the queue's postgresql://… address")
        return 2
    if hasattr(os, "setpriority"):
        os.setpriority(os.PRIO_PROCESS, 0, 19)
    log.info("ready")
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(work(url))
    except Exception:  # through the log, so the password is masked
        log.exception("the robot worker stopped")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
