"""Training throughput: the self-play actors' agent steps per second, with the share the
network, the observation and the environment take, and the learner's samples per second.

An *agent step* is one decision of one seat (a turn action, or a claim or pass in a claim
window), forced ones counted; a *sample* is a decision with more than one legal action,
the ones an actor records. The actor (:func:`lald.rl.training.selfplay.play`, numpy, the engine's
claim window as the environment) is timed as ``lald train`` runs it:

- DMC returns (``--targets return``), self-play: the network in every seat (epsilon 0.02);
- DMC returns, warm start: the heuristic in every seat (epsilon 0.1), the first rounds;
- advantage targets (``--targets advantage``, the default and the shipped networks'), half
  the seats the heuristic's: every legal action of a decision is a sample, valued by the
  heuristic's play-out after it in the true deal; and its warm start;
- world targets (``--targets worlds``, 32 worlds), half the seats the heuristic's: every
  legal action valued by its mean over 32 hidden layouts drawn from what the seat has
  seen (the expert's draw and roll-outs), never the true deal's;

and its time taken apart: the network's forward passes (numpy), the observation and the
network's input features, the heuristic's decisions, the play-outs of the advantage
targets, and the rest, the environment (the engine, the claim window, the legal IDs). The
learner (PyTorch, one thread) is timed on mini-batches of the default size. Every figure
is the median of ``--runs`` runs in this process's CPU time (the machine's cores are
shared: CPU time is what the work costs, whatever else runs), printed beside the
machine's line.

    python bench/train.py [--deals N] [--runs K] [--preset P] [--hidden 512,256,256]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import torch

import machine
from lald.core import Rules
from lald.rl.training.selfplay import ActorTask, play
from lald.rl.training.train import TorchQ, numpy_network


def actor(rules: Rules, network: object, deals: int, runs: int, epsilon: float,
          share: float, targets: str) -> dict[str, float]:
    """Median figures of ``runs`` actor runs of ``deals`` deals."""
    rows = []
    for run in range(runs):
        c0 = time.process_time()
        task = ActorTask(rules, 1000 + run, deals, epsilon, share, targets, 32)
        batch = play(task, network)  # type: ignore[arg-type]
        cpu = time.process_time() - c0
        wall = batch.seconds["total"]
        shares = {k: batch.seconds[k] / wall for k in ("network", "features", "heuristic", "rollouts")}
        shares["environment"] = 1.0 - sum(shares.values())
        rows.append({"steps/s": batch.steps / cpu, "samples/s": len(batch.targets) / cpu,
                     "deals/s": deals / cpu, **shares})
    return {k: statistics.median(r[k] for r in rows) for k in rows[0]}


def learner(model: TorchQ, batch_size: int, runs: int, steps: int = 20) -> float:
    """Median samples per CPU second of the learner's mini-batch steps."""
    from lald.bots.learned.network import ACTION_SIZE, STATE_SIZE

    rng = np.random.default_rng(0)
    states = torch.from_numpy(rng.random((batch_size, STATE_SIZE), np.float32))
    actions = torch.from_numpy(rng.random((batch_size, ACTION_SIZE), np.float32))
    targets = torch.from_numpy(rng.normal(size=batch_size).astype(np.float32))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    rates = []
    for _ in range(runs):
        c0 = time.process_time()
        for _ in range(steps):
            loss = torch.nn.functional.mse_loss(model(states, actions), targets)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
        rates.append(steps * batch_size / (time.process_time() - c0))
    return statistics.median(rates)


def decisions(rules: Rules, deals: int) -> tuple[float, float, int]:
    """The shipped ``learned`` level's decision times (median and 99th percentile, ms of
    CPU time, every turn and claim window with a choice) over ``deals`` deals against
    four heuristic seats, and how many decisions were timed."""
    import random

    from lald.bots import make_bot
    from lald.bots.learned.network import LearnedBot
    from lald.core import State
    from lald.play.loop import play_deal

    times: list[float] = []

    class Timed(LearnedBot):
        def _choose(self, view, deciding, ids, heuristic=None):  # type: ignore[no-untyped-def]
            c0 = time.process_time()
            out = super()._choose(view, deciding, ids, heuristic)
            if len(ids) > 1:
                times.append(time.process_time() - c0)
            return out

    for d in range(deals):
        bots = [Timed(0, rules, random.Random(d))] + [make_bot("heuristic", s, rules, random.Random(s))
                                                       for s in range(1, rules.players)]
        play_deal(State.deal(rules, seed=d), bots)
    times.sort()
    return statistics.median(times) * 1e3, times[int(0.99 * (len(times) - 1))] * 1e3, len(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=100, help="deals an actor run plays (default 100)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--preset", default="survivor")
    p.add_argument("--players", type=int, default=5)
    p.add_argument("--hidden", default="512,256,256")
    p.add_argument("--batch", type=int, default=512)
    args = p.parse_args()
    torch.set_num_threads(1)
    print(machine.line())
    rules = Rules.make(preset=args.preset, players=args.players)
    torch.manual_seed(0)
    model = TorchQ(tuple(int(x) for x in args.hidden.split(",")))
    network = numpy_network(model)
    print(f"{args.preset}, {args.players} players, network {args.hidden}; median of {args.runs} runs "
          f"of {args.deals} deals, CPU time of one process")
    print(f"{'actor':<34} {'steps/s':>8} {'samples/s':>10} {'deals/s':>8} {'network':>8} "
          f"{'obs+feat':>9} {'heuristic':>10} {'roll-outs':>10} {'environment':>12}")
    for name, eps, share, targets in (("DMC returns, self-play", 0.02, 0.0, "return"),
                                      ("DMC returns, warm start", 0.1, 1.0, "return"),
                                      ("advantage targets, half heuristic", 0.02, 0.5, "advantage"),
                                      ("advantage targets, warm start", 0.1, 1.0, "advantage"),
                                      ("world targets (32), half heuristic", 0.02, 0.5, "worlds")):
        r = actor(rules, network, args.deals, args.runs, eps, share, targets)
        print(f"{name:<34} {r['steps/s']:>8,.0f} {r['samples/s']:>10,.0f} {r['deals/s']:>8,.0f} "
              f"{r['network']:>8.0%} {r['features']:>9.0%} {r['heuristic']:>10.0%} {r['rollouts']:>10.0%} "
              f"{r['environment']:>12.0%}")
    rate = learner(model, args.batch, args.runs)
    print(f"learner (PyTorch, 1 thread, batch {args.batch}): {rate:,.0f} samples/s")
    p50, p99, count = decisions(rules, args.deals)
    print(f"the shipped learned level (numpy): decision median {p50:.2f} ms, p99 {p99:.2f} ms of CPU time "
          f"({count} decisions with a choice, {args.deals} deals against the heuristic)")
    print(machine.line())


if __name__ == "__main__":
    main()
