"""The readings laboratory: play the same deals under several readings and measure what
each does to the game (``lald readings``, and :func:`run` for notebooks).

>>> res = run(["survivor/3", "last-capture/3"], bots=["random"], deals=6, seed=2)
>>> [entry["deals"] for entry in res.summary["tables"][0]["readings"]]
[6, 6]
>>> sorted(res.records()[0])[:4]
['actions', 'chips_0', 'chips_1', 'chips_2']

The data are the same, byte for byte, whatever the number of workers or the backend:
each deal depends on its number alone (:mod:`lald.lab.measure`), results are sorted
before they are written, and every figure of the summary is rounded to 8 significant
digits.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..play.batch import ResultsDirectory, chunks, run_batches
from .decompose import Decomposition, contributions, decompose, real_at, verdict
from .measure import COLUMN, COLUMNS, SESSION_COLUMN, SESSION_COLUMNS, Plan, ReadingsJob, Row, tables_of
from .reading import Reading, parse_readings
from .summary import summarize

CHECKPOINT = "batches.jsonl"
IDENTITY = "readings.json"
#: Units per batch: deals, or sessions.
BATCH_DEALS = 50
BATCH_SESSIONS = 10
#: The readings a sweep plays when none is named: both presets.
PRESETS: tuple[str, ...] = ("survivor", "last-capture")
FIRST = "first"
"""``base`` for :func:`run`: compare every reading with the first one."""

Progress = Callable[[int, int], None]


class Checkpoint(ResultsDirectory):
    """A results directory: ``readings.json`` (the set-up) and ``batches.jsonl`` (one
    finished batch per line)."""

    IDENTITY = IDENTITY
    JOURNAL = CHECKPOINT
    OTHER = "the results of another set-up (readings, bots, seed or unit differ)"

    def __init__(self, directory: Path, plan: Plan, fresh: bool = False) -> None:
        self.plan = plan
        self.batches: list[dict[str, Any]] = []
        super().__init__(directory, plan.identity(), fresh)

    def valid(self, result: Any) -> bool:
        ri, ti, _first, _stop = result["batch"]
        return (0 <= ri < len(self.plan.readings) and 0 <= ti < len(self.plan.tables)
                and isinstance(result["deals"], list))

    def keep(self, result: Any) -> None:
        self.batches.append(result)


@dataclasses.dataclass
class Results:
    """What a run measured: the per-deal rows and session rows of every reading at every
    table (keyed by their indices in the plan), and the summary."""

    plan: Plan
    deals: int
    rows: dict[tuple[int, int], list[Row]]
    sessions: dict[tuple[int, int], list[Row]]
    summary: dict[str, Any]
    cpu_seconds: float = 0.0
    """Processor seconds the workers spent on the batches played in this run (not data:
    it depends on the machine)."""
    cpu_total: float = 0.0
    """The same for every batch of the results, those saved by earlier runs included."""
    resumed: bool = False
    """Whether batches saved by an earlier run are among the results."""

    def deal_rows(self) -> Iterable[list[Any]]:
        """Every deal as a full row of :data:`~lald.lab.measure.COLUMNS`, in order."""
        for ti, table in enumerate(self.plan.tables):
            for ri, reading in enumerate(self.plan.readings):
                for r in self.rows.get((ri, ti), []):
                    yield [reading.text, table.name, *r]

    def session_rows(self) -> Iterable[list[Any]]:
        """Every session as a full row of :data:`~lald.lab.measure.SESSION_COLUMNS`."""
        for ti, table in enumerate(self.plan.tables):
            for ri, reading in enumerate(self.plan.readings):
                for r in self.sessions.get((ri, ti), []):
                    yield [reading.text, table.name, *r]

    def records(self) -> list[dict[str, Any]]:
        """Every deal as a dict (column -> value)."""
        return [dict(zip(COLUMNS, r, strict=True)) for r in self.deal_rows()]

    def frame(self) -> Any:
        """The per-deal table as a pandas DataFrame (needs pandas)."""
        import pandas as pd  # type: ignore[import-untyped, import-not-found, unused-ignore]

        return pd.DataFrame(list(self.deal_rows()), columns=list(COLUMNS))

    def session_frame(self) -> Any:
        """The per-session table as a pandas DataFrame (needs pandas)."""
        import pandas as pd  # type: ignore[import-untyped, import-not-found, unused-ignore]

        return pd.DataFrame(list(self.session_rows()), columns=list(SESSION_COLUMNS))

    def write(self, directory: Path) -> list[Path]:
        """Write ``deals.csv``, ``sessions.csv`` (whole sessions only), ``summary.json``
        and, when pyarrow is installed, ``deals.parquet``; return the paths."""
        directory.mkdir(parents=True, exist_ok=True)
        paths = [directory / "deals.csv"]
        paths[0].write_text(_csv(COLUMNS, self.deal_rows()), encoding="utf-8")
        if self.plan.sessions:
            paths.append(directory / "sessions.csv")
            paths[-1].write_text(_csv(SESSION_COLUMNS, self.session_rows()), encoding="utf-8")
        paths.append(directory / "summary.json")
        paths[-1].write_text(json.dumps(self.summary, indent=1, sort_keys=False) + "\n", encoding="utf-8")
        parquet = write_parquet(self, directory / "deals.parquet")
        if parquet is not None:
            paths.append(parquet)
        return paths


def _csv(columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for r in rows:
        writer.writerow(["" if v is None else v for v in r])
    return out.getvalue()


def write_parquet(results: Results, path: Path) -> Path | None:
    """The per-deal table as Parquet, if pyarrow is installed (else None)."""
    try:
        import pyarrow as pa  # type: ignore[import-untyped, import-not-found, unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:
        return None
    rows = list(results.deal_rows())
    text = {"reading", "table", "lie_order"}
    arrays = [pa.array([r[i] for r in rows], type=pa.string() if name in text else pa.int64())
              for i, name in enumerate(COLUMNS)]
    pq.write_table(pa.Table.from_arrays(arrays, names=list(COLUMNS)), path)
    return path


def _plan(readings: Sequence[str | Reading], bots: Sequence[str], seed: int, sessions: bool) -> Plan:
    parsed: list[Reading] = []
    for r in readings:
        parsed.extend([r] if isinstance(r, Reading) else parse_readings([r]))
    if not parsed:
        raise ValueError("name at least one reading, e.g. survivor last-capture, or --standard")
    if len({r.text for r in parsed}) != len(parsed):
        raise ValueError("a reading is named twice")
    return Plan(tuple(parsed), tables_of(bots), seed, sessions)


def per_table(plan: Plan, deals: int, skill_deals: int | None = None) -> list[int]:
    """Deals per reading at each table: ``deals``, or ``skill_deals`` at hero tables."""
    return [skill_deals if t.hero is not None and skill_deals else deals for t in plan.tables]


def batches_todo(plan: Plan, deals: Sequence[int],
                 done: Iterable[dict[str, Any]]) -> list[tuple[int, int, int, int]]:
    """The batches still to play for ``deals[table]`` deals per reading, given the finished ones:
    runs of missing unit numbers, cut at :data:`BATCH_DEALS` deals (or
    :data:`BATCH_SESSIONS` sessions), earliest units first across all readings."""
    have: dict[tuple[int, int], set[int]] = {}
    for b in done:
        ri, ti, first, stop = b["batch"]
        have.setdefault((ri, ti), set()).update(range(first, stop))
    size = BATCH_SESSIONS if plan.sessions else BATCH_DEALS
    out: list[tuple[int, int, int, int]] = []
    for ti in range(len(plan.tables)):
        for ri, reading in enumerate(plan.readings):
            got = have.get((ri, ti), set())
            missing = [u for u in range(plan.units(reading, deals[ti])) if u not in got]
            out.extend((ri, ti, first, stop) for first, stop in chunks(missing, size))
    out.sort(key=lambda b: (b[2], b[1], b[0]))
    return out


def collect(plan: Plan, deals: Sequence[int], batches: Iterable[dict[str, Any]],
            base: str | None, decomposition: Decomposition | None = None) -> Results:
    """The results of the finished ``batches``, cut to ``deals[table]`` deals per reading
    and sorted, with their summary (and the decomposition's figures, if one is played)."""
    rows: dict[tuple[int, int], dict[tuple[int, int], Row]] = {}
    sessions: dict[tuple[int, int], dict[int, Row]] = {}
    for b in batches:
        ri, ti = b["batch"][0], b["batch"][1]
        units = plan.units(plan.readings[ri], deals[ti])
        for r in b["deals"]:
            if r[COLUMN["unit"]] < units:
                rows.setdefault((ri, ti), {})[(r[COLUMN["unit"]], r[COLUMN["index"]])] = r
        for s in b.get("sessions", []):
            if s[SESSION_COLUMN["session"]] < units:
                sessions.setdefault((ri, ti), {})[s[SESSION_COLUMN["session"]]] = s
    ordered = {k: [v[u] for u in sorted(v)] for k, v in rows.items()}
    ordered_sessions = {k: [v[u] for u in sorted(v)] for k, v in sessions.items()}
    summary = summarize(plan, deals[0], ordered, ordered_sessions, base)
    if decomposition is not None:
        summary["decomposition"] = decomposition_summary(plan, decomposition, ordered)
    return Results(plan, deals[0], ordered, ordered_sessions, summary)


def decomposition_summary(plan: Plan, d: Decomposition,
                          rows: dict[tuple[int, int], list[Row]]) -> dict[str, Any]:
    """The decomposition's figures at every table where one bot plays every seat, and
    for each rule and measurement whether it is mechanics or the bots' response."""
    texts = [r.text for r in plan.readings]
    out = d.to_json()
    by_table: dict[str, list[dict[str, Any]]] = {}
    random_table = None
    for ti, table in enumerate(plan.tables):
        if table.hero is not None:
            continue
        if table.field.level == "random":
            random_table = table.name
        by_table[table.name] = contributions(d, {t: rows.get((ri, ti), []) for ri, t in enumerate(texts)})
    out["random_table"] = random_table
    out["tables"] = by_table
    out["verdict"] = verdict(by_table, random_table)
    out["real_at"] = real_at(by_table)
    return out


def deals_in(plan: Plan, batch: Sequence[int]) -> int:
    """How many deals a batch stands for on the progress bar (a session: its regular deals)."""
    ri, _, first, stop = batch
    per = plan.readings[ri].rules.deals if plan.sessions else 1
    return (stop - first) * per


def run(
    readings: Sequence[str | Reading],
    bots: Sequence[str] = ("heuristic",),
    deals: int = 1000,
    seed: int = 1,
    sessions: bool = False,
    jobs: int = 1,
    backend: str = "process",
    address: str | None = None,
    out: Path | str | None = None,
    fresh: bool = False,
    progress: Progress | None = None,
    base: str | None = FIRST,
    skill_deals: int | None = None,
    decomposition: tuple[str, str] | None = None,
    sweep: str | None = None,
) -> Results:
    """Play ``deals`` deals of every reading at every table of ``bots`` (mixes: a level
    for every seat, or ``HERO,FIELD``) and measure them; see :mod:`lald.lab.measure` for
    what is paired. ``out``: a results directory to keep finished batches in (resumed
    when run again; one of another set-up is refused). ``base``: the reading every other
    is compared with (:data:`FIRST`: the first; None: every pair). ``skill_deals``: deals
    per reading at the hero tables, if not ``deals`` (a costly hero needs fewer; its gain
    is paired on the deals both tables played). ``progress(done,
    total)`` hears the deals played. ``decomposition=(A, B)``: play A taken apart into B
    rule by rule instead of ``readings`` (which must then be empty;
    :mod:`lald.lab.decompose`), each compared with A. ``sweep="prize=0..10"``: play each of
    ``readings`` (both presets if none) at every value of that number option instead
    (:mod:`lald.lab.sweep`). On Ctrl-C the finished batches are already saved and
    KeyboardInterrupt propagates."""
    decomp = None
    if decomposition is not None:
        if readings:
            raise ValueError("a decomposition plays its own readings: name none besides its two")
        decomp = decompose(*decomposition, sessions=sessions)
        readings, base = decomp.readings(), decomp.base.text
    swept = None
    if sweep is not None:
        from .sweep import parse_sweep, sweep_readings

        swept = parse_sweep(sweep)
        readings = sweep_readings(readings or PRESETS, *swept)
    if deals < 1 or skill_deals is not None and skill_deals < 1:
        raise ValueError(f"deals {min(deals, skill_deals or deals)}: play at least one deal")
    plan = _plan(readings, bots, seed, sessions)
    texts = [r.text for r in plan.readings]
    if base == FIRST:
        base = texts[0] if len(texts) > 1 else None
    elif base is not None:
        from .reading import parse_reading

        base = parse_reading(base).text
        if base not in texts:
            raise ValueError(f"base reading {base!r} is not among the readings played")
    checkpoint = Checkpoint(Path(out), plan, fresh) if out is not None else None
    done = list(checkpoint.batches) if checkpoint else []
    saved = len(done)
    counts = per_table(plan, deals, skill_deals)
    todo = batches_todo(plan, counts, done)
    total = sum(plan.units(r, counts[ti]) * (r.rules.deals if sessions else 1)
                for r in plan.readings for ti in range(len(plan.tables)))
    played = total - sum(deals_in(plan, b) for b in todo)
    if progress:
        progress(played, total)
    cpu = 0.0
    try:
        for result in run_batches(ReadingsJob(plan), todo, backend, jobs, address):
            cpu += float(result.get("cpu", 0.0))
            done.append(result)
            if checkpoint:
                checkpoint.add(result)
            played += deals_in(plan, result["batch"])
            if progress:
                progress(played, total)
    finally:
        if checkpoint:
            checkpoint.close()
    results = collect(plan, counts, done, base, decomp)
    if swept is not None:
        from .sweep import summarize_sweep

        results.summary["sweep"] = summarize_sweep(plan, results.rows, *swept)
    results.cpu_seconds = cpu
    results.cpu_total = sum(float(b.get("cpu", 0.0)) for b in done)
    results.resumed = saved > 0
    return results
