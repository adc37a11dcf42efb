"""The robots' bidding system, written as data: a table of rules, each a situation, a call
pattern, the hand it needs and what it promises.

The same table is read two ways. A robot *chooses* a call: the first rule of its situation
whose hand conditions hold and whose call is legal. Anyone *reads* a call: the union of what the
rules of that situation producing that call promise (points, suit lengths), which is what the
group sees beside a robot's call and what a robot's card play assumes about hidden hands.

The system is small and natural: one-level openings with 12+, 1NT 15–17, 2NT 20–21, 2♣ strong,
weak twos and three-level preempts; simple and limit raises, new suits, 1NT and 2NT responses;
Stayman; Blackwood, and control bids after a limit raise of a major; overcalls, 1NT overcall
and takeout doubles, with advances; then game and slam by combined points. Where no rule fits,
the robot passes (or raises partner in a fit).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from games.bridge.calls import DOUBLE, PASS, Bid, Call, CallKind, Strain
from games.bridge.cards import Card, Rank, Seat, Suit

ANY = (0, 40)


@dataclass(frozen=True, slots=True)
class Rule:
    """One line of the system.

    ``call`` is a level then a strain, or ``P``/``X``. The level is a digit, ``c`` (the cheapest
    legal level) or ``j`` (one above the cheapest: a jump). The strain is a letter (``C D H S``),
    ``NT``, or a variable: ``x`` a new suit (not one the opponents named), ``M`` a major, ``m``
    the better minor, ``p`` partner's suit, ``f`` our fit (longest known combined, majors first),
    ``s`` the suit partner's calls showed longest (a transfer's), ``o`` the opponents' suit,
    ``k`` a control bid (a suit our side has not named, cheapest first, below game in the major
    we opened).
    ``length`` is the length the call's suit needs; ``total`` is the combined points (own plus
    partner's promised minimum).
    """

    when: str
    call: str
    tag: str = "natural"
    hcp: tuple[int, int] = ANY
    length: tuple[int, int] = (0, 13)
    balanced: bool | None = None
    total: tuple[int, int] | None = None
    short: int | None = None  # at most this many cards in the opponents' suit
    major4: bool | None = None  # holds a four-card major
    aces: tuple[int, ...] | None = None  # own aces (Blackwood answers)
    our_aces: tuple[int, int] | None = None  # own plus partner's shown
    contested: bool | None = None  # the last bid was the opponents'
    below_game: bool | None = None  # our side's last bid is below game
    max_level: int = 7  # not above this level (competing stops at the three level)
    # SAYC's hand evaluation: ``pts`` high-card plus length points (a card over four in a
    # suit), for openings and notrump; ``sup`` support points for a raise of ``p``/``f``
    # (shortness counted once a fit is known: void 5, singleton 3, doubleton 1 with four
    # trumps; 3, 2, 1 with three).
    pts: tuple[int, int] | None = None
    sup: tuple[int, int] | None = None
    shows: str = ""  # the suits ``length`` is about when they are not the bid's (a transfer)
    fit: int | None = None  # at least this many cards in partner's suit
    over: tuple[str, ...] = ()  # only when the auction's last bid (anyone's) is one of these
    stopper: bool | None = None  # holds a stopper in the opponents' suits
    twenty: bool | None = None  # the rule of 20: points plus the two longest suits' lengths
    unbid3: bool | None = None  # three or more in every suit the opponents have not bid
    opened: tuple[str, ...] = ()  # only when our side opened one of these
    feature: bool | None = None  # the bid suit holds its ace or king (a weak two's feature)
    solid: bool | None = None  # the longest suit is headed by the ace, king and queen
    longest: int | None = None  # no suit longer than this
    control: bool | None = None  # the bid suit holds its ace or is void (first-round control)


def _r(when: str, call: str, tag: str = "natural", **kw: object) -> Rule:
    return Rule(when, call, tag, **kw)  # type: ignore[arg-type]


SUITS1 = ("1C", "1D", "1H", "1S")  # one of a suit: a double of it is for takeout
SUITS2 = ("2C", "2D", "2H", "2S")

# Order matters: the first rule that fits the hand and is legal is the robot's call. The
# situations and calls are the Standard American Yellow Card's (SAYC).
SYSTEM: tuple[Rule, ...] = (
    # --- openings ---------------------------------------------------------------------------
    _r("open", "2C", "strong", pts=(22, 40)),
    _r("open", "2NT", hcp=(20, 21), balanced=True),
    _r("open", "1NT", hcp=(15, 17), balanced=True),
    _r("open", "1M", hcp=(10, 21), length=(5, 13), twenty=True),
    _r("open", "1m", hcp=(10, 21), length=(3, 13), twenty=True),
    _r("open", "2D", "weak", hcp=(5, 11), length=(6, 6)),
    _r("open", "2H", "weak", hcp=(5, 11), length=(6, 6)),
    _r("open", "2S", "weak", hcp=(5, 11), length=(6, 6)),
    _r("open", "3x", "preempt", hcp=(5, 10), length=(7, 13)),
    _r("open", "P", hcp=(0, 12)),
    # --- responses to one of a major --------------------------------------------------------
    _r("respond:1M", "2NT", "jacoby", hcp=(13, 40), fit=4),
    _r("respond:1M", "4p", "preempt", hcp=(0, 9), length=(5, 13)),
    _r("respond:1M", "3p", "invite", sup=(10, 12), length=(4, 13)),
    _r("respond:1M", "1x", "forcing", hcp=(6, 40), length=(4, 13)),
    _r("respond:1M", "2x", "forcing", hcp=(10, 40), length=(5, 13), over=("1S",)),
    _r("respond:1M", "2x", "forcing", hcp=(10, 40), length=(4, 13)),
    _r("respond:1M", "2p", sup=(6, 11), length=(3, 13)),
    _r("respond:1M", "3NT", hcp=(15, 17), balanced=True),
    _r("respond:1M", "1NT", hcp=(6, 12)),
    _r("respond:1M", "P", hcp=(0, 5)),
    # --- responses to one of a minor --------------------------------------------------------
    _r("respond:1m", "1x", "forcing", hcp=(6, 40), length=(4, 13)),
    _r("respond:1m", "2NT", "forcing", hcp=(13, 15), balanced=True),
    _r("respond:1m", "3NT", hcp=(16, 18), balanced=True),
    _r("respond:1m", "3p", "invite", hcp=(10, 12), length=(5, 13)),
    _r("respond:1m", "2x", "forcing", hcp=(10, 40), length=(5, 13)),
    _r("respond:1m", "2p", hcp=(6, 10), length=(5, 13)),
    _r("respond:1m", "1NT", hcp=(6, 10)),
    _r("respond:1m", "P", hcp=(0, 5)),
    # --- responses to 1NT and 2NT -----------------------------------------------------------
    _r("respond:1NT", "4C", "gerber", hcp=(17, 40), balanced=False),
    _r("respond:1NT", "2C", "stayman", hcp=(8, 40), major4=True, shows="HS", length=(0, 4)),
    _r("respond:1NT", "2H", "transfer", shows="S", length=(5, 13), hcp=(0, 40)),
    _r("respond:1NT", "2D", "transfer", shows="H", length=(5, 13), hcp=(0, 40)),
    _r("respond:1NT", "2C", "stayman", hcp=(8, 40), major4=True),
    _r("respond:1NT", "2S", "relay", hcp=(0, 7), shows="C", length=(6, 13)),
    _r("respond:1NT", "2S", "relay", hcp=(0, 7), shows="D", length=(6, 13)),
    _r("respond:1NT", "3NT", "to_play", hcp=(10, 15)),
    _r("respond:1NT", "4NT", "quantitative", hcp=(16, 17), balanced=True),
    _r("respond:1NT", "6NT", hcp=(18, 19)),
    _r("respond:1NT", "7NT", hcp=(21, 40)),
    _r("respond:1NT", "2NT", "invite", hcp=(8, 9)),
    _r("respond:1NT", "P", hcp=(0, 7)),
    _r("respond:2NT", "4C", "gerber", hcp=(12, 40), balanced=False),
    _r("respond:2NT", "3C", "stayman", hcp=(4, 40), major4=True, shows="HS", length=(0, 4)),
    _r("respond:2NT", "3H", "transfer", shows="S", length=(5, 13), hcp=(0, 40)),
    _r("respond:2NT", "3D", "transfer", shows="H", length=(5, 13), hcp=(0, 40)),
    _r("respond:2NT", "3C", "stayman", hcp=(4, 40), major4=True),
    _r("respond:2NT", "6NT", hcp=(12, 14)),
    _r("respond:2NT", "3NT", "to_play", hcp=(4, 11)),
    _r("respond:2NT", "P", hcp=(0, 3)),
    _r("stayman", "cH", "stayman_answer", length=(4, 13)),
    _r("stayman", "cS", "stayman_answer", length=(4, 13)),
    _r("stayman", "cD", "no_major", shows="HS", length=(0, 3)),
    _r("transfer", "3s", "super_accept", hcp=(17, 17), fit=4, max_level=3),
    _r("transfer", "cs", "completion", hcp=(0, 40)),
    _r("relay", "3C", "completion"),
    _r("after_relay", "3D", "to_play", length=(6, 13)),
    _r("after_relay", "P", "to_play", shows="C", length=(6, 13)),
    # responder after the transfer is completed: 6+ of the major raises it, 5 shows NT
    _r("after_transfer", "P", "to_play", hcp=(0, 7), below_game=True),
    _r("after_transfer", "4p", "to_play", hcp=(10, 15), length=(6, 13), fit=6),
    _r("after_transfer", "3p", "invite", hcp=(8, 9), length=(6, 13), fit=6),
    _r("after_transfer", "3x", "forcing", hcp=(10, 15), length=(4, 13)),
    _r("after_transfer", "3NT", "choice", hcp=(10, 15)),
    _r("after_transfer", "2NT", "invite", hcp=(8, 9)),
    _r("after_transfer", "P", "to_play", hcp=(0, 40)),
    # opener after responder's second call
    _r("transfer_continued", "4s", "game", hcp=(16, 40), fit=3, over=("2NT", "3H", "3S")),
    _r("transfer_continued", "4s", "game", fit=3, over=("3NT",)),
    _r("transfer_continued", "3NT", "game", hcp=(16, 40), over=("2NT",)),
    _r("transfer_continued", "3s", "to_play", fit=3, over=("2NT",)),
    _r("transfer_continued", "P", hcp=(0, 40)),
    _r("after_stayman", "4p", "game", hcp=(10, 15), length=(4, 13), over=("2H", "2S", "3H", "3S")),
    _r("after_stayman", "3p", "invite", hcp=(8, 9), length=(4, 13), over=("2H", "2S")),
    _r("after_stayman", "3NT", "to_play", hcp=(10, 15)),
    _r("after_stayman", "2NT", "invite", hcp=(8, 9)),
    _r("after_stayman", "P", hcp=(0, 40)),
    _r("stayman_continued", "4p", "game", hcp=(16, 40), over=("3H", "3S")),
    _r("stayman_continued", "3NT", "game", hcp=(16, 40), over=("2NT",)),
    _r("stayman_continued", "P", hcp=(0, 40)),
    _r("quantitative", "6NT", "slam", hcp=(17, 40)),
    _r("quantitative", "P", hcp=(0, 40)),
    # Gerber: 4♦ none or four, 4♥ one, 4♠ two, 4NT three
    _r("gerber", "4D", "aces", aces=(0, 4)),
    _r("gerber", "4H", "aces", aces=(1,)),
    _r("gerber", "4S", "aces", aces=(2,)),
    _r("gerber", "4NT", "aces", aces=(3,)),
    _r("gerber_asked", "7NT", "grand", our_aces=(4, 4), total=(37, 40)),
    _r("gerber_asked", "6NT", "slam", our_aces=(3, 4), total=(33, 40)),
    _r("gerber_asked", "4NT", "signoff", hcp=(0, 40)),
    _r("gerber_asked", "P", "signoff", hcp=(0, 40)),
    # --- strong 2C and weak twos ------------------------------------------------------------
    _r("respond:2C", "2M", "positive", hcp=(8, 40), length=(5, 13)),
    _r("respond:2C", "3m", "positive", hcp=(8, 40), length=(5, 13)),
    _r("respond:2C", "2NT", "positive", hcp=(8, 40), balanced=True),
    _r("respond:2C", "2D", "waiting"),
    _r("second:2C", "3C", "second_negative", hcp=(0, 3)),
    _r("second:2C", "3p", length=(3, 13)),
    _r("second:2C", "2NT", "natural"),
    _r("second:2C", "cx", "natural", length=(5, 13)),
    _r("second:2C", "3NT", "natural"),
    _r("respond:weak", "4p", "game", hcp=(14, 40), length=(3, 13)),
    _r("respond:weak", "2NT", "ask", hcp=(15, 40)),
    _r("respond:weak", "3p", "preempt", hcp=(0, 14), length=(3, 13)),
    _r("respond:weak", "3NT", "to_play", hcp=(16, 40), balanced=True),
    _r("respond:weak", "P", hcp=(0, 40)),
    _r("weak_asked", "3a", "minimum", hcp=(0, 8)),
    _r("weak_asked", "3NT", "solid", hcp=(9, 11), solid=True),
    _r("weak_asked", "cx", "feature", hcp=(9, 11), feature=True, max_level=3),
    _r("weak_asked", "3a", "maximum", hcp=(9, 11)),
    # --- opener's rebid, opponents silent ---------------------------------------------------
    _r("rebid:strong", "cNT", hcp=(22, 24), balanced=True),
    _r("rebid:strong", "cx", "forcing", length=(5, 13)),
    _r("rebid:strong", "cNT", hcp=(22, 40)),
    _r("rebid:jacoby", "3x", "shortness", hcp=(0, 40), length=(0, 1)),
    _r("rebid:jacoby", "3a", "extras", hcp=(18, 40)),
    _r("rebid:jacoby", "3NT", "extras", hcp=(15, 17)),
    _r("rebid:jacoby", "4a", "minimum", hcp=(0, 14)),
    # after a limit raise of a major (10-12): game with more than a minimum; with slam interest
    # a control bid (the cheapest ace or void outside trumps; 22 points open 2♣)
    _r("rebid:limit", "ck", "control", pts=(18, 21), control=True),
    _r("rebid:limit", "4p", "game", pts=(14, 40)),
    _r("rebid:limit", "P", hcp=(0, 40)),
    # responder answers a control bid: a control of its own with more than a minimum, else
    # back to the trump suit; opener then asks for aces or signs off
    _r("control_answer", "ck", "control", hcp=(10, 40), control=True),
    _r("control_answer", "4a", "signoff"),
    *(  # after partner's control (a suit below game in the major), not after the sign-off
        _r("control_continued", "4NT", "blackwood", pts=(19, 40), over=below, opened=(major,))
        for major, below in (("1H", ("3S", "4C", "4D")), ("1S", ("4C", "4D", "4H")))
    ),
    _r("control_continued", "4f", "signoff", length=(8, 13)),
    _r("control_continued", "P", hcp=(0, 40)),
    _r("rebid:raised", "4p", "game", pts=(19, 40), length=(5, 13)),
    _r("rebid:raised", "3NT", "game", pts=(19, 40), balanced=True),
    _r("rebid:raised", "3p", "invite", pts=(16, 18)),
    _r("rebid:raised", "P", hcp=(0, 40)),
    _r("rebid:new", "4p", "game", pts=(19, 21), length=(4, 13)),
    _r("rebid:new", "3p", "invite", pts=(16, 18), length=(4, 13)),
    _r("rebid:new", "cp", pts=(12, 15), length=(4, 13)),
    _r("rebid:new", "1x", hcp=(12, 18), length=(4, 13)),
    _r("rebid:new", "cNT", hcp=(12, 14), balanced=True),
    _r("rebid:new", "2NT", hcp=(18, 19), balanced=True),
    _r("rebid:new", "ja", "invite", hcp=(16, 18), length=(6, 13)),
    _r("rebid:new", "ca", "rebid", length=(6, 13)),
    _r("rebid:new", "cx", hcp=(12, 18), length=(4, 13)),
    _r("rebid:new", "3NT", hcp=(19, 21)),
    _r("rebid:new", "ca", "rebid", length=(5, 13)),
    _r("rebid:new", "cNT", hcp=(12, 40)),
    _r("rebid:1NT", "3NT", "game", hcp=(19, 21)),
    _r("rebid:1NT", "2NT", "invite", hcp=(17, 18)),
    _r("rebid:1NT", "ca", "rebid", length=(6, 13)),
    _r("rebid:1NT", "cx", hcp=(12, 16), length=(4, 13), balanced=False),
    _r("rebid:1NT", "P", hcp=(0, 40)),
    # --- competition ------------------------------------------------------------------------
    _r("overcall", "2o", "michaels", hcp=(8, 40), shows="HS", length=(5, 13), over=("1C", "1D")),
    _r("overcall", "2o", "michaels", hcp=(8, 40), shows="S", length=(5, 13), over=("1H",)),
    _r("overcall", "2o", "michaels", hcp=(8, 40), shows="H", length=(5, 13), over=("1S",)),
    _r("overcall", "2NT", "unusual", hcp=(6, 40), shows="CD", length=(5, 13), over=("1H", "1S")),
    _r("overcall", "2NT", "unusual", hcp=(6, 40), shows="DH", length=(5, 13), over=("1C",)),
    _r("overcall", "2NT", "unusual", hcp=(6, 40), shows="CH", length=(5, 13), over=("1D",)),
    _r("overcall", "X", "penalty", hcp=(15, 40), over=("1NT",)),
    _r("overcall", "1NT", "overcall", hcp=(15, 18), balanced=True, stopper=True),
    _r("overcall", "jx", "weak_overcall", hcp=(6, 10), length=(6, 13)),
    _r("overcall", "1x", "overcall", hcp=(8, 16), length=(5, 13)),
    _r(
        "overcall",
        "X",
        "takeout",
        hcp=(12, 40),
        short=2,
        unbid3=True,
        longest=5,
        over=SUITS1 + SUITS2,
    ),
    _r("overcall", "2x", "overcall", hcp=(11, 16), length=(5, 13)),
    _r("overcall", "X", "takeout", hcp=(17, 40), over=SUITS1 + SUITS2),
    _r("overcall", "P", hcp=(0, 40)),
    _r("advance:double", "2o", "cue_bid", hcp=(12, 40)),
    _r("advance:double", "jM", "invite", hcp=(9, 11), length=(4, 13)),
    _r("advance:double", "3NT", "to_play", hcp=(13, 40), stopper=True),
    _r("advance:double", "2NT", "invite", hcp=(11, 12), stopper=True),
    _r("advance:double", "cM", "forced", hcp=(0, 8), length=(4, 13)),
    _r("advance:double", "1NT", "natural", hcp=(7, 10), stopper=True),
    _r("advance:double", "jx", "invite", hcp=(9, 11), length=(5, 13)),
    _r("advance:double", "cx", "forced", length=(4, 13)),
    _r("advance:double", "cx", "forced", length=(3, 13)),
    _r("advance:double", "cx", "forced", length=(2, 13)),
    _r("advance:two_suits", "cb", "preference", hcp=(0, 40)),
    _r("advance:suit", "2o", "cue_bid", hcp=(10, 40), fit=3),
    _r("advance:suit", "4p", "game", hcp=(13, 40), length=(3, 13)),
    _r("advance:suit", "cp", hcp=(7, 12), length=(3, 13)),
    _r("advance:suit", "cx", hcp=(10, 40), length=(5, 13)),
    _r("advance:suit", "P", hcp=(0, 40)),
    # responder after an overcall of partner's opening: negative doubles through 2♠
    _r("respond:contested", "1x", "forcing", hcp=(6, 40), length=(5, 13)),
    _r("respond:contested", "cx", "forcing", hcp=(10, 40), length=(5, 13), max_level=2),
    _r("respond:contested", "2o", "cue_raise", hcp=(10, 40), fit=3, opened=("1H", "1S")),
    _r("respond:contested", "2o", "cue_raise", hcp=(10, 40), fit=5, opened=("1C", "1D")),
    _r("respond:contested", "3p", "preempt", hcp=(0, 9), length=(4, 13), opened=("1H", "1S")),
    _r(
        "respond:contested",
        "X",
        "negative",
        hcp=(6, 40),
        major4=True,
        over=("1C", "1D", "1H", "1S"),
    ),
    _r(
        "respond:contested",
        "X",
        "negative",
        hcp=(8, 40),
        major4=True,
        over=("2C", "2D", "2H", "2S"),
    ),
    _r("respond:contested", "2p", sup=(6, 11), length=(3, 13), opened=("1H", "1S")),
    _r("respond:contested", "2p", hcp=(6, 10), length=(5, 13), opened=("1C", "1D")),
    _r("respond:contested", "1NT", hcp=(8, 10), stopper=True),
    _r("respond:contested", "2NT", "invite", hcp=(11, 12), stopper=True),
    _r("respond:contested", "3NT", hcp=(13, 15), stopper=True),
    _r("respond:contested", "P", hcp=(0, 40)),
    _r("rebid:negative", "cM", "natural", length=(4, 13)),
    _r("rebid:negative", "cNT", hcp=(12, 14), stopper=True),
    _r("rebid:negative", "ca", "rebid", length=(6, 13)),
    _r("rebid:negative", "cx", "natural", length=(4, 13)),
    _r("rebid:negative", "ca", "rebid", length=(5, 13)),
    _r("rebid:negative", "cNT", hcp=(12, 40)),
    # --- slam: Blackwood --------------------------------------------------------------------
    _r("blackwood", "5C", "aces", aces=(0, 4)),
    _r("blackwood", "5D", "aces", aces=(1,)),
    _r("blackwood", "5H", "aces", aces=(2,)),
    _r("blackwood", "5S", "aces", aces=(3,)),
    _r("asked", "7f", "grand", our_aces=(4, 4), total=(37, 40)),
    _r("asked", "6f", "slam", our_aces=(3, 4)),
    _r("asked", "cf", "signoff", our_aces=(0, 2)),
    _r("asked", "P", "signoff", hcp=(0, 40)),
    # --- everything later: game and slam by combined points ---------------------------------
    _r("later", "4NT", "blackwood", total=(33, 40), length=(8, 13)),
    _r("later", "4f", "game", total=(25, 40), length=(8, 13), below_game=True),
    _r("later", "3NT", "game", total=(25, 40), below_game=True),
    _r("later", "5f", "game", total=(29, 40), length=(8, 13), below_game=True),
    _r("later", "X", "penalty", hcp=(12, 40), total=(23, 40), contested=True),
    _r("later", "cf", "compete", total=(18, 40), length=(8, 13), contested=True, max_level=2),
    _r("later", "cf", "invite", total=(23, 24), length=(8, 13), below_game=True, max_level=3),
    _r("later", "2NT", "invite", total=(23, 24), below_game=True),
    _r("later", "P", hcp=(0, 40)),
)

# Calls a rule names outright (``2C`` after 1NT is Stayman): a rule with a variable suit in
# the same situation never makes them, so their meaning is the named rule's alone.
NAMED: dict[str, frozenset[str]] = {}
for _rule in SYSTEM:
    if _rule.call[0].isdigit() and _rule.call[1:] in ("C", "D", "H", "S"):
        NAMED[_rule.when] = NAMED.get(_rule.when, frozenset()) | {_rule.call}

GAME_LEVEL = {Strain.CLUBS: 5, Strain.DIAMONDS: 5, Strain.HEARTS: 4, Strain.SPADES: 4}


@dataclass(frozen=True, slots=True)
class Meaning:
    """What a call promises about the hand that made it (ranges are inclusive)."""

    tag: str
    hcp: tuple[int, int] = ANY
    lengths: Mapping[Suit, int] = field(default_factory=dict)  # suit -> at least
    balanced: bool = False
    aces: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class HandInfo:
    hcp: int
    lengths: Mapping[Suit, int]
    balanced: bool
    aces: int
    stopped: frozenset[Suit] = frozenset()  # suits with A, Kx, Qxx or Jxxx
    tops: Mapping[Suit, frozenset[int]] = field(default_factory=dict)  # A, K, Q held by suit

    @classmethod
    def of(cls, cards: Iterable[Card]) -> HandInfo:
        held = list(cards)
        lengths = {suit: sum(1 for c in held if c.suit is suit) for suit in Suit}
        shape = sorted(lengths.values())
        stopped = frozenset(
            suit
            for suit in Suit
            if any(
                c.suit is suit and lengths[suit] >= 15 - c.rank for c in held if c.rank >= Rank.JACK
            )
        )
        return cls(
            hcp=hcp(held),
            lengths=lengths,
            balanced=shape[0] >= 2 and shape[1] >= 3,  # 4333, 4432, 5332
            aces=sum(1 for c in held if c.rank is Rank.ACE),
            stopped=stopped,
            tops={
                suit: frozenset(c.rank for c in held if c.suit is suit and c.rank >= Rank.QUEEN)
                for suit in Suit
            },
        )

    @property
    def points(self) -> int:
        """SAYC's opening count: high-card points plus a point a card over four in a suit."""
        return self.hcp + sum(max(0, n - 4) for n in self.lengths.values())

    def support(self, trump: Suit) -> int:
        """Support points for a raise of ``trump``: shortness counts once the fit is known."""
        count = self.lengths[trump]
        table = (5, 3, 1) if count >= 4 else (3, 2, 1)
        short = sum(table[n] for suit, n in self.lengths.items() if suit is not trump and n < 3)
        return self.hcp + short


