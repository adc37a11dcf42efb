"""Preferans as players read it: cards, bids, the bidding, the talon, the trick, the sheet.

Pure: (view, names, translator) -> text. Every screen is built from one seat's ``SeatView``
(None: the group), which holds no card that seat may not see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from html import escape

from bot.i18n import Translator
from bot.views.amounts import account_lines, amount
from bot.views.text import PHONE, cells, fit, rich_table, short_names, user_text
from games.preferans.bids import Bid
from games.preferans.cards import Card, Rank, Suit
from games.preferans.conditions import Conditions
from games.preferans.deal import Kind, Phase, Result, SeatView, Trick
from games.preferans.game import PREFERANS
from games.preferans.pulka import Pulka
from storage.interface import ChatSettings

SUIT_SYMBOL = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}
_RANK_KEYS = {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"}


def rank_text(rank: Rank, t: Translator) -> str:
    key = _RANK_KEYS.get(rank)
    return str(int(rank)) if key is None else t(f"pref.rank.{key}")


def card_text(card: Card, t: Translator) -> str:
    return SUIT_SYMBOL[card.suit] + rank_text(card.rank, t)


def bid_text(bid: Bid | None, t: Translator) -> str:
    """``6♠``, ``7БК``, ``мизер``; None is a pass."""
    if bid is None:
        return t("pref.pass")
    if bid.is_misere:
        return t("pref.misere")
    strain = bid.strain
    assert strain is not None
    suit = Suit.of(strain)
    return f"{bid.level}{t('pref.nt') if suit is None else SUIT_SYMBOL[suit]}"


# The suits as a hand shows them: colours alternating (two black suits side by side are
# easily mixed up on a small screen), spades first and hearts last as in their seniority.
SHOWN_SUITS = (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS)


def in_hand_order(cards: Iterable[Card]) -> list[Card]:
    """The one order of cards on every screen (the hand, the play and discard buttons): suit
    by suit in :data:`SHOWN_SUITS`' order, each high to low."""
    return sorted(cards, key=lambda c: (SHOWN_SUITS.index(c.suit), -int(c.rank)))


def suit_rows(cards: Iterable[Card]) -> list[list[Card]]:
    """The cards a row per suit, as the buttons lay them out (a suit holds at most eight,
    Telegram's most buttons in a row)."""
    held = in_hand_order(cards)
    rows = [[c for c in held if c.suit is suit] for suit in SHOWN_SUITS]
    return [row for row in rows if row]


def hand_lines(cards: Iterable[Card], t: Translator) -> list[str]:
    """A line per suit, colours alternating, each high to low."""
    held = in_hand_order(cards)
    lines = []
    for suit in SHOWN_SUITS:
        ranks = [rank_text(c.rank, t) for c in held if c.suit is suit]
        lines.append(f"{SUIT_SYMBOL[suit]} {' '.join(ranks) if ranks else '—'}")
    return lines


def _name(names: Mapping[int, str], seat: int) -> str:
    return user_text(names.get(seat, "—"))


def mid_line(word: str) -> str:
    """A button's word as it reads inside a line: "Аня пас", not "Аня Пас" (a contract's
    letters stay as they are: "6БК").

    >>> mid_line("Пас"), mid_line("Полвиста"), mid_line("6БК"), mid_line("Misère")
    ('пас', 'полвиста', '6БК', 'misère')
    """
    if word[:1].isalpha() and word[1:] == word[1:].lower():
        return word[:1].lower() + word[1:]
    return word


def bidding_line(view: SeatView, names: Mapping[int, str], t: Translator) -> str:
    calls = " · ".join(f"{_name(names, c.seat)} {mid_line(bid_text(c.bid, t))}" for c in view.calls)
    return t("pref.bidding", calls=calls or "—")


