"""Preferans's UI plug-in: what the bot asks of the game's screens, answered by ``table``
(the table and private screens), ``score`` (results, the pulka) and ``views`` (words)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.callback_data import Act
from bot.games.preferans.analysis import analysis_lines, analysis_of
from bot.games.preferans.score import (
    post_pulka_picture,
    pulka_result,
    raspasy_times,
    written_lines,
)
from bot.games.preferans.state import (
    MAX_TARGET,
    TARGETS,
    VARIANTS,
    deal_of,
    names_of,
    pulka_options,
)
from bot.games.preferans.table import (
    render_private,
    render_seating,
    render_table,
)
from bot.games.preferans.views import (
    card_text,
    conditions_text,
    pulka_block,
    pulka_rich,
    result_line,
    settings_text,
)
from bot.i18n import Translator, translator
from bot.plugin import UIBase
from bot.rendered import Choice, Rendered
from bot.screens import Drawing
from bot.tables import (
    DealFinished,
    EndVote,
    MatchFinished,
    Refusal,
    Snapshot,
    UndoAnswered,
    UndoAsked,
)
from bot.views.fair import reveal_lines
from bot.views.misc import answer_keys, close_end_vote, end_vote_message, undo_vote_message
from bot.views.stats import costly_key
from bot.views.text import user_text
from games.errors import OutOfTurn, Reason, RuleError
from games.preferans.cards import Card
from games.preferans.conditions import SWITCHES, Conditions, normal, preset, switches_of
from games.preferans.deal import (
    DealState,
    MakeClaim,
    Phase,
)
from games.preferans.game import ClaimRejected, PulkaMatch
from games.preferans.settlement import Variant
from storage.interface import MatchRecord


async def _result_with_analysis(
    snap: Snapshot, notice: DealFinished, final: DealState, match: PulkaMatch, t: Translator
) -> Rendered:
    """The deal's result in a few lines: the verdict, what it wrote on the pulka and its
    double-dummy analysis, solved in a process of its own (the tables must not wait for it;
    the post keeps its place in the group's queue meanwhile; without the analysis if it fails
    or the analyst is behind). The hands are on the table's last version, the sheet on
    /score and at the pulka's end: a deal posts one message."""
    assert final.result is not None
    names = names_of(snap)
    lines = [
        f"<b>{t('pref.deal_result', number=snap.deal_in_match(notice.deal_no))}</b>",
        result_line(final.result, names, t),
        *raspasy_times(final.result, notice.before, match, t),
        *written_lines(notice.before, match, names, t),
        *analysis_lines(await analysis_of(final), t),
        *reveal_lines(notice.fair, t),
    ]
    return Rendered("\n".join(lines), ((costly_key(snap.table_id, notice.deal_no, t),),))


