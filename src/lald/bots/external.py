"""Bots from outside: a program that speaks the line-based JSON protocol ``lald-bot/2``
over its standard input and output (docs/bot-protocol.md).

The engine writes one JSON object per line; the program answers each ``act`` and
``claim`` message with one line naming its choice. A seat's program sees the seat's
:class:`~lald.core.PlayerView` and nothing else: the serialized view is the censored one,
its history included, so no hidden card is ever written to a program.

If the program does not answer in time, dies, or answers something that is not one of
the choices offered, :class:`ExternalBot` records the failure, stops the program and plays
the rest of the deal as :class:`~lald.bots.RandomBot`; a fresh program is started for the
next deal.

>>> from lald.core import Rules, State
>>> state = State.deal(Rules.make(), seed=1)
>>> msg = act_message(state.view(1), state.turn_actions())
>>> msg["type"], msg["seat"], len(msg["view"]["hand"]), msg["view"]["hand_sizes"]
('act', 1, 8, [8, 8, 8, 8, 8])
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import os
import random
import selectors
import shlex
import shutil
import subprocess
import time
from collections.abc import Sequence
from enum import StrEnum, unique
from typing import Any

from ..core import (
    Action,
    ActionSyntaxError,
    Capture,
    Claim,
    Claimed,
    DealEnded,
    DealResult,
    LaidDown,
    Operation,
    PlayerView,
    Rules,
    TableMournival,
    Trail,
    action_from_json,
)
from ..core.cards import NUM_RANKS, RANK_SYMBOLS
from ..core.rules import OPTION_NAMES
from . import Bot, RandomBot
from .knowledge import read

PROTOCOL = "lald-bot/2"
"""Version 2 adds keys to version 1's messages and changes or removes none, so a program
written for version 1 reads version 2 unchanged (docs/bot-protocol.md)."""

#: Seconds a program may take to answer one message, unless told otherwise.
DEFAULT_TIMEOUT = 10.0


@unique
class Failure(StrEnum):
    """Why a program's seat fell back to the random bot."""

    TIMEOUT = "timeout"
    """No answer line within the time allowed."""
    CRASH = "crash"
    """The program exited, closed its output, or could not be started."""
    ILLEGAL = "illegal"
    """The answer was not JSON, or not one of the choices offered."""


class BotProtocolError(Exception):
    """A program broke the protocol; ``kind`` says how."""

    def __init__(self, kind: Failure, message: str) -> None:
        super().__init__(message)
        self.kind = kind


# -- the messages -----------------------------------------------------------------------


def _cards(cards: Sequence[object]) -> list[str]:
    return [str(c) for c in cards]


def operation_to_json(op: Operation, table_ranks: int | None = None) -> dict[str, Any]:
    """One operation of a (censored) history as a JSON object with an ``op`` key; a trail
    carries ``table_ranks``, the 13-bit mask of the ranks on the table as it was made,
    when given."""
    if isinstance(op, TableMournival):
        return {"op": "table_mournival", "dealer": op.dealer, "cards": _cards(op.cards)}
    if isinstance(op, Capture):
        return {"op": "capture", "seat": op.seat, "play": _cards(op.play), "take": _cards(op.take)}
    if isinstance(op, Claimed):
        return {"op": "claim", "seat": op.seat, "kind": op.kind.value, "count": op.count,
                "face_down": op.face_down, "cards": None if op.cards is None else _cards(op.cards)}
    if isinstance(op, LaidDown):
        return {"op": "lie_down", "seat": op.seat, "cards": _cards(op.cards)}
    if isinstance(op, Trail):
        out: dict[str, Any] = {"op": "trail", "seat": op.seat, "card": str(op.card)}
        if table_ranks is not None:
            out["table_ranks"] = [RANK_SYMBOLS[r] for r in range(NUM_RANKS) if table_ranks >> r & 1]
        return out
    if isinstance(op, DealEnded):
        return {"op": "deal_ended", "survivor": op.survivor, "dealer": op.dealer,
                "hand": _cards(op.hand), "table": _cards(op.table)}
    raise TypeError(f"not an operation: {op!r}")  # pragma: no cover - the union is closed


def result_to_json(result: DealResult) -> dict[str, Any]:
    """A finished deal's result."""
    return {
        "won": list(result.won), "survivor": result.survivor, "last_capture": result.last_capture,
        "prize_to": result.prize_to, "pairs": None if result.pairs is None else list(result.pairs),
        "antes": list(result.antes), "chips": list(result.chips), "pot_before": result.pot_before,
        "pot_after": result.pot_after, "winners": list(result.winners),
    }


