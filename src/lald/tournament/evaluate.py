"""The standard evaluation, ``lald eval AGENT``: one agent against the fixed ladder of
opponents, in duplicate deals of both presets at five seats, one comparable row per
opponent and preset (docs/bots.md#the-standard-evaluation-lald-eval).

Each row is a duplicate tournament of two bots (:mod:`.duplicate`), the agent and one
opponent: the agent holds three of the five places and the opponent two, every deal is
replayed five times with the places rotated through the seats (each seat plays each bot
three and two times), and the places are shuffled per session. The row's figure is the
agent's chips a deal minus the opponent's, paired by deal group, with its 95% interval.
The seed is fixed (:data:`SEED`, the default of ``lald tournament``), so a row equals
``lald tournament --preset P --players 5 --bots AGENT,OPPONENT --deals N`` with the same
specs.

Search bots stop at a number of worlds, never at a clock, so that the same command gives
the same numbers on any machine and under any load: :func:`reproducible` plays ``expert``
as ``expert:time_limit=inf`` (its 160 worlds a decision, every one searched).

>>> reproducible(parse_spec("expert")).text
'expert:time_limit=inf'
>>> reproducible(parse_spec("greedy")).text
'greedy'
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing.util
import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..bots.external import DEFAULT_TIMEOUT, POOL
from ..core import Rules
from ..play.batch import run_batches
from ..play.spec import BotSpec, parse_spec
from ..stats import Mean
from .duplicate import GroupResult, Tournament, play_group
from .report import summarize

FORMAT = "lald-eval/1"
#: The opponents, weakest first.
LADDER = ("random", "greedy", "heuristic", "expert")
PRESETS = ("survivor", "last-capture")
PLAYERS = 5
#: The protocol's seed: ``lald tournament``'s default, so its rows can be replayed there.
SEED = 1
#: Deal groups a row unless ``--deals`` says otherwise.
DEFAULT_DEALS = 2000
#: Places of the five the agent holds; the opponent holds the rest.
AGENT_PLACES = 3
#: How a policy file is seated, by its ending: a policy (docs/research.md#your-policy-as-a-bot)
#: or the weights of the ``learned`` level.
FILE_LEVELS = {".py": "policy", ".pkl": "policy", ".pickle": "policy", ".npz": "learned"}
#: The parameter that takes a search bot's clock away.
NO_CLOCK = ":time_limit=inf"


def agent_text(agent: str) -> str:
    """The bot spec of ``AGENT`` as given on the command line: a spec
    (:mod:`lald.play.spec`) as it is, or a bare path to a policy file (``.py``, ``.pkl``)
    or to ``learned`` weights (``.npz``) as ``policy:file=PATH`` or ``learned:file=PATH``.
    A path that names no file is refused.

    >>> agent_text("heuristic"), agent_text("cmd:python bot.py")
    ('heuristic', 'cmd:python bot.py')
    >>> agent_text("runs/no-such-agent.npz")
    Traceback (most recent call last):
      ...
    ValueError: agent 'runs/no-such-agent.npz': no such file
    """
    text = agent.strip()
    if text.startswith("cmd:") or "=" in text:
        return text
    level = FILE_LEVELS.get(Path(text).suffix.lower())
    if level is None and "/" not in text:
        return text
    if not Path(text).is_file():
        raise ValueError(f"agent {text!r}: no such file")
    if level is None:
        raise ValueError(f"agent {text!r}: a policy file ends in .py or .pkl, learned weights in .npz")
    return f"{level}:file={text}"


def reproducible(spec: BotSpec, rules: Rules | None = None) -> BotSpec:
    """``spec`` as it plays under ``lald eval``: a search bot that stops at a number of
    worlds (``expert``, ``pimc``, ``guided``) without its clock (``time_limit=inf``), a
    search that stops at a number of simulations (``ismcts:simulations=N``) likewise; a
    clock named in the spec, or a search with no count to stop at, is refused."""
    if spec.external:
        return spec
    bot = spec.make(0, rules or Rules.make(), random.Random(0))
    if not hasattr(bot, "time_limit"):
        return spec
    given = {p[1] for p in spec.params if p[0] == "="}
    if "time_limit" in given:
        raise ValueError(f"bot {spec.text!r}: lald eval plays search bots to a fixed number of "
                         "worlds, not a time: drop time_limit= (set worlds=N instead)")
    if not hasattr(bot, "worlds") and "simulations" not in given:
        raise ValueError(f"bot {spec.text!r} searches until a clock runs out: give it "
                         "simulations=N to play it under lald eval")
    return parse_spec(spec.text + NO_CLOCK, rules)


@dataclasses.dataclass(frozen=True, slots=True)
class Evaluation:
    """What ``lald eval`` plays: the agent, the opponents, the presets and the deal
    groups of each row."""

    agent: BotSpec
    deals: int = DEFAULT_DEALS
    opponents: tuple[BotSpec, ...] = ()
    presets: tuple[str, ...] = PRESETS
    timeout: float = DEFAULT_TIMEOUT
    """How long an outside program may think a message."""

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ValueError("an evaluation needs at least one deal group")
        if not self.opponents:
            object.__setattr__(self, "opponents", tuple(reproducible(parse_spec(o)) for o in LADDER))

    def tournaments(self) -> list[Tournament]:
        """One tournament a row: preset by preset, then opponent by opponent up the ladder;
        the agent in :data:`AGENT_PLACES` of the five places."""
        out = []
        for preset in self.presets:
            rules = Rules.make(preset, players=PLAYERS)
            for opponent in self.opponents:
                agent, other = self.agent, opponent
                if agent.name == other.name:  # a level against itself: tell the copies apart
                    agent = dataclasses.replace(agent, name=agent.name + "#1")
                    other = dataclasses.replace(other, name=other.name + "#2")
                out.append(Tournament(rules, (agent, other), SEED, self.timeout))
        return out

    def lineup(self) -> str:
        """The table of each row in words."""
        return (f"the agent in {AGENT_PLACES} of the {PLAYERS} seats and the opponent in "
                f"{PLAYERS - AGENT_PLACES}, each deal replayed {PLAYERS} times with the seats "
                "rotated, places shuffled per session")


@dataclasses.dataclass(frozen=True, slots=True)
class EvalJob:
    """Every row's deal groups as one :mod:`lald.play.batch` job, so that all of them
    share one pool of workers: a batch is ``(row, group)``."""

    tournaments: tuple[Tournament, ...]

    def setup(self) -> None:
        """In a worker: stop the worker's outside programs when it exits."""
        multiprocessing.util.Finalize(POOL, POOL.close, exitpriority=10)

    def run(self, batch: tuple[int, ...]) -> tuple[int, GroupResult]:
        """Play deal group ``batch[1]`` of row ``batch[0]``."""
        row, group = batch
        return row, play_group(self.tournaments[row], group)


