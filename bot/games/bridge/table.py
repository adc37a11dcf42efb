"""The group's table message, and each player's private hand message.

Both are built from ``SeatView`` values, which hold no card the viewer may not see: the group's
from the kibitzer's view (no hand but dummy's after the opening lead), a player's from their seat.
"""

from __future__ import annotations

import functools
from html import escape

from bot.callback_data import Act, Button, action_data
from bot.games.bridge.buttons import CLAIM_MENU, EXPLAIN, TRICKS
from bot.games.bridge.cards import (
    SUIT_SYMBOL,
    call_text,
    card_text,
    contract_text,
    hand_lines,
    result_text,
    seat_text,
    vulnerability_text,
)
from bot.games.bridge.state import bridge_form, bridge_options, deal_label
from bot.i18n import Translator
from bot.rendered import Key, Rendered, key_rows
from bot.tables import Snapshot
from bot.views.amounts import money
from bot.views.fair import commitment_lines, seating_commitment
from bot.views.memo import ByIdentity
from bot.views.misc import popup_page, seating_keys, undo_key
from bot.views.text import PHONE, cells, fit, user_text
from games.bridge.bidding import Meaning, read_auction
from games.bridge.calls import Call, CallKind
from games.bridge.cards import Card, Deal, Seat, Side, Suit, sort_hand
from games.bridge.deal import DealState, Phase, SeatView
from games.bridge.game import BRIDGE, CHICAGO, CODEC
from storage.interface import TableStatus

CELL = 6


def _name(snap: Snapshot, seat: int) -> str:
    holder = snap.seats.get(seat)
    return user_text(holder.name) if holder is not None else "—"


def _settings_line(snap: Snapshot, t: Translator) -> str:
    rules, part = bridge_options(snap.settings.options)
    form, chicago_part = bridge_form(snap.settings.options)
    if form == CHICAGO:
        line = t(
            "settings.line_chicago",
            rules=t(f"rules.{rules}"),
            part=t(f"chicago.part.{chicago_part}"),
        )
    else:
        line = t("settings.line", rules=t(f"rules.{rules}"), part=part)
    group = snap.chat.settings
    price = group.price(BRIDGE.unit)
    if price:  # the stake: money per 100 points
        stake = money(price * 100, 1, group.currency, False, t("number.decimal"))
        line += " · " + t("settings.price.points", price=stake)
    return line


_GRIDS: ByIdentity[str] = ByIdentity()
_TRICKS: ByIdentity[tuple[int, str]] = ByIdentity()
_LAST_TRICKS: ByIdentity[str] = ByIdentity()
# A call's button label and action text: the legal calls are the auction's own constants
# (``calls.ALL_CALLS``), and hashing a Call costs more than the lookup saves.
_CALL_KEYS: ByIdentity[tuple[str, str]] = ByIdentity()


def _grid_block(view: SeatView, language: str, vul: tuple[bool, bool]) -> str:
    """``auction_grid`` as a screen shows it, drawn once for the group's table and every
    private screen of a press, and once for the whole play (``bot.views.memo``)."""
    asking = view.phase is Phase.AUCTION and view.turn is not None
    return _GRIDS.get(
        view.calls,
        (view.dealer, asking, language, vul),
        lambda: f"<pre>{escape(auction_grid(view, language, vul))}</pre>",
    )


def auction_grid(view: SeatView, language: str, vul: tuple[bool, bool] = (False, False)) -> str:
    """The auction in columns N E S W, the dealer's first call in its column; a vulnerable
    seat marked ``*`` in the head, as BBO colours it (``vul``: N-S, E-W)."""

    def head(seat: Seat) -> str:
        marked = vul[0] if seat.side is Side.NS else vul[1]
        return (seat_text(seat, language) + ("*" if marked else "")).ljust(CELL)

    header = "".join(head(seat) for seat in Seat).rstrip()
    cells = [""] * int(view.dealer) + [call_text(c, language) for c in view.calls]
    if view.phase is Phase.AUCTION and view.turn is not None:
        cells.append("?")
    rows = [header]
    for start in range(0, len(cells), 4):
        rows.append("".join(cell.ljust(CELL) for cell in cells[start : start + 4]).rstrip())
    return "\n".join(rows)