def pot_before(view: PlayerView) -> int:
    """The pot before this deal's antes: until the settlement the pot holds what was
    carried in plus the antes (:attr:`State.pot <lald.core.engine.state.State.pot>`)."""
    if view.result is not None:
        return view.result.pot_before
    return view.pot - view.rules.antes


def turn_number(view: PlayerView) -> int:
    """The number of the turn being played: 1 before the deal's first turn action, one
    more after each capture, lie-down or trail (claims are not turns)."""
    return 1 + sum(isinstance(op, (Capture, LaidDown, Trail)) for op in view.history)


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """Everything in a seat's view, as JSON, with what version 2 adds (the claim order,
    the turn number, the quota, the pot before the antes, and the ranks on the table at
    each trail). The view is already censored; this writes only its fields and what
    follows from them, so it cannot add what the seat may not know."""
    trails = {index: ranks for _, index, ranks in read(view).trail_tables}
    return {
        "seat": view.seat,
        "dealer": view.dealer,
        "eldest": view.eldest,
        "to_move": view.to_move,
        "foreplay": view.foreplay,
        "over": view.over,
        "hand": _cards(view.hand),
        "table": _cards(view.table),
        "hand_sizes": list(view.hand_sizes),
        "won_sizes": list(view.won_sizes),
        "won_seen": [_cards(w) for w in view.won_seen],
        "statuses": [s.value for s in view.statuses],
        "last_capture": view.last_capture,
        "pot": view.pot,
        "balances": list(view.balances),
        "history": [operation_to_json(op, trails.get(i)) for i, op in enumerate(view.history)],
        "result": None if view.result is None else result_to_json(view.result),
        "claim_order": list(view.claim_order),
        "turn": turn_number(view),
        "quota": view.rules.hand_size,
        "pot_before": pot_before(view),
    }


def rules_to_json(rules: Rules) -> dict[str, Any]:
    """The record's ``rules`` object, plus every option's resolved value under ``resolved``
    (so a program need not know the presets)."""
    resolved: dict[str, Any] = {}
    for name in OPTION_NAMES:
        value = getattr(rules, name)
        resolved[name] = value.value if isinstance(value, StrEnum) else value
    return {**rules.spec(), "resolved": resolved}


def deal_message(seat: int, rules: Rules) -> dict[str, Any]:
    """Sent when a program takes a seat for a new deal; no answer is expected."""
    return {"type": "deal", "protocol": PROTOCOL, "seat": seat, "rules": rules_to_json(rules)}


def act_message(view: PlayerView, legal: Sequence[Action]) -> dict[str, Any]:
    """The seat must make one of its turn actions ``legal``; answer with one of them."""
    return {"type": "act", "seat": view.seat, "view": view_to_json(view),
            "legal": [a.to_json() for a in legal]}


def claim_source(view: PlayerView, claim: Claim) -> str:
    """Where a legal claim's cards are: ``"hand"`` (a hand set or a dead rank) or
    ``"table"`` (a spotter claim)."""
    return "hand" if set(claim.cards) <= set(view.hand) else "table"


def claim_message(view: PlayerView, claims: Sequence[Claim]) -> dict[str, Any]:
    """The seat may take one of the open ``claims``, or pass with ``null``;
    ``legal_from`` says, entry by entry, whether the cards come from the hand or the table."""
    return {"type": "claim", "seat": view.seat, "view": view_to_json(view),
            "legal": [c.to_json() for c in claims], "legal_from": [claim_source(view, c) for c in claims]}


def end_message(view: PlayerView) -> dict[str, Any]:
    """The deal is over (the view holds the result); no answer is expected."""
    return {"type": "end", "seat": view.seat, "view": view_to_json(view)}


