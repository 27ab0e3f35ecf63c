"""The ``lald`` command: demo, replay, legal, deal, and the commands of the other parts.

Every sub-command is a ``register(subparsers)`` function in a module of this package
(:mod:`.play`, :mod:`.serve`, :mod:`.db`, :mod:`.tournament`, :mod:`.eval`, :mod:`.readings`,
:mod:`.review`), with the flags they share in :mod:`.args`; the parts that need heavy
libraries (the terminal table, the server, tournaments) import them only when run. The
top of the house: it may import every part of lald, and nothing imports it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
from collections.abc import Sequence
from typing import Any

from .. import __version__
from ..core import LaidDown, State
from ..record import Record, replay_summary
from .args import (
    RECORD_DOC,
    RULES_DOC,
    ArgumentParser,
    SubcommandParser,
    UsageError,
    command_parser,
    levels_text,
    load_record,
    rules_arguments,
    rules_from_args,
    seed_arg,
    usage,
    with_guess,
)

#: Modules that add sub-commands with ``register(subparsers)``.
EXTENSIONS: list[str] = [
    "lald.cli.play", "lald.cli.tournament", "lald.cli.eval", "lald.cli.readings", "lald.cli.review",
    "lald.cli.host.serve", "lald.cli.host.db", "lald.cli.train", "lald.cli.host.worker",
]

#: The documents every help text points to (in the source tree, beside the README).
DOCS = f"The rules, every option and preset: {RULES_DOC}. Game records: {RECORD_DOC}."


def cmd_replay(args: argparse.Namespace) -> None:
    """Replay a record, checking every action; print the outcome."""
    record, state = load_record(args.file)
    summary = replay_summary(state)
    if args.json:
        print(json.dumps(summary))
        return
    from ..narrate import default_names, describe, explain_settlement

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
    record, state = load_record(args.file)
    if not 0 <= args.seat < state.n:
        usage(f"--seat {args.seat}: there is no such seat: the deal's seats are 0 to {state.n - 1}")
    actions = state.legal_actions(args.seat)
    if args.json:
        print(json.dumps([a.to_json() for a in actions]))
    elif state.over:
        print("The deal is over: no seat may act.")
    elif not actions:
        print(f"Seat {args.seat} may do nothing now: seat {state.to_move} is to move.")
    else:
        for a in actions:
            print(a)


def cmd_deal(args: argparse.Namespace) -> None:
    """Deal from a seed and print the layout as a record."""
    rules = rules_from_args(args)
    if not 0 <= args.dealer < rules.players:
        usage(f"--dealer {args.dealer}: there is no such seat to deal: seats are 0 to {rules.players - 1}")
    state = State.deal(rules, args.seed, dealer=args.dealer)
    record = Record.from_state(state, layout=True)
    print(record.to_text() if args.text else record.dumps(), end="")


def cmd_demo(args: argparse.Namespace) -> None:
    """A seeded deal played by bots of one level, told move by move, then its settlement."""
    from ..bots import make_bot
    from ..i18n import Catalog
    from ..narrate import default_names, describe, explain_settlement
    from ..play.loop import play_deal

    rules = rules_from_args(args)
    _check_demo_bot(args.bot)
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


def _check_demo_bot(level: str) -> None:
    """A level every seat of the demo can play, or a one-line error saying what to do."""
    from ..bots import LEVELS

    if level in LEVELS:
        return
    choose = f"choose {', '.join(LEVELS)}"
    if level.strip() == "human":
        usage(f"--bot human: in a demo every seat is a bot ({choose}); to play, run lald play")
    if level.startswith("cmd:"):
        usage(f"--bot {level!r}: a demo plays the built-in levels ({choose}); an outside program "
              "plays in lald tournament --bot 'cmd:PROGRAM'")
    usage("--bot: " + with_guess(f"unknown bot level {level!r}: {choose}", level, LEVELS))


class VersionAction(argparse.Action):
    """``--version``: the version and which play-out kernel is loaded (``compiled`` or
    ``python`` with the reason, see :func:`lald.core.compiled.kernel_status`), read only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        from ..core.compiled import kernel_status

        print(f"lald {__version__} (kernel: {kernel_status()})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The whole command line."""
    parser = ArgumentParser(
        prog="lald", description="Laugh and Lie Down, the 16th-century English fishing card game: "
        "play it at the terminal or online, replay and check game records, run bot tournaments.",
        epilog=f"{levels_text()} {DOCS} 'lald COMMAND --help' describes each command.")
    parser.add_argument("--version", action=VersionAction, help="print the version and the kernel, and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=SubcommandParser)

    p = sub.add_parser("demo", help="watch bots play one seeded deal, told in words")
    rules_arguments(p)
    p.add_argument("--seed", type=seed_arg, default=None,
                   help="the deal's seed, which also seeds the bots (default: random)")
    p.add_argument("--bot", default="random", metavar="LEVEL",
                   help="the level every seat plays (default random; the levels are listed below)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("replay", help="replay a game record, checking every action")
    p.add_argument("file", help="a record (JSON or text notation); - reads standard input")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("legal", help="list what a seat may do after a record's actions")
    p.add_argument("file", help="a record; - reads standard input")
    p.add_argument("--seat", type=int, required=True, help="the seat, from 0")
    p.add_argument("--json", action="store_true", help="print a JSON array of actions")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("deal", help="deal from a seed and print the layout as a record")
    rules_arguments(p)
    p.add_argument("--seed", type=seed_arg, required=True, help="the seed that names the deal")
    p.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    p.add_argument("--text", action="store_true", help="the text notation instead of JSON")
    p.set_defaults(func=cmd_deal)

    for name in EXTENSIONS:
        importlib.import_module(name).register(sub)
    for p in sub.choices.values():
        p.epilog = " ".join(part for part in (p.epilog, levels_text(), DOCS) if part)
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``lald`` console script: a mistake is one line on standard
    error (exit status 1; 2 for usage, a flag or value the command cannot take, the line
    naming the command), and Ctrl+C ends quietly (status 130)."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        try:
            args.func(args)
        except UsageError as e:
            command_parser(parser, args.command).error(str(e))
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except BrokenPipeError:
        # The reader went away (``lald replay x | head``): stop, and say nothing more.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(1) from None
