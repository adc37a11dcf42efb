"""Preferans's UI plug-in: the seating, the group's table message, each player's private screen
with buttons for exactly the legal actions, the results and the pulka sheet.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from telegram import InputFile

from bot.callback_data import Act, Button, action_data
from bot.games.preferans.pictures import pulka_picture
from bot.games.preferans.views import (
    bid_text,
    bidding_line,
    card_text,
    contract_lines,
    hand_lines,
    hands_block,
    pulka_block,
    result_line,
    settlement_lines,
    trick_lines,
)
from bot.i18n import Translator
from bot.outbox import Outbox
from bot.plugin import Screens, UIBase
from bot.service import (
    DealFinished,
    EndVote,
    MatchFinished,
    Refusal,
    Snapshot,
    UndoAnswered,
    UndoAsked,
)
from bot.views import Key, Rendered, key_rows
from bot.views.amounts import money
from bot.views.misc import answer_keys, undo_key
from bot.views.text import user_text
from games.errors import OutOfTurn, Reason
from games.preferans.cards import Card
from games.preferans.deal import (
    AnswerClaim,
    Call,
    DealState,
    Declare,
    Discard,
    MakeClaim,
    Phase,
    Play,
    SeatView,
    Show,
    Whist,
)
from games.preferans.game import CODEC, PulkaMatch
from storage.interface import Match, TableStatus

VARIANTS = ("sochi", "leningrad", "rostov")
TARGETS = (10, 20, 30, 50)
MAX_TARGET = 500  # a pool target typed with /settings target N


def _state(snap: Snapshot) -> DealState | None:
    state = snap.state
    if state is None:
        return None
    assert isinstance(state, DealState)
    return state


def _names(snap: Snapshot) -> dict[int, str]:
    return {seat: holder.name for seat, holder in snap.seats.items()}


def _options(options: Mapping[str, Any]) -> tuple[str, int, int]:
    return (
        str(options.get("variant", "sochi")),
        int(options.get("target", 10)),
        int(options.get("players", 3)),
    )


def _next(values: tuple[Any, ...], current: Any) -> Any:
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


def _picked(menu: str, hand: frozenset[Card]) -> list[Card]:
    """The cards of a half-chosen discard (``drop.SA``), those still in the hand only."""
    if not menu.startswith("drop"):
        return []
    picked = []
    for text in menu.split(".")[1:3]:
        try:
            card = Card.parse(text)
        except Exception:  # a forged menu: start the choice again
            return []
        if card in hand and card not in picked:
            picked.append(card)
    return picked


class PreferansUI(UIBase):
    game = "preferans"
    commands: tuple[str, ...] = ("preferans", "pref")

    def seat_name(self, seat: int, language: str) -> str:
        return Translator(language)("pref.seat", number=seat + 1)

    def seat_from_word(self, word: str) -> int | None:
        return int(word) if word in ("0", "1", "2", "3") else None

    def hand_key(self, seat: int, deal_no: int) -> str:
        return f"hand:{seat}:{deal_no}"

    # --- the deal -------------------------------------------------------------------------

    def show_deal(self, screens: Screens, snap: Snapshot) -> None:
        state = _state(snap)
        if state is not None:
            self._deal(screens, snap, snap.deal_no, state)

    def _deal(self, screens: Screens, snap: Snapshot, deal_no: int, state: DealState) -> None:
        t = screens.group_translator(snap)
        table = self.render_table(snap, deal_no, state.view(None), t)
        screens.outbox.want(
            snap.table_id, f"table:{deal_no}", snap.chat.tg_chat_id, snap.topic_id, table
        )
        for seat in snap.seats:
            self._hand(screens, snap, seat, deal_no, state)

    def _head(self, snap: Snapshot, deal_no: int, view: SeatView, t: Translator) -> list[str]:
        names = _names(snap)
        head = t(
            "pref.head",
            number=snap.table_id,
            deal=snap.deal_in_match(deal_no),
            dealer=user_text(names.get(view.dealer, "—")),
        )
        lines = [f"<b>{head}</b>"]
        if view.players == 4:
            lines.append(t("pref.sits_out", name=user_text(names.get(view.dealer, "—"))))
        lines.append(bidding_line(view, names, t))
        lines += contract_lines(view, names, t)
        lines += trick_lines(view, names, t)
        return lines

    def render_table(self, snap: Snapshot, deal_no: int, view: SeatView, t: Translator) -> Rendered:
        names = _names(snap)
        lines = self._head(snap, deal_no, view, t)
        lines[1:1] = standing_lines(snap, names, t)
        block = hands_block(view, names, t)
        if block:
            lines.append(block)
        if view.result is not None:
            lines.append(t("pref.deal_over"))
        elif view.actor is not None:
            lines.append(t("pref.waiting", name=user_text(names.get(view.actor, "—"))))
        return Rendered("\n".join(lines))

    def show_hand(self, screens: Screens, snap: Snapshot, seat: int, menu: str = "") -> None:
        state = _state(snap)
        if state is None:
            return
        discard = menu.startswith("drop") and state.phase is Phase.DISCARD
        claim = menu == "claim" and any(isinstance(a, MakeClaim) for a in state.legal_actions(seat))
        if menu and not (discard or claim):
            raise Refusal("stale")
        if discard and state.actor != seat:  # the discard is declarer's alone to choose
            raise OutOfTurn("drop", Reason.NOT_YOUR_TURN)
        self._hand(screens, snap, seat, snap.deal_no, state, menu)

    def _hand(
        self,
        screens: Screens,
        snap: Snapshot,
        seat: int,
        deal_no: int,
        state: DealState,
        menu: str = "",
    ) -> None:
        view = state.view(seat)
        screens.private(
            snap,
            seat,
            self.hand_key(seat, deal_no),
            lambda t: self.render_private(snap, seat, deal_no, view, t, menu),
        )

    def render_private(
        self, snap: Snapshot, seat: int, deal_no: int, view: SeatView, t: Translator, menu: str
    ) -> Rendered:
        names = _names(snap)
        lines = self._head(snap, deal_no, view, t)
        if seat not in view.active:
            lines.append(t("pref.you_sit_out"))
        block = hands_block(view, names, t)
        if block:
            lines.append(block)
        if view.result is not None or snap.status is not TableStatus.PLAYING:
            lines.append(t("pref.deal_over"))
            return Rendered("\n".join(lines))
        if snap.paused:
            paused = ", ".join(user_text(names.get(s, "—")) for s in sorted(snap.paused))
            lines.append(t("table.paused", names=paused))
            return Rendered("\n".join(lines))
        if not view.legal:
            if view.actor is not None:
                lines.append(t("pref.waiting", name=user_text(names.get(view.actor, "—"))))
            if view.undoable_by != seat:
                return Rendered("\n".join(lines))
            return Rendered("\n".join(lines), ((undo_key(snap.table_id, deal_no, t),),))
        lines.append(f"<b>{t('pref.your_turn')}</b>")
        if view.turn is not None and view.turn != seat and view.phase is Phase.PLAY:
            lines.append(t("pref.for", name=user_text(names.get(view.turn, "—"))))
        keys = self._keys(snap, deal_no, view, t, menu, lines)
        if view.undoable_by == seat and view.claim is None and not menu:
            # On play again after their own last action (a trick won): theirs to take back.
            keys = (*keys, (undo_key(snap.table_id, deal_no, t),))
        return Rendered("\n".join(lines), keys)

    def _keys(
        self,
        snap: Snapshot,
        deal_no: int,
        view: SeatView,
        t: Translator,
        menu: str,
        lines: list[str],
    ) -> tuple[tuple[Key, ...], ...]:
        at = snap.actions

        def act(label: str, action: Any) -> Key:
            return Key(label, action_data(snap.table_id, deal_no, at, CODEC.encode(action)))

        legal = view.legal
        if view.claim is not None:
            answers = [a for a in legal if isinstance(a, AnswerClaim)]
            return (
                tuple(act(t("button.accept" if a.accept else "button.reject"), a) for a in answers),
            )
        if view.phase is Phase.AUCTION:
            calls = [a for a in legal if isinstance(a, Call)]
            special = tuple(
                act(bid_text(c.bid, t), c) for c in calls if c.bid is None or c.bid.is_misere
            )
            rows: dict[int, list[Key]] = {}
            for c in calls:
                if c.bid is not None and not c.bid.is_misere:
                    rows.setdefault(c.bid.level, []).append(act(bid_text(c.bid, t), c))
            return (special, *(tuple(r) for _, r in sorted(rows.items())))
        if view.phase is Phase.DISCARD:
            return self._discard_keys(snap, deal_no, view, t, menu, lines)
        if view.phase is Phase.CONTRACT:
            declares = [a for a in legal if isinstance(a, Declare)]
            keys = [act(bid_text(d.contract, t), d) for d in declares]
            return tuple(key_rows(keys, 5))
        if view.phase is Phase.WHIST:
            words = [a for a in legal if isinstance(a, Whist)]
            return (tuple(act(t(f"pref.word.{w.word}"), w) for w in words),)
        if view.phase is Phase.SHOW:
            shows = [a for a in legal if isinstance(a, Show)]
            return (tuple(act(t("pref.open" if s.open else "pref.closed"), s) for s in shows),)
        claims = [a for a in legal if isinstance(a, MakeClaim)]
        if menu == "claim" and claims:
            return self._claim_keys(snap, deal_no, claims, t, lines, act)
        plays = [a for a in legal if isinstance(a, Play)]
        keys = [act(card_text(p.card, t), p) for p in plays]
        grid = key_rows(keys, 6)
        if claims:  # between tricks, declarer (or a lone whister) may claim the rest
            data = Button(snap.table_id, deal_no, Act.MENU, "claim").encode()
            grid.append((Key(t("pref.claim_menu"), data),))
        return tuple(grid)

    def _claim_keys(
        self,
        snap: Snapshot,
        deal_no: int,
        claims: list[MakeClaim],
        t: Translator,
        lines: list[str],
        act: Callable[[str, Any], Key],
    ) -> tuple[tuple[Key, ...], ...]:
        """How many of the tricks left the claimant's side takes; the others then agree."""
        lines.append(t("pref.claim_ask"))
        keys = [
            act(t("pref.claim_none") if c.tricks == 0 else t("pref.claim_n", n=c.tricks), c)
            for c in claims
        ]
        rows = key_rows(keys, 4)
        back = Key(t("pref.claim_back"), Button(snap.table_id, deal_no, Act.MENU, "").encode())
        rows.append((back,))
        return tuple(rows)

    def _discard_keys(
        self,
        snap: Snapshot,
        deal_no: int,
        view: SeatView,
        t: Translator,
        menu: str,
        lines: list[str],
    ) -> tuple[tuple[Key, ...], ...]:
        """Two presses choose the discard, a third confirms it (a press on a chosen card puts
        it back): the choice is the screen's, nothing is written until the confirmation."""
        assert view.viewer is not None
        hand = view.hands.get(view.viewer, frozenset())
        picked = _picked(menu, hand)
        lines.append(t("pref.discard_ask", count=2 - len(picked)))

        def pick(card: Card) -> Key:
            chosen = [c for c in picked if c != card] if card in picked else [*picked, card]
            arg = ".".join(["drop", *(str(c) for c in chosen[:2])])
            mark = "✅" if card in picked else ""
            return Key(
                mark + card_text(card, t), Button(snap.table_id, deal_no, Act.MENU, arg).encode()
            )

        cards = [pick(c) for c in sorted(hand, reverse=True)]
        rows = key_rows(cards, 6)
        if len(picked) == 2:
            action = Discard(view.viewer, (picked[0], picked[1]))
            confirm = Key(
                t("pref.discard_confirm", cards=" ".join(card_text(c, t) for c in picked)),
                action_data(snap.table_id, deal_no, snap.actions, CODEC.encode(action)),
            )
            rows.append((confirm,))
        return tuple(rows)

    # --- between deals --------------------------------------------------------------------------

    def seating(self, snap: Snapshot, t: Translator, bot_username: str) -> Rendered:
        players = _options(snap.settings.options)[2]
        lines = [f"<b>{t('pref.table', number=snap.table_id)}</b>", settings_line(snap, t)]
        for seat in range(players):
            holder = snap.seats.get(seat)
            name = user_text(holder.name) if holder is not None else "—"
            lines.append(f"{self.seat_name(seat, t.language)}: {name}")
        if snap.status is TableStatus.PLAYING:  # the seats were taken: the pulka is on
            lines.append(t("table.started"))
            return Rendered("\n".join(lines))
        free = [s for s in range(players) if s not in snap.seats]
        lines.append(t("pref.sit_hint", players=players) if free else t("table.full"))
        row = tuple(
            Key(
                t("button.sit", seat=self.seat_name(s, t.language)),
                Button(snap.table_id, 0, Act.SIT, self.seat_code(s)).encode(),
            )
            for s in free
        )
        keys: list[tuple[Key, ...]] = [row] if row else []
        if snap.seats:
            keys.append((Key(t("button.leave"), Button(snap.table_id, 0, Act.LEAVE).encode()),))
        return Rendered("\n".join(lines), tuple(keys))

    def notice(self, screens: Screens, snap: Snapshot, notice: Any, t: Translator) -> bool:
        post = screens.outbox.post
        chat, thread = snap.chat.tg_chat_id, snap.topic_id
        names = _names(snap)
        if isinstance(notice, DealFinished):
            final = notice.final
            assert isinstance(final, DealState) and final.result is not None
            self._deal(screens, snap, notice.deal_no, final)
            match = notice.match
            assert isinstance(match, PulkaMatch)
            view = final.view(None)
            lines = [
                f"<b>{t('pref.deal_result', number=snap.deal_in_match(notice.deal_no))}</b>",
                result_line(final.result, names, t),
                *written_lines(notice.before, match, names, t),
                pulka_block(match.pulka, names, t),
                t("pref.full_deal"),
                "<pre>"
                + "\n\n".join(
                    user_text(names.get(s, "—")) + "\n" + "\n".join(hand_lines(h, t))
                    for s, h in sorted(view.hands.items())
                )
                + "\n\n"
                + t("pref.talon", cards=" ".join(card_text(c, t) for c in view.talon))
                + "</pre>",
            ]
            post(chat, thread, Rendered("\n".join(lines)))
        elif isinstance(notice, MatchFinished):
            state = _state(snap)
            if notice.unfinished and state is not None and state.result is None:
                # Stopped mid-deal: its screens say so and lose their buttons (as bridge's do).
                self._deal(screens, snap, snap.deal_no, state)
            post(chat, thread, pulka_result(snap, notice, t))
            if isinstance(notice.match, PulkaMatch):
                post_pulka_picture(screens.outbox, snap, notice.match, t)
        elif isinstance(notice, UndoAsked):
            voters = () if snap.state is None else snap.game.undo_voters(snap.state, notice.seat)
            others = ", ".join(user_text(names[s]) for s in sorted(voters) if s in names)
            keys = answer_keys(
                snap.table_id, snap.deal_no, Act.UNDO_ANSWER, t("button.allow"), t("button.refuse")
            )
            who = user_text(names.get(notice.seat, "—"))
            post(chat, thread, Rendered(t("pref.undo.asked", name=who, others=others), keys))
        elif isinstance(notice, UndoAnswered):
            asker = user_text(names.get(notice.asker, "—"))
            by = user_text(names.get(notice.by, "—"))
            key = "pref.undo.allowed" if notice.allowed else "pref.undo.refused"
            post(chat, thread, Rendered(t(key, name=asker, by=by)))
        elif isinstance(notice, EndVote):
            holder = snap.seats.get(notice.seat)
            name = user_text(holder.name) if holder is not None else "—"
            if not notice.agree:
                post(chat, thread, Rendered(t("pref.end.refused", name=name)))
                return True
            agreed = ", ".join(user_text(names[s]) for s in sorted(snap.end_votes) if s in names)
            count = f"{len(snap.end_votes)}/{len(snap.seats)}"
            keys = answer_keys(
                snap.table_id, snap.deal_no, Act.END, t("button.end_yes"), t("button.end_no")
            )
            post(chat, thread, Rendered(t("pref.end.proposed", names=agreed, count=count), keys))
        else:
            return False
        return True

    def scoresheet(self, snap: Snapshot, t: Translator) -> Rendered:
        match = snap.match
        if not isinstance(match, PulkaMatch):
            return Rendered(t("score.none"))
        block = pulka_block(match.pulka, _names(snap), t)
        return Rendered(f"{t('pref.table', number=snap.table_id)}\n{block}")

    def score_picture(self, screens: Screens, snap: Snapshot, t: Translator) -> None:
        if isinstance(snap.match, PulkaMatch):
            post_pulka_picture(screens.outbox, snap, snap.match, t)

    def history_line(self, match: Match, names: Mapping[int, str], t: Translator) -> str:
        players = ", ".join(
            user_text(names.get(pid, "?")) for _, pid in sorted(match.seats.items())
        )
        return t("pref.history", players=players)

    def options_view(
        self, options: Mapping[str, Any], t: Translator
    ) -> tuple[list[str], list[tuple[str, str]]]:
        variant, target, players = _options(options)
        lines = [
            t(
                "pref.settings_line",
                variant=t(f"pref.variant.{variant}"),
                target=target,
                players=players,
            )
        ]
        other = _next(VARIANTS, variant)
        keys = [
            (t("pref.switch_variant", variant=t(f"pref.variant.{other}")), f"variant={other}"),
            (
                t("pref.switch_target", target=_next(TARGETS, target)),
                f"target={_next(TARGETS, target)}",
            ),
            (t("pref.switch_players", players=7 - players), f"players={7 - players}"),
        ]
        return lines, keys

    def option_changed(self, options: Mapping[str, Any], arg: str) -> dict[str, Any] | None:
        key, _, value = arg.partition("=")
        if key == "variant" and value in VARIANTS:
            return {**options, "variant": value}
        typed = value.isascii() and value.isdigit()
        if key == "target" and typed and 1 <= int(value) <= MAX_TARGET:
            return {**options, "target": int(value)}  # the buttons' 10/20/30/50, or typed
        if key == "players" and value in ("3", "4"):
            return {**options, "players": int(value)}
        return None



