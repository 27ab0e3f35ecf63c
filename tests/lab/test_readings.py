"""The readings laboratory: notation, pairing, what is counted, reproducibility across
workers, resume and refusal, the statistics, and the files and report it writes."""

from __future__ import annotations

import csv
import hashlib
import json
import math
from pathlib import Path
from typing import Any

import pytest

from lald.core import Rules
from lald.lab import analysis
from lald.lab.experiment import BATCH_DEALS, Checkpoint, run
from lald.lab.measure import COLUMN, COLUMNS, Plan, ReadingsJob, parse_table, tables_of
from lald.lab.reading import STANDARD, describe, parse_reading, parse_readings, standard
from lald.lab.sources import source_line
from lald.play.batch import CheckpointError


def _hashes(directory: Path) -> dict[str, str]:
    names = ["deals.csv", "summary.json", "sessions.csv"]
    return {n: hashlib.sha256((directory / n).read_bytes()).hexdigest()
            for n in names if (directory / n).exists()}


def _rows(res: Any, reading: str, table: str) -> list[dict[str, Any]]:
    return [r for r in res.records() if r["reading"] == reading and r["table"] == table]


# -- the notation -----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "canonical", "players", "check"), [
    ("survivor", "survivor", 5, lambda r: r.prize == 5),
    ("last-capture/4", "last-capture/4", 4, lambda r: r.prize_rule.value == "last_capture"),
    ("survivor/4", "survivor/4", 4, lambda r: r.prize == 3),
    ("survivor+modern-laugh", "survivor+modern-laugh", 5, lambda r: r.no_capture.value == "trail"),
    ("survivor+silent+modern-laugh", "survivor+modern-laugh+silent", 5, lambda r: not r.laugh),
    ("survivor:single_takes_three=off", "survivor:single_takes_three=off", 5,
     lambda r: r.single_takes_three.value == "off"),
    (" last-capture:prize=7:spotter_claims=on/3 ", "last-capture:prize=7:spotter_claims=on/3", 3,
     lambda r: r.prize == 7 and r.spotter_claims),
    ("survivor:spotter_claims=on", "survivor", 5, lambda r: r.spotter_claims),
])
def test_reading_notation_reads_and_writes_the_canonical_form(text: str, canonical: str, players: int,
                                                             check: Any) -> None:
    r = parse_reading(text)
    assert r.text == canonical and r.players == players and check(r.rules)
    assert parse_reading(r.text) == r


@pytest.mark.parametrize(("text", "words"), [
    ("classic", "unknown preset 'classic'"),
    ("survivor+loud", "unknown variant 'loud'"),
    ("survivor/6", "unknown player count 6"),
    ("survivor/x", "write the player count"),
    ("survivor:prize", "write an option as :NAME=VALUE"),
    ("survivor:prize=-1", "from 0 to 100"),
    ("survivor:colour=red", "unknown option 'colour'"),
    ("survivor:prize=3:prize=4", "set twice"),
    ("", "an empty reading"),
])
def test_bad_readings_are_one_line_errors(text: str, words: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_reading(text)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_reading_named_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="named twice"):
        parse_readings(["survivor", "survivor:spotter_claims=on"])


def test_the_standard_set_is_both_presets_at_each_count_and_each_variant_on_each_preset() -> None:
    texts = [r.text for r in standard()]
    assert texts == list(STANDARD) and len(texts) == 12
    for preset in ("survivor", "last-capture"):
        for n in ("", "/4", "/3"):
            assert preset + n in texts
        for variant in ("modern-laugh", "low-stakes", "silent"):
            assert f"{preset}+{variant}" in texts


def test_readings_are_described_in_words_with_their_sources() -> None:
    words = " ".join(describe(Rules.make("last-capture", 4)))
    assert "last capture" in words and "cannot balance" in words and "-2" in words
    assert "pays out exactly" in " ".join(describe(Rules.make("survivor", 4)))
    assert "Parlett" in source_line(parse_reading("survivor").rules)
    assert "German and Portuguese" in source_line(parse_reading("last-capture").rules)
    assert "German text, Varianten" in source_line(parse_reading("survivor+modern-laugh").rules)
    assert "prize = 7: set by hand: no text gives it" in source_line(parse_reading("survivor:prize=7").rules)


