"""Scoresheets and results: the deal's entries, the rubber's sheet, each player's account."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.callback_data import Act, Button
from bot.games.bridge.buttons import DD
from bot.games.bridge.cards import (
    contract_text,
    result_text,
    seat_text,
    side_text,
    strain_text,
    vulnerability_text,
)
from bot.games.bridge.state import (
    bridge_deal,
    bridge_form,
    bridge_options,
    bridge_rubber,
    deal_label,
    rubber_of,
    sheet_vulnerability,
)
from bot.i18n import Translator
from bot.rendered import Key, Rendered
from bot.tables import (
    DealFinished,
    EndVote,
    MatchFinished,
    Snapshot,
    UndoAnswered,
    UndoAsked,
)
from bot.views.amounts import account_lines, number, signed
from bot.views.fair import reveal_lines
from bot.views.misc import answer_keys
from bot.views.stats import costly_key
from bot.views.text import plain_text, rich_table, user_text
from games.bridge.analysis import Analysis
from games.bridge.calls import Contract, Strain
from games.bridge.cards import Seat, Side
from games.bridge.chicago import DEALS, Chicago
from games.bridge.game import CHICAGO
from games.bridge.records import LIN_VUL, Record, viewer_url
from games.bridge.rubber import Line, ScoreEntry, ScoreSheet
from storage.interface import Rounding, is_practice

COLUMN = 9


def scoresheet(rubber: ScoreSheet, t: Translator) -> str:
    """The classic sheet in monospace: N-S left, E-W right; above the line newest on top,
    below the line each game in order with a rule under every finished game."""
    width = COLUMN

    def row(ns: str, ew: str) -> str:
        return f"{ns.rjust(width)} │ {ew.rjust(width)}"

    lines = [row(side_text(Side.NS, t), side_text(Side.EW, t)), "─" * (2 * width + 3)]
    above = [e for e in rubber.entries if e.line is Line.ABOVE]
    for entry in reversed(above):
        lines.append(row(*_columns(entry)))
    lines.append("═" * (2 * width + 3))
    below = [e for e in rubber.entries if e.line is Line.BELOW]
    games = sorted({e.game for e in below} | {rubber.game_number})
    for game in games:
        for entry in (e for e in below if e.game == game):
            lines.append(row(*_columns(entry)))
        if game < rubber.game_number:
            lines.append("─" * (2 * width + 3))
    totals = rubber.totals()
    lines.append("═" * (2 * width + 3))
    lines.append(row(number(totals[Side.NS]), number(totals[Side.EW])))
    return "\n".join(lines)


def _columns(entry: ScoreEntry) -> tuple[str, str]:
    """An entry's points in its side's column of the sheet: (N-S, E-W)."""
    cell = number(entry.points)
    return (cell, "") if entry.side is Side.NS else ("", cell)


def render_deal_result(
    snap: Snapshot, notice: DealFinished, t: Translator, analysis: Analysis | None = None
) -> Rendered:
    """Posted when a deal ends: contract, declarer, result, entries, the sheet so far, and
    (with ``analysis``) what the contract makes double-dummy and the par."""
    lang = t.language
    final = bridge_deal(notice.final)
    result = final.result
    assert result is not None
    if result.contract is None or result.declarer is None:
        head = t("result.passed_out", number=deal_label(snap, notice.deal_no, t))
    else:
        holder = snap.seats.get(result.declarer)
        name = user_text(holder.name) if holder else "—"
        delta = result.declarer_tricks - result.contract.tricks_needed
        if delta >= 0:
            outcome = t("result.made", count=result.declarer_tricks)
        else:
            outcome = t(f"verdict.down.{-delta}")  # "без шести", as Preferans says it
        if result.claimed:
            outcome += f" ({t('result.claimed')})"
        head = t(
            "result.head",
            number=deal_label(snap, notice.deal_no, t),
            result=result_text(result, lang),
            seat=seat_text(result.declarer, lang),
            name=name,
            outcome=outcome,
        )
    # One line each: what happened, what it wrote, double-dummy and par, the link. The sheet
    # is on /score and in the rubber's picture; all four hands are on the table message.
    lines = [head, *entry_lines(notice.written, bridge_rubber(notice.match), t)]
    if analysis is not None:
        lines.extend(analysis_lines(analysis, result.contract, result.declarer, t))
    before = bridge_rubber(notice.before)
    vul = sheet_vulnerability(before)
    holders = notice.holders or snap.seats
    record = Record(
        snap.deal_in_match(notice.deal_no),
        final,
        *vul,
        names={Seat(s): plain_text(h.name) for s, h in holders.items()},
        event=snap.chat.title,
    )
    lines.append(f'<a href="{escape(viewer_url(record))}">{t("result.bbo")}</a>')
    lines.extend(reveal_lines(notice.fair, t))
    code = LIN_VUL[vul]
    dd = Key(t("button.dd_table"), Button(snap.table_id, notice.deal_no, DD, code).encode())
    return Rendered("\n".join(lines), ((dd, costly_key(snap.table_id, notice.deal_no, t)),))


def analysis_lines(
    analysis: Analysis, contract: Contract | None, declarer: Seat | None, t: Translator
) -> list[str]:
    """What the contract makes with every card in view, the par, and the whole table."""
    lang = t.language
    lines = []
    if contract is not None and declarer is not None:
        makes = analysis.makes(contract.strain, declarer)
        lines.append(
            t(
                "analysis.contract",
                contract=contract_text(contract, lang),
                seat=seat_text(declarer, lang),
                count=makes,
            )
        )
    if analysis.par:
        # As BBO writes it: the par contracts once each, then the side that makes it and its
        # score ("Пар: 1♣/1♦ В-З +130").
        contracts = "/".join(dict.fromkeys(contract_text(p.contract, lang) for p in analysis.par))
        score = analysis.par_score
        side = Side.NS if score >= 0 else Side.EW
        shown = f"{side_text(side, t)} {signed(abs(score))}" if score else "0"
        lines.append(t("analysis.par", score=shown, contracts=contracts))
    return lines


def dd_table(analysis: Analysis, language: str) -> str:
    """The whole double-dummy table, a row per declarer (for the result's button): tricks
    after a colon ("♠: 2"), so that a count never reads as a card ("♠2")."""
    strains = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
    return "\n".join(
        f"{seat_text(seat, language)} — "
        + " · ".join(f"{strain_text(s, language)}: {analysis.makes(s, seat)}" for s in strains)
        for seat in Seat
    )


def entry_lines(entries: Sequence[ScoreEntry], rubber: ScoreSheet, t: Translator) -> list[str]:
    """What a deal wrote, in one line, and the games won."""
    written = " · ".join(
        t(
            "result.entry",
            side=side_text(entry.side, t),
            points=number(entry.points),
            what=t(f"entry.{entry.kind.value}"),
            line=t(f"line.{entry.line.value}"),
        )
        for entry in entries
    )
    games = rubber.games
    lines = [written] if written else []
    lines.append(t("result.games", ns=games[Side.NS], ew=games[Side.EW]))
    if not rubber.finished:  # at a rubber the part score decides the bidding
        totals = rubber.totals()
        lines.append(
            t(
                "result.part_score",
                ns=number(rubber.below_in_game(Side.NS)),
                ew=number(rubber.below_in_game(Side.EW)),
                total_ns=number(totals[Side.NS]),
                total_ew=number(totals[Side.EW]),
            )
        )
    return lines


def sheet_lines(entries: Sequence[ScoreEntry], rubber: ScoreSheet, t: Translator) -> list[str]:
    """What a deal wrote, the sheet so far, and the games won."""
    lines = [
        t(
            "result.entry",
            side=side_text(entry.side, t),
            points=number(entry.points),
            what=t(f"entry.{entry.kind.value}"),
            line=t(f"line.{entry.line.value}"),
        )
        for entry in entries
    ]
    lines.append(f"<pre>{escape(scoresheet(rubber, t))}</pre>")
    games = rubber.games
    lines.append(t("result.games", ns=games[Side.NS], ew=games[Side.EW]))
    return lines


def render_rubber_result(snap: Snapshot, notice: MatchFinished, t: Translator) -> Rendered:
    """Posted when a rubber ends: totals, the rounded result, entries, running accounts."""
    sheet = bridge_rubber(notice.match)
    totals = sheet.totals()
    lines = [f"<b>{t(over_key(sheet))}</b>"]
    if notice.unfinished:
        lines[0] += " " + t("history.unfinished")
    for side in Side:
        names = ", ".join(
            user_text(snap.seats[seat].name) for seat in side.seats if seat in snap.seats
        )
        lines.append(
            t(
                "rubber.side_total",
                side=side_text(side, t),
                names=names,
                points=number(totals[side]),
            )
        )
    winner = notice.summary.get("winner")
    won = None if winner is None else Side(str(winner))
    hundreds = snap.chat.settings.rounding is Rounding.HUNDREDS
    lines.append(result_line(won, int(notice.summary.get("points") or 0), t, hundreds))
    entry_parts = [
        f"{user_text(notice.names.get(pid, '?'))} {signed(points)}"
        for pid, points in sorted(notice.entries.items(), key=lambda kv: -kv[1])
    ]
    # The running accounts, unless they say the same as the entries (the group's first rubber,
    # nothing priced): then one list.
    same = (
        not is_practice(notice.unit)
        and not snap.chat.settings.price(notice.unit)
        and set(notice.balances) <= {notice.unit}
        and dict(notice.balances.get(notice.unit, {})) == dict(notice.entries)
    )
    if same:
        lines.append(t("rubber.entries_are_accounts", entries=" · ".join(entry_parts)))
        return Rendered("\n".join(lines), _next_keys(snap, t))
    lines.append(t("rubber.entries", entries=" · ".join(entry_parts)))
    if is_practice(notice.unit):  # a robot sat in: the people's practice points, not money
        lines.append(t("robot.practice_done"))
        lines.extend(account_lines(notice.balances, notice.names, snap.chat.settings, t))
    else:
        lines.append(t("rubber.accounts"))
        lines.extend(account_lines(notice.balances, notice.names, snap.chat.settings, t))
    return Rendered("\n".join(lines), _next_keys(snap, t))


def chicago_line(chicago: Chicago, t: Translator) -> str:
    """Which deal of four is about to be played, and who is vulnerable on it."""
    vul = vulnerability_text(sheet_vulnerability(chicago), t)
    return t("chicago.where", number=chicago.deal_number, deals=DEALS, vul=vul)


def over_key(sheet: ScoreSheet) -> str:
    """What ended: a rubber, or a Chicago."""
    return "chicago.over" if isinstance(sheet, Chicago) else "rubber.over"


def _next_keys(snap: Snapshot, t: Translator) -> tuple[tuple[Key, ...], ...]:
    """After a rubber (a Chicago): the same four again, new partners, or stand up."""
    chicago = bridge_form(snap.settings.options)[0] == CHICAGO
    again = t("button.next_chicago") if chicago else t("button.next_rubber")
    return (
        (
            Key(again, Button(snap.table_id, 0, Act.NEXT_MATCH).encode()),
            Key(t("button.new_partners"), Button(snap.table_id, 0, Act.NEW_PARTNERS).encode()),
        ),
        (Key(t("button.stand_up"), Button(snap.table_id, 0, Act.STAND_UP).encode()),),
    )


def result_line(winner: Side | None, points: int, t: Translator, hundreds: bool = True) -> str:
    """The rubber's result, or a draw; in hundreds too when the group rounds to them."""
    if winner is None or points == 0:
        return t("rubber.drawn")
    side = side_text(winner, t)
    if not hundreds:
        return t("rubber.result_exact", side=side, points=number(points))
    return t("rubber.result", side=side, points=number(points), short=number(points // 100))


def render_undo_asked(snap: Snapshot, notice: UndoAsked, t: Translator) -> Rendered:
    """The opponents of the asker allow or refuse, in the group where everyone sees it."""
    holder = snap.seats.get(notice.seat)
    asker = Seat(notice.seat)
    opponents = ", ".join(
        user_text(snap.seats[s].name) for s in asker.side.other.seats if s in snap.seats
    )
    text = t(
        "undo.asked",
        name=user_text(holder.name) if holder else "—",
        seat=seat_text(asker, t.language),
        opponents=opponents,
    )
    keys = answer_keys(
        snap.table_id, snap.deal_no, Act.UNDO_ANSWER, t("button.allow"), t("button.refuse")
    )
    return Rendered(text, keys)


def render_undo_answered(snap: Snapshot, notice: UndoAnswered, t: Translator) -> Rendered:
    holder = snap.seats.get(notice.by)
    name = user_text(holder.name) if holder else "—"
    key = "undo.allowed" if notice.allowed else "undo.refused"
    return Rendered(t(key, name=name, seat=seat_text(Seat(notice.asker), t.language)))


def render_end_vote(snap: Snapshot, notice: EndVote, t: Translator) -> Rendered:
    """A proposal to stop the rubber now, and who has agreed so far."""
    holder = snap.seats.get(notice.seat)
    name = user_text(holder.name) if holder is not None else "—"
    if not notice.agree:
        return Rendered(t("end.refused", name=name))
    agreed = ", ".join(
        user_text(snap.seats[s].name) for s in sorted(snap.end_votes) if s in snap.seats
    )
    keys = answer_keys(
        snap.table_id, snap.deal_no, Act.END, t("button.end_yes"), t("button.end_no")
    )
    _, part = bridge_options(snap.settings.options)
    text = t("end.proposed", names=agreed, count=len(snap.end_votes), part=part)
    return Rendered(text, keys)


def render_scoresheet(snap: Snapshot, t: Translator) -> Rendered:
    """/score: the current rubber's sheet, who sits where and the vulnerability."""
    rubber = rubber_of(snap)
    if rubber is None:
        return Rendered(t("score.none"))
    lang = t.language
    seats = " · ".join(
        f"{seat_text(s, lang)} {user_text(snap.seats[s].name)}" for s in Seat if s in snap.seats
    )
    games = rubber.games
    where = [chicago_line(rubber, t)] if isinstance(rubber, Chicago) else []
    text = "\n".join(
        [
            t("score.title", number=snap.table_id),
            *where,
            seats,
            f"<pre>{escape(scoresheet(rubber, t))}</pre>",
            t("result.games", ns=games[Side.NS], ew=games[Side.EW]),
        ]
    )
    rich = "".join(
        [
            f"<h3>{t('score.title', number=snap.table_id)}</h3>",
            *(f"<p>{line}</p>" for line in (*where, seats)),
            rich_scoresheet(rubber, t),
            f"<p>{t('result.games', ns=games[Side.NS], ew=games[Side.EW])}</p>",
        ]
    )
    return Rendered(text, rich=rich)


def rich_scoresheet(rubber: ScoreSheet, t: Translator) -> str:
    """The sheet as a rich message's table (Bot API 10.1): a row per entry, N-S and E-W in
    their columns, above the line newest first, then each game's entries below it, totals."""
    rows = [("", side_text(Side.NS, t), side_text(Side.EW, t))]
    above = [e for e in rubber.entries if e.line is Line.ABOVE]
    for entry in reversed(above):
        rows.append((t("score.rich_above"), *_columns(entry)))
    for entry in (e for e in rubber.entries if e.line is Line.BELOW):
        rows.append((t("score.rich_game", number=entry.game), *_columns(entry)))
    totals = rubber.totals()
    rows.append((t("score.rich_total"), number(totals[Side.NS]), number(totals[Side.EW])))
    return rich_table(rows)
