"""A tournament's results per bot: strength with its 95% interval, session wins, decision
times and fallbacks; as a table, JSON, CSV and a plot.

Definitions (docs/bot-protocol.md repeats them for the command's users):

- *chips/deal*: a bot's mean chips per deal, antes included, over all the seats it
  played. The 95% interval is Student's t over deal groups: the rotations of one deal are
  averaged first, so the paired duplicate deals count as one sample each.
- *cards/deal*: the same for won cards above the quota; it is the strength under
  ``low-stakes``, where no chips move.
- *session*: ``players`` consecutive deal groups played by one rotation's lineup, the
  deal passing to the left, so every seat deals once, as in a session of docs/rules.md#8-the-session.
  The seats with the highest total (chips; under ``low-stakes`` deals won, then cards)
  win; a tie shares the win. A bot's *session win rate* is its seats' mean share of
  wins: ``1/players`` for bots of equal strength. Only complete sessions count.
- *decision time*: the wall time of each call to a bot's ``act`` (a turn action); the
  JSON also holds the ``claim`` calls. p50 and p99 are nearest-rank percentiles, to
  about 2% (logarithmic bins).
- *fallbacks*: deals in which an outside program's seat failed (time-out, crash,
  illegal answer) and played on as ``random``, or a learned policy chose action IDs that
  were not legal and had them replaced by random ones (kind ``illegal``).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core import Scoring
from ..stats import LogHistogram, Mean
from .duplicate import FORMAT, GroupResult, Tournament


@dataclasses.dataclass(slots=True)
class BotRow:
    """One bot's line of the results."""

    name: str
    seat_deals: int
    chips: Mean
    cards: Mean
    sessions: int
    session_wins: float
    act: LogHistogram
    claim: LogHistogram
    fallbacks: Counter[str]
    fallback_example: str | None

    @property
    def session_win_rate(self) -> float:
        """Mean share of session wins per seat (NaN without complete sessions)."""
        return self.session_wins / self.sessions if self.sessions else math.nan


@dataclasses.dataclass(frozen=True, slots=True)
class Difference:
    """Bot ``a`` minus bot ``b`` in the strength metric, paired by deal group."""

    a: str
    b: str
    diff: Mean


@dataclasses.dataclass(slots=True)
class Report:
    """Everything a finished (or partly finished) tournament shows."""

    tournament: Tournament
    deals: int
    metric: str
    """``chips``, or ``cards`` under card-count scoring."""
    rows: list[BotRow]
    differences: list[Difference]

    def strength(self, row: BotRow) -> Mean:
        """The row's strength in this report's metric."""
        return row.chips if self.metric == "chips" else row.cards


def summarize(t: Tournament, results: Mapping[int, GroupResult]) -> Report:
    """Aggregate the groups' results per bot."""
    k = len(t.bots)
    quota = t.rules.quota
    groups = sorted(results)
    chips: list[list[float]] = [[] for _ in range(k)]
    cards: list[list[float]] = [[] for _ in range(k)]
    seat_deals = [0] * k
    fallbacks: list[Counter[str]] = [Counter() for _ in range(k)]
    examples: list[str | None] = [None] * k
    act = [LogHistogram() for _ in range(k)]
    claim = [LogHistogram() for _ in range(k)]
    for g in groups:
        res = results[g]
        sums_c, sums_w, count = [0.0] * k, [0.0] * k, [0] * k
        for lineup, rot in zip(t.lineups(g), res["rotations"], strict=True):
            for s, b in enumerate(lineup):
                sums_c[b] += rot["chips"][s]
                sums_w[b] += rot["won"][s] - quota
                count[b] += 1
                why = rot["fallback"][s]
                if why is not None:
                    fallbacks[b][why.partition(":")[0]] += 1
                    examples[b] = examples[b] or why
        for b in range(k):
            chips[b].append(sums_c[b] / count[b])
            cards[b].append(sums_w[b] / count[b])
            seat_deals[b] += count[b]
            act[b].merge(LogHistogram.from_json(res["times"][b]["act"]))
            claim[b].merge(LogHistogram.from_json(res["times"][b]["claim"]))
    sessions, wins = _sessions(t, results)
    rows = [
        BotRow(t.bots[b].name, seat_deals[b], Mean.of(chips[b]), Mean.of(cards[b]),
               sessions[b], wins[b], act[b], claim[b], fallbacks[b], examples[b])
        for b in range(k)
    ]
    metric = "cards" if t.rules.scoring is Scoring.CARD_COUNT else "chips"
    samples = chips if metric == "chips" else cards
    differences = [
        Difference(t.bots[a].name, t.bots[b].name,
                   Mean.of(x - y for x, y in zip(samples[a], samples[b], strict=True)))
        for a in range(k) for b in range(a + 1, k)
    ]
    return Report(t, len(groups), metric, rows, differences)