def read_answer(line: str, legal: Sequence[Action], may_pass: bool) -> Action | None:
    """The choice an answer line names: an index into ``legal``, an action object equal
    to one of them, or ``null`` to pass (claims only). Raise :class:`BotProtocolError`.

    >>> from lald.core import LieDown
    >>> read_answer("1", [LieDown(0), LieDown(1)], False)
    LieDown(seat=1)
    >>> read_answer('{"seat": 0, "type": "lie_down"}', [LieDown(0)], False)
    LieDown(seat=0)
    """
    text = line.strip()
    try:
        answer = json.loads(text)
    except ValueError:
        raise BotProtocolError(Failure.ILLEGAL, f"answer {_clip(text)} is not JSON") from None
    except RecursionError:
        raise BotProtocolError(Failure.ILLEGAL, f"answer {_clip(text)} is nested too deeply") from None
    if answer is None:
        if may_pass:
            return None
        raise BotProtocolError(Failure.ILLEGAL, "answered null, but a turn action is required")
    if isinstance(answer, int) and not isinstance(answer, bool):
        if 0 <= answer < len(legal):
            return legal[answer]
        raise BotProtocolError(
            Failure.ILLEGAL, f"answered index {answer}, but the choices are 0 to {len(legal) - 1}")
    if isinstance(answer, dict):
        try:
            action = action_from_json(answer)
        except ActionSyntaxError as e:
            raise BotProtocolError(Failure.ILLEGAL, f"answer {_clip(text)}: {e}") from None
        if action in legal:
            return action
        raise BotProtocolError(Failure.ILLEGAL, f"answered {action}, which is not one of the choices")
    raise BotProtocolError(
        Failure.ILLEGAL, f"answer {_clip(text)} is neither an index, an action object nor null")


