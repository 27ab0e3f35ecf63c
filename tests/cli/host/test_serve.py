"""``lald serve``'s arguments: a database or a port it cannot use is one line on standard
error naming the problem, never a traceback (exit 1, or 2 for a usage error)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
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

    from lald.cli.host.serve import register, settings_of
    from lald.web.settings import Settings
    from lald.web.table.hints import Hints

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

    from lald.cli.host.serve import register, settings_of
    from lald.web.settings import Settings

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    assert settings_of(parser.parse_args(["serve"])).away_seconds == Settings.away_seconds == 30
    assert settings_of(parser.parse_args(["serve", "--away-seconds", "90"])).away_seconds == 90


def test_the_heartbeats_reach_the_server() -> None:
    import argparse

    from lald.cli.host.serve import register, settings_of
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


def worker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lald", "worker", *args], capture_output=True, text=True,
                          timeout=60, env=os.environ | {"PYTHONWARNINGS": ""})


def test_the_proxy_config_points_at_the_upstreams_given() -> None:
    done = serve("--port", "80", "--host", "0.0.0.0", "--print-proxy-config",
                 "--upstream", "w1=127.0.0.1:8001", "--upstream", "w2=127.0.0.1:8002")
    assert done.returncode == 0, done.stderr
    config = done.stdout
    assert "listen 0.0.0.0:80;" in config
    assert "upstream lald_w1 {\n    server 127.0.0.1:8001 max_fails=0;" in config
    assert "upstream lald_w2 {\n    server 127.0.0.1:8002 max_fails=0;" in config
    assert ":81 " not in config and ":82 " not in config
    # without --upstream: the servers of lald serve --workers N, at the ports after --port
    done = serve("--workers", "2", "--port", "8000", "--print-proxy-config")
    assert done.returncode == 0 and "upstream lald_w2 {\n    server 127.0.0.1:8002 " in done.stdout


@pytest.mark.parametrize(("args", "words"), [
    (["--upstream", "127.0.0.1:8001"], "'127.0.0.1:8001' is not a server's name and address like "
                                       "w1=127.0.0.1:8001"),
    (["--upstream", "W1=127.0.0.1:8001"], "'W1': a server's name is lower-case letters and digits"),
    (["--upstream", "w1=127.0.0.1"], "'127.0.0.1' is not an address and port"),
    (["--upstream", "w1=127.0.0.1:99999"], "99999 is not a port number from 1 to 65535"),
    (["--upstream", "w1=127.0.0.1:8001", "--upstream", "w1=127.0.0.1:8002"], "w1 is named twice"),
    (["--upstream", "w1=127.0.0.1:8001", "--upstream", "w2=127.0.0.1:8001"], "127.0.0.1:8001 is given twice"),
    (["--upstream", "w1=127.0.0.1:8001", "--workers", "3"], "--workers 3 but 1 --upstream"),
])
def test_an_upstream_it_cannot_use_is_a_usage_error(args: list[str], words: str) -> None:
    done = serve("--print-proxy-config", *args)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert words in done.stderr.splitlines()[-1] and done.stderr.splitlines()[-1].startswith("lald serve: ")
    assert "Traceback" not in done.stderr


def test_upstreams_are_for_the_printed_config_only(tmp_path: Path) -> None:
    done = serve("--upstream", "w1=127.0.0.1:8001", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "--upstream is for --print-proxy-config" in done.stderr.splitlines()[-1]
    assert not (tmp_path / "x.db").exists()


@pytest.mark.parametrize("value", ["nginx", "10.0.0.300", "10.0.0.0/33", "127.0.0.1,,10.0.0.1"])
def test_a_forwarded_allow_ips_it_cannot_read_is_a_usage_error(value: str, tmp_path: Path) -> None:
    for run in (serve, worker):
        extra = [] if run is serve else ["--name", "w1", "--port", "1"]
        done = run("--forwarded-allow-ips", value, *extra, "--db", f"sqlite:///{tmp_path / 'x.db'}")
        assert done.returncode == 2 and "Traceback" not in done.stderr
        last = done.stderr.splitlines()[-1]
        assert last.startswith(f"lald {run.__name__}: ") and "is not an IP address or network" in last, last
    assert not (tmp_path / "x.db").exists()


def test_lald_worker_names_itself_in_its_messages() -> None:
    done = worker("--name", "w1", "--port", "1", "--db", "postgresql+psycopg://someone:hunter2@127.0.0.1:1/x")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("lald worker: cannot open the database") and "hunter2" not in done.stderr
    done = worker("--name", "w1", "--port", "1", "--db", "postgresql+psycopg://x@127.0.0.1:1/x",
                  "--ping-seconds", "20", "--silent-seconds", "20")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("lald worker: --silent-seconds (20) must be more than --ping-seconds")


def _started(proc: subprocess.Popen[str], base: str) -> None:
    import httpx

    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None and time.monotonic() < deadline, proc.returncode
        try:
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)


@pytest.mark.parametrize(("trusted", "refused"), [(None, False), ("10.9.8.7", True), ("127.0.0.0/8", False)])
def test_forwarded_allow_ips_says_whose_x_forwarded_for_counts(
        trusted: str | None, refused: bool, tmp_path: Path) -> None:
    """Two tables made from 127.0.0.1 for two different people (X-Forwarded-For) with a
    burst of one table an address: both are made when 127.0.0.1 may say who the client is
    (the default: nginx on this machine), the second refused when it may not."""
    import httpx

    from ...conftest import free_port

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    extra = [] if trusted is None else ["--forwarded-allow-ips", trusted]
    env = {k: v for k, v in os.environ.items() if k != "FORWARDED_ALLOW_IPS"} | {"PYTHONWARNINGS": ""}
    proc = subprocess.Popen(
        [sys.executable, "-m", "lald", "serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.db'}",
         "--tables-at-once", "1", "--log-level", "warning", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    try:
        _started(proc, base)
        body = {"seats": [{"human": True}] + [{"human": False}] * 4}
        codes = [httpx.post(base + "/api/tables", json=body, headers={"X-Forwarded-For": who},
                            timeout=10).status_code for who in ("203.0.113.1", "203.0.113.2")]
        assert codes == ([201, 429] if refused else [201, 201])
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err
