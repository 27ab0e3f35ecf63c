"""Learner steps per second of the one-seat vector tables (lald.rl.vector.VectorSeatEnv)
against greedy and heuristic opponents stepped in C, beside the Python opponents in the
same run (issue 35, item 8: >= 500 k learner steps/s at N = 1,024 on one core, reference
speed).

A *learner step* is one decision of the learning seat; the opponents' decisions between
two of its steps are played inside the step and not counted (as bench/vector.py and
bench/rl.py count ``lald/Seat-v0``'s).  The learner plays a uniformly random legal action
(``random_actions()``, drawn inside the tables).  Each figure is the median of ``--runs``
runs in steps per second of this process's CPU time, every run timing every row in turn:

- the compiled tables at N = 1,024 against ``random``, ``greedy`` and ``heuristic``
  opponents, and against ``heuristic`` ones with a whole deal's history in each
  observation (``history=65``: 1,690 more numbers a row);
- the same tables in pure Python (``backend="python"``: the Python bots of
  :mod:`lald.bots.heuristic`, what plays where the compiled tables are not built);
- ``lald/Seat-v0`` (the Gymnasium adapter, one table) against the same bots.

Printed with the machine line, each row's ratio to the Python heuristic opponents (ratio
of the medians), and the figures scaled to the reference core of issue 22
(``sum(range(1000))`` in 8.5 µs of CPU time).

    python bench/opponents.py [--runs K] [--steps S] [--preset P] [--players N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: no BLAS threads spinning beside the loop

import numpy as np  # noqa: E402

import machine  # noqa: E402
from lald.bots.learned.encoding import MAX_HISTORY  # noqa: E402
from lald.core import Rules  # noqa: E402
from lald.rl.vector import VectorSeatEnv, backend_status  # noqa: E402

REFERENCE_US = 8.5  # sum(range(1000)) on the core of issue 22's figures
FLOOR = 500_000  # issue 35's floor, learner steps/s at N = 1,024, reference speed


def vector(rules: Rules, n: int, level: str, steps: int, seed: int, backend: str | None = None,
           history: int = 0) -> int:
    """The learner's steps at ``n`` tables against ``level``; returns the steps made."""
    env = VectorSeatEnv(n, rules.preset, rules.players, rules.variants, seat=None, opponents=level,
                        copy=False, backend=backend, history=history)
    env.reset(seed=seed)
    rounds = max(1, steps // n)
    for _ in range(rounds):
        env.step(env.random_actions())
    return rounds * n


def seat_v0(rules: Rules, level: str, steps: int, seed: int) -> int:
    """``lald/Seat-v0`` against ``level`` bots, random legal actions: about ``steps``."""
    from lald.rl.adapters.gymnasium import SeatEnv

    env = SeatEnv(preset=rules.preset, players=rules.players, variants=rules.variants, opponents=level)
    rng = np.random.default_rng(seed)
    made, episode = 0, 0
    while made < steps:
        env.reset(seed=seed * 1_000_003 + episode)
        episode += 1
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _obs, _reward, terminated, truncated, _info = env.step(int(legal[rng.integers(len(legal))]))
            done = terminated or truncated
            made += 1
    return made


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5,
                        help="runs per figure; the median is printed (default 5)")
    parser.add_argument("--steps", type=int, default=500_000,
                        help="learner steps per run of a compiled row (default 500,000; the Python rows "
                             "take a hundredth)")
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    print(machine.line())
    reference = machine.reference_us(cpu=True)
    rules = Rules.make(args.preset, args.players)
    print(f"{rules.preset}, {rules.players} players; median of {args.runs} runs; learner steps per second of "
          f"CPU time on one core; tables: {backend_status()}")
    small = max(1024, args.steps // 100)
    rows: list[tuple[str, Callable[[int], int]]] = [
        ("python tables N=1024 vs heuristic (lald.bots)",
         lambda s: vector(rules, 1024, "heuristic", small, s, backend="python")),
        ("python tables N=1024 vs greedy (lald.bots)",
         lambda s: vector(rules, 1024, "greedy", small, s, backend="python")),
        ("lald/Seat-v0 vs heuristic (lald.bots)", lambda s: seat_v0(rules, "heuristic", small // 4, s)),
    ]
    for level in ("random", "greedy", "heuristic"):
        rows.append((f"compiled tables N=1024 vs {level} (C)",
                     lambda s, level=level: vector(rules, 1024, level, args.steps, s)))
    rows.append(("compiled tables N=1024 vs heuristic, history=65",
                 lambda s: vector(rules, 1024, "heuristic", args.steps, s, history=MAX_HISTORY)))
    rates: dict[str, list[float]] = {name: [] for name, _ in rows}
    for run in range(args.runs):
        for name, fn in rows:
            start = time.process_time()
            steps = fn(run + 1)
            rates[name].append(steps / (time.process_time() - start))
    base = statistics.median(rates[rows[0][0]])
    scale = reference / REFERENCE_US
    print(f"  {'':48} {'steps/s':>12} {'min':>11} {'max':>11} {'x python':>9} {'scaled':>12}")
    for name, _ in rows:
        r = rates[name]
        med = statistics.median(r)
        print(f"  {name:48} {med:12,.0f} {min(r):11,.0f} {max(r):11,.0f} {med / base:9.1f} "
              f"{med * scale:12,.0f}")
    heuristic = statistics.median(rates["compiled tables N=1024 vs heuristic (C)"])
    print(f"issue 35's floor (>= {FLOOR / 1e3:.0f} k learner steps/s at N = 1024 against heuristic opponents "
          f"in C, reference speed): {heuristic * scale / 1e3:.0f} k scaled ({heuristic / 1e3:.0f} k here), "
          f"{heuristic / base:.0f}x the Python opponents")
    print(f"scaled: x {scale:.2f} (sum(range(1000)) takes {reference:.1f} µs of CPU time here, "
          f"{REFERENCE_US} µs on the reference core)")


if __name__ == "__main__":
    main()
