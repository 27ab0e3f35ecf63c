"""Play-outs per second and the expert's decision time, the compiled kernel beside the pure path.

Both play the same dealt positions (``FastState.from_state`` of seeded deals, made before
the clock starts) to their end with ``claim_p = 0.5``, with the same seed per run, so they
play the same moves: the compiled kernel (``lald.core._kernel``, what
``lald.core.fast.playout.random_outcome`` dispatches to) and ``random_outcome_py`` (the pure
reference).  Moves are counted once, from a traced pure play-out of every position with
each run's seed (the traces are not timed), as bench/playout.py counts them.  Each run
times both paths in turn, so a load on the machine hits them alike; printed: the median of
the runs with min and max, the ratio of the medians and the median of the per-run ratios,
and the machine's reference speed (``sum(range(1000))``) with the figures scaled to the
issue's reference core (8.5 µs).  Every time is this process's processor time
(``time.process_time``, the reference speed too), so that other work on a shared machine
does not count; the expert's decisions at its defaults, whose budget is wall time, are
printed in wall time as well.

The heuristic's play-outs (the search bots' roll-outs, ``lald.bots.kernel.heuristic_outcome``
with the level's tables) are timed the same way from the same positions: the compiled
``scored_outcome`` beside ``scored_outcome_py``.  They draw no random numbers.

Dealing: ``State.deal`` of ``--deals`` seeds (the deck's SplitMix64 shuffle, compiled or
pure, and the engine's setting out of the hands), and the search's world draws
(``lald.bots.sampler.sample`` from what seat 0 knows at the expert's turns below, 20 worlds
each, every preset's face-down sets included), each path in turn per run.

Then the expert at its defaults (``make_bot("expert")``: 80 ms, at most 160 worlds) decides
``--decisions`` turns of seat 0, taken from deals the heuristic plays from dealt positions
(every turn of seat 0, forced ones included, as docs/strength.md §6 counts them), once with
the kernel and once with the dispatch switched to the pure path in this process
(:func:`lald.core.compiled.pure_path`, what ``LALD_KERNEL=python`` does), alternating per
position, a fresh bot with the same seed each time; only ``act`` is timed.  Then again
with no time limit (``time_limit=inf``: the 160 worlds decide, as in the readings
laboratory), where both paths make the same decisions (checked) and only the time
differs.  Printed: median and 99th percentile, all turns and turns with a choice.

    python bench/kernel.py [--deals N] [--runs K] [--preset P] [--players N] [--decisions D]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections.abc import Callable

import machine
from lald.bots import make_bot
from lald.bots.heuristic import level_params
from lald.bots.kernel import _claim, tables
from lald.bots.knowledge import Knowledge, read
from lald.bots.sampler import sample
from lald.core import Rules, State
from lald.core.compiled import KERNEL, kernel_status, pure_path
from lald.core.fast import FastState
from lald.core.fast.playout import random_outcome_py, scored_outcome_py
from lald.play.spec import parse_spec

REFERENCE_US = 8.5  # sum(range(1000)) on the core of issue 22's figures


clock = time.process_time  # this process's processor time: a shared machine's load does not count


def timed(play: Callable[..., object], states: list[FastState], seed: int) -> float:
    """Seconds to play every state to its end (states left unchanged)."""
    rng = random.Random(seed)
    start = clock()
    for s in states:
        play(s, rng, 0.5, None)
    return clock() - start


def moves(states: list[FastState], seed: int) -> int:
    """The moves the play-outs of ``timed`` make with this seed."""
    rng = random.Random(seed)
    trace: list[int] = []
    for s in states:
        random_outcome_py(s, rng, 0.5, trace)
    return len(trace)


def heuristic_timed(play: Callable[..., object], states: list[FastState]) -> float:
    """Seconds to play every state to its end with the heuristic (states unchanged)."""
    h = tables(states[0].rules, level_params(states[0].rules))
    best, others = h.best, h.others
    start = clock()
    for s in states:
        play(s, best, others, _claim, None)
    return clock() - start


def heuristic_moves(states: list[FastState]) -> int:
    """The moves the heuristic's play-outs of ``heuristic_timed`` make."""
    h = tables(states[0].rules, level_params(states[0].rules))
    trace: list[int] = []
    for s in states:
        scored_outcome_py(s, h.best, h.others, _claim, trace)
    return len(trace)


