"""The heuristic's fused play-out kernel plays exactly the heuristic's roll-out.

Thousands of positions (every rules set of the fast path's own test, reached by a seeded
random number of random moves, foreplay included) are played to the end both ways: move by
move with :class:`RolloutPolicy`'s calls, and by :func:`heuristic_outcome`.  Every move,
the won piles, the survivor, the last capture and actor, and who lay down must agree.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from lald.bots.heuristic import DROPPED, RolloutPolicy, level_params
from lald.bots.kernel import heuristic_outcome
from lald.bots.search import PimcBot
from lald.core.codes import LIE, TABLE_CLAIM, TRAIL
from lald.core.fast import FastState

from ..core.fast.test_fast import IDS, RULESETS, _rules, _start


def _traced(policy: RolloutPolicy, fs: FastState) -> tuple[FastState, list[int]]:
    """``fs`` (a copy) played out with the policy's calls, and every code it played."""
    trace: list[int] = []

    def turn(f: FastState, codes: list[int]) -> int:
        trace.append(policy.turn(f, codes))
        return trace[-1]

    def claim(f: FastState, seat: int, codes: list[int]) -> int | None:
        code = policy.claim(f, seat, codes)
        if code is not None:
            trace.append(code)
        return code

    return fs.copy().playout(turn, claim), trace


def _end(fs: FastState) -> tuple[object, ...]:
    return (fs.won, fs.survivor, fs.last_capture, fs.last_actor, fs.foreplay, fs.lain, fs.last_take,
            fs.values())


@pytest.mark.parametrize("version", ["4", "3"])
@pytest.mark.parametrize("spec", RULESETS, ids=IDS)
def test_kernel_plays_every_move_as_the_policy(
        spec: tuple[str, int, tuple[str, ...], dict[str, Any]], version: str) -> None:
    rules = _rules(spec)
    policy = RolloutPolicy(rules, DROPPED, level_params(rules, version))
    assert policy.kernel and policy.tables is not None
    rng = random.Random(7)
    kinds: Counter[int] = Counter()
    positions = 0
    for seed in range(160):
        fs = FastState.from_state(_start(rules, 30_000 + seed))
        for _ in range(rng.choice((0, 0, rng.randrange(40)))):
            if fs.over:
                break
            fs.random_step(rng, claim_p=0.3)
        if fs.over:
            continue
        positions += 1
        want, trace = _traced(policy, fs)
        before = repr((fs.hc, fs.tc, fs.won, fs.lain, fs.to_move, fs.foreplay))
        got_trace: list[int] = []
        outcome = heuristic_outcome(fs, got_trace, policy.tables)
        assert repr((fs.hc, fs.tc, fs.won, fs.lain, fs.to_move, fs.foreplay)) == before  # unchanged
        assert got_trace == trace
        assert _end(fs.copy().finish_as(outcome)) == _end(want)
        assert _end(policy.play(fs.copy())) == _end(want)
        kinds.update(code & 7 for code in trace)
    assert positions > 120
    # the positions exercise captures of several kinds (version 4 takes a single wherever
    # one is open when the single does not take three), claims, and the no-capture rule
    assert len([k for k in kinds if k < LIE]) >= (2 if version == "3" else 1)
    assert kinds[LIE] + kinds[TRAIL] > 0
    assert sum(n for k, n in kinds.items() if k > TRAIL) > 0 or not rules.hand_sets
    if rules.spotter_claims:
        assert kinds[TABLE_CLAIM] > 0


def test_other_habits_play_out_move_by_move() -> None:
    """A policy with other habits than the level's own does not use the kernel, and its
    play-outs differ from the kernel's somewhere (the habits change moves)."""
    rules = _rules(RULESETS[0])
    other = RolloutPolicy(rules, DROPPED - {"keep_sets"})
    assert not other.kernel
    differ = 0
    for seed in range(60):
        fs = FastState.from_state(_start(rules, 40_000 + seed))
        differ += _end(other.play(fs.copy())) != _end(fs.copy().finish_as(heuristic_outcome(fs)))
    assert differ > 0


def test_pimc_values_are_the_policy_play_outs() -> None:
    rules = _rules(RULESETS[3])
    bot = PimcBot(0, rules, random.Random(1))
    fs = FastState.from_state(_start(rules, 5))
    for code in fs.turn_codes():
        after = fs.copy()
        after.apply(code)
        want, _ = _traced(bot.rollout, after)
        assert bot.rollout.value_after(fs, code, 0) == want.value(0)
