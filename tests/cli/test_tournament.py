"""``lald tournament`` on the command line: runs, files, one-line errors, Ctrl-C and resume."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lald.cli import main
from lald.core import Rules
from lald.play.spec import parse_specs
from lald.tournament import report as rep
from lald.tournament.duplicate import Tournament, run

ROOT = Path(__file__).resolve().parents[2]


def _fails(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    """A mistake that is no usage mistake: status 1, one line."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("lald: ") and words in err, err


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    """A usage mistake: status 2, one line naming the command (issue 30: these exited 1)."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("lald tournament: ") and words in err, err
    assert "lald tournament --help" in err


@pytest.mark.parametrize(("extra", "words"), [
    (["--bots", "random,chess"], "unknown bot 'chess': choose"),
    (["--bot", "random:-deny"], "bot 'random' takes no habits"),
    (["--bot", "cmd:no-such-program-lald"], "'no-such-program-lald' not found"),
    (["--bot", "cmd:sh -c 'unbalanced"], "bad bot command"),
    ([], "name the bots"),
    (["--bots", "random", "--deals", "0"], "--deals 0"),
    # (seen before: a MemoryError's traceback, the deals' list built before the first)
    (["--bots", "random", "--deals", "1000000000"], "from 1 to 1,000,000"),
    (["--bots", "random", "--timeout", "0"], "--timeout"),
    (["--bots", "random", "--jobs", "0"], "--jobs 0"),
    (["--bots", "random", "--address", "127.0.0.1:1"], "add --backend ray"),
])
def test_bad_arguments_are_usage_mistakes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], words: str
) -> None:
    _refused(capsys, ["tournament", "--out", str(tmp_path), "--quiet", *extra], words)


def test_a_folder_that_cannot_be_written_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    _fails(capsys, ["tournament", "--bots", "random", "--out", "/proc/nope/x", "--quiet"],
           "cannot write the results there")


def test_a_misspelt_bot_suggests_the_nearest_level(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _refused(capsys, ["tournament", "--out", str(tmp_path), "--bots", "exprt,random"],
             "unknown bot 'exprt': did you mean expert? choose")
    _refused(capsys, ["tournament", "--out", str(tmp_path), "--bot", "random", "--bot", "medum:-deny"],
             "did you mean medium?")


@pytest.mark.parametrize(("extra", "words"), [
    (["--preset", "classic"], "unknown preset 'classic'"),
    (["--option", "prize=700"], "bad value 700 for prize"),
])
def test_bad_rules_flags_are_usage_mistakes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], words: str
) -> None:
    """A rules flag with a bad name or value exits 2, as docs/record.md#commands says usage mistakes do."""
    with pytest.raises(SystemExit) as info:
        main(["tournament", "--out", str(tmp_path), "--quiet", "--bots", "random", *extra])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("lald tournament: ") and words in err, err


def test_another_tournament_in_out_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = ["tournament", "--bots", "random", "--players", "3", "--deals", "1", "--quiet",
            "--jobs", "1", "--out", str(tmp_path)]
    main(base)
    capsys.readouterr()
    _fails(capsys, [*base, "--seed", "9"], "holds another tournament")


