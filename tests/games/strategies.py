"""Hypothesis strategies shared by the rules tests: deals and random legal deals to the end.

One seeded ``Random`` drives each whole deal: a deal is hundreds of choices, and drawing each one
from hypothesis separately makes examples too large to generate or shrink well.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from games.bridge.calls import PASS
from games.bridge.cards import Deal, Seat
from games.bridge.deal import (
    Action,
    AnswerClaim,
    DealState,
    MakeCall,
    MakeClaim,
    PlayCard,
    Undo,
)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    dealer = draw(st.sampled_from(list(Seat)))
    rng = random.Random(draw(st.integers(0, 2**64)))
    return Deal.shuffled(dealer, rng.randrange)


def random_actions(
    deal: Deal, rng: random.Random, finish: bool = True, extras: bool = True
) -> list[Action]:
    """A legal action list to the end (or a random stop): calls, cards, and with ``extras`` now
    and then an undo, or a claim answered either way."""
    state = DealState.new(deal)
    actions: list[Action] = []
    while state.result is None:
        action: Action
        if state.claim is not None:
            waiting = sorted(state.claim.responders - state.claim.accepted)
            action = AnswerClaim(waiting[0], rng.random() < 0.5)
        else:
            actor = state.actor
            assert actor is not None
            roll = rng.randrange(40) if extras else 99
            last = actions[-1] if actions else None
            if roll == 0 and isinstance(last, MakeCall | PlayCard):
                action = Undo(last.seat)
            elif roll == 1 and state.play is not None:
                claimant = rng.choice([s for s in Seat if s is not state.play.dummy])
                action = MakeClaim(claimant, rng.randint(0, state.play.tricks_left))
            elif state.play is None:
                legal = state.legal_calls(actor)
                call = PASS if rng.random() < 0.6 else rng.choice(legal)
                action = MakeCall(actor, call)
            else:
                action = PlayCard(actor, rng.choice(sorted(state.legal_cards(actor))))
        actions.append(action)
        state = state.apply(action)
        if not finish and rng.randrange(60) == 0:
            break
    return actions


@st.composite
def played_deals(
    draw: st.DrawFn, finish: bool = True, extras: bool = True
) -> tuple[Deal, list[Action]]:
    deal = draw(deals())
    rng = random.Random(draw(st.integers(0, 2**64)))
    return deal, random_actions(deal, rng, finish, extras)
