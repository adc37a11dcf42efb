"""Made release-5.sqlite3: run at commit 1aaf4d5 (the release before groups' own games) from the
repository root.

Kept as the record of how the fixture was made; the tests never run it (today's code would
write today's data).
"""

import asyncio
import random
import shutil
import sys

from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, scorekept_rubber, seat_four
from tests.bot.test_preferans_table import PLAYERS as PREF
from tests.bot.test_preferans_table import _choose, _offer
from tests.fakeapi import FakeBotApi

PULKA_GROUP = -300


async def main(out: str) -> None:
    api = FakeBotApi()
    await api.start()
    h = Harness(api, "/tmp/fixture5.sqlite3")
    await h.start()
    # group -100: a rubber online to its end, with a stake; a kept rubber between guests
    await seat_four(h)
    await h.say(PLAYERS[0], GROUP, "/settings stake 10 RUB")
    driver = Driver(h, PLAYERS, random.Random(7))
    await driver.play_until(driver.rubber_over)
    await scorekept_rubber(h, PLAYERS[1], "Ivan Petr Olga Sveta", chat=-200)
    # group -300: a pulka to 2 online, to its end
    for user in PREF:
        await h.say(user, user.id, "/start")
    await h.say(PREF[0], PULKA_GROUP, "/preferans")
    api.admins.add(PREF[0].id)
    await h.say(PREF[0], PULKA_GROUP, "/settings target 2")
    seating = next(
        m for m in reversed(api.chat_messages(PULKA_GROUP)) if ":sit:" in str(m.buttons())
    )
    for seat, user in enumerate(PREF):
        sit = next(
            b["callback_data"]
            for b in seating.buttons()
            if b["callback_data"].endswith(f":sit:{seat}")
        )
        await h.press(user, seating, sit)
    rng = random.Random(3)
    for _ in range(3000):
        if any(
            "Пуля закрыта" in m.text or "pulka is over" in m.text
            for m in api.chat_messages(PULKA_GROUP)
        ):
            break
        found = _offer(h, PREF)
        assert found is not None
        user, sent, data = found
        await h.press(user, sent, _choose(rng, data))
    await h.settle()
    await h.crash()
    await api.stop()
    shutil.copy("/tmp/fixture5.sqlite3", out)


if __name__ == "__main__":
    sys.path.insert(0, ".")
    asyncio.run(main(sys.argv[1]))
