"""Play-out speed: random full deals per second, fast path against checked path, one core.

Both paths play the same random policy from the same dealt positions: when claims are
open one is taken with probability 1/2 (uniform over the engine's concrete claims), else
the seat to move picks a rank it can capture uniformly, then one of that rank's concrete
captures uniformly (or lies down / trails a uniform card).  The checked path is
``State.apply`` on ``open_claims()`` / ``turn_actions()``; the fast path is
``FastState.random_playout``.  Dealing (the portable shuffle) is timed apart and left out
of both rates, since a search bot's roll-outs start from positions, not from shuffles.
Prints the median of several runs and the ratio.

    python bench/playout.py [--deals N] [--runs K] [--preset P] [--players N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit

from lald.core import Action, Capture, Rules, State
from lald.core.fast import FastState


def checked(states: list[State], seed: int) -> float:
    """Seconds to play every state to its end through the checked engine."""
    rng = random.Random(seed)
    rnd, choice = rng.random, rng.choice
    start = time.perf_counter()
    for s in states:
        state = s.clone()
        while not state.over:
            claims = state.open_claims()
            if claims and rnd() < 0.5:
                state.apply(choice(claims))
                continue
            actions = state.turn_actions()
            first = actions[0]
            if type(first) is Capture:
                by_rank: dict[int, list[Action]] = {}
                for a in actions:
                    by_rank.setdefault(a.play[0] >> 2, []).append(a)  # type: ignore[union-attr]
                ranks = list(by_rank)
                actions = by_rank[ranks[int(rnd() * len(ranks))]]
            state.apply(choice(actions))
    return time.perf_counter() - start


def fast(states: list[FastState], seed: int) -> float:
    """Seconds to play every state to its end on the fast path."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for s in states:
        s.copy().random_playout(rng)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    rules = Rules.make(args.preset, args.players)
    start = time.perf_counter()
    states = [State.deal(rules, seed=i, dealer=i % rules.players) for i in range(args.deals)]
    deal_us = (time.perf_counter() - start) / args.deals * 1e6
    fast_states = [FastState.from_state(s) for s in states]
    slow_rates, fast_rates = [], []
    for run in range(args.runs):
        slow_rates.append(args.deals / checked(states, run))
        fast_rates.append(args.deals / fast(fast_states, run))
    slow, quick = statistics.median(slow_rates), statistics.median(fast_rates)
    print(f"rules: {args.preset}, {args.players} players; "
          f"{args.runs} runs of {args.deals} random deals, one core")
    print(f"checked path (State.apply): {slow:10,.0f} deals/s  (median; min {min(slow_rates):,.0f}, "
          f"max {max(slow_rates):,.0f})")
    print(f"fast path (FastState):      {quick:10,.0f} deals/s  (median; min {min(fast_rates):,.0f}, "
          f"max {max(fast_rates):,.0f})")
    print(f"ratio fast / checked:       {quick / slow:10.1f}x")
    print(f"dealing (portable shuffle), not in the rates: {deal_us:.1f} µs per deal")
    calib = min(timeit.repeat("sum(range(1000))", number=2000, repeat=5)) / 2000 * 1e6
    print(f"machine speed: sum(range(1000)) takes {calib:.1f} µs here (scale the rates by it)")


if __name__ == "__main__":
    main()
