"""Engine speed: random legal play of complete deals through the checked public API.

Each step offers every open claim (taken with probability 1/2, as a random player might),
otherwise the seat to move picks uniformly among its turn actions; every action goes
through ``State.apply``, which checks it.  Prints the median of several runs.

    python bench/engine.py [--deals N] [--runs K] [--preset P] [--players N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import machine
from lald.core import Rules, State


def play_deals(rules: Rules, deals: int, seed: int) -> tuple[float, int]:
    """Play ``deals`` random deals; return seconds and moves."""
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for i in range(deals):
        state = State.deal(rules, seed=seed * 1_000_003 + i)
        while not state.over:
            claims = state.open_claims()
            if claims and rng.random() < 0.5:
                state.apply(rng.choice(claims))
            else:
                state.apply(rng.choice(state.turn_actions()))
            moves += 1
    return time.perf_counter() - start, moves


def sample_states(rules: Rules, count: int) -> list[State]:
    """Mid-deal states reached by random play, for the per-call timings."""
    rng = random.Random(7)
    out = []
    for i in range(count):
        state = State.deal(rules, seed=10_000 + i)
        for _ in range(rng.randrange(0, 20)):
            if state.over:
                break
            state.apply(rng.choice(state.turn_actions()))
        if not state.over:
            out.append(state)
    return out


def per_call(fn_name: str, states: list[State], reps: int = 20) -> float:
    """Median microseconds of one call of ``State.fn_name`` over the sample states."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(reps):
            for s in states:
                getattr(s, fn_name)()
        times.append((time.perf_counter() - start) / (reps * len(states)) * 1e6)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    rules = Rules.make(args.preset, args.players)
    calibration = machine.reference_us()
    rates, move_rates = [], []
    for run in range(args.runs):
        seconds, moves = play_deals(rules, args.deals, seed=run + 1)
        rates.append(args.deals / seconds)
        move_rates.append(moves / seconds)
    deal_rate = statistics.median(rates)
    print(f"rules: {args.preset}, {args.players} players; {args.runs} runs of {args.deals} deals")
    print(machine.line(calibration))
    print(f"checked play:      {deal_rate:10,.0f} deals/s  (median; min {min(rates):,.0f}, "
          f"max {max(rates):,.0f})")
    print(f"                   {statistics.median(move_rates):10,.0f} moves/s")
    states = sample_states(rules, 300)
    timings = {name: per_call(name, states) for name in ("turn_actions", "open_claims", "clone")}
    start = time.perf_counter()
    for i in range(2000):
        State.deal(rules, seed=i)
    timings["deal (shuffle)"] = (time.perf_counter() - start) / 2000 * 1e6
    for name, us in timings.items():
        print(f"{name + ':':18} {us:10.2f} µs")
    baseline = timings["clone"]
    print(f"ratios to clone:   turn_actions {timings['turn_actions'] / baseline:.2f}, "
          f"open_claims {timings['open_claims'] / baseline:.2f}")
    print(f"one deal costs {1e6 / deal_rate / calibration:.1f} × sum(range(1000))")


if __name__ == "__main__":
    main()
