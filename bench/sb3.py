"""Learner steps per second through Stable-Baselines3's ``VecEnv``: SB3's own
``make_vec_env("lald/Seat-v0", n_envs=N)`` (N Gymnasium environments in a
``DummyVecEnv``, the opponents lald's ``random`` bots in Python) beside
``lald.rl.vector.sb3.SeatVecEnv`` (the compiled tables, the opponents of the ``random``
level's law played inside them) at N and at 1,024 tables.

Each loop does what sb3-contrib's MaskablePPO does around its network at every step:
asks ``env_method("action_masks")``, stacks the masks, draws a uniform legal action per
table (numpy), and steps. The figures are learner steps (each carries the four opponents'
decisions) per second of this process's CPU time, the median of ``--runs`` runs, every run
timing every row in turn so that a load on the machine hits them alike; the ratio is of
the medians, against ``make_vec_env`` in the same run.

    python bench/sb3.py [--runs K] [--steps S] [--envs N] [--preset P]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: no BLAS threads spinning beside the loop

import numpy as np  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402

import lald.rl.adapters.gymnasium  # noqa: E402, F401  (registers lald/Seat-v0)
import machine  # noqa: E402
from lald.rl.vector.sb3 import SeatVecEnv  # noqa: E402


def loop(env: Any, steps: int, seed: int) -> int:
    """About ``steps`` learner steps of uniform legal actions; the steps made."""
    rng = np.random.default_rng(seed)
    env.seed(seed)
    env.reset()
    made = 0
    while made < steps:
        masks = np.stack(env.env_method("action_masks"))
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        env.step(actions)
        made += env.num_envs
    return made


def rate(make: Callable[[], Any], steps: int, seed: int) -> float:
    """Learner steps per CPU second of one run (the environment made outside the timing)."""
    env = make()
    start = time.process_time()
    made = loop(env, steps, seed)
    seconds = time.process_time() - start
    env.close()
    return made / seconds


def main() -> None:
    """Time each row ``--runs`` times, in turn, and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=20_000, help="learner steps a run of each row")
    parser.add_argument("--envs", type=int, default=8, help="environments of make_vec_env and the first row")
    parser.add_argument("--preset", default="survivor")
    args = parser.parse_args()
    print(machine.line(machine.reference_us(cpu=True)), flush=True)
    rows: dict[str, Callable[[], Any]] = {
        f"make_vec_env('lald/Seat-v0', n_envs={args.envs}) (DummyVecEnv)":
            lambda: make_vec_env("lald/Seat-v0", n_envs=args.envs, env_kwargs={"preset": args.preset}),
        f"SeatVecEnv({args.envs}), compiled tables":
            lambda: SeatVecEnv(args.envs, args.preset),
        "SeatVecEnv(1024), compiled tables":
            lambda: SeatVecEnv(1024, args.preset),
    }
    # the Python environments are slow: time them on a tenth of the steps
    steps = {name: args.steps // 10 if i == 0 else args.steps for i, name in enumerate(rows)}
    rates: dict[str, list[float]] = {name: [] for name in rows}
    for run in range(args.runs):
        for name, make in rows.items():
            rates[name].append(rate(make, steps[name], seed=run))
    base = statistics.median(rates[next(iter(rows))])
    print(f"{args.preset}, 5 players, random opponents; learner steps per CPU second, median of "
          f"{args.runs} runs (ratio to make_vec_env)")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"  {name:<58} {median:>12,.0f}  × {median / base:,.1f}")


if __name__ == "__main__":
    main()