@dataclasses.dataclass(frozen=True, slots=True)
class Row:
    """One opponent under one preset: the agent's chips a deal minus the opponent's."""

    preset: str
    opponent: str
    """The opponent's level as the ladder names it."""
    played_as: str
    """The opponent's spec as played (a search bot's without its clock)."""
    deals: int
    difference: Mean
    agent: Mean
    """The agent's own chips a deal, antes included."""
    fallbacks: int
    """Seat-deals in which the agent fell back to random play (docs/bot-protocol.md)."""

    def to_json(self) -> dict[str, Any]:
        """The row as plain data."""
        d = self.difference
        return {"preset": self.preset, "opponent": self.opponent, "played_as": self.played_as,
                "deals": self.deals, "mean": d.mean, "half": d.half, "low": d.low, "high": d.high,
                "significant": d.excludes_zero(), "agent_chips": self.agent.mean,
                "agent_fallbacks": self.fallbacks}


def run(e: Evaluation, jobs: int = 1, progress: Callable[[int, int], None] | None = None,
        backend: str = "process", address: str | None = None) -> list[Row]:
    """Play every row's deal groups on ``jobs`` workers; the rows come in the order of
    :meth:`Evaluation.tournaments`."""
    tournaments = e.tournaments()
    results: list[dict[int, GroupResult]] = [{} for _ in tournaments]
    total, done = len(tournaments) * e.deals, 0
    if progress:
        progress(0, total)
    batches: Iterator[Any] = run_batches(
        EvalJob(tuple(tournaments)), [(r, g) for g in range(e.deals) for r in range(len(tournaments))],
        backend, jobs, address)
    for row, result in batches:
        results[row][result["group"]] = result
        done += 1
        if progress:
            progress(done, total)
    rows = []
    for t, res in zip(tournaments, results, strict=True):
        report = summarize(t, res)
        agent, _ = report.rows
        opponent = t.bots[1]
        rows.append(Row(t.rules.preset, opponent.text.removesuffix(NO_CLOCK), opponent.text,
                        report.deals, report.differences[0].diff, agent.chips, sum(agent.fallbacks.values())))
    return rows


def to_json(e: Evaluation, rows: Sequence[Row]) -> dict[str, Any]:
    """The evaluation as plain data (format ``lald-eval/1``)."""
    return {"format": FORMAT, "agent": e.agent.text, "players": PLAYERS, "seed": SEED,
            "deals": e.deals, "lineup": {"agent": AGENT_PLACES, "opponent": PLAYERS - AGENT_PLACES,
                                         "text": e.lineup()},
            "rows": [r.to_json() for r in rows]}


def table_lines(rows: Sequence[Row]) -> list[str]:
    """The rows as aligned text: preset, opponent, agent − opponent with its interval."""
    cells = [("preset", "opponent", "agent − opponent", "95% interval", "")]
    for r in rows:
        d = r.difference
        half = f"{d.half:.3f}" if math.isfinite(d.half) else "inf"
        mark = "significant" if d.excludes_zero() else "not significant"
        if r.fallbacks:
            mark += f"; the agent fell back to random in {r.fallbacks} seat-deals"
        interval = f"[{d.low:+.3f}, {d.high:+.3f}]"
        cells.append((r.preset, r.opponent, f"{d.mean:+.3f} ± {half}", interval, mark))
    widths = [max(len(c[i]) for c in cells) for i in range(4)]
    return [("  ".join(c[i].ljust(widths[i]) for i in range(4)) + "  " + c[4]).rstrip()
            for c in cells]
