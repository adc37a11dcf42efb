"""Made release-4.sqlite3: run at commit 69629fd (schema 4) from the repository root.

Kept as the record of how the fixture was made; the tests never run it (today's code would
write today's schema).
"""

import asyncio
import random
import shutil
import sys

from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, scorekept_rubber, seat_four
from tests.fakeapi import FakeBotApi


async def main(out: str) -> None:
    api = FakeBotApi()
    await api.start()
    h = Harness(api, "/tmp/fixture.sqlite3")
    await h.start()
    await seat_four(h)
    await h.say(PLAYERS[0], GROUP, "/settings stake 10 RUB")
    driver = Driver(h, PLAYERS, random.Random(7))
    await driver.play_until(driver.rubber_over)
    await h.say(PLAYERS[0], GROUP, "/settle")
    for sent in reversed(h.api.chat_messages(GROUP)):
        pays = [b["callback_data"] for b in sent.buttons() if ":pay:" in b.get("callback_data", "")]
        if pays:
            for user in PLAYERS:  # only the payee's press is recorded
                await h.press(user, sent, pays[0])
            break
    await scorekept_rubber(h, PLAYERS[1], "Ivan Petr Olga Sveta", chat=-200)
    for table in reversed(h.api.chat_messages(GROUP)):
        found = [b["callback_data"] for b in table.buttons() if b["callback_data"].endswith(":nr")]
        if found:
            await h.press(PLAYERS[0], table, found[0])
            break
    for _ in range(6):
        await driver.step()
    asked = False
    for user in PLAYERS:
        for message in reversed(h.api.chat_messages(user.id)):
            data = [b["callback_data"] for b in message.buttons()]
            undo = [d for d in data if d.endswith(":un")]
            if undo and not asked:
                answer = await h.press(user, message, undo[0])
                asked = "text" not in answer  # a stale button answers with a refusal
    assert asked
    await h.settle()
    await h.crash()
    await api.stop()
    shutil.copy("/tmp/fixture.sqlite3", out)


if __name__ == "__main__":
    sys.path.insert(0, ".")
    asyncio.run(main(sys.argv[1]))
