"""The compiled heuristic play-out (``lald.core._kernel.scored_outcome``) is the pure one.

On well over 100,000 positions (deals' starts and random points part-way through, as
``tests/core/compiled/test_kernel.py`` makes them) under every preset, variant, option value and
player count, a seeded sweep and Hypothesis's option combinations, the compiled kernel and
:func:`~lald.core.fast.playout.scored_outcome_py` must give the same outcome and the same trace
with the heuristic's tables (the level's scores, version 3's, and tables mixing the two by
seat) and its claim chooser; a kernel that disagrees once fails.  It draws no random
numbers, so that is all "the same" asks.  Then: what it leaves to the pure path (another
chooser, tables it does not know) the pure path plays; rows replaced after a play are read
afresh; and the search bots (pimc, expert) decide the same with the kernel as with the
pure path at equal worlds and seed, on a few hundred decisions.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lald.bots.heuristic import level_params
from lald.bots.kernel import HEURISTIC, HeuristicTables, _claim, heuristic_outcome, tables
from lald.core import Rules, State
from lald.core.compiled import KERNEL, kernel_status, pure_path
from lald.core.fast import FastState
from lald.core.fast.playout import first_claim, scored_outcome, scored_outcome_py
from lald.core.fast.tables import tables_for

from ..core.compiled.test_kernel import (
    BUILT,
    KERNEL_OPTIONS,
    OTHER_OPTIONS,
    VARIANT_SETS,
    _sweep_rules,
    positions,
)

ScoredFunction = Callable[..., Any]
"""The compiled heuristic play-out, ``_kernel.scored_outcome``."""

needs_kernel = pytest.mark.skipif(not BUILT, reason="the compiled kernel (lald.core._kernel) is not built: "
                                  "python setup.py build_ext --inplace")


@pytest.fixture
def scored() -> Iterator[ScoredFunction]:
    """The compiled heuristic play-out (skips only where it is not built)."""
    if not BUILT:
        pytest.skip("the compiled kernel (lald.core._kernel) is not built: setup.py build_ext --inplace")
    if os.environ.get("LALD_KERNEL", "").strip().lower() == "python":
        pytest.skip("LALD_KERNEL=python forces the pure path in this run")
    kernel = KERNEL.playing()
    assert kernel is not None, f"the kernel is built but not loaded: {kernel_status()}"
    yield kernel.scored_outcome


def policies(rules: Rules) -> list[HeuristicTables]:
    """The level's tables, version 3's, and each mixed with the other's for some seats."""
    level, v3 = tables(rules, level_params(rules)), tables(rules, HEURISTIC)
    return [level, v3, level.mixed(v3, [0]), v3.mixed(level, range(1, rules.players, 2))]


def same_play_outs(kernel: ScoredFunction, rules: Rules, deals: int, per_deal: int, seed: int) -> int:
    """Play every position both ways and insist on the same answer; returns how many."""
    checked = 0
    options = policies(rules)
    for d in range(deals):
        s = seed * 100_003 + d
        pick = random.Random(~s)
        for fs in positions(rules, s, per_deal):
            h = options[pick.randrange(len(options))]
            traced = pick.random() < 0.8
            want_trace: list[int] | None = [] if traced else None
            got_trace: list[int] | None = [] if traced else None
            want = scored_outcome_py(fs, h.best, h.others, _claim, want_trace)
            got = kernel(fs, h.best, h.others, _claim, got_trace)
            where = (rules.spec(), s, options.index(h))
            assert got is not None, where
            assert got == want, where
            assert got_trace == want_trace, where
            checked += 1
    return checked


@needs_kernel
def test_the_compiled_heuristic_play_out_is_the_pure_one_on_a_seeded_sweep(scored: ScoredFunction) -> None:
    sweep = _sweep_rules()
    checked = sum(same_play_outs(scored, rules, 190, 6, 7 + i) for i, rules in enumerate(sweep))
    assert checked >= 100_000, checked


