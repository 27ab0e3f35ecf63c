"""Playing deals under a reading and counting what happens, through the engine's public
operations and the seats' views only.

A *plan* is what ``lald readings`` plays: the readings, the tables (who sits where), the
seed, and whether the unit of play is a single deal or a whole session.

- **Deals.** Deal ``k`` of a reading is shuffled by :func:`deal_seed` (seed and ``k``
  only) and dealt by seat ``k % players``: every reading with the same number of players
  gets the same cards in the same seats. The bot in seat ``s`` gets a generator seeded by
  seed, ``k`` and ``s``, the same in every reading and at every table.
- **Sessions** (``sessions=True``): session ``j`` is a :class:`~lald.core.Session` seeded
  by :func:`session_seed`, its first dealer cut for, its pot and balances carried from
  deal to deal, its tie-break deals played as the reading says; same player count, same
  cards.
- **Tables.** A table seats one bot spec in every seat, or one *hero* among a *field*:
  the hero's seat moves from deal to deal (in deal ``k`` it sits ``k // players`` places
  after the dealer, modulo the players; in session ``j`` it sits ``j`` places after the
  first dealer), so it plays every position equally often, and the table of the field
  alone is played on the same deals, which makes the hero's gain a paired measurement.

Positions are counted from the dealer, clockwise: 0 is the dealer, 1 the eldest hand.

>>> from .reading import parse_reading
>>> plan = Plan((parse_reading("survivor/3"),), (parse_table("random"),), seed=4)
>>> rows = ReadingsJob(plan).run((0, 0, 0, 2))["deals"]
>>> [row[COLUMN["unit"]] for row in rows], sum(rows[0][COLUMN["won_0"]:COLUMN["won_2"] + 1])
([0, 1], 52)
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import math
import random
import re
import sys
import time
from collections.abc import Sequence
from typing import Any

from ..bots import LEVELS, VERSIONS, Bot
from ..core import (
    Action,
    Capture,
    Claimed,
    ClaimWindow,
    DealEnded,
    LaidDown,
    Operation,
    Scoring,
    Session,
    State,
    TableMournival,
    Trail,
)
from ..play.spec import BotSpec, parse_spec
from .reading import Reading

FORMAT = "lald-readings/1"
MAX_PLAYERS = 5

#: The columns of a deal's row (``deals.csv``), in order. ``unit`` is the deal number
#: (sessions: the session number) and ``index`` the deal's place in its session (0 for
#: single deals); ``hero``, ``survivor``, ``last_capture``, ``prize_to``, ``lie_order`` and
#: the ``chips_*``/``won_*`` columns are positions counted from the dealer.
COLUMNS: tuple[str, ...] = (
    "reading", "table", "unit", "index", "tie_break", "players", "dealer", "hero",
    "turns", "actions", "decisions", "forced", "choices", "claim_offers",
    "single", "sweep", "pair", "prial", "hand_set", "dead", "spotter", "out_of_turn",
    "table_mournivals", "trails", "lie_downs", "lie_order", "survivor", "last_capture",
    "survivor_last", "prize_to", "residue", "pot_before", "pot_after",
    *(f"chips_{p}" for p in range(MAX_PLAYERS)), *(f"won_{p}" for p in range(MAX_PLAYERS)),
)
COLUMN = {name: i - 2 for i, name in enumerate(COLUMNS)}
"""A column's place in a stored row, which leaves out ``reading`` and ``table``."""

#: The columns of a session's row (``sessions.csv``); positions count from the first dealer.
SESSION_COLUMNS: tuple[str, ...] = (
    "reading", "table", "session", "players", "first_dealer", "hero", "deals", "tie_break_deals",
    "pot_path", "pot_min", "pot_final", "winners", "shared",
    *(f"balance_{p}" for p in range(MAX_PLAYERS)),
)
SESSION_COLUMN = {name: i - 2 for i, name in enumerate(SESSION_COLUMNS)}

Row = list[Any]


# -- tables -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Table:
    """Who plays: ``field`` in every seat, or one ``hero`` among the ``field``."""

    field: BotSpec
    hero: BotSpec | None = None

    @property
    def name(self) -> str:
        """``heuristic``, or ``expert among heuristic``."""
        return self.field.text if self.hero is None else f"{self.hero.text} among {self.field.text}"

    @property
    def base(self) -> Table:
        """The table of the field alone."""
        return Table(self.field)


def _reproducible(text: str, spec: BotSpec) -> BotSpec:
    """``spec``, checked to choose the same on every machine: no outside program, no bot
    that sees every hand, and no clock (a level with a time limit plays by its world cap)."""
    if spec.external:
        raise ValueError(f"bot {text!r}: readings seat only lald's own bots, whose play can be reproduced")
    factory = LEVELS[spec.level]
    if getattr(factory, "needs_state", False):
        raise ValueError(f"bot {text!r} sees every hand: readings seat only bots that play from their view")
    if not _timed(factory):
        return spec
    if any(p[0] == "=" and p[1] == "time_limit" for p in spec.params):
        raise ValueError(f"bot {text!r}: a time limit makes play depend on the machine; "
                         "readings cap the search by worlds=N instead")
    params = (*spec.params, ("=", "time_limit", "inf"))
    return dataclasses.replace(spec, params=params)