def contract_lines(view: SeatView, names: Mapping[int, str], t: Translator) -> list[str]:
    lines: list[str] = []
    if view.phase is Phase.AUCTION and view.floor > 6:  # §8: the exit after raspasy
        lines.append(t("pref.exit_floor", bid=bid_text(Bid.parse(f"{view.floor}S"), t)))
    compulsory = (
        view.kind is Kind.GAME
        and view.contract is not None
        and view.conditions.compulsory_on(view.contract)
    )
    if view.kind is Kind.RASPASY:
        lines.append(t("pref.raspasy"))
    elif view.declarer is not None and view.kind is not None:
        game = bid_text(view.contract, t) if view.contract is not None else ""
        if view.kind is Kind.MISERE:
            game = mid_line(t("pref.misere"))
        # What declarer is doing while the others wait: taking the talon and discarding,
        # then naming the game.
        doing = {Phase.DISCARD: "discard", Phase.CONTRACT: "contract"}.get(view.phase)
        what = " — ".join(p for p in (game, doing and t(f"pref.doing.{doing}")) if p)
        lines.append(t("pref.contract", name=_name(names, view.declarer), contract=what))
    if view.whists:
        words = " · ".join(
            f"{_name(names, w.seat)} {mid_line(t(f'pref.word.{w.word}'))}" for w in view.whists
        )
        lines.append(t("pref.whists_line", words=words))
    if compulsory:  # §8: nobody was asked; both defenders whist, closed
        lines.append(t("pref.compulsory_whist"))
    elif view.shown is not None:
        lines.append(t("pref.open") if view.shown else t("pref.closed"))
    if view.talon:
        lines.append(t("pref.talon", cards=" ".join(card_text(c, t) for c in view.talon)))
    if view.discard:
        lines.append(t("pref.discard", cards=" ".join(card_text(c, t) for c in view.discard)))
    return lines


def turn_line(view: SeatView, names: Mapping[int, str], t: Translator) -> str:
    """Whose turn it is, as bridge's table says it: a call in the auction, a turn after."""
    assert view.actor is not None
    key = "pref.turn_call" if view.phase is Phase.AUCTION else "pref.turn"
    return t(key, name=_name(names, view.actor))


def current_trick(view: SeatView) -> Trick | None:
    """The trick under way, or the one just completed while the next has no card yet."""
    if not view.tricks:
        return None
    last = view.tricks[-1]
    if not last.plays and len(view.tricks) > 1:
        return view.tricks[-2]
    return last


def taker(view: SeatView, trick: Trick) -> int:
    """Who took a completed trick, by the rules' own count (``Trick.winner``): not the next
    trick's leader, who in raspasy is the first hand again after trick 1."""
    trump = None
    if view.kind is Kind.GAME and view.contract is not None and view.contract.strain is not None:
        trump = Suit.of(view.contract.strain)
    return trick.winner(trump)


def _trick_cards(view: SeatView, trick: Trick, names: Mapping[int, str], t: Translator) -> str:
    cards = " · ".join(f"{_name(names, s)} {card_text(c, t)}" for s, c in trick.plays)
    if trick.talon_card is not None:
        cards = f"{t('pref.from_talon')} {card_text(trick.talon_card, t)} · " + cards
    if len(trick.plays) == len(view.active):
        cards += f" → {_name(names, taker(view, trick))}"
    return cards


def trick_lines(view: SeatView, names: Mapping[int, str], t: Translator) -> list[str]:
    """The trick under way (or the one just taken, until the next has a card) and the one
    before it with who took it: a trick stays in view for a round of cards after it is
    taken, so at a quick pace no trick goes unseen."""
    if view.phase not in (Phase.PLAY, Phase.FINISHED) or view.kind is None:
        return []
    trick = current_trick(view)
    lines = []
    if trick is not None and (trick.plays or trick.talon_card is not None):
        number = view.tricks.index(trick) + 1
        lines.append(t("pref.trick", number=number, cards=_trick_cards(view, trick, names, t)))
        if number > 1:  # in view until a card of the trick after the shown one
            before = view.tricks[number - 2]
            cards = _trick_cards(view, before, names, t)
            lines.append(t("table.last_trick", number=number - 1, cards=cards))
    taken = " · ".join(f"{_name(names, s)} {n}" for s, n in sorted(view.taken.items()))
    lines.append(t("pref.taken", taken=taken))
    claim = view.claim
    if claim is not None:
        key = "pref.claim_line_none" if claim.tricks == 0 else "pref.claim_line"
        lines.append(t(key, name=_name(names, claim.claimant), n=claim.tricks))
    return lines


def hands_block(view: SeatView, names: Mapping[int, str], t: Translator) -> str:
    """Every hand this view may see, each under its holder's name (own hand first)."""
    order = sorted(view.hands, key=lambda s: (s != view.viewer, s))
    blocks = [
        _hand(t("pref.your_hand") if seat == view.viewer else None, seat, view, names, t)
        for seat in order
    ]
    return "<pre>" + "\n\n".join(blocks) + "</pre>" if blocks else ""