def meaning_text(meaning: Meaning, call: Call, t: Translator) -> str:
    """What a call shows by the system, in the players' words: its convention, its points,
    the suits it promises (three or more: "2+" says nothing useful), its shape, its aces. Only
    what the system says, never a card."""
    parts = []
    if meaning.tag == "transfer" and meaning.lengths:
        suit = max(meaning.lengths, key=lambda s: meaning.lengths[s])
        parts.append(t("robot.tag.transfer", suit=t(f"suit.accusative.{suit.name[0]}")))
    elif meaning.tag != "natural":
        parts.append(t(f"robot.tag.{meaning.tag}"))
    low, high = meaning.hcp
    if (low, high) != (0, 40):
        points = f"{low}+" if high >= 37 else f"{low}–{high}"
        parts.append(t("robot.points", points=points))
    for suit, count in sorted(meaning.lengths.items(), reverse=True):
        if count >= 3:
            parts.append(f"{count}+{SUIT_SYMBOL[suit]}")
    if meaning.balanced:
        parts.append(t("robot.balanced"))
    if meaning.aces:
        parts.append(t("robot.aces", aces="/".join(map(str, meaning.aces))))
    return ", ".join(parts)


def robot_notes(snap: Snapshot, view: SeatView, t: Translator) -> list[str]:
    """What each robot's call promised, by the robots' system (``games.bridge.bidding``): the
    people at the table and in the group read a robot's calls as the robot meant them."""
    robots = {seat for seat, holder in snap.seats.items() if holder.robot}
    if not robots or not view.calls:
        return []
    lang = t.language
    notes = []
    for i, meaning in enumerate(read_auction(view.dealer, view.calls)):
        seat = view.dealer.after(i)
        if seat not in robots or meaning is None:
            continue
        call = view.calls[i]
        if call.kind is CallKind.PASS and meaning.tag == "natural":
            continue  # a plain pass: its points say only "not enough to bid"
        text = meaning_text(meaning, call, t)
        if not text:
            continue
        # "З · 1♠": a seat letter never beside a number (З reads as 3)
        notes.append(f"🤖 {seat_text(seat, lang)} · {call_text(call, lang)}: {text}")
    return notes


def explain_popup(view: SeatView, t: Translator, page: int = 0) -> str:
    """Every call of the auction and what it shows by the system the robots play (SAYC), as
    BBO's explain: people's calls read by the same rules; newest first, a popup a page."""
    lang = t.language
    meanings = read_auction(view.dealer, view.calls)
    lines = []
    for i, (call, meaning) in enumerate(zip(view.calls, meanings, strict=True)):
        seat = view.dealer.after(i)
        text = "" if meaning is None else meaning_text(meaning, call, t)
        if not text:
            text = t("explain.pass") if call.kind is CallKind.PASS else t("explain.natural")
        lines.append(f"{seat_text(seat, lang)} · {call_text(call, lang)}: {text}")
    if not lines:
        return t("explain.none")
    return popup_page(t("explain.title"), lines[::-1], page, t("explain.more"))


def robot_signals(snap: Snapshot, view: SeatView, t: Translator) -> list[str]:
    """The robots' defensive signals (``games.bridge.robot``), while a robot defends: people
    read a robot's small cards as the robots meant them."""
    if view.phase is not Phase.PLAY or view.declarer is None:
        return []
    defending = any(
        holder.robot and Seat(seat).side is not view.declarer.side
        for seat, holder in snap.seats.items()
    )
    return [t("robot.signals")] if defending else []


def _trick_line(view: SeatView, language: str) -> tuple[int, str]:
    """The trick to show (the one under way, or the one just completed while the next has no
    card yet) with its number, counted from 1 (drawn once a press: ``bot.views.memo``)."""
    return _TRICKS.get(view.tricks, (view.trump, language), lambda: _draw_trick(view, language))


def _draw_trick(view: SeatView, language: str) -> tuple[int, str]:
    if not view.tricks:
        return 0, ""
    number = len(view.tricks)
    trick = view.tricks[-1]
    if not trick.cards and len(view.tricks) > 1:
        number, trick = number - 1, view.tricks[-2]
    line = " · ".join(
        f"{seat_text(seat, language)} {card_text(card, language)}" for seat, card in trick.plays()
    )
    if trick.is_complete:
        line += f" → {seat_text(trick.winner(view.trump), language)}"
    return number, line