def _timed(factory: Any) -> bool:
    """Whether a level takes a ``time_limit``: as a parameter of its own, or as a field of
    the frozen parameters it reads them into (the expert's :class:`lald.bots.params.ExpertParams`)."""
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # pragma: no cover - classes and functions have one
        return False
    if "time_limit" in parameters:
        return True
    given = parameters.get("params")
    if given is None:
        return False
    annotation = given.annotation
    module = sys.modules.get(getattr(factory, "__module__", ""), None)
    if isinstance(annotation, str):  # postponed: the names in 'ExpertParams | None'
        names = re.findall(r"\w+", annotation)
    else:
        names = [getattr(annotation, "__name__", "")]
    for name in names:
        kind = getattr(module, name, None)
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            if any(f.name == "time_limit" for f in dataclasses.fields(kind)):
                return True
    return False


def parse_table(text: str) -> Table:
    """A bot mix: ``LEVEL`` (every seat) or ``HERO,FIELD`` (one HERO among FIELD)."""
    parts = [p.strip() for p in text.split(",")]
    if not 1 <= len(parts) <= 2 or not all(parts):
        raise ValueError(f"bots {text!r}: write one level (heuristic) or a stronger bot among "
                         "weaker ones (expert,heuristic)")
    specs = [_reproducible(p, parse_spec(p)) for p in parts]
    if len(specs) == 1:
        return Table(specs[0])
    return Table(specs[1], specs[0])


def tables_of(mixes: Sequence[str]) -> tuple[Table, ...]:
    """The tables the mixes name, each hero table preceded by its field's table."""
    out: list[Table] = []
    for mix in mixes:
        table = parse_table(mix)
        for t in ((table.base, table) if table.hero is not None else (table,)):
            if t not in out:
                out.append(t)
    if not out:
        raise ValueError("name the bots, e.g. heuristic, random or expert,heuristic")
    return tuple(out)


def make_bot(spec: BotSpec, seat: int, reading: Reading, rng: random.Random) -> Bot:
    """A bot of ``spec`` (parameters as :mod:`lald.play.spec` reads them)."""
    return spec.make(seat, reading.rules, rng)


# -- the plan ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Plan:
    """What is played: readings, tables, seed, and single deals or whole sessions."""

    readings: tuple[Reading, ...]
    tables: tuple[Table, ...]
    seed: int = 1
    sessions: bool = False

    def identity(self) -> dict[str, Any]:
        """What makes two runs the same set-up (the number of deals does not: a rerun
        with more deals extends the results)."""
        levels = sorted({s.level for t in self.tables for s in (t.field, t.hero) if s is not None})
        return {"format": FORMAT, "readings": [r.text for r in self.readings],
                "rules": [r.rules.spec() for r in self.readings],
                "tables": [t.name for t in self.tables],
                "bots": [[t.field.text, t.hero.text if t.hero else None] for t in self.tables],
                "versions": {level: VERSIONS.get(level, "1") for level in levels},
                "seed": self.seed, "unit": "session" if self.sessions else "deal"}

    def key(self) -> str:
        """A short hash of :meth:`identity`."""
        import json

        text = json.dumps(self.identity(), sort_keys=True)
        return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()

    def units(self, reading: Reading, deals: int) -> int:
        """How many units (deals, or sessions) of ``reading`` make ``deals`` deals."""
        if not self.sessions:
            return deals
        return math.ceil(deals / reading.rules.deals)


