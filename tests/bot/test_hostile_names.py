"""Hostile names and titles (HTML, very long, right-to-left) in every kind of message.

The fake Bot API parses HTML as strictly as Telegram does and refuses what Telegram refuses, so
one unescaped name would make a message vanish; here none may be refused, and each name must
read as typed.
"""

from __future__ import annotations

import csv
import io
import random

from tests.bot.driver import Driver
from tests.bot.harness import GROUP, Harness, actor, data_of, scorekept_rubber, seat_four
from tests.fakeapi import Sent, User

LONG = "Dmitri " + "x" * 57  # 64 characters, Telegram's longest first name
HOSTILE = [
    User(401, "Anna <3", "ru", "anna"),
    User(402, "<b>x", "en", "bob"),
    User(403, "=SUM(A1) a & b", "en", "cat"),  # a formula, for the CSV
    User(404, LONG, "ru", "dima"),
]
EVE = User(405, "שלום <i>", "en", "eve")
TITLE = "<script>Club & Co"


def shown(h: Harness, chat: int) -> str:
    """Everything the chat shows, every version of every message, as plain text."""
    return "\n".join(m.plain or m.text for m in h.api.chat_messages(chat))


def assert_nothing_refused(h: Harness) -> None:
    assert h.api.refused == [], h.api.refused


def newest_with(h: Harness, fragment: str, chat: int = GROUP) -> Sent:
    for sent in reversed(h.api.chat_messages(chat)):
        if any(fragment in b.get("callback_data", "") for b in sent.buttons()):
            return sent
    raise AssertionError(fragment)


async def test_hostile_names_and_titles_in_every_message(h: Harness) -> None:
    h.api.chat_titles[GROUP] = TITLE
    players = list(HOSTILE)
    await seat_four(h, players)
    for user in players:  # "You sit at … in «title»"
        assert TITLE in shown(h, user.id)

    # Undo asked and refused; the table and hands.
    first, message = actor(h, players)
    await h.press(first, message, data_of(message, ":a:call.1H"))
    quiet = next(m for m in reversed(h.api.chat_messages(first.id)) if ":un" in str(m.buttons()))
    await h.press(first, quiet, data_of(quiet, ":un"))
    await h.settle()
    request = newest_with(h, ":ua:n")
    opponent = players[(players.index(first) + 1) % 4]
    await h.press(opponent, request, data_of(request, ":ua:n"))

    # A substitute with a right-to-left name comes in for the player to call now.
    leaving, _ = actor(h, players)
    await h.say(EVE, EVE.id, "/start")
    await h.say(leaving, GROUP, "/sub @nobody_here")  # refused, naming who was asked for
    await h.say(leaving, GROUP, "/sub @eve")
    for player in players:
        if player is leaving:
            continue
        proposal = newest_with(h, ":sb:y")
        await h.press(player, proposal, data_of(proposal, ":sb:y"))
    await h.settle()
    players[players.index(leaving)] = EVE
    assert_nothing_refused(h)

    # A vote to stop, withdrawn; then the whole rubber.
    await h.say(players[0], GROUP, "/end")
    vote = newest_with(h, ":end:n")
    await h.press(players[1], vote, data_of(vote, ":end:n"))
    driver = Driver(h, players, random.Random(3), short=True)
    await driver.play_until(driver.rubber_over)
    await h.settle()
    assert_nothing_refused(h)

    # Money and records. The online rubber may come out square when rounded: a scorekept one
    # between the same hostile names makes sure there is something to settle.
    await scorekept_rubber(h, players[0], "@anna @bob @cat @dima")
    await h.say(players[0], GROUP, "/settings stake 10 <b>&")
    await h.say(players[0], GROUP, "/settings")
    await h.say(players[0], GROUP, "/score")
    await h.say(players[0], GROUP, "/ledger")
    await h.say(players[0], GROUP, "/settle")
    plan = newest_with(h, ":pay:")  # the rubber's picture, drawn off the loop, may come later
    pay = next(b["callback_data"] for b in plan.buttons() if ":pay:" in b["callback_data"])
    assert all(b["text"] and len(b["text"]) <= 60 for b in plan.buttons())
    storage = h.app.bot_data["storage"] if h.app else None
    assert storage is not None
    payee_id = int(pay.rsplit(":", 1)[1].split("-")[1])
    by_id = {(await storage.player_by_tg(u.id)).id: u for u in (*players, *HOSTILE)}
    payee = by_id[payee_id]
    answer = await h.press(payee, plan, pay)
    assert answer.get("text")
    await h.settle()
    await h.say(players[0], GROUP, "/history")
    await h.say(players[0], GROUP, "/history csv")
    [document] = [m for m in h.api.chat_messages(GROUP) if m.kind == "document"]
    assert document.upload is not None
    rows = list(csv.reader(io.StringIO(document.upload.data.decode())))
    assert "'=SUM(A1) a & b" in {row[3] for row in rows}
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)

    # A scorekeeper's sheet with hostile guests, an entry and an undo by hostile names.
    await h.say(players[1], GROUP, "/keep <b>guest, a & b, Zed, שלום")
    await h.say(players[1], GROUP, "/keep @nobody<b> x y z")
    await h.say(players[1], GROUP, "/deal 2S N =")
    await h.say(players[3], GROUP, "/undo")
    for user in players:
        await h.say(user, user.id, "/start")
    await h.settle()

    assert_nothing_refused(h)
    group = shown(h, GROUP)
    for text in ("Anna <3", "<b>x", "a & b", LONG[:30], "שלום <i>", "<b>guest", "@nobody_here"):
        assert text in group, text
    assert "<b>&" in group  # the currency, as typed
    assert "&amp;" not in group and "&lt;" not in group  # nothing escaped twice
    for user in players:
        private = shown(h, user.id)
        assert TITLE in private and "&lt;" not in private
