"""``lald eval`` on the command line: the rows, the JSON, the same numbers twice, and
one-line refusals of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lald.cli import main


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    """A usage mistake: status 2, one line naming the command."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("lald eval: ") and words in err, err


@pytest.mark.parametrize(("argv", "words"), [
    (["eval", "chess"], "unknown bot 'chess': choose"),
    (["eval", "exprt"], "did you mean expert?"),
    (["eval", "agents/missing.py"], "agent 'agents/missing.py': no such file"),
    (["eval", "policy:file=/no/such/agent.py"], "policy:file=/no/such/agent.py"),
    (["eval", "greedy", "--deals", "0"], "--deals 0: give a number of deal groups from 1"),
    (["eval", "greedy", "--deals", "-3"], "--deals -3"),
    (["eval", "expert:time_limit=0.08"], "drop time_limit="),
    (["eval", "greedy", "--jobs", "0"], "--jobs 0"),
    (["eval", "greedy", "--timeout", "0"], "--timeout"),
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                                             words: str) -> None:
    _refused(capsys, argv, words)


def test_a_row_per_opponent_and_preset_with_the_lineup_stated(capsys: pytest.CaptureFixture[str]) -> None:
    main(["eval", "greedy", "--deals", "2", "--jobs", "1", "--quiet"])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert "the agent in 3 of the 5 seats and the opponent in 2" in lines[0]
    assert lines[1].split() == ["preset", "opponent", "agent", "−", "opponent", "95%", "interval"]
    rows = [line.split() for line in lines[2:10]]
    assert [(r[0], r[1]) for r in rows] == [
        (p, o) for p in ("survivor", "last-capture") for o in ("random", "greedy", "heuristic", "expert")]
    assert all(r[3] == "±" and r[5].startswith("[") for r in rows)
    assert "expert plays as expert:time_limit=inf" in out
    assert "the agent in 3 of the 5 seats" in err


def test_the_json_twice_is_the_same(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    policy = tmp_path / "first.py"
    policy.write_text("import numpy as np\n\n\ndef policy(observation, mask):\n"
                      "    return int(np.flatnonzero(mask)[0])\n")
    runs = []
    for jobs in ("1", "2"):
        main(["eval", str(policy), "--deals", "2", "--jobs", jobs, "--json"])
        out, _ = capsys.readouterr()
        runs.append(json.loads(out))
    assert runs[0] == runs[1]
    data = runs[0]
    assert data["agent"] == f"policy:file={policy}" and data["deals"] == 2
    assert len(data["rows"]) == 8 and data["lineup"] == {
        "agent": 3, "opponent": 2, "text": data["lineup"]["text"]}
    assert all(row["agent_fallbacks"] == 0 for row in data["rows"])