def hcp(cards: Iterable[Card]) -> int:
    """Milton Work points: A 4, K 3, Q 2, J 1."""
    return sum(max(0, c.rank - 10) for c in cards)


@dataclass(frozen=True, slots=True)
class Context:
    """The auction as one seat sees it when it is to call."""

    seat: Seat
    situation: str
    partner_suit: Suit | None  # partner's last named suit
    opponents: frozenset[Suit]  # suits the opponents bid
    ours: frozenset[Suit]  # suits our side bid
    partner: Meaning  # what partner's calls promise together
    contested: bool
    our_last: Bid | None
    last: Bid | None = None  # the auction's last bid, anyone's
    opp_suit: Suit | None = None  # the suit of the opponents' last suit bid
    own_suit: Suit | None = None  # the suit of this seat's last suit bid
    opening: str = ""  # our side's opening bid, if we opened

    @property
    def shown_suit(self) -> Suit | None:
        """The suit partner showed longest (a transfer's, an opening's), else partner's last."""
        if self.partner.lengths:
            return max(self.partner.lengths, key=lambda s: (self.partner.lengths[s], s))
        return self.partner_suit


def read_auction(dealer: Seat, calls: Sequence[Call]) -> list[Meaning | None]:
    """What each call of the auction promised, by the system (None: a call it does not know)."""
    meanings: list[Meaning | None] = []
    for i, call in enumerate(calls):
        seat = dealer.after(i)
        context = _context(dealer, calls[:i], seat, meanings)
        meanings.append(_meaning(context, call, calls[:i]))
    return meanings


