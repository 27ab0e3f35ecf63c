"""``lald serve``'s arguments: a database or a port it cannot use is one line on standard
error naming the problem, never a traceback (exit 1, or 2 for a usage error)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lald", "serve", *args], capture_output=True, text=True,
                          timeout=60, env=os.environ | {"PYTHONWARNINGS": ""})


@pytest.mark.parametrize(("args", "words"), [
    (["--db", "nope://x"], "'nope://x' is not a database URL"),
    (["--db", ":::"], "is not a database URL"),
    (["--db", "sqlite:////nonexistent/dir/x.db"], "cannot open the database"),
    (["--db", "postgresql+psycopg://someone:hunter2@127.0.0.1:1/x"], "cannot open the database"),
])
def test_a_database_it_cannot_use_is_one_line(args: list[str], words: str) -> None:
    done = serve(*args, "--port", "1")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr and "Traceback" not in done.stderr
    assert "hunter2" not in done.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["--port", "99999"], "99999 is not a port number from 1 to 65535"),
    (["--port", "0"], "0 is not a port number"),
    (["--port", "http"], "'http' is not a port number"),
    (["--allow-origin", "evil"], "'evil' is not an origin"),
    (["--idle-hours", "0"], "is not a number of hours"),
    (["--bot-delay", "nan"], "is not a number of seconds"),
    (["--hint-seconds", "0"], "0 is not a number of seconds from 0.05 to 10"),
    (["--hint-worlds", "many"], "'many' is not a number of deals"),
    (["--hints-at-once", "0"], "0 is not a number of hints from 1 to 1000"),
    (["--away-seconds", "0"], "0 is not a number of seconds from 1 to 3600"),
    (["--ping-seconds", "0"], "0 is not a number of seconds from 0.5 to 600"),
    (["--silent-seconds", "soon"], "'soon' is not a number of seconds"),
])
def test_a_bad_argument_is_a_usage_error_naming_it(args: list[str], words: str, tmp_path: Path) -> None:
    done = serve(*args, "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert done.returncode == 2 and words in done.stderr.splitlines()[-1]
    assert "Traceback" not in done.stderr and not (tmp_path / "x.db").exists()


def test_the_hints_budget_reaches_the_server() -> None:
    import argparse

    from lald.cli.serve import register, settings_of
    from lald.web.hints import Hints
    from lald.web.settings import Settings

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    default = settings_of(parser.parse_args(["serve"]))
    assert (default.hint_seconds, default.hint_worlds, default.hint_queue) == (
        Settings.hint_seconds, Settings.hint_worlds, Settings.hint_queue)
    hints = Hints(settings_of(parser.parse_args(
        ["serve", "--hint-seconds", "0.2", "--hint-worlds", "64", "--hints-at-once", "3"])))
    assert (hints.seconds, hints.worlds, hints.size) == (0.2, 64, 3)


def test_the_grace_of_an_absent_person_reaches_the_server() -> None:
    import argparse

    from lald.cli.serve import register, settings_of
    from lald.web.settings import Settings

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    assert settings_of(parser.parse_args(["serve"])).away_seconds == Settings.away_seconds == 30
    assert settings_of(parser.parse_args(["serve", "--away-seconds", "90"])).away_seconds == 90


def test_the_heartbeats_reach_the_server() -> None:
    import argparse

    from lald.cli.serve import register, settings_of
    from lald.web.settings import Settings

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    default = settings_of(parser.parse_args(["serve"]))
    assert (default.ping_seconds, default.pong_seconds, default.silent_seconds) == (
        Settings.ping_seconds, Settings.pong_seconds, Settings.silent_seconds) == (10, 10, 30)
    quick = settings_of(parser.parse_args(
        ["serve", "--ping-seconds", "2", "--pong-seconds", "3", "--silent-seconds", "5"]))
    assert (quick.ping_seconds, quick.pong_seconds, quick.silent_seconds) == (2, 3, 5)


def test_a_page_is_never_dropped_between_its_pings(tmp_path: Path) -> None:
    done = serve("--ping-seconds", "20", "--silent-seconds", "20", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "--silent-seconds (20) must be more than --ping-seconds (20)" in done.stderr
    assert not (tmp_path / "x.db").exists()
