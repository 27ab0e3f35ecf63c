"""The command-line contract of RECORD.md: lald replay, lald legal, lald deal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lald.core import Rules, State
from lald.record import Record

GOLDEN = Path(__file__).parent / "data" / "golden"


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
        assert "action 7: " in lines[0] and f"seat {seat} holds no" in lines[0]


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
    assert lald("legal", "-", "--seat", "9", stdin=text).returncode == 1


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
    assert out.returncode == 1 and "survivor or last-capture" in out.stderr


def test_demo_runs_to_settlement() -> None:
    out = lald("demo", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert "The pot goes from" in out.stdout and "last with cards" in out.stdout


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
