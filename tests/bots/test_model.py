"""The expert's reading of the others: who the history shows keeping dead ranks or prials
(so that the opponent model stops assuming they do not), and the exact list of worlds it
searches once few cards are unknown."""

from __future__ import annotations

import random
from collections import Counter
from math import factorial, prod

import pytest

from lald.bots.expert import ExpertBot, enumerate_hands
from lald.bots.knowledge import keepers, read
from lald.bots.sampler import consistent, sample
from lald.core import Rules, State
from lald.core.fast import FastState
from lald.play.loop import step
from lald.play.spec import parse_spec

_TRUE: dict[int, list[list[int]]] = {}


def _views(rules: Rules, lineup: list[str], deals: int, seed: int = 0):  # type: ignore[no-untyped-def]
    """Every seat's view after every action of ``deals`` deals played by ``lineup``
    (:func:`_true_hands` gives the true hands behind the latest)."""
    specs = [parse_spec(s) for s in lineup]
    for d in range(deals):
        state = State.deal(rules, seed=seed + d, dealer=d % rules.players)
        bots = [specs[s].make(s, rules, random.Random(d * 13 + s)) for s in range(rules.players)]
        while not state.over:
            step(state, bots)
            _TRUE[0] = [list(h) for h in FastState.from_state(state).hc] if not state.over else []
            for seat in range(rules.players):
                yield state.view(seat)


def _true_hands(view: object, k: object) -> list[list[int]]:
    return _TRUE[0]


@pytest.mark.parametrize("preset", ["survivor", "last-capture"])
def test_nobody_playing_the_heuristic_is_taken_for_a_keeper(preset: str) -> None:
    rules = Rules.make(preset)
    seen = 0
    for view in _views(rules, ["heuristic"] * 5, 25):
        assert keepers(view) == (frozenset(), frozenset())
        seen += 1
    assert seen > 1000


def test_a_seat_that_keeps_dead_ranks_is_seen_doing_it() -> None:
    # under survivor, +survivor_hold keeps a dead rank in hand while more than two hold cards
    rules = Rules.make("survivor")
    flagged = 0
    lineup = ["heuristic", "heuristic", "heuristic:+survivor_hold", "heuristic", "heuristic"]
    for view in _views(rules, lineup, 40):
        dead, sets = keepers(view)
        assert dead <= {2} and not sets
        if 2 in dead and view.seat != 2:
            flagged += 1
            k = read(view)
            assert k.keeps_dead == {2}
            bot = ExpertBot(view.seat, rules, random.Random(0))
            assert 2 not in bot._constraints(k, acting=True)[1]  # no longer assumed to bank them
    assert flagged > 0


def test_a_seat_that_keeps_its_prials_is_seen_doing_it() -> None:
    rules = Rules.make("last-capture")
    flagged = 0
    lineup = ["heuristic", "heuristic:-set_aside", "heuristic", "heuristic", "heuristic"]
    for view in _views(rules, lineup, 30):
        dead, sets = keepers(view)
        assert sets <= {1} and not dead
        if 1 in sets and view.seat != 1:
            flagged += 1
            k = read(view)
            assert 1 not in ExpertBot(view.seat, rules, random.Random(0))._constraints(k, acting=True)[0]
    assert flagged > 0


def _late_views(rules: Rules, count: int):  # type: ignore[no-untyped-def]
    got = 0
    for view in _views(rules, ["heuristic"] * 5, 200, seed=700):
        if view.to_move == view.seat and not view.over and sum(view.hand_sizes) - len(view.hand) <= 9:
            k = read(view)
            if len(k.others) >= 2 and not k.hidden_sets:
                yield k
                got += 1
                if got == count:
                    return


def test_the_exact_worlds_are_every_card_deal_the_seat_cannot_rule_out() -> None:
    rules = Rules.make("survivor")  # no trails: every share of the cards fitting the sizes
    checked = 0
    for k in _late_views(rules, 25):
        worlds = enumerate_hands(k, 10_000)
        assert worlds is not None
        keys = [tuple(map(tuple, h)) for _, h in worlds]
        assert len(set(keys)) == len(keys)
        for _, hands in worlds:
            assert consistent(k, hands, [])
        # the weights count card deals: all of them, a multinomial of the hand sizes
        assert sum(w for w, _ in worlds) == _deals(k)
        checked += 1
    assert checked == 25


def _deals(k) -> int:  # type: ignore[no-untyped-def]
    """Card deals of the unknown cards to the other hands: a multinomial of the sizes
    (cards of one rank told apart by suit)."""
    unknown = sum(k.unknown)
    return factorial(unknown) // prod(factorial(k.sizes[s]) for s in k.others)


def test_the_exact_worlds_weigh_as_the_uniform_draw_finds_them() -> None:
    rules = Rules.make("survivor")
    for k in _late_views(rules, 4):
        worlds = enumerate_hands(k, 10_000)
        assert worlds is not None and len(worlds) >= 3
        total = sum(w for w, _ in worlds)
        want = {tuple(map(tuple, h)): w / total for w, h in worlds}
        rng = random.Random(3)
        draws = 4000
        got = Counter(tuple(map(tuple, sample(k, rng)[0][0])) for _ in range(draws))
        assert set(got) <= set(want)
        distance = sum(abs(got[key] / draws - p) for key, p in want.items()) / 2
        assert distance < 0.05


def test_too_many_worlds_are_not_listed() -> None:
    rules = Rules.make("survivor")
    state = State.deal(rules, seed=5)
    k = read(state.view(1))
    assert enumerate_hands(k, 48) is None  # 32 unknown cards in four hands
    assert ExpertBot(1, rules, random.Random(0)).every_world(k, [], []) is None


def test_captures_weigh_the_worlds_where_the_heuristic_would_have_made_them() -> None:
    # every seat plays the heuristic level: in the true deal each capture was one of the
    # best-scored then (likelihood 1 with infer=0); some uniform draws are less likely
    rules = Rules.make("survivor")
    checked = lowered = softened = 0
    for view in _views(rules, ["heuristic"] * 5, 12, seed=40):
        if view.over or view.to_move != view.seat or view.foreplay:
            continue
        k = read(view)
        if not k.choices:
            continue
        bot = ExpertBot(view.seat, rules, random.Random(1), infer=0)
        truth = _true_hands(view, k)
        assert bot.log_likelihood(k, truth) == 0.0
        rng = random.Random(2)
        lowered += any(bot.log_likelihood(k, sample(k, rng)[0][0]) < 0 for _ in range(20))
        soft = ExpertBot(view.seat, rules, random.Random(1), infer=1).log_likelihood(k, truth)
        assert soft <= 0.0
        softened += soft < 0.0  # a softmax leaves room for the other captures open then
        checked += 1
    assert checked > 20 and lowered > 0 and softened > 0
