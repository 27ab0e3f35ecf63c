"""Resuming keeps the session's settings and works from any directory (issue 26, item 9):
a ``--lang de`` session resumed in English, a ``--learn`` session resumed with hints off,
and ``q`` said ``Resume with: lald play --resume``, which from another directory answered
``no saved session in play in lald-saves``."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from textual.pilot import Pilot

from lald.core import Rules
from lald.i18n import Catalog
from lald.tui.fullscreen.app import TableApp
from lald.tui.game import Game, SeatSpec
from lald.tui.lesson import LessonGame
from lald.tui.store import Store
from lald.tui.words import default_names

LALD = [sys.executable, "-m", "lald"]
DE, EN = Catalog("de"), Catalog("en")
BOTS = ["--seat", "1=random", "--seat", "2=random"]


def lald(args: list[str], answers: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``lald play --plain`` in ``cwd``, in an English locale, with ``env`` over the
    environment (a value of "" removes the variable)."""
    full = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8", **env}
    full = {k: v for k, v in full.items() if v}
    src = str(Path(__file__).resolve().parents[3] / "src")
    full["PYTHONPATH"] = os.pathsep.join(p for p in (src, full.get("PYTHONPATH", "")) if p)
    return subprocess.run([*LALD, "play", "--plain", *args], input=answers, capture_output=True,
                          text=True, env=full, cwd=cwd, timeout=120, check=False)


def test_a_resumed_session_keeps_its_language_and_its_hints(tmp_path: Path) -> None:
    first = lald(["--players", "3", "--seed", "5", "--lang", "de", "--hints", *BOTS], "1\nq\n",
                 tmp_path, LALD_SAVE_DIR=str(tmp_path))
    assert first.returncode == 0, first.stderr
    assert DE.t("hints_on") in first.stdout
    second = lald(["--resume"], "q\n", tmp_path, LALD_SAVE_DIR=str(tmp_path))  # no --lang, no --hints
    assert second.returncode == 0, second.stderr
    lines = second.stdout.splitlines()
    assert lines[0] == DE.t("game_title") and DE.t("hints_on") in lines, second.stdout
    assert "Deine Hand: " in second.stdout and EN.t("hints_on") not in lines
    # a flag given on resume still has the last word
    third = lald(["--resume", "--lang", "en"], "q\n", tmp_path, LALD_SAVE_DIR=str(tmp_path))
    assert third.stdout.splitlines()[0] == EN.t("game_title") and EN.t("hints_on") in third.stdout


def test_the_save_says_its_language_and_hints_and_old_saves_still_load(tmp_path: Path) -> None:
    seats = [SeatSpec("human" if s == 0 else "random", f"P{s}") for s in range(3)]
    game = Game.new(Rules.make(players=3), seats, 4)
    game.start_deal()
    app = TableApp(game, DE, Store(tmp_path), pace=0, claim_window=0, setup=False, hints=True)

    async def main() -> None:
        async with app.run_test(size=(130, 42)) as pilot:
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(main())
    save = tmp_path / "session-4.json"
    again = Store.load(save)
    assert (again.settings.lang, again.settings.hints) == ("de", True)
    # a save written before the settings were kept (format 1 as it was) loads as it did
    data = json.loads(save.read_text())
    del data["table"]
    save.write_text(json.dumps(data))
    old = Store.load(save)
    assert (old.settings.lang, old.settings.hints) == (None, False)
    assert old.session.deals[0].actions == again.session.deals[0].actions


