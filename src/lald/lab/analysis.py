"""What the readings' deals show: every measurement with its 95% interval, the fairness
metrics, the hero's gain, and paired differences between readings with Holm's correction.

Intervals (docs/readings/README.md repeats them for readers):

- a mean per deal: Student's t over the deals;
- a proportion (how often something happens): Wilson's score interval;
- a ratio of two totals (the share of forced turns, the branching factor): the delta
  method, the ratio's linearised value per deal under Student's t;
- *balance* (Ludii's metric: 1 minus the largest gap between positions' win rates): the
  paired interval of the gap between the two positions furthest apart, as if that pair
  had been named in advance;
- *outcome uniformity* (Ludii's: 1 minus the positions' mean variance of the rank
  utility, 1 for first and -1 for last, ties sharing): Student's t over the deals'
  squared deviations.

A *difference* between two readings with the same number of players is paired deal by
deal (same cards, same seats, same bots' generators): Student's t on the per-deal
differences. Readings with different numbers of players share no cards: Welch's interval.
Each difference has a two-sided p-value; within one table, all of them are corrected
together by Holm's step-down method, and a difference is called *real* when its
corrected p-value is below 0.05.

>>> m = mean([1.0, 2.0, 3.0, 4.0])
>>> round(m.mean, 3), round(m.low, 3), round(m.high, 3)
(2.5, 0.446, 4.554)
>>> w = wilson(0, 20)
>>> w.mean, w.low, round(w.high, 3)
(0.0, 0.0, 0.161)
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..stats import Mean, _t_within, t_quantile_975

Row = list[Any]


@dataclasses.dataclass(frozen=True, slots=True)
class Est:
    """An estimate with its 95% interval."""

    mean: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, Any]:
        """Plain data, rounded to 8 significant digits (so a last-bit difference between
        two machines' mathematical libraries never shows)."""
        return {"mean": _r(self.mean), "low": _r(self.low), "high": _r(self.high), "n": self.n}

    def shifted(self, by: float) -> Est:
        """This estimate plus a constant."""
        return Est(self.mean + by, self.low + by, self.high + by, self.n)


def _r(x: float) -> float | None:
    if not math.isfinite(x):
        return None
    return float(f"{x:.8g}") + 0.0  # + 0.0 turns -0.0 into 0.0


def mean(values: Iterable[float]) -> Est:
    """A mean with Student's t interval."""
    m = Mean.of(values)
    if m.n >= 2 and m.sd == 0:
        return Est(m.mean, m.mean, m.mean, m.n)
    return Est(m.mean, m.low, m.high, m.n)


def wilson(k: float, n: int) -> Est:
    """A proportion of ``k`` in ``n`` with Wilson's score interval."""
    if n == 0:
        return Est(math.nan, math.nan, math.nan, 0)
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0))
    return Est(p, max(0.0, centre - half), min(1.0, centre + half), n)


def ratio(xs: Sequence[float], ys: Sequence[float]) -> Est:
    """The ratio of totals ``Σx / Σy`` with a delta-method interval."""
    n, sy = len(xs), math.fsum(ys)
    if n == 0 or sy == 0:
        return Est(math.nan, math.nan, math.nan, n)
    r = math.fsum(xs) / sy
    ybar = sy / n
    lin = [(x - r * y) / ybar for x, y in zip(xs, ys, strict=True)]
    m = mean(lin)
    return Est(r, r + m.low - m.mean, r + m.high - m.mean, n)


def p_value(t: float, df: float) -> float:
    """Two-sided p-value of Student's t (the normal law above 1000 degrees of freedom)."""
    t = abs(t)
    if df > 1000 or not math.isfinite(df):
        return math.erfc(t / math.sqrt(2))
    return max(0.0, 1.0 - _t_within(t, max(1, int(df))))


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of the p-values ``ps`` (same order)."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = _r(running) or 0.0
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class Difference:
    """Reading ``a`` minus reading ``b`` in one measure."""

    a: str
    b: str
    measure: str
    est: Est
    p: float
    paired: bool
    p_holm: float = math.nan

    @property
    def real(self) -> bool:
        """Whether the difference survives Holm's correction at 5%."""
        return self.p_holm < 0.05

    def to_json(self) -> dict[str, Any]:
        """Plain data."""
        return {"a": self.a, "b": self.b, "measure": self.measure, **self.est.to_json(),
                "p": _r(self.p), "p_holm": _r(self.p_holm), "paired": self.paired, "real": self.real}


