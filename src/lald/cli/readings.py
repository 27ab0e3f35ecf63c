"""``lald readings``: what each reading of the texts does to the game, measured on paired deals."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

DESCRIPTION = """\
Play the same deals under several readings of the rules and report, side by side, what each
does to the game: length, how the deal unfolds, how often each rule acts, money, fairness
and how much the reading rewards skill, each with a 95% interval, and which differences
between readings are real (paired deals, Holm's correction).

A reading is PRESET[+VARIANT...][:OPTION=VALUE...][/PLAYERS], e.g. survivor, last-capture/4,
survivor+modern-laugh, survivor:single_takes_three=off (docs/readings/README.md).
Writes deals.csv (and deals.parquet with pyarrow), sessions.csv with --sessions,
summary.json, and with --report report.html and report.md. Ctrl-C saves; the same
command resumes.
"""


def register(sub: Any) -> None:
    """Add ``readings`` to the ``lald`` command."""
    from ..lab.sources import help_text
    from ..play.batch import backend_arguments
    from .args import seed_arg

    p = sub.add_parser("readings", help="what each reading of the rules does to the game (paired deals)",
                       description=DESCRIPTION + "\n\n" + help_text(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("readings", nargs="*", metavar="READING",
                   help="readings to compare, e.g. survivor last-capture survivor/4")
    p.add_argument("--standard", action="store_true",
                   help="add the standard set: both presets at 5, 4 and 3 players, and each "
                        "variant on each preset")
    p.add_argument("--bots", action="append", default=[], metavar="MIX",
                   help="who plays (repeatable; default heuristic): a level for every seat "
                        "(heuristic, random, ...) or one stronger bot among weaker ones "
                        "(heuristic,random; expert,heuristic) to measure skill")
    p.add_argument("--deals", type=int, default=1000, help="deals per reading and table (default 1000)")
    p.add_argument("--skill-deals", type=int, default=None, metavar="N",
                   help="deals per reading at the tables with a stronger bot among weaker ones "
                        "(default: --deals; a search bot is slow)")
    p.add_argument("--seed", type=seed_arg, default=1, help="names the deals (default 1)")
    p.add_argument("--sessions", action="store_true",
                   help="play whole sessions (cut for the dealer, the pot and balances carried, "
                        "tie-break deals): needed for the pot and session measurements")
    p.add_argument("--decompose", nargs=2, default=None, metavar=("A", "B"),
                   help="what each rule contributes: play reading A, reading B, each rule in "
                        "which they differ changed alone from A, and (when few differ) each pair, "
                        "on the same deals; give --bots random and a skilled level to tell "
                        "mechanics from the bots' response (no other readings)")
    p.add_argument("--sweep", default=None, metavar="OPTION=LOW..HIGH",
                   help="play each reading named (both presets if none) at every value of one number "
                        "option, e.g. prize=0..10, on the same deals, and plot where the dealer's edge "
                        "vanishes")
    p.add_argument("--base", default=None, metavar="READING",
                   help="compare every reading with this one (default: the first), or 'all' for every pair")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="results directory (default readings/<hash of the set-up>)")
    p.add_argument("--fresh", action="store_true", help="discard the results in --out and start over")
    p.add_argument("--report", action="store_true",
                   help="also write report.html (self-contained) and report.md with its plots")
    p.add_argument("--records", default=None, metavar="FILE_OR_DB",
                   help="measure the games people played instead: a dataset of lald db export-games "
                        "(JSON lines or .parquet) or a site's database URL (sqlite:///lald.db), the "
                        "figures by reading beside --bots' on the same deals (writes evidence.json in "
                        "--out if given)")
    backend_arguments(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_readings)


def cmd_readings(args: argparse.Namespace) -> None:
    """Run the readings the flags name, print the overview and write the files."""
    from ..lab.experiment import FIRST, Checkpoint, deals_in, per_table, run
    from ..lab.measure import Plan, tables_of
    from ..lab.reading import STANDARD, parse_reading, parse_readings
    from ..play.batch import MAX_DEALS, BackendError, CheckpointError, with_progress, workers_from_args
    from .args import check_workers, fail, out_dir, usage, with_nearest

    if args.records is not None:
        from .evidence import cmd_records

        cmd_records(args)
        return
    texts = ([*STANDARD] if args.standard else []) + list(args.readings)
    decomposition = None
    if args.decompose is not None:
        from ..lab.decompose import decompose

        if texts:
            usage("--decompose A B plays its own readings: name no others (and no --standard)")
        if args.base is not None:
            usage("--decompose A B compares every reading with A: leave out --base")
        try:
            decomposition = decompose(args.decompose[0], args.decompose[1], sessions=args.sessions)
        except ValueError as e:
            usage(with_nearest(str(e)))
        texts = [r.text for r in decomposition.readings()]
    bases = texts
    if args.sweep is not None:
        from ..lab.experiment import PRESETS
        from ..lab.sweep import parse_sweep, sweep_readings

        if decomposition is not None:
            usage("--sweep and --decompose each play their own readings: give one of them")
        try:
            swept = parse_sweep(args.sweep)
            bases = [r.text for r in parse_readings(texts)]
            texts = [r.text for r in sweep_readings(bases or PRESETS, *swept)]
        except ValueError as e:
            usage(with_nearest(str(e)))
    if not texts:
        usage("name the readings (e.g. survivor last-capture/4), or --standard")
    try:
        readings = parse_readings(texts)
        tables = tables_of(args.bots or ["heuristic"])
    except ValueError as e:
        usage(with_nearest(str(e)))
    if not 1 <= args.deals <= MAX_DEALS:  # (10**9 filled 14 GB before its first deal)
        usage(f"--deals {args.deals}: give a number of deals from 1 to {MAX_DEALS:,}")
    if args.skill_deals is not None and not 1 <= args.skill_deals <= MAX_DEALS:
        usage(f"--skill-deals {args.skill_deals}: give a number of deals from 1 to {MAX_DEALS:,}")
    base: str | None = FIRST
    if args.base == "all":
        base = None
    elif args.base is not None:
        try:
            base = parse_reading(args.base).text
        except ValueError as e:
            usage(with_nearest(str(e)))
        if base not in [r.text for r in readings]:
            usage(f"--base {args.base}: that reading is not among those played")
    if args.skill_deals is not None and all(t.hero is None for t in tables):
        # (seen before: ignored without a word)
        usage(f"--skill-deals {args.skill_deals}: no table has a stronger bot among weaker ones "
             "(give one with --bots, e.g. expert,heuristic)")
    check_workers(args)
    backend, jobs, address = workers_from_args(args, fail)
    plan = Plan(tuple(readings), tables, args.seed, args.sessions)
    out = out_dir(Path(args.out) if args.out else Path("readings") / plan.key())
    try:  # refuse another set-up now, before any work
        checkpoint = Checkpoint(out, plan, fresh=args.fresh)
        checkpoint.close()
    except (CheckpointError, OSError) as e:
        fail(str(e))
    counts = per_table(plan, args.deals, args.skill_deals)
    saved = sum(deals_in(plan, b["batch"]) for b in checkpoint.batches
                if b["batch"][2] < plan.units(plan.readings[b["batch"][0]], counts[b["batch"][1]]))
    unit = "sessions" if args.sessions else "deals"
    print(f"{len(readings)} reading(s) × {len(tables)} table(s) ({', '.join(t.name for t in tables)}); "
          f"{args.deals} deals each ({unit}); seed {args.seed}; {jobs} "
          f"{'process(es)' if backend == 'process' else 'Ray worker(s)'}; results in {out}"
          + (f"; resuming with {saved} deals done" if saved else ""),
          file=sys.stderr, flush=True)
    from rich.console import Console

    err = Console(file=sys.stderr)
    started = time.perf_counter()
    try:
        results = with_progress(
            lambda progress: run([] if decomposition else bases if args.sweep else readings,
                                 [*(args.bots or ["heuristic"])],
                                 args.deals, args.seed, args.sessions, jobs, backend, address, out,
                                 False, progress, base, args.skill_deals,
                                 tuple(args.decompose) if decomposition else None, args.sweep),
            quiet=args.quiet, console=err)
    except BackendError as e:
        fail(str(e))
    except KeyboardInterrupt:
        print(f"interrupted: finished batches are saved in {out}; run the same command again to resume",
              file=sys.stderr)
        raise SystemExit(130) from None
    elapsed = time.perf_counter() - started
    try:
        paths = results.write(out)
    except OSError as e:
        fail(f"cannot write the results in {out}: {e.strerror}")
    console = Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160)
    _print_overview(console, results.summary)
    if args.report:
        from ..lab.report import write_report

        run_info = {"command": _command(args), "seconds": elapsed, "cpu": results.cpu_seconds,
                    "cpu_total": results.cpu_total, "resumed": results.resumed, "backend": backend,
                    "jobs": jobs, "commit": _commit()}
        try:
            paths += write_report(results.summary, out, run_info)
        except OSError as e:
            fail(f"cannot write the report in {out}: {e.strerror}")
    console.print("wrote " + ", ".join(str(p) for p in paths), highlight=False, soft_wrap=True)
    console.print(f"played in {_duration(elapsed)}; the workers used "
                  f"{_duration(results.cpu_seconds, 'processor-')}"
                  + (f" ({_duration(results.cpu_total, 'processor-')} in all, with the saved results)"
                     if results.resumed else ""), highlight=False)


def _duration(seconds: float, kind: str = "") -> str:
    """``seconds`` for people: seconds under a minute (a short run "took 0.0 minutes").

    >>> _duration(4.2), _duration(3000), _duration(42, "processor-")
    ('4.2 seconds', '50.0 minutes', '42.0 processor-seconds')
    """
    return f"{seconds:.1f} {kind}seconds" if seconds < 60 else f"{seconds / 60:.1f} {kind}minutes"


def _command(args: argparse.Namespace) -> str:
    """The command line that makes these results (progress and --fresh left out)."""
    import shlex

    words = ["lald", "readings", *(["--standard"] if args.standard else []), *args.readings]
    words += ["--decompose", *args.decompose] if args.decompose else []
    words += ["--sweep", args.sweep] if args.sweep else []
    for mix in args.bots:
        words += ["--bots", mix]
    words += ["--deals", str(args.deals)]
    words += ["--skill-deals", str(args.skill_deals)] if args.skill_deals else []
    words += ["--seed", str(args.seed)]
    words += ["--sessions"] if args.sessions else []
    words += ["--base", args.base] if args.base else []
    words += ["--report"] if args.report else []
    if args.backend != "process":
        words += ["--backend", args.backend]
    words += ["--jobs", str(args.jobs)] if args.jobs else []
    words += ["--address", args.address] if args.address else []
    words += ["--out", args.out] if args.out else []
    return " ".join(shlex.quote(w) for w in words)


def _commit() -> str | None:
    """The git commit lald runs from (noting uncommitted changes to its code), if any."""
    import subprocess

    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
        code = str(here.parent)  # src/lald: changes to the docs do not change the results
        status = ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no", "--", code]
        dirty = subprocess.run(status, capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + (" (with uncommitted changes)" if dirty else "")


def _print_overview(console: Any, summary: dict[str, Any]) -> None:
    from rich.table import Table

    from ..lab.report import cell

    for table in summary["tables"]:
        count = next((e["deals"] for e in table["readings"] if "deals" in e), summary["deals"])
        t = Table(title=f"{table['table']}: {count} deals per reading")
        hero = table["hero"] is not None
        heads = ["reading", "turns", "lie-downs", "survivor = last capture", "residue",
                 "dealer chips", "balance"] + (["hero's gain"] if hero else [])
        for i, h in enumerate(heads):
            t.add_column(h, justify="left" if i == 0 else "right")
        for e in table["readings"]:
            if "measures" not in e:
                continue
            m = e["measures"]
            line = [e["reading"], cell(m["turns"]), cell(m["lie_downs"]), cell(m["survivor_last"], pct=True),
                    cell(m["residue"]), cell(e["by_position"]["chips"][0]),
                    cell(e["fairness"]["balance"])]
            if hero:
                line.append(cell(e["skill"]["gain"]))
            t.add_row(*line)
        console.print(t)
        real = [d for d in table["differences"] if d["real"]]
        console.print(f"{len(real)} of {len(table['differences'])} differences between readings are real "
                      "(Holm-corrected p < 0.05); summary.json holds them all", highlight=False)
    if "decomposition" in summary:
        _print_decomposition(console, summary["decomposition"])
    if "sweep" in summary:
        _print_sweep(console, summary["sweep"])


def _print_sweep(console: Any, sweep: dict[str, Any]) -> None:
    """The dealer's edge at each value of the swept option, and where it vanishes."""
    from rich.table import Table

    from ..lab.report import cell

    for table, lines in sweep["tables"].items():
        t = Table(title=f"{table}: the dealer's edge by {sweep['option']}")
        t.add_column(sweep["option"], justify="right")
        for line in lines:
            t.add_column(line["reading"], justify="right")
        for k, v in enumerate(sweep["values"]):
            t.add_row(str(v), *(cell(line["points"][k]["edge"], signed=True) for line in lines))
        console.print(t)
        for line in lines:
            cross = line["crossing"]
            where = f"at {cross:g}" if cross is not None else "nowhere in the range"
            console.print(f"{line['reading']}: the edge's interval covers zero at "
                          f"{', '.join(map(str, line['covers_zero'])) or 'no value'}; its mean crosses "
                          f"zero {where}", highlight=False)


def _print_decomposition(console: Any, d: dict[str, Any]) -> None:
    """What each rule contributes, in the main measurements, at every table."""
    from rich.table import Table

    from ..lab.report import cell

    names = list(d["tables"])
    t = Table(title=f"what each rule contributes: {d['target']} minus {d['base']}, per deal "
                    "(* real after Holm's correction)")
    t.add_column("change")
    t.add_column("measure")
    for n in names:
        t.add_column(n, justify="right")
    index = {n: {(e["kind"], tuple(e["rules"]), e["measure"]): e for e in es}
             for n, es in d["tables"].items()}
    changes: list[tuple[str, tuple[str, ...]]] = [("total", ())]
    changes += [("rule", (r["rule"],)) for r in d["rules"]]
    for kind, rules in changes:
        for measure in ("turns", "residue", "chips_0", "win_0"):
            cells = []
            for n in names:
                e = index[n].get((kind, rules, measure))
                pct = measure.startswith("win_")
                cells.append("–" if e is None else
                             cell(e, pct=pct, signed=True) + (" *" if e["real"] else ""))
            t.add_row("all rules" if kind == "total" else rules[0], measure, *cells)
    console.print(t)
