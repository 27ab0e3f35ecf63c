"""The command line's shared pieces: the rules flags, the bot levels' help, one-line errors.

Every sub-command uses them (``lald.cli``'s own and those that ``lald.play``, ``lald.tui``
and ``lald.web`` register), so they live here, below all of those; ``lald.cli`` sits on
top and nothing imports it.

>>> parser = ArgumentParser(prog="lald x")
>>> rules_arguments(parser)
>>> rules_from_args(parser.parse_args(["--players", "4", "--option", "prize=7"])).prize
7
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from ..bots import LEVELS, MENU_LEVELS
from ..core import Rules, RulesError, State
from ..core.rules import OPTION_NAMES, PRESET_NAMES, VARIANT_NAMES, parse_option
from ..record import MAX_RECORD_BYTES, Record, RecordError, load, too_large


def in_range(kind: Callable[[str], float], low: float, high: float, what: str) -> Callable[[str], float]:
    """A flag's type: a number (``kind``) from ``low`` to ``high``, or a one-line error
    naming ``what`` it must be ("a number of seconds")."""
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not {what} from {low:g} to {high:g}")
        return value
    return parse


def seed_arg(text: str) -> int:
    """A seed on the command line: a whole number of at most 64 bits (the shuffle reads
    it modulo 2**64, so larger ones name no new deal)."""
    try:
        value = int(text) if len(text) <= 24 else None
    except ValueError:
        value = None
    if value is None or not -(1 << 63) <= value < 1 << 64:
        raise argparse.ArgumentTypeError(
            f"{text[:30]!r} is not a seed: give a whole number from {-(1 << 63)} to {(1 << 64) - 1}")
    return value


def out_dir(path: Path) -> Path:
    """A results directory, made if need be; a one-line error where it cannot be (seen
    before: "[Errno 2] No such file or directory: '/proc/nope'")."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(f"--out {path}: cannot write the results there ({e.strerror or e})")
    return path


#: Where the rules and every option are written down, for help texts.
RULES_DOC = "docs/rules.md"
#: Where the game record format and the command-line contract are written down.
RECORD_DOC = "docs/record.md"


def fail(message: str, status: int = 1) -> NoReturn:
    """Print one line on standard error and exit with ``status`` (1; 2 for a usage
    mistake that only the command can judge)."""
    print(f"lald: {_one_line(message)}", file=sys.stderr)
    raise SystemExit(status)


