"""Play-out speed: random full deals per second, fast path against checked path, one core.

Both paths play complete deals (to the end of the deal, the residue settled into the
dealer's won pile) from the same dealt positions with the same random policy.  Each step:
if any claim is open, with probability 1/2 one is taken, uniformly among the engine's
concrete claims (every seat's, every choice of cards counting once); otherwise the seat to
move picks uniformly one of the ranks it can capture, then uniformly one of that rank's
concrete captures (each choice of cards counting once); with no capture it lies down (or,
under modern-laugh, trails a card of its hand chosen uniformly).

* checked: ``State.clone()``, then ``State.apply`` on ``open_claims()`` / ``turn_actions()``
  (claims and captures picked with ``Random.choice``, every check the engine makes).
* fast: ``FastState.random_outcome``, the roll-out a search bot makes: it plays the deal
  from the position, leaving the position unchanged, and returns the won piles, the
  survivor and the last capture (``lald.core.fast.playout``).
* fast, copying: ``FastState.copy().random_playout()``, the same play-out written back
  into a copy of the state, for comparison.

The search bots play out with the heuristic, not at random; the same dealt positions are
also played to the end by the heuristic both ways, in the same runs:

* heuristic, fused: ``lald.bots.kernel.heuristic_outcome``, the roll-out ``pimc`` and the
  expert make;
* heuristic, per move: ``FastState.copy().playout(policy.turn, policy.claim)``, the same
  moves with a call of the policy per move (the path any other habits take).

Dealing (the portable shuffle) and ``FastState.from_state`` are timed apart and left out
of the rates, since a search bot's roll-outs start from positions, not from shuffles.  The
three paths run in turn within each run, so a load on the machine hits them alike.
Prints the median of several runs (with min and max) and the ratio in the same runs.

    python bench/playout.py [--deals N] [--runs K] [--preset P] [--players N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import machine
from lald.bots.heuristic import DROPPED, RolloutPolicy
from lald.bots.kernel import heuristic_outcome
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
    """Seconds to play every state to its end on the fast path (states left unchanged)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for s in states:
        s.random_outcome(rng)
    return time.perf_counter() - start


def fast_copying(states: list[FastState], seed: int) -> float:
    """Seconds to copy every state and play the copy to its end on the fast path."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for s in states:
        s.copy().random_playout(rng)
    return time.perf_counter() - start


def heuristic_fused(states: list[FastState], seed: int) -> float:
    """Seconds to play every state to its end with the heuristic on the fused kernel."""
    start = time.perf_counter()
    for s in states:
        heuristic_outcome(s)
    return time.perf_counter() - start


def heuristic_calls(states: list[FastState], seed: int) -> float:
    """Seconds to play a copy of every state to its end calling the heuristic per move."""
    policy = RolloutPolicy(states[0].rules, DROPPED)
    turn, claim = policy.turn, policy.claim
    start = time.perf_counter()
    for s in states:
        s.copy().playout(turn, claim)
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
    fast_states[0].random_outcome(random.Random(0))  # the rules' move tables, made once
    paths = {"checked": (checked, states), "fast": (fast, fast_states),
             "copying": (fast_copying, fast_states), "fused": (heuristic_fused, fast_states),
             "calls": (heuristic_calls, fast_states)}
    rates: dict[str, list[float]] = {name: [] for name in paths}
    for run in range(args.runs):
        for name, (path, positions) in paths.items():
            rates[name].append(args.deals / path(positions, run))
    median = {name: statistics.median(r) for name, r in rates.items()}
    ratios = [f / c for f, c in zip(rates["fast"], rates["checked"], strict=True)]
    print(f"rules: {args.preset}, {args.players} players; "
          f"{args.runs} runs of {args.deals} random deals, one core")
    labels = {"checked": "checked path (State.apply)", "fast": "fast path (random_outcome)",
              "copying": "fast, copy().random_playout()",
              "fused": "heuristic, fused kernel", "calls": "heuristic, a call per move"}
    for name, label in labels.items():
        r = rates[name]
        print(f"{label:31s} {median[name]:10,.0f} deals/s  (median; min {min(r):,.0f}, max {max(r):,.0f})")
    print(f"ratio fast / checked:           {median['fast'] / median['checked']:10.1f}x  "
          f"(median of per-run ratios {statistics.median(ratios):.1f}x)")
    print(f"ratio heuristic fused / calls:  {median['fused'] / median['calls']:10.1f}x")
    print(f"dealing (portable shuffle), not in the rates: {deal_us:.1f} µs per deal")
    print(machine.line())


if __name__ == "__main__":
    main()
