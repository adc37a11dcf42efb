"""Hypothesis strategies shared by the rules tests: deals and random legal deals to the end."""

from __future__ import annotations

from hypothesis import strategies as st

from games.bridge.calls import PASS
from games.bridge.cards import Deal, Seat
from games.bridge.deal import Action, DealState, MakeCall, PlayCard


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    dealer = draw(st.sampled_from(list(Seat)))
    seed = draw(st.randoms(use_true_random=False))
    return Deal.shuffled(dealer, lambda n: seed.randrange(n))


@st.composite
def played_deals(draw: st.DrawFn, finish: bool = True) -> tuple[Deal, list[Action]]:
    """A deal and a legal action list: an auction (rarely passed out) and, if any, all 13 tricks."""
    deal = draw(deals())
    state = DealState.new(deal)
    actions: list[Action] = []
    while state.result is None:
        actor = state.actor
        assert actor is not None
        if state.play is None:
            legal = state.legal_calls(actor)
            call = draw(st.one_of(st.just(PASS), st.sampled_from(legal)))
            action: Action = MakeCall(actor, call)
        else:
            card = draw(st.sampled_from(sorted(state.legal_cards(actor))))
            action = PlayCard(actor, card)
        actions.append(action)
        state = state.apply(action)
        if not finish and draw(st.integers(0, 60)) == 0:
            break
    return deal, actions
