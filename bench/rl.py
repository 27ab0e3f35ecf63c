"""Agent steps per second of each lald.rl adapter, random masked actions, one core, beside
the native engine in the same run.

An *agent step* is one decision of one seat: a turn action, or a claim or pass in a claim
window.  Every adapter is driven as a learner's loop drives it:

- native engine: ``lald.core`` alone, random legal actions (each step offers the open
  claims, taken with probability 1/2, as bench/engine.py does); no IDs, no observation;
- claim window: :class:`lald.rl.deal.Deal` with a uniformly random legal ID (IDs, the
  window and the mask, no observation);
- PettingZoo AEC: ``env()``, ``agent_iter`` / ``last()`` (observation and mask) / ``step``;
- Gymnasium: ``lald/Seat-v0`` with ``random`` opponents, ``step`` and ``action_masks()``
  (learner steps; the opponents' decisions are not counted);
- OpenSpiel: ``legal_actions`` / ``apply_action``, with and without
  ``observation_tensor`` at every decision (chance nodes not counted).

Each figure is the median of ``--runs`` runs, in steps per second of this process's CPU
time (the two cores are shared: CPU time is what the adapter costs, whatever else runs);
the ratio is against the native engine of the same run.  Then the PettingZoo step taken
apart: CPU microseconds per call of its parts.

    python bench/rl.py [--episodes N] [--runs K] [--preset P] [--players N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import timeit
from collections.abc import Callable

import numpy as np

import machine
from lald.bots.learned.encoding import observe
from lald.core import Rules, State
from lald.rl.deal import Deal


def native(rules: Rules, episodes: int, seed: int) -> int:
    """Random legal play through lald.core; returns the agent steps."""
    rng = random.Random(seed)
    steps = 0
    for i in range(episodes):
        state = State.deal(rules, seed * 1_000_003 + i, dealer=i % rules.players)
        while not state.over:
            claims = state.open_claims()
            if claims and rng.random() < 0.5:
                state.apply(rng.choice(claims))
            else:
                state.apply(rng.choice(state.turn_actions()))
            steps += 1
    return steps


def claim_window(rules: Rules, episodes: int, seed: int) -> int:
    """Random legal IDs through the claim window."""
    rng = random.Random(seed)
    steps = 0
    for i in range(episodes):
        deal = Deal(State.deal(rules, seed * 1_000_003 + i, dealer=i % rules.players))
        while not deal.over:
            deal.mask()
            deal.step(rng.choice(list(deal.legal)))
            steps += 1
    return steps


def pettingzoo(rules: Rules, episodes: int, seed: int) -> int:
    """PettingZoo's AEC loop with random masked actions."""
    from lald.rl.adapters.pettingzoo import env

    e = env(preset=rules.preset, players=rules.players, variants=rules.variants)
    rng = np.random.default_rng(seed)
    steps = 0
    for i in range(episodes):
        e.reset(seed=seed * 1_000_003 + i)
        for _agent in e.agent_iter():
            _obs, _reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(info["action_mask"])
            e.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps


def gymnasium(rules: Rules, episodes: int, seed: int) -> int:
    """The one-seat environment against random bots, random masked actions."""
    from lald.rl.adapters.gymnasium import SeatEnv

    env = SeatEnv(preset=rules.preset, players=rules.players, variants=rules.variants, opponents="random")
    rng = np.random.default_rng(seed)
    steps = 0
    for i in range(episodes):
        env.reset(seed=seed * 1_000_003 + i)
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _obs, _reward, terminated, truncated, _info = env.step(int(legal[rng.integers(len(legal))]))
            done = terminated or truncated
            steps += 1
    return steps