def _one_line(message: str, limit: int = 1000) -> str:
    """The message on one line, cut to ``limit`` characters (it may quote what a person
    typed, which can be of any length; the limit leaves whole the longest list of choices
    a message gives, every option's name)."""
    text = " ".join(message.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _quoted(text: str, limit: int = 40) -> str:
    """What a person typed, quoted and cut to ``limit`` characters."""
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line on standard error (exit status 2) that
    names the problem and where the help is, not the whole usage text; a word that is
    not one of the choices (a command's name, say) is answered with the nearest."""

    def error(self, message: str) -> NoReturn:
        """Print the one-line usage error and exit with status 2."""
        self.exit(2, f"{self.prog}: {_one_line(message)} (see {self.prog} --help)\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is None or not isinstance(value, str) or value in choices:
            super()._check_value(action, value)
            return
        names = [str(c) for c in choices]
        near = difflib.get_close_matches(value, names, n=1)
        guess = f"did you mean {near[0]}? " if near else ""
        if isinstance(action, argparse._SubParsersAction):
            raise argparse.ArgumentError(
                None, f"unknown command {_quoted(value)}: {guess}the commands are {', '.join(names)}")
        raise argparse.ArgumentError(
            action, f"invalid choice {_quoted(value)}: {guess}choose {', '.join(names)}")


class SubcommandParser(ArgumentParser):
    """A sub-command's parser: what it cannot read is its mistake, named after it (argparse
    hands a sub-command's leftovers to the top, which said ``lald: unrecognized
    arguments``)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Parse, refusing any argument left over."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def levels_text() -> str:
    """The bot levels of :data:`lald.bots.LEVELS`, in a sentence for help texts."""
    menu = ", ".join(MENU_LEVELS)
    others = [name for name in LEVELS if name not in MENU_LEVELS]
    text = f"Bot levels, weakest first: {menu}."
    if others:
        text += f" Also {', '.join(others)}, which sees every hand: a yardstick for measurements."
    return text


def _judged_by_the_rules(make: Callable[[], object]) -> None:
    """Run ``make``; the engine's sentence for a bad name or value becomes a usage error."""
    try:
        make()
    except RulesError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def preset_arg(text: str) -> str:
    """``--preset``: a preset's name (the engine's sentence otherwise)."""
    _judged_by_the_rules(lambda: Rules.make(text))
    return text


def players_arg(text: str) -> int:
    """``--players``: 3, 4 or 5."""
    value: Any = int(text) if text.strip().isdecimal() and len(text) < 6 else text
    _judged_by_the_rules(lambda: Rules.make(players=value))
    return int(value)


def variant_arg(text: str) -> str:
    """``--variant``: a variant's name."""
    _judged_by_the_rules(lambda: Rules.make(variants=[text]))
    return text


class _AppendVariant(argparse.Action):
    """``--variant``, repeatable, each variant once."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        named = list(getattr(namespace, self.dest, None) or [])
        if values in named:
            raise argparse.ArgumentError(self, f"{values} is named twice")
        setattr(namespace, self.dest, [*named, values])


def option_arg(text: str) -> tuple[str, str]:
    """``--option NAME=VALUE``: an option and a value it may take, as (name, value)."""
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{_quoted(text)}: write NAME=VALUE, e.g. prize=7")
    _judged_by_the_rules(lambda: parse_option(name.strip(), value.strip()))
    return name.strip(), value.strip()


def rules_arguments(parser: argparse.ArgumentParser) -> None:
    """The rules flags every command shares; a bad name or value is a usage mistake
    (exit status 2), in the engine's words."""
    parser.add_argument("--preset", type=preset_arg, default="survivor",
                        help=f"the reading of the rules: {' or '.join(PRESET_NAMES)} (default survivor)")
    parser.add_argument("--players", type=players_arg, default=5, help="3, 4 or 5 (default 5)")
    parser.add_argument("--variant", type=variant_arg, action=_AppendVariant, default=[], metavar="NAME",
                        help=f"{', '.join(VARIANT_NAMES)} (repeatable)")
    parser.add_argument("--option", type=option_arg, action="append", default=[], metavar="NAME=VALUE",
                        help=f"one option, e.g. prize=7 (repeatable); {RULES_DOC} lists them all: "
                             + ", ".join(OPTION_NAMES))


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules the flags name; a mistake the flags alone do not show (a variant named
    twice) is a one-line usage error too, exit status 2."""
    try:
        return Rules.make(args.preset, args.players, args.variant, dict(args.option))
    except RulesError as e:
        fail(str(e), status=2)


def read_record(path: str) -> bytes:
    """A record's bytes, refusing one over :data:`MAX_RECORD_BYTES` before it is read
    whole."""
    try:
        if path == "-":
            if sys.stdin is None:
                fail("there is no standard input to read the record from")
            data = sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        else:
            with open(path, "rb") as f:
                if os.fstat(f.fileno()).st_size > MAX_RECORD_BYTES:
                    fail(f"{path}: {too_large()}")
                data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror or e}")
    if len(data) > MAX_RECORD_BYTES:
        fail(f"{path}: {too_large()}")
    return data


def load_record(path: str) -> tuple[Record, State]:
    """The record at ``path`` (``-``: standard input), replayed; a mistake exits with
    one line."""
    try:
        return load(read_record(path))
    except RecordError as e:
        fail(str(e))
