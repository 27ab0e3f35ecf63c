"""Random and heuristic play-outs in processor time, runnable on any commit since the
compiled kernel: compare two commits on one machine in the same hour.

The loops of ``bench/kernel.py``'s first two sections (20,000 dealt positions of survivor
at 5 players, ``claim_p`` 0.5, the heuristic level's tables), timed with
``time.process_time`` so that a shared machine's other work does not count, medians of 7
runs, and scaled to the issue's reference core by ``sum(range(1000))`` in the same clock.
Point ``PYTHONPATH`` at the other commit's ``src`` (with its kernel built) to run it there:

    PYTHONPATH=/path/to/old/src python bench/kernel_commits.py before
    python bench/kernel_commits.py after
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import timeit
from typing import Any

import machine
from lald.bots.heuristic import level_params
from lald.bots.kernel import _claim, tables
from lald.core import Rules, State
from lald.core.fast import FastState

try:
    from lald.core.compiled import KERNEL, kernel_status
    from lald.core.fast.playout import random_outcome_py, scored_outcome_py

    def compiled() -> tuple[Any, Any]:
        kernel = KERNEL.playing()
        return (kernel.random_outcome, kernel.scored_outcome) if kernel is not None else (None, None)
except ImportError:  # a commit from before lald.core's sub-packages
    from lald.core.rollout import kernel_status, random_outcome_py, scored_outcome_py  # type: ignore[no-redef]

    from lald.core import rollout  # type: ignore[attr-defined]

    def compiled() -> tuple[Any, Any]:
        return rollout.compiled_kernel(), rollout._scored

REFERENCE_US = 8.5


def main() -> None:
    label = sys.argv[1] if len(sys.argv) > 1 else "this commit"
    rules = Rules.make()
    states = [FastState.from_state(State.deal(rules, seed=i, dealer=i % 5)) for i in range(20000)]
    kernel, scored = compiled()
    if kernel is None or scored is None:
        raise SystemExit(f"the compiled kernel is not loaded: {kernel_status()}")
    h = tables(rules, level_params(rules))
    kernel(states[0], random.Random(0), 0.5, None)  # the rules' tables and the policy, packed
    scored(states[0], h.best, h.others, _claim, None)
    trace: list[int] = []
    rng = random.Random(0)
    for s in states:
        random_outcome_py(s, rng, 0.5, trace)
    h_trace: list[int] = []
    for s in states:
        scored_outcome_py(s, h.best, h.others, _claim, h_trace)
    rates: list[float] = []
    h_rates: list[float] = []
    for _ in range(7):
        rng = random.Random(0)
        start = time.process_time()
        for s in states:
            kernel(s, rng, 0.5, None)
        rates.append(len(trace) / (time.process_time() - start))
        start = time.process_time()
        for s in states:
            scored(s, h.best, h.others, _claim, None)
        h_rates.append(len(h_trace) / (time.process_time() - start))
    timings = timeit.repeat("sum(range(1000))", number=2000, repeat=5, timer=time.process_time)
    calib = min(timings) / 2000 * 1e6
    r, hr = statistics.median(rates), statistics.median(h_rates)
    scale = calib / REFERENCE_US / 1e6
    print(f"{label}: random {r / 1e6:.2f} M moves/s (min {min(rates) / 1e6:.2f}, "
          f"max {max(rates) / 1e6:.2f}), heuristic {hr / 1e6:.2f} M moves/s "
          f"(min {min(h_rates) / 1e6:.2f}, max {max(h_rates) / 1e6:.2f}); processor-time "
          f"sum(range(1000)) {calib:.1f} µs; scaled to the reference core: random {r * scale:.2f}, "
          f"heuristic {hr * scale:.2f} M moves/s")
    print(machine.line())


if __name__ == "__main__":
    main()