def _contract_line(view: SeatView, snap: Snapshot, t: Translator) -> str:
    if view.contract is None or view.declarer is None:
        return ""
    return t(
        "table.contract",
        contract=contract_text(view.contract, t.language),
        seat=seat_text(view.declarer, t.language),
        name=_name(snap, view.declarer),
    )


@functools.lru_cache(maxsize=8192)
def _hand_block(cards: frozenset[Card], language: str) -> str:
    """Cached: every press re-renders four private messages, and most hands did not change."""
    return "\n".join(hand_lines(cards, language))


def _play_lines(snap: Snapshot, view: SeatView, t: Translator) -> list[str]:
    """Contract, dummy (once the viewer may see it, and not to dummy itself) and the trick."""
    lang = t.language
    lines = []
    contract = _contract_line(view, snap, t)
    if contract:
        lines.append(contract)
    dummy = view.dummy
    over = view.result is not None  # the compass (or the result) shows the hands now
    if dummy is not None and dummy is not view.viewer and dummy in view.hands and not over:
        lines.append(t("table.dummy", seat=seat_text(dummy, lang), name=_name(snap, dummy)))
        lines.append(f"<pre>{escape(_hand_block(view.hands[dummy], lang))}</pre>")
    number, trick = _trick_line(view, lang)
    if trick:
        lines.append(t("table.trick", number=number, cards=trick))
    return lines


def full_deal(deal: Deal, snap: Snapshot, language: str) -> str:
    """All four hands as a compass, once the deal is over: N on top, W and E side by side, S
    below, within a phone's 32 cells (names cut to ten; a name's emoji takes two cells, as a
    phone draws it, so E's column stays put). Hands too long to sit side by side (a suit of
    eight or more) go one under another, N W E S."""

    def block(seat: Seat) -> list[str]:
        holder = snap.seats.get(seat)
        name = fit(holder.name, 10) if holder is not None else "—"
        return [f"{seat_text(seat, language)} {name}", *hand_lines(deal.hand(seat), language)]

    west, east = block(Seat.W), block(Seat.E)
    width = max(cells(line) for line in west) + 2
    north, south = block(Seat.N), block(Seat.S)
    indent = " " * min(width, 12)
    if width + max(cells(line) for line in east) > PHONE or any(
        len(indent) + cells(line) > PHONE for line in north + south
    ):
        return "\n\n".join("\n".join(lines) for lines in (north, west, east, south))
    lines = [indent + line for line in north]
    lines += [w + " " * (width - cells(w)) + e for w, e in zip(west, east, strict=True)]
    lines += [indent + line for line in south]
    return "\n".join(lines)


def _last_trick_line(view: SeatView, t: Translator) -> str:
    """The trick completed before the one shown (the one under way, or the one just taken
    until the next has a card): a trick stays in view for a round of cards after it is taken,
    so at a quick pace no trick goes unseen. Drawn once a press (``bot.views.memo``)."""
    facts = (view.trump, t.language)
    return _LAST_TRICKS.get(view.tricks, facts, lambda: _draw_last_trick(view, t))


def _draw_last_trick(view: SeatView, t: Translator) -> str:
    shown = len(view.tricks) if view.tricks and view.tricks[-1].cards else len(view.tricks) - 1
    if shown < 2:
        return ""
    trick = view.tricks[shown - 2]
    lang = t.language
    cards = " · ".join(f"{seat_text(s, lang)} {card_text(c, lang)}" for s, c in trick.plays())
    winner = seat_text(trick.winner(view.trump), lang)
    return t("table.last_trick", number=shown - 1, cards=f"{cards} → {winner}")