@needs_kernel
@given(
    preset=st.sampled_from(("survivor", "last-capture")),
    players=st.sampled_from((3, 4, 5)),
    variants=st.sampled_from(VARIANT_SETS),
    options=st.fixed_dictionaries({}, optional={
        name: st.sampled_from(values) for name, values in {**KERNEL_OPTIONS, **OTHER_OPTIONS}.items()}),
    seed=st.integers(0, 2**31),
)
def test_the_compiled_heuristic_play_out_is_the_pure_one_on_any_options(
        preset: str, players: int, variants: tuple[str, ...], options: dict[str, str], seed: int) -> None:
    kernel = KERNEL.playing()
    if kernel is None:  # the fixture cannot serve @given; the same checks as it
        pytest.skip(f"the compiled kernel is not loaded: {kernel_status()}")
    found = kernel.scored_outcome
    rules = Rules.make(preset, players, variants, options)
    assert same_play_outs(found, rules, 25, 6, seed) > 25


@needs_kernel
def test_the_dispatch_plays_the_kernel_for_the_heuristic(scored: ScoredFunction) -> None:
    assert _claim is first_claim
    rules = Rules.make("last-capture", 4, ("modern-laugh",))
    h = tables(rules, level_params(rules))
    fs = FastState.from_state(State.deal(rules, seed=3))
    got: list[int] = []
    assert scored(fs, h.best, h.others, _claim, got) == heuristic_outcome(fs, None, h)
    assert got and got == (lambda t: (heuristic_outcome(fs, t, h), t)[1])([])


def _other_chooser(options: Any, mover: int, order: tuple[int, ...]) -> Any:
    return options[-1] if options else None


@needs_kernel
def test_what_the_kernel_leaves_the_pure_path_plays(scored: ScoredFunction) -> None:
    rules = Rules.make("survivor", 5, ("modern-laugh",), {"spotter_claims": "on"})
    h = tables(rules, level_params(rules))
    k = tables_for(rules)
    odd_best = tuple(h.best)  # not a list of rows
    int_score = [[None if e is None else (int(e[0] * 4), e[1]) for e in row] for row in h.best]
    float_keys = [[float(v) for v in row] for row in h.others]
    wrapped = lambda *a: first_claim(*a)  # noqa: E731 - another chooser, the same choices
    for seed in range(30):
        fs = FastState.from_state(State.deal(rules, seed=seed))
        for best, keys, chooser in ((h.best, h.others, _other_chooser), (h.best, h.others, wrapped),
                                    (odd_best, h.others, _claim), (int_score, h.others, _claim),
                                    (h.best, float_keys, _claim) if not k.lie_down else
                                    (h.best, [row[:3] for row in h.others], _claim)):
            assert scored(fs, best, keys, chooser, None) is None  # refused before any move
            got: list[int] = []
            want: list[int] = []
            assert scored_outcome(fs, best, keys, chooser, got) == scored_outcome_py(
                fs, best, keys, chooser, want)
            assert got == want


@needs_kernel
def test_rows_replaced_after_a_play_are_read_afresh(scored: ScoredFunction) -> None:
    rules = Rules.make()
    level, v3 = tables(rules, level_params(rules)), tables(rules, HEURISTIC)
    best = list(level.best)
    differ = 0
    for seed in range(40):
        fs = FastState.from_state(State.deal(rules, seed=seed))
        best[:] = level.best
        a = scored(fs, best, level.others, _claim, None)
        best[2] = v3.best[2]
        b = scored(fs, best, level.others, _claim, None)
        assert a == scored_outcome_py(fs, level.best, level.others, _claim, None)
        assert b == scored_outcome_py(fs, best, level.others, _claim, None)
        differ += a != b
    assert differ > 0


@pytest.fixture
def pure_switch() -> Iterator[Any]:
    """A function that runs a callable with the dispatch switched to the pure path (as
    ``LALD_KERNEL=python`` would, in this process)."""
    KERNEL.playing()

    def run(call: Any, *args: Any) -> Any:
        with pure_path():
            assert KERNEL.playing() is None
            return call(*args)

    yield run


def _decisions(rules: Rules, deals: int, seed: int) -> Iterator[tuple[State, int, bool]]:
    """Every decision seat 0 has (a turn with a choice, a claim window with a claim) in
    deals the heuristic plays: (state, seat, whether a turn)."""
    from lald.bots import make_bot

    for d in range(deals):
        state = State.deal(rules, seed=seed + d, dealer=d % rules.players)
        bots = [make_bot("heuristic", s, rules, random.Random(d * 7 + s)) for s in range(rules.players)]
        while not state.over:
            claimed = False
            for seat in state.claim_order():
                claims = state.claims(seat)
                if claims and seat == 0:
                    yield state.clone(), 0, False
                choice = bots[seat].claim(state.view(seat), claims) if claims else None
                if choice is not None:
                    state.apply(choice)
                    claimed = True
                    break
            if claimed:
                continue
            mover = state.to_move
            assert mover is not None
            legal = state.turn_actions()
            if mover == 0 and len(legal) > 1:
                yield state.clone(), 0, True
            state.apply(bots[mover].act(state.view(mover), legal))


