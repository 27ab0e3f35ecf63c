"""``lald play --plain`` driven through a pipe, as a script or a screen reader would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lald.core import Rules
from lald.i18n import Catalog
from lald.narrate import join_names
from lald.record import load
from lald.tui.game import Game, Prompt, SeatSpec
from lald.tui.words import choices, default_names

LALD = [sys.executable, "-m", "lald"]
EN = Catalog("en")


def run(args: list[str], answers: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LALD_SAVE_DIR": str(tmp), "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([*LALD, "play", "--plain", *args], input=answers, capture_output=True,
                          text=True, env=env, timeout=120, check=False)


def test_plain_session_through_a_pipe_to_the_final_ledger(tmp_path: Path) -> None:
    # "1" and Enter, over and over: "1" takes the first offer ("yes" to lying down; Enter
    # alone is refused there), Enter starts the next deal
    result = run(["--players", "3", "--seed", "17", "--seat", "1=random", "--seat", "2=random:Zed",
                  "--export"], "1\n\n" * 2000, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    en = Catalog("en")
    assert out[0] == en.t("game_title")
    assert "Anne, your turn: choose what to do." in out
    assert "  1. " in "\n".join(out)
    # every finished deal was exported as a record that replays through the engine
    records = sorted((tmp_path / "records").glob("session-17-deal-*.json"))
    assert len(records) >= 3
    balances = [0, 0, 0]
    for path in records:
        record, state = load(path.read_text(encoding="utf-8"))
        assert state.over and state.result is not None
        for s, chips in enumerate(state.result.chips):
            balances[s] += chips
    # the printed ledger and winner agree with the replayed records
    names = ["Anne", "Ben", "Zed"]
    rows = [line.split() for line in out if line.startswith("  ") and line.split()[:1] == [names[0]]]
    last = {line.split()[0]: line.split()[-1] for line in out[-12:] if line.startswith("  ")
            and line.split()[0] in names}
    assert rows and last == {names[s]: f"{balances[s]:+d}" for s in range(3)}
    # a finished session's save is closed: kept as its records, never offered for resume
    assert not (tmp_path / "session-17.json").exists()
    assert EN.t("session_closed", path=str(tmp_path / "records")) in out
    best = max(balances)
    winners = [names[s] for s in range(3) if balances[s] == best]
    key = "session_winner" if len(winners) == 1 else "session_shared"
    assert out[-1] == en.t(key, names=join_names(winners, en))


def test_plain_between_deals_only_enter_starts_the_next(tmp_path: Path) -> None:
    """Seen before: any answer but r and q to "Press Enter for the next deal, ..." started
    it (an x, or e and s, which the full-screen table takes), without a word."""
    result = run(["--players", "3", "--seed", "17", "--seat", "1=random", "--seat", "2=random"],
                 "1\n" * 300, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout.splitlines()
    assert EN.t("plain_after_deal") in out and EN.t("plain_not_an_answer") in out
    assert not [line for line in out if line.startswith("Deal 2:")]


def test_plain_quits_saves_and_resumes_in_german(tmp_path: Path) -> None:
    first = run(["--players", "4", "--seed", "5", "--lang", "de", "--seat", "1=random",
                 "--seat", "2=random", "--seat", "3=random"], "1\n1\nq\n", tmp_path)
    assert first.returncode == 0, first.stderr
    de = Catalog("de")
    save = tmp_path / "session-5.json"
    assert save.exists()
    resume = f"lald play --save-dir {tmp_path} --resume"
    assert de.t("saved_to", path=str(save), command=resume) in first.stdout
    assert "Tisch: " in first.stdout and "Deine Hand: " in first.stdout
    data = json.loads(save.read_text())
    assert data["session"]["seed"] == 5 and data["seats"][0]["kind"] == "human"
    second = run(["--resume", "--lang", "de"], "1\n\n" * 2000, tmp_path)
    assert second.returncode == 0, second.stderr
    last = second.stdout.splitlines()[-1]
    assert "gewinnt die Partie" in last or "teilen sich den Sieg" in last


def _first_single_choice() -> tuple[int, int, int]:
    """A seed, the menu size and the number of a one-action, unconfirmed turn line at the
    person's first prompt, worked out in this process with the same seats as the piped game."""
    names = default_names(EN, 5)
    seats = [SeatSpec("human" if s == 0 else "random", names[s]) for s in range(5)]
    for seed in range(100):
        game = Game.new(Rules.make(), seats, seed)
        game.start_deal()
        event = game.advance()
        while not isinstance(event, Prompt):
            event = game.advance()
        state = game.state
        assert state is not None
        menu = choices(event, state, EN)
        singles = [i for i, c in enumerate(menu, 1) if c.action is not None and not c.confirm]
        if event.kind == "turn" and singles:
            return seed, len(menu), singles[0]
    raise AssertionError("no seed")


def test_plain_hint_undo_help_and_a_wrong_answer(tmp_path: Path) -> None:
    seed, size, single = _first_single_choice()
    answers = f"h\n?\n99\n²\n{single}\nu\nq\n"  # (a digit that is no number: it was a traceback)
    result = run(["--players", "5", "--seed", str(seed), "--seat", "1=random", "--seat", "2=random",
                  "--seat", "3=random", "--seat", "4=random"], answers, tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Choice " in out and "Hint: " in out
    assert "How to play Laugh and Lie Down" in out and "prize (chips): 5" in out and "docs/rules.md" in out
    assert out.count(f"Please answer with a number from 1 to {size}.") == 2
    assert "Your last action was taken back." in out


def test_plain_with_two_people_passes_the_keyboard(tmp_path: Path) -> None:
    result = run(["--players", "3", "--seed", "9", "--seat", "1=human", "--seat", "2=random"],
                 "\n1\n" * 30 + "q\n", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Pass the keyboard to Anne." in result.stdout
    assert "Pass the keyboard to Ben." in result.stdout
    assert "Undo is only for games against bots." not in result.stdout