def _clip(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


# -- the program ------------------------------------------------------------------------


def check_command(command: str) -> list[str]:
    """The program's argument list; raise ValueError with a one-line reason if it cannot
    be run (empty, unbalanced quotes, or not found)."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise ValueError(f"bad bot command {command!r}: {e}") from None
    if not argv:
        raise ValueError("the bot command is empty: write cmd:PROGRAM ARGS")
    if shutil.which(argv[0]) is None:
        raise ValueError(f"bot command {argv[0]!r} not found")
    return argv


class Program:
    """A running bot program: writes lines to its input, reads answer lines with a time
    limit. Its standard error is kept (the last few kilobytes) to explain a crash."""

    def __init__(self, command: str) -> None:
        self.command = command
        argv = check_command(command)
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in, self._out, self._err = (
            self.proc.stdin.fileno(), self.proc.stdout.fileno(), self.proc.stderr.fileno())
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self._buffer = b""
        self._stderr = b""
        self._open = {self._out, self._err}

    @property
    def alive(self) -> bool:
        """Whether the program is still running."""
        return self.proc.poll() is None

    def stderr_tail(self) -> str:
        """The end of what the program wrote on standard error."""
        lines = self._stderr.decode("utf-8", "replace").strip().splitlines()
        return lines[-1].strip() if lines else ""

    def _crash(self, what: str) -> BotProtocolError:
        self._drain(0.2)
        try:  # a program that closed its output is usually exiting: get its status
            code: int | None = self.proc.wait(0.2)
        except subprocess.TimeoutExpired:
            code = None
        status = f"exited with status {code}" if code is not None else what
        tail = self.stderr_tail()
        return BotProtocolError(Failure.CRASH, status + (f": {_clip(tail, 120)}" if tail else ""))

    def _drain(self, seconds: float) -> None:
        """Read whatever stderr and stdout hold, for up to ``seconds``."""
        deadline = time.monotonic() + seconds
        while self._open and self._pump(deadline) and time.monotonic() < deadline:
            pass

    def _pump(self, deadline: float) -> bool:
        """Wait for output until ``deadline`` (past it: only poll); return False when
        nothing came or both output pipes are closed."""
        if not self._open:
            return False
        remaining = max(0.0, deadline - time.monotonic())
        with selectors.DefaultSelector() as sel:
            for fd in self._open:
                sel.register(fd, selectors.EVENT_READ)
            events = sel.select(remaining)
        if not events:
            return False
        for key, _ in events:
            fd = key.fd
            assert isinstance(fd, int)
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                self._open.discard(fd)
            elif fd == self._out:
                self._buffer += chunk
            else:
                self._stderr = (self._stderr + chunk)[-4096:]
        return True

    def send(self, message: dict[str, Any], deadline: float) -> None:
        """Write one message line, waiting for the pipe until ``deadline``."""
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        with selectors.DefaultSelector() as sel:
            sel.register(self._in, selectors.EVENT_WRITE)
            while data:
                try:
                    written = os.write(self._in, data)
                except BlockingIOError:
                    written = 0
                except (BrokenPipeError, ConnectionResetError):
                    raise self._crash("closed its input") from None
                data = data[written:]
                if data:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or not sel.select(remaining):
                        raise BotProtocolError(Failure.TIMEOUT, "did not read its input in time")
                    self._pump(time.monotonic())  # keep its output pipes from filling

    def receive(self, deadline: float) -> str:
        """The next answer line, by ``deadline``."""
        while b"\n" not in self._buffer:
            if self._out not in self._open:
                raise self._crash("closed its output")
            if not self._pump(deadline):
                if self._out not in self._open:
                    raise self._crash("closed its output")
                if time.monotonic() >= deadline:
                    raise BotProtocolError(Failure.TIMEOUT, "did not answer in time")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def close(self, grace: float = 0.5) -> None:
        """Close its input (the signal to quit), then kill it if it lingers."""
        if self.proc.stdin and not self.proc.stdin.closed:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()


class ProgramPool:
    """Idle programs by command, so that one process plays deal after deal: a program
    holds one seat at a time, from its ``deal`` message to its ``end`` message."""

    def __init__(self) -> None:
        self.idle: dict[str, list[Program]] = {}
        self.started = 0

    def acquire(self, command: str) -> Program:
        """An idle running program for ``command``, or a new one."""
        idle = self.idle.setdefault(command, [])
        while idle:
            program = idle.pop()
            if program.alive:
                return program
            program.close(0)
        self.started += 1
        return Program(command)

    def release(self, program: Program) -> None:
        """Give back a program that finished its deal cleanly."""
        if program.alive:
            self.idle.setdefault(program.command, []).append(program)
        else:
            program.close(0)

    def close(self) -> None:
        """Stop every idle program."""
        for programs in self.idle.values():
            for program in programs:
                program.close()
        self.idle.clear()


#: The pool of this process (each worker process of a tournament has its own).
POOL = ProgramPool()
atexit.register(POOL.close)


@dataclasses.dataclass(frozen=True, slots=True)
class Fallback:
    """A seat whose program failed and was replaced by the random bot for the deal."""

    kind: Failure
    message: str


class ExternalBot(Bot):
    """A seat played by an outside program; see the module docstring and
    docs/bot-protocol.md. Call :meth:`finish` when the deal is over to tell the program
    the result and return it to the pool."""

    name = "external"
    version = "1"

    def __init__(
        self,
        seat: int,
        rules: Rules,
        rng: random.Random,
        command: str,
        timeout: float = DEFAULT_TIMEOUT,
        pool: ProgramPool | None = None,
    ) -> None:
        super().__init__(seat, rules, rng)
        self.command = command
        self.timeout = timeout
        self.pool = pool if pool is not None else POOL
        self.program: Program | None = None
        self.fallback: Fallback | None = None
        self._random: RandomBot | None = None

    def _ask(self, message: dict[str, Any], legal: Sequence[Action], may_pass: bool) -> Action | None:
        deadline = time.monotonic() + self.timeout
        if self.program is None:
            try:
                self.program = self.pool.acquire(self.command)
            except (OSError, ValueError) as e:
                raise BotProtocolError(Failure.CRASH, f"could not start: {e}") from None
            self.program.send(deal_message(self.seat, self.rules), deadline)
        self.program.send(message, deadline)
        return read_answer(self.program.receive(deadline), legal, may_pass)

    def _fail(self, error: BotProtocolError) -> RandomBot:
        self.fallback = Fallback(error.kind, str(error))
        if self.program is not None:
            self.program.close(0)
            self.program = None
        self._random = RandomBot(self.seat, self.rules, self.rng)
        return self._random

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """The program's turn action (the random bot's once it has failed this deal)."""
        if self._random is None:
            try:
                choice = self._ask(act_message(view, legal), legal, may_pass=False)
                assert choice is not None
                return choice
            except BotProtocolError as e:
                self._fail(e)
        assert self._random is not None
        return self._random.act(view, legal)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        """The program's claim, or None to pass."""
        if self._random is None:
            try:
                choice = self._ask(claim_message(view, claims), claims, may_pass=True)
                assert choice is None or isinstance(choice, Claim)
                return choice
            except BotProtocolError as e:
                self._fail(e)
        assert self._random is not None
        return self._random.claim(view, claims)

    def finish(self, view: PlayerView) -> None:
        """Tell the program the deal is over and give it back to the pool."""
        if self.program is None:
            return
        program, self.program = self.program, None
        try:
            program.send(end_message(view), time.monotonic() + self.timeout)
        except BotProtocolError:
            # The deal was played out; a program that dies now only costs its restart.
            program.close(0)
            return
        self.pool.release(program)