def standing_lines(snap: Snapshot, names: Mapping[int, str], t: Translator) -> list[str]:
    """The table message's seats: each player's pool and gora as the pulka stands before this
    deal (whists are on the sheet), and the pulka's settings."""
    match = snap.match
    if not isinstance(match, PulkaMatch):
        return []
    sheet = match.pulka.state()
    standing = " · ".join(
        t("pref.standing", name=user_text(names.get(seat, "—")), pool=pool, gora=gora)
        for seat, (pool, gora) in enumerate(zip(sheet["pool"], sheet["gora"], strict=True))
    )
    return [settings_line(snap, t), standing]


def post_pulka_picture(outbox: Outbox, snap: Snapshot, match: PulkaMatch, t: Translator) -> None:
    """The sheet drawn as on paper, off the event loop; it keeps its place in the chat's queue."""
    sheet = match.pulka.state()
    pool, gora = list(sheet["pool"]), list(sheet["gora"])
    whists = [list(r) for r in sheet["whists"]]
    names = {seat: h.name for seat, h in snap.seats.items()}
    title = t("pref.picture_title", number=snap.table_id)
    caption = t("pref.picture_caption")

    async def draw() -> InputFile:
        png = await asyncio.to_thread(
            pulka_picture, pool, gora, whists, names, match.pulka.target, title
        )
        return InputFile(png, filename="pulka.png")

    outbox.post_file(snap.chat.tg_chat_id, snap.topic_id, "sendPhoto", "photo", draw(), caption)


