"""The standard evaluation (``lald eval``): its rows are duplicate tournaments of the agent
against each opponent, they repeat exactly, and search bots play without their clock."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from lald.play.spec import parse_spec
from lald.tournament import evaluate as ev
from lald.tournament import report as rep
from lald.tournament.duplicate import run as run_tournament


def _small(agent: str, opponents: tuple[str, ...] = ("greedy",), presets: tuple[str, ...] = ("survivor",),
           deals: int = 3) -> ev.Evaluation:
    return ev.Evaluation(ev.reproducible(parse_spec(agent)), deals,
                         tuple(ev.reproducible(parse_spec(o)) for o in opponents), presets)


def test_the_ladder_and_both_presets_make_eight_rows_in_order() -> None:
    rows = ev.run(ev.Evaluation(parse_spec("greedy"), deals=2))
    assert [(r.preset, r.opponent) for r in rows] == [
        (p, o) for p in ("survivor", "last-capture") for o in ("random", "greedy", "heuristic", "expert")]
    assert [r.played_as for r in rows[:4]] == ["random", "greedy", "heuristic", "expert:time_limit=inf"]
    assert all(r.deals == 2 and r.difference.n == 2 and r.fallbacks == 0 for r in rows)


def test_every_row_is_the_duplicate_tournament_of_agent_and_opponent_at_five_seats() -> None:
    e = _small("heuristic", ("random", "greedy"), ("last-capture",), deals=4)
    rows = ev.run(e)
    for row, t in zip(rows, e.tournaments(), strict=True):
        assert t.players == 5 and t.seed == ev.SEED and t.rules.preset == "last-capture"
        assert [b.text for b in t.bots] == ["heuristic", row.played_as]
        # the agent holds three places of five, the opponent two
        assert sorted(t.lineups(0)[0]) == [0, 0, 0, 1, 1]
        report = rep.summarize(t, run_tournament(t, 4))
        assert row.difference == report.differences[0].diff
        assert row.agent == report.rows[0].chips


def test_a_level_against_itself_is_told_apart_and_near_zero() -> None:
    e = _small("random", ("random",), deals=2)
    assert [b.name for b in e.tournaments()[0].bots] == ["random#1", "random#2"]
    (row,) = ev.run(e)
    assert row.difference.low < 0 < row.difference.high


def test_the_same_evaluation_twice_gives_the_same_numbers_expert_included() -> None:
    first = ev.run(_small("expert", ("greedy", "expert"), deals=2))
    again = ev.run(_small("expert", ("greedy", "expert"), deals=2), jobs=2)
    assert [(r.difference, r.agent) for r in first] == [(r.difference, r.agent) for r in again]


def test_search_bots_play_their_worlds_without_a_clock() -> None:
    spec = ev.reproducible(parse_spec("pimc:worlds=8"))
    assert spec.text == "pimc:worlds=8:time_limit=inf"
    bot = spec.make(0, ev.Evaluation(spec).tournaments()[0].rules, random.Random(0))
    assert vars(bot)["time_limit"] == float("inf") and vars(bot)["worlds"] == 8
    assert ev.reproducible(parse_spec("heuristic")).text == "heuristic"
    assert ev.reproducible(parse_spec("cmd:python bot.py")).text == "cmd:python bot.py"


def test_a_clock_in_the_agents_spec_is_refused() -> None:
    with pytest.raises(ValueError, match="not a time: drop time_limit="):
        ev.reproducible(parse_spec("expert:time_limit=0.05"))


def test_an_agent_file_is_seated_by_its_ending(tmp_path: Path) -> None:
    policy, weights, other = tmp_path / "agent.py", tmp_path / "w.npz", tmp_path / "agent.txt"
    for path in (policy, weights, other):
        path.write_text("")
    assert ev.agent_text(str(policy)) == f"policy:file={policy}"
    assert ev.agent_text(str(weights)) == f"learned:file={weights}"
    with pytest.raises(ValueError, match="ends in .py or .pkl"):
        ev.agent_text(str(other))
    with pytest.raises(ValueError, match="no such file"):
        ev.agent_text(str(tmp_path / "missing.py"))
    assert ev.agent_text("expert") == "expert"


def test_the_json_names_the_protocol_and_every_row() -> None:
    e = _small("greedy", ("random",), deals=2)
    data = ev.to_json(e, ev.run(e))
    assert data["format"] == "lald-eval/1" and data["players"] == 5 and data["seed"] == ev.SEED
    assert data["lineup"]["agent"] == 3 and data["lineup"]["opponent"] == 2
    (row,) = data["rows"]
    assert set(row) == {"preset", "opponent", "played_as", "deals", "mean", "half", "low", "high",
                        "significant", "agent_chips", "agent_fallbacks"}
    assert row["low"] <= row["mean"] <= row["high"]


def test_no_deals_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one deal group"):
        dataclasses.replace(_small("greedy"), deals=0)
