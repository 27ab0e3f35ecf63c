"""``lald tournament``: a duplicate tournament of bots, on every core, resumable."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    """Add ``tournament`` to the ``lald`` command."""
    from ..play.batch import backend_arguments
    from .args import rules_arguments, seed_arg

    p = sub.add_parser(
        "tournament", help="a duplicate tournament of bots (every deal replayed in every seat)",
        description="Play duplicate deals: each deal is replayed with the bots rotated through "
                    "every seat, so the luck of the cards cancels. Prints each bot's mean chips "
                    "per deal with a 95% interval, session win rate and decision times; writes "
                    "results.json and results.csv. Ctrl-C saves; the same command resumes.")
    rules_arguments(p)
    p.add_argument("--bots", action="append", default=[], metavar="A,B,...",
                   help="bots by level, comma-separated, e.g. greedy,random or heuristic,heuristic:-deny")
    p.add_argument("--bot", action="append", default=[], metavar="SPEC",
                   help="one more bot (repeatable): a level, LEVEL:-habit:key=value, or "
                        "'cmd:PROGRAM ARGS' for an outside program (docs/bot-protocol.md)")
    p.add_argument("--deals", type=int, default=100, help="duplicate deal groups (default 100)")
    p.add_argument("--seed", type=seed_arg, default=1, help="names the deals (default 1)")
    backend_arguments(p)
    p.add_argument("--out", default=None, metavar="DIR",
                   help="results and checkpoint directory (default tournaments/<hash of the setup>)")
    p.add_argument("--fresh", action="store_true", help="discard the checkpoint in --out and start over")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="time an outside program may take per message (default 10)")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the strengths with their intervals")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> None:
    """Run the tournament the flags describe, print its table and write its files."""
    from ..bots.external import DEFAULT_TIMEOUT
    from ..play.batch import MAX_DEALS, BackendError, CheckpointError, workers_from_args
    from ..play.spec import parse_specs
    from ..tournament import report as rep
    from ..tournament.duplicate import Checkpoint, Tournament
    from .args import bot_guess, check_workers, fail, out_dir, rules_from_args, usage

    rules = rules_from_args(args)
    if not args.bots and not args.bot:
        usage("name the bots: --bots greedy,random, or --bot SPEC (repeatable)")
    try:
        bots = parse_specs(args.bot, args.bots, rules)
    except ValueError as e:
        usage(bot_guess(str(e), [*args.bot, *",".join(args.bots).split(",")]))
    if not 1 <= args.deals <= MAX_DEALS:
        usage(f"--deals {args.deals}: give a number of deals from 1 to {MAX_DEALS:,}")
    timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
    if not timeout > 0:
        usage(f"--timeout {args.timeout}: give a positive number of seconds")
    check_workers(args)
    backend, jobs, address = workers_from_args(args, fail)
    t = Tournament(rules, tuple(bots), args.seed, timeout)
    out = out_dir(Path(args.out) if args.out else Path("tournaments") / t.key())
    try:
        checkpoint = Checkpoint(out, t, fresh=args.fresh)
    except (CheckpointError, OSError) as e:
        fail(str(e))

    from rich.console import Console

    console = Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160)
    err = Console(file=sys.stderr)
    resumed = sum(1 for g in checkpoint.done if g < args.deals)
    print(f"{rules.preset}, {rules.players} players"
          + (f" ({', '.join(rules.variants)})" if rules.variants else "")
          + f"; bots {', '.join(b.name for b in bots)}; {args.deals} deals × "
          f"{t.rotations} rotations; seed {args.seed}; {jobs} {_workers(backend)}; results in {out}"
          + (f"; resuming with {resumed} done" if resumed else ""), file=sys.stderr, flush=True)
    try:
        results = _run_with_progress(t, args.deals, (jobs, backend, address), checkpoint,
                                     quiet=args.quiet, console=err)
    except BackendError as e:
        fail(str(e))
    except KeyboardInterrupt:
        saved = sum(1 for g in checkpoint.done if g < args.deals)
        print(f"interrupted: {saved} of {args.deals} deals saved in {out}; "
              "run the same command again to resume", file=sys.stderr)
        raise SystemExit(130) from None

    report = rep.summarize(t, results)
    _print_report(console, report)
    json_path, csv_path = rep.write(report, out)
    console.print(f"wrote {json_path} and {csv_path}", highlight=False, soft_wrap=True)
    if args.plot:
        try:
            rep.plot(report, Path(args.plot))
        except OSError as e:
            fail(f"cannot write {args.plot}: {e.strerror}")
        console.print(f"wrote {args.plot}", highlight=False, soft_wrap=True)


def _workers(backend: str) -> str:
    return "process(es)" if backend == "process" else "Ray worker(s)"


def _run_with_progress(t: Any, deals: int, workers: tuple[int, str, str | None], checkpoint: Any,
                       quiet: bool, console: Any) -> Any:
    from ..play.batch import with_progress
    from ..tournament.duplicate import run

    jobs, backend, address = workers
    return with_progress(lambda update: run(t, deals, jobs, checkpoint, update, backend, address),
                         quiet, console)


def _print_report(console: Any, report: Any) -> None:
    from rich.table import Table

    from ..tournament.report import difference_lines, table_rows

    header, lines = table_rows(report)
    t = report.tournament
    table = Table(title=f"{report.deals} duplicate deals × {t.rotations} rotations, "
                        f"{t.rules.preset}, {t.players} players"
                        + (f" ({', '.join(t.rules.variants)})" if t.rules.variants else ""))
    for i, name in enumerate(header):
        table.add_column(name, justify="left" if i == 0 else "right")
    for line in lines:
        table.add_row(*line)
    console.print(table)
    for diff in difference_lines(report):
        console.print(diff, highlight=False, soft_wrap=True)
    for row in report.rows:
        if row.fallbacks:
            console.print(f"* {row.name} fell back to random in {sum(row.fallbacks.values())} of "
                          f"{row.seat_deals} seat-deals, e.g. {row.fallback_example}",
                          highlight=False, soft_wrap=True)
