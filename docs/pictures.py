"""Draws the README's pictures from the real bot, against the tests' fake Bot API: a rubber's
scoresheet and a pulka as the bot posts them, and a bridge table's group message mid-play as a
chat shows it. Run from the repository's root after a change to what they show:

    .venv/bin/python docs/pictures.py [FOLDER]     (docs/img by default)
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bot.driver import Driver  # noqa: E402
from tests.bot.harness import GROUP, PLAYERS, Harness, seat_four  # noqa: E402
from tests.fakeapi import FakeBotApi, Sent, User  # noqa: E402

RUBBER, PULKA, TABLE = -201, GROUP, -301  # the Preferans helpers seat players in GROUP
KEPT_RUBBER = ("/deal 2H E +1", "/deal 4S N =", "/deal 3NT W -2", "/deal 1NT E =", "/deal 4H S =")
PREF = [User(401, "Аня", "ru", "anya"), User(402, "Боря", "ru"), User(403, "Вика", "ru")]


def _photo(api: FakeBotApi, chat: int) -> bytes:
    photos = [m for m in api.chat_messages(chat) if m.kind == "photo" and m.upload is not None]
    assert photos, f"no picture was posted in {chat}"
    upload = photos[-1].upload
    assert upload is not None
    return upload.data


async def _pulka(h: Harness, api: FakeBotApi) -> bytes:
    """Three deals at a Preferans table, each press one the bot offered; then /score, and the
    picture it posts."""
    from tests.bot.test_preferans_table import _choose, _offer, sit_all

    for user in PREF:
        await h.say(user, user.id, "/start")
    await h.say(PREF[0], PULKA, "/preferans")
    await sit_all(h, PREF)
    rng = random.Random(4)
    while sum(m.text.startswith("<b>Сдача ") for m in api.chat_messages(PULKA)) < 3:
        found = _offer(h, PREF)
        assert found is not None, "nobody has a button to press"
        user, sent, data = found
        await h.press(user, sent, _choose(rng, data))
        await h.settle()
    await h.say(PREF[0], PULKA, "/score")  # the pulka drawn on request
    await h.settle()
    return _photo(api, PULKA)


def chat_picture(message: Sent) -> bytes:
    """A group message as a chat shows it: its text (tags applied) in a bubble, its buttons
    under it."""
    import io

    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch

    def drawable(text: str) -> str:  # the plot's font has no emoji: left out, not boxes
        return "".join(ch for ch in text if ord(ch) <= 0xFFFF).strip()

    lines = [drawable(line) for line in message.plain.splitlines()]
    buttons = [drawable(b["text"]) for b in message.buttons()]
    height = 0.6 + 0.23 * len(lines) + (0.45 if buttons else 0)
    figure = Figure(figsize=(6.2, height), facecolor="#dfe8d3")
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, 6.2)
    axes.set_ylim(0, height)
    axes.axis("off")
    top = height - 0.2
    bubble_h = 0.2 + 0.23 * len(lines)
    axes.add_patch(
        FancyBboxPatch(
            (0.2, top - bubble_h), 5.8, bubble_h, boxstyle="round,pad=0.05,rounding_size=0.15",
            facecolor="white", edgecolor="#c9d3bd",
        )
    )  # fmt: skip
    for index, line in enumerate(lines):
        y = top - 0.22 - 0.23 * index
        axes.text(0.35, y, line, fontsize=9.5, family="DejaVu Sans Mono", va="center", ha="left")
    if buttons:
        width = 5.8 / len(buttons)
        for index, label in enumerate(buttons):
            x = 0.2 + width * index
            axes.add_patch(
                FancyBboxPatch(
                    (x + 0.04, 0.12), width - 0.08, 0.3, boxstyle="round,pad=0.02",
                    facecolor="#a6b895", edgecolor="none",
                )
            )  # fmt: skip
            axes.text(x + width / 2, 0.27, label, fontsize=9, ha="center", va="center",
                      color="white")  # fmt: skip
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=110)
    return out.getvalue()


async def draw(folder: Path) -> list[Path]:
    api = FakeBotApi()
    await api.start()
    written = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            h = Harness(api, str(Path(tmp) / "bot.sqlite3"), shuffle_seed=5)
            await h.start()
            try:
                anna = PLAYERS[0]
                await h.say(anna, RUBBER, "/keep Anna Bob Cat Dima")
                for entry in KEPT_RUBBER:
                    await h.say(anna, RUBBER, entry)
                await h.settle()
                rubber = _photo(api, RUBBER)
                pulka = await _pulka(h, api)
                await seat_four(h, PLAYERS, TABLE)
                driver = Driver(h, PLAYERS, random.Random(2), chat=TABLE)
                while not any(len(log.played) >= 10 for log in driver.deals.values()):
                    assert await driver.step(), "nobody could press"
                await h.settle()
                table = chat_picture(h.table_message(TABLE))
            finally:
                await h.stop()
    finally:
        await api.stop()
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in (("rubber.png", rubber), ("pulka.png", pulka), ("table.png", table)):
        path = folder / name
        path.write_bytes(data)
        written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "img"
    for path in asyncio.run(draw(target)):
        print(path)
