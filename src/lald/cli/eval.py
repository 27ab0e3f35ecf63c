"""``lald eval AGENT``: the standard evaluation of one agent against the ladder, one row per
opponent and preset (:mod:`lald.tournament.evaluate`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(sub: Any) -> None:
    """Add ``eval`` to the ``lald`` command."""
    from ..play.batch import backend_arguments
    from ..tournament.evaluate import DEFAULT_DEALS, LADDER, PLAYERS, PRESETS, SEED

    p = sub.add_parser(
        "eval", help="the standard evaluation of an agent: duplicate deals against the ladder",
        description=f"Evaluate one agent against the fixed ladder ({', '.join(LADDER)}) in "
                    f"duplicate deals of both presets ({' and '.join(PRESETS)}) at {PLAYERS} "
                    f"players, seed {SEED}: the agent in 3 seats, the opponent in 2, every deal "
                    "replayed with the seats rotated. Prints the agent's chips a deal minus each "
                    "opponent's with a 95% interval, one row per opponent and preset. Search bots "
                    "play a fixed number of worlds (no clock), so the same command gives the same "
                    "numbers. docs/bots.md describes the protocol.")
    p.add_argument("agent", metavar="AGENT",
                   help="a level (heuristic, expert, learned:file=W.npz), 'cmd:PROGRAM ARGS' "
                        "(docs/bot-protocol.md), or a policy file (agent.py, agent.pkl; W.npz for "
                        "learned weights)")
    p.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                   help=f"duplicate deal groups a row (default {DEFAULT_DEALS:,})")
    backend_arguments(p)
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="time an outside program may take per message (default 10)")
    p.add_argument("--json", action="store_true", help="print the rows as JSON (format lald-eval/1)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_eval)


def cmd_eval(args: argparse.Namespace) -> None:
    """Run the evaluation the flags describe and print its rows."""
    from ..bots.external import DEFAULT_TIMEOUT
    from ..play.batch import MAX_DEALS, BackendError, with_progress, workers_from_args
    from ..play.spec import parse_spec
    from ..tournament import evaluate as ev
    from .args import bot_guess, check_workers, fail, usage

    if not 1 <= args.deals <= MAX_DEALS:
        usage(f"--deals {args.deals}: give a number of deal groups from 1 to {MAX_DEALS:,}")
    timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
    if not timeout > 0:
        usage(f"--timeout {args.timeout}: give a positive number of seconds")
    try:
        text = ev.agent_text(args.agent)
        agent = ev.reproducible(parse_spec(text))
    except ValueError as err:
        usage(bot_guess(str(err), [args.agent]))
    check_workers(args)
    backend, jobs, address = workers_from_args(args, fail)
    evaluation = ev.Evaluation(agent, args.deals, timeout=timeout)
    played = "" if agent.text == text else f" (played as {agent.text}: its worlds, no clock)"
    print(f"lald eval {text}{played}: {args.deals} duplicate deal groups a row, {ev.PLAYERS} players, "
          f"seed {ev.SEED}; {evaluation.lineup()}; search bots play a fixed number of worlds, no clock; "
          f"{jobs} {'process(es)' if backend == 'process' else 'Ray worker(s)'}", file=sys.stderr, flush=True)

    from rich.console import Console

    try:
        rows = with_progress(lambda update: ev.run(evaluation, jobs, update, backend, address),
                             args.quiet or args.json, Console(file=sys.stderr))
    except BackendError as err:
        fail(str(err))
    if args.json:
        print(json.dumps(ev.to_json(evaluation, rows), indent=2, allow_nan=True))
        return
    print(f"{agent.text} against the ladder: agent − opponent in chips a deal, "
          f"{args.deals} duplicate deal groups, {ev.PLAYERS} players ({evaluation.lineup()}), seed {ev.SEED}")
    for line in ev.table_lines(rows):
        print(line)
    for opponent in evaluation.opponents:
        if opponent.text.endswith(ev.NO_CLOCK):
            print(f"{opponent.text.removesuffix(ev.NO_CLOCK)} plays as {opponent.text}: a fixed number "
                  "of worlds a decision, no clock")