def _sessions(t: Tournament, results: Mapping[int, GroupResult]) -> tuple[list[int], list[float]]:
    """Sessions played and session wins (shared on ties) per bot."""
    k, n = len(t.bots), t.players
    sessions, wins = [0] * k, [0.0] * k
    card_count = t.rules.scoring is Scoring.CARD_COUNT
    last = max(results, default=-1)
    for start in range(0, last + 1, n):
        block = [results.get(g) for g in range(start, start + n)]
        if any(res is None for res in block):
            continue
        for r, lineup in enumerate(t.lineups(start)):  # one session: the same places throughout
            keys: list[tuple[float, ...]] = []
            for s in range(n):
                rots = [res["rotations"][r] for res in block if res is not None]
                if card_count:
                    deals_won = sum(1 for rot in rots if rot["won"][s] == max(rot["won"]))
                    keys.append((deals_won, sum(rot["won"][s] for rot in rots)))
                else:
                    keys.append((sum(rot["chips"][s] for rot in rots),))
            best = max(keys)
            winners = [s for s in range(n) if keys[s] == best]
            for s, b in enumerate(lineup):
                sessions[b] += 1
                if s in winners:
                    wins[b] += 1 / len(winners)
    return sessions, wins


# -- output -----------------------------------------------------------------------------


def _ms(seconds: float) -> float:
    return seconds * 1000


def _ms_text(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.3g}"


def _fallback_text(row: BotRow) -> str:
    if not row.fallbacks:
        return "0"
    kinds = ", ".join(f"{kind} {c}" for kind, c in sorted(row.fallbacks.items()))
    return f"{sum(row.fallbacks.values())} ({kinds})"


def to_json(report: Report) -> dict[str, Any]:
    """The results as plain data (format ``lald-tournament/1``)."""
    t = report.tournament

    def mean(m: Mean) -> dict[str, Any]:
        return {"mean": m.mean, "low": m.low, "high": m.high, "half": m.half, "n": m.n}

    def times(h: LogHistogram) -> dict[str, Any]:
        return {"count": h.count, "mean_ms": _ms(h.mean), "p50_ms": _ms(h.quantile(50)),
                "p99_ms": _ms(h.quantile(99))}

    return {
        "format": FORMAT,
        "tournament": t.identity(),
        "deals": report.deals,
        "players": t.players,
        "rotations": t.rotations,
        "metric": report.metric,
        "bots": [
            {"name": row.name, "seat_deals": row.seat_deals, "chips": mean(row.chips),
             "cards": mean(row.cards), "sessions": row.sessions,
             "session_win_rate": row.session_win_rate, "act": times(row.act),
             "claim": times(row.claim), "fallbacks": dict(row.fallbacks),
             "fallback_example": row.fallback_example}
            for row in report.rows
        ],
        "differences": [{"a": d.a, "b": d.b, **mean(d.diff)} for d in report.differences],
    }


