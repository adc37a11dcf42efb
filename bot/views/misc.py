"""Help, welcome, settings and short replies."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from bot.callback_data import Act, Button
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, Translator
from bot.plugin import GameUI, Price
from bot.rendered import Choice, Key, Rendered
from bot.screens import Drawing
from bot.tables import Snapshot
from bot.views.amounts import holding, money
from bot.views.offer import Offer
from bot.views.text import user_text
from games.core.registry import find_game
from storage.interface import ChatSettings, PaymentPolicy, Rounding, TableSettings, TableStatus

TIMER_MINUTES = (0, 1, 2, 3, 5, 10)  # the turn timer's choices (0: off)


def render_help(t: Translator, games: Sequence[str]) -> Rendered:
    """/help: every command of every game the bot serves (``games``, the table's own first),
    then what every table has, in the reader's language."""
    return Rendered(
        "\n\n".join([t("help.title"), *(t(f"help.{g}") for g in games), t("help.common")])
    )


def render_welcome(
    t: Translator,
    name: str,
    tables: Sequence[tuple[int, str]],
    balances: Sequence[tuple[str, Mapping[str, int], ChatSettings]],
    offer: Offer,
) -> Rendered:
    """/start in private: who we are, the player's open tables and balance in each group."""
    lines = [t("welcome.hello", name=user_text(name)), t("welcome.about", **offer.words(t))]
    if tables:
        lines.append(t("welcome.tables"))
        lines.extend(f"  #{number} — {user_text(title or '—')}" for number, title in tables)
    else:
        lines.append(t("welcome.no_tables"))
    if balances:
        lines.append(t("welcome.balances"))
        lines.extend(
            f"  {user_text(title or '—')}: {holding(amounts, group, t)}"
            for title, amounts, group in balances
        )
    return Rendered("\n".join(lines))


def render_settings(
    table_id: int,
    settings: TableSettings,
    group: ChatSettings,
    t: Translator,
    ui: GameUI,
    prices: Sequence[Price],
    hands: tuple[bool, bool] = (False, False),
) -> Rendered:
    """/settings: the game's options (its UI words them), the table's language and timer, where
    its players' screens are (``hands``: in the group, the bot a group administrator), and
    the group's money (its prices: the table's game's unit and every unit it has priced),
    each a button that switches it."""
    option_lines, option_rows = ui.options_view(settings.options, t)
    unit = find_game(ui.game).unit
    # The group's rounding is a rule of the games whose price says so (bridge rounds a
    # rubber to hundreds); a Preferans table does not offer it.
    rounds = any(p.unit == unit and p.rounding for p in prices)
    lines = [
        t("settings.title", number=table_id),
        *option_lines,
        t("settings.language", language=LANGUAGE_NAMES[settings.language]),
        t("settings.timer", minutes=settings.turn_timer)
        if settings.turn_timer
        else t("settings.timer_off"),
        _hands_line(hands, t),
        "",
        f"<b>{t('settings.group')}</b>",
        *_price_lines(group, t, unit, prices),
    ]
    timers = tuple(
        Choice(
            t("settings.timer_choice", minutes=m) if m else t("settings.timer_choice_off"),
            f"timer={m}",
            m == settings.turn_timer,
        )
        for m in TIMER_MINUTES
    )

    def key(label: str, value: str) -> Key:
        return Key(label, Button(table_id, 0, Act.SETTING, value).encode())

    money_lines, money_rows = _money_view(group, t, rounds)
    in_group = hands[0]
    where = (
        Choice(t("settings.hands_choice_group"), "hands=group", in_group),
        Choice(t("settings.hands_choice_private"), "hands=private", not in_group),
    )
    rows = (*option_rows, _languages(settings.language), timers, where, *money_rows)
    return Rendered("\n".join([*lines, *money_lines]), choice_keys(rows, key))


def _hands_line(hands: tuple[bool, bool], t: Translator) -> str:
    in_group, admin = hands
    if not in_group:
        return t("settings.hands_private")
    return t("settings.hands_group" if admin else "settings.hands_group_button")


def choice_keys(
    rows: Sequence[tuple[Choice, ...]], key: Callable[[str, str], Key]
) -> tuple[tuple[Key, ...], ...]:
    """One row of buttons per setting, ✓ on the value it has now."""
    return tuple(
        tuple(key(f"✓ {c.label}" if c.chosen else c.label, c.value) for c in row) for row in rows
    )


def _languages(current: str) -> tuple[Choice, ...]:
    """The languages, each named in itself (a reader of the other finds theirs)."""
    return tuple(
        Choice(LANGUAGE_NAMES[code], f"lang={code}", code == current) for code in LANGUAGES
    )


GROUP_SETTINGS = 0  # the table number a group's own settings buttons carry: no table's


def render_group_settings(
    language: str, group: ChatSettings, t: Translator, prices: Sequence[Price], offer: Offer
) -> Rendered:
    """/settings in a group with no table here: the group's own language (a new table opens
    in it) and its money, every unit's price and how to set it; buttons switch them."""
    rounds = any(p.rounding for p in prices)
    lines = [
        f"<b>{t('settings.group_title')}</b>",
        t("settings.group_language", language=LANGUAGE_NAMES[language]),
        "",
        f"<b>{t('settings.group')}</b>",
        *_price_lines(group, t, None, prices),
    ]

    def key(label: str, value: str) -> Key:
        return Key(label, Button(GROUP_SETTINGS, 0, Act.SETTING, value).encode())

    money_lines, money_rows = _money_view(group, t, rounds)
    keys = choice_keys((_languages(language), *money_rows), key)
    return Rendered(
        "\n".join([*lines, *money_lines, "", t("settings.group_hint", **offer.words(t))]), keys
    )


def _money_view(
    group: ChatSettings, t: Translator, rounds: bool
) -> tuple[list[str], list[tuple[Choice, ...]]]:
    """The group's rounding (where a game rounds), who records payments and who sees
    /stats: lines, and a row of choices each."""
    rounding = t("settings.rounding", rounding=t(f"rounding.{group.rounding.value}"))
    lines = [rounding] if rounds else []
    lines.append(t("settings.payments", who=t(f"payments.{group.payments.value}")))
    rows: list[tuple[Choice, ...]] = []
    if rounds:
        rows.append(
            tuple(
                Choice(t(f"rounding.short.{r.value}"), f"round={r.value}", r == group.rounding)
                for r in Rounding
            )
        )
    rows.append(
        tuple(
            Choice(t(f"payments.short.{p.value}"), f"pay={p.value}", p == group.payments)
            for p in PaymentPolicy
        )
    )
    shown = "public" if group.stats_public else "own"
    lines.append(t("settings.stats", who=t(f"stats.shown.{shown}")))
    rows.append(
        tuple(
            Choice(t(f"stats.shown.short.{w}"), f"stats={w}", w == shown) for w in ("public", "own")
        )
    )
    return lines, rows


def _price_lines(
    group: ChatSettings, t: Translator, unit: str | None, prices: Sequence[Price]
) -> list[str]:
    """Each unit's price (money per ``per`` units) and how to set it: the table's game's unit
    first, priced or not, then every other unit the group has priced (``unit`` None: every
    unit, priced or not)."""
    lines = []
    for price in sorted(prices, key=lambda p: p.unit != unit):
        cents = group.price(price.unit)
        if cents:
            shown = money(cents * price.per, 1, group.currency, False, t("number.decimal"))
            line = t(f"settings.price.{price.unit}", price=shown)
            lines.append(line[:1].upper() + line[1:])  # "ставка …" mid-line elsewhere
        elif unit is None or price.unit == unit:
            lines.append(t(f"settings.no_price.{price.unit}"))
        else:
            continue
        lines.append(t(f"settings.price_hint.{price.unit}"))
    return lines


def undo_key(table_id: int, deal_no: int, t: Translator) -> Key:
    """ "Take back" for a deal: on a waiting player's screen, or on play again after their own
    last action (the opponents decide; the service checks it is theirs)."""
    return Key(t("button.undo"), Button(table_id, deal_no, Act.UNDO).encode())


def answer_keys(
    table_id: int, deal_no: int, act: Act, yes: str, no: str
) -> tuple[tuple[Key, ...], ...]:
    """A question's two buttons (``y`` and ``n``), for the deal it was asked in: allow or
    refuse an undo, agree to stop, take a substitute."""
    return (
        (
            Key(yes, Button(table_id, deal_no, act, "y").encode()),
            Key(no, Button(table_id, deal_no, act, "n").encode()),
        ),
    )


def end_vote_message(screens: Drawing, snap: Snapshot, content: Rendered, fresh: bool) -> None:
    """The vote on stopping the match now is one message: a new proposal (``fresh``) is posted
    at the bottom of the chat, and every answer after it edits that message."""
    vote_message(screens, snap, "end", content, fresh)


def undo_vote_message(screens: Drawing, snap: Snapshot, content: Rendered, fresh: bool) -> None:
    """A take-back question is one message: asked (``fresh``) at the bottom of the chat, then
    edited to its outcome, its buttons gone."""
    vote_message(screens, snap, "undo", content, fresh)


def vote_key(what: str, deal_no: int) -> str:
    """The kept message of a table's question (``what``: "undo", "end", "sub", "next")
    opened during its deal ``deal_no``."""
    return f"vote:{what}:{deal_no}"


def vote_message(
    screens: Drawing, snap: Snapshot, what: str, content: Rendered, fresh: bool
) -> None:
    key = vote_key(what, snap.deal_no)
    if fresh:
        screens.forget(snap.table_id, key)
    screens.want(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, content)


def close_end_vote(screens: Drawing, snap: Snapshot, deal_no: int, content: Rendered) -> None:
    """The match was stopped: its stop vote, if this process showed one, says so and loses its
    buttons (it kept "agreed 3/4" and its buttons)."""
    key = vote_key("end", deal_no)
    screens.update(snap.table_id, key, snap.chat.tg_chat_id, snap.topic_id, content)


S = TypeVar("S", bound=int)  # a game's seat (bridge's Seat is an int too)


def seating_keys(
    snap: Snapshot,
    seats: Sequence[S],
    arg: Callable[[S], str],
    name: Callable[[S], str],
    sit: Callable[[S], str],
    t: Translator,
) -> tuple[tuple[Key, ...], ...]:
    """The seating message's buttons, every game's: Sit for each free seat, 🤖 for each once
    somebody sits (any seated player may fill the empty seats with robots), "Sit instead of
    🤖" for each robot's seat, and Leave; while a match is on, only the last but one (a
    person takes a robot's seat from the next deal). ``arg`` is a seat's text in the buttons,
    ``name`` its name, ``sit`` its Sit button's label."""
    table_id = snap.table_id
    replace = tuple(
        Key(
            t("button.replace_robot", seat=name(s)),
            Button(table_id, 0, Act.SIT, arg(s)).encode(),
        )
        for s in seats
        if s in snap.seats and snap.seats[s].robot
    )
    if snap.status is TableStatus.PLAYING:
        return (replace,) if replace else ()
    free = [s for s in seats if s not in snap.seats]
    keys: list[tuple[Key, ...]] = []
    if free:
        keys.append(tuple(Key(sit(s), Button(table_id, 0, Act.SIT, arg(s)).encode()) for s in free))
    if free and snap.seats:
        keys.append(
            tuple(
                Key(
                    t("button.robot", seat=name(s)), Button(table_id, 0, Act.ROBOT, arg(s)).encode()
                )
                for s in free
            )
        )
    if replace:
        keys.append(replace)
    if snap.seats:
        keys.append((Key(t("button.leave"), Button(table_id, 0, Act.LEAVE).encode()),))
    return tuple(keys)


POPUP = 200  # characters Telegram shows in a button's popup


def popup_page(title: str, lines: Sequence[str], page: int, more: str) -> str:
    r"""Lines (newest first) in pages that each fit a popup; ``page`` counts presses, so
    pressing again shows the next page and, after the last, the first again.

    >>> popup_page("T:", ["a" * 90, "b" * 90, "c" * 90], 0, "more")[:10]
    'T: (1/2)\na'
    >>> popup_page("T:", ["a" * 90, "b" * 90, "c" * 90], 1, "more")[:12]
    'T: (2/2)\nccc'
    >>> popup_page("T:", ["x"], 5, "more")
    'T:\nx'
    """
    budget = POPUP - len(title) - len(more) - 10
    pages: list[list[str]] = [[]]
    for line in lines:
        if pages[-1] and len("\n".join([*pages[-1], line])) > budget:
            pages.append([])
        pages[-1].append(line)
    shown = pages[page % len(pages)]
    if len(pages) == 1:
        return "\n".join([title, *shown])
    head = f"{title} ({page % len(pages) + 1}/{len(pages)})"
    return "\n".join([head, *shown, more])
