"""The refusals every game's rules share, as exceptions carrying a reason code.

The bot maps ``error.reason`` to a translated message (``reason.<code>``); it never matches
message text. All of them subclass ``ValueError`` so a caller may catch broadly or narrowly.
``Reason`` holds the codes more than one game gives; a game's own codes are its own enum in
``games/<game>/errors.py`` (any ``StrEnum``: a ``RuleError`` carries either).
"""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Why an action was refused. The values are stable: they are i18n keys and log codes."""

    # notation
    BAD_CARD = "bad_card"
    BAD_CALL = "bad_call"
    BAD_CONTRACT = "bad_contract"
    BAD_SEAT = "bad_seat"
    BAD_DEAL = "bad_deal"
    BAD_TRICKS = "bad_tricks"
    BAD_ENTRY = "bad_entry"
    # turn and phase
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    DEAL_OVER = "deal_over"
    # auction
    AUCTION_OVER = "auction_over"
    INSUFFICIENT_BID = "insufficient_bid"
    # play
    CARD_NOT_HELD = "card_not_held"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    # claims
    CLAIM_PENDING = "claim_pending"
    NO_CLAIM = "no_claim"
    NOT_A_RESPONDER = "not_a_responder"
    # undo
    NOTHING_TO_UNDO = "nothing_to_undo"
    # settlement
    UNBALANCED = "unbalanced"
    SAME_PLAYER_TWICE = "same_player_twice"
    # games found by name
    BAD_GAME = "bad_game"
    # a match's options
    OPTIONS_LOCKED = "options_locked"


class RuleError(ValueError):
    """Base of every refusal by the rules."""

    def __init__(self, message: str, reason: StrEnum) -> None:
        super().__init__(f"{message}: {reason.value}")
        self.message = message
        self.reason = reason

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, StrEnum]]:
        """Pickled as its message and reason: a refusal raised in a worker process (a deal
        under review, a robot's thought) reaches the bot as itself, not as a broken pool.

        >>> import pickle
        >>> error = pickle.loads(pickle.dumps(IllegalPlay("SQ", Reason.NOT_YOUR_TURN)))
        >>> type(error).__name__, error.reason is Reason.NOT_YOUR_TURN, str(error)
        ('IllegalPlay', True, 'SQ: not_your_turn')
        """
        return type(self), (self.message, self.reason)


class NotationError(RuleError):
    """Text that does not name a card, call, contract, seat or side."""


class IllegalCall(RuleError):
    """A well-formed call that the laws do not allow now."""


class IllegalPlay(RuleError):
    """A card that may not be played now, or by this seat."""


class IllegalClaim(RuleError):
    """A claim, concession or answer to one that is not allowed now."""


class OutOfTurn(RuleError):
    """An action by a seat whose turn it is not, or in the wrong phase of the deal."""


class RubberError(RuleError):
    """A score that cannot be recorded in this rubber."""


class PulkaError(RuleError):
    """A Preferans deal's result that cannot be written in this pulka."""


class SettlementError(RuleError):
    """Balances or entries that cannot be settled."""
