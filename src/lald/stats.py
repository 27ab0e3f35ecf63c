"""The small statistics a tournament needs: means with 95% intervals, and percentiles.

Duplicate deals are paired: the rotations of one deal share its cards, so they are not
independent samples. A tournament therefore averages each bot's results over the
rotations of a deal first, and the interval is computed over those per-deal means, one
sample per deal.

>>> m = Mean.of([1.0, 2.0, 3.0, 4.0])
>>> m.mean, round(m.half, 3), m.n
(2.5, 2.054, 4)
>>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 50)
3.0
>>> h = LogHistogram()
>>> for t in (0.001, 0.002, 0.004):
...     h.add(t)
>>> round(h.quantile(50), 4), round(h.mean, 4)
(0.002, 0.0023)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence


def _t_within(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with integer ``df`` (Abramowitz and Stegun 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:
        if df == 1:
            return 2 * theta / math.pi
        term = total = math.cos(theta)
        for k in range(3, df - 1, 2):
            term *= (k - 1) / k * c2
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term = total = 1.0
    for k in range(2, df - 1, 2):
        term *= (k - 1) / k * c2
        total += term
    return math.sin(theta) * total


def t_quantile_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom, the factor of a
    two-sided 95% interval: solved exactly up to 1000, a Cornish-Fisher expansion above.

    >>> [round(t_quantile_975(d), 3) for d in (1, 2, 5, 10, 30, 5000)]
    [12.706, 4.303, 2.571, 2.228, 2.042, 1.96]
    """
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df > 1000:
        z, v = 1.959963984540054, float(df)
        return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
                + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3))
    low, high = 0.0, 1000.0
    for _ in range(64):
        mid = (low + high) / 2
        if _t_within(mid, df) < 0.95:
            low = mid
        else:
            high = mid
    return (low + high) / 2


@dataclasses.dataclass(frozen=True, slots=True)
class Mean:
    """A sample mean with the half-width of its two-sided 95% confidence interval
    (Student's t; ``half`` is infinite with fewer than two samples)."""

    mean: float
    half: float
    n: int
    sd: float

    @classmethod
    def of(cls, values: Iterable[float]) -> Mean:
        """The mean of ``values`` and its interval."""
        xs = list(values)
        n = len(xs)
        if n == 0:
            return cls(math.nan, math.inf, 0, math.nan)
        mean = math.fsum(xs) / n
        if n == 1:
            return cls(mean, math.inf, 1, math.nan)
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
        return cls(mean, t_quantile_975(n - 1) * sd / math.sqrt(n), n, sd)

    @property
    def low(self) -> float:
        """The interval's lower end."""
        return self.mean - self.half

    @property
    def high(self) -> float:
        """The interval's upper end."""
        return self.mean + self.half

    def excludes_zero(self) -> bool:
        """Whether the interval lies wholly above or wholly below zero."""
        return self.low > 0 or self.high < 0


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by the nearest-rank method: the smallest value
    with at least ``q`` percent of the values at or below it.

    >>> percentile(list(range(1, 101)), 99), percentile([7.0], 50)
    (99, 7.0)
    """
    if not values:
        return math.nan
    if not 0 <= q <= 100:
        raise ValueError("a percentile lies between 0 and 100")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


#: Bins per doubling of a :class:`LogHistogram` (a bin is 2**(1/16), about 4.4% wide).
BINS_PER_OCTAVE = 16
_FLOOR = 1e-9


class LogHistogram:
    """Counts of positive values (decision times in seconds) in logarithmic bins, so that
    millions of timings fit in a few hundred numbers; the mean is exact, percentiles are
    accurate to half a bin (about 2%). Histograms add, and have a JSON form."""

    __slots__ = ("bins", "count", "total")

    def __init__(self) -> None:
        self.bins: dict[int, int] = {}
        self.count = 0
        self.total = 0.0

    def add(self, value: float) -> None:
        """Count one value (values below a nanosecond count as a nanosecond)."""
        b = math.floor(math.log2(max(value, _FLOOR)) * BINS_PER_OCTAVE)
        self.bins[b] = self.bins.get(b, 0) + 1
        self.count += 1
        self.total += value

    def merge(self, other: LogHistogram) -> None:
        """Add the counts of ``other`` to this one."""
        for b, c in other.bins.items():
            self.bins[b] = self.bins.get(b, 0) + c
        self.count += other.count
        self.total += other.total

    @property
    def mean(self) -> float:
        """The exact mean of the values counted (NaN when empty)."""
        return self.total / self.count if self.count else math.nan

    def quantile(self, q: float) -> float:
        """The ``q``-th percentile (0..100), nearest rank, as the geometric middle of its bin."""
        if not self.count:
            return math.nan
        if not 0 <= q <= 100:
            raise ValueError("a percentile lies between 0 and 100")
        rank = max(1, math.ceil(q / 100 * self.count))
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            if seen >= rank:
                return float(2 ** ((b + 0.5) / BINS_PER_OCTAVE))
        raise AssertionError("unreachable: the counts add up to count")  # pragma: no cover

    def to_json(self) -> dict[str, object]:
        """Plain data: ``{"n": count, "sum": total, "bins": {bin: count}}``."""
        return {"n": self.count, "sum": self.total, "bins": {str(b): c for b, c in self.bins.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> LogHistogram:
        """Rebuild a histogram from :meth:`to_json`."""
        h = cls()
        n, total, bins = data["n"], data["sum"], data["bins"]
        if not isinstance(n, int) or not isinstance(total, int | float) or not isinstance(bins, dict):
            raise ValueError("not a histogram")
        h.count, h.total = n, float(total)
        h.bins = {int(b): int(c) for b, c in bins.items()}
        return h
