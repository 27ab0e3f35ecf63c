"""Human evidence on the command line: ``lald db export-games`` (a site's finished deals as
a public dataset, docs/record.md#a-sites-games-lald-games1) and ``lald readings --records``
(the readings' figures on those deals beside the bots', docs/readings/README.md#human-evidence).

The site's database is read here, the one place that may join the store and the
laboratory: each stored table is handed to :mod:`lald.lab.evidence` as plain data, with
the names of the accounts that agreed to be named and no other.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from ..lab.evidence import GameLine, SiteTable

EXPORT = "lald db export-games"


def register_export(sub: Any, db_default: str, db_help: str) -> None:
    """Add ``export-games`` to ``lald db``."""
    q = sub.add_parser("export-games", help="write the site's finished deals as a public dataset: JSON lines "
                                            "(or Parquet), one record per deal, names only of accounts "
                                            "that agreed")
    q.add_argument("--db", default=db_default, help=db_help)
    q.add_argument("--out", default="-", metavar="FILE",
                   help="where to write: FILE.jsonl (JSON lines), FILE.parquet (Parquet, with pyarrow), "
                        "or - for standard output (the default, JSON lines)")
    q.set_defaults(func=cmd_export_games)


def _fail(message: str, command: str) -> NoReturn:
    print(f"{command}: {' '.join(message.split())}", file=sys.stderr)
    raise SystemExit(1)


def site_tables(url: str, command: str) -> list[SiteTable]:
    """Every table of the site's database at ``url``, as the laboratory takes it; a
    database that is not there, not lald's or not at this lald's revision fails in one line."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from ..lab.evidence import SiteSeat, SiteTable
    from ..store import Store, StoreError
    from ..store.accounts import Accounts
    from ..store.migrate import status
    from .host.serve import shown_url

    shown = shown_url(url)
    try:
        if status(url).revision is None:
            _fail(f"there is no lald database at {shown}", command)
        store = Store(url, upgrade=False)
        try:
            tables = store.load_tables()
            named = Accounts(store).shared_names(
                s.account for t in tables for s in t.seats if s.account is not None and s.human)
        finally:
            store.close()
    except (ArgumentError, NoSuchModuleError):
        _fail(f"{shown!r} is not a database URL lald can use "
              "(sqlite:///FILE or postgresql+psycopg://user@host/db)", command)
    except StoreError as e:
        _fail(f"cannot use the database {shown}: {e}", command)
    except (SQLAlchemyError, OSError, ValueError) as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()
        _fail(f"cannot read the database {shown}: {reason[0] if reason else type(e).__name__}", command)
    out = []
    for t in tables:
        seats = tuple(SiteSeat(s.human, s.level, named.get(s.account) if s.human and s.account is not None
                               else None) for s in sorted(t.seats, key=lambda s: s.seat))
        out.append(SiteTable(t.config.get("rules", {}), t.seed, t.secret, bool(t.config.get("lesson")),
                             t.status in ("waiting", "playing"), seats,
                             [list(deal) for deal in t.actions]))
    return out


def dataset_lines(tables: list[SiteTable]) -> tuple[list[dict[str, Any]], int]:
    """The dataset's lines of ``tables`` (games numbered from 1 in their order), and how
    many tables could not be replayed (left out)."""
    from ..core import IllegalActionError
    from ..core.actions import ActionSyntaxError
    from ..lab.evidence import export_lines

    lines: list[dict[str, Any]] = []
    broken = 0
    for table in tables:
        try:
            found = export_lines(table, len({line["game"] for line in lines}) + 1)
        except (IllegalActionError, ActionSyntaxError, ValueError):
            broken += 1
            continue
        lines.extend(found)
    return lines, broken


def write_parquet(lines: list[dict[str, Any]], path: Path) -> None:
    """The dataset as Parquet: the columns of a JSON line, the record as its JSON text."""
    import pyarrow as pa  # type: ignore[import-untyped, import-not-found, unused-ignore]
    import pyarrow.parquet as pq  # type: ignore[import-untyped, import-not-found, unused-ignore]

    columns = {
        "dataset": pa.array([line["dataset"] for line in lines], pa.string()),
        "game": pa.array([line["game"] for line in lines], pa.int64()),
        "deal": pa.array([line["deal"] for line in lines], pa.int64()),
        "players": pa.array([line["players"] for line in lines], pa.list_(pa.string())),
        "by": pa.array([line["by"] for line in lines], pa.list_(pa.string())),
        "record": pa.array([json.dumps(line["record"], ensure_ascii=False) for line in lines], pa.string()),
    }
    pq.write_table(pa.table(columns), path)


def cmd_export_games(args: argparse.Namespace) -> None:
    """Write the dataset; say on standard error how much was written."""
    lines, broken = dataset_lines(site_tables(args.db, EXPORT))
    games = len({line["game"] for line in lines})
    named = sum(1 for line in lines for name in line["record"]["names"] if not name.startswith("Seat "))
    out = args.out
    try:
        if out == "-":
            for line in lines:
                sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
            sys.stdout.flush()
        elif out.endswith(".parquet"):
            try:
                import pyarrow  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401
            except ImportError:
                _fail(f"--out {out}: Parquet needs pyarrow (pip install 'lald[parquet]'); "
                      "or write JSON lines (--out FILE.jsonl)", EXPORT)
            write_parquet(lines, Path(out))
        else:
            with open(out, "w", encoding="utf-8") as f:
                for line in lines:
                    f.write(json.dumps(line, ensure_ascii=False) + "\n")
    except OSError as e:
        _fail(f"cannot write {out}: {e.strerror or e}", EXPORT)
    print(f"lald: wrote {len(lines)} finished deal(s) of {games} game(s)"
          + ("" if out == "-" else f" to {out}") + f"; {named} seat(s) named by their accounts' consent"
          + (f"; {broken} table(s) that do not replay left out" if broken else ""), file=sys.stderr)