def render_table(
    snap: Snapshot,
    deal_no: int,
    view: SeatView,
    vul: tuple[bool, bool],
    t: Translator,
    bot_username: str,
    deal: Deal | None = None,
) -> Rendered:
    """The group's table message for one deal, as a kibitzer sees it (``view`` of no seat): the
    auction call by call and whose call it is, then every card as it is played, the trick
    under way beside the one before, whose turn it is; once the deal is over, all four hands
    (``deal``, given only then). The outbox coalesces it to the group's pace: at a person's
    pace every action shows, at a robot's the states between are skipped."""
    auction_over = view.phase is not Phase.AUCTION
    lang = t.language
    # Two lines of head: the table and the deal, then who sits where (the scoring settings
    # are in /settings and on the seating message).
    lines = [
        t(
            "table.head",
            number=snap.table_id,
            deal=deal_label(snap, deal_no, t),
            dealer=seat_text(view.dealer, lang),
            vul=vulnerability_text(vul, t),
        ),
        " · ".join(f"{seat_text(s, lang)} {_name(snap, s)}" for s in Seat),
    ]
    if snap.dealer_drawn and not view.calls:
        lines.append(
            t(
                "table.dealer_drawn",
                seat=seat_text(view.dealer, lang),
                name=_name(snap, view.dealer),
            )
        )
    lines.append(_grid_block(view, lang, vul))
    if auction_over and view.phase is Phase.PLAY and sum(view.tricks_won.values()) == 0:
        lines.extend(robot_notes(snap, view, t))  # until the first trick is done
    lines.extend(_play_lines(snap, view, t))
    last = _last_trick_line(view, t)
    if last:
        lines.append(last)
    result = view.result
    if result is not None and result.claimed and result.declarer is not None:
        # The deal ended by a claim: the tricks it gave, not those played before it.
        side = result.declarer.side
        made = {side: result.declarer_tricks, side.other: 13 - result.declarer_tricks}
        lines.append(t("table.tricks_claimed", ns=made[Side.NS], ew=made[Side.EW]))
    elif view.phase is not Phase.AUCTION and view.contract is not None:  # none when passed out
        lines.append(t("table.tricks", ns=view.tricks_won[Side.NS], ew=view.tricks_won[Side.EW]))
    if view.claim is not None:
        claimant, left = view.claim.claimant, 13 - sum(view.tricks_won.values())
        name, seat = _name(snap, claimant), seat_text(claimant, lang)
        lines.append(t("table.claim", name=name, seat=seat, tricks=view.claim.tricks, left=left))
    fair = commitment_lines(snap, deal_no + 1, t)  # the last line, whatever comes above
    if snap.status is not TableStatus.PLAYING and view.result is None:
        lines.append(t("private.stopped"))
        return Rendered("\n".join([*lines, *fair]))
    if snap.paused:
        names = ", ".join(_name(snap, s) for s in sorted(snap.paused))
        lines.append(t("table.paused", names=names))
    elif view.result is not None:
        lines.append(t("table.deal_over"))
        if deal is not None:
            lines.append(t("result.full_deal"))
            lines.append(f"<pre>{escape(full_deal(deal, snap, lang))}</pre>")
    elif view.phase is Phase.AUCTION and view.turn is not None:
        seat = seat_text(view.turn, lang)
        lines.append(t("table.turn_call", name=_name(snap, view.turn), seat=seat))
    elif view.actor is not None and view.turn is not None and view.phase is Phase.PLAY:
        if view.turn is view.dummy and view.declarer is not None:
            lines.append(
                t("table.turn_dummy", name=_name(snap, view.actor), seat=seat_text(view.turn, lang))
            )
        else:
            lines.append(
                t("table.turn", name=_name(snap, view.actor), seat=seat_text(view.turn, lang))
            )
    lines.extend(robot_signals(snap, view, t))  # one short line, under what changes
    row: list[Key] = []
    if view.result is None and bot_username:
        row.append(Key(t("button.my_hand"), url=f"https://t.me/{bot_username}?start=hand"))
    if any(trick.is_complete for trick in view.tricks):  # look back at the tricks played
        row.append(Key(t("button.tricks"), Button(snap.table_id, deal_no, TRICKS).encode()))
    if view.calls:  # what each call of the auction shows by the system
        row.append(explain_key(snap.table_id, deal_no, t))
    return Rendered("\n".join([*lines, *fair]), (tuple(row),) if row else ())


def explain_key(table_id: int, deal_no: int, t: Translator) -> Key:
    return Key(t("button.explain"), Button(table_id, deal_no, EXPLAIN).encode())


def tricks_popup(view: SeatView, t: Translator, page: int = 0) -> str:
    """The deal's completed tricks, newest first, a popup's worth a page (``page``: pressed
    again, the next); only cards that were played, so anyone who sees the table may see them."""
    lang = t.language
    done = [(n, trick) for n, trick in enumerate(view.tricks, start=1) if trick.is_complete]
    if not done:
        return t("table.no_tricks")
    lines = []
    for number, trick in reversed(done):
        cards = " ".join(f"{seat_text(s, lang)}{card_text(c, lang)}" for s, c in trick.plays())
        lines.append(f"{number}: {cards} → {seat_text(trick.winner(view.trump), lang)}")
    return popup_page(t("table.tricks_title"), lines, page, t("table.tricks_more"))