def choose_call(
    dealer: Seat, calls: Sequence[Call], hand: Iterable[Card], legal: Sequence[Call]
) -> tuple[Call, Meaning]:
    """The robot's call with ``hand``: the first rule that fits and is legal, else a pass."""
    return Turn(dealer, calls, legal).choose(HandInfo.of(hand))


class Turn:
    """One moment of an auction, read once: the call the system makes there with any hand.
    (The robot asks it of many sampled hands: would this player have bid as they did?)"""

    def __init__(self, dealer: Seat, calls: Sequence[Call], legal: Sequence[Call]) -> None:
        self.calls = tuple(calls)
        self.legal = frozenset(legal)
        meanings = read_auction(dealer, calls)
        self.context = _context(dealer, calls, dealer.after(len(calls)), meanings)
        self.rules = _rules_for(self.context)

    def choose(self, info: HandInfo) -> tuple[Call, Meaning]:
        """The call with a hand (read once by the caller, who may ask several turns)."""
        for rule in self.rules:
            for call in _candidates(rule, self.context, self.calls, info):
                if call in self.legal and _fits(rule, info, self.context, call):
                    return call, _rule_meaning(rule, call, self.context)
        return PASS, Meaning("no_rule")


def _context(
    dealer: Seat, calls: Sequence[Call], seat: Seat, meanings: Sequence[Meaning | None]
) -> Context:
    bids = [(dealer.after(i), c.bid) for i, c in enumerate(calls) if c.bid is not None]
    partner = seat.partner
    own = [(i, c) for i, c in enumerate(calls) if dealer.after(i) is seat]
    partner_calls = [(i, c) for i, c in enumerate(calls) if dealer.after(i) is partner]
    opponents = frozenset(
        b.strain.suit for s, b in bids if s.side is not seat.side and b.strain.suit is not None
    )
    ours = frozenset(
        b.strain.suit for s, b in bids if s.side is seat.side and b.strain.suit is not None
    )
    partner_suit = None
    for s, b in reversed(bids):
        if s is partner and b.strain.suit is not None:
            partner_suit = b.strain.suit
            break
    shown = _combine(meanings[i] for i, _ in partner_calls)
    contested = bool(bids) and bids[-1][0].side is not seat.side
    our_last = next((b for s, b in reversed(bids) if s.side is seat.side), None)
    situation = _situation(seat, calls, dealer, bids, own, partner_calls)
    opp_suit = next(
        (b.strain.suit for s, b in reversed(bids) if s.side is not seat.side and b.strain.suit),
        None,
    )
    last = bids[-1][1] if bids else None
    own_suit = next((b.strain.suit for s, b in reversed(bids) if s is seat and b.strain.suit), None)
    opening = str(bids[0][1]) if bids and bids[0][0].side is seat.side else ""
    return Context(
        seat,
        situation,
        partner_suit,
        opponents,
        ours,
        shown,
        contested,
        our_last,
        last,
        opp_suit,
        own_suit,
        opening,
    )