class PreferansUI(UIBase):
    game = "preferans"
    commands: tuple[str, ...] = ("preferans", "pref")
    review_sides: tuple[str, ...] = ("declarer", "defence")

    def card_word(self, code: str, language: str) -> str:
        return card_text(Card.parse(code), translator(language))

    def seat_name(self, seat: int, language: str) -> str:
        """The seat in a sentence: "место 3" (the table's own "Место 3" heads a line)."""
        return Translator(language)("pref.seat_label", number=seat + 1)

    def seat_from_word(self, word: str) -> int | None:
        return int(word) if word in ("0", "1", "2", "3") else None

    def hand_key(self, seat: int, deal_no: int) -> str:
        return f"hand:{seat}:{deal_no}"

    # --- the deal -------------------------------------------------------------------------

    def show_deal(self, screens: Drawing, snap: Snapshot) -> None:
        state = deal_of(snap)
        if state is not None:
            self._deal(screens, snap, snap.deal_no, state)

    def _deal(self, screens: Drawing, snap: Snapshot, deal_no: int, state: DealState) -> None:
        t = screens.group_translator(snap)
        screens.deal_table(
            snap,
            deal_no,
            f"table:{deal_no}",
            lambda: render_table(snap, deal_no, state.view(None), t),
            live=not state.finished,
        )
        for seat in snap.seats:
            self._hand(screens, snap, seat, deal_no, state)

    def show_finished(
        self, screens: Drawing, snap: Snapshot, deal_no: int, final: Any, before: Any
    ) -> None:
        assert isinstance(final, DealState)
        self._deal(screens, snap, deal_no, final)

    def show_hand(self, screens: Drawing, snap: Snapshot, seat: int, menu: str = "") -> None:
        state = deal_of(snap)
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
        screens: Drawing,
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
            lambda t: render_private(snap, seat, deal_no, view, t, menu),
            urgent=bool(view.legal),
            deal_no=deal_no,
        )

    # --- between deals --------------------------------------------------------------------------

    def seating(self, snap: Snapshot, t: Translator, bot_username: str) -> Rendered:
        return render_seating(snap, t)

    def notice(self, screens: Drawing, snap: Snapshot, notice: Any, t: Translator) -> bool:
        post = screens.post
        chat, thread = snap.chat.tg_chat_id, snap.topic_id
        names = names_of(snap)
        if isinstance(notice, DealFinished):
            final = notice.final
            assert isinstance(final, DealState) and final.result is not None
            self.show_finished(screens, snap, notice.deal_no, final, notice.before)
            match = notice.match
            assert isinstance(match, PulkaMatch)
            post(chat, thread, _result_with_analysis(snap, notice, final, match, t), in_order=True)
        elif isinstance(notice, MatchFinished):
            state = deal_of(snap)
            if notice.unfinished:
                close_end_vote(screens, snap, snap.deal_no, Rendered(t("pref.end.done")))
            if notice.unfinished and state is not None and state.result is None:
                # Stopped mid-deal: its screens say so and lose their buttons (as bridge's do).
                self._deal(screens, snap, snap.deal_no, state)
            post(chat, thread, pulka_result(snap, notice, t))
            if isinstance(notice.match, PulkaMatch):
                post_pulka_picture(screens, snap, notice.match, t)
        elif isinstance(notice, ClaimRejected):  # the table's claim line is gone: say why
            text = t(
                "pref.claim_rejected",
                name=user_text(names.get(notice.by, "—")),
                claimant=user_text(names.get(notice.claimant, "—")),
            )
            post(chat, thread, Rendered(text))
        elif isinstance(notice, UndoAsked):
            voters = () if snap.state is None else snap.game.undo_voters(snap.state, notice.seat)
            others = ", ".join(user_text(names[s]) for s in sorted(voters) if s in names)
            keys = answer_keys(
                snap.table_id, snap.deal_no, Act.UNDO_ANSWER, t("button.allow"), t("button.refuse")
            )
            who = user_text(names.get(notice.seat, "—"))
            asked = Rendered(t("pref.undo.asked", name=who, others=others), keys)
            undo_vote_message(screens, snap, asked, fresh=True)
        elif isinstance(notice, UndoAnswered):
            asker = user_text(names.get(notice.asker, "—"))
            by = user_text(names.get(notice.by, "—"))
            key = "pref.undo.allowed" if notice.allowed else "pref.undo.refused"
            undo_vote_message(screens, snap, Rendered(t(key, name=asker, by=by)), fresh=False)
        elif isinstance(notice, EndVote):
            holder = snap.seats.get(notice.seat)
            name = user_text(holder.name) if holder is not None else "—"
            if not notice.agree:
                refused = Rendered(t("pref.end.refused", name=name))
                end_vote_message(screens, snap, refused, fresh=False)
                return True
            agreed = ", ".join(user_text(names[s]) for s in sorted(snap.end_votes) if s in names)
            count = f"{len(snap.end_votes)}/{len(snap.seats)}"
            keys = answer_keys(
                snap.table_id, snap.deal_no, Act.END, t("button.end_yes"), t("button.end_no")
            )
            proposed = Rendered(t("pref.end.proposed", names=agreed, count=count), keys)
            end_vote_message(screens, snap, proposed, fresh=len(snap.end_votes) == 1)
        else:
            return False
        return True

    def scoresheet(self, snap: Snapshot, t: Translator) -> Rendered:
        match = snap.match
        if not isinstance(match, PulkaMatch):
            return Rendered(t("score.none"))
        pulka = match.pulka
        block = pulka_block(pulka, names_of(snap), t)
        rules = conditions_text(pulka.conditions, pulka.variant.value, t, full=True)
        head = settings_text(pulka.variant.value, pulka.target, pulka.players, t)
        title = t("pref.table", number=snap.table_id)
        table = pulka_rich(pulka, names_of(snap), t)
        rich = f"<h3>{title}</h3><p>{head}</p><p>{rules}</p>{table}"
        return Rendered(f"{title}\n{head}\n{rules}\n{block}", rich=rich)

    def score_picture(self, screens: Drawing, snap: Snapshot, t: Translator) -> None:
        if isinstance(snap.match, PulkaMatch):
            post_pulka_picture(screens, snap, snap.match, t)

    def history_line(self, match: MatchRecord, names: Mapping[int, str], t: Translator) -> str:
        players = ", ".join(
            user_text(names.get(pid, "?")) for _, pid in sorted(match.seats.items())
        )
        return t("pref.history", players=players)

    def options_view(
        self, options: Mapping[str, Any], t: Translator
    ) -> tuple[list[str], list[tuple[Choice, ...]]]:
        """The pulka's settings: variant, pool and players, then the group's conditions (§8),
        one row of choices a switch (its values in the preset's order, ✓ on the one set)."""
        variant, target, players = pulka_options(options)
        conditions = Conditions.of_table(options)
        rules = conditions.text()
        lines = [
            settings_text(variant, target, players, t),
            conditions_text(conditions, variant, t, full=True),
            t("pref.conditions.hint"),
        ]
        rows = [
            tuple(Choice(t(f"pref.variant.{v}"), f"variant={v}", v == variant) for v in VARIANTS),
            tuple(
                Choice(t("pref.target_choice", target=n), f"target={n}", n == target)
                for n in TARGETS
            ),
            tuple(
                Choice(t("pref.players_choice", players=n), f"players={n}", n == players)
                for n in (3, 4)
            ),
        ]
        rows.extend(  # the first choice of a row names the switch; the others only a value
            tuple(
                Choice(t(f"pref.choice.{key}.{value}"), f"{key}={value}", rules[key] == value)
                for value in SWITCHES[key]
            )
            for key in switches_of(variant)
        )
        return lines, rows

    def option_changed(self, options: Mapping[str, Any], arg: str) -> dict[str, Any] | None:
        key, _, value = arg.partition("=")
        if key == "variant":
            try:
                chosen = Variant.parse(value).value
            except RuleError:
                return None
            # A preset is a whole set of conditions: choosing one clears the switches.
            kept = {k: v for k, v in options.items() if k not in SWITCHES}
            return {**kept, "variant": chosen}
        typed = value.isascii() and value.isdigit()
        if key == "target" and typed and 1 <= int(value) <= MAX_TARGET:
            return {**options, "target": int(value)}  # the buttons' 10/20/30/50, or typed
        if key == "players" and value in ("3", "4"):
            return {**options, "players": int(value)}
        if key in SWITCHES:
            variant = pulka_options(options)[0]
            try:
                chosen = normal(key, value)
            except RuleError:
                return None
            base = preset(variant)
            if key not in base:
                return None  # Rostov has no progression
            changed = {k: v for k, v in options.items() if k != key}
            return changed if base[key] == chosen else {**changed, key: chosen}
        return None


PREFERANS_UI = PreferansUI()