def openspiel(rules: Rules, episodes: int, seed: int, tensors: bool) -> int:
    """OpenSpiel's loop: random chance outcomes and random legal actions."""
    import pyspiel

    import lald.rl.adapters.openspiel  # noqa: F401  (registers python_lald)

    game = pyspiel.load_game("python_lald", {"preset": rules.preset, "players": rules.players,
                                             "variants": "+".join(rules.variants)})
    rng = random.Random(seed)
    steps = 0
    for _ in range(episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            if tensors:
                state.observation_tensor()
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def measure(fn: Callable[[Rules, int, int], int], rules: Rules, episodes: int, runs: int) -> float:
    """Median agent steps per second over ``runs`` runs."""
    rates = []
    for run in range(runs):
        start = time.process_time()
        steps = fn(rules, episodes, run + 1)
        rates.append(steps / (time.process_time() - start))
    return statistics.median(rates)


def parts(rules: Rules) -> list[tuple[str, float]]:
    """Microseconds per call of the parts of a PettingZoo step, on states of random play."""
    from lald.rl.adapters.pettingzoo import raw_env

    rng = random.Random(5)
    decisions: list[tuple[Deal, int]] = []
    for i in range(40):
        deal = Deal(State.deal(rules, 77 + i))
        while not deal.over:
            choice = rng.choice(list(deal.legal))
            decisions.append((deal.copy(), choice))
            deal.step(choice)

    def us(fn: Callable[[], object], number: int) -> float:
        timer = timeit.Timer(fn, timer=time.process_time)
        return min(timer.repeat(number=number, repeat=5)) / number * 1e6

    n = len(decisions)

    def copy_only() -> None:
        for d, _ in decisions:
            d.copy()

    def copy_and_step() -> None:
        for d, c in decisions:
            d.copy().step(c)

    e = raw_env(preset=rules.preset, players=rules.players, variants=rules.variants)
    e.reset(seed=1)
    first = e.agent_selection
    mask, gen, legal_of = decisions[0][0].mask(), np.random.default_rng(0), np.flatnonzero
    out = [
        ("observation (lald.bots.learned.encoding.observe)",
         us(lambda: [observe(d.state, d.seat or 0, d.deciding) for d, _ in decisions], 3) / n),
        ("(building state.view(seat), which observe avoids)",
         us(lambda: [d.state.view(d.seat or 0) for d, _ in decisions[:200]], 3) / 200),
        ("legal mask (int8 array)", us(lambda: [d.mask() for d, _ in decisions], 3) / n),
        ("engine action, claim window, legal IDs (Deal.step)",
         (us(copy_and_step, 3) - us(copy_only, 3)) / n),
        ("PettingZoo last() without the observation", us(lambda: e.last(observe=False), 20000)),
        ("(PettingZoo observe(): the observation above)", us(lambda: e.observe(first), 20000)),
        ("the loop's random masked choice",
         us(lambda: int(legal_of(mask)[gen.integers(len(legal_of(mask)))]), 20000)),
    ]
    return out


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=300, help="episodes (deals) per run (default 300)")
    parser.add_argument("--runs", type=int, default=5,
                        help="runs per figure; the median is printed (default 5)")
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    print(machine.line())
    rules = Rules.make(args.preset, args.players)
    print(f"{rules.preset}, {rules.players} players; {args.episodes} episodes per run, "
          f"median of {args.runs} runs; agent steps per second on one core")
    rows = [
        ("native engine (lald.core, random legal actions)", native),
        ("claim window (lald.rl.deal, random legal IDs)", claim_window),
        ("PettingZoo AEC env() (last + step)", pettingzoo),
        ("Gymnasium lald/Seat-v0 vs random (learner steps)", gymnasium),
        ("OpenSpiel python_lald (apply_action)",
         lambda r, e, s: openspiel(r, e, s, tensors=False)),
        ("OpenSpiel python_lald (+ observation_tensor)",
         lambda r, e, s: openspiel(r, e, s, tensors=True)),
    ]
    base = None
    rates = {}
    for name, fn in rows:
        rate = rates[name] = measure(fn, rules, args.episodes, args.runs)
        base = base or rate
        print(f"  {name:52} {rate:9,.0f} /s   {rate / base:5.2f} x native")
    step_us = 1e6 / rates["PettingZoo AEC env() (last + step)"]
    print(f"where a PettingZoo step goes ({step_us:.1f} CPU microseconds in all; per call, best of 5):")
    counted = 0.0
    for name, value in parts(rules):
        print(f"  {name:52} {value:7.1f} us")
        if not name.startswith("("):
            counted += value
    rest = "the rest: AEC bookkeeping (agent_iter, dicts, rewards)"
    print(f"  {rest:52} {step_us - counted:7.1f} us")


if __name__ == "__main__":
    main()
