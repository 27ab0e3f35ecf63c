"""Shared test settings: Hypothesis profiles (CI runs the thorough one), free ports, a
throw-away PostgreSQL server for the tests of every part that keeps data (the store, the web),
and ``LALD_REQUIRE_COMPILED=1`` (``make test`` sets it), under which a test of a compiled twin
(the kernel, the vector tables) that would skip because its extension is missing or does
not load fails instead: a run cannot go green with "C equals Python" untested."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

REQUIRE_COMPILED = os.environ.get("LALD_REQUIRE_COMPILED", "").strip() == "1"
#: Words of the skips of the compiled twins' tests (their extension missing or not loading).
TWIN_SKIPS = ("is not built", "is not loaded", "do not play", "LALD_KERNEL=python")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Under ``LALD_REQUIRE_COMPILED=1``, a compiled twin's test that skipped fails."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if REQUIRE_COMPILED and report.skipped:
        reason = str(report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr)
        if any(words in reason for words in TWIN_SKIPS):
            report.outcome = "failed"
            report.longrepr = f"LALD_REQUIRE_COMPILED=1, but a compiled twin's test would skip: {reason}"


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Postgres:
    """A throw-away PostgreSQL server on 127.0.0.1 in a temporary directory.

    PostgreSQL refuses to run as root: as root, its programs run as the ``postgres``
    system user (Debian's package creates it), otherwise as the current user.
    """

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                       key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
        if not found:
            pytest.fail("PostgreSQL is not installed: the PostgreSQL tests need initdb and pg_ctl "
                        "under /usr/lib/postgresql/*/bin (apt-get install -y postgresql; .ci/run "
                        "does this)", pytrace=False)
        self.bin = Path(found[-1]).parent
        self.user = "postgres" if os.geteuid() == 0 else None
        self.dir = Path(tempfile.mkdtemp(prefix="lald-pg-"))
        if self.user is not None:
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.port = free_port()
        self.data = self.dir / "data"
        self.count = 0

    def _run(self, *args: str) -> None:
        done = subprocess.run([str(self.bin / args[0]), *args[1:]], cwd=self.dir, user=self.user,
                              capture_output=True, text=True, timeout=60,
                              env=os.environ | {"LC_ALL": "C", "LANG": "C"})
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> None:
        """initdb (trust authentication for the ``lald`` role, no fsync) and start."""
        self._run("initdb", "-D", str(self.data), "-U", "lald", "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")
        options = (f"-h 127.0.0.1 -p {self.port} -k {self.dir} -F "
                   "-c shared_buffers=16MB -c max_connections=40")
        self._run("pg_ctl", "start", "-w", "-t", "30", "-D", str(self.data), "-l",
                  str(self.dir / "server.log"), "-o", options)

    def stop(self) -> None:
        """Stop at once and remove everything."""
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        shutil.rmtree(self.dir, ignore_errors=True)

    def database(self) -> str:
        """A new, empty database; its SQLAlchemy URL."""
        import psycopg

        self.count += 1
        name = f"lald{self.count}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=lald dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://lald@127.0.0.1:{self.port}/{name}"


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """One PostgreSQL server for the whole test session."""
    server = Postgres()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file, or a database on the test PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lald.db'}"
    server: Postgres = request.getfixturevalue("postgres")
    return server.database()


@pytest.fixture(autouse=True, scope="session")
def saves_never_in_the_users_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``lald play`` saves into the user's data folder by default: every test (and every
    ``lald`` a test starts, which inherits the environment) saves into a temporary folder
    instead, unless it names its own; in this process the default folder itself is one
    (a test that clears ``LALD_SAVE_DIR`` for a ``lald`` it starts sets ``XDG_DATA_HOME``)."""
    from lald.tui import store

    patch = pytest.MonkeyPatch()
    patch.setenv("LALD_SAVE_DIR", str(tmp_path_factory.mktemp("lald-saves")))
    default = tmp_path_factory.mktemp("user-data") / "saves"
    patch.setattr(store, "default_dir", lambda: default)
    yield
    patch.undo()