def _situation(
    seat: Seat,
    calls: Sequence[Call],
    dealer: Seat,
    bids: list[tuple[Seat, Bid]],
    own: list[tuple[int, Call]],
    partner_calls: list[tuple[int, Call]],
) -> str:
    if not bids:
        return "open"
    partner = seat.partner
    first_seat, first = bids[0]
    last_seat, last = bids[-1]
    own_bids = [c for _, c in own if c.kind is not CallKind.PASS]
    partner_acts = [c for _, c in partner_calls if c.kind is not CallKind.PASS]
    our_side_only = all(s.side is seat.side for s, _ in bids) and not any(
        dealer.after(i).side is not seat.side and c.kind is not CallKind.PASS
        for i, c in enumerate(calls)
    )
    texts = [str(c.bid) for c in own_bids]
    answers = [str(c.bid) if c.bid is not None else str(c) for c in partner_acts]
    if (
        last_seat is partner
        and str(last) == "4NT"
        and len(bids) > 1
        and not (own_bids and str(own_bids[-1]) in ("1NT", "2NT") and len(own_bids) == 1)
    ):
        return "blackwood"
    if own_bids and str(own_bids[-1]) == "4NT" and last_seat is partner and last.level == 5:
        return "asked"
    if our_side_only and first_seat is partner and not own_bids:
        return _response(first, partner_acts)
    if our_side_only and first_seat is seat:
        return _opener(texts, answers)
    if our_side_only and first_seat is partner and len(partner_acts) >= 2:
        return _responder(answers, texts)
    opponents_opened = first_seat.side is not seat.side
    our_bids = [b for s, b in bids if s.side is seat.side]
    overcalls = [b for s, b in bids if s.side is not seat.side]
    opened_suit = first.level == 1 and first.strain is not Strain.NOTRUMP
    if (
        not opponents_opened
        and first_seat is partner
        and not own_bids
        and len(partner_acts) == 1
        and opened_suit
        and len(overcalls) == 1
        and last_seat.side is not seat.side
        and last.level <= 2
    ):
        return "respond:contested"
    if (
        not opponents_opened
        and first_seat is seat
        and len(own_bids) == 1
        and len(partner_acts) == 1
        and partner_acts[0].kind is CallKind.DOUBLE
    ):
        return "rebid:negative"
    if opponents_opened and not our_bids and not partner_acts:
        return "overcall" if last.level <= 2 and len(bids) <= 2 else "later"
    if opponents_opened and not own_bids and len(partner_acts) == 1:
        only = partner_acts[0]
        if only.kind is CallKind.DOUBLE:
            return "advance:double"
        if only.bid is not None:
            if str(only.bid) == "2NT" or (only.bid.level == 2 and only.bid.strain is first.strain):
                return "advance:two_suits"  # the unusual 2NT, Michaels
            return "advance:suit"
    return "later"


