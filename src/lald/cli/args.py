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
import enum
import os
import re
import sys
from collections.abc import Callable, Iterable
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


def fail(message: str) -> NoReturn:
    """Print one line on standard error and exit with status 1: a bad record, a save or a
    folder that cannot be read or written, a server out of reach (a mistake on the command
    line is :func:`usage`)."""
    print(f"lald: {_one_line(message)}", file=sys.stderr)
    raise SystemExit(1)


class UsageError(Exception):
    """A flag or value the command cannot take, found by the command itself (argparse
    finds the others): :func:`lald.cli.main` says it as the command's parser says its
    own, ``lald play: ... (see lald play --help)``, with exit status 2."""


def usage(message: str) -> NoReturn:
    """Refuse the command line: one line naming the command, exit status 2."""
    raise UsageError(message)


def nearest(word: str, names: Iterable[str]) -> str | None:
    """The name nearest ``word`` (difflib's judgement), or None if none is near."""
    near = difflib.get_close_matches(word, list(names), n=1)
    return near[0] if near else None


_UNKNOWN = re.compile(r"unknown (?:\w+ )?(\w+) '([^']*)': choose (.+)$")


def with_nearest(message: str) -> str:
    """A sentence of the engine's or a lower layer's form, "... unknown preset 'survivr':
    choose survivor or last-capture", offering the choice nearest the unknown word."""
    match = _UNKNOWN.search(message)
    if match is None or "did you mean" in message:
        return message
    names = [n.partition(":")[0] for n in re.split(r", | or ", match.group(3).rstrip("."))]
    guess = nearest(match.group(2), names)
    if guess is None:
        return message
    at = match.start(3) - len("choose ")
    return f"{message[:at]}did you mean {guess}? {message[at:]}"


def with_guess(message: str, word: str, names: Iterable[str]) -> str:
    """``message`` ("unknown variant 'sillent': choose ...") with the name nearest
    ``word`` offered after its first clause ("...: did you mean silent? choose ...")."""
    guess = nearest(word, names)
    if guess is None:
        return message
    head, sep, tail = message.partition(": ")
    return f"{head}: did you mean {guess}? {tail}" if sep else f"{message}: did you mean {guess}?"


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
    not one of the choices (a command's name, an option's) is answered with the nearest."""

    def error(self, message: str) -> NoReturn:
        """Print the one-line usage error and exit with status 2."""
        self.exit(2, f"{self.prog}: {_one_line(message)} (see {self.prog} --help)\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is None or not isinstance(value, str) or value in choices:
            super()._check_value(action, value)
            return
        names = [str(c) for c in choices]
        guess = nearest(value, names)
        said = f"did you mean {guess}? " if guess else ""
        if isinstance(action, argparse._SubParsersAction):
            raise argparse.ArgumentError(
                None, f"unknown command {_quoted(value)}: {said}the commands are {', '.join(names)}")
        raise argparse.ArgumentError(
            action, f"invalid choice {_quoted(value)}: {said}choose {', '.join(names)}")

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Parse; an option put before the command (``lald --lang de play``) is refused
        saying where it goes, not read as if its value were the command."""
        argv = list(sys.argv[1:] if args is None else args)
        commands = self._commands()
        if commands:
            self._check_before_command(argv, commands)
        parsed, extras = super().parse_known_args(argv, namespace)
        return parsed, extras

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Parse, refusing any argument left over with the nearest option it may mean."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error(self.unrecognized(extras))
        return parsed

    def unrecognized(self, extras: list[str]) -> str:
        """The sentence for arguments nobody took, offering the option nearest the first
        unknown one (``--hnits``: did you mean --hints?)."""
        said = f"unrecognized arguments: {' '.join(extras)}"
        option = next((e.partition("=")[0] for e in extras if e.startswith("--")), None)
        guess = nearest(option, self._long_options()) if option else None
        return f"{said}: did you mean {guess}?" if guess else said

    def _long_options(self) -> list[str]:
        return [o for o in self._option_string_actions if o.startswith("--")]

    def _commands(self) -> dict[str, argparse.ArgumentParser]:
        sub = next((a for a in self._actions if isinstance(a, argparse._SubParsersAction)), None)
        return dict(sub.choices) if sub is not None else {}

    def _check_before_command(self, argv: list[str], commands: dict[str, argparse.ArgumentParser]) -> None:
        for i, word in enumerate(argv):
            if word == "--" or not word.startswith("-") or word == "-":
                return
            option = word.partition("=")[0]
            if option in self._option_string_actions:
                continue
            command = next((w for w in argv[i + 1:] if w in commands), None)
            if command is None:
                self.error(self.unrecognized([word]))
            before = argv[i:argv.index(command)]
            if option in commands[command]._option_string_actions:
                self.error(f"{option} is an option of {self.prog} {command}: put it after the "
                           f"command ({self.prog} {command} {' '.join(before)})")
            self.error(self.unrecognized([word]))