def paired_difference(xs: Sequence[float], ys: Sequence[float]) -> tuple[Est, float]:
    """Mean of ``x - y`` deal by deal, its interval and p-value."""
    d = [x - y for x, y in zip(xs, ys, strict=True)]
    m = Mean.of(d)
    if m.n < 2:
        return Est(m.mean, math.nan, math.nan, m.n), math.nan
    if m.sd == 0:
        return Est(m.mean, m.mean, m.mean, m.n), (1.0 if m.mean == 0 else 0.0)
    return Est(m.mean, m.low, m.high, m.n), p_value(m.mean / (m.sd / math.sqrt(m.n)), m.n - 1)


def welch_difference(xs: Sequence[float], ys: Sequence[float]) -> tuple[Est, float]:
    """Mean of ``x`` minus mean of ``y`` for independent samples (Welch)."""
    a, b = Mean.of(xs), Mean.of(ys)
    diff = a.mean - b.mean
    if a.n < 2 or b.n < 2:
        return Est(diff, math.nan, math.nan, a.n + b.n), math.nan
    va, vb = a.sd ** 2 / a.n, b.sd ** 2 / b.n
    se = math.sqrt(va + vb)
    if se == 0:
        return Est(diff, diff, diff, a.n + b.n), (1.0 if diff == 0 else 0.0)
    df = (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1))
    half = t_quantile_975(max(1, int(df))) * se
    return Est(diff, diff - half, diff + half, a.n + b.n), p_value(diff / se, df)


# -- outcomes ---------------------------------------------------------------------------


def win_shares(scores: Sequence[float]) -> list[float]:
    """Each position's share of a win: 1 to the best score, split on a tie.

    >>> win_shares([3, 5, 5, 1])
    [0.0, 0.5, 0.5, 0.0]
    """
    best = max(scores)
    top = [s == best for s in scores]
    k = sum(top)
    return [1 / k if t else 0.0 for t in top]


def rank_utilities(scores: Sequence[float]) -> list[float]:
    """Ludii's rank utility: 1 for first, -1 for last, evenly between, ties sharing the
    mean of their ranks.

    >>> [round(u, 3) for u in rank_utilities([3, 5, 5, 1])]
    [-0.333, 0.667, 0.667, -1.0]
    """
    n = len(scores)
    if n < 2:
        return [0.0] * n
    order = sorted(range(n), key=lambda i: -scores[i])
    ranks = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return [1 - 2 * r / (n - 1) for r in ranks]


def balance(shares: Sequence[Sequence[float]]) -> tuple[Est, list[Est]]:
    """Ludii's balance over per-deal win shares by position, and each position's
    advantage (its win rate minus an equal share)."""
    n = len(shares[0]) if shares else 0
    if not shares or n < 2:
        return Est(math.nan, math.nan, math.nan, 0), []
    cols = list(zip(*shares, strict=True))
    rates = [math.fsum(c) / len(c) for c in cols]
    hi = max(range(n), key=lambda p: (rates[p], -p))
    lo = min((p for p in range(n) if p != hi), key=lambda p: (rates[p], p))
    gap = mean([a - b for a, b in zip(cols[hi], cols[lo], strict=True)])
    # balance cannot pass 1 (nor go below 0): the interval is cut there
    bal = Est(1 - gap.mean, max(0.0, 1 - gap.high), min(1.0, 1 - gap.low), gap.n)
    adv = [mean(c).shifted(-1 / n) for c in cols]
    return bal, adv


def uniformity(utilities: Sequence[Sequence[float]]) -> Est:
    """Ludii's outcome uniformity: 1 minus the positions' mean variance of the utility."""
    if not utilities:
        return Est(math.nan, math.nan, math.nan, 0)
    n = len(utilities[0])
    cols = list(zip(*utilities, strict=True))
    means = [math.fsum(c) / len(c) for c in cols]
    z = [math.fsum((u[p] - means[p]) ** 2 for p in range(n)) / n for u in utilities]
    m = mean(z)
    return Est(1 - m.mean, 1 - m.high, 1 - m.low, m.n)


def histogram(values: Iterable[int]) -> dict[str, int]:
    """Counts per value, in order of value (JSON keys are text)."""
    c = Counter(values)
    return {str(k): c[k] for k in sorted(c)}
