"""The command-line contract of RECORD.md: lald replay, lald legal, lald deal."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lald.core import Rules, State
from lald.record import Record

from ..fuzz_records import record_bytes

GOLDEN = Path(__file__).parents[1] / "data" / "golden"


def lald(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lald", *args], input=stdin, capture_output=True,
                          text=True, timeout=60)


def test_replay_json_finished_deal() -> None:
    path = GOLDEN / "survivor-5-plain-00-1.json"
    out = lald("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert list(summary) == ["over", "to_move", "won", "survivor", "last_capture", "prize_to",
                             "pairs", "chips", "pot"]
    assert summary["over"] is True and summary["to_move"] is None and sum(summary["won"]) == 52
    assert set(summary["pot"]) == {"before", "after"}
    assert summary == json.loads((GOLDEN / "survivor-5-plain-00-1.expected.json").read_text())


def test_replay_json_unfinished_deal_from_stdin() -> None:
    state = State.deal(Rules.make(), seed=2)
    state.apply(state.turn_actions()[0])
    out = lald("replay", "-", "--json", stdin=Record.from_state(state).dumps())
    summary = json.loads(out.stdout)
    assert summary["over"] is False and summary["to_move"] == state.to_move
    assert summary["survivor"] is None and summary["chips"] is None and summary["pot"] is None


def test_replay_low_stakes_has_zero_chips() -> None:
    path = next(GOLDEN.glob("survivor-5-low-stakes-silent-*[0-9].json"))
    summary = json.loads(lald("replay", str(path), "--json").stdout)
    assert summary["chips"] == [0] * 5 and summary["pairs"] is None and summary["prize_to"] is None
    assert summary["pot"]["before"] == summary["pot"]["after"]


def test_replay_in_words() -> None:
    out = lald("replay", str(GOLDEN / "survivor-5-plain-00-1.json"))
    assert out.returncode == 0 and "pot" in out.stdout and "takes" in out.stdout


def test_illegal_action_exit_status_and_one_line() -> None:
    state = State.deal(Rules.make(), seed=2)
    for _ in range(7):
        state.apply(state.turn_actions()[0])
    obj = Record.from_state(state).to_json()
    seat = state.to_move
    assert seat is not None
    bad_rank = next(r for r in range(13) if not (state.hands[seat] >> 4 * r) & 15)
    symbol = "A23456789TJQK"[bad_rank]
    obj["actions"].append({"seat": seat, "type": "capture", "play": [symbol + "S"], "take": [symbol + "H"]})
    for command in (["replay", "-", "--json"], ["legal", "-", "--seat", "0"]):
        out = lald(*command, stdin=json.dumps(obj))
        assert out.returncode == 1
        assert out.stdout == ""
        lines = out.stderr.strip().splitlines()
        assert len(lines) == 1
        assert "move 8: " in lines[0] and f"seat {seat} holds no" in lines[0]


def test_malformed_record_exit_status() -> None:
    out = lald("replay", "-", stdin="{nope")
    assert out.returncode == 1 and out.stdout == "" and len(out.stderr.strip().splitlines()) == 1


def test_legal_lists_turn_actions_and_claims() -> None:
    state = State.deal(Rules.make(), seed=5)
    text = Record.from_state(state).dumps()
    out = lald("legal", "-", "--seat", str(state.to_move), "--json", stdin=text)
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)
    assert listed == [a.to_json() for a in state.legal_actions(state.eldest)]
    other = (state.eldest + 1) % 5
    listed = json.loads(lald("legal", "-", "--seat", str(other), "--json", stdin=text).stdout)
    assert all(a["type"] == "claim" for a in listed)
    assert lald("legal", "-", "--seat", "9", stdin=text).returncode == 2  # a usage mistake


def test_legal_is_empty_once_over() -> None:
    path = GOLDEN / "survivor-5-plain-00-1.json"
    assert json.loads(lald("legal", str(path), "--seat", "0", "--json").stdout) == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_deal_prints_a_record(players: int) -> None:
    out = lald("deal", "--seed", "42", "--players", str(players), "--preset", "last-capture")
    assert out.returncode == 0, out.stderr
    record = Record.parse(out.stdout)
    assert record.rules.players == players and record.hands is not None
    assert record.replay().dealt_hands == State.deal(record.rules, 42).dealt_hands
    text = lald("deal", "--seed", "42", "--text").stdout
    assert text.startswith('[Format "lald-text/1"]')


def test_bad_rules_flag_is_one_line() -> None:
    out = lald("deal", "--seed", "1", "--preset", "classic")
    assert out.returncode == 2 and "survivor or last-capture" in out.stderr


@pytest.mark.parametrize(("flag", "value"), [("--pace", "-1"), ("--claim-window", "-3"),
                                           ("--claim-window", "nan"), ("--pace", "soon")])
def test_play_refuses_a_time_that_is_no_time_in_one_line(flag: str, value: str) -> None:
    """Seen before: --pace -1 ran as instant and --claim-window -3 waited for ever, silently."""
    out = lald("play", "--plain", flag, value, stdin="")
    assert out.returncode == 2 and out.stdout == ""
    said = (f"'{value}' is not a number of seconds" if value == "soon" else
            f"{value} is not a number of seconds from 0 to {60 if flag == '--pace' else 600}")
    assert out.stderr.strip().splitlines() == [f"lald play: argument {flag}: {said} (see lald play --help)"]


@pytest.mark.parametrize("command", ["deal", "tournament", "readings"])
def test_a_seed_of_more_than_64_bits_is_refused_by_every_command(command: str) -> None:
    """Seen before: readings and tournament took 99999999999999999999999, which names
    no deal a record can hold."""
    out = lald(command, "--seed", "99999999999999999999999")
    assert out.returncode == 2 and "is not a seed" in out.stderr and out.stderr.count("\n") == 1


def test_demo_runs_to_settlement() -> None:
    out = lald("demo", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert "The pot: " in out.stdout and "last with cards" in out.stdout


def test_core_imports_only_the_standard_library() -> None:
    code = (
        "import sys; before = set(sys.modules); import lald.core; "
        "new = {m.split('.')[0] for m in set(sys.modules) - before}; "
        "bad = sorted(m for m in new if m != 'lald' and m not in sys.stdlib_module_names); "
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# -- issue 10: no input breaks the command line -------------------------------------------


def one_line_error(out: subprocess.CompletedProcess[str], status: int = 1) -> str:
    """The run failed with ``status``, printed nothing on stdout, and one line, no traceback,
    on stderr; that line."""
    assert out.returncode == status, (out.returncode, out.stderr[-2000:])
    assert out.stdout == ""
    assert "Traceback" not in out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr[-2000:]
    return lines[0]


def lald_bytes(*args: str, stdin: bytes) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "lald", *args], input=stdin, capture_output=True,
                          timeout=60)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(),
                                       done.stderr.decode())


RECORD_COMMANDS = [["replay", "-"], ["replay", "-", "--json"], ["legal", "-", "--seat", "0"]]


@pytest.mark.parametrize("command", RECORD_COMMANDS, ids=" ".join)
def test_a_record_that_is_not_utf8_is_one_line(command: list[str]) -> None:
    good = Record.from_state(State.deal(Rules.make(), seed=2)).dumps().encode()
    bad = good.replace(b'"survivor"', b'"surviv\xf6r"')  # Latin-1, as an old editor saves it
    line = one_line_error(lald_bytes(*command, stdin=bad))
    position = bad.index(b"\xf6")
    assert "not UTF-8" in line and f"byte {position} is 0xf6" in line


def test_a_byte_order_mark_is_allowed() -> None:
    text = Record.from_state(State.deal(Rules.make(), seed=2)).dumps()
    out = lald_bytes("replay", "-", "--json", stdin=b"\xef\xbb\xbf" + text.encode())
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("command", RECORD_COMMANDS, ids=" ".join)
@pytest.mark.parametrize("opening", ["[", '{"a": '], ids=["lists", "objects"])
def test_json_nested_100000_deep_is_one_line(command: list[str], opening: str) -> None:
    line = one_line_error(lald(*command, stdin=opening * 100_000))
    assert "nest more than" in line


def test_json_nested_a_little_too_deep_is_refused_too() -> None:
    obj = base_record()
    obj["actions"] = [[[[[[[[[[[{"seat": 1, "type": "lie_down"}]]]]]]]]]]]
    line = one_line_error(lald("replay", "-", stdin=json.dumps(obj)))
    assert "nest more than" in line


def base_record() -> dict[str, object]:
    return Record.from_state(State.deal(Rules.make(), seed=2)).to_json()


@pytest.mark.parametrize("command", RECORD_COMMANDS, ids=" ".join)
def test_a_seed_of_5000_digits_is_one_line(command: list[str]) -> None:
    text = json.dumps(base_record()).replace('"seed": 2', '"seed": ' + "7" * 5000)
    line = one_line_error(lald(*command, stdin=text))
    assert "5,000 digits" in line
    notation = Record.from_state(State.deal(Rules.make(), seed=2)).to_text()
    line = one_line_error(lald(*command, stdin=notation.replace('"2"]', '"' + "7" * 5000 + '"]')))
    assert "Seed tag must be a whole number" in line


def test_a_seed_beyond_64_bits_is_refused_everywhere() -> None:
    text = json.dumps(base_record()).replace('"seed": 2', f'"seed": {1 << 64}')
    assert "'seed' must be a whole number from" in one_line_error(lald("replay", "-", stdin=text))
    line = one_line_error(lald("deal", "--seed", str(1 << 64)), status=2)
    assert "is not a seed" in line
    assert lald("deal", "--seed", str((1 << 64) - 1)).returncode == 0
    assert lald("deal", "--seed", str(-(1 << 63))).returncode == 0


@pytest.mark.parametrize("level", ["nope", "human", "cmd:foo"])
def test_demo_with_a_bot_that_is_no_level_is_one_line(level: str) -> None:
    line = one_line_error(lald("demo", "--seed", "1", "--bot", level), status=2)  # a usage mistake
    assert line.startswith("lald demo: ") and level in line and "greedy" in line
    if level == "human":
        assert "lald play" in line
    if level.startswith("cmd:"):
        assert "lald tournament" in line


def test_demo_plays_any_level() -> None:
    out = lald("demo", "--seed", "3", "--bot", "greedy")
    assert out.returncode == 0, out.stderr
    assert "The pot: " in out.stdout


def test_ctrl_c_while_replay_reads_standard_input_ends_quietly() -> None:
    import signal
    import time

    proc = subprocess.Popen([sys.executable, "-m", "lald", "replay", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # until it blocks reading standard input (fd 0)
            try:
                with open(f"/proc/{proc.pid}/syscall") as f:
                    if f.read().startswith("0 0x0 "):
                        break
            except OSError:
                time.sleep(3)  # no /proc/PID/syscall here: give it time to start
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert out == b"" and err == b""


def test_a_huge_record_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from lald.record import MAX_RECORD_BYTES

    big = tmp_path / "big.json"
    with open(big, "wb") as f:  # 50 MB, sparse: refused by its size, not by reading it
        f.truncate(50_000_000)
    for command in (["replay", str(big)], ["legal", str(big), "--seat", "0"]):
        line = one_line_error(lald(*command))
        assert f"over {MAX_RECORD_BYTES:,} bytes" in line and str(big) in line
    padded = '{"format": "lald-record/1", "seed": 2, "actions": []' + " " * MAX_RECORD_BYTES + "}"
    line = one_line_error(lald("replay", "-", stdin=padded))
    assert f"over {MAX_RECORD_BYTES:,} bytes" in line


def test_a_directory_or_a_missing_file_is_one_line(tmp_path: Path) -> None:
    assert "cannot read" in one_line_error(lald("replay", str(tmp_path)))
    assert "No such file" in one_line_error(lald("replay", str(tmp_path / "none.json")))


@pytest.mark.parametrize("argv", [["nope"], ["deal"], ["deal", "--seed", "x"], ["legal", "-"],
                                  ["legal", "-", "--seat", "one"], ["demo", "--colour", "red"], []])
def test_usage_mistakes_are_one_line_with_status_2(argv: list[str]) -> None:
    line = one_line_error(lald(*argv), status=2)
    assert line.startswith("lald") and "--help" in line


def test_rules_mistakes_are_one_line_with_status_2() -> None:
    """A bad rules flag is a usage mistake, as docs/record.md#commands says (issue 26: they exited 1)."""
    for argv in (["--players", "6"], ["--variant", "loud"], ["--option", "jokers=2"],
                 ["--option", "prize"], ["--option", "prize=²"], ["--option", "prize=--5"],
                 ["--option", "prize=" + "9" * 5000], ["--option", "prize=700"],
                 ["--variant", "silent", "--variant", "silent"]):
        line = one_line_error(lald("deal", "--seed", "1", *argv), status=2)
        assert line.startswith("lald deal: "), line