def _response(opening: Bid, partner_acts: Sequence[Call]) -> str:
    """Responder's first call, the opponents silent."""
    if len(partner_acts) != 1:
        return "later"
    text = str(opening)
    if text in ("1NT", "2NT", "2C"):
        return f"respond:{text}"
    if opening.level == 2:
        return "respond:weak"
    if opening.level == 1:
        return "respond:1M" if opening.strain.is_major else "respond:1m"
    return "later"


def _opener(own: Sequence[str], answers: Sequence[str]) -> str:
    """Opener's later calls, the opponents silent (``own``: opener's bids, ``answers``:
    responder's calls)."""
    if not own or len(answers) != len(own):
        return "later"
    opening, answer = own[0], answers[0]
    if len(own) == 1:
        if opening in ("1NT", "2NT"):
            nt = {"1NT": 2, "2NT": 3}[opening]
            if answer == f"{nt}C":
                return "stayman"
            if answer in (f"{nt}D", f"{nt}H"):
                return "transfer"
            if answer == "2S" and opening == "1NT":
                return "relay"
            if answer == "4C":
                return "gerber"
            if answer == "4NT":
                return "quantitative"
            return "later"
        if opening == "2C" and answer == "2D":
            return "rebid:strong"
        if opening[0] == "2" and opening != "2C" and answer == "2NT":
            return "weak_asked"
        if opening[0] == "1" and opening != "1NT":
            if answer == "2NT" and opening[1] in "HS":
                return "rebid:jacoby"
            if answer == f"3{opening[1]}" and opening[1] in "HS":
                return "rebid:limit"
            if answer[1:] == opening[1:]:
                return "rebid:raised"
            if answer == "1NT":
                return "rebid:1NT"
            if answer[1:] != "NT":
                return "rebid:new"
        return "later"
    if len(own) == 2 and answer == f"3{opening[1:]}" and _is_control(own[1], opening):
        return "control_continued"
    if len(own) == 2 and opening in ("1NT", "2NT"):
        if answer in ("2D", "2H", "3D", "3H") and answer[0] == str(int(opening[0]) + 1):
            return "transfer_continued"
        if answer in ("2C", "3C") and answer[0] == str(int(opening[0]) + 1):
            return "stayman_continued"
    return "later"