def test_the_session_after_the_lesson_is_saved_with_hints_on(tmp_path: Path) -> None:
    """``--learn``: the normal session after the lesson has hints on, and so does its save."""
    names = default_names(EN, 5)
    after = Game.new(Rules.make(), [SeatSpec("human" if s == 0 else "random", names[s])
                                    for s in range(5)], 9)
    app = TableApp(LessonGame(default_names(EN, LessonGame.PLAYERS)), EN, Store(tmp_path), pace=0,
                   claim_window=0, setup=False, after_lesson=after)
    said: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(130, 42)) as pilot:
            await pilot.pause()
            app._lesson_done(None)  # the lesson's settlement closed: on to the session
            await until_asked(pilot, app)
            await pilot.press("q")
            await pilot.pause()
        said.append(app.return_value or "")

    asyncio.run(main())
    again = Store.load(tmp_path / "session-9.json")
    assert again.settings.hints and again.settings.lang == "en", said


async def until_asked(pilot: Pilot[str], app: TableApp) -> None:
    from lald.tui.fullscreen.table import TableScreen

    for _ in range(300):
        if isinstance(app.screen, TableScreen) and app.screen.prompt is not None:
            return
        await pilot.pause(0.01)
    raise AssertionError("no prompt")


def test_resume_works_from_any_directory_and_says_the_whole_path(tmp_path: Path) -> None:
    """By default saves go to the user's data folder (here ``XDG_DATA_HOME``, which
    platformdirs reads), named in full, and ``lald play --resume`` finds them from anywhere."""
    data, here, there = tmp_path / "data", tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    env = {"LALD_SAVE_DIR": "", "XDG_DATA_HOME": str(data)}
    first = lald(["--players", "3", "--seed", "5", *BOTS], "1\nq\n", here, **env)
    assert first.returncode == 0, first.stderr
    save = data / "lald" / "saves" / "session-5.json"
    assert save.exists() and not (here / "lald-saves").exists()
    assert EN.t("saved_to", path=str(save), command="lald play --resume") in first.stdout
    second = lald(["--resume"], "q\n", there, **env)
    assert second.returncode == 0, second.stderr
    assert EN.t("saved_to", path=str(save), command="lald play --resume") in second.stdout


def test_an_explicit_save_folder_is_named_in_full(tmp_path: Path) -> None:
    """``--save-dir`` given as a relative path: the path and the command name it whole, so
    they work from another directory too."""
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    first = lald(["--players", "3", "--seed", "5", "--save-dir", "mine", *BOTS], "1\nq\n", here)
    assert first.returncode == 0, first.stderr
    save = here / "mine" / "session-5.json"
    command = f"lald play --save-dir {here / 'mine'} --resume"
    assert EN.t("saved_to", path=str(save), command=command) in first.stdout
    second = subprocess.run(["sh", "-c", command.replace("lald", f"{sys.executable} -m lald", 1)
                             + " --plain"], input="q\n", capture_output=True, text=True, cwd=there,
                            env={**os.environ, "LC_ALL": "C.UTF-8",
                                 "PYTHONPATH": str(Path(__file__).resolve().parents[3] / "src")},
                            timeout=120, check=False)
    assert second.returncode == 0 and f"Saved to {save}." in second.stdout, second.stderr


def test_a_session_resumed_from_a_named_file_is_saved_back_to_it(tmp_path: Path) -> None:
    """Issue 30, item 15: lald play --resume DIR/session-78.json, then q, wrote the save
    folder's session-78.json and left the named file stale."""
    folder, elsewhere = tmp_path / "saves", tmp_path / "elsewhere"
    first = lald(["--players", "3", "--seed", "78", *BOTS], "q\n", tmp_path, LALD_SAVE_DIR=str(folder))
    assert first.returncode == 0, first.stderr
    elsewhere.mkdir()
    named = elsewhere / "mine.json"
    (folder / "session-78.json").rename(named)
    before = Store.load(named).session.deals[0].actions
    second = lald(["--resume", "elsewhere/mine.json"], "1\nq\n", tmp_path, LALD_SAVE_DIR=str(folder))
    assert second.returncode == 0, second.stderr
    assert not (folder / "session-78.json").exists()
    after = Store.load(named).session.deals[0].actions
    assert len(after) > len(before) and after[:len(before)] == before
    assert EN.t("saved_to", path=str(named), command=f"lald play --resume {named}") in second.stdout
