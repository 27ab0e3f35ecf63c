"""``lald readings`` on the command line: one-line errors, the files, Ctrl-C and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lald.cli import main


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
    assert err.count("\n") == 1 and err.startswith("lald readings: ") and words in err, err
    assert "lald readings --help" in err


@pytest.mark.parametrize(("extra", "words"), [
    ([], "name the readings"),
    (["classic"], "unknown preset 'classic'"),
    (["survivor/7"], "unknown player count 7"),
    (["survivor", "survivor"], "named twice"),
    (["survivor", "--bots", "cmd:cat"], "readings seat only lald's own bots"),
    (["survivor", "--bots", "expert:time_limit=1"], "time limit"),
    (["survivor", "--bots", "a,b,c"], "write one level"),
    (["survivor", "--deals", "0"], "--deals 0"),
    # (seen before: 14 GB taken before the first deal)
    (["survivor", "--deals", "1000000000"], "from 1 to 1,000,000"),
    (["survivor", "--skill-deals", "1000000000"], "--skill-deals 1000000000"),
    (["survivor", "--skill-deals", "50"], "no table has a stronger bot"),  # (was ignored, unsaid)
    (["survivor", "--jobs", "0"], "--jobs 0"),
    (["survivor", "last-capture", "--base", "survivor/3"], "not among those played"),
    (["survivor", "--address", "127.0.0.1:1"], "add --backend ray"),
])
def test_bad_arguments_are_usage_mistakes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, extra: list[str], words: str
) -> None:
    _refused(capsys, ["readings", "--out", str(tmp_path), "--quiet", *extra], words)


def test_a_folder_that_cannot_be_written_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    # (seen before: "[Errno 2] ...")
    _fails(capsys, ["readings", "survivor", "--out", "/proc/nope/x", "--quiet"],
           "cannot write the results there")


def test_a_missing_ray_is_one_line_saying_how_to_install_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    _fails(capsys, ["readings", "survivor", "--backend", "ray", "--out", str(tmp_path), "--quiet"],
           "pip install 'lald[ray]'")
    _fails(capsys, ["tournament", "--bots", "random", "--backend", "ray", "--out", str(tmp_path / "t"),
                    "--quiet"], "pip install 'lald[ray]'")


def test_another_setup_in_out_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = ["readings", "survivor/3", "--bots", "random", "--deals", "2", "--quiet", "--jobs", "1",
            "--out", str(tmp_path)]
    main(base)
    capsys.readouterr()
    _fails(capsys, [*base, "--seed", "9"], "holds the results of another set-up")
    main([*base, "--seed", "9", "--fresh"])  # --fresh starts over
    capsys.readouterr()


def test_run_prints_the_overview_and_writes_the_files_and_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    main(["readings", "survivor", "last-capture/4", "--bots", "heuristic,random", "--deals", "15",
          "--sessions", "--jobs", "1", "--quiet", "--report", "--out", str(out)])
    stdout, err = capsys.readouterr()
    assert "2 reading(s) × 2 table(s) (random, heuristic among random); 15 deals each (sessions)" in err
    assert "heuristic among random: 15 deals per reading" in stdout and "hero's gain" in stdout
    assert "differences between readings are real" in stdout
    for name in ("deals.csv", "sessions.csv", "summary.json", "report.html", "report.md"):
        assert (out / name).exists(), name
    summary = json.loads((out / "summary.json").read_text())
    assert summary["setup"]["readings"] == ["survivor", "last-capture/4"]
    md = (out / "report.md").read_text()
    assert ("Command: `lald readings survivor last-capture/4 --bots heuristic,random --deals 15 --seed 1 "
            "--sessions --report --jobs 1 --out " in md)
    assert "Machine:" in md


def test_a_resumed_report_says_the_processor_time_of_all_its_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Seen before: a run that only wrote the report from saved results said "It took 0.2
    minutes", and a run that finished an interrupted one gave only its own share."""
    out = tmp_path / "run"
    argv = ["readings", "survivor", "--bots", "heuristic", "--deals", "100", "--jobs", "1", "--quiet",
            "--report", "--out", str(out)]
    main([*argv[:5], "60", *argv[6:]])
    first = capsys.readouterr().out
    main(argv)
    again = capsys.readouterr().out
    assert "in all, with the saved results" not in first
    assert "in all, with the saved results" in again
    md = (out / "report.md").read_text()
    assert "resuming saved results: their play took" in md and "processor-minutes in all." in md


def test_ctrl_c_saves_and_the_same_command_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "lald", "readings", "survivor/3", "last-capture/3", "--bots", "random",
            "--deals", "3000", "--jobs", "2", "--quiet", "--out", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    checkpoint = out / "batches.jsonl"
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
    assert 3 <= saved < 120
    short = [*argv[:8], "--deals", "300", *argv[10:]]  # fewer deals: the saved ones are used
    done = subprocess.run(short, capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert "resuming with" in done.stderr
    whole = subprocess.run([*short[:-1], str(tmp_path / "whole")], capture_output=True, text=True,
                           cwd=tmp_path, timeout=120)
    assert whole.returncode == 0, whole.stderr
    for name in ("deals.csv", "summary.json"):
        assert (out / name).read_bytes() == (tmp_path / "whole" / name).read_bytes()
