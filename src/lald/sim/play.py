"""The turn loop: offer open claims, then let the seat to move act.

>>> import random
>>> from lald.bots import RandomBot
>>> from lald.core import Rules, State
>>> rules = Rules.make()
>>> rng = random.Random(3)
>>> bots = [RandomBot(s, rules, rng) for s in range(5)]
>>> state = play_deal(State.deal(rules, seed=3), bots)
>>> state.over, sum(state.result.won)
(True, 52)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..bots import Bot
from ..core import Action, Operation, Rules, Session, State

Listener = Callable[[State, Action, Operation], None]


def step(state: State, bots: Sequence[Bot]) -> tuple[Action, Operation]:
    """One action: the first claim taken when claims are offered clockwise from the left
    of the seat that acted last, else the turn action of the seat to move."""
    for seat in state.claim_order():
        claims = state.claims(seat)
        if claims:
            choice = bots[seat].claim(state.view(seat), claims)
            if choice is not None:
                return choice, state.apply(choice)
    mover = state.to_move
    assert mover is not None
    action = bots[mover].act(state.view(mover), state.turn_actions())
    return action, state.apply(action)


def play_deal(state: State, bots: Sequence[Bot], listener: Listener | None = None) -> State:
    """Play ``state`` to its end; ``listener`` hears every action and its operation."""
    while not state.over:
        action, op = step(state, bots)
        if listener is not None:
            listener(state, action, op)
    return state


def play_session(
    rules: Rules, bots: Sequence[Bot], seed: int, listener: Listener | None = None
) -> Session:
    """A whole session of bots."""
    session = Session(rules, seed)
    while not session.over:
        state = play_deal(session.start_deal(), bots, listener)
        session.end_deal(state)
    return session