def deal_seed(seed: int, deal: int) -> int:
    """The shuffle of deal ``deal``: a hash of the seed and the deal number."""
    digest = hashlib.blake2b(f"{FORMAT}/{seed}/deal/{deal}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def session_seed(seed: int, session: int) -> int:
    """The seed of session ``session`` (its cut for the dealer and its shuffles)."""
    digest = hashlib.blake2b(f"{FORMAT}/{seed}/session/{session}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def bot_rng(seed: int, kind: str, unit: int, seat: int) -> random.Random:
    """The generator of the bot in ``seat`` for one deal or session."""
    return random.Random(f"{FORMAT}/{seed}/{kind}/{unit}/{seat}")


# -- counting one deal ------------------------------------------------------------------


def measure(state: State, bots: Sequence[Bot], hero: int | None, unit: int, index: int,
            tie_break: bool) -> Row:
    """Play ``state`` to its end with ``bots`` and count what happened: a stored row
    (:data:`COLUMNS` without reading and table).

    The loop is :func:`lald.play.loop.step`'s, through the engine's public operations:
    the claim window (:class:`lald.core.ClaimWindow`) offers each seat its open claims in
    claim order, with its view; the first claim made is applied, else the seat to move
    acts on its view. A turn with a single legal action is played
    without asking the bot, which has no choice to make (it is counted as forced)."""
    n, dealer = state.n, state.dealer
    kinds = {"single": 0, "sweep": 0, "pair": 0, "prial": 0}
    claims = {"hand_set": 0, "dead": 0, "spotter": 0}
    lie_order: list[int] = []
    turns = trails = decisions = forced = choices = offers = out_of_turn = 0
    mournivals = sum(1 for op in state.history if isinstance(op, TableMournival))
    window = ClaimWindow(state)
    while not state.over:
        op: Operation | None = None
        while (ask := window.asking()) is not None:
            seat, open_claims = ask
            offers += 1
            choice = bots[seat].claim(state.view(seat), open_claims)
            if choice is not None:
                out_of_turn += seat != state.to_move
                op = window.apply(choice)
                break
            window.let_pass(seat)
        if op is not None:
            assert isinstance(op, Claimed)
            claims[op.kind.value] += 1
            continue
        legal = state.turn_actions()
        decisions += 1
        choices += len(legal)
        if len(legal) == 1:
            forced += 1
            action: Action = legal[0]
        else:
            mover = state.to_move
            assert mover is not None
            action = bots[mover].act(state.view(mover), legal)
        op = window.apply(action)
        turns += 1
        if isinstance(op, Capture):
            kind = op.kind
            assert kind is not None
            kinds[kind.value] += 1
        elif isinstance(op, LaidDown):
            lie_order.append((op.seat - dealer) % n)
        elif isinstance(op, Trail):
            trails += 1
    result = state.result
    end = state.history[-1]
    assert result is not None and isinstance(end, DealEnded)

    def pos(seat: int | None) -> int | None:
        return None if seat is None else (seat - dealer) % n

    card_count = state.rules.scoring is Scoring.CARD_COUNT
    chips = [result.chips[(dealer + p) % n] for p in range(n)]
    won = [result.won[(dealer + p) % n] for p in range(n)]
    pad: list[Any] = [None] * (MAX_PLAYERS - n)
    return [
        unit, index, int(tie_break), n, dealer, pos(hero),
        turns, len(state.actions), decisions, forced, choices, offers,
        kinds["single"], kinds["sweep"], kinds["pair"], kinds["prial"],
        claims["hand_set"], claims["dead"], claims["spotter"], out_of_turn,
        mournivals, trails, len(lie_order), " ".join(map(str, lie_order)),
        pos(result.survivor), pos(result.last_capture), int(result.survivor == result.last_capture),
        None if card_count else pos(result.prize_to), len(end.hand) + len(end.table),
        result.pot_before, result.pot_after, *chips, *pad, *won, *pad,
    ]


# -- the job ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class ReadingsJob:
    """A plan as a :mod:`lald.play.batch` job: a batch is ``(reading, table, first, stop)``,
    indices into the plan and a range of unit numbers."""

    plan: Plan

    def run(self, batch: tuple[int, ...]) -> dict[str, Any]:
        """Play the units ``first .. stop - 1`` of one reading at one table."""
        ri, ti, first, stop = batch
        started = time.process_time()
        reading, table = self.plan.readings[ri], self.plan.tables[ti]
        deals: list[Row] = []
        sessions: list[Row] = []
        for unit in range(first, stop):
            if self.plan.sessions:
                rows, srow = self._session(reading, table, unit)
                deals.extend(rows)
                sessions.append(srow)
            else:
                deals.append(self._deal(reading, table, unit))
        # "cpu" (the worker's processor seconds) is kept in the checkpoint for the report's
        # account of the cost; it is not part of the data.
        return {"batch": [ri, ti, first, stop], "deals": deals, "sessions": sessions,
                "cpu": round(time.process_time() - started, 3)}

    def _bots(self, reading: Reading, table: Table, hero: int | None, kind: str, unit: int) -> list[Bot]:
        seed = self.plan.seed
        return [make_bot(table.hero if s == hero and table.hero is not None else table.field,
                         s, reading, bot_rng(seed, kind, unit, s)) for s in range(reading.players)]

    def _deal(self, reading: Reading, table: Table, k: int) -> Row:
        n = reading.players
        hero = (k + k // n) % n if table.hero is not None else None
        state = State.deal(reading.rules, deal_seed(self.plan.seed, k), dealer=k % n)
        return measure(state, self._bots(reading, table, hero, "deal", k), hero, k, 0, False)

    def _session(self, reading: Reading, table: Table, j: int) -> tuple[list[Row], Row]:
        rules, n = reading.rules, reading.players
        session = Session(rules, session_seed(self.plan.seed, j))
        first = session.first_dealer
        hero = (first + j) % n if table.hero is not None else None
        bots = self._bots(reading, table, hero, "session", j)
        rows: list[Row] = []
        path: list[int] = []
        while not session.over:
            index = session.deal_number
            state = session.start_deal()
            rows.append(measure(state, bots, hero, j, index, index >= rules.deals))
            session.end_deal(state)
            path.append(session.pot)
        balances = [session.balances[(first + p) % n] for p in range(n)]
        winners = sorted((s - first) % n for s in session.winners)
        srow: Row = [
            j, n, first, None if hero is None else (hero - first) % n, len(rows),
            len(rows) - rules.deals, " ".join(map(str, path)), min(path), path[-1],
            " ".join(map(str, winners)), int(len(winners) > 1), *balances,
            *([None] * (MAX_PLAYERS - n)),
        ]
        return rows, srow
