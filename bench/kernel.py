"""Random play-outs per second, the compiled kernel beside the pure path, in the same run.

Both play the same dealt positions (``FastState.from_state`` of seeded deals, made before
the clock starts) to their end with ``claim_p = 0.5``, with the same seed per run, so they
play the same moves: the compiled kernel (``lald.core._kernel``, what
``rollout.random_outcome`` dispatches to) and ``rollout.random_outcome_py`` (the pure
reference).  Moves are counted once, from a traced pure play-out of every position with
each run's seed (the traces are not timed), as bench/playout.py counts them.  Each run
times both paths in turn, so a load on the machine hits them alike; printed: the median of
the runs with min and max, the ratio of the medians and the median of the per-run ratios,
and the machine's reference speed (``sum(range(1000))``) with the figures scaled to the
issue's reference core (8.5 µs).

    python bench/kernel.py [--deals N] [--runs K] [--preset P] [--players N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import machine
from lald.core import Rules, State
from lald.core.fast import FastState
from lald.core.rollout import compiled_kernel, kernel_status, random_outcome_py

REFERENCE_US = 8.5  # sum(range(1000)) on the core of issue 22's figures


def timed(play: Callable[..., object], states: list[FastState], seed: int) -> float:
    """Seconds to play every state to its end (states left unchanged)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for s in states:
        play(s, rng, 0.5, None)
    return time.perf_counter() - start


def moves(states: list[FastState], seed: int) -> int:
    """The moves the play-outs of ``timed`` make with this seed."""
    rng = random.Random(seed)
    trace: list[int] = []
    for s in states:
        random_outcome_py(s, rng, 0.5, trace)
    return len(trace)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    rules = Rules.make(args.preset, args.players)
    states = [FastState.from_state(State.deal(rules, seed=i, dealer=i % rules.players))
              for i in range(args.deals)]
    kernel = compiled_kernel()
    paths: dict[str, Callable[..., object]] = {"pure": random_outcome_py}
    if kernel is not None:
        paths["compiled"] = kernel
    for play in paths.values():
        play(states[0], random.Random(0), 0.5, None)  # the rules' tables, made once
    deals: dict[str, list[float]] = {name: [] for name in paths}
    rates: dict[str, list[float]] = {name: [] for name in paths}
    for run in range(args.runs):
        count = moves(states, run)
        for name, play in paths.items():
            seconds = timed(play, states, run)
            deals[name].append(args.deals / seconds)
            rates[name].append(count / seconds)
    calib = machine.reference_us()
    scale = calib / REFERENCE_US
    print(f"rules: {args.preset}, {args.players} players; {args.runs} runs of {args.deals} "
          f"random play-outs (claim_p 0.5) from dealt positions, one core")
    print(f"kernel: {kernel_status()}")
    labels = {"pure": "pure (random_outcome_py)", "compiled": "compiled (lald.core._kernel)"}
    for name in paths:
        d, m = deals[name], rates[name]
        print(f"{labels[name]:29s} {statistics.median(d):12,.0f} play-outs/s (min {min(d):,.0f}, "
              f"max {max(d):,.0f})  {statistics.median(m) / 1e6:7.2f} M moves/s "
              f"(min {min(m) / 1e6:.2f}, max {max(m) / 1e6:.2f})")
    print(f"moves per play-out: {statistics.median(rates['pure']) / statistics.median(deals['pure']):.1f}")
    if kernel is not None:
        ratios = [c / p for c, p in zip(deals["compiled"], deals["pure"], strict=True)]
        ratio = statistics.median(deals["compiled"]) / statistics.median(deals["pure"])
        print(f"ratio compiled / pure: {ratio:.1f}x "
              f"(median of per-run ratios {statistics.median(ratios):.1f}x, min {min(ratios):.1f}x, "
              f"max {max(ratios):.1f}x)")
    print(machine.line(calib))
    print(f"scaled to the reference core (sum(range(1000)) in {REFERENCE_US} µs):")
    for name in paths:
        print(f"  {labels[name]:27s} {statistics.median(deals[name]) * scale:12,.0f} play-outs/s  "
              f"{statistics.median(rates[name]) * scale / 1e6:7.2f} M moves/s")


if __name__ == "__main__":
    main()
