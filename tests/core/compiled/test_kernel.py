"""The compiled play-out kernel (``lald.core._kernel``) is the pure one, draw for draw.

On well over 100,000 positions (deals' starts and random points part-way through) under
every preset, variant, option value and player count, a seeded sweep and Hypothesis's
option combinations, the compiled kernel and :func:`~lald.core.fast.playout.random_outcome_py`
must give the same outcome, the same trace and leave the same ``rng.getstate()``; a
kernel that disagrees once fails.  Then: what it refuses (a subclass of Random, an object
that is not one, a replaced method, a malformed deal) it refuses before any draw and the
pure path plays; a self-check that fails keeps it unloaded, and says so;
``LALD_KERNEL=python`` forces the pure path.  The tests of the kernel itself skip only where it is not built.
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lald.core
from lald.core import Rules, State
from lald.core.compiled import KERNEL, kernel_name, kernel_status, pure_path, selfcheck
from lald.core.fast import FastState
from lald.core.fast.playout import random_outcome, random_outcome_py

KernelFunction = Callable[..., Any]
"""The compiled play-out, ``_kernel.random_outcome``."""


def compiled_kernel() -> KernelFunction | None:
    """The compiled play-out where it plays here, else None."""
    kernel = KERNEL.playing()
    return kernel.random_outcome if kernel is not None else None

BUILT = importlib.util.find_spec("lald.core._kernel") is not None
needs_kernel = pytest.mark.skipif(not BUILT, reason="the compiled kernel (lald.core._kernel) is not built: "
                                  "python setup.py build_ext --inplace")

#: claim_p values: the ends, the middle, ints, a bool and odd ones (outside [0, 1], NaN)
CLAIM_PS: tuple[Any, ...] = (0.0, 0.5, 1.0, 0, 1, True, 0.25, 0.999, 1e-9, 1 / 3, 0.8125, 1.5, -0.5,
                             math.nan)

#: every value of every option the play-out reads (the others, like scoring, never reach it)
KERNEL_OPTIONS: dict[str, tuple[str, ...]] = {
    "single_takes_three": ("choice", "forced", "off"),
    "pair_on_pair": ("on", "off"),
    "prial_on_single": ("on", "off"),
    "hand_sets": ("on", "off"),
    "hand_set_timing": ("foreplay", "foreplay_or_own_turn"),
    "dead_claims": ("any_time", "own_turn", "off"),
    "spotter_claims": ("on", "off"),
    "no_capture": ("lie_down", "trail"),
}
OTHER_OPTIONS: dict[str, tuple[str, ...]] = {
    "prize_rule": ("survivor", "last_capture", "last_card"),
    "scoring": ("chips", "card_count"),
    "table_mournival_to_dealer": ("on", "off"),
}
VARIANT_SETS: tuple[tuple[str, ...], ...] = (
    (), ("modern-laugh",), ("low-stakes", "silent"), ("modern-laugh", "low-stakes"))


@pytest.fixture
def kernel() -> Iterator[KernelFunction]:
    """The compiled play-out (skips only where it is not built)."""
    if not BUILT:
        pytest.skip("the compiled kernel (lald.core._kernel) is not built: setup.py build_ext --inplace")
    if os.environ.get("LALD_KERNEL", "").strip().lower() == "python":
        pytest.skip("LALD_KERNEL=python forces the pure path in this run")
    found = compiled_kernel()
    assert found is not None, f"the kernel is built but not loaded: {kernel_status()}"
    yield found


def _sweep_rules() -> list[Rules]:
    """Every preset, player count and variant set; then every value of every option the
    kernel reads, at every player count."""
    out = [Rules.make(p, n, v) for p in ("survivor", "last-capture") for n in (3, 4, 5) for v in VARIANT_SETS]
    i = 0
    for name, values in {**KERNEL_OPTIONS, **OTHER_OPTIONS}.items():
        for value in values:
            for n in (3, 4, 5):
                preset = ("survivor", "last-capture")[i % 2]
                variants = VARIANT_SETS[i % len(VARIANT_SETS)]
                out.append(Rules.make(preset, n, variants, {name: value}))
                i += 1
    return out


def positions(rules: Rules, seed: int, per_deal: int) -> list[FastState]:
    """A dealt position and up to ``per_deal - 1`` positions part-way through the same
    deal (after random moves of a pure play-out)."""
    n = rules.players
    rng = random.Random(seed)
    start = FastState.from_state(State.deal(rules, seed=seed, dealer=seed % n, pot=seed % 5))
    out = [start]
    trace: list[int] = []
    random_outcome_py(start, rng, rng.choice((0.2, 0.5, 0.9)), trace)
    if len(trace) > 1:
        cuts = sorted(set(rng.randrange(1, len(trace)) for _ in range(per_deal - 1)))
        at = start.copy()
        done = 0
        for cut in cuts:
            for code in trace[done:cut]:
                at.apply(code)
            done = cut
            if at.over:
                break
            out.append(at.copy())
    return out


def same_play_outs(kernel: KernelFunction, rules: Rules, deals: int, per_deal: int, seed: int) -> int:
    """Play every position both ways and insist on the same answer; returns how many."""
    checked = 0
    for d in range(deals):
        s = seed * 100_003 + d
        pure, compiled = random.Random(s), random.Random(s)
        pick = random.Random(~s)
        for fs in positions(rules, s, per_deal):
            claim_p = CLAIM_PS[pick.randrange(len(CLAIM_PS))]
            traced = pick.random() < 0.8
            want_trace: list[int] | None = [] if traced else None
            got_trace: list[int] | None = [] if traced else None
            want = random_outcome_py(fs, pure, claim_p, want_trace)
            got = kernel(fs, compiled, claim_p, got_trace)
            where = (rules.spec(), s, claim_p)
            assert got is not None, where
            assert got == want, where
            assert got_trace == want_trace, where
            assert compiled.getstate() == pure.getstate(), where
            checked += 1
    return checked


@needs_kernel
def test_the_compiled_kernel_is_the_pure_one_on_a_seeded_sweep(kernel: KernelFunction) -> None:
    sweep = _sweep_rules()
    checked = sum(same_play_outs(kernel, rules, 230, 6, i) for i, rules in enumerate(sweep))
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
def test_the_compiled_kernel_is_the_pure_one_on_any_options(
        preset: str, players: int, variants: tuple[str, ...], options: dict[str, str], seed: int) -> None:
    found = compiled_kernel()
    if found is None:  # the fixture cannot serve @given; the same checks as it
        pytest.skip(f"the compiled kernel is not loaded: {kernel_status()}")
    rules = Rules.make(preset, players, variants, options)
    assert same_play_outs(found, rules, 40, 6, seed) > 40


@needs_kernel
def test_the_dispatch_plays_the_kernel(kernel: KernelFunction) -> None:
    assert kernel_name() == "compiled" and kernel_status() == "compiled"
    fs = FastState.from_state(State.deal(Rules.make(), seed=3))
    a, b = random.Random(1), random.Random(1)
    assert random_outcome(fs, a, 0.5, None) == kernel(fs, b, 0.5, None)
    assert a.getstate() == b.getstate()
    assert FastState.random_outcome(fs, a) == random_outcome_py(fs, b, 0.5, None)


class Subclass(random.Random):
    pass


class Drawn:
    """Not a Random: it hands over another generator's draws."""

    def __init__(self, seed: int) -> None:
        self.inner = random.Random(seed)
        self.random = self.inner.random
        self.getrandbits = self.inner.getrandbits