def _responder(answers: Sequence[str], own: Sequence[str]) -> str:
    """Responder's second call after a 1NT or 2NT conventional start (``answers``: opener's
    calls, ``own``: responder's)."""
    if len(own) != 1 or len(answers) != 2:
        return "later"
    opening, mine = answers[0], own[0]
    if opening == "2C" and mine == "2D":
        return "second:2C"
    if mine == f"3{opening[1:]}" and _is_control(answers[1], opening):
        return "control_answer"
    if opening not in ("1NT", "2NT"):
        return "later"
    step = str(int(opening[0]) + 1)
    if mine in (f"{step}D", f"{step}H"):
        return "after_transfer"
    if mine == f"{step}C":
        return "after_stayman"
    if mine == "2S" and opening == "1NT":
        return "after_relay"
    if mine == "4C":
        return "gerber_asked"
    return "later"


def _is_control(text: str, opening: str) -> bool:
    """Whether ``text``, after ``opening`` (one of a major) was raised to three, is a control
    bid: a new suit below game in the major."""
    if opening not in ("1H", "1S") or text[1:] not in ("C", "D", "H", "S"):
        return False
    return text[1:] != opening[1] and Bid.parse(text).rank < Bid.parse(f"4{opening[1]}").rank


def _candidates(rule: Rule, context: Context, calls: Sequence[Call], info: HandInfo) -> list[Call]:
    text = rule.call
    if text == "P":
        return [PASS]
    if text == "X":
        return [DOUBLE]
    level_text, strain_text = text[0], text[1:]
    strains: list[Strain] = []
    if strain_text in ("C", "D", "H", "S", "NT"):
        strains = [Strain.parse(strain_text)]
    elif strain_text == "p":
        if context.partner_suit is not None:
            strains = [Strain(int(context.partner_suit))]
    elif strain_text == "f":
        fit = _fit(context, info, rule.length[0])
        strains = [] if fit is None else [Strain(int(fit))]
    elif strain_text == "s":
        shown = context.shown_suit
        strains = [] if shown is None else [Strain(int(shown))]
    elif strain_text == "o":
        strains = [] if context.opp_suit is None else [Strain(int(context.opp_suit))]
    elif strain_text == "a":
        strains = [] if context.own_suit is None else [Strain(int(context.own_suit))]
    elif strain_text == "k":  # a control bid: any suit our side has not named
        if context.opening not in ("1H", "1S"):
            return []
        strains = [Strain(int(s)) for s in Suit if s not in context.ours | context.opponents]
    elif strain_text == "b":  # of partner's shown suits, the one this hand likes best
        liked = sorted(context.partner.lengths, key=lambda s: (-info.lengths[s], s))
        strains = [Strain(int(s)) for s in liked[:1]]
    else:
        suits = [s for s in Suit if s not in context.opponents and s is not context.partner_suit]
        if strain_text in ("x", "M"):  # a new suit: none our side has bid
            suits = [s for s in suits if s not in context.ours]
        if strain_text == "M":
            suits = [s for s in suits if s in (Suit.HEARTS, Suit.SPADES)]
        elif strain_text == "m":
            # the longer minor; 3-3 clubs, 4-4 diamonds (for reading a call: either)
            full = all(n == 13 for n in info.lengths.values())
            suits = [Suit.CLUBS, Suit.DIAMONDS] if full else [_better_minor(info)]
        # longest first; of equal length, five-card suits from the top, four-card suits up
        # the line (SAYC)
        suits.sort(key=lambda s: (-info.lengths[s], -s if info.lengths[s] >= 5 else s))
        strains = [Strain(int(s)) for s in suits]
    found = []
    last = _last_bid(calls)
    for strain in strains:
        cheapest = 1
        while cheapest <= 7 and last is not None and Bid(cheapest, strain).rank <= last.rank:
            cheapest += 1
        if level_text == "c":
            level = cheapest
        elif level_text == "j":
            level = cheapest + 1
        else:
            level = int(level_text)
        if not 1 <= level <= 7:
            continue
        bid = Bid(level, strain)
        if strain_text in ("x", "M", "m") and str(bid) in NAMED.get(rule.when, ()):
            continue
        found.append(Call(CallKind.BID, bid))
    if strain_text == "k":  # the cheapest first, below game in the major
        game = Bid.parse(f"4{context.opening[1]}").rank
        return sorted((c for c in found if c.bid and c.bid.rank < game), key=_call_rank)
    return found