def test_version() -> None:
    import lald as package

    out = lald("--version")
    assert out.returncode == 0
    assert out.stdout.strip() in (f"lald {package.__version__} (kernel: {k})" for k in ("compiled", "python"))


# -- issue 11: discoverable -----------------------------------------------------------------


def _subcommands() -> dict[str, Any]:
    from lald.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {"": parser, **sub.choices}


def test_every_argument_has_a_help_text() -> None:
    for name, parser in _subcommands().items():
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help and action.help != argparse.SUPPRESS, (name, action.option_strings)


def test_every_command_help_lists_the_bot_levels_and_the_docs() -> None:
    from lald.bots import LEVELS

    for name in _subcommands():
        out = lald(*([name] if name else []), "--help")
        assert out.returncode == 0, out.stderr
        text = " ".join(out.stdout.split())
        for level in LEVELS:
            assert level in text, (name, level)
        assert "docs/rules.md" in text and "docs/record.md" in text


def _run_in_process(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    """``lald ARGV`` in this process, standard input ``stdin``: (status, stdout, stderr)."""
    import contextlib
    import io

    from lald.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(argv)
                status = 0
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


@given(record_bytes, st.sampled_from(
    [["replay", "-"], ["replay", "-", "--json"], ["legal", "-", "--seat", "0"],
     ["legal", "-", "--seat", "2", "--json"]]))
def test_fuzz_replay_and_legal_read_or_refuse_in_one_line(data: bytes, argv: list[str]) -> None:
    status, out, err = _run_in_process(argv, data)
    assert status in (0, 1), err
    if status == 1:
        assert out == "" and err.startswith("lald: ") and err.count("\n") == 1, err
    else:
        assert err == ""
        if "--json" in argv:
            json.loads(out)


# -- issue 26, item 14: the command line's rough edges ---------------------------------------


def test_an_unknown_option_lists_every_option() -> None:
    """Seen before: the list of choices was cut after first_dealer, before max_tie_cycles."""
    from lald.core.rules import OPTION_NAMES

    line = one_line_error(lald("deal", "--seed", "1", "--option", "jokers=2"), status=2)
    assert "…" not in line
    for name in OPTION_NAMES:
        assert name in line, name


def test_a_misspelt_command_suggests_the_nearest() -> None:
    line = one_line_error(lald("plya"), status=2)
    assert "'plya'" in line and "did you mean play?" in line and "--help" in line
    line = one_line_error(lald("xyzzy"), status=2)  # nothing near: the commands, no guess
    assert "did you mean" not in line and "tournament" in line


def test_a_stray_argument_names_the_sub_command() -> None:
    """Seen before: lald play extra said "lald: unrecognized arguments: extra"."""
    line = one_line_error(lald("play", "extra", stdin=""), status=2)
    assert line.startswith("lald play: ") and "extra" in line and "lald play --help" in line
    line = one_line_error(lald("deal", "--seed", "1", "more"), status=2)
    assert line.startswith("lald deal: ") and "more" in line


def test_legal_on_a_finished_deal_says_it_is_over() -> None:
    """Seen before: nothing printed and status 0, as if the seat merely had no move."""
    path = GOLDEN / "survivor-5-plain-00-1.json"
    out = lald("legal", str(path), "--seat", "0")
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.splitlines() == ["The deal is over: no seat may act."]


def test_legal_says_why_a_seat_has_nothing_to_do() -> None:
    state = State.deal(Rules.make(), seed=2)
    other = next(s for s in range(5) if s != state.to_move and not state.legal_actions(s))
    out = lald("legal", "-", "--seat", str(other), stdin=Record.from_state(state).dumps())
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.splitlines() == [f"Seat {other} may do nothing now: seat {state.to_move} is to move."]


# -- issue 30, items 12 and 13: usage mistakes exit 2 naming the command, with the nearest name -------


@pytest.mark.parametrize(("argv", "words"), [
    (["play", "--seat", "9=expert", "--no-setup"], "--seat '9=expert': seats are 0 to 4"),
    (["play", "--seat", "x", "--plain"], "write N=KIND"),
    (["play", "--learn", "--resume"], "--learn starts the lesson"),
    (["review", str(GOLDEN / "survivor-5-plain-00-1.json"), "--seat", "0", "--worlds", "0"], "--worlds 0"),
    (["review", str(GOLDEN / "survivor-5-plain-00-1.json"), "--seat", "7"], "there is no seat 7"),
    (["tournament", "--bot", "nope"], "unknown bot 'nope'"),
    (["tournament"], "name the bots"),
    (["demo", "--bot", "human"], "every seat is a bot"),
    (["deal", "--seed", "1", "--dealer", "7"], "--dealer 7"),
    (["legal", str(GOLDEN / "survivor-5-plain-00-1.json"), "--seat", "5"], "--seat 5"),
    (["play", "--online", "nota-link"], "--online: 'nota-link' is not a table's link"),
])
def test_every_usage_mistake_exits_2_naming_the_command(argv: list[str], words: str) -> None:
    """Seen before: these exited 1 and began "lald:", where argparse's own say "lald play:"."""
    status, out, err = _run_in_process(argv, b"")
    assert status == 2 and out == "" and err.count("\n") == 1, (status, err)
    assert err.startswith(f"lald {argv[0]}: ") and words in err and f"lald {argv[0]} --help" in err, err


@pytest.mark.parametrize(("argv", "words"), [
    (["play", "--hnits"], "unrecognized arguments: --hnits: did you mean --hints?"),
    (["play", "--variant", "sillent"], "unknown variant 'sillent': did you mean silent? choose"),
    (["play", "--preset", "survivr"], "did you mean survivor?"),
    (["deal", "--seed", "1", "--option", "prize_rul=last_capture"], "did you mean prize_rule?"),
    (["deal", "--seed", "1", "--option", "prize_rule=last_captur"], "did you mean last_capture?"),
    (["deal", "--seed", "1", "--option", "laugh=of"], "did you mean off?"),
    (["play", "--seat", "1=exprt", "--plain"], "unknown bot level 'exprt': did you mean expert?"),
    (["play", "--seat", "1=hman", "--plain"], "did you mean human?"),
    (["demo", "--bot", "gredy"], "did you mean greedy?"),
    (["review", "-", "--seat", "0", "--lang", "dee"], "did you mean de?"),
    (["--verison"], "did you mean --version?"),
    (["readings", "survivr"], "unknown preset 'survivr': did you mean survivor? choose"),
    (["readings", "survivor:prize_rul=x"], "unknown option 'prize_rul': did you mean prize_rule? choose"),
    (["readings", "survivor", "--bots", "heuristc"], "did you mean heuristic? choose"),
])
def test_a_mistyped_name_is_answered_with_the_nearest(argv: list[str], words: str) -> None:
    status, out, err = _run_in_process(argv, b"")
    assert status == 2 and out == "" and err.count("\n") == 1, (status, err)
    assert words in err, err


def test_an_option_before_the_command_says_where_it_goes() -> None:
    """Seen before: lald --lang de play took de for the command and offered demo."""
    status, _, err = _run_in_process(["--lang", "de", "play"], b"")
    assert status == 2 and "demo" not in err, err
    assert err.startswith("lald: --lang is an option of lald play: put it after the command "
                          "(lald play --lang de)"), err
    status, _, err = _run_in_process(["--colour", "red", "play"], b"")
    assert status == 2 and "unrecognized arguments: --colour" in err and "demo" not in err, err


# -- issue 30, item 14: lald review finds a seat by the name its record keeps ---------------------


def _named_deal() -> str:
    import random

    from lald.bots import make_bot
    from lald.play.loop import play_deal

    rules = Rules.make(players=3)
    state = State.deal(rules, 11)
    play_deal(state, [make_bot("random", s, rules, random.Random(s)) for s in range(3)])
    return Record.from_state(state, names=["Zoe", "Ben", "Cis"]).dumps()


def test_review_finds_a_seat_by_the_name_its_record_keeps() -> None:
    """Seen before: "no seat named 'Zoe'", and the heading said "Seat 0"."""
    deal = _named_deal().encode()
    status, out, err = _run_in_process(["review", "-", "--seat", "zoe", "--worlds", "2"], deal)
    assert status == 0, err
    assert out.startswith("Review of Zoe's decisions."), out[:200]
    status, out, err = _run_in_process(["review", "-", "--seat", "Zo", "--worlds", "2"], deal)
    assert status == 2 and out == "" and err.startswith("lald review: "), err
    assert "did you mean Zoe?" in err and "Zoe, Ben, Cis" in err
