"""The greedy level: the capture that takes most table cards now, a single before a pair on
a pair, and claims at once (issue 11, "The ladder a player picks from")."""

from __future__ import annotations

import random

from lald.bots.heuristic import GreedyBot
from lald.core import Capture, CaptureKind, Rules, State

from ..core.positions import position


def _choices(state: State, seat: int, tries: int = 40) -> set[CaptureKind | None]:
    """Every capture kind greedy picks over many seeds."""
    legal = state.turn_actions()
    kinds: set[CaptureKind | None] = set()
    for seed in range(tries):
        bot = GreedyBot(seat, state.rules, random.Random(seed))
        action = bot.act(state.view(seat), legal)
        assert action in legal
        kinds.add(action.kind if isinstance(action, Capture) else None)
    return kinds


def test_a_single_comes_before_a_pair_on_a_pair() -> None:
    # Seat 1 holds two 7s against two 7s on the table, and a 9 against two 9s.
    rules = Rules.make("survivor", 5)
    state = position(rules, ["", "7S 7H 9S", "9H", "", ""], "7D 7C 9D 9C", to_move=1)
    kinds = {a.kind for a in state.turn_actions() if isinstance(a, Capture)}
    assert kinds == {CaptureKind.PAIR, CaptureKind.SINGLE}
    assert _choices(state, 1) == {CaptureKind.SINGLE}


def test_a_sweep_comes_first_and_a_prial_on_a_single_after_the_single() -> None:
    rules = Rules.make("survivor", 5)  # single_takes_three: choice, so sweep and single
    state = position(rules, ["", "5S 9S 9H 9D", "", "", ""], "5H 5D 5C 9C", to_move=1)
    kinds = {a.kind for a in state.turn_actions() if isinstance(a, Capture)}
    assert kinds == {CaptureKind.SWEEP, CaptureKind.SINGLE, CaptureKind.PRIAL}
    assert _choices(state, 1) == {CaptureKind.SWEEP}
    state = position(rules, ["", "9S 9H 9D", "", "", ""], "9C", to_move=1)
    kinds = {a.kind for a in state.turn_actions() if isinstance(a, Capture)}
    assert kinds == {CaptureKind.SINGLE, CaptureKind.PRIAL}
    assert _choices(state, 1) == {CaptureKind.SINGLE}


def test_with_no_capture_greedy_lies_down() -> None:
    rules = Rules.make("survivor", 5)
    state = position(rules, ["", "5S", "5H", "", ""], "9C 9D", to_move=1)
    assert _choices(state, 1) == {None}


def test_greedy_claims_at_once_and_the_most_cards() -> None:
    # Before the first turn seat 1 may set aside its dealt mournival of 7s or spot the Kings.
    rules = Rules.make("survivor", 5)
    state = position(rules, ["", "7S 7H 7D 7C 9S", "9H", "", ""], "KS KH", to_move=1, foreplay=True)
    claims = state.open_claims()
    assert sorted(len(c.cards) for c in claims if c.seat == 1) == [2, 4]
    seat = claims[0].seat
    own = [c for c in claims if c.seat == seat]
    bot = GreedyBot(seat, state.rules, random.Random(0))
    choice = bot.claim(state.view(seat), own)
    assert choice is not None and len(choice.cards) == max(len(c.cards) for c in own)