def _replaced(seed: int) -> random.Random:
    r = random.Random(seed)
    r.random = r.random  # type: ignore[method-assign]  # the instance's own attribute now
    return r


@needs_kernel
@pytest.mark.parametrize("make", [Subclass, Drawn, _replaced, random.SystemRandom],
                         ids=["subclass", "not-a-random", "method-replaced", "system-random"])
def test_the_kernel_refuses_what_is_not_a_plain_random(kernel: KernelFunction, make: Any) -> None:
    rules = Rules.make("last-capture", 4, ("modern-laugh",))
    for seed in range(20):
        fs = FastState.from_state(State.deal(rules, seed=seed))
        rng = make(seed)
        assert kernel(fs, rng, 0.5, []) is None  # refused, before any draw
        if make is random.SystemRandom:
            continue
        twin, mirror = make(seed), random.Random(seed)
        got: list[int] = []
        want: list[int] = []
        # the dispatch falls back to the pure path: the same answer as a plain Random gives
        assert random_outcome(fs, twin, 0.5, got) == random_outcome_py(fs, mirror, 0.5, want)
        assert got == want
        inner = twin.inner if isinstance(twin, Drawn) else twin
        assert inner.getstate() == mirror.getstate()


@needs_kernel
def test_the_kernel_refuses_a_malformed_deal_before_any_draw(kernel: KernelFunction) -> None:
    fs = FastState.from_state(State.deal(Rules.make(), seed=5))
    rng = random.Random(5)
    before = rng.getstate()
    bad = [fs.copy() for _ in range(5)]
    bad[0].to_move = 7
    bad[1].hc[0][0] = 5
    bad[2].hs[1] += 1
    bad[3].foreplay = 1  # type: ignore[assignment]
    bad[4].won = (0,) * 5  # type: ignore[assignment]  # a tuple is read as a list is
    for fs_bad in bad[:4]:
        assert kernel(fs_bad, rng, 0.5, None) is None
        assert rng.getstate() == before
    assert kernel(fs, rng, 0.5, ()) is None  # type: ignore[arg-type]  # a trace that is no list
    assert kernel(bad[4], rng, 0.5, None) is not None