def test_run_prints_the_table_and_writes_the_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plot = tmp_path / "strength.png"
    main(["tournament", "--bots", "random,random", "--players", "4", "--preset", "last-capture",
          "--variant", "modern-laugh", "--deals", "4", "--jobs", "1", "--quiet",
          "--out", str(tmp_path / "run"), "--plot", str(plot)])
    out, err = capsys.readouterr()
    assert "4 duplicate deals × 4 rotations, last-capture, 4 players (modern-laugh)" in out
    assert "random#1" in out and "random#2" in out and "chips/deal" in out
    assert "random#1 − random#2:" in out
    assert "last-capture, 4 players (modern-laugh); bots random#1, random#2; 4 deals" in err
    data = json.loads((tmp_path / "run" / "results.json").read_text())
    assert data["tournament"]["rules"]["variants"] == ["modern-laugh"]
    assert (tmp_path / "run" / "results.csv").read_text().startswith("bot,seat_deals,")
    assert plot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_outside_bot_runs_in_a_tournament(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    main(["tournament", "--bots", "random", "--bot", f"cmd:node {ROOT / 'examples' / 'bot.js'}",
          "--players", "3", "--deals", "2", "--jobs", "1", "--quiet", "--out", str(tmp_path)])
    out, _ = capsys.readouterr()
    data = json.loads((tmp_path / "results.json").read_text())
    node = data["bots"][1]
    assert node["name"].startswith("cmd:node ") and node["fallbacks"] == {}
    assert node["act"]["count"] > 0
    assert "fell back" not in out


def test_failing_outside_bot_is_marked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    main(["tournament", "--bots", "random", "--bot", "cmd:sh -c 'while read l; do echo 99; done'",
          "--players", "3", "--deals", "2", "--jobs", "1", "--quiet", "--out", str(tmp_path)])
    out, _ = capsys.readouterr()
    assert "cmd:sh -c 'while read l; do echo 99; done' *" in out
    assert "fell back to random in 6 of 6 seat-deals, e.g. illegal: answered index 99" in out
    assert json.loads((tmp_path / "results.json").read_text())["bots"][1]["fallbacks"] == {"illegal": 6}


def test_ctrl_c_saves_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "lald", "tournament", "--bots", "random,random", "--players", "3",
            "--deals", "200", "--jobs", "2", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    checkpoint = out / "deals.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if checkpoint.exists() and checkpoint.read_text().count("\n") >= 3:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted:" in stderr and "run the same command again to resume" in stderr
    assert stdout == ""
    saved = checkpoint.read_text().count("\n")
    assert 3 <= saved < 200
    done = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert f"resuming with {saved} done" in done.stderr
    t = Tournament(Rules.make(players=3), tuple(parse_specs([], ["random,random"])))
    whole = rep.summarize(t, run(t, 200))
    data = json.loads((out / "results.json").read_text())
    assert [b["chips"]["mean"] for b in data["bots"]] == pytest.approx([r.chips.mean for r in whole.rows])
    rates = [r.session_win_rate for r in whole.rows]
    assert [b["session_win_rate"] for b in data["bots"]] == pytest.approx(rates)


# -- issue 26, item 5: every option in every bot, or one line before play --------------------


def test_ismcts_plays_a_tournament_with_a_single_option(tmp_path: Path) -> None:
    """Seen before: ``--bot ismcts --option prize=7`` printed a traceback once play began."""
    pytest.importorskip("pyspiel")
    done = subprocess.run(
        [sys.executable, "-m", "lald", "tournament", "--bot", "ismcts:simulations=4", "--bot", "random",
         "--players", "3", "--option", "prize=7", "--deals", "1", "--jobs", "1", "--quiet",
         "--out", str(tmp_path)], capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["tournament"]["rules"]["options"] == {"prize": 7}


def test_a_bot_that_refuses_the_rules_is_refused_before_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level that cannot play the rules says so in one line before the first deal (it
    was judged under the default rules only, and refused in a worker)."""
    pytest.importorskip("pyspiel")
    import lald.rl.adapters.ismcts as ismcts

    def refuse(rules: Rules) -> object:
        if rules.prize != 5:
            raise ValueError("this ismcts plays only a prize of 5")
        return real(rules)

    real = ismcts.game_for
    monkeypatch.setattr(ismcts, "game_for", refuse)
    _refused(capsys, ["tournament", "--bot", "ismcts", "--bot", "random", "--option", "prize=7",
                      "--players", "3", "--deals", "1", "--jobs", "1", "--quiet", "--out", str(tmp_path)],
             "bot 'ismcts': this ismcts plays only a prize of 5")
    assert not (tmp_path / "results.json").exists()