def turn_positions(rules: Rules, count: int) -> list[State]:
    """Every turn of seat 0 (``count`` of them) in deals the heuristic plays."""
    out: list[State] = []
    d = 0
    while len(out) < count:
        state = State.deal(rules, seed=70_000 + d, dealer=d % rules.players)
        bots = [make_bot("heuristic", s, rules, random.Random(d * 7 + s)) for s in range(rules.players)]
        while not state.over and len(out) < count:
            claimed = False
            for seat in state.claim_order():
                claims = state.claims(seat)
                choice = bots[seat].claim(state.view(seat), claims) if claims else None
                if choice is not None:
                    state.apply(choice)
                    claimed = True
                    break
            if claimed:
                continue
            mover = state.to_move
            assert mover is not None
            if mover == 0:
                out.append(state.clone())
            state.apply(bots[mover].act(state.view(mover), state.turn_actions()))
        d += 1
    return out


def decision_ms(state: State, seed: int, pure: bool, spec: str = "expert") -> tuple[float, float, object]:
    """Milliseconds (processor time, and wall time) the expert of ``spec`` takes to choose
    seat 0's turn in ``state``, and its choice."""
    bot = parse_spec(spec).make(0, state.rules, random.Random(seed))
    view, legal = state.view(0), state.turn_actions()
    with pure_path() if pure else contextlib.nullcontext():
        start, wall = clock(), time.perf_counter()
        action = bot.act(view, legal)
        return (clock() - start) * 1e3, (time.perf_counter() - wall) * 1e3, action


def deal_timed(rules: Rules, seeds: range, pure: bool) -> float:
    """Seconds to deal every seed (``State.deal``)."""
    with pure_path() if pure else contextlib.nullcontext():
        start = clock()
        for seed in seeds:
            State.deal(rules, seed=seed, dealer=seed % rules.players)
        return clock() - start


