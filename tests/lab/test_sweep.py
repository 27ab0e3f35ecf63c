"""A sweep of one number option (issue 33, item 4): the same deals at every value, the
dealer's edge at each, where it vanishes, and its plot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lald.cli import main
from lald.lab.experiment import run
from lald.lab.measure import COLUMN
from lald.lab.report import build
from lald.lab.sweep import _crossing, parse_sweep


def test_a_sweep_plays_every_value_of_each_reading_on_the_same_deals() -> None:
    res = run([], bots=["random"], deals=30, seed=4, sweep="prize=4..6")
    texts = [r.text for r in res.plan.readings]
    assert texts == ["survivor:prize=4", "survivor", "survivor:prize=6",
                     "last-capture:prize=4", "last-capture", "last-capture:prize=6"]
    sweep = res.summary["sweep"]
    assert sweep["option"] == "prize" and sweep["values"] == [4, 5, 6]
    lines = sweep["tables"]["random"]
    assert [line["reading"] for line in lines] == ["survivor", "last-capture"]
    # random play does not read the prize: the same deals are played, only the money differs
    for ri in (0, 1):
        a, b = res.rows[(ri, 0)], res.rows[(ri + 1, 0)]
        assert [r[COLUMN["turns"]] for r in a] == [r[COLUMN["turns"]] for r in b]
    # the edge is the dealer's chips less the others' mean, deal by deal
    rows = res.rows[(1, 0)]
    edge = sum(r[COLUMN["chips_0"]] - sum(r[COLUMN[f"chips_{p}"]] for p in range(1, 5)) / 4
               for r in rows) / len(rows)
    assert lines[0]["points"][1]["edge"]["mean"] == pytest.approx(edge, abs=1e-6)


def test_a_named_reading_is_swept_at_its_own_table() -> None:
    res = run(["survivor/4"], bots=["random"], deals=8, seed=1, sweep="prize=2..3")
    assert [r.text for r in res.plan.readings] == ["survivor:prize=2/4", "survivor/4"]
    assert res.summary["sweep"]["tables"]["random"][0]["reading"] == "survivor/4"


def _point(v: int, m: float) -> dict[str, Any]:
    return {"value": v, "edge": {"mean": m, "low": m - 1, "high": m + 1}}


def test_where_the_edge_crosses_zero() -> None:
    assert _crossing([_point(0, -1.0), _point(1, 1.0)]) == 0.5
    assert _crossing([_point(2, 3.0), _point(3, 1.0), _point(4, -1.0)]) == 3.5
    assert _crossing([_point(0, 1.0), _point(1, 2.0)]) is None


def test_the_command_prints_and_reports_the_sweep_with_its_plot(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    main(["readings", "--sweep", "prize=0..2", "--bots", "random", "--deals", "6", "--jobs", "1",
          "--quiet", "--report", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "random: the dealer's edge by prize" in out
    assert "survivor: the edge's interval covers zero at" in out
    assert (tmp_path / "plots" / "sweep-prize.png").exists()
    md = (tmp_path / "report.md").read_text()
    assert "## The dealer's edge across prize" in md and "--sweep prize=0..2" in md
    text = "\n".join(str(b) for b in build(__import__("json").loads((tmp_path / "summary.json").read_text()),
                                           {}))
    assert "The dealer's edge per deal between random players" in text


@pytest.mark.parametrize(("sweep", "words"), [
    ("prize=10..0", "the range must rise, e.g. prize=0..10"),
    ("colour=0..3", "unknown option 'colour'"),
    ("spotter_claims=0..1", "not a number option 'spotter_claims'"),
    ("prize=0..200", "prize goes from 0 to 100"),
    ("prize=0..50", "at most 21 values"),
    ("prize", "write an option and a range"),
    ("prize=a..b", "two whole numbers"),
])
def test_a_bad_sweep_is_a_one_line_usage_mistake(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 sweep: str, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        parse_sweep(sweep)
    with pytest.raises(SystemExit) as info:
        main(["readings", "--sweep", sweep, "--out", str(tmp_path), "--quiet"])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err, err


def test_a_sweep_with_a_decomposition_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as info:
        main(["readings", "--sweep", "prize=0..2", "--decompose", "survivor", "last-capture",
              "--out", str(tmp_path), "--quiet"])
    assert info.value.code == 2
    assert "give one of them" in capsys.readouterr().err
