"""One table whose log does not replay (an event changed by hand, a damaged import) must not
stop the bot: at start it is set aside with one log line and a message to its group, and every
other table runs on."""

from __future__ import annotations

import json
import logging
import random
import sqlite3

import pytest

from bot.i18n import Translator
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four
from tests.fakeapi import User
from tests.handedit import edit_events

OTHER = -4040
OTHERS = [User(801 + i, f"P{i}", "en", f"p{i}") for i in range(4)]


async def test_a_table_that_does_not_replay_is_set_aside_and_the_rest_runs(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await seat_four(h)
    await seat_four(h, OTHERS, OTHER)
    ours, theirs = Driver(h, PLAYERS, random.Random(1)), Driver(h, OTHERS, random.Random(2), OTHER)
    for _ in range(3):
        assert await ours.step()
        assert await theirs.step()
    await h.stop()
    con = sqlite3.connect(h.database)
    with con:
        seq, payload = con.execute(
            "SELECT seq, payload FROM events WHERE table_id = 1 AND kind = 'call' ORDER BY seq"
        ).fetchone()
        call = json.loads(payload)
        call["call"] = "8NT"  # no such call: the deal cannot be replayed
        # By hand, past the append-only guard, as someone editing the file would.
        edit_events(
            con,
            "UPDATE events SET payload = ? WHERE table_id = 1 AND seq = ?",
            (json.dumps(call), seq),
        )
    con.close()
    caplog.set_level(logging.INFO)
    before = len(h.api.chat_messages(GROUP))
    await h.start()
    await h.settle()
    # The group of the damaged table is told, once, in its table's language.
    told = [m.text for m in h.api.chat_messages(GROUP)[before:]]
    assert told == [Translator("ru")("refusal.table_set_aside")], told
    lines = [r for r in caplog.records if "set aside" in r.getMessage()]
    assert len(lines) == 1 and not lines[0].exc_info
    # Its buttons answer with the reason; the other group's table plays on.
    user, message = ours.actor() or (PLAYERS[0], h.table_message())
    data = next(b["callback_data"] for b in message.buttons() if ":a:" in b["callback_data"])
    answer = await h.press(user, message, data)
    assert answer.get("text") == Translator(user.language_code)("refusal.table_set_aside")
    for _ in range(3):
        assert await theirs.step()
