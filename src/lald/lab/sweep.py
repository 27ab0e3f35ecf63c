"""A sweep: one reading played across a range of one number option's values, on the same
deals, to see where an effect vanishes: at what prize is the dealer's edge gone?

``--sweep prize=0..10`` plays each reading named (both presets when none is) with
``prize`` set to 0, 1, ... 10; every value of a reading is paired deal by deal with the
others. The *dealer's edge* of a deal is the dealer's chips minus the mean of the other
positions' chips (docs/rules.md#7-settlement), its ante included; it vanishes where its
interval covers zero, and its mean crosses zero between two values.

>>> parse_sweep("prize=0..3")
('prize', [0, 1, 2, 3])
>>> [r.text for r in sweep_readings(["survivor/4"], "prize", [2, 3])]
['survivor:prize=2/4', 'survivor/4']
>>> parse_sweep("prize=10..0")
Traceback (most recent call last):
  ...
ValueError: --sweep prize=10..0: the range must rise, e.g. prize=0..10
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..core import OPTION_NAMES, Rules, RulesError
from ..core.rules import RANGES
from .analysis import mean
from .measure import COLUMN, Plan, Row
from .reading import Reading, parse_reading, reading_of

#: At most this many values in one sweep.
MAX_VALUES = 21


def parse_sweep(text: str) -> tuple[str, list[int]]:
    """``NAME=LOW..HIGH`` for a number option; ValueError with a one-line reason."""
    name, eq, span = text.partition("=")
    name = name.strip()
    low, dots, high = span.partition("..")
    if not eq or not dots or not name:
        raise ValueError(f"--sweep {text}: write an option and a range, e.g. prize=0..10")
    if name not in RANGES:
        numbers = ", ".join(RANGES)
        kind = "not a number option" if name in OPTION_NAMES else "unknown option"
        raise ValueError(f"--sweep {text}: {kind} {name!r}: sweep one of {numbers}")
    try:
        a, b = int(low), int(high)
    except ValueError:
        raise ValueError(f"--sweep {text}: write the range as two whole numbers, e.g. {name}=0..10") from None
    if a > b:
        raise ValueError(f"--sweep {text}: the range must rise, e.g. {name}={b}..{a}")
    lo, hi = RANGES[name]
    if a < lo or b > hi:
        raise ValueError(f"--sweep {text}: {name} goes from {lo} to {hi}")
    if b - a + 1 > MAX_VALUES:
        raise ValueError(f"--sweep {text}: at most {MAX_VALUES} values in one sweep")
    return name, list(range(a, b + 1))


def sweep_readings(bases: Sequence[str | Reading], name: str, values: Sequence[int]) -> list[Reading]:
    """Each base reading with ``name`` set to each value, base by base."""
    out: list[Reading] = []
    for base in bases:
        reading = base if isinstance(base, Reading) else parse_reading(base)
        for v in values:
            try:
                rules: Rules = reading.rules.replace(**{name: v})
            except RulesError as e:  # pragma: no cover - parse_sweep checked the range
                raise ValueError(f"--sweep: {e}") from None
            out.append(reading_of(rules))
    return out


def _edge(r: Row, players: int) -> float:
    others = [float(r[COLUMN[f"chips_{p}"]]) for p in range(1, players)]
    return float(r[COLUMN["chips_0"]]) - math.fsum(others) / len(others)


def summarize_sweep(plan: Plan, rows: Mapping[tuple[int, int], Sequence[Row]], name: str,
                    values: Sequence[int]) -> dict[str, Any]:
    """At every single-bot table, for each base reading: the dealer's edge and chips at
    each value, where the edge's interval covers zero, and where its mean crosses zero."""
    count = len(values)
    bases = [plan.readings[i] for i in range(0, len(plan.readings), count)]
    out: dict[str, Any] = {"option": name, "values": list(values), "tables": {}}
    for ti, table in enumerate(plan.tables):
        if table.hero is not None:
            continue
        lines = []
        for bi, base in enumerate(bases):
            points: list[dict[str, Any]] = []
            for k, v in enumerate(values):
                ri = bi * count + k
                rs = [r for r in rows.get((ri, ti), []) if not r[COLUMN["tie_break"]]]
                points.append({"value": v, "reading": plan.readings[ri].text,
                               "edge": mean(_edge(r, base.players) for r in rs).to_json(),
                               "dealer": mean(float(r[COLUMN["chips_0"]]) for r in rs).to_json()})
            lines.append({"reading": _base_text(base, name), "points": points,
                          "covers_zero": [p["value"] for p in points if _covers(p["edge"])],
                          "crossing": _crossing(points)})
        out["tables"][table.name] = lines
    return out


def _base_text(reading: Reading, name: str) -> str:
    """The base reading without the swept option: ``survivor/4``, ``last-capture``."""
    default = Rules.make(reading.rules.preset, reading.players, reading.rules.variants)
    return reading_of(reading.rules.replace(**{name: getattr(default, name)})).text


def _covers(est: dict[str, Any]) -> bool:
    return est["low"] is not None and est["low"] <= 0 <= est["high"]


def _crossing(points: Sequence[dict[str, Any]]) -> float | None:
    """Where the edge's mean crosses zero, by straight lines between values (None if it
    does not)."""
    for a, b in zip(points, points[1:], strict=False):
        ya, yb = a["edge"]["mean"], b["edge"]["mean"]
        if ya is None or yb is None:
            continue
        if ya == 0:
            return float(a["value"])
        if (ya < 0) != (yb < 0) or yb == 0:
            return float(f"{a['value'] + (b['value'] - a['value']) * ya / (ya - yb):.4g}")
    return None


def figure(sweep: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The sweep's plot: the dealer's edge against the option's value, one line per base
    reading and a panel per table, each point with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    from .report.plots import LEGEND, _bars, _figure, line_style

    tables = sweep["tables"]
    fig, axes = plt.subplots(len(tables), 1, figsize=(7.5, 0.6 + 3.0 * len(tables)), squeeze=False)
    for ax, (table, lines) in zip([row[0] for row in axes], tables.items(), strict=True):
        for i, line in enumerate(lines):
            colour, style = line_style(i)
            xs = [p["value"] for p in line["points"]]
            edges = [p["edge"] for p in line["points"]]
            ax.errorbar(xs, [e["mean"] for e in edges], yerr=_bars(edges), marker="o", markersize=3,
                        capsize=2, linewidth=1.3, color=colour, linestyle=style, label=line["reading"])
        ax.axhline(0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xlabel(sweep["option"])
        ax.set_ylabel("dealer's edge, chips per deal")
        ax.set_title(f"between {'random players' if table == 'random' else table + ' bots'}", fontsize=10)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(fontsize=LEGEND, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        ax.grid(alpha=0.3)
    words = ("The dealer's edge (the dealer's chips per deal minus the other positions' mean, antes "
             f"included) at each value of {sweep['option']}, with its 95% interval, one line per "
             "reading: it vanishes where the line meets the dashed zero.")
    return [("img", f"sweep-{sweep['option']}", _figure(fig), words)]
