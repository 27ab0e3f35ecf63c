"""The decomposition (issue 26, item 1): what each rule contributes, on paired deals."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from lald.cli import main
from lald.core import OPTION_NAMES
from lald.lab.decompose import MEASURED, decompose
from lald.lab.experiment import run
from lald.lab.reading import parse_reading

POSITIONS = ("dealer", "eldest", "3rd", "4th", "5th")


def _differ(a: str, b: str) -> set[str]:
    ra, rb = parse_reading(a).rules, parse_reading(b).rules
    return {n for n in OPTION_NAMES if getattr(ra, n) != getattr(rb, n)}


def test_a_decomposition_plays_each_differing_rule_alone_and_each_pair() -> None:
    d = decompose("survivor", "last-capture")
    target = parse_reading("last-capture").rules
    rules = [n for n, _, _ in d.rules]
    # every rule that differs and acts in a single deal; the tie-break acts only in sessions
    assert set(rules) == _differ("survivor", "last-capture") - {"tie_break"}
    assert d.left_out == ["tie_break"]
    for name, single in d.singles.items():
        assert _differ("survivor", single.text) == {name}
        assert getattr(single.rules, name) == getattr(target, name)
    assert set(d.pairs) == {(x, y) for i, x in enumerate(rules) for y in rules[i + 1:]}
    for (x, y), pair in d.pairs.items():
        assert _differ("survivor", pair.text) == {x, y}
    texts = [r.text for r in d.readings()]
    assert texts[:2] == ["survivor", "last-capture"] and len(texts) == len(set(texts)) == 2 + 5 + 10
    # in whole sessions the tie-break acts, and is a rule of its own
    assert "tie_break" in [n for n, _, _ in decompose("survivor", "last-capture", sessions=True).rules]


@pytest.mark.parametrize(("a", "b", "words"), [
    ("survivor", "last-capture/4", "different numbers of players"),
    ("survivor", "survivor:spotter_claims=on", "they play the same rules"),
    ("survivor", "survivor:tie_break=extra_deals", "add --sessions"),
    ("survivor", "classic", "unknown preset 'classic'"),
])
def test_a_decomposition_that_cannot_be_made_is_a_one_line_error(a: str, b: str, words: str) -> None:
    with pytest.raises(ValueError, match=words) as info:
        decompose(a, b)
    assert "\n" not in str(info.value)


def _measure(record: dict[str, Any], name: str) -> float:
    return float(record[name] if name != "residue" else record["residue"])


def test_its_figures_are_paired_differences_on_the_same_deals() -> None:
    res = run([], bots=["random"], deals=30, seed=5,
              decomposition=("survivor", "survivor:prize_rule=last_capture:spotter_claims=off"))
    d = res.summary["decomposition"]
    assert [r["rule"] for r in d["rules"]] == ["prize_rule", "spotter_claims"] and d["pairs"] == []
    by_reading: dict[str, dict[int, dict[str, Any]]] = {}
    for rec in res.records():
        by_reading.setdefault(rec["reading"], {})[rec["unit"]] = rec
    base = by_reading["survivor"]
    entries = {(e["kind"], tuple(e["rules"]), e["measure"]): e for e in d["tables"]["random"]}
    for r in d["rules"]:
        other = by_reading[r["reading"]]
        for name in ("turns", "residue", "spotter", "chips_0"):
            diffs = [_measure(other[k], name) - _measure(base[k], name) for k in sorted(base)]
            e = entries.get(("rule", (r["rule"],), name))
            if e is None:  # no spread at all and no p-value: then every deal differs by nothing
                assert not any(diffs)
                continue
            assert e["n"] == 30 and math.isclose(e["mean"], sum(diffs) / 30, abs_tol=1e-6)
    # the remainder is the total less the rules' contributions
    for name in MEASURED:
        parts = [entries.get((k, rs, name)) for k, rs in
                 [("total", ()), ("rule", ("prize_rule",)), ("rule", ("spotter_claims",)), ("remainder", ())]]
        if all(parts):
            total, a, b, rest = (p["mean"] for p in parts)  # type: ignore[index]
            assert math.isclose(rest, total - a - b, abs_tol=1e-6), name
    # the prize rule changes who is paid, never how random bots play: its length effect is nil
    assert entries[("rule", ("prize_rule",), "turns")]["mean"] == 0.0
    assert d["verdict"]["prize_rule|turns"] == "none"
    assert not any(e["p_holm"] < e["p"] for e in d["tables"]["random"])


def test_the_report_says_what_each_rule_contributes(tmp_path: Path) -> None:
    from lald.lab.report import build

    res = run([], bots=["random", "heuristic"], deals=12, seed=2,
              decomposition=("survivor", "last-capture"))
    text = "\n".join(str(b) for b in build(res.summary, {}))
    assert "What each rule contributes" in text
    assert "mechanics" in text and "bots' response" in text
    assert "prize_rule alone (survivor → last_capture)" in text
    assert "Left out: tie_break" in text
    for table in ("random", "heuristic"):
        assert f"{table}: length and how the deal unfolds" in text


def test_the_command_decomposes_and_refuses_other_readings_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    main(["readings", "--decompose", "survivor", "survivor:prize_rule=last_capture:spotter_claims=off",
          "--bots", "random", "--deals", "4", "--jobs", "1", "--quiet", "--report", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert "4 reading(s)" in err
    assert "what each rule contributes" in out and "prize_rule" in out
    assert "What each rule contributes" in (tmp_path / "report.md").read_text()
    for extra, words in ([["survivor"], "name no others"], [["--base", "survivor"], "leave out --base"],
                         [[], "different numbers of players"]):
        b = "last-capture/4" if not extra else "last-capture"
        with pytest.raises(SystemExit) as info:
            main(["readings", "--decompose", "survivor", b, *extra, "--out", str(tmp_path / "x"), "--quiet"])
        assert info.value.code == 2  # a usage mistake
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and words in err, err


def _diff(a: str, measure: str, mean: float, real: bool = True, paired: bool = True) -> dict[str, Any]:
    return {"a": a, "b": "survivor", "measure": measure, "mean": mean, "low": mean - 0.1,
            "high": mean + 0.1, "n": 1000, "p": 0.0 if real else 0.5, "p_holm": 0.0 if real else 0.9,
            "paired": paired, "real": real}


def test_what_is_real_gives_every_paired_real_difference_and_keeps_welch_apart() -> None:
    """(issue 26, item 3: the eldest's chips were given, the fifth seat's −0.43, the third
    and fourth seats, actions and singles, all real, were left out without a word.)"""
    from lald.lab.report.blocks import _findings

    diffs = [_diff("last-capture", "chips_1", 0.22), _diff("last-capture", "chips_4", -0.43),
             _diff("last-capture", "chips_2", 0.11), _diff("last-capture", "chips_3", -0.12),
             _diff("last-capture", "actions", -0.5), _diff("last-capture", "single", 0.3),
             _diff("last-capture", "forced", 0.2), _diff("last-capture", "claims", -0.4),
             _diff("last-capture", "turns", 0.77, real=False),
             _diff("survivor/4", "turns", -2.1, paired=False)]
    text = "\n".join(str(b) for b in _findings({"differences": diffs, "base": "survivor"}))
    listed = [d for d in diffs if d["real"] and d["paired"]]
    for d in listed:
        assert f"{d['mean']:+.2f}" in text, d["measure"]
    assert "the 5th hand's chips -0.43" in text and "actions per deal" in text
    assert "+0.77" not in text                      # not real: not listed
    assert "survivor/4 against" not in text and "-2.10" not in text  # Welch: not a rule difference
    assert "1 real difference(s) between readings with different numbers of players" in text


def test_the_help_the_report_and_the_rules_name_the_sources(capsys: pytest.CaptureFixture[str]) -> None:
    """(issue 26, item 2: "the English and Spanish rules texts" is not a citation; issue 33,
    item 1: the help, the report and the rules are written from one source map.)"""
    from lald.lab.report import build

    with pytest.raises(SystemExit):
        main(["readings", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    res = run(["survivor", "survivor/4", "last-capture"], bots=["random"], deals=2, seed=1)
    report = "\n".join(str(b) for b in build(res.summary, {}))
    rules = " ".join((Path(__file__).parents[2] / "docs" / "rules.md").read_text().split())
    for text in (help_text, report, rules):
        for words in ("Parlett", "Historic Card Games", "Porges", "Ways to Play", "Willughby",
                      "Book of Games", "1660", "Skelton", "Why Come Ye Nat to Courte?", "1522",
                      "Ashgate, 2003", "not known", "lald's choice", "German text, Spielablauf step 6",
                      "Spanish text, section 04"):
            assert words in text, words
    assert "a prize of 3: Porges (not in the four texts); lald's choice" in report
    assert "hand sets face down: German text" in report and "lald's reading" in report


def test_every_plot_keeps_its_lines_distinct_its_legends_outside_and_one_unit_an_axis(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(issue 26, item 4: 12 readings on a 10-colour cycle, legends over the data, chips and
    cards on one axis.)"""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_hex

    from lald.lab.reading import STANDARD
    from lald.lab.report import plots

    figures: list[Any] = []
    monkeypatch.setattr(plots, "_figure", lambda fig: figures.append(fig) or b"")
    res = run(list(STANDARD), bots=["random"], deals=10, seed=1, sessions=True)
    plots.figures(res.summary["tables"][0], True)
    assert len(figures) >= 4
    for fig in figures:
        fig.canvas.draw()
        pairs = []
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            legend = ax.get_legend()
            handles, labels = ax.get_legend_handles_labels()
            assert len(labels) <= 6, labels  # more lines are small multiples
            if legend is not None:  # outside the data: right of the plotting area
                assert legend.get_window_extent().x0 >= ax.get_window_extent().x1 - 1, labels
            if any(label in POSITIONS for label in labels):
                continue  # the positions plot: one colour per position, its readings on the axis
            for handle in handles:
                line = handle.lines[0] if hasattr(handle, "lines") else handle
                pairs.append((to_hex(line.get_color()), line.get_linestyle()))
            words = (ax.get_xlabel() + " " + ax.get_ylabel()).lower()
            assert not ("chips" in words and "cards" in words), words
        assert len(pairs) == len(set(pairs)), pairs
