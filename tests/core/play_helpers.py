"""Random legal play through the checked API, for the property tests."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from lald.core import Action, Rules, State
from lald.core.rules import PRESET_NAMES, VARIANT_NAMES

ALL_VARIANT_SETS = [
    list(c) for k in range(len(VARIANT_NAMES) + 1) for c in itertools.combinations(VARIANT_NAMES, k)
]
ALL_CONFIGS = [
    (preset, players, tuple(variants))
    for preset in PRESET_NAMES for players in (3, 4, 5) for variants in ALL_VARIANT_SETS
]


def random_action(state: State, rng: random.Random, claim_prob: float = 0.5) -> Action:
    """A claim with probability ``claim_prob`` when any is open, else a turn action."""
    claims = state.open_claims()
    if claims and rng.random() < claim_prob:
        return rng.choice(claims)
    return rng.choice(state.turn_actions())


def play_random(
    rules: Rules,
    seed: int,
    rng: random.Random,
    claim_prob: float = 0.5,
    stop_after: int | None = None,
    check: Callable[[State], None] | None = None,
    dealer: int = 0,
    pot: int = 0,
) -> State:
    """Deal from ``seed`` and play random legal actions (all of them, or ``stop_after``)."""
    state = State.deal(rules, seed, dealer=dealer, pot=pot)
    if check:
        check(state)
    while not state.over and (stop_after is None or len(state.actions) < stop_after):
        state.apply(random_action(state, rng, claim_prob))
        if check:
            check(state)
    return state
