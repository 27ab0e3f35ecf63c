"""The compiled world draw (``lald.core._kernel.sample``) and opponent-model test
(``_kernel.plausible``) are the pure ones, draw for draw.

The search bots draw their worlds with :func:`lald.bots.sampler.sample`; with the kernel
loaded its loop of proposals runs in C, reading and advancing the ``random.Random``'s
state as ``choice``, ``random`` and ``shuffle`` would.  On what seats know at many moments
of deals played under every preset, variant, option value and player count (face-down
sets, trails and the ranks they rule out included), the compiled draw and the pure one
(:func:`lald.core.compiled.pure_path`) must give the same world, the same exactness flag
and leave the same ``rng.getstate()``, also when every proposal is rejected and the
constrained fill (in C too) takes over; the expert's opponent-model test must give the same
verdict on every world drawn, and its draw (worlds drawn again until that test holds) the
same world and state.  A kernel that disagrees once fails.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lald.bots import make_bot
from lald.bots.expert import ExpertBot
from lald.bots.kernel import compiled_plausible, compiled_sample
from lald.bots.knowledge import Knowledge, read
from lald.bots.sampler import sample, sample_py
from lald.core import Rules, State
from lald.core.compiled import KERNEL, kernel_status, pure_path
from lald.play.loop import step

from ..core.compiled.test_kernel import BUILT, KERNEL_OPTIONS, VARIANT_SETS, _sweep_rules


@pytest.fixture
def draws() -> Iterator[None]:
    """The compiled draws (skips only where the kernel is not built)."""
    if not BUILT:
        pytest.skip("the compiled kernel (lald.core._kernel) is not built: setup.py build_ext --inplace")
    if os.environ.get("LALD_KERNEL", "").strip().lower() == "python":
        pytest.skip("LALD_KERNEL=python forces the pure path in this run")
    assert KERNEL.playing() is not None, f"not loaded: {kernel_status()}"
    yield


def knowledge(rules: Rules, deals: int, seed: int, per_deal: int) -> Iterator[Knowledge]:
    """What the seats holding cards know at up to ``per_deal`` moments of each of
    ``deals`` deals, played by a mix of random and heuristic bots (random ones make
    claims late, trail and keep sets, which the heuristic never does)."""
    rng = random.Random(seed)
    n = rules.players
    for d in range(deals):
        state = State.deal(rules, seed=seed * 1009 + d, dealer=d % n)
        levels = [rng.choice(("random", "heuristic")) for _ in range(n)]
        bots = [make_bot(levels[s], s, rules, random.Random(seed + 31 * d + s)) for s in range(n)]
        moments = set(rng.sample(range(40), per_deal))
        i = 0
        while not state.over:
            if i in moments:
                for seat in range(n):
                    if state.hands[seat]:
                        yield read(state.view(seat))
            i += 1
            step(state, bots)


def same_draw(k: Knowledge, seed: int, tries: int, counts: dict[str, int]) -> list[list[int]]:
    """Draw with the kernel and on the pure path from equal generators; insist on the
    same world, flag and state after.  Returns the world's hands."""
    a, b = random.Random(seed), random.Random(seed)
    got = sample(k, a, tries)
    with pure_path():
        want = sample(k, b, tries)
    assert got == want, (seed, tries)
    assert a.getstate() == b.getstate(), (seed, tries)
    counts["draws"] += 1
    counts["filled"] += not got[1]
    counts["hidden"] += bool(k.hidden_sets)
    counts["trails"] += any(k.forbidden)
    return got[0][0]


def same_expert_draw(bot: ExpertBot, k: Knowledge, seed: int, pick: random.Random,
                     counts: dict[str, int]) -> None:
    """The expert's draw (worlds drawn until the opponent model holds, up to 24 times),
    compiled and pure, from equal generators, with seats constrained at random."""
    capped = [s for s in k.others if pick.random() < 0.7]
    dead = [s for s in k.others if pick.random() < 0.7]
    bot.model_policy.survivor_hold = pick.random() < 0.5
    tries = pick.choice((1, 3, 24))
    bot.rng = random.Random(seed)
    got = bot.draw_world(k, capped, dead, tries)
    after = bot.rng.getstate()
    bot.rng = random.Random(seed)
    with pure_path():
        want = bot.draw_world(k, capped, dead, tries)
    assert got == want and bot.rng.getstate() == after, (seed, capped, dead, tries)
    counts["expert_draws"] += 1


