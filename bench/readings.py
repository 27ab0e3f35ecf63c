"""Readings throughput: deals per second per worker, on worker processes and on Ray, at 1
and 2 workers, in one run; and the cost of a deal at tables of search bots.

    python bench/readings.py [--deals 400] [--repeats 3] [--bots heuristic] [--expert 4]

Each figure is the median of ``--repeats`` runs of ``--deals`` deals per worker of the
standard readings in turn (``survivor``, ``last-capture``, ...), timed from the first
batch sent to the last result in; Ray's local instance is started once, before the
timing, and its start-up is printed apart. Ratios are against one worker process in the
same run. ``--expert N`` also times ``N`` deals of an all-``expert`` table and of one
expert among heuristics, in this process, and says what a 64-core Ray cluster would do
with expert tables at that cost (no clock in readings: the expert plays its 64 worlds);
those costs are processor time, which the machine's load moves far less than wall time.
Figures move with the machine's load: compare them only within one run.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import time

import machine
from lald.lab.experiment import BATCH_DEALS
from lald.lab.measure import Plan, ReadingsJob, tables_of
from lald.lab.reading import standard
from lald.play.batch import run_batches


def batches(plan: Plan, deals: int) -> list[tuple[int, int, int, int]]:
    """``deals`` deals spread over the plan's readings, in batches of the readings' size."""
    out = []
    k = len(plan.readings)
    for i, first in enumerate(range(0, deals, BATCH_DEALS)):
        out.append((i % k, 0, first, min(first + BATCH_DEALS, deals)))
    return out


def timed(plan: Plan, deals: int, backend: str, jobs: int) -> float:
    """Seconds to play ``deals`` deals on ``jobs`` workers of ``backend``."""
    job = ReadingsJob(plan)
    start = time.perf_counter()
    for _ in run_batches(job, batches(plan, deals), backend, jobs):
        pass
    return time.perf_counter() - start


def main() -> None:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=400, help="deals per worker per run (default 400)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--bots", default="heuristic")
    ap.add_argument("--expert", type=int, default=0, metavar="N", help="also time N deals at expert tables")
    args = ap.parse_args()
    print(machine.line())
    print(f"load average at the start: {os.getloadavg()[0]:.2f} (other work slows the figures)")
    plan = Plan(tuple(standard()), tables_of([args.bots]), seed=1)
    rows: list[tuple[str, int, float]] = []
    try:
        import ray
    except ImportError:
        ray = None
    for backend in ("process", "ray"):
        if backend == "ray":
            if ray is None:
                print("ray: not installed (pip install 'lald[ray]'); skipped")
                continue
            start = time.perf_counter()
            ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
            print(f"ray: local instance with 2 CPUs started in {time.perf_counter() - start:.1f} s")
        for jobs in (1, 2):
            deals = args.deals * jobs
            timed(plan, min(deals, 2 * BATCH_DEALS * jobs), backend, jobs)  # warm the workers
            runs = [timed(plan, deals, backend, jobs) for _ in range(args.repeats)]
            rows.append((backend, jobs, deals / statistics.median(runs)))
        if backend == "ray":
            ray.shutdown()
    base = rows[0][2]
    print(f"{args.bots} tables, standard readings, {args.deals} deals per worker, median of {args.repeats}")
    print(f"{'backend':8} {'workers':>7} {'deals/s':>9} {'per worker':>11} {'vs process x1':>14}")
    for backend, jobs, rate in rows:
        print(f"{backend:8} {jobs:>7} {rate:>9.1f} {rate / jobs:>11.1f} {rate / jobs / base:>13.2f}x")
    if args.expert:
        for mix in ("expert", "expert,heuristic"):
            p = Plan(tuple(standard()), tables_of([mix]), seed=1)
            job = ReadingsJob(p)
            start, cpu = time.perf_counter(), time.process_time()
            for i in range(args.expert):  # deal i of reading i mod 12: the readings' costs differ
                job.run((i % len(p.readings), len(p.tables) - 1, i, i + 1))
            wall = (time.perf_counter() - start) / args.expert
            cost = (time.process_time() - cpu) / args.expert
            print(f"{mix} tables ({args.expert} deals across the standard readings): {cost:.3f} "
                  f"processor-seconds a deal ({wall:.3f} s of wall time)")
            if mix == "expert":
                per_hour = 64 / cost * 3600
                standard_set = 12 * 10_000 * cost / 64 / 60
                print(f"  a 64-core Ray cluster of such cores: about {per_hour:,.0f} deals an hour; "
                      f"--standard --deals 10000 ({12 * 10_000:,} deals) in about {standard_set:.0f} minutes")


if __name__ == "__main__":
    main()
