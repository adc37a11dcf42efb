"""A whole rubber through PTB's real HTTP stack and the fake Bot API, pressing only offered
buttons; no concealed card ever reaches the group or another player's chat."""

from __future__ import annotations

import random
import re

from bot.games.bridge.cards import seat_text
from games.bridge.analysis import analyse
from games.bridge.calls import Strain
from games.bridge.cards import Card, Deal, Seat
from storage.sqlite import SqliteStorage
from tests.bot.driver import Driver
from tests.bot.harness import GROUP, PLAYERS, Harness, cards_in, deal_number, seat_four


def _allowed(
    driver: Driver, hands: dict[int, dict[Seat, set[Card]]], deal: int, at: int, own: Seat | None
) -> set[Card]:
    log = driver.deals.get(deal)
    allowed: set[Card] = set()
    if own is not None and deal in hands:
        allowed |= hands[deal][own]
    if log is None:
        return allowed
    allowed |= {card for index, card in log.played if index <= at}
    if log.lead_at is not None and log.lead_at <= at and log.declarer is not None:
        allowed |= hands[deal][log.declarer.partner]
    return allowed


async def test_full_rubber_by_offered_buttons_without_leaks(h: Harness) -> None:
    await seat_four(h)
    driver = Driver(h, PLAYERS, random.Random(7))
    await driver.play_until(driver.rubber_over)
    print("deals in the rubber:", len(driver.deals), "presses:", driver.presses)
    hands = driver.hands()
    assert len(hands) >= 2
    for deal in hands.values():
        assert len(deal) == 4 and len(set().union(*deal.values())) == 52

    # The group: every version of every message shows only played cards and, after the
    # opening lead, dummy's.
    checked = 0
    for sent in h.api.chat_messages(GROUP):
        for index, text in sent.history:
            number = deal_number(text)
            shown = cards_in(text)
            if number is None:
                assert not shown or "<pre>" not in text or "🃏" not in text
                continue
            if "Расклад" in text:  # the result of a finished deal shows all four hands
                assert shown == set().union(*hands[number].values())
                continue
            leaked = shown - _allowed(driver, hands, number, index, None)
            assert not leaked, (number, index, leaked, text, driver.deals.get(number))
            checked += 1
    assert checked > 10
    # No robot at the table: no robots' signalling agreement on it.
    assert not any(
        "сигналы роботов" in text for sent in h.api.chat_messages(GROUP) for _, text in sent.history
    )
    # Each private chat: own hand, played cards, dummy after the lead; nothing else.
    for user in PLAYERS:
        seat = driver.seat_of(user)
        for sent in h.api.chat_messages(user.id):
            for index, text in sent.history:
                number = deal_number(text)
                if number is None:
                    continue
                leaked = cards_in(text) - _allowed(driver, hands, number, index, seat)
                assert not leaked, (user.first_name, number, leaked)

    # The rubber's result reached the ledger, summing to zero, one row per player.
    assert h.app is not None
    storage: SqliteStorage = h.app.bot_data["storage"]
    chat = await storage.chat_by_tg(GROUP)
    assert chat is not None
    balances = await storage.balances(chat.id, "points")
    assert len(balances) == 4 and sum(balances.values()) == 0
    rubber = (await storage.matches(chat.id))[0]
    assert rubber.result is not None and rubber.result["points"] % 100 == 0
    winners = {pid for pid, points in balances.items() if points > 0}
    if rubber.result["points"]:
        winning_seats = {Seat(s) for s, pid in rubber.seats.items() if pid in winners}
        assert {s.side for s in winning_seats} == {Seat.parse(rubber.result["winner"][0]).side}
    # Russian in the group, both languages in private chats.
    group_text = " ".join(m.text for m in h.api.chat_messages(GROUP))
    assert "Роббер окончен" in group_text
    assert "Your hand" in h.api.chat_messages(PLAYERS[1].id)[-1].history[0][1]
    assert "Ваши карты" in h.api.chat_messages(PLAYERS[0].id)[-1].history[0][1]
    # Each deal's result says what its contract makes double-dummy, as the solver does for the
    # deal the log holds (vulnerability as the rubber stood: deal 1 nobody vulnerable).
    events = await storage.events(1, 1)
    deal = Deal.from_pbn(str(events[0].payload["pbn"]))
    analysis = analyse(deal, False, False)
    first = next(m for m in h.api.chat_messages(GROUP) if "Сдача 1</b>:" in m.text)
    assert "🔍 При открытых картах" in first.text or "Пас" in first.text
    assert "Пар: " in first.text or not analysis.par
    # The whole table comes on the result's button, as a popup to whoever presses.
    [dd_button] = [b["callback_data"] for b in first.buttons() if ":dd:" in b["callback_data"]]
    popup = await h.press(PLAYERS[0], first, dd_button)  # Anna reads Russian
    assert popup.get("show_alert"), popup
    rows = popup["text"].splitlines()[1:]
    for seat, row in zip(Seat, rows, strict=True):
        assert row.startswith(seat_text(seat, "ru")), (seat, row)
        assert [int(n) for n in re.findall(r"\d+", row)] == [
            analysis.makes(s, seat)
            for s in (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
        ], (seat, row)
    # Each deal's table message looks back at its tricks: a popup of cards that were played,
    # newest first, to whoever presses (Anna reads Russian).
    tables = [m for m in h.api.chat_messages(GROUP) if "🃏" in m.text and deal_number(m.text)]
    looked = 0
    for table in tables:
        number = deal_number(table.text)
        data = [b["callback_data"] for b in table.buttons() if b["callback_data"].endswith(":tr")]
        if not data or number is None:
            continue
        popup = await h.press(PLAYERS[0], table, data[0])
        assert popup.get("show_alert") and popup["text"].startswith("Взятки этой сдачи"), popup
        played = {card for _, card in driver.deals[number].played}
        assert cards_in(popup["text"]) <= played and cards_in(popup["text"]), popup
        looked += 1
    assert looked >= 1
