"""The toy game's UI plug-in: what a second game's ``bot/games/<game>/`` package provides,
written against the bot's seams alone (``bot.plugin``: the screens, the outbox, the generic
action button), and only what differs from ``UIBase``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.callback_data import Act, Button
from bot.i18n import Translator
from bot.plugin import Plugin, Screens, UIBase
from bot.service import DealFinished, MatchFinished, Snapshot
from bot.views import Key, Rendered
from bot.views.text import user_text
from storage.interface import Match
from tests.toy.game import ToyState


class ToyUI(UIBase):
    game = "toy"
    commands: tuple[str, ...] = ("toy",)

    def seat_name(self, seat: int, language: str) -> str:
        return f"P{seat + 1}"

    def seat_from_word(self, word: str) -> int | None:
        return int(word) if word in ("0", "1") else None

    def show_deal(self, screens: Screens, snap: Snapshot) -> None:
        state = snap.state
        assert isinstance(state, ToyState)
        view = state.view(None)
        text = f"Toy table {snap.table_id}, deal {snap.deal_no}: on the table {list(view['table'])}"
        screens.outbox.want(
            snap.table_id,
            f"table:{snap.deal_no}",
            snap.chat.tg_chat_id,
            snap.topic_id,
            Rendered(user_text(text)),
        )
        for seat in snap.seats:
            self.show_hand(screens, snap, seat)

    def show_hand(self, screens: Screens, snap: Snapshot, seat: int, menu: str = "") -> None:
        holder = snap.seats.get(seat)
        state = snap.state
        if holder is None or holder.tg_user_id is None or not isinstance(state, ToyState):
            return
        view = state.view(seat)
        keys = tuple(
            (
                Key(
                    str(a.card),
                    Button(
                        snap.table_id, snap.deal_no, Act.ACTION, f"lay.{a.card}", snap.actions
                    ).encode(),
                ),
            )
            for a in state.legal_actions(seat)
        )
        text = f"Toy deal {snap.deal_no}: your cards {sorted(view['hand'])}"
        screens.outbox.want(
            snap.table_id,
            self.hand_key(seat, snap.deal_no),
            holder.tg_user_id,
            None,
            Rendered(text, keys),
        )

    def seating(self, snap: Snapshot, t: Translator, bot_username: str) -> Rendered:
        free = [s for s in (0, 1) if s not in snap.seats]
        row = tuple(
            Key(
                f"Sit {self.seat_name(s, t.language)}",
                Button(snap.table_id, 0, Act.SIT, str(s)).encode(),
            )
            for s in free
        )
        return Rendered(
            f"Toy table {snap.table_id}: {len(snap.seats)} of 2 seated", (row,) if row else ()
        )

    def notice(self, screens: Screens, snap: Snapshot, notice: Any, t: Translator) -> bool:
        if isinstance(notice, DealFinished):
            text = f"Toy deal {notice.deal_no} over: taken {notice.outcome['taken']}"
            for seat, holder in snap.seats.items():  # the finished deal's screens lose their keys
                if holder.tg_user_id is not None:
                    screens.outbox.want(
                        snap.table_id,
                        self.hand_key(seat, notice.deal_no),
                        holder.tg_user_id,
                        None,
                        Rendered(text),
                    )
        elif isinstance(notice, MatchFinished):
            text = f"Toy match over: {notice.summary['score']}"
        else:
            return False
        screens.outbox.post(snap.chat.tg_chat_id, snap.topic_id, Rendered(text))
        return True

    def scoresheet(self, snap: Snapshot, t: Translator) -> Rendered:
        return Rendered("toy score")

    def history_line(self, match: Match, names: Mapping[int, str], t: Translator) -> str:
        return f"toy {match.result}"



TOY_UI = ToyUI()
TOY_PLUGIN = Plugin(ui=TOY_UI)