def same_verdicts(bot: ExpertBot, k: Knowledge, hands: list[list[int]], pick: random.Random,
                  counts: dict[str, int]) -> None:
    """The opponent-model test, compiled and pure, on ``hands`` with seats chosen at random."""
    others = k.others
    for _ in range(3):
        capped = [s for s in others if pick.random() < 0.5]
        dead = [s for s in others if pick.random() < 0.5]
        for keep_whole in (False, True):
            got = compiled_plausible(k, hands, capped, dead, keep_whole)
            bot.model_policy.survivor_hold = keep_whole
            with pure_path():
                want = bot._plausible(k, hands, capped, dead)
            assert got is not None and got == want
            counts["verdicts"] += 1
            counts["implausible"] += not got


@pytest.mark.usefixtures("draws")
def test_the_compiled_world_draw_is_the_pure_one_across_every_rule() -> None:
    counts = dict.fromkeys(("draws", "filled", "hidden", "trails", "verdicts", "implausible",
                            "expert_draws"), 0)
    pick = random.Random(7)
    for i, rules in enumerate(_sweep_rules()):
        for j, k in enumerate(knowledge(rules, 5, 100 + i, 6)):
            if not k.others:
                continue
            bot = ExpertBot(k.seat, rules, random.Random(0))
            hands = same_draw(k, i * 7919 + j, 300, counts)
            if j % 7 == 0:
                same_draw(k, i * 7919 + j + 1, pick.choice((1, 2)), counts)  # often exhausted: the fill
            if j % 3 == 0:
                same_verdicts(bot, k, hands, pick, counts)
            if j % 2 == 0:
                same_expert_draw(bot, k, i * 7919 + j + 2, pick, counts)
    assert counts["draws"] > 8000, counts
    assert counts["filled"] > 100 and counts["hidden"] > 500 and counts["trails"] > 500, counts
    assert counts["verdicts"] > 5000 and 500 < counts["implausible"] < counts["verdicts"] - 500, counts
    assert counts["expert_draws"] > 3500, counts


@pytest.mark.usefixtures("draws")
def test_hidden_sets_under_last_capture_draw_alike_at_every_player_count() -> None:
    # face-down sets are what makes most proposals fail: many of them, at 3, 4 and 5 seats
    counts = dict.fromkeys(("draws", "filled", "hidden", "trails"), 0)
    for n in (3, 4, 5):
        for variants in VARIANT_SETS:
            rules = Rules.make("last-capture", n, variants)
            for j, k in enumerate(knowledge(rules, 20, 40 + n, 6)):
                if k.others and k.hidden_sets:
                    same_draw(k, 31 * j + n, 300, counts)
    assert counts["hidden"] > 1500, counts


@pytest.mark.usefixtures("draws")
@settings(max_examples=30, deadline=None)
@given(st.fixed_dictionaries({name: st.sampled_from(values) for name, values in KERNEL_OPTIONS.items()}),
       st.sampled_from(("survivor", "last-capture")), st.integers(3, 5), st.sampled_from(VARIANT_SETS),
       st.integers(0, 2**32))
def test_option_combinations_draw_alike(options: dict[str, str], preset: str, players: int,
                                        variants: tuple[str, ...], seed: int) -> None:
    rules = Rules.make(preset, players, variants, options)
    counts = dict.fromkeys(("draws", "filled", "hidden", "trails"), 0)
    for j, k in enumerate(knowledge(rules, 2, seed % 10**6, 4)):
        if k.others:
            same_draw(k, seed + j, 300, counts)


@pytest.mark.usefixtures("draws")
def test_what_the_compiled_draw_refuses_it_refuses_before_any_draw() -> None:
    rules = Rules.make("last-capture")
    k = next(k for k in knowledge(rules, 4, 3, 8) if k.others and k.hidden_sets)

    class Sub(random.Random):
        pass

    odd: list[Any] = [Sub(1), random.SystemRandom()]
    replaced = random.Random(1)
    replaced.shuffle = lambda x: None  # type: ignore[method-assign]
    odd.append(replaced)
    for rng in odd:
        before = rng.getstate() if not isinstance(rng, random.SystemRandom) else None
        assert compiled_sample(k, rng, 300) is None
        if before is not None:
            assert rng.getstate() == before
    # the dispatch then plays the pure path, with the same answer as sample_py
    a, b = Sub(5), Sub(5)
    assert sample(k, a) == sample_py(k, b) and a.getstate() == b.getstate()