# -- lald readings --records --------------------------------------------------------------


def load_records(source: str) -> list[GameLine]:
    """The dataset's lines from a file (JSON lines, ``.parquet``, ``-`` for standard input)
    or, given a database URL (``sqlite:///site.db``), straight from the site's database."""
    from ..lab.evidence import read_lines
    from ..record import RecordError
    from .args import fail

    try:
        if "://" in source:
            lines, _broken = dataset_lines(site_tables(source, "lald readings"))
            return read_lines(lines)
        if source == "-":
            return read_lines(sys.stdin.read().splitlines())
        path = Path(source)
        if source.endswith(".parquet"):
            try:
                import pyarrow.parquet as pq  # type: ignore[import-untyped, import-not-found, unused-ignore]
            except ImportError:
                fail(f"{source}: reading Parquet needs pyarrow (pip install 'lald[parquet]')")
            try:
                rows = pq.read_table(path).to_pylist()
            except OSError as e:
                fail(f"cannot read {source} as Parquet: {' '.join(str(e).split())[:200]}")
            return read_lines([_parquet_row(row) for row in rows])
        with open(path, encoding="utf-8") as f:
            return read_lines(f.read().splitlines())
    except RecordError as e:
        fail(f"{source}: {e}")
    except UnicodeDecodeError:
        fail(f"{source}: not UTF-8 text (a dataset is JSON lines or .parquet)")
    except OSError as e:
        fail(f"cannot read {source}: {e.strerror or e}")


def _parquet_row(row: dict[str, Any]) -> dict[str, Any]:
    from ..record import RecordError, parse_json

    text = row.get("record")
    if not isinstance(text, str):
        raise RecordError("'record' must be the record's JSON text")
    return {**row, "record": parse_json(text)}


def cmd_records(args: argparse.Namespace) -> None:
    """``lald readings --records``: the figures, by reading, people beside bots."""
    from ..lab.evidence import measure_lines
    from ..lab.measure import parse_table
    from .args import fail, usage, with_nearest

    mixed = [flag for flag, given in (("READING", args.readings), ("--standard", args.standard),
                                      ("--decompose", args.decompose), ("--sessions", args.sessions),
                                      ("--report", args.report), ("--base", args.base))
             if given]
    if mixed:
        usage(f"--records measures the readings the games were played under, deal by deal: "
              f"leave out {mixed[0]}")
    if len(args.bots) > 1:
        usage("--records compares the people with one kind of bot: give --bots once (e.g. heuristic)")
    try:
        table = parse_table(args.bots[0] if args.bots else "heuristic")
        lines = load_records(args.records)
        if table.hero is not None:
            usage(f"--bots {table.name}: the people are compared with one kind of bot in every seat "
                  "(e.g. heuristic)")
        if not lines:
            fail(f"{args.records}: no finished deal to measure")
        evidence = measure_lines(lines, table, args.seed)
    except ValueError as e:
        usage(with_nearest(str(e)))
    data = evidence.to_json()
    _print_evidence(data)
    if args.out:
        out = Path(args.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
            (out / "evidence.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            fail(f"cannot write {out / 'evidence.json'}: {e.strerror or e}")
        print(f"wrote {out / 'evidence.json'}")


#: The figures in words, as the table shows them.
WORDS = {
    "single": "single captures", "sweep": "sweeps (one card takes three)", "pair": "pairs on pairs",
    "prial": "prials on singles", "sweep_chances": "turns a sweep was possible",
    "sweeps_held": "sweeps held back", "hand_set": "hand sets", "dead": "dead ranks laid down",
    "spotter": "spotter claims", "lie_down": "lay down (share)", "survived": "survived (share)",
    "chips": "chips", "won": "cards won", "turns": "turns", "lie_downs": "lie-downs",
    "survivor_last": "survivor made the last capture (share)", "residue": "residue to the dealer",
}


def _print_evidence(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..lab.evidence.figures import SHARES
    from ..lab.report import cell

    console = Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160)
    for entry in data["readings"]:
        for part, unit in (("seat", "per seat a person played, per deal"),
                           ("deal", "per deal people played at every seat")):
            if not entry[part]:
                continue
            count = entry["people_seats"] if part == "seat" else entry["people_deals"]
            t = Table(title=f"{entry['reading']}: people beside {data['bots']} bots on the same deals, "
                            f"{unit} ({count}; * real after Holm's correction)")
            for i, head in enumerate(("figure", "people", data["bots"], "people − bots")):
                t.add_column(head, justify="left" if i == 0 else "right")
            for measure, f in entry[part].items():
                d = f["difference"]
                pct = measure in SHARES
                t.add_row(WORDS.get(measure, measure), cell(f["people"], pct=pct), cell(f["bots"], pct=pct),
                          cell(d, pct=pct, signed=True) + (" *" if d["real"] else ""))
            console.print(t)
        if not entry["seat"] and not entry["deal"]:
            console.print(f"{entry['reading']}: {entry['deals']} deal(s), too few seats people played "
                          "throughout to measure (two at least)", highlight=False)