def _hand(
    head: str | None, seat: int, view: SeatView, names: Mapping[int, str], t: Translator
) -> str:
    """A hand under its head (its holder's name, cut to fit a phone, unless ``head``)."""
    shown = head if head is not None else escape(fit(names.get(seat, "—"), PHONE))
    return shown + "\n" + escape("\n".join(hand_lines(view.hands[seat], t)))


def full_deal_block(view: SeatView, names: Mapping[int, str], t: Translator) -> str:
    """The deal's hands after the result, each under its holder's name (cut to fit a
    phone), and the talon."""
    blocks = [_hand(None, seat, view, names, t) for seat in sorted(view.hands)]
    talon = t("pref.talon", cards=" ".join(card_text(c, t) for c in view.talon))
    return "<pre>" + "\n\n".join([*blocks, talon]) + "</pre>"


def result_line(result: Result, names: Mapping[int, str], t: Translator) -> str:
    if result.kind is Kind.RASPASY:
        tricks = result.tricks or {}
        taken = " · ".join(f"{_name(names, s)} {n}" for s, n in sorted(tricks.items()))
        return t("pref.result.raspasy", taken=taken)
    assert result.declarer is not None
    who = _name(names, result.declarer)
    mine = (result.tricks or {}).get(result.declarer)
    claimed = " " + t("pref.result.claimed") if result.claimed else ""
    if result.kind is Kind.MISERE:
        took = mine if mine is not None else 0
        verdict = t("pref.verdict.misere_made") if took == 0 else t("pref.verdict.misere_lost")
        return t("pref.result.misere", name=who, count=took) + f" — {verdict}{claimed}"
    contract = bid_text(result.contract, t)
    if mine is None:
        return t("pref.result.unplayed", name=who, contract=contract)
    # The verdict as players say it: made, or down so many ("без одной").
    short = (result.contract.level if result.contract is not None else 0) - mine
    verdict = t("pref.verdict.made") if short <= 0 else t(f"verdict.down.{min(short, 13)}")
    return t("pref.result.game", name=who, contract=contract, count=mine) + f" — {verdict}{claimed}"


