"""Agent steps per second of the vectorized environment (lald.rl.vector) at N = 1, 64 and
1024 tables, random legal actions, one core, beside the PettingZoo adapter in the same run.

An *agent step* is one decision of one seat (a turn, or an answer in a claim window), as
bench/rl.py counts them.  Measured, each the median of ``--runs`` runs in steps per second
of this process's CPU time (the machine's cores are shared: CPU time is what the loop
costs, whatever else runs), every run timing every row in turn so that a load on the
machine hits them alike:

- PettingZoo AEC ``env()``: ``agent_iter`` / ``last()`` / ``step`` with a random masked
  action (bench/rl.py's loop), the baseline;
- ``VectorDeals`` (self-play, every seat acts), compiled tables: actions from
  ``random_actions()`` (a uniform legal ID drawn inside the tables), and from numpy (the
  argmax of uniform noise on the returned mask: a uniform legal ID drawn by the caller),
  with the default fresh arrays each step and with ``copy=False``;
- ``VectorSeatEnv`` (Gymnasium's VectorEnv, one seat learns, random opponents played
  inside the tables): the learner's steps only, as bench/rl.py counts lald/Seat-v0's;
- the pure tables (``backend="python"``, what plays where the compiled ones are not built).

Printed with the machine line, each figure's ratio to PettingZoo (ratio of the medians),
and the figures scaled to the reference core of issue 22 (``sum(range(1000))`` in 8.5 µs; here
timed in CPU time, as the figures are).

    python bench/vector.py [--runs K] [--steps S] [--preset P] [--players N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import timeit
from collections.abc import Callable

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: no BLAS threads spinning beside the loop

import numpy as np  # noqa: E402

import machine  # noqa: E402
from lald.core import Rules  # noqa: E402
from lald.rl.vector import VectorDeals, VectorSeatEnv, backend_status  # noqa: E402
from rl import pettingzoo  # noqa: E402

REFERENCE_US = 8.5  # sum(range(1000)) on the core of issue 22's figures


def self_play(rules: Rules, n: int, steps: int, seed: int, sampler: str, copy: bool = True,
              backend: str | None = None) -> int:
    """``steps`` agent steps of self-play at ``n`` tables; returns the agent steps made."""
    env = VectorDeals(n, rules.preset, rules.players, rules.variants, copy=copy, backend=backend)
    _obs, info = env.reset(seed=seed)
    rounds = max(1, steps // n)
    if sampler == "tables":
        for _ in range(rounds):
            env.step(env.random_actions())
    else:
        rng = np.random.default_rng(seed)
        mask = info["action_mask"]
        for _ in range(rounds):
            noise = rng.random(mask.shape, dtype=np.float32)
            _obs, _rewards, _done, _trunc, info = env.step((noise * mask).argmax(axis=1))
            mask = info["action_mask"]
    return rounds * n


def one_seat(rules: Rules, n: int, steps: int, seed: int) -> int:
    """The learner's steps of the one-seat VectorEnv against random opponents."""
    env = VectorSeatEnv(n, rules.preset, rules.players, rules.variants, seat=None)
    env.reset(seed=seed)
    rounds = max(1, steps // n)
    for _ in range(rounds):
        env.step(env.random_actions())
    return rounds * n


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5,
                        help="runs per figure; the median is printed (default 5)")
    parser.add_argument("--steps", type=int, default=300_000,
                        help="agent steps per run of a compiled row (default 300,000; a tenth for N = 1)")
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    print(machine.line())
    # the figures are CPU time, so the yardstick is too (on a loaded machine the wall-clock
    # one of the machine line counts the waits as well)
    timings = timeit.repeat("sum(range(1000))", number=2000, repeat=5, timer=time.process_time)
    reference = min(timings) / 2000 * 1e6
    rules = Rules.make(args.preset, args.players)
    print(f"{rules.preset}, {rules.players} players; median of {args.runs} runs; agent steps per second of "
          f"CPU time on one core; tables: {backend_status()}")
    small = max(1000, args.steps // 10)
    rows: list[tuple[str, Callable[[int], int]]] = [
        ("PettingZoo AEC env() (last + step)", lambda s: pettingzoo(rules, 120, s)),
    ]
    for n in (1, 64, 1024):
        budget = small if n == 1 else args.steps
        rows += [
            (f"VectorDeals N={n:<4} random_actions()",
             lambda s, n=n, b=budget: self_play(rules, n, b, s, "tables")),
            (f"VectorDeals N={n:<4} numpy choice",
             lambda s, n=n, b=budget: self_play(rules, n, b, s, "numpy")),
            (f"VectorDeals N={n:<4} random_actions(), copy=False",
             lambda s, n=n, b=budget: self_play(rules, n, b, s, "tables", copy=False)),
            (f"VectorSeatEnv N={n:<4} (learner steps)", lambda s, n=n, b=budget: one_seat(rules, n, b, s)),
        ]
    rows.append(("pure tables (python) N=64 random_actions()",
                 lambda s: self_play(rules, 64, 6400, s, "tables", backend="python")))
    rates: dict[str, list[float]] = {name: [] for name, _ in rows}
    for run in range(args.runs):
        for name, fn in rows:
            start = time.process_time()
            steps = fn(run + 1)
            rates[name].append(steps / (time.process_time() - start))
    base_name = rows[0][0]
    base = statistics.median(rates[base_name])
    scale = reference / REFERENCE_US
    print(f"  {'':50} {'steps/s':>12} {'min':>11} {'max':>11} {'x PettingZoo':>13} {'scaled':>12}")
    for name, _ in rows:
        r = rates[name]
        med = statistics.median(r)
        print(f"  {name:50} {med:12,.0f} {min(r):11,.0f} {max(r):11,.0f} {med / base:13.1f} "
              f"{med * scale:12,.0f}")
    floor = statistics.median(rates["VectorDeals N=1024 random_actions()"])
    numpy_floor = statistics.median(rates["VectorDeals N=1024 numpy choice"])
    print(f"issue 22's floor (>= 1 M agent steps/s at N = 1024, >= 20x PettingZoo): "
          f"{floor / 1e6:.2f} M here ({floor * scale / 1e6:.2f} M scaled), {floor / base:.0f}x PettingZoo "
          f"with the tables' sampler; {numpy_floor / 1e6:.2f} M ({numpy_floor * scale / 1e6:.2f} M scaled), "
          f"{numpy_floor / base:.0f}x with numpy's")
    print(f"scaled: x {scale:.2f} (sum(range(1000)) takes {reference:.1f} µs of CPU time here, "
          f"{REFERENCE_US} µs on the reference core)")


if __name__ == "__main__":
    main()
