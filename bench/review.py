"""Review speed: seconds for ``lald review RECORD --seat 1`` on one finished deal, one core.

Deals are played by bots: seat 1 by ``--player`` (default ``greedy``, a player who makes
mistakes to review), the others by the ``heuristic``; dealers rotate.  Each record is
reviewed by the command itself (a fresh ``lald`` process, as a person runs it, with the
default number of sampled deals unless ``--worlds``), and for comparison in the same run:

* ``replay``: ``lald replay RECORD --json`` on the same record, the start-up and record
  loading every command pays;
* ``in-process``: :func:`lald.coach.review.review_deal` alone, without the start-up.

The review runs in one process on one core (pinned with ``taskset -c 0`` where that
exists).  Prints, per preset, the median over the deals (with min and max), the decisions
with a choice per deal, and the ratio of the review's median to replay's.

    python bench/review.py [--deals N] [--worlds W] [--player LEVEL] [--preset P]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import machine
from lald.bots import make_bot
from lald.coach.review import DEFAULT_WORLDS, review_deal
from lald.core import Rules, State
from lald.play.loop import play_deal
from lald.record import Record


def deal(rules: Rules, seed: int, player: str) -> State:
    """One finished deal: seat 1 played by ``player``, the others by the heuristic."""
    state = State.deal(rules, seed, dealer=seed % rules.players)
    bots = [make_bot(player if s == 1 else "heuristic", s, rules, random.Random(seed * 31 + s))
            for s in range(rules.players)]
    return play_deal(state, bots)


def timed(command: list[str]) -> float:
    """Seconds for ``command`` to run to its end (it must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=9)
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    parser.add_argument("--player", default="greedy")
    parser.add_argument("--preset", action="append", default=[])
    args = parser.parse_args()
    print(machine.line())
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    lald = [*pin, sys.executable, "-m", "lald"]
    print(f"lald review --seat 1 --worlds {args.worlds}; seat 1 plays {args.player}, the others heuristic; "
          f"{args.deals} deals per preset" + ("; pinned to core 0" if pin else ""))
    with tempfile.TemporaryDirectory() as tmp:
        for preset in args.preset or ["survivor", "last-capture"]:
            rules = Rules.make(preset)
            review_s: list[float] = []
            replay_s: list[float] = []
            inside_s: list[float] = []
            choices: list[int] = []
            for d in range(args.deals):
                state = deal(rules, 1000 + d, args.player)
                path = Path(tmp) / f"{preset}-{d}.json"
                path.write_text(Record.from_state(state).dumps())
                replay_s.append(timed([*lald, "replay", str(path), "--json"]))
                review = [*lald, "review", str(path), "--seat", "1", "--worlds", str(args.worlds)]
                review_s.append(timed(review))
                start = time.perf_counter()
                done = review_deal(state, 1, worlds=args.worlds)
                inside_s.append(time.perf_counter() - start)
                choices.append(len(done.choices))
            for name, values in (("review", review_s), ("replay", replay_s), ("in-process", inside_s)):
                print(f"  {preset:12} {name:10} median {statistics.median(values):6.2f} s  "
                      f"(min {min(values):.2f}, max {max(values):.2f})")
            print(f"  {preset:12} decisions with a choice per deal: median {statistics.median(choices):g} "
                  f"(min {min(choices)}, max {max(choices)}); review / replay "
                  f"{statistics.median(review_s) / statistics.median(replay_s):.1f}x")


if __name__ == "__main__":
    main()
