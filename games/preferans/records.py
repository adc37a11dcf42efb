"""Preferans hand records (#28): a table's finished deals as a text file that people can read
and tools can parse back to the same deals (``docs/preferans-records.md`` is the format).

PBN's tag pairs, one deal after another, a blank line between::

    [Deal "3"]
    [Date "2026.12.02"]
    [Variant "sochi"]
    [Players "3"]
    [Dealer "3"]
    [Seat1 "Аня"]
    [Hand1 "SA SK SQ SJ S10 S9 S8 S7 CA CK"]
    ...
    [Talon "H8 H7"]
    [Actions "1 bid.6S; 2 bid.P; 3 bid.P; 1 drop.H8.H7; 1 name.6S; 2 whist.whist; ..."]
    [Result "game 6S by 1; tricks 1:10 2:0 3:0; whists 2:whist 3:pass"]

Seats are numbered from 1, as the table names them. ``Actions`` are the deal's actions as they
stand (a taken-back one is left out), each the seat and the game's own action text
(``games.preferans.game.CODEC``): calls, the discard, the contract named, the whist words, open
or closed, the cards, claims and their answers. ``Result`` is written for people; on reading
it is checked against the replay of the actions, so a record that was changed by hand does not
parse as a different deal."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from games.errors import NotationError, Reason
from games.preferans.cards import Card, Deal, sort_hand
from games.preferans.conditions import Conditions
from games.preferans.deal import DealState, Kind, effective_actions
from games.preferans.game import CODEC

TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


@dataclass(frozen=True, slots=True)
class Record:
    """One deal of the records: its number in its pulka, the state it ended in, who sat where
    (seat numbers as the rules count them, from 0), when it was dealt (YYYY.MM.DD or "")."""

    number: int
    state: DealState
    names: Mapping[int, str] = field(default_factory=dict)
    date: str = ""


def one_line(text: str) -> str:
    """``text`` with every line break (those ``str.splitlines`` knows) as a space."""
    return " ".join(text.splitlines())


def _quote(text: str) -> str:
    return one_line(text).replace("\\", "\\\\").replace('"', '\\"')


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in sort_hand(cards))


def result_text(state: DealState) -> str:
    """The deal's end, for people (and checked when read back)."""
    result = state.result
    if result is None:
        return "unfinished"
    tricks = (
        "not played"
        if result.tricks is None
        else "tricks " + " ".join(f"{s + 1}:{n}" for s, n in sorted(result.tricks.items()))
    )
    if result.kind is Kind.RASPASY:
        return f"raspasy; {tricks}"
    assert result.declarer is not None and result.contract is not None
    parts = [f"{result.kind.value} {result.contract} by {result.declarer + 1}", tricks]
    if result.whist:
        words = " ".join(f"{s + 1}:{w}" for s, w in sorted(result.whist.items()))
        parts.append(f"whists {words}")
    if result.claimed:
        parts.append("claimed")
    return "; ".join(parts)


def to_text(records: Iterable[Record], title: str = "") -> str:
    """The records as one text file."""
    blocks = []
    head = "% Preferans hand records; format: docs/preferans-records.md"
    if title:
        head += "\n% " + one_line(title)
    for record in records:
        state, deal = record.state, record.state.deal
        lines = [f'[Deal "{record.number}"]']
        if record.date:
            lines.append(f'[Date "{_quote(record.date)}"]')
        lines += [
            f'[Variant "{state.variant.value}"]',
        ]
        changed = state.conditions.changed(state.variant)
        if changed:  # the group's switches over the preset (§8)
            text = " ".join(f"{key}={value}" for key, value in changed.items())
            lines.append(f'[Conditions "{text}"]')
        if state.floor != 6:  # after raspasy: the exit's lowest level
            lines.append(f'[Floor "{state.floor}"]')
        lines += [
            f'[Players "{deal.players}"]',
            f'[Dealer "{deal.dealer + 1}"]',
        ]
        for seat in deal.active:
            if seat in record.names:
                lines.append(f'[Seat{seat + 1} "{_quote(record.names[seat])}"]')
            lines.append(f'[Hand{seat + 1} "{_cards(deal.hands[seat])}"]')
        lines.append(f'[Talon "{" ".join(str(c) for c in deal.talon)}"]')
        actions = "; ".join(
            f"{a.seat + 1} {CODEC.encode(a)}" for a in effective_actions(state.history)
        )
        lines.append(f'[Actions "{actions}"]')
        lines.append(f'[Result "{result_text(state)}"]')
        blocks.append("\n".join(lines))
    return head + "\n\n" + "\n\n".join(blocks) + "\n"


def from_text(text: str) -> list[Record]:
    """The records of a file ``to_text`` wrote (NotationError: not such a file)."""
    records = []
    for block in re.split(r"\n\s*\n", text):
        tags: dict[str, str] = {}
        for line in block.strip().splitlines():
            line = line.strip()
            if not line or line.startswith("%"):
                continue
            match = TAG.match(line)
            if match is None:
                raise NotationError(line[:40], Reason.BAD_DEAL)
            tags[match[1]] = _unquote(match[2])
        if tags:
            records.append(_record(tags))
    return records


def _record(tags: Mapping[str, str]) -> Record:
    try:
        players, dealer = int(tags["Players"]), int(tags["Dealer"]) - 1
        hands = {
            int(name[4:]) - 1: frozenset(Card.parse(w) for w in value.split())
            for name, value in tags.items()
            if name.startswith("Hand")
        }
        talon = [Card.parse(w) for w in tags["Talon"].split()]
        if len(talon) != 2:
            raise NotationError("Talon", Reason.BAD_DEAL)
        deal = Deal(players, dealer, hands, (talon[0], talon[1]))
        switches = dict(word.split("=", 1) for word in tags.get("Conditions", "").split())
        rules = Conditions.of(tags["Variant"], switches)
        state = DealState.new(deal, tags["Variant"], rules, int(tags.get("Floor", "6")))
        for item in filter(None, (part.strip() for part in tags["Actions"].split(";"))):
            seat, _, action = item.partition(" ")
            state = state.apply(CODEC.decode(int(seat) - 1, action))
        if result_text(state) != tags["Result"]:
            raise NotationError(tags["Result"][:40], Reason.BAD_DEAL)
        names = {
            int(name[4:]) - 1: value
            for name, value in tags.items()
            if name.startswith("Seat") and name[4:].isdecimal()
        }
        return Record(int(tags["Deal"]), state, names, tags.get("Date", ""))
    except (KeyError, ValueError) as error:
        raise NotationError(str(error)[:40], Reason.BAD_DEAL) from error
