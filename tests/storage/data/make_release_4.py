"""Made release-4.sqlite3: run at commit 69629fd (schema 4) from the repository root; kept as a record, not run by the tests."""
import asyncio, random, shutil, sys
sys.path.insert(0, ".")
from tests.fakeapi import FakeBotApi, User
from tests.bot.harness import Harness, PLAYERS, GROUP, seat_four, scorekept_rubber, actor, data_of
from tests.bot.driver import Driver

async def main(out: str) -> None:
    api = FakeBotApi(); await api.start()
    h = Harness(api, "/tmp/fixture.sqlite3"); await h.start()
    # money settings, then a whole rubber online
    await seat_four(h)
    await h.say(PLAYERS[0], GROUP, "/settings stake 10 RUB")
    driver = Driver(h, PLAYERS, random.Random(7))
    await driver.play_until(driver.rubber_over)
    # a payment on the settle plan
    await h.say(PLAYERS[0], GROUP, "/settle")
    for sent in reversed(h.api.chat_messages(GROUP)):
        pays = [b["callback_data"] for b in sent.buttons() if ":pay:" in b.get("callback_data", "")]
        if pays:
            print("pay", pays)
            payee = [u for u in PLAYERS if pays[0].split(":")[-1].split("-")[1] == str(u.id)]
            for u in PLAYERS:
                ans = await h.press(u, sent, pays[0])
                print(ans)
            break
    # a scorekept rubber with guests in a second group
    await scorekept_rubber(h, PLAYERS[1], "Ivan Petr Olga Sveta", chat=-200)
    # second rubber at the first table: a few presses into its first deal, then an undo request
    for table in reversed(h.api.chat_messages(GROUP)):
        nxt = [b["callback_data"] for b in table.buttons() if b.get("callback_data", "").endswith(":nr")]
        if nxt:
            print(await h.press(PLAYERS[0], table, nxt[0]))
            break
    else:
        raise SystemExit("no next-rubber button")
    for _ in range(6):
        await driver.step()
    done = False
    for u in PLAYERS:
        for message in reversed(h.api.chat_messages(u.id)):
            und = [b["callback_data"] for b in message.buttons() if b.get("callback_data", "").endswith(":un")]
            if und and not done:
                ans = await h.press(u, message, und[0])
                print("undo", u.first_name, und, ans)
                done = "text" not in ans or "просьб" in ans.get("text", "").lower() or "ask" in ans.get("text", "").lower()
    assert done
    await h.settle()
    await h.crash()
    await api.stop()
    shutil.copy("/tmp/fixture.sqlite3", out)

asyncio.run(main(sys.argv[1]))