def written_lines(
    before: Any, after: PulkaMatch, names: Mapping[int, str], t: Translator
) -> list[str]:
    """What the deal wrote, as players read it off the sheet: each player's pool and gora
    added, and the whists they wrote on each of the others."""
    if not isinstance(before, PulkaMatch):
        return []
    old, new = before.pulka.state(), after.pulka.state()
    parts = []
    for seat in range(len(new["pool"])):
        name = user_text(names.get(seat, "—"))
        pool = new["pool"][seat] - old["pool"][seat]
        gora = new["gora"][seat] - old["gora"][seat]
        items = []
        if pool:
            items.append(t("pref.written.pool", n=_signed(pool)))
        if gora:
            items.append(t("pref.written.gora", n=_signed(gora)))
        for other in range(len(new["pool"])):
            whists = new["whists"][seat][other] - old["whists"][seat][other]
            if whists:
                on = user_text(names.get(other, "—"))
                items.append(t("pref.written.whists", n=_signed(whists), name=on))
        if items:
            parts.append(f"{name}: {', '.join(items)}")
    return [t("pref.written", parts="; ".join(parts))] if parts else []


def _signed(value: int | Fraction) -> str:
    exact = Fraction(value)
    text = str(exact.numerator) if exact.denominator == 1 else f"{float(exact):g}"
    return text if exact < 0 else "+" + text


