"""``/stats`` as people read it: per game, each player's opening leads, costly cards as
declarer and in defence, and contracts against par, over all time and the last 30 days."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from bot.callback_data import Act, Button
from bot.i18n import Translator
from bot.rendered import Key, Rendered
from bot.stats import ROBOTS, Line
from bot.views.pictures import FONT, png_of
from bot.views.text import plain_text, user_text
from games.core.review import DealReview, SeatStats

MOST_SHOWN = 12  # players a game's message lists (5 lines each, names up to 64 characters)


def costly_key(table_id: int, deal_no: int, t: Translator) -> Key:
    """Under a deal's result: the first card that cost each side a trick, in a popup."""
    return Key(t("button.costly"), Button(table_id, deal_no, Act.COSTLY).encode())


def costly_popup(
    review: DealReview | None,
    names: Mapping[int, str],
    sides: Sequence[str],
    card_word: Callable[[str], str],
    t: Translator,
) -> str:
    """The first card each side lost a trick with (who, which trick, which card, how many);
    ``sides``: the game's, in the order it names them."""
    if review is None:
        return t("costly.not_yet")
    if review.refused:
        return t("costly.refused")
    if not any(s.declarer_cards or s.defence_cards for s in review.seats.values()):
        return t("costly.nothing")
    lines = []
    for side in sides:
        found = next((c for c in review.costly if c.side == side), None)
        label = t(f"costly.side.{side}")
        if found is None:
            lines.append(t("costly.clean", side=label))
            continue
        name = plain_text(names.get(found.seat, "—"), 16)
        card = card_word(found.card)
        lines.append(
            t("costly.card", side=label, name=name, trick=found.trick, card=card, cost=found.cost)
        )
    return "\n".join(lines)


def share(part: int, whole: int) -> str:
    return "—" if not whole else f"{round(100 * part / whole)} %"


def _par(stats: SeatStats, imps: bool, t: Translator) -> str:
    if not stats.contracts:
        return "—"
    if imps:
        average = f"{stats.par_imps / stats.contracts:+.1f}"
        return t("stats.imps", imps=average.replace(".", "," if t.language == "ru" else "."))
    return share(stats.at_par, stats.contracts)


def _player_lines(line: Line, name: str, imps: bool, t: Translator) -> list[str]:
    a, r = line.all_time, line.recent
    return [
        t("stats.player", name=name, deals=a.deals, recent=r.deals),
        t(
            f"stats.leads.{line.game}",
            all=share(a.good_leads, a.leads),
            recent=share(r.good_leads, r.leads),
        ),
        t(
            f"stats.declarer.{line.game}",
            all=share(a.declarer_costly, a.declarer_cards),
            recent=share(r.declarer_costly, r.declarer_cards),
        ),
        t(
            f"stats.defence.{line.game}",
            all=share(a.defence_costly, a.defence_cards),
            recent=share(r.defence_costly, r.defence_cards),
        ),
        t(f"stats.par.{'imps' if imps else 'share'}",
          all=_par(a, imps, t), recent=_par(r, imps, t)),
    ]  # fmt: skip


def render_stats(
    lines: Sequence[Line],
    names: Mapping[int, str],
    title: str,
    t: Translator,
    in_imps: Collection[str] = (),
) -> list[Rendered]:
    """One message per game (a message holds 4,096 characters), the title on the first; each
    game lists its most active players, robots last."""
    if not lines:
        return [Rendered("\n".join([title, t("stats.none")]))]
    parts: list[list[str]] = []
    game, shown, left = "", 0, 0
    for line in lines:
        if line.game != game:
            if left:
                parts[-1].append(t("stats.more", count=left))
            game, shown, left = line.game, 0, 0
            parts.append([t("stats.game", game=t(f"stats.game.{game}"))])
        if shown >= MOST_SHOWN and line.player_id != ROBOTS:
            left += 1
            continue
        shown += 1
        robots = line.player_id == ROBOTS
        name = t("stats.robots") if robots else user_text(names.get(line.player_id, "—"))
        parts[-1].extend(_player_lines(line, name, line.game in in_imps, t))
    if left:
        parts[-1].append(t("stats.more", count=left))
    parts[0][:0] = [title, t("stats.legend"), ""]
    return [Rendered("\n".join(part)) for part in parts]


def costly_chart(
    weeks: Mapping[int, Sequence[tuple[str, SeatStats]]],
    names: Mapping[int, str],
    title: str,
    y_label: str,
) -> bytes:
    """Each person's share of costly cards (declarer's and defence's together), week by week."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.5))
    axes = figure.subplots()
    for pid, points in sorted(weeks.items(), key=lambda kv: names.get(kv[0], "")):
        xs, ys = [], []
        for monday, stats in points:
            cards = stats.declarer_cards + stats.defence_cards
            if cards:
                xs.append(monday[5:])
                ys.append(100 * (stats.declarer_costly + stats.defence_costly) / cards)
        if xs:
            axes.plot(xs, ys, marker="o", label=names.get(pid, "?"))
    axes.set_title(title, fontname=FONT)
    axes.set_ylabel(y_label, fontname=FONT)
    axes.set_ylim(bottom=0)
    axes.grid(True, alpha=0.3)
    if axes.lines:
        axes.legend(loc="upper left", fontsize="small", prop={"family": FONT})
    figure.tight_layout()
    return png_of(figure)