def _call_rank(call: Call) -> int:
    return call.bid.rank if call.bid is not None else 0


def _rules_for(context: Context) -> list[Rule]:
    """The rules of the context's situation that the auction itself allows (the last bid,
    our opening): the hand decides among these, for a choice and a reading alike."""
    last = None if context.last is None else str(context.last)
    return [
        rule
        for rule in SYSTEM
        if rule.when == context.situation
        and (not rule.over or last in rule.over)
        and (not rule.opened or context.opening in rule.opened)
    ]


def _fits(rule: Rule, info: HandInfo, context: Context, call: Call) -> bool:
    lo, hi = rule.hcp
    if not lo <= info.hcp <= hi:
        return False
    if rule.longest is not None and max(info.lengths.values()) > rule.longest:
        return False
    if rule.unbid3 is not None:
        unbid = [s for s in Suit if s not in context.opponents]
        if all(info.lengths[s] >= 3 for s in unbid) is not rule.unbid3:
            return False
    if rule.solid is not None:
        longest = max(Suit, key=lambda s: (info.lengths[s], s))
        if (len(info.tops.get(longest, ())) == 3) is not rule.solid:
            return False
    if rule.feature is not None:
        suit = call.bid.strain.suit if call.bid is not None else None
        has = suit is not None and any(r >= Rank.KING for r in info.tops.get(suit, ()))
        if has is not rule.feature:
            return False
    if rule.control is not None:
        suit = call.bid.strain.suit if call.bid is not None else None
        held = suit is not None and (info.lengths[suit] == 0 or Rank.ACE in info.tops.get(suit, ()))
        if held is not rule.control:
            return False
    if rule.pts is not None and not rule.pts[0] <= info.points <= rule.pts[1]:
        return False
    if rule.twenty is not None:
        two = sorted(info.lengths.values())[-2:]
        if (info.hcp + sum(two) >= 20 or info.points >= 13) is not rule.twenty:
            return False
    if rule.sup is not None:
        trump = context.partner_suit
        if trump is None or not rule.sup[0] <= info.support(trump) <= rule.sup[1]:
            return False
    if rule.fit is not None:
        target = call.bid.strain.suit if call.bid is not None else None
        suit = target if target is not None and rule.call[1:] in ("p", "s") else None
        suit = suit or context.shown_suit
        if suit is None or info.lengths[suit] < rule.fit:
            return False
    if rule.stopper is not None and context.opponents:
        held = all(s in info.stopped for s in context.opponents)
        if held is not rule.stopper:
            return False
    for letter in rule.shows:
        length = info.lengths[Suit(int(Strain.parse(letter)))]
        if not rule.length[0] <= length <= rule.length[1]:
            return False
    if rule.balanced is not None and info.balanced is not rule.balanced:
        return False
    if rule.major4 is not None:  # a four-card major no one else has bid
        free = [m for m in (Suit.HEARTS, Suit.SPADES) if m not in context.opponents]
        has = any(info.lengths[m] >= 4 for m in free if m is not context.partner_suit)
        if has is not rule.major4:
            return False
    combined = info.hcp + context.partner.hcp[0]
    if rule.total is not None and not rule.total[0] <= combined <= rule.total[1]:
        return False
    if rule.aces is not None and info.aces not in rule.aces:
        return False
    if rule.our_aces is not None:
        total_aces = info.aces + _partner_aces(context.partner.aces, info.aces)
        if not rule.our_aces[0] <= total_aces <= rule.our_aces[1]:
            return False
    if rule.contested is not None and context.contested is not rule.contested:
        return False
    if rule.below_game is not None:
        below = context.our_last is None or not _is_game(context.our_last)
        if below is not rule.below_game:
            return False
    if (
        rule.short is not None
        and context.opponents
        and min(info.lengths[s] for s in context.opponents) > rule.short
    ):
        return False
    bid = call.bid
    if bid is not None and bid.level > rule.max_level:
        return False
    if bid is not None and bid.strain.suit is not None and rule.call[1:] != "f" and not rule.shows:
        length = info.lengths[bid.strain.suit]
        if not rule.length[0] <= length <= rule.length[1]:
            return False
    return True


