"""The turn loop: the claim window (:class:`lald.core.ClaimWindow`), then the seat to move acts.

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
from time import perf_counter

from ..bots import Bot
from ..core import Action, Claim, ClaimWindow, Operation, Rules, Session, State

Listener = Callable[[State, Action, Operation], None]
Timer = Callable[[int, str, float], None]
"""Hears each decision a bot made: its seat, ``"act"`` or ``"claim"``, and the seconds
the bot's method took (building the view is not counted)."""


def _show_state(bot: Bot, state: State) -> None:
    """A bot that declares ``needs_state`` (the oracle, a yardstick for measurements that
    sees every hand) is shown the true state with ``see`` before each decision."""
    if getattr(bot, "needs_state", False):
        bot.see(state)  # type: ignore[attr-defined]


def step(state: State, bots: Sequence[Bot], timer: Timer | None = None) -> tuple[Action, Operation]:
    """One action: the first claim taken in the claim window (:class:`lald.core.ClaimWindow`:
    clockwise from the left of the seat that acted last), else the turn action of the seat
    to move. ``timer``, if given, hears how long each bot call took."""
    window = ClaimWindow(state)
    while (ask := window.asking()) is not None:
        seat, claims = ask
        view = state.view(seat)
        _show_state(bots[seat], state)
        start = perf_counter()
        choice: Claim | None = bots[seat].claim(view, claims)
        if timer is not None:
            timer(seat, "claim", perf_counter() - start)
        if choice is not None:
            return choice, state.apply(choice)
        window.let_pass(seat)
    mover, legal = window.turn()
    view = state.view(mover)
    _show_state(bots[mover], state)
    start = perf_counter()
    action = bots[mover].act(view, legal)
    if timer is not None:
        timer(mover, "act", perf_counter() - start)
    return action, state.apply(action)


def play_deal(
    state: State, bots: Sequence[Bot], listener: Listener | None = None, timer: Timer | None = None
) -> State:
    """Play ``state`` to its end; ``listener`` hears every action and its operation,
    ``timer`` every bot decision and its duration."""
    while not state.over:
        action, op = step(state, bots, timer)
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