def render_seating(snap: Snapshot, t: Translator) -> Rendered:
    """The table before a rubber: who sits where, and Sit/Leave buttons."""
    lang = t.language
    lines = [t("table.title", number=snap.table_id), _settings_line(snap, t)]
    for seat in Seat:
        lines.append(f"{seat_text(seat, lang)}: {_name(snap, seat)}")
    robots = any(snap.seats[seat].robot for seat in Seat if seat in snap.seats)
    if snap.status is TableStatus.PLAYING:  # the seats were taken: a rubber is on
        lines.append(t("table.started"))
    else:
        free = any(seat not in snap.seats for seat in Seat)
        lines.append(t("table.sit_hint") if free else t("table.full"))
    if robots:
        lines.append(t("robot.practice"))
        lines.append(t("robot.system"))
    lines.extend(seating_commitment(snap, t))
    keys = seating_keys(
        snap,
        list(Seat),
        lambda seat: seat.name,
        lambda seat: seat_text(seat, lang),
        lambda seat: t("button.sit", seat=t(f"bridge.seat_name.{seat.name}")),
        t,
    )
    return Rendered("\n".join(lines), keys)


def render_private(
    snap: Snapshot,
    deal_no: int,
    view: SeatView,
    vul: tuple[bool, bool],
    t: Translator,
    claim_menu: bool = False,
) -> Rendered:
    """A player's own message: their hand (and dummy's, for declarer), and their buttons;
    ``claim_menu`` puts the choice of how many tricks to claim in place of the cards."""
    seat = view.viewer
    assert seat is not None
    lang = t.language
    lines = [
        t(
            "private.title",
            number=snap.table_id,
            chat=user_text(snap.chat.title or "—"),
            deal=deal_label(snap, deal_no, t),
        ),
        t(
            "private.you",
            seat=seat_text(seat, lang),
            dealer=seat_text(view.dealer, lang),
            vul=vulnerability_text(vul, t),
        ),
    ]
    if snap.status is not TableStatus.PLAYING and view.result is None:
        lines.append(t("private.stopped"))  # the rubber was stopped with this deal unfinished
        return Rendered("\n".join(lines))
    if view.result is not None:
        return _over(snap, view, lines, t)
    if waiting(snap, view):
        return _quiet(snap, view, lines, t, vul)
    at = snap.actions  # the position every call, card and claim button is made for
    lines += [
        f"<b>{t('private.your_hand')}</b>",
        f"<pre>{escape(_hand_block(view.hands[seat], lang))}</pre>",
    ]
    if view.calls:
        lines.append(_grid_block(view, lang, vul))
        if view.phase is Phase.AUCTION:
            lines.extend(robot_notes(snap, view, t))
    lines.extend(_play_lines(snap, view, t))
    previous = _last_trick_line(view, t)
    if previous:
        lines.append(previous)
    if view.phase is not Phase.AUCTION:
        mine = view.tricks_won[seat.side]
        theirs = view.tricks_won[seat.side.other]
        lines.append(t("private.tricks", we=mine, they=theirs))
    keys: tuple[tuple[Key, ...], ...] = ()
    if view.result is not None:
        lines.append(t("table.deal_over"))
    elif snap.paused:
        names = ", ".join(_name(snap, s) for s in sorted(snap.paused))
        lines.append(t("table.paused", names=names))
    elif view.legal_calls:
        lines.append(f"<b>{t('private.your_call')}</b>")
        keys = bidding_box(snap.table_id, deal_no, at, view.legal_calls, lang)
        if view.calls:  # before calling: what the calls so far show
            keys = (*keys, (explain_key(snap.table_id, deal_no, t),))
    elif view.claim is not None:
        lines.extend(_claim_lines(snap, view, t))
        claim = view.claim
        if seat in claim.responders and seat not in claim.accepted:
            keys = (
                (
                    Key(
                        t("button.accept"),
                        action_data(snap.table_id, deal_no, at, CODEC.answer(True)),
                    ),
                    Key(
                        t("button.reject"),
                        action_data(snap.table_id, deal_no, at, CODEC.answer(False)),
                    ),
                ),
            )
    elif view.legal_cards and claim_menu:
        left = _tricks_left(view)
        lines.append(f"<b>{t('private.claim_ask', count=left)}</b>")
        options = [
            Key(str(n), action_data(snap.table_id, deal_no, at, CODEC.claim(n)))
            for n in range(left, -1, -1)
        ]
        rows = key_rows(options, 7)
        back = Key(t("button.back"), Button(snap.table_id, deal_no, Act.REFRESH).encode())
        keys = (*rows, (back,))
    elif view.legal_cards:
        if view.turn is not None and view.turn is view.dummy:
            lines.append(f"<b>{t('private.dummy_card', seat=seat_text(view.turn, lang))}</b>")
        else:
            lines.append(f"<b>{t('private.your_card')}</b>")
        turn = view.turn  # the hand played from (North's is seat 0: compared with None)
        hand = view.legal_cards if turn is None else view.hands.get(turn, view.legal_cards)
        keys = card_buttons(snap.table_id, deal_no, at, view.legal_cards, lang, hand)
        claim_key = Key(t("button.claim"), Button(snap.table_id, deal_no, CLAIM_MENU).encode())
        last: tuple[Key, ...] = (claim_key,)
        if _won_with_last_card(view):
            last = (*last, undo_key(snap.table_id, deal_no, t))
        keys = (*keys, last)
    return Rendered("\n".join(lines), keys)