@pytest.mark.parametrize(("mix", "words"), [
    ("cmd:cat", "readings seat only lald's own bots"),
    ("oracle", "sees every hand"),
    ("expert:time_limit=0.1", "a time limit makes play depend on the machine"),
    ("heuristic,random,greedy", "write one level"),
    ("chess", "unknown bot 'chess'"),
])
def test_bots_that_cannot_be_reproduced_are_refused(mix: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_table(mix)


def test_the_expert_plays_without_a_clock_whatever_form_its_parameters_take() -> None:
    """(seen before: once the expert read its parameters into a frozen value, readings no
    longer found its time limit and seated it with the default clock of 80 ms.)"""
    import random

    table = parse_table("expert:worlds=8,heuristic")
    assert table.hero is not None and ("=", "time_limit", "inf") in table.hero.params
    bot = table.hero.make(0, Rules.make("survivor"), random.Random(1))
    assert bot.time_limit == math.inf  # type: ignore[attr-defined]


def test_search_bots_play_by_their_world_cap_without_a_clock() -> None:
    table = parse_table("pimc:worlds=2,heuristic")
    assert table.hero is not None and ("=", "time_limit", "inf") in table.hero.params
    assert table.field.text == "heuristic" and table.name.endswith("among heuristic")
    assert [t.name for t in tables_of(["pimc:worlds=2,heuristic", "heuristic"])] == [
        "heuristic", table.name]


# -- pairing and what is counted -----------------------------------------------------------


def test_silent_changes_nothing_in_play_so_every_paired_difference_is_zero() -> None:
    res = run(["survivor", "survivor+silent"], bots=["heuristic"], deals=30, seed=5)
    a, b = _rows(res, "survivor", "heuristic"), _rows(res, "survivor+silent", "heuristic")
    assert [{k: v for k, v in r.items() if k != "reading"} for r in a] == [
        {k: v for k, v in r.items() if k != "reading"} for r in b]
    diffs = res.summary["tables"][0]["differences"]
    assert diffs and all(d["mean"] == 0 and not d["real"] and d["paired"] for d in diffs)


def test_same_count_readings_share_the_cards_and_the_dealer() -> None:
    res = run(["survivor", "last-capture", "survivor/3"], bots=["random"], deals=12, seed=3)
    a, b = _rows(res, "survivor", "random"), _rows(res, "last-capture", "random")
    assert [r["dealer"] for r in a] == [r["dealer"] for r in b] == [k % 5 for k in range(12)]
    assert [r["table_mournivals"] for r in a] == [r["table_mournivals"] for r in b]
    # the rules differ, so play differs somewhere
    assert [r["won_0"] for r in a] != [r["won_0"] for r in b]


def test_a_bot_among_copies_of_itself_gains_exactly_nothing() -> None:
    """The hero's seat, cards and generator are those of the field's bot it replaces."""
    res = run(["survivor/4", "last-capture/4"], bots=["heuristic,heuristic"], deals=24, seed=8)
    hero_table = res.summary["tables"][1]
    assert hero_table["table"] == "heuristic among heuristic"
    for entry in hero_table["readings"]:
        assert entry["skill"]["gain"] == {"mean": 0.0, "low": 0.0, "high": 0.0, "n": 24}
    heroes = [r["hero"] for r in _rows(res, "survivor/4", "heuristic among heuristic")]
    assert sorted(set(heroes)) == [0, 1, 2, 3] and heroes[:8] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_a_stronger_bot_gains_chips_among_weaker_ones() -> None:
    res = run(["survivor"], bots=["heuristic,random"], deals=200, seed=2)
    gain = res.summary["tables"][1]["readings"][0]["skill"]["gain"]
    assert gain["low"] > 0


def test_hero_tables_may_play_fewer_deals_paired_with_the_first_of_the_field() -> None:
    res = run(["survivor/3"], bots=["heuristic,random"], deals=40, seed=2, skill_deals=15)
    field, hero = res.summary["tables"]
    assert field["readings"][0]["deals"] == 40 and hero["readings"][0]["deals"] == 15
    assert hero["readings"][0]["skill"]["gain"]["n"] == 15


def test_the_counts_of_a_deal_add_up() -> None:
    res = run(["survivor", "last-capture/4", "survivor+modern-laugh", "last-capture+low-stakes"],
              bots=["random"], deals=40, seed=11)
    for r in res.records():
        captures = r["single"] + r["sweep"] + r["pair"] + r["prial"]
        claims = r["hand_set"] + r["dead"] + r["spotter"]
        assert captures + r["lie_downs"] + r["trails"] == r["turns"] == r["decisions"]
        assert r["turns"] + claims == r["actions"]
        assert r["forced"] <= r["decisions"] <= r["choices"] and r["out_of_turn"] <= claims
        n = r["players"]
        assert sum(r[f"won_{p}"] for p in range(n)) == 52
        assert len(r["lie_order"].split()) == r["lie_downs"]
        change = r["pot_after"] - r["pot_before"]
        if r["reading"] == "survivor":
            assert change == 0 and sum(r[f"chips_{p}"] for p in range(5)) == 0
        if r["reading"] == "last-capture/4":
            assert r["sweep"] == r["spotter"] == 0
            assert change == (-2 if r["last_capture"] is not None else 3)
        if r["reading"] == "survivor+modern-laugh":
            assert r["lie_downs"] == 0
        if r["reading"] == "last-capture+low-stakes":
            assert all(r[f"chips_{p}"] == 0 for p in range(5)) and r["prize_to"] is None
    trails = sum(r["trails"] for r in res.records() if r["reading"] == "survivor+modern-laugh")
    assert trails > 0


def test_chips_are_not_compared_with_a_reading_that_counts_none() -> None:
    """Under low-stakes no chips move: seen before, the report called "survivor+low-stakes
    against survivor: the dealer's chips -0.98" a real difference, which is only
    survivor's own chips with the sign turned, and compared a hero's gain in cards with
    one in chips."""
    res = run(["survivor", "survivor+low-stakes", "last-capture", "last-capture+low-stakes"],
              bots=["heuristic,random"], deals=30, seed=3, base=None)
    for table in res.summary["tables"]:
        measured: dict[tuple[str, str], set[str]] = {}
        for d in table["differences"]:
            measured.setdefault((d["a"], d["b"]), set()).add(d["measure"])
        cards = "survivor+low-stakes", "last-capture+low-stakes"
        for (a, b), names in measured.items():
            money = {n for n in names if n.startswith("chips_") or n in ("pot_change", "gain")}
            if (a in cards) != (b in cards):
                assert not money, (a, b, money)
                assert "turns" in names
            elif a not in cards:
                assert {f"chips_{p}" for p in range(5)} <= names, (a, b)
        if table["hero"] is not None:
            assert "gain" in measured[("survivor", "last-capture")]  # every pair, in order
            assert "gain" in measured[("survivor+low-stakes", "last-capture+low-stakes")]


def test_sessions_carry_the_pot_and_play_tie_breaks() -> None:
    res = run(["last-capture/4", "survivor"], bots=["random"], deals=80, seed=1, sessions=True)
    s4 = res.summary["tables"][0]["readings"][0]["session"]
    assert s4["sessions"] == 20 and len(s4["pot_after_deal"]) == 4
    assert s4["pot_after_deal"][3]["mean"] < s4["pot_after_deal"][0]["mean"] < 0
    assert s4["below_zero"]["mean"] > 0.9
    s5 = res.summary["tables"][0]["readings"][1]["session"]
    assert s5["pot_final"] == {"mean": 0.0, "low": 0.0, "high": 0.0, "n": 16}
    assert s5["tie_break_deals"]["mean"] == 0  # survivor shares a tie
    for row in res.session_rows():
        pots = [int(x) for x in row[8].split()]
        assert row[10] == pots[-1] and row[9] == min(pots) and len(pots) == row[6]


def test_tie_break_deals_are_played_and_kept_out_of_the_paired_deals() -> None:
    res = run(["last-capture/3"], bots=["random"], deals=150, seed=4, sessions=True)
    rows = res.records()
    extra = [r for r in rows if r["tie_break"]]
    assert extra and all(r["index"] >= 3 for r in extra)
    entry = res.summary["tables"][0]["readings"][0]
    assert entry["deals"] == 150 and entry["session"]["tie_break_any"]["mean"] > 0


# -- reproducible, resumable ------------------------------------------------------------


def test_the_data_are_byte_identical_with_one_or_two_worker_processes(tmp_path: Path) -> None:
    args: dict[str, Any] = {"bots": ["random", "heuristic,random"], "deals": 2 * BATCH_DEALS + 10,
                            "seed": 9}
    one = run(["survivor/3", "last-capture/3"], jobs=1, **args)
    two = run(["survivor/3", "last-capture/3"], jobs=2, **args)
    one.write(tmp_path / "one")
    two.write(tmp_path / "two")
    assert _hashes(tmp_path / "one") == _hashes(tmp_path / "two")
    assert len(_hashes(tmp_path / "one")) == 2


def test_an_interrupted_run_resumes_to_the_same_data(tmp_path: Path) -> None:
    readings = ["survivor/4", "last-capture/4"]
    seen: list[int] = []

    def stop_after_a_batch(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        run(readings, bots=["random"], deals=3 * BATCH_DEALS, seed=2, out=out, progress=stop_after_a_batch)
    saved = (out / "batches.jsonl").read_text().splitlines()
    assert len(saved) == 2
    progress: list[tuple[int, int]] = []
    resumed = run(readings, bots=["random"], deals=3 * BATCH_DEALS, seed=2, out=out,
                  progress=lambda d, t: progress.append((d, t)))
    assert progress[0] == (2 * BATCH_DEALS, 6 * BATCH_DEALS) and progress[-1] == (600 // 2, 300)
    whole = run(readings, bots=["random"], deals=3 * BATCH_DEALS, seed=2)
    resumed.write(tmp_path / "a")
    whole.write(tmp_path / "b")
    assert _hashes(tmp_path / "a") == _hashes(tmp_path / "b")


def test_more_deals_extend_a_results_directory_and_a_cut_line_is_played_again(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run(["survivor/3"], bots=["random"], deals=60, seed=6, sessions=True, out=out)
    path = out / "batches.jsonl"
    text = path.read_text()
    path.write_text(text + text.splitlines()[0][:40])  # a line cut short by a hard kill
    more = run(["survivor/3"], bots=["random"], deals=90, seed=6, sessions=True, out=out)
    whole = run(["survivor/3"], bots=["random"], deals=90, seed=6, sessions=True)
    more.write(tmp_path / "a")
    whole.write(tmp_path / "b")
    assert _hashes(tmp_path / "a") == _hashes(tmp_path / "b") and len(_hashes(tmp_path / "a")) == 3


def test_a_results_directory_of_another_setup_is_refused(tmp_path: Path) -> None:
    run(["survivor/3"], bots=["random"], deals=2, seed=1, out=tmp_path)
    for change in ({"seed": 2}, {"bots": ["heuristic"]}, {"sessions": True}):
        kwargs: dict[str, Any] = {"bots": ["random"], "deals": 2, "seed": 1, "out": tmp_path, **change}
        with pytest.raises(CheckpointError, match="another set-up"):
            run(["survivor/3"], **kwargs)
    with pytest.raises(CheckpointError, match="another set-up"):
        run(["survivor/3", "survivor/4"], bots=["random"], deals=2, seed=1, out=tmp_path)
    plan = Plan((parse_reading("survivor/3"),), tables_of(["random"]), 1)
    Checkpoint(tmp_path, plan).close()  # the same set-up is accepted


# -- the statistics ---------------------------------------------------------------------


def test_holm_adjusts_step_down_and_keeps_the_order() -> None:
    assert analysis.holm([0.01, 0.02, 0.03, 0.5]) == [0.04, 0.06, 0.06, 0.5]
    assert analysis.holm([0.3, 0.001]) == [0.3, 0.002]


def test_the_t_p_value_matches_the_tables() -> None:
    assert analysis.p_value(2.228, 10) == pytest.approx(0.05, abs=2e-4)
    assert analysis.p_value(1.96, 5000) == pytest.approx(0.05, abs=1e-3)
    assert analysis.p_value(0.0, 30) == pytest.approx(1.0)


def test_paired_and_welch_differences() -> None:
    est, p = analysis.paired_difference([1.0, 2.0, 3.0, 4.0], [0.5, 1.6, 2.4, 3.5])
    assert est.mean == pytest.approx(0.5) and est.low > 0 and p < 0.01
    est, p = analysis.welch_difference([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert est.mean == 0 and p == pytest.approx(1.0)


def test_ratio_wilson_balance_and_uniformity() -> None:
    r = analysis.ratio([1, 2, 3, 4], [2, 4, 6, 8])
    assert r.mean == 0.5 and r.low == r.high == 0.5
    w = analysis.wilson(50, 100)
    assert w.mean == 0.5 and w.low == pytest.approx(0.4038, abs=1e-3)
    even = [[1.0, 0.0], [0.0, 1.0]] * 50
    bal, adv = analysis.balance(even)
    assert bal.mean == 1.0 and bal.high == 1.0 and bal.low < 1 and [a.mean for a in adv] == [0.0, 0.0]
    lopsided = [[1.0, 0.0]] * 60 + [[0.0, 1.0]] * 40
    bal, adv = analysis.balance(lopsided)
    assert bal.mean == pytest.approx(0.8) and bal.low < 0.8 < bal.high
    assert adv[0].mean == pytest.approx(0.1)
    assert analysis.uniformity([[1.0, -1.0]] * 10).mean == 1.0
    assert analysis.uniformity([[1.0, -1.0], [-1.0, 1.0]] * 10).mean == pytest.approx(0.0)


# -- the files and the report -----------------------------------------------------------


def test_the_files_hold_one_row_per_deal_and_the_summary(tmp_path: Path) -> None:
    res = run(["survivor", "last-capture/4"], bots=["heuristic"], deals=20, seed=3, sessions=True)
    paths = res.write(tmp_path)
    with (tmp_path / "deals.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == list(COLUMNS)
    assert len([r for r in rows if r["tie_break"] == "0"]) == 40
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["format"] == "lald-readings/1" and summary["deals"] == 20
    entry = summary["tables"][0]["readings"][1]
    for name in ("turns", "branching", "forced_share", "lie_downs", "residue", "sweep", "spotter",
                 "out_of_turn_share", "pot_change"):
        est = entry["measures"][name]
        assert set(est) == {"mean", "low", "high", "n"}
    assert len(entry["by_position"]["chips"]) == 4 and "balance" in entry["fairness"]
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    assert tmp_path / "deals.parquet" in paths
    table = pq.read_table(tmp_path / "deals.parquet")
    assert table.num_rows == len(rows) and table.column_names == list(COLUMNS)


def test_the_report_is_self_contained_and_every_plot_says_what_it_shows(tmp_path: Path) -> None:
    from lald.lab.report import write_report

    res = run(["survivor", "last-capture"], bots=["heuristic,random"], deals=20, seed=3, sessions=True)
    write_report(res.summary, tmp_path, {"command": "lald readings test", "seconds": 1.0})
    page = (tmp_path / "report.html").read_text()
    assert page.count("data:image/png;base64,") == page.count("<figcaption>") >= 9
    assert "src=\"http" not in page and "<link" not in page and "<script" not in page
    md = (tmp_path / "report.md").read_text()
    images = [line for line in md.splitlines() if line.startswith("![")]
    assert len(images) == page.count("<figcaption>")
    for line in images:
        name = line[line.index("](") + 2:-1]
        assert (tmp_path / name).exists()
    for words in ("Parlett", "German and Portuguese", "Skill", "Fairness", "Sessions", "Holm"):
        assert words in md


def test_readings_run_each_deal_through_the_job_from_its_number_alone() -> None:
    plan = Plan((parse_reading("survivor/3"),), tables_of(["random"]), seed=4)
    job = ReadingsJob(plan)
    whole = job.run((0, 0, 0, 6))["deals"]
    parts = job.run((0, 0, 3, 6))["deals"]
    assert whole[3:] == parts
    assert all(not math.isnan(float(r[COLUMN["turns"]])) for r in whole)