@needs_kernel
@pytest.mark.parametrize("bot", ["pimc", "expert"])
def test_search_decides_the_same_on_the_kernel_at_equal_worlds(
        scored: ScoredFunction, pure_switch: Any, bot: str) -> None:
    from lald.bots.expert import ExpertBot
    from lald.bots.search import PimcBot

    def decide(state: State, seat: int, turn: bool, seed: int) -> Any:
        if bot == "pimc":
            b: Any = PimcBot(seat, state.rules, random.Random(seed), worlds=16, time_limit=1e6)
        else:
            b = ExpertBot(seat, state.rules, random.Random(seed), worlds=40, time_limit=1e6)
        view = state.view(seat)
        return b.act(view, state.turn_actions()) if turn else b.claim(view, state.claims(seat))

    calls = 0

    def counted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return scored(*args)

    kernel = KERNEL.playing()
    assert kernel is not None
    search = kernel.search_context, kernel.world_values

    def world(*args: Any) -> Any:  # a world searched in C: a roll-out or solve per code
        nonlocal calls
        found = search[1](*args)
        calls += len(found or ())
        return found

    decisions = turns = 0
    for i, (preset, players) in enumerate((("survivor", 4), ("last-capture", 5), ("survivor", 3),
                                           ("last-capture", 4))):
        rules = Rules.make(preset, players, ("modern-laugh",) if i % 2 else ())
        for j, (state, seat, turn) in enumerate(_decisions(rules, 40, 900 + 100 * i)):
            want = pure_switch(decide, state, seat, turn, j)
            with pytest.MonkeyPatch.context() as m:
                m.setattr(kernel, "scored_outcome", counted)
                m.setattr(kernel, "world_values", world)
                got = decide(state, seat, turn, j)
            assert got == want, (rules.spec(), j, turn)
            decisions += 1
            turns += turn
            if decisions >= 80 * (i + 1):
                break
    assert decisions >= 300 and turns >= 150, (decisions, turns)
    assert calls > 10 * decisions  # the search's roll-outs ran on the kernel (or its worlds did)


@needs_kernel
@pytest.mark.parametrize("level", ["pimc", "expert", "guided"])
def test_a_seat_with_kernel_python_decides_on_the_pure_path(scored: ScoredFunction, level: str) -> None:
    """``kernel=python`` seats a search bot on the pure path in a process where the kernel
    is loaded: no roll-out of its reaches the kernel, its decisions are the default bot's
    at equal worlds, and the kernel plays again after each decision."""
    from lald.play.spec import parse_spec

    calls = 0

    def counted(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        return scored(*args)

    kernel = KERNEL.playing()
    assert kernel is not None
    search = kernel.search_context, kernel.world_values

    def world(*args: Any) -> Any:
        nonlocal calls
        found = search[1](*args)
        calls += len(found or ())
        return found

    rules = Rules.make("survivor", 4)
    worlds = "worlds=12:time_limit=1000000"
    decided = on_kernel = 0
    for j, (state, seat, turn) in enumerate(_decisions(rules, 12, 4100)):
        bots = [parse_spec(f"{level}:{worlds}{extra}").make(seat, rules, random.Random(j))
                for extra in ("", ":kernel=python")]
        view = state.view(seat)
        answers = []
        for bot in bots:
            calls = 0
            with pytest.MonkeyPatch.context() as m:
                m.setattr(kernel, "scored_outcome", counted)
                m.setattr(kernel, "world_values", world)
                legal = state.turn_actions() if turn else state.claims(seat)
                answers.append(bot.act(view, legal) if turn else bot.claim(view, legal))  # type: ignore[arg-type]
                assert kernel.scored_outcome is counted  # restored after the decision
            if bot is bots[1]:
                assert calls == 0
            else:
                on_kernel += calls
        assert answers[0] == answers[1]
        decided += 1
        if decided == 30:
            break
    assert decided == 30 and on_kernel > 30 * 12
    with pytest.raises(ValueError, match="kernel=fast: choose compiled or python"):
        parse_spec(f"{level}:kernel=fast").make(0, rules, random.Random(0))
