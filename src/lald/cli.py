"""The ``lald`` command: demo, replay, legal, deal, and the commands of the other parts.

Every sub-command is a ``register(subparsers)`` function; the parts that need heavy
libraries (the terminal table, the server, tournaments) import them only when run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from .core import LaidDown, Rules, RulesError, State
from .record import Record, RecordError, load, replay_summary

#: Modules that add sub-commands with ``register(subparsers)``.
EXTENSIONS: list[str] = ["lald.tui.command", "lald.sim.cli", "lald.sim.readings_cli", "lald.web.serve"]


def rules_arguments(parser: argparse.ArgumentParser) -> None:
    """The rules flags every command shares."""
    parser.add_argument("--preset", default="survivor", help="survivor (default) or last-capture")
    parser.add_argument("--players", type=int, default=5, help="3, 4 or 5 (default 5)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME",
                        help="modern-laugh, low-stakes or silent (repeatable)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a single option of RULES.md, e.g. prize=7 (repeatable)")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the flags name; a bad name exits with a one-line error."""
    options: dict[str, Any] = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep:
            fail(f"--option {item!r}: write NAME=VALUE, e.g. prize=7")
        options[name.strip()] = value.strip()
    try:
        return Rules.make(args.preset, args.players, args.variant, options)
    except RulesError as e:
        fail(str(e))


def fail(message: str) -> NoReturn:
    """Print one line on standard error and exit with status 1."""
    print(f"lald: {message}", file=sys.stderr)
    raise SystemExit(1)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")


def _load(path: str) -> tuple[Record, State]:
    try:
        return load(_read(path))
    except RecordError as e:
        fail(str(e))


def cmd_replay(args: argparse.Namespace) -> None:
    """Replay a record, checking every action; print the outcome."""
    record, state = _load(args.file)
    summary = replay_summary(state)
    if args.json:
        print(json.dumps(summary))
        return
    from .narrate import default_names, describe, explain_settlement

    names = default_names(state.n)
    for op in state.history:
        print(describe(op, names))
    if state.result is None:
        print(f"The deal is not over: seat {state.to_move} is to move.")
        return
    balances = [state.balances_before[s] + state.result.chips[s] for s in range(state.n)]
    for line in explain_settlement(state.rules, state.result, state.dealer, names, balances):
        print(line)


def cmd_legal(args: argparse.Namespace) -> None:
    """List every action a seat may take now."""
    record, state = _load(args.file)
    if not 0 <= args.seat < state.n:
        fail(f"there is no seat {args.seat}: seats are 0 to {state.n - 1}")
    actions = state.legal_actions(args.seat)
    if args.json:
        print(json.dumps([a.to_json() for a in actions]))
    else:
        for a in actions:
            print(a)


def cmd_deal(args: argparse.Namespace) -> None:
    """Deal from a seed and print the layout as a record."""
    rules = rules_from_args(args)
    if not 0 <= args.dealer < rules.players:
        fail(f"there is no seat {args.dealer} to deal: seats are 0 to {rules.players - 1}")
    state = State.deal(rules, args.seed, dealer=args.dealer)
    record = Record.from_state(state, layout=True)
    print(record.to_text() if args.text else record.dumps(), end="")


def cmd_demo(args: argparse.Namespace) -> None:
    """A seeded deal played by random bots, told move by move, then its settlement."""
    from .bots import make_bot
    from .i18n import Catalog
    from .narrate import default_names, describe, explain_settlement
    from .sim.play import play_deal

    rules = rules_from_args(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    bots = [make_bot(args.bot, s, rules, rng) for s in range(rules.players)]
    names = default_names(rules.players)
    state = State.deal(rules, seed)
    print(f"Laugh and Lie Down: {rules.preset}, {rules.players} players, seed {seed}; "
          f"{names[state.dealer]} deals.")
    for s in range(rules.players):
        print(f"  {names[s]} holds " + " ".join(c.glyph for c in state.hand(s)))
    print("  Table: " + " ".join(c.glyph for c in state.table))
    for op in state.history:
        print(describe(op, names))

    catalog = Catalog("en")

    def tell(st: State, action: object, op: Any) -> None:
        print(describe(op, names))
        if isinstance(op, LaidDown) and st.rules.laugh:
            print("  " + catalog.t("laugh"))
        if st.over:
            print(describe(st.history[-1], names))

    play_deal(state, bots, tell)
    assert state.result is not None
    print()
    for line in explain_settlement(rules, state.result, state.dealer, names, state.result.chips):
        print(line)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line."""
    parser = argparse.ArgumentParser(
        prog="lald", description="Laugh and Lie Down, the 16th-century fishing card game.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("demo", help="watch random bots play one seeded deal")
    rules_arguments(p)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--bot", default="random", help="the bots' level")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("replay", help="replay a game record, checking every action")
    p.add_argument("file", help="a record (JSON or text notation); - reads standard input")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("legal", help="list what a seat may do after a record's actions")
    p.add_argument("file", help="a record; - reads standard input")
    p.add_argument("--seat", type=int, required=True)
    p.add_argument("--json", action="store_true", help="print a JSON array of actions")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("deal", help="deal from a seed and print the layout as a record")
    rules_arguments(p)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--dealer", type=int, default=0)
    p.add_argument("--text", action="store_true", help="the text notation instead of JSON")
    p.set_defaults(func=cmd_deal)

    for name in EXTENSIONS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``lald`` console script."""
    args = build_parser().parse_args(argv)
    try:
        args.func(args)
    except BrokenPipeError:
        sys.stderr.close()