def _partner_aces(shown: tuple[int, ...] | None, own: int) -> int:
    """Partner's aces from their Blackwood answer: 5C is none or all four, as own aces tell."""
    if not shown:
        return 0
    if len(shown) > 1:
        return 4 if own == 0 else 0
    return shown[0]


def _fit(context: Context, info: HandInfo, need: int) -> Suit | None:
    """Our side's best suit: own length plus partner's promised length, at least ``need``
    (8 for a fit); majors before minors, longer first."""
    best: tuple[int, int, Suit] | None = None
    for suit in Suit:
        combined = info.lengths[suit] + context.partner.lengths.get(suit, 0)
        if context.partner.balanced:
            combined = max(combined, info.lengths[suit] + 2)
        if combined < max(need, 1) or suit in context.opponents:
            continue
        if need < 8 and suit not in context.ours:
            continue  # rebidding: our own suit
        key = (int(suit in (Suit.HEARTS, Suit.SPADES)), combined, suit)
        if best is None or key > best:
            best = key
    return None if best is None else best[2]


def _better_minor(info: HandInfo) -> Suit:
    clubs, diamonds = info.lengths[Suit.CLUBS], info.lengths[Suit.DIAMONDS]
    if diamonds > clubs or (diamonds == clubs and diamonds >= 4):
        return Suit.DIAMONDS
    return Suit.CLUBS


def _is_game(bid: Bid) -> bool:
    if bid.strain is Strain.NOTRUMP:
        return bid.level >= 3
    return bid.level >= GAME_LEVEL[bid.strain]


def _last_bid(calls: Sequence[Call]) -> Bid | None:
    for call in reversed(calls):
        if call.bid is not None:
            return call.bid
    return None


def _rule_meaning(rule: Rule, call: Call, context: Context) -> Meaning:
    lengths: dict[Suit, int] = {}
    bid = call.bid
    if rule.shows:
        for letter in rule.shows:
            if rule.length[0] > 0:
                lengths[Suit(int(Strain.parse(letter)))] = rule.length[0]
    elif bid is not None and bid.strain.suit is not None and rule.length[0] > 0:
        need = rule.length[0]
        if rule.call[1:] == "f":  # a fit: what partner holds counts, as ``_fit`` counts it
            partner = context.partner.lengths.get(bid.strain.suit, 0)
            if context.partner.balanced:
                partner = max(partner, 2)
            need = max(0, need - partner)
        if need > 0:
            lengths[bid.strain.suit] = need
    hcp_range = rule.hcp
    if rule.sup is not None:  # support points: about the high-card points of a raise
        hcp_range = (max(hcp_range[0], rule.sup[0] - 2), min(hcp_range[1], rule.sup[1]))
    if rule.pts is not None:
        hcp_range = (max(hcp_range[0], rule.pts[0] - 2), min(hcp_range[1], rule.pts[1]))
    if rule.total is not None:
        hcp_range = (
            max(hcp_range[0], rule.total[0] - context.partner.hcp[0]),
            hcp_range[1],
        )
    return Meaning(rule.tag, hcp_range, lengths, bool(rule.balanced), rule.aces)


def _meaning(context: Context, call: Call, before: Sequence[Call]) -> Meaning | None:
    """The union of what every rule of the situation that can produce ``call`` promises."""
    found: list[Meaning] = []
    for rule in _rules_for(context):
        # Which calls could this rule make, for any hand? Try every suit for a variable.
        for candidate in _all_candidates(rule, context, before):
            if candidate == call:
                found.append(_rule_meaning(rule, call, context))
    if not found:
        return None
    return _union(found)


def _all_candidates(rule: Rule, context: Context, before: Sequence[Call]) -> list[Call]:
    full = HandInfo(20, dict.fromkeys(Suit, 13), True, 4)
    if rule.call[1:] != "f":
        return _candidates(rule, context, before, full)
    calls: list[Call] = []  # the fit is whichever suit our side bid
    for suit in context.ours:
        probe = Rule(rule.when, rule.call[0] + Strain(int(suit)).code)
        calls += _candidates(probe, context, before, full)
    return calls


def _union(meanings: Sequence[Meaning]) -> Meaning:
    lo = min(m.hcp[0] for m in meanings)
    hi = max(m.hcp[1] for m in meanings)
    suits = set.intersection(*(set(m.lengths) for m in meanings))
    lengths = {s: min(m.lengths[s] for m in meanings) for s in suits}
    aces: tuple[int, ...] | None = None
    if all(m.aces is not None for m in meanings):
        aces = tuple(sorted({a for m in meanings for a in (m.aces or ())}))
    tags = [m.tag for m in meanings]
    tag = tags[0] if len(set(tags)) == 1 else "natural"
    return Meaning(tag, (lo, hi), lengths, all(m.balanced for m in meanings), aces)


def _combine(meanings: Iterable[Meaning | None]) -> Meaning:
    """Everything a player's calls promised together: the tightest range, the longest suits."""
    lo, hi, lengths, balanced, aces = 0, 40, dict[Suit, int](), False, None
    for meaning in meanings:
        if meaning is None:
            continue
        lo, hi = max(lo, meaning.hcp[0]), min(hi, meaning.hcp[1])
        for suit, n in meaning.lengths.items():
            lengths[suit] = max(lengths.get(suit, 0), n)
        balanced = balanced or meaning.balanced
        if meaning.aces is not None:
            aces = meaning.aces
    if lo > hi:
        lo, hi = min(lo, hi), max(lo, hi)
    return Meaning("combined", (lo, hi), lengths, balanced, aces)


def promises(dealer: Seat, calls: Sequence[Call], passes: bool = True) -> dict[Seat, Meaning]:
    """Each seat's promises over the whole auction so far (for sampling hidden hands). A pass
    is also what the system makes when no rule fits a hand (a strong hand it has no bid for),
    so with ``passes`` False a pass promises nothing: what must hold for every hand that made
    the calls, as a sampler's quick filter needs."""
    meanings = read_auction(dealer, calls)
    by_seat: dict[Seat, list[Meaning | None]] = {seat: [] for seat in Seat}
    for i, meaning in enumerate(meanings):
        if passes or calls[i] != PASS:
            by_seat[dealer.after(i)].append(meaning)
    return {seat: _combine(found) for seat, found in by_seat.items()}