def draws_timed(known: list[Knowledge], worlds: int, seed: int, pure: bool) -> float:
    """Seconds to draw ``worlds`` worlds from each knowledge (``sampler.sample``)."""
    rng = random.Random(seed)
    with pure_path() if pure else contextlib.nullcontext():
        start = clock()
        for k in known:
            for _ in range(worlds):
                sample(k, rng)
        return clock() - start


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preset", default="survivor")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--decisions", type=int, default=300)
    args = parser.parse_args()
    rules = Rules.make(args.preset, args.players)
    states = [FastState.from_state(State.deal(rules, seed=i, dealer=i % rules.players))
              for i in range(args.deals)]
    compiled = KERNEL.playing()
    kernel = compiled.random_outcome if compiled is not None else None
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
    scored_paths: dict[str, Callable[..., object]] = {"pure": scored_outcome_py}
    if compiled is not None:
        scored_paths["compiled"] = compiled.scored_outcome
    h_deals: dict[str, list[float]] = {name: [] for name in scored_paths}
    h_rates: dict[str, list[float]] = {name: [] for name in scored_paths}
    h_count = heuristic_moves(states)
    for _run in range(args.runs):
        for name, play in scored_paths.items():
            seconds = heuristic_timed(play, states)
            h_deals[name].append(args.deals / seconds)
            h_rates[name].append(h_count / seconds)
    names = ["compiled", "pure"] if kernel is not None else ["pure"]
    positions = turn_positions(Rules.make(args.preset, args.players), max(args.decisions, 40))
    deal_rates: dict[str, list[float]] = {name: [] for name in names}
    draw_rates: dict[str, list[float]] = {name: [] for name in names}
    known = [read(p.view(0)) for p in positions]
    known += [read(p.view(0)) for p in turn_positions(Rules.make("last-capture", args.players), 100)]
    known = [k for k in known if k.others]
    for run in range(args.runs):
        for name in names:
            seeds = range(run * args.deals, (run + 1) * args.deals)
            deal_rates[name].append(args.deals / deal_timed(rules, seeds, name == "pure"))
            draw_rates[name].append(len(known) * 20 / draws_timed(known, 20, run, name == "pure"))
    times: dict[str, list[float]] = {name: [] for name in names}
    walls: dict[str, list[float]] = {name: [] for name in names}
    worlds_only: dict[str, list[float]] = {name: [] for name in names}
    choice: list[bool] = []
    agree = True
    for i, state in enumerate(positions[:args.decisions]):
        choice.append(len(state.turn_actions()) > 1)
        for name in (sorted(times) if i % 2 else sorted(times, reverse=True)):
            cpu, wall, _ = decision_ms(state, i, name == "pure")
            times[name].append(cpu)
            walls[name].append(wall)
        made = []
        for name in (sorted(times) if i % 2 else sorted(times, reverse=True)):
            cpu, _, action = decision_ms(state, i, name == "pure", "expert:time_limit=inf")
            worlds_only[name].append(cpu)
            made.append(action)
        agree = agree and made[0] == made[-1]
    calib = machine.reference_us(cpu=True)
    scale = calib / REFERENCE_US
    print(f"rules: {args.preset}, {args.players} players; {args.runs} runs of {args.deals} "
          f"random play-outs (claim_p 0.5) from dealt positions, one core; processor time")
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
    h_labels = {"pure": "pure (scored_outcome_py)", "compiled": "compiled (_kernel.scored_outcome)"}
    print(f"heuristic play-outs (the level's tables, the search bots' roll-out), {args.runs} runs "
          "from the same positions:")
    for name in scored_paths:
        d, m = h_deals[name], h_rates[name]
        print(f"  {h_labels[name]:33s} {statistics.median(d):12,.0f} play-outs/s (min {min(d):,.0f}, "
              f"max {max(d):,.0f})  {statistics.median(m) / 1e6:7.2f} M moves/s "
              f"(min {min(m) / 1e6:.2f}, max {max(m) / 1e6:.2f})")
    print(f"  moves per play-out: {h_count / args.deals:.1f}")
    if "compiled" in scored_paths:
        ratios = [c / p for c, p in zip(h_deals["compiled"], h_deals["pure"], strict=True)]
        ratio = statistics.median(h_deals["compiled"]) / statistics.median(h_deals["pure"])
        print(f"  ratio compiled / pure: {ratio:.1f}x (median of per-run ratios "
              f"{statistics.median(ratios):.1f}x, min {min(ratios):.1f}x, max {max(ratios):.1f}x)")
    print(f"dealing, {args.runs} runs: State.deal of {args.deals} seeds; world draws (sampler.sample), "
          f"20 from each of {len(known)} seats' knowledge (turns of seat 0 under {args.preset} "
          "and last-capture)")
    for name in names:
        d, w = deal_rates[name], draw_rates[name]
        print(f"  {name:9s} {statistics.median(d):10,.0f} deals/s (min {min(d):,.0f}, max {max(d):,.0f});"
              f"  {statistics.median(w):10,.0f} worlds/s (min {min(w):,.0f}, max {max(w):,.0f})")
    if kernel is not None:
        ratio_deals = statistics.median(deal_rates["compiled"]) / statistics.median(deal_rates["pure"])
        ratio_draws = statistics.median(draw_rates["compiled"]) / statistics.median(draw_rates["pure"])
        print(f"  ratio compiled / pure: deals {ratio_deals:.1f}x, worlds {ratio_draws:.1f}x")
    if choice:
        chosen = sum(choice)
        for title, found in (("defaults: 80 ms, at most 160 worlds; processor time", times),
                             ("defaults: 80 ms, at most 160 worlds; wall time", walls),
                             ("no time limit: 160 worlds decide; processor time", worlds_only)):
            print(f"expert ({title}) turn decisions, seat 0 of {args.preset}, {args.players} players: "
                  f"{len(choice)} turns ({chosen} with a choice), each decided both ways:")
            for name, values in found.items():
                with_choice = [v for v, c in zip(values, choice, strict=True) if c]
                print(f"  {'kernel' if name == 'compiled' else 'pure (dispatch switched off)':29s} "
                      f"all turns median {statistics.median(values):6.1f} ms, p99 {p99(values):6.1f} ms; "
                      f"with a choice median {statistics.median(with_choice):6.1f} ms, "
                      f"p99 {p99(with_choice):6.1f} ms")
        print(f"  with no time limit both paths made the same {len(choice)} decisions: {agree}")
    print(machine.line())
    print(f"in this process's processor time sum(range(1000)) takes {calib:.1f} µs")
    print(f"scaled to the reference core (sum(range(1000)) in {REFERENCE_US} µs):")
    for name in paths:
        print(f"  {labels[name]:27s} {statistics.median(deals[name]) * scale:12,.0f} play-outs/s  "
              f"{statistics.median(rates[name]) * scale / 1e6:7.2f} M moves/s")
    for name in scored_paths:
        print(f"  heuristic, {name:16s} {statistics.median(h_deals[name]) * scale:12,.0f} play-outs/s  "
              f"{statistics.median(h_rates[name]) * scale / 1e6:7.2f} M moves/s")


if __name__ == "__main__":
    main()