@needs_kernel
def test_the_kernel_reads_a_deal_from_its_slots_only_while_that_is_safe(kernel: KernelFunction) -> None:
    """A FastState's fields are read straight from its slots: an unset slot is refused
    before any draw, and a subclass or a changed class is read by attribute lookup, with
    the pure path's answer every time."""

    class Sub(FastState):
        __slots__ = ()

        @property  # type: ignore[misc]
        def won(self) -> list[int]:  # what a lookup finds, and a read of the slot would not
            return [3, 0, 0, 0, 0]

    fs = FastState.from_state(State.deal(Rules.make(), seed=8))
    unset = fs.copy()
    del unset.hc
    rng = random.Random(3)
    before = rng.getstate()
    assert kernel(unset, rng, 0.5, None) is None and rng.getstate() == before
    sub = Sub.__new__(Sub)
    for name in FastState.__slots__:
        if name != "won":
            setattr(sub, name, getattr(fs, name))
    FastState.won.__set__(sub, fs.won)  # type: ignore[attr-defined]
    got = kernel(sub, random.Random(4), 0.5, None)
    assert got is not None and got == random_outcome_py(sub, random.Random(4), 0.5, None)
    assert got != kernel(fs, random.Random(4), 0.5, None)  # (the property counted)
    FastState.probe = 1  # type: ignore[attr-defined]  # the class changes: lookups again
    try:
        assert kernel(fs, random.Random(5), 0.5, None) == random_outcome_py(fs, random.Random(5), 0.5, None)
    finally:
        del FastState.probe  # type: ignore[attr-defined]
    assert kernel(fs, random.Random(6), 0.5, None) == random_outcome_py(fs, random.Random(6), 0.5, None)