class SubcommandParser(ArgumentParser):
    """A sub-command's parser: what it cannot read is its mistake, named after it (argparse
    hands a sub-command's leftovers to the top, which said ``lald: unrecognized
    arguments``)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Parse, refusing any argument left over."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(self.unrecognized(extras))
        return parsed, extras


def command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``parser``'s sub-command ``command``."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]  # type: ignore[no-any-return]


def levels_text() -> str:
    """The bot levels of :data:`lald.bots.LEVELS`, in a sentence for help texts."""
    menu = ", ".join(MENU_LEVELS)
    others = [name for name in LEVELS if name not in MENU_LEVELS]
    text = f"Bot levels, weakest first: {menu}."
    if others:
        text += f" Also {', '.join(others)}, which sees every hand: a yardstick for measurements."
    return text


def _judged_by_the_rules(make: Callable[[], object], word: str = "",
                         names: Iterable[str] = ()) -> None:
    """Run ``make``; the engine's sentence for a bad name or value becomes a usage error,
    offering the one of ``names`` nearest ``word``."""
    try:
        make()
    except RulesError as e:
        raise argparse.ArgumentTypeError(with_guess(str(e), word, names)) from None


def preset_arg(text: str) -> str:
    """``--preset``: a preset's name (the engine's sentence otherwise)."""
    _judged_by_the_rules(lambda: Rules.make(text), text, PRESET_NAMES)
    return text


def players_arg(text: str) -> int:
    """``--players``: 3, 4 or 5."""
    value: Any = int(text) if text.strip().isdecimal() and len(text) < 6 else text
    _judged_by_the_rules(lambda: Rules.make(players=value))
    return int(value)


def variant_arg(text: str) -> str:
    """``--variant``: a variant's name."""
    _judged_by_the_rules(lambda: Rules.make(variants=[text]), text, VARIANT_NAMES)
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
    name, value = name.strip(), value.strip()
    if name in OPTION_NAMES:
        _judged_by_the_rules(lambda: parse_option(name, value), value, option_values(name))
    else:
        _judged_by_the_rules(lambda: parse_option(name, value), name, OPTION_NAMES)
    return name, value


def option_values(name: str) -> list[str]:
    """The words option ``name`` takes (none for a number)."""
    default = getattr(Rules(), name)
    if isinstance(default, bool):
        return ["on", "off"]
    return [str(m.value) for m in type(default)] if isinstance(default, enum.Enum) else []


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
        usage(str(e))


def check_workers(args: argparse.Namespace) -> None:
    """The worker flags' usage mistakes (``--jobs 0``, ``--address`` without Ray), before
    :func:`lald.play.batch.workers_from_args` looks for Ray."""
    if args.jobs is not None and args.jobs < 1:
        usage(f"--jobs {args.jobs}: use at least one worker")
    if args.address and args.backend != "ray":
        usage("--address names a Ray cluster: add --backend ray")


def bot_guess(message: str, specs: Iterable[str]) -> str:
    """The sentence refusing a bot spec, offering the level nearest an unknown one."""
    from ..bots import FRIENDLY, find_level, level_names

    for spec in specs:
        head = spec.strip().partition(":")[0].strip()
        if head and head != "cmd" and find_level(head) is None:
            return with_guess(message, head, [*level_names(), *FRIENDLY, "cmd"])
    return message


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