def _won_with_last_card(view: SeatView) -> bool:
    """The viewer is on play because the last card played, which completed the trick, was
    theirs (declarer: or dummy's): it is still theirs to take back, from this screen."""
    if not view.tricks or view.tricks[-1].cards:
        return False
    done = [trick for trick in view.tricks if trick.is_complete]
    if not done:
        return False
    trick = done[-1]
    by = Seat((trick.leader + 3) % 4)
    mine = {view.viewer} | ({view.dummy} if view.viewer is view.declarer else set())
    return by in mine and view.claim is None


def _tricks_left(view: SeatView) -> int:
    return 13 - view.tricks_won[Side.NS] - view.tricks_won[Side.EW]


def _claim_lines(snap: Snapshot, view: SeatView, t: Translator) -> list[str]:
    """Who claims how many of the tricks left, and who has accepted so far."""
    claim = view.claim
    assert claim is not None
    lang = t.language
    lines = [
        t(
            "private.claim",
            seat=seat_text(claim.claimant, lang),
            name=_name(snap, claim.claimant),
            tricks=claim.tricks,
            count=_tricks_left(view),
        )
    ]
    shown = view.hands.get(claim.claimant)
    if shown is not None and claim.claimant is not view.viewer:  # faced with the claim
        lines.append(t("private.claim_hand", seat=seat_text(claim.claimant, lang)))
        lines.append(f"<pre>{escape(_hand_block(shown, lang))}</pre>")
    if claim.accepted:
        names = ", ".join(_name(snap, s) for s in sorted(claim.accepted))
        lines.append(t("private.claim_accepted_by", names=names))
    return lines


def waiting(snap: Snapshot, view: SeatView) -> bool:
    """Mid-deal and not this seat's turn (nor paused, nor a claim to answer): the quiet view."""
    return (
        view.result is None
        and view.claim is None
        and not snap.paused
        and not view.legal_calls
        and not view.legal_cards
        and view.turn is not None
    )


def seat_waits(snap: Snapshot, state: DealState, seat: Seat) -> bool:
    """``waiting`` for ``seat``'s view, read from the state without building the view: a press
    asks it of all four seats, and draws only the screens that go (tested equal to it)."""
    return (
        state.result is None
        and state.claim is None
        and not snap.paused
        and not state.may_act(seat)
        and state.turn is not None
    )


def dealt(view: SeatView, seat: Seat) -> frozenset[Card]:
    """The hand ``seat`` was dealt: what it holds now and what it played (each trick's cards
    go clockwise from its leader)."""
    played = {
        card
        for trick in view.tricks
        for i, card in enumerate(trick.cards)
        if Seat((trick.leader + i) % 4) == seat
    }
    return view.hands.get(seat, frozenset()) | played


def _over(snap: Snapshot, view: SeatView, lines: list[str], t: Translator) -> Rendered:
    """The deal is over: how it went, and the hand the player held, in place of the empty
    suits of a played-out hand."""
    seat = view.viewer
    assert seat is not None and view.result is not None
    lang = t.language
    outcome = result_text(view.result, lang) if view.result.contract is not None else ""
    lines.append(f"<b>{t('table.deal_over')}</b> {escape(outcome)}".rstrip())
    lines.append(t("private.hand_was"))
    lines.append(f"<pre>{escape(_hand_block(dealt(view, seat), lang))}</pre>")
    return Rendered("\n".join(lines))


