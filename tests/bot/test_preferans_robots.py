"""Preferans robots end to end through the fake Bot API: a person fills two empty seats with
robots, plays deals with them (a restart while a robot is on turn), and the pulka is practice:
its whists go to the practice account in their own unit, never to money or to bridge's
practice points. SOAK=1 plays the whole pulka; by default two deals, then /end."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.i18n import Translator
from bot.tables import TableService
from games.core.registry import find_game
from games.preferans.deal import DealState
from games.preferans.game import PREFERANS
from games.preferans.records import from_text
from storage.events import replay
from tests.bot.harness import GROUP, Harness
from tests.bot.test_preferans_table import _choose, _offer
from tests.fakeapi import User
from tests.sizes import SOAK

RU = Translator("ru")
ANNA = User(301, "Anna", "ru", "anna")


def _results(h: Harness) -> int:
    return sum(1 for m in h.api.chat_messages(GROUP) if m.text.startswith("<b>Сдача "))


def _over(h: Harness) -> bool:
    return any("Пуля закрыта" in m.text for m in h.api.chat_messages(GROUP))


@pytest.mark.soak
async def test_two_robots_and_a_person_play_preferans_as_practice(h: Harness) -> None:
    rng = random.Random(4)
    await h.say(ANNA, ANNA.id, "/start")
    await h.say(ANNA, GROUP, "/preferans")
    seating = next(m for m in reversed(h.api.chat_messages(GROUP)) if ":sit:0" in str(m.buttons()))
    sit = next(
        b["callback_data"] for b in seating.buttons() if b["callback_data"].endswith(":sit:0")
    )
    assert not (await h.press(ANNA, seating, sit)).get("text")
    for seat in (1, 2):
        seating = next(
            m for m in reversed(h.api.chat_messages(GROUP)) if f":rb:{seat}" in str(m.buttons())
        )
        robot = next(
            b["callback_data"]
            for b in seating.buttons()
            if b["callback_data"].endswith(f":rb:{seat}")
        )
        assert not (await h.press(ANNA, seating, robot)).get("text")
    await h.settle()
    group = "\n".join(m.text for m in h.api.chat_messages(GROUP))
    assert "🤖 Робот 1" in group and "🤖 Робот 2" in group

    restarted = False
    wanted = 10**6 if SOAK else 2
    deadline = time.monotonic() + (900 if SOAK else 240)
    while not _over(h) and _results(h) < wanted:
        assert time.monotonic() < deadline, "the robots did not play on"
        assert h.app is not None
        service: TableService = h.app.bot_data["service"]
        snap = await service.snapshot(1)
        if not restarted and isinstance(snap.state, DealState) and snap.robot_turns():
            restarted = True  # the process dies while a robot is to act; it acts after
            await h.crash()
            await h.start()
            continue
        found = _offer(h, [ANNA])
        if found is None or not snap.state or snap.state.actor not in (0, None):
            await asyncio.sleep(0.02)  # the robots think
            continue
        user, sent, data = found
        answer = await h.press(user, sent, _choose(rng, data))
        if answer.get("text"):  # a robot moved meanwhile: that screen was stale
            assert answer["text"] in (RU("refusal.moved_on"), RU("refusal.stale")), answer
    assert restarted
    # The records of the deals played, while the next is under way: finished ones only, and
    # each reads back as the deal the table's log holds.
    await h.say(ANNA, GROUP, "/prefrecords")
    [document] = [m for m in h.api.chat_messages(GROUP) if m.kind == "document"]
    assert document.upload is not None
    assert "docs/" not in document.text and ".md" not in document.text  # no repository path
    records = from_text(document.upload.data.decode())
    assert len(records) == _results(h) and all(r.state.finished for r in records)
    assert h.app is not None
    storage = h.app.bot_data["storage"]
    for record in records:
        logged = replay(find_game("preferans"), 3, await storage.events(1, record.number))
        assert isinstance(logged, DealState)
        assert record.state.deal == logged.deal and record.state.result == logged.result
        assert record.names[0] == "Anna" and record.names[1].startswith("🤖")
    if not _over(h):
        h.api.admins.add(ANNA.id)
        await h.say(ANNA, GROUP, "/end")
    await h.settle()
    group = "\n".join(text for m in h.api.chat_messages(GROUP) for _, text in m.history)
    assert "Тренировочный счёт (пули с роботами" in group
    await h.say(ANNA, GROUP, "/ledger")
    ledger = h.api.chat_messages(GROUP)[-1].text
    assert "Тренировка с роботами" in ledger and "Anna" in ledger
    assert "Робот" not in ledger.split("Тренировка с роботами")[1]
    assert "amount." not in ledger
    rows = await storage.ledger((await storage.chat_by_tg(GROUP)).id)
    assert rows and {r.unit for r in rows} == {PREFERANS.practice_unit} == {"practice_whists"}
    assert sum(r.points for r in rows) == 0
