"""The group's table message and each player's private screen, with buttons for exactly the
legal actions (the discard chosen on the screen, claims in a sub-menu); the seating between
pulkas."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.callback_data import Act, Button, action_data
from bot.games.preferans.buttons import TRICKS
from bot.games.preferans.score import (
    settings_lines,
    standing_lines,
)
from bot.games.preferans.state import (
    names_of,
    picked_cards,
    pulka_options,
    seat_name,
)
from bot.games.preferans.views import (
    bid_text,
    bidding_line,
    card_text,
    contract_lines,
    hands_block,
    suit_rows,
    taker,
    trick_lines,
    turn_line,
)
from bot.i18n import Translator
from bot.rendered import Key, Rendered, key_rows
from bot.tables import (
    Snapshot,
)
from bot.views.fair import commitment_lines, seating_commitment
from bot.views.misc import popup_page, seating_keys, undo_key
from bot.views.text import plain_text, user_text
from games.preferans.cards import Card
from games.preferans.deal import (
    PASS,
    AnswerClaim,
    Call,
    Declare,
    Discard,
    Kind,
    MakeClaim,
    Phase,
    Play,
    Redrop,
    SeatView,
    Show,
    Trick,
    Whist,
)
from games.preferans.game import CODEC
from storage.interface import TableStatus


def _head(snap: Snapshot, deal_no: int, view: SeatView, t: Translator) -> list[str]:
    names = names_of(snap)
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


def render_table(snap: Snapshot, deal_no: int, view: SeatView, t: Translator) -> Rendered:
    names = names_of(snap)
    lines = _head(snap, deal_no, view, t)
    lines[1:1] = standing_lines(snap, names, t)
    block = hands_block(view, names, t)
    if block:
        lines.append(block)
    if view.result is not None:
        lines.append(t("pref.deal_over"))
    elif view.actor is not None:
        lines.append(turn_line(view, names, t))
    lines.extend(commitment_lines(snap, deal_no + 1, t))
    if not completed_tricks(view):
        return Rendered("\n".join(lines))
    look = Key(t("button.tricks"), Button(snap.table_id, deal_no, TRICKS).encode())
    return Rendered("\n".join(lines), ((look,),))


def completed_tricks(view: SeatView) -> list[tuple[int, Trick, int | None]]:
    """(number, trick, who took it) of every completed trick."""
    size = len(view.active)
    return [
        (number, trick, taker(view, trick))
        for number, trick in enumerate(view.tricks, start=1)
        if len(trick.plays) == size
    ]


def tricks_popup(view: SeatView, names: Mapping[int, str], t: Translator, page: int = 0) -> str:
    """The deal's completed tricks, newest first, a popup's worth a page (``page``: pressed
    again, the next): only cards that were played (and talon cards turned), so anyone who
    sees the table may see them."""
    done = completed_tricks(view)
    if not done:
        return t("table.no_tricks")
    lines = []
    for number, trick, took in reversed(done):
        cards = " ".join(
            f"{plain_text(names.get(s, '—'))[:8]} {card_text(c, t)}" for s, c in trick.plays
        )
        if trick.talon_card is not None:
            cards = f"{t('pref.from_talon')} {card_text(trick.talon_card, t)} · {cards}"
        who = f" → {plain_text(names.get(took, '—'))[:8]}" if took is not None else ""
        lines.append(f"{number}: {cards}{who}")
    return popup_page(t("table.tricks_title"), lines, page, t("table.tricks_more"))


def render_private(
    snap: Snapshot, seat: int, deal_no: int, view: SeatView, t: Translator, menu: str
) -> Rendered:
    names = names_of(snap)
    lines = _head(snap, deal_no, view, t)
    # Which group's table this is: a player at two groups' tables tells the screens apart.
    lines.insert(1, t("pref.private.group", chat=user_text(snap.chat.title or "—")))
    if seat not in view.active:
        lines.append(t("pref.you_sit_out"))
    lines.extend(_told(view, seat, t))
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
            lines.append(turn_line(view, names, t))
        if view.undoable_by != seat:
            return Rendered("\n".join(lines))
        return Rendered("\n".join(lines), ((undo_key(snap.table_id, deal_no, t),),))
    # What the buttons below are for, in the players' words ("Ваше слово" in the auction).
    lines.append(f"<b>{t(f'pref.prompt.{view.phase.value}')}</b>")
    if view.turn is not None and view.turn != seat and view.phase is Phase.PLAY:
        lines.append(t("pref.for", name=user_text(names.get(view.turn, "—"))))
    keys = _keys(snap, deal_no, view, t, menu, lines)
    if view.undoable_by == seat and view.claim is None and not menu:
        # On play again after their own last action (a trick won): theirs to take back.
        keys = (*keys, (undo_key(snap.table_id, deal_no, t),))
    return Rendered("\n".join(lines), keys)


def _keys(
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
        return _discard_keys(snap, deal_no, view, t, menu, lines)
    if view.phase is Phase.CONTRACT:
        declares = [a for a in legal if isinstance(a, Declare)]
        keys = [act(bid_text(d.contract, t), d) for d in declares]
        grid = key_rows(keys, 5)
        grid.extend((act(t("pref.redrop"), a),) for a in legal if isinstance(a, Redrop))
        return tuple(grid)
    if view.phase is Phase.WHIST:
        words = [a for a in legal if isinstance(a, Whist)]
        return (tuple(act(t(f"pref.word.{w.word}"), w) for w in words),)
    if view.phase is Phase.SHOW:
        shows = [a for a in legal if isinstance(a, Show)]
        return (tuple(act(t("pref.open" if s.open else "pref.closed"), s) for s in shows),)
    claims = [a for a in legal if isinstance(a, MakeClaim)]
    if menu == "claim" and claims:
        return _claim_keys(snap, deal_no, claims, t, lines, act)
    plays = {a.card: a for a in legal if isinstance(a, Play)}
    # The whole hand to play from as the keyboard, the cards that may not be played greyed out
    # (Bot API 10.3), so the keyboard keeps its shape as the legal cards change.
    hand = view.hands.get(view.turn, frozenset()) if plays and view.turn is not None else set()
    grid = [
        tuple(
            act(card_text(card, t), plays[card])
            if card in plays
            else Key(card_text(card, t), disabled=True)
            for card in row
        )
        for row in suit_rows(set(plays) | set(hand))
    ]
    if claims:  # between tricks, declarer (or a lone whister) may claim the rest
        data = Button(snap.table_id, deal_no, Act.MENU, "claim").encode()
        grid.append((Key(t("pref.claim_menu"), data),))
    return tuple(grid)


def _claim_keys(
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
    picked = picked_cards(menu, hand)
    if len(picked) < 2:
        lines.append(t("pref.discard_ask", count=2 - len(picked)))
    else:  # both chosen: not "ещё 0 карт", but what is left to do
        lines.append(t("pref.discard_chosen"))

    def pick(card: Card) -> Key:
        chosen = [c for c in picked if c != card] if card in picked else [*picked, card]
        arg = ".".join(["drop", *(str(c) for c in chosen[:2])])
        mark = "✅" if card in picked else ""
        return Key(
            mark + card_text(card, t), Button(snap.table_id, deal_no, Act.MENU, arg).encode()
        )

    rows = [tuple(pick(c) for c in row) for row in suit_rows(hand)]
    if len(picked) == 2:
        action = Discard(view.viewer, (picked[0], picked[1]))
        confirm = Key(
            t("pref.discard_confirm", cards=" ".join(card_text(c, t) for c in picked)),
            action_data(snap.table_id, deal_no, snap.actions, CODEC.encode(action)),
        )
        rows.append((confirm,))
    return tuple(rows)


def render_seating(snap: Snapshot, t: Translator) -> Rendered:
    players = pulka_options(snap.settings.options)[2]
    lines = [f"<b>{t('pref.table', number=snap.table_id)}</b>", *settings_lines(snap, t)]
    for seat in range(players):
        holder = snap.seats.get(seat)
        name = user_text(holder.name) if holder is not None else "—"
        lines.append(f"{seat_name(seat, t.language)}: {name}")
    robots = any(snap.seats[s].robot for s in range(players) if s in snap.seats)
    if snap.status is TableStatus.PLAYING:  # the seats were taken: the pulka is on
        lines.append(t("table.started"))
    else:
        free = any(s not in snap.seats for s in range(players))
        lines.append(t("pref.sit_hint", players=players) if free else t("table.full"))
    if robots:
        lines.append(t("pref.robot.practice"))
    lines.extend(seating_commitment(snap, t))
    keys = seating_keys(
        snap,
        list(range(players)),
        str,
        lambda s: seat_name(s, t.language),
        lambda s: t("pref.button.sit", number=s + 1),
        t,
    )
    return Rendered("\n".join(lines), keys)


def _told(view: SeatView, seat: int, t: Translator) -> list[str]:
    """What a player must be told that the cards alone do not say: the misère's catchers see
    each other's cards now; under open whisting, the whister plays the passer's cards."""
    if view.result is not None or view.phase is not Phase.PLAY:
        return []
    if (
        view.kind is Kind.MISERE
        and seat in view.active
        and seat != view.declarer
        and len(view.hands) > 1
    ):
        return [t("pref.misere_open")]
    passed = any(w.seat == seat and w.word == PASS for w in view.whists)
    if view.shown and passed and view.kind is Kind.GAME:
        return [t("pref.whister_plays_yours")]
    return []
