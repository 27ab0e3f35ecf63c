"""Worlds drawn from a view: every one replays the view's public history, keeps the seat's
own hand, and the cards a face-up prial set pins to a hand are where the truth has them."""

from __future__ import annotations

import random

import pytest

from lald.bots.learned import worlds
from lald.core import Rules, State
from lald.core.rules import PRESET_NAMES
from lald.rl.deal import Deal


def _views(preset: str, players: int, deals: int, seed: int) -> list[tuple[State, int]]:
    rules = Rules.make(preset, players)
    rng = random.Random(seed)
    out = []
    for d in range(deals):
        deal = Deal(State.deal(rules, seed * 1000 + d))
        while not deal.over:
            assert deal.seat is not None
            if rng.random() < 0.2:
                out.append((deal.state.clone(), deal.seat))
            deal.step(rng.choice(sorted(deal.legal)))
    return out


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [3, 5])
def test_a_world_replays_the_views_history(preset: str, players: int) -> None:
    rng = random.Random(1)
    for state, seat in _views(preset, players, 12, players):
        view = state.view(seat)
        world, passes = worlds.world_from_view(view, rng)
        seen = world.view(seat)
        assert seen.history == view.history and seen.hand == view.hand and seen.table == view.table
        assert seen.won_seen == view.won_seen and seen.hand_sizes == view.hand_sizes
        assert all(k <= len(state.actions) for k in passes)


def test_pinned_cards_are_in_the_hands_the_truth_has_them() -> None:
    pins = 0
    for state, seat in _views("survivor", 5, 80, 7):
        for other, rank in worlds.pinned(state.view(seat)):
            held = state.hands[other] >> (4 * rank) & 15
            assert bin(held).count("1") == 1, (other, rank)
            pins += 1
    assert pins > 20


def test_pins_make_face_up_sets_draw_first_time() -> None:
    """Before the pins, a world with several face-up prial sets outstanding needed
    hundreds of draws (and once none in 200, which stopped a tournament)."""
    rng = random.Random(3)
    draws = []
    real = worlds.sample

    def counting(*args: object, **kwargs: object) -> object:
        draws[-1] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    worlds.sample = counting  # type: ignore[assignment]
    try:
        for state, seat in _views("survivor", 5, 40, 11):
            if worlds.pinned(state.view(seat)):
                draws.append(0)
                worlds.world_from_view(state.view(seat), rng)
    finally:
        worlds.sample = real
    assert len(draws) > 10 and max(draws) == 1


def test_a_draw_asking_for_cards_that_are_not_there_is_drawn_again() -> None:
    """The sampler's inexact fill can ask for more cards of a rank than are unseen (seen
    once in a tournament, which it stopped): such a draw is rejected and drawn again."""
    state, seat = _views("last-capture", 5, 3, 5)[10]
    view = state.view(seat)
    real = worlds.sample
    calls = []

    def first_impossible(k: object, rng: random.Random) -> object:
        calls.append(1)
        (hands, ranks), exact = real(k, rng)  # type: ignore[arg-type]
        if len(calls) == 1:  # more cards of every rank than there are
            hands = [[4] * 13 if s != seat else h for s, h in enumerate(hands)]
        return (hands, ranks), exact

    worlds.sample = first_impossible  # type: ignore[assignment]
    try:
        world, _ = worlds.world_from_view(view, random.Random(0))
    finally:
        worlds.sample = real
    assert len(calls) >= 2 and world.view(seat).history == view.history