CSV_COLUMNS = (
    "bot", "seat_deals", "chips_mean", "chips_low", "chips_high", "cards_mean", "cards_low",
    "cards_high", "sessions", "session_win_rate", "act_mean_ms", "act_p50_ms", "act_p99_ms",
    "fallbacks",
)


def to_csv(report: Report) -> str:
    """One line per bot, with the columns of :data:`CSV_COLUMNS`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in report.rows:
        writer.writerow([
            row.name, row.seat_deals, f"{row.chips.mean:.4f}", f"{row.chips.low:.4f}",
            f"{row.chips.high:.4f}", f"{row.cards.mean:.4f}", f"{row.cards.low:.4f}",
            f"{row.cards.high:.4f}", row.sessions, f"{row.session_win_rate:.4f}",
            f"{_ms(row.act.mean):.4f}", f"{_ms(row.act.quantile(50)):.4f}",
            f"{_ms(row.act.quantile(99)):.4f}", sum(row.fallbacks.values()),
        ])
    return out.getvalue()


def table_rows(report: Report) -> tuple[list[str], list[list[str]]]:
    """The printed table as text cells: a header and one line per bot, strongest first."""
    unit = "chips/deal" if report.metric == "chips" else "cards/deal"
    header = ["bot", unit, "95% CI", "session wins", "ms mean", "ms p50", "ms p99", "fallbacks"]
    lines = []
    for row in sorted(report.rows, key=lambda r: -report.strength(r).mean):
        m = report.strength(row)
        mark = " *" if row.fallbacks else ""
        rate = row.session_win_rate
        lines.append([
            row.name + mark, f"{m.mean:+.3f} ± {m.half:.3f}", f"[{m.low:+.3f}, {m.high:+.3f}]",
            "-" if math.isnan(rate) else f"{rate:.1%} of {row.sessions}",
            _ms_text(row.act.mean), _ms_text(row.act.quantile(50)),
            _ms_text(row.act.quantile(99)), _fallback_text(row),
        ])
    return header, lines


def difference_lines(report: Report) -> list[str]:
    """One line per pair of bots: the paired difference and whether it is significant."""
    out = []
    for d in report.differences:
        m = d.diff
        verdict = "significant" if m.excludes_zero() else "not significant"
        out.append(f"{d.a} − {d.b}: {m.mean:+.3f} ± {m.half:.3f} {report.metric}/deal "
                   f"[{m.low:+.3f}, {m.high:+.3f}], {verdict}")
    return out


def write(report: Report, directory: Path) -> tuple[Path, Path]:
    """Write ``results.json`` and ``results.csv`` into ``directory``."""
    import json

    json_path, csv_path = directory / "results.json", directory / "results.csv"
    json_path.write_text(json.dumps(to_json(report), indent=2, allow_nan=True) + "\n", encoding="utf-8")
    csv_path.write_text(to_csv(report), encoding="utf-8")
    return json_path, csv_path


def plot(report: Report, path: Path) -> None:
    """Draw each bot's strength with its 95% interval (matplotlib, imported here)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows: Sequence[BotRow] = sorted(report.rows, key=lambda r: report.strength(r).mean)
    means = [report.strength(r).mean for r in rows]
    halves = [report.strength(r).half if math.isfinite(report.strength(r).half) else 0 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.5 * len(rows)))
    ys = list(range(len(rows)))
    ax.errorbar(means, ys, xerr=halves, fmt="o", capsize=4, color="tab:blue")
    ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_yticks(ys, [r.name + (" *" if r.fallbacks else "") for r in rows])
    t = report.tournament
    ax.set_xlabel(f"mean {report.metric} per deal, 95% interval")
    ax.set_title(f"{t.rules.preset}, {t.players} players"
                 + (f", {', '.join(t.rules.variants)}" if t.rules.variants else "")
                 + f": {report.deals} duplicate deals", fontsize=10)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