def sheet_text(
    pool: list[int],
    gora: list[int],
    whists: list[list[int]],
    names: Mapping[int, str],
    t: Translator,
) -> str:
    """The pulka as a phone-width table (at most :data:`PHONE` cells for any names and four
    players): pool and gora under short column heads, then one row per pair of whists
    written ("Аня→Боря 20"). Escaped, for a ``<pre>`` block; the legend goes under it."""
    seats = range(len(pool))
    heads = [t("pref.sheet.pool"), t("pref.sheet.gora")]
    label = max(cells(h) for h in heads)
    column = min(10, (PHONE - label) // len(pool))
    short = short_names({s: names.get(s, "—") for s in seats}, column - 1)

    def row(head: str, values: list[str]) -> str:
        return pad(head, label) + "".join(" " * (column - cells(v)) + v for v in values)

    lines = [
        row("", [short[s] for s in seats]),
        row(heads[0], [count_text(pool[s]) for s in seats]),
        row(heads[1], [count_text(gora[s]) for s in seats]),
    ]
    pairs = [
        (t("pref.sheet.whists_pair", writer=short[w], on=short[o]), count_text(whists[w][o]))
        for w in seats
        for o in seats
        if w != o and whists[w][o]
    ]
    if pairs:
        wide = max(cells(pair) for pair, _ in pairs) + max(len(n) for _, n in pairs) + 1
        lines.append(t("pref.sheet.whists"))
        lines += [pad(pair, wide - len(n)) + n for pair, n in pairs]
    return escape("\n".join(lines))


def pad(text: str, width: int) -> str:
    """``text`` followed by spaces to ``width`` display cells."""
    return text + " " * (width - cells(text))


def pulka_block(pulka: Pulka, names: Mapping[int, str], t: Translator) -> str:
    """The pulka's sheet as it stands, as a monospace block of a message."""
    state = pulka.state()
    pool, gora = list(state["pool"]), list(state["gora"])
    whists = [list(row) for row in state["whists"]]
    block = f"<pre>{sheet_text(pool, gora, whists, names, t)}</pre>"
    written = any(value for row in whists for value in row)
    return f"{block}\n{t('pref.sheet.whists_legend')}" if written else block


def pulka_rich(pulka: Pulka, names: Mapping[int, str], t: Translator) -> str:
    """The pulka as a rich message's table (Bot API 10.1): a row per player, their pool and
    gora, and the whists they wrote on each other player (a column each, headed by the name,
    which no case ending touches)."""
    state = pulka.state()
    seats = range(pulka.players)
    who = {s: user_text(names.get(s, "—")) for s in seats}
    rows = [["", t("pref.sheet.pool"), t("pref.sheet.gora"), *(f"→ {who[o]}" for o in seats)]]
    for w in seats:
        whists = state["whists"][w]
        written = ["" if o == w else count_text(whists[o]) for o in seats]
        rows.append([who[w], count_text(state["pool"][w]), count_text(state["gora"][w]), *written])
    return rich_table(rows) + f"<p>{t('pref.sheet.rich_legend')}</p>"


def settlement_lines(
    unfinished: bool,
    entries: Mapping[int, int],
    balances: Mapping[str, Mapping[int, int]],
    names: Mapping[int, str],
    group: ChatSettings,
    t: Translator,
    practice: bool = False,
) -> list[str]:
    """A closed pulka, online or kept: each player's whists (money too once the group prices a
    whist) and the group's running accounts (``names`` by player id). ``practice``: a robot
    sat in, so the whists are practice, never money, and the accounts are the practice ones."""
    title = t("pref.over")
    if unfinished:
        title += " " + t("pref.unfinished")
    unit = PREFERANS.practice_unit if practice else PREFERANS.unit
    shown = [
        f"  {user_text(names.get(pid, '?'))}: {amount(whists, group, t, True, unit)}"
        for pid, whists in sorted(entries.items(), key=lambda kv: -kv[1])
    ]
    lines = [f"<b>{title}</b>", t("pref.result_list"), *shown]
    # The group's accounts only when they say more than this pulka did (an earlier match,
    # another game's points): the first pulka's balance is its result, one list.
    if {u: dict(a) for u, a in balances.items() if any(a.values())} != {unit: dict(entries)}:
        lines.append(t("pref.robot.practice_done") if practice else t("rubber.accounts"))
        lines += account_lines(balances, names, group, t)
    return lines


def breakdown(pulka: Pulka, names: Mapping[int, str], t: Translator) -> str:
    """How the whists came out (§7), folded until tapped: each player's gora with the pool
    they lacked, against the average; the whists net with each other player; the exact total
    (whole whists and money are the result's list)."""
    whists = pulka.state()["whists"]
    seats = range(pulka.players)
    closed = pulka.closed_gora()
    mean = sum(closed, Fraction(0)) / len(closed)
    totals = pulka.balances()
    gorae = " · ".join(f"{_name(names, i)} {count_text(closed[i])}" for i in seats)
    lines = [
        f"<b>{t('pref.breakdown.title')}</b>",
        t("pref.breakdown.gora", gora=gorae, mean=count_text(mean)),
    ]
    for i in seats:
        nets = ", ".join(
            f"{_name(names, j)} {count_text(Fraction(whists[i][j]) - Fraction(whists[j][i]), True)}"
            for j in seats
            if j != i
        )
        lines.append(
            t(
                "pref.breakdown.player",
                name=_name(names, i),
                gora=count_text(10 * (mean - closed[i]), True),
                whists=nets,
                total=count_text(totals[i], True),
            )
        )
    return "<blockquote expandable>" + "\n".join(lines) + "</blockquote>"


def count_text(value: Fraction | int, sign: bool = False) -> str:
    """A count of the pulka (whists, pool, gora) as players write it: whole, or to two
    places; a real minus; ``sign``: + before a gain.

    >>> count_text(-3), count_text(Fraction(1, 2), True), count_text(Fraction(-1, 3))
    ('−3', '+0.5', '−0.33')
    """
    exact = Fraction(value)
    text = str(abs(exact.numerator)) if exact.denominator == 1 else f"{abs(float(exact)):.2f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    if exact < 0:
        return "−" + text
    return ("+" + text) if sign and exact > 0 else text


def conditions_text(rules: Conditions, variant: str, t: Translator, full: bool = False) -> str:
    """The pulka's conditions in one line (§8): the header names only the switches that differ
    from the variant's preset (empty when none do); ``full`` names every one, for /score and
    /settings."""
    shown = rules.text() if full else rules.changed(variant)
    words = [
        t("pref.cond.exit", exit=value) if key == "exit" else t(f"pref.cond.{key}.{value}")
        for key, value in shown.items()
    ]
    return t("pref.conditions", list="; ".join(words)) if words else ""


def settings_text(variant: str, target: int, players: int, t: Translator) -> str:
    """The pulka's settings in one line: "Сочи, пуля до 10, игроков: 3"."""
    return t(
        "pref.settings_line", variant=t(f"pref.variant.{variant}"), target=target, players=players
    )
