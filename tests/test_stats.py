"""The tournament's statistics: t intervals, percentiles, logarithmic histograms."""

from __future__ import annotations

import doctest
import math
import random

import pytest

import lald.bots.external
import lald.play.spec
import lald.stats
import lald.tournament.duplicate
import lald.tournament.report
from lald.stats import LogHistogram, Mean, percentile, t_quantile_975


@pytest.mark.parametrize("module", [lald.stats, lald.play.spec, lald.tournament.duplicate,
                                    lald.tournament.report, lald.bots.external])
def test_doctests(module: object) -> None:
    failed, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failed == 0


@pytest.mark.parametrize(("df", "value"), [
    (1, 12.7062047), (2, 4.3026527), (3, 3.1824463), (4, 2.7764451), (7, 2.3646243),
    (20, 2.0859634), (120, 1.9799304), (999, 1.9623415), (5000, 1.9604386), (10**6, 1.9599659),
])
def test_t_quantile_matches_tables(df: int, value: float) -> None:
    assert t_quantile_975(df) == pytest.approx(value, abs=2e-6)


def test_t_quantile_needs_a_degree_of_freedom() -> None:
    with pytest.raises(ValueError):
        t_quantile_975(0)


def test_mean_interval_by_hand() -> None:
    m = Mean.of([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    sd = math.sqrt(32 / 7)
    assert m.mean == 5.0 and m.n == 8
    assert m.sd == pytest.approx(sd)
    assert m.half == pytest.approx(2.3646243 * sd / math.sqrt(8), rel=1e-6)
    assert m.low < 5 < m.high and m.excludes_zero()
    assert not Mean.of([-1.0, 1.0, 0.5, -0.5]).excludes_zero()


def test_mean_of_too_few_values() -> None:
    assert math.isnan(Mean.of([]).mean) and Mean.of([]).half == math.inf
    one = Mean.of([3.0])
    assert one.mean == 3.0 and one.half == math.inf and not one.excludes_zero()


def test_interval_covers_the_true_mean_about_95_percent_of_the_time() -> None:
    rng = random.Random(5)
    covered = 0
    trials = 2000
    for _ in range(trials):
        m = Mean.of(rng.gauss(1.0, 2.0) for _ in range(6))
        covered += m.low <= 1.0 <= m.high
    assert 0.93 < covered / trials < 0.97


def test_percentile_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    random.Random(1).shuffle(values)
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0
    assert percentile(values, 0) == 1.0
    assert math.isnan(percentile([], 50))
    with pytest.raises(ValueError):
        percentile(values, 101)


def test_histogram_percentiles_within_a_bin_of_the_exact_ones() -> None:
    rng = random.Random(2)
    values = [rng.lognormvariate(-6, 1.5) for _ in range(20000)]
    h = LogHistogram()
    for v in values:
        h.add(v)
    assert h.count == len(values)
    assert h.mean == pytest.approx(sum(values) / len(values))
    for q in (1, 50, 90, 99):
        assert h.quantile(q) == pytest.approx(percentile(values, q), rel=0.03)


def test_histograms_merge_and_round_trip() -> None:
    a, b, both = LogHistogram(), LogHistogram(), LogHistogram()
    for i, v in enumerate([0.001, 0.002, 0.5, 0.0, 3.0, 0.0001]):
        (a if i % 2 else b).add(v)
        both.add(v)
    a.merge(b)
    assert (a.bins, a.count) == (both.bins, both.count)
    assert a.total == pytest.approx(both.total)
    back = LogHistogram.from_json(a.to_json())
    assert (back.bins, back.count, back.total) == (a.bins, a.count, a.total)
    assert math.isnan(LogHistogram().quantile(50)) and math.isnan(LogHistogram().mean)