def settings_line(snap: Snapshot, t: Translator) -> str:
    """Variant, pool target, players, and the price of a whist when the group set one."""
    variant, target, players = _options(snap.settings.options)
    line = t(
        "pref.settings_line", variant=t(f"pref.variant.{variant}"), target=target, players=players
    )
    group = snap.chat.settings
    if group.whist_price:
        price = money(group.whist_price, 1, group.currency, sign=False)
        line += ", " + t("pref.price_line", price=price)
    return line


def pulka_result(snap: Snapshot, notice: MatchFinished, t: Translator) -> Rendered:
    """The pulka closed: the sheet as it ended, each player's whists (and money when the group
    prices a whist), the group's running accounts, and what to do next."""
    lines = settlement_lines(
        notice.unfinished, notice.entries, notice.balances, notice.names, snap.chat.settings, t
    )
    if isinstance(notice.match, PulkaMatch):
        lines.insert(1, pulka_block(notice.match.pulka, _names(snap), t))
    keys = (
        (
            Key(t("pref.button.next"), Button(snap.table_id, 0, Act.NEXT_MATCH).encode()),
            Key(t("button.new_partners"), Button(snap.table_id, 0, Act.NEW_PARTNERS).encode()),
        ),
        (Key(t("button.stand_up"), Button(snap.table_id, 0, Act.STAND_UP).encode()),),
    )
    return Rendered("\n".join(lines), keys)


PREFERANS_UI = PreferansUI()
