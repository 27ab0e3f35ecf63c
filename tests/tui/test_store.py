"""Saves that never lose a game (issue 10 for ``lald play``, issue 11 terminal 2): a
finished session's save is closed, a save folder that is a file moves the save, a broken
save or one of another format version is a one-line error, and no JSON breaks the loader."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lald.core import Rules
from lald.tui.game import Game, Prompt, SeatSpec
from lald.tui.store import Store

LALD = [sys.executable, "-m", "lald"]


def game_of(seed: int = 3) -> Game:
    seats = [SeatSpec("human" if s == 0 else "random", f"P{s}") for s in range(3)]
    return Game.new(Rules.make(players=3), seats, seed)


def finish(game: Game, deals: int | None = None) -> None:
    """Play deals (all of them by default), the person taking the first offer."""
    while not game.session.over and (deals is None or len(game.session.results) < deals):
        if game.state is None:
            game.start_deal()
        event = game.advance()
        if event is None:
            game.finish_deal()
        elif isinstance(event, Prompt):
            game.act(event, event.actions[0])


def test_a_finished_sessions_save_is_closed_and_not_offered_again(tmp_path: Path) -> None:
    # issue 11, terminal 2: quit in deal 2, resume, finish: --resume reopened deal 2
    store = Store(tmp_path)
    game = game_of()
    finish(game, deals=1)
    game.start_deal()
    store.save(game)
    again = Store.load(store.latest())  # type: ignore[arg-type]
    finish(again)
    store.save(again)  # what the old table left behind when the last deal was booked
    assert store.latest() is None  # a finished session is not offered for resume
    assert not store.save_path(again).exists()
    records = sorted((tmp_path / "records").glob("*.json"))
    assert len(records) == len(again.session.deals)


def test_closing_keeps_every_deal_as_a_record(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game = game_of(5)
    finish(game)
    store.save(game)
    assert store.close(game) == tmp_path / "records"
    assert not store.save_path(game).exists()
    assert len(list((tmp_path / "records").glob("session-5-deal-*.json"))) == len(game.session.deals)


def test_an_exported_record_keeps_the_seats_names(tmp_path: Path) -> None:
    """Issue 30, item 14: records carried no names, so lald review --seat Zoe found nobody."""
    from lald.record import load

    store = Store(tmp_path)
    game = game_of(5)
    finish(game, deals=1)
    record, _ = load(store.export(game, game.session.deals[0]).read_bytes())
    assert record.names == ("P0", "P1", "P2")


def test_a_save_folder_that_is_a_file_moves_the_save_and_the_game_goes_on(tmp_path: Path) -> None:
    # issue 10: --save-dir naming a file crashed the table on "s" and the game was lost
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    store = Store(blocker, fallback=tmp_path / "fallback")
    game = game_of()
    finish(game, deals=1)
    path = store.save(game)
    assert path.parent == tmp_path / "fallback" and Store.load(path).session.deal_number == 1
    assert store.moved is not None and store.moved.reason is None
    from lald.i18n import Catalog

    said = store.saved_words(path, Catalog("en"))
    assert "is a file, not a folder" in said and str(path) in said
    assert f"--save-dir {tmp_path / 'fallback'} --resume" in said


def _broken(tmp_path: Path, data: Any, name: str = "s.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    try:
        Store.load(path)
    except ValueError as e:
        return str(e)
    raise AssertionError("loaded")


def test_a_broken_save_or_another_version_is_one_line_in_words(tmp_path: Path) -> None:
    good = game_of().snapshot()
    no_seats = {k: v for k, v in good.items() if k != "seats"}
    assert "seats" in _broken(tmp_path, no_seats) and "'seats'" not in _broken(tmp_path, no_seats)
    bad_seed = json.loads(json.dumps(good))
    bad_seed["session"]["seed"] = "x"
    assert "seed" in _broken(tmp_path, bad_seed)
    assert "save format 2" in _broken(tmp_path, {**good, "version": 2})
    assert "broken JSON" in _broken(tmp_path, "{")
    assert "nested too deep" in _broken(tmp_path, "[" * 100_000 + "]" * 100_000) or \
        "broken JSON" in _broken(tmp_path, "[" * 100_000 + "]" * 100_000)
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe")
    try:
        Store.load(tmp_path / "bin.json")
    except ValueError as e:
        assert "not UTF-8" in str(e)
    for message in (_broken(tmp_path, no_seats), _broken(tmp_path, {**good, "version": 2})):
        assert "\n" not in message and message.startswith("cannot resume from ")


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20)


def _mutations() -> st.SearchStrategy[Any]:
    """Arbitrary JSON, and saves with one part replaced by arbitrary JSON."""
    good = game_of().snapshot()
    finish_game = game_of()
    finish(finish_game, deals=1)
    played = finish_game.snapshot()

    def replace(base: dict[str, Any], path: list[str], value: Any) -> Any:
        data = json.loads(json.dumps(base))
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        return data

    paths = [["format"], ["version"], ["seats"], ["session"], ["session", "rules"],
             ["session", "seed"], ["session", "deals"], ["session", "rules", "players"],
             ["session", "rules", "options"], ["session", "rules", "preset"]]
    return _json | st.builds(replace, st.sampled_from([good, played]), st.sampled_from(paths), _json)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=_mutations())
def test_the_save_loader_answers_any_json_with_a_game_or_one_line(tmp_path: Path, data: Any) -> None:
    path = tmp_path / "fuzz.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        game = Store.load(path)
    except ValueError as e:
        assert str(e).startswith(f"cannot resume from {path}: ") and "\n" not in str(e)
        assert "Traceback" not in str(e)
    else:
        assert isinstance(game, Game)


def _env(tmp: Path) -> dict[str, str]:
    return {**os.environ, "LALD_SAVE_DIR": str(tmp), "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}


def test_resume_of_a_broken_save_is_one_line_on_stderr(tmp_path: Path) -> None:
    (tmp_path / "session-1.json").write_text('{"format": "lald-play-save", "version": 1}')
    out = subprocess.run([*LALD, "play", "--plain", "--resume", str(tmp_path / "session-1.json")],
                         capture_output=True, text=True, env=_env(tmp_path), timeout=60, check=False)
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr and "damaged" in out.stderr


def test_ctrl_c_in_plain_play_ends_quietly_and_saves(tmp_path: Path) -> None:
    # issue 10: Ctrl+C in `lald play --plain` printed a traceback and lost the game
    proc = subprocess.Popen([*LALD, "play", "--plain", "--players", "3", "--seed", "8", "--seat",
                             "1=random", "--seat", "2=random"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(tmp_path))
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("1\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    seen = ""
    while "1. " not in seen and time.monotonic() < deadline:
        seen += proc.stdout.readline()
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    save = tmp_path / "session-8.json"
    assert save.exists() and f"Saved to {save}." in out
    assert Store.load(save).session.seed == 8


def test_plain_play_with_a_save_folder_that_is_a_file_says_so_and_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    (tmp_path / "tmp").mkdir()
    env = {**_env(tmp_path), "TMPDIR": str(tmp_path / "tmp")}
    out = subprocess.run([*LALD, "play", "--plain", "--players", "3", "--seed", "6", "--save-dir",
                          str(blocker), "--seat", "1=random", "--seat", "2=random"], input="1\ns\nq\n",
                         capture_output=True, text=True, env=env, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert "is a file, not a folder" in out.stderr and "Traceback" not in out.stderr
    moved = tmp_path / "tmp" / "lald-saves" / "session-6.json"
    assert moved.exists() and f"Saved to {moved}." in out.stdout


def test_a_game_kept_in_a_named_file_is_saved_there_and_moves_if_it_cannot_be(tmp_path: Path) -> None:
    """Issue 30, item 15: the terminal table (full screen or plain) saves a session resumed
    from a named file back to that file, and says how to resume it from there."""
    from lald.i18n import Catalog

    store = Store(tmp_path / "saves", fallback=tmp_path / "fallback")
    game = game_of(78)
    named = tmp_path / "elsewhere" / "mine.json"
    store.keep_in(game, named)
    assert store.save(game) == named and not (tmp_path / "saves").exists()
    assert f"lald play --resume {named}" in store.saved_words(named, Catalog("en"))
    (tmp_path / "blocked").write_text("a file")
    store.keep_in(game, tmp_path / "blocked" / "mine.json")  # cannot be written: the fallback
    assert store.save(game) == tmp_path / "fallback" / "session-78.json" and store.moved is not None