@pytest.fixture
def reload(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Load the kernel afresh after the test (which may have unloaded it), once the test's
    patches are undone (a patched module would configure the real one and leave it off)."""
    yield
    monkeypatch.undo()
    KERNEL.reload()
    KERNEL.playing()


@needs_kernel
def test_a_self_check_that_fails_keeps_the_pure_path(
        kernel: KernelFunction, monkeypatch: pytest.MonkeyPatch, reload: None) -> None:
    from lald.core import _kernel

    assert selfcheck.random_draws_match(_kernel)
    off_by_one = types.SimpleNamespace(
        layout=_kernel.layout, configure=_kernel.configure, enable=_kernel.enable,
        random_outcome=_kernel.random_outcome, draw_bits=_kernel.draw_bits,
        draw_random=_kernel.draw_random, configure_draws=_kernel.configure_draws,
        draw_below=_kernel.draw_below, shuffled=_kernel.shuffled, draw_weighted=_kernel.draw_weighted)
    assert selfcheck.random_draws_match(off_by_one)  # the same draws: passes
    off_by_one.draw_below = lambda rng, n: _kernel.draw_below(rng, n) ^ (n == 7)
    assert not selfcheck.random_draws_match(off_by_one)  # the worlds' integer draws are checked too
    off_by_one.draw_below = _kernel.draw_below
    off_by_one.draw_weighted = lambda rng, w: (_kernel.draw_weighted(rng, w) + 1) % len(w)
    assert not selfcheck.random_draws_match(off_by_one)  # and the weighted choices of the fill
    off_by_one.draw_weighted = _kernel.draw_weighted
    off_by_one.draw_bits = lambda rng, k: _kernel.draw_bits(rng, k) ^ (k == 5)
    assert not selfcheck.random_draws_match(off_by_one)
    monkeypatch.setattr(lald.core, "_kernel", off_by_one)
    KERNEL.reload()
    with pytest.warns(RuntimeWarning, match=r"self-check \(random draws\); the pure-Python path plays"):
        assert kernel_name() == "python"
    assert kernel_status() == "python (self-check failed: random draws)"
    fs = FastState.from_state(State.deal(Rules.make(), seed=2))
    assert random_outcome(fs, random.Random(2), 0.5, None) == random_outcome_py(
        fs, random.Random(2), 0.5, None)


@needs_kernel
def test_a_random_object_laid_out_otherwise_keeps_the_pure_path_and_says_so(
        kernel: KernelFunction, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        reload: None) -> None:
    """The kernel reads CPython's private ``RandomObject`` layout: a generator type of
    another size is refused by the load's check, which warns, plays the pure path and has
    ``lald --version`` say why."""
    import _random

    from lald.cli import build_parser
    from lald.core import _kernel

    class Wider(_random.Random):  # one more slot: the object is no longer the layout read
        __slots__ = ("extra",)

    assert _kernel.configure(random.Random, _random.Random, lambda rules: None)
    assert not _kernel.configure(random.Random, Wider, lambda rules: None)
    monkeypatch.setattr(_random, "Random", Wider)
    KERNEL.reload()
    with pytest.warns(RuntimeWarning, match=r"failed its self-check \(Random's layout\)"):
        assert KERNEL.playing() is None
    fs = FastState.from_state(State.deal(Rules.make(), seed=4))
    want = random_outcome_py(fs, random.Random(3), 0.5, None)
    assert random_outcome(fs, random.Random(3), 0.5, None) == want
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--version"])
    assert capsys.readouterr().out.strip().endswith("(kernel: python (self-check failed: Random's layout))")


def test_lald_kernel_python_forces_the_pure_path(monkeypatch: pytest.MonkeyPatch, reload: None) -> None:
    monkeypatch.setenv("LALD_KERNEL", "python")
    KERNEL.reload()
    assert kernel_name() == "python"
    assert kernel_status() == "python (LALD_KERNEL=python)"
    src = str(Path(lald.core.__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    forced = subprocess.run([sys.executable, "-m", "lald", "--version"], capture_output=True, text=True,
                            timeout=60, env=env)
    assert forced.returncode == 0, forced.stderr
    assert forced.stdout.strip().endswith("(kernel: python (LALD_KERNEL=python))")
    del env["LALD_KERNEL"]
    plain = subprocess.run([sys.executable, "-m", "lald", "--version"], capture_output=True, text=True,
                           timeout=60, env=env)
    unbuilt = "(kernel: python (the compiled kernel is not built))"
    assert plain.stdout.strip().endswith("(kernel: compiled)" if BUILT else unbuilt)


# -- dealing: PortableRandom.shuffle in C ---------------------------------------------------


@needs_kernel
def test_the_compiled_deal_shuffle_is_the_pure_one(kernel: KernelFunction) -> None:
    """120,000 shuffles of the deck (and of other lengths) from seeds small, large and
    random: the same permutation and the same generator state after; then whole deals and
    sessions' cuts under every rules set of the sweep, compiled and pure."""
    from lald.core.rng import KeyedRandom, PortableRandom, shuffle_py

    loaded = KERNEL.playing()
    assert loaded is not None and KERNEL.shuffle_checked(PortableRandom, shuffle_py)
    shuffle = loaded.portable_shuffle
    pick = random.Random(11)
    seeds = [*range(2000), *(2**64 - 1 - i for i in range(1000)),
             *(pick.getrandbits(64) for _ in range(117_000))]
    for i, seed in enumerate(seeds):
        length = 52 if i % 10 else pick.randrange(0, 70)
        a, b = PortableRandom(seed), PortableRandom(seed)
        x, y = list(range(length)), list(range(length))
        assert shuffle(a, x)
        shuffle_py(b, y)
        assert x == y and a.next64() == b.next64(), (seed, length)
    deals = 0
    for i, rules in enumerate(_sweep_rules()):
        for d in range(150):
            seed = pick.getrandbits(64) if d % 3 else i * 1000 + d
            got = State.deal(rules, seed=seed, dealer=d % rules.players)
            with pure_path():
                want = State.deal(rules, seed=seed, dealer=d % rules.players)
            assert (got.dealt_hands, got.dealt_table) == (want.dealt_hands, want.dealt_table)
            deals += 1
        got_session = lald.core.Session(rules, seed=i)
        with pure_path():
            want_session = lald.core.Session(rules, seed=i)
        assert got_session.first_dealer == want_session.first_dealer
        assert got_session.start_deal().dealt_hands == want_session.start_deal().dealt_hands
    assert deals > 10_000
    # what it leaves to the pure path: a keyed generator (a subclass), anything but a list
    keyed, deck = KeyedRandom(bytes(16), "deal"), list(range(52))
    assert not shuffle(keyed, deck) and deck == list(range(52))
    assert not shuffle(PortableRandom(1), tuple(deck))  # type: ignore[arg-type]
    k1, k2 = KeyedRandom(bytes(16), "deal"), KeyedRandom(bytes(16), "deal")
    d1, d2 = list(range(52)), list(range(52))
    k1.shuffle(d1)
    shuffle_py(k2, d2)
    assert d1 == d2 != list(range(52))


@needs_kernel
def test_a_deal_shuffle_that_shuffles_otherwise_is_not_played(
        kernel: KernelFunction, monkeypatch: pytest.MonkeyPatch) -> None:
    from lald.core.rng import PortableRandom, shuffle_py

    def other(rng: PortableRandom, items: list[Any]) -> None:
        shuffle_py(rng, items)
        items.reverse()

    loaded = KERNEL.playing()
    assert loaded is not None
    try:
        assert not KERNEL.shuffle_checked(PortableRandom, other)
        deck = list(range(52))
        assert not loaded.portable_shuffle(PortableRandom(3), deck) and deck == list(range(52))
        want = list(range(52))
        shuffle_py(PortableRandom(3), want)
        PortableRandom(3).shuffle(deck)  # the pure path deals
        assert deck == want
    finally:
        assert KERNEL.shuffle_checked(PortableRandom, shuffle_py)  # configured again for the other tests


@needs_kernel
def test_pure_path_in_one_thread_leaves_the_kernel_to_the_others() -> None:
    """Two threads each in ``pure_path()``, entered and left crosswise (A in, B in, A out,
    B out), switched the kernel off for the whole process while ``lald --version`` said
    "compiled"; now each thread's block is its own."""
    import threading

    if compiled_kernel() is None:
        pytest.skip(f"the compiled kernel is not loaded: {kernel_status()}")
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, Any] = {}

    def first() -> None:
        with pure_path():
            seen["a inside"] = compiled_kernel()
            a_in.set()
            b_in.wait(10)
        a_out.set()

    def second() -> None:
        a_in.wait(10)
        seen["b while a inside"] = compiled_kernel()
        with pure_path():
            b_in.set()
            a_out.wait(10)
            seen["b inside"] = kernel_name()
        seen["b after"] = compiled_kernel()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert seen["a inside"] is None and seen["b inside"] == "python"
    assert seen["b while a inside"] is not None and seen["b after"] is not None
    assert kernel_name() == "compiled" and compiled_kernel() is not None
    assert kernel_status() == "compiled"
