"""The determinization sampler draws only worlds consistent with the view, and draws
them uniformly (checked against exact enumeration on small cases)."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter

from lald.bots.knowledge import HiddenSet, Removal, read
from lald.bots.sampler import consistent, sample
from lald.core import Claimed, Rules, State, Trail
from lald.core.codes import counts, presence


def _random_deal_views(rules: Rules, seed: int) -> list[tuple[State, list[tuple[int, int]]]]:
    """Positions of a random deal, each with the trails so far as (seat, table ranks then)."""
    rng = random.Random(seed)
    state = State.deal(rules, seed=seed)
    out = []
    trails: list[tuple[int, int]] = []
    while not state.over:
        claims = state.open_claims()
        table = state.table_mask
        action = rng.choice(claims) if claims and rng.random() < 0.6 else rng.choice(state.turn_actions())
        if isinstance(action, Trail):
            trails.append((action.seat, presence(counts(table))))
        state.apply(action)
        if not state.over:
            out.append((state.clone(), list(trails)))
    return out


def test_sampled_worlds_agree_with_everything_seen() -> None:
    exact = total = 0
    for rules in (Rules.make("last-capture", 5, ["modern-laugh"]),
                  Rules.make("survivor", 3, ["modern-laugh"]), Rules.make("last-capture", 4)):
        for seed in range(12):
            positions = _random_deal_views(rules, seed)
            for state, trails in positions[::3]:
                for seat in range(rules.players):
                    view = state.view(seat)
                    k = read(view)
                    truth = [counts(h) for h in state.hands]
                    truth_sets = [next(c.cards[0].rank for c in state.history
                                       if isinstance(c, Claimed) and c.seat == hs.seat and c.face_down
                                       and state.history.index(c) == hs.index)
                                  for hs in k.hidden_sets]
                    # the true deal is one of the consistent worlds
                    assert consistent(k, truth, truth_sets)
                    rng = random.Random(seed * 7 + seat)
                    for _ in range(5):
                        (hands, set_ranks), was_exact = sample(k, rng)
                        total += 1
                        exact += was_exact
                        assert hands[seat] == truth[seat]
                        assert [sum(h) for h in hands] == [sum(h) for h in truth]
                        for r in range(13):  # every card of every rank accounted for
                            placed = sum(h[r] for h in hands)
                            placed += counts(state.table_mask)[r]
                            placed += sum(c.rank == r for pile in view.won_seen for c in pile)
                            placed += sum(hs.count for hs, q in zip(k.hidden_sets, set_ranks, strict=True)
                                          if q == r)
                            assert placed == 4
                        for who, table_ranks in trails:  # a seat that trailed held none of those
                            if who != seat:
                                assert not presence(hands[who]) & table_ranks
                        if was_exact:
                            assert consistent(k, hands, set_ranks)
    # exact rejection sampling nearly always succeeds; the constrained fill covers the rest
    assert exact / total > 0.85


def _small_case() -> tuple[object, list[int]]:
    """Three players; seat 0 holds a 6.  Unknown to it: three aces, three 2s, a 3 and a 4.
    Seat 1 (three cards) set two cards aside face down (so it held a prial then), and
    later played a 4 face up; seat 2 (three cards) trailed while a 3 was on the table."""
    rules = Rules.make("last-capture", 3, ["modern-laugh"])
    view = State.deal(rules, seed=1).view(0)
    hand = [0] * 13
    hand[5] = 1
    unknown = [3, 3, 1, 1] + [0] * 9
    k = read(view)
    k = dataclasses.replace(
        k, seat=0, hand=hand, table=[0] * 13, unknown=unknown, sizes=[1, 3, 3],
        hidden_sets=[HiddenSet(1, 2, 5)], forbidden=[0, 0, 1 << 2],
        trail_tables=[(2, 3, 1 << 2)], removals=[Removal(1, 3, 1, 7)])
    return k, unknown


def _exact_distribution(k: object, unknown: list[int]) -> dict[tuple[object, ...], float]:
    """Every consistent world, weighted by its number of card-level deals."""
    weights: dict[tuple[object, ...], float] = {}
    ranks = range(4)
    for set_rank in ranks:
        for h1 in itertools.product(range(4), repeat=4):
            for h2 in itertools.product(range(4), repeat=4):
                hands = [list(k.hand), list(h1) + [0] * 9, list(h2) + [0] * 9]  # type: ignore[attr-defined]
                if not consistent(k, hands, [set_rank]):  # type: ignore[arg-type]
                    continue
                w = 1.0
                for r in ranks:
                    s = 2 if r == set_rank else 0
                    w *= math.factorial(unknown[r]) / (math.factorial(s) * math.factorial(h1[r])
                                                       * math.factorial(h2[r]))
                weights[(set_rank, h1, h2)] = w
    total = sum(weights.values())
    return {key: w / total for key, w in weights.items()}


def test_sampler_is_uniform_over_consistent_deals_on_a_small_case() -> None:
    k, unknown = _small_case()
    exact = _exact_distribution(k, unknown)
    # aces or 2s set aside (each with its third kept), the 3 with seat 1, one more card
    assert sorted(exact.values()) == [0.125, 0.125, 0.375, 0.375]
    rng = random.Random(11)
    n = 6000
    seen: Counter[tuple[object, ...]] = Counter()
    for _ in range(n):
        (hands, set_ranks), was_exact = sample(k, rng)  # type: ignore[arg-type]
        assert was_exact
        seen[(set_ranks[0], tuple(hands[1][:4]), tuple(hands[2][:4]))] += 1
    assert set(seen) <= set(exact)
    for key, p in exact.items():
        sd = math.sqrt(p * (1 - p) / n)
        assert abs(seen[key] / n - p) < 4.5 * sd + 1e-9, (key, seen[key] / n, p)


def test_consistency_rules_reject_what_the_view_rules_out() -> None:
    k, _ = _small_case()
    mine = list(k.hand)  # type: ignore[attr-defined]

    def hands(h1: list[int], h2: list[int]) -> list[list[int]]:
        return [mine, h1 + [0] * 9, h2 + [0] * 9]

    assert consistent(k, hands([1, 1, 1, 0], [0, 2, 0, 1]), [0])  # type: ignore[arg-type]
    # two aces set aside, but seat 1 kept no third ace: not from a prial
    assert not consistent(k, hands([0, 1, 1, 1], [1, 2, 0, 0]), [0])  # type: ignore[arg-type]
    # seat 2 trailed with a 3 on the table: it cannot hold the 3
    assert not consistent(k, hands([1, 1, 0, 1], [0, 2, 1, 0]), [0])  # type: ignore[arg-type]
    # sizes must match the view
    assert not consistent(k, hands([1, 1, 1, 1], [0, 2, 0, 0]), [0])  # type: ignore[arg-type]