def _quiet(
    snap: Snapshot, view: SeatView, lines: list[str], t: Translator, vul: tuple[bool, bool]
) -> Rendered:
    """A waiting player's message: their hand, and the auction and the trick as they go, with
    whose turn it is, so that nobody has to switch to the group to see what partner called.
    It is edited at a lower priority than the prompt of the player on turn (the outbox's
    gate): under load a waiting screen may lag, a prompt may not."""
    seat = view.viewer
    assert seat is not None
    lang = t.language
    if seat is view.dummy and view.phase is Phase.PLAY:
        lines.append(t("private.you_are_dummy"))  # and the cards declarer plays from here
    else:
        lines.append(f"<b>{t('private.your_hand')}</b>")
    lines.append(f"<pre>{escape(_hand_block(view.hands[seat], lang))}</pre>")
    if view.calls or view.phase is Phase.AUCTION:
        lines.append(_grid_block(view, lang, vul))
    # Dummy and the tricks stay in view while others think (declarer plans, a defender
    # follows the play without the group), as on the player's own turn.
    lines.extend(_play_lines(snap, view, t))
    last = _last_trick_line(view, t)
    if last:
        lines.append(last)
    if view.phase is not Phase.AUCTION:
        we, they = view.tricks_won[seat.side], view.tricks_won[seat.side.other]
        lines.append(t("private.tricks", we=we, they=they))
    if view.phase is Phase.AUCTION and view.turn is not None:
        turn = t("table.turn_call", name=_name(snap, view.turn), seat=seat_text(view.turn, lang))
        lines.append(turn)
    elif view.actor is not None and view.turn is not None:
        key = "table.turn_dummy" if view.turn is view.dummy else "table.turn"
        lines.append(t(key, name=_name(snap, view.actor), seat=seat_text(view.turn, lang)))
    lines.append(t("private.not_your_turn"))
    if not view.undoable:  # only while the take-back can work: their action is the last
        return Rendered("\n".join(lines))
    return Rendered("\n".join(lines), ((undo_key(snap.table_id, snap.deal_no, t),),))


def bidding_box(
    table_id: int, deal_no: int, at: int, calls: tuple[Call, ...], language: str
) -> tuple[tuple[Key, ...], ...]:
    """Pass / X / XX on top, then the legal bids, one row per level (five strains)."""

    def key(call: Call) -> Key:
        label, text = _CALL_KEYS.get(
            call, language, lambda: (call_text(call, language, long=True), CODEC.call(call))
        )
        return Key(label, action_data(table_id, deal_no, at, text))

    specials = tuple(key(c) for c in calls if not c.is_bid)
    rows: list[tuple[Key, ...]] = [specials]
    by_level: dict[int, list[Key]] = {}
    for call in calls:
        if call.bid is not None:
            by_level.setdefault(call.bid.level, []).append(key(call))
    rows.extend(tuple(keys) for _, keys in sorted(by_level.items()))
    return tuple(rows)


def card_buttons(
    table_id: int,
    deal_no: int,
    at: int,
    cards: frozenset[Card],
    language: str,
    hand: frozenset[Card] = frozenset(),
) -> tuple[tuple[Key, ...], ...]:
    """The hand to play from as the keyboard, a row per suit (at most seven to a row to stay
    tappable): the playable ``cards`` pressable, the rest of ``hand`` greyed out (disabled
    buttons), so the keyboard keeps its shape as the cards that may be played change."""
    by_suit: dict[Suit, list[Key]] = {}
    for c in sort_hand(cards | hand):  # one pass: a suit's cards keep the hand's order
        label = card_text(c, language)
        by_suit.setdefault(c.suit, []).append(
            Key(label, action_data(table_id, deal_no, at, CODEC.card(c)))
            if c in cards
            else Key(label, disabled=True)
        )
    rows: list[tuple[Key, ...]] = []
    for suit in reversed(Suit):
        suited = by_suit.get(suit, [])
        for start in range(0, len(suited), 7):
            rows.append(tuple(suited[start : start + 7]))
    return tuple(rows)
