"""docs/deploy.md's recipes, run as an operator runs them: the systemd units and the proxy
configuration lald prints for them serve through nginx; the documented backup and restore
commands give a database the servers play on; ``lald serve --workers`` says it is serving
only once a request through nginx is answered, and starts nginx again when it stops; and
pg_dump of a site being played, pg_restore into a new database, and a site on the restored
database plays the tables on.

The recipes' commands are read from docs/deploy.md and run by ``bash`` as written, with
these differences only: ``lald`` is this checkout's; PostgreSQL is a throw-away server made
as Debian makes one (its superuser ``postgres``), reached through PGHOST and PGPORT, which
a stand-in for ``sudo -u USER`` keeps (sudo itself would clear them); files go to a
temporary folder instead of ``/var/backups`` and ``/etc/nginx/conf.d``; nginx listens on
127.0.0.1 at a free port instead of port 80; and ``systemctl`` is done by the test, which
starts and stops the units' ``ExecStart`` as systemd would."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from lald.store import Store

from ...conftest import Postgres, free_port
from .sites import SRC, Player, Site, busy, nginx_prefix, served_site

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the site runs on Linux")

DOC = Path(__file__).resolve().parents[3] / "docs" / "deploy.md"


def doc_block(lang: str, having: str) -> str:
    """The code block of docs/deploy.md in ``lang`` that has ``having`` in it."""
    found = [b for b in re.findall(rf"^```{lang}\n(.*?)^```", DOC.read_text(), re.S | re.M) if having in b]
    assert len(found) == 1, f"docs/deploy.md has {len(found)} {lang} blocks with {having!r}"
    return found[0]


def commands(block: str) -> list[str]:
    """A shell block's commands, a line each (a line ending in \\ goes on)."""
    return [c.strip() for c in block.replace("\\\n", " ").splitlines() if c.strip() and not c.startswith("#")]


class Debian(Postgres):
    """A throw-away PostgreSQL server made as Debian's package makes one: its superuser
    is ``postgres``; the recipes reach it by its socket, through PGHOST and PGPORT."""

    def start(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.dir} -F -c shared_buffers=16MB -c max_connections=40"
        self._run("pg_ctl", "start", "-w", "-t", "30", "-D", str(self.data), "-l",
                  str(self.dir / "server.log"), "-o", options)

    def query(self, sql: str, db: str = "lald") -> list[tuple[Any, ...]]:
        with psycopg.connect(f"host={self.dir} port={self.port} user=postgres dbname={db}") as c:
            return c.execute(sql).fetchall()


class Operator:
    """Runs docs/deploy.md's commands as written, on the Debian-like PostgreSQL server."""

    def __init__(self, pg: Debian, tmp: Path) -> None:
        self.pg, self.tmp = pg, tmp
        self.bin = tmp / "bin"
        self.bin.mkdir()
        (self.bin / "lald").write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m lald \"$@\"\n")
        (self.bin / "sudo").write_text(
            "#!/bin/sh\n"
            "# sudo -u USER COMMAND...: COMMAND as USER, as sudo runs it, the environment kept\n"
            "[ \"$1\" = -u ] || { echo \"sudo stand-in: sudo -u USER COMMAND only\" >&2; exit 64; }\n"
            "user=$2; shift 2\n"
            "HOME=$(getent passwd \"$user\" | cut -d: -f6) "
            "exec setpriv --reuid=\"$user\" --regid=\"$user\" --init-groups \"$@\"\n")
        for f in ("lald", "sudo"):
            (self.bin / f).chmod(0o755)
        self.env = os.environ | {
            "PATH": f"{self.bin}:{os.environ['PATH']}", "PGHOST": str(pg.dir), "PGPORT": str(pg.port),
            "PYTHONPATH": str(SRC), "PYTHONWARNINGS": ""}
        self.places = {"/var/backups/": f"{tmp / 'backups'}/", "/etc/nginx/conf.d/": f"{tmp / 'conf.d'}/"}
        for place in self.places.values():
            Path(place).mkdir()

    def run(self, command: str) -> subprocess.CompletedProcess[str]:
        """One of the recipe's commands, by bash, as written (its files in the temporary folder)."""
        for place, instead in self.places.items():
            command = command.replace(place, instead)
        done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120,
                              env=self.env, cwd=self.tmp)
        assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
        return done


@pytest.fixture(scope="module")
def debian() -> Iterator[Debian]:
    pg = Debian()
    try:
        pg.start()
        yield pg
    finally:
        pg.stop()


@pytest.fixture
def operator(debian: Debian, tmp_path: Path) -> Iterator[Operator]:
    """An operator who has set up the database as docs/deploy.md says (a new one each test)."""
    op = Operator(debian, tmp_path)
    if debian.query("SELECT count(*) FROM pg_database WHERE datname = 'lald'", "postgres") == [(1,)]:
        op.run("sudo -u postgres dropdb lald && sudo -u postgres dropuser lald")
    for command in commands(doc_block("sh", "createuser"))[:2]:
        assert command.startswith(("sudo -u postgres createuser", "lald db upgrade")), command
        op.run(command)
    yield op


class Units:
    """The site of docs/deploy.md's systemd recipe: the servers started as the unit
    ``lald-worker@.service`` starts them, nginx with the configuration the recipe prints."""

    def __init__(self, op: Operator) -> None:
        self.op = op
        unit = doc_block("ini", "lald worker")
        self.exec_start = shlex.split(re.search(r"^ExecStart=(.*)$", unit, re.M)[1])  # type: ignore[index]
        self.unit_env = dict(e.split("=", 1) for e in re.findall(r"^Environment=(\S+)$", unit, re.M))
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.nginx: subprocess.Popen[bytes] | None = None
        self.prefix = Path(tempfile.mkdtemp(prefix="lald-test-nginx-"))

    def argv(self, instance: str) -> list[str]:
        """``ExecStart`` of ``lald-worker@INSTANCE``, as systemd expands it."""
        env = self.unit_env
        args = [re.sub(r"\$\{(\w+)\}", lambda m: env[m[1]], a.replace("%i", instance))
                for a in self.exec_start]
        assert args[0] == "/opt/lald/.venv/bin/lald", args
        return [str(self.op.bin / "lald"), *args[1:]]

    def systemctl(self, command: str) -> None:
        """``systemctl start|stop UNIT...`` of the recipe, done as systemd does it."""
        verb, *units = shlex.split(command)[1:]
        if verb == "stop":
            assert units == ["lald-worker@*"], units
            for proc in self.procs.values():
                proc.terminate()  # KillSignal=SIGTERM
            for proc in self.procs.values():
                proc.wait(30)
            self.procs.clear()
            return
        assert verb in ("start", "enable") and units, command
        for unit in (u for u in units if u != "--now"):
            instance = re.fullmatch(r"lald-worker@(\d+)", unit)[1]  # type: ignore[index]
            args = self.argv(instance)
            port = int(args[args.index("--port") + 1])
            if busy(port):
                pytest.skip(f"port {port}, where the recipe's lald-worker@{instance} listens, is in use")
            with open(self.op.tmp / f"worker{instance}.log", "ab") as log:
                self.procs[instance] = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=log,
                                                        env=self.op.env)
        for instance, proc in self.procs.items():
            args = self.argv(instance)
            url = f"http://127.0.0.1:{args[args.index('--port') + 1]}/readyz"
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, (self.op.tmp / f"worker{instance}.log").read_text()[-2000:]
                assert time.monotonic() < deadline, f"lald-worker@{instance} did not start in 60 s"
                try:
                    if httpx.get(url, timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)

    def proxy(self) -> None:
        """The recipe's proxy: the configuration printed as it says, nginx with it (as
        Debian's nginx.conf includes conf.d), listening on 127.0.0.1 instead of port 80."""
        [printed, check] = commands(doc_block("sh", "--print-proxy-config"))[:2]
        assert check.startswith("nginx -t"), check
        self.op.run(printed)
        [conf] = (self.op.tmp / "conf.d").glob("*.conf")
        text, n = re.subn(r"^    listen [^;]+;$", f"    listen 127.0.0.1:{self.port};", conf.read_text(),
                          flags=re.M)
        assert n == 1, text
        conf.write_text(text)
        nginx = nginx_prefix(self.prefix)
        main = self.prefix / "nginx.conf"
        temps = "".join(f"    {part}_temp_path {self.prefix}/tmp/{part.replace('client_body', 'body')};\n"
                        for part in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        main.write_text(f"daemon off;\nworker_processes 1;\npid {self.prefix}/nginx.pid;\n"
                        f"error_log stderr warn;\nevents {{ worker_connections 1024; }}\n"
                        f"http {{\n    access_log off;\n{temps}    include {conf.parent}/*.conf;\n}}\n")
        args = [nginx, "-p", str(self.prefix), "-c", str(main), "-e", "stderr"]
        checked = subprocess.run([*args, "-t", "-q"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        with open(self.op.tmp / "nginx.log", "ab") as err:
            self.nginx = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 30
        while True:
            assert self.nginx.poll() is None and time.monotonic() < deadline, (
                (self.op.tmp / "nginx.log").read_text())
            try:
                httpx.get(self.base + "/healthz", timeout=2)
                return
            except httpx.HTTPError:
                time.sleep(0.05)

    def stop(self) -> None:
        self.systemctl("systemctl stop 'lald-worker@*'")
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait(10)
        shutil.rmtree(self.prefix, ignore_errors=True)

    def create(self, humans: int = 1, deals: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"seats": [{"human": s < humans, "level": "random"} for s in range(5)]}
        if deals is not None:
            body["options"] = {"deals": deals}
        r = httpx.post(self.base + "/api/tables", json=body, timeout=10)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data


def test_the_systemd_recipe_serves_through_the_proxy_it_prints(operator: Operator) -> None:
    site = Units(operator)
    try:
        site.systemctl(commands(doc_block("sh", "systemctl enable"))[0])
        site.proxy()
        assert httpx.get(site.base + "/healthz", timeout=10).status_code == 200
        answer = site.create()
        table = answer["table"]["id"]
        # routed by the holder's name to its upstream: the printed names are the units'
        r = httpx.get(f"{site.base}/api/tables/{table}", timeout=10)
        assert r.status_code == 200 and r.json()["id"] == table, r.text
    finally:
        site.stop()


def test_the_documented_backup_and_restore_give_a_database_the_servers_play_on(operator: Operator) -> None:
    site = Units(operator)
    try:
        site.systemctl(commands(doc_block("sh", "systemctl enable"))[0])
        site.proxy()
        answer = site.create(deals=3)
        bots = site.create(humans=0, deals=50)["table"]["id"]
        player = Player(site, answer)  # type: ignore[arg-type]
        asyncio.run(player.play(lambda m: m["v"] >= 12, 60))
        for command in commands(doc_block("sh", "pg_dump")):
            operator.run(command)  # while the bots play on
        seen = player.last_v
        [dump] = (operator.tmp / "backups").iterdir()
        assert stat.S_IMODE(dump.stat().st_mode) & 0o077 == 0, oct(dump.stat().st_mode)
        assert dump.stat().st_size > 0
        for command in commands(doc_block("sh", "pg_restore")):
            if command.startswith("systemctl "):
                site.systemctl(command)
            else:
                operator.run(re.sub(r"/var/backups/lald-[0-9-]+\.dump", str(dump), command))
        owners = operator.pg.query("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public' "
                                   "UNION SELECT DISTINCT sequenceowner FROM pg_sequences")
        assert owners == [("lald",)]
        player = Player(site, answer)  # type: ignore[arg-type]  # the same link, on the restored site
        asyncio.run(player.play(lambda m: m["v"] >= seen + 5, 60))
        assert player.frames[0]["v"] >= seen and player.errors == []
        r = httpx.get(f"{site.base}/api/tables/{bots}", timeout=10)  # the table of bots is taken too
        assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    finally:
        site.stop()


def test_a_backup_made_during_play_restores_and_plays_on(postgres: Any, tmp_path: Path) -> None:
    db = postgres.database()
    Store(db).close()
    site = Site(db, ["b1"], tmp_path)
    where = ["-h", "127.0.0.1", "-p", str(postgres.port), "-U", "lald"]
    try:
        site.start()
        answer = site.create(deals=3)
        bots = site.create(humans=0, deals=50)["table"]["id"]
        player = Player(site, answer)
        asyncio.run(player.play(lambda m: m["v"] >= 12, 60))
        dump = tmp_path / "lald.dump"
        done = subprocess.run([str(postgres.bin / "pg_dump"), "--format=custom", f"--file={dump}", *where,
                               db.rsplit("/", 1)[1]], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        seen = player.last_v
    finally:
        site.stop()
    restored = postgres.database()
    name = restored.rsplit("/", 1)[1]
    done = subprocess.run([str(postgres.bin / "pg_restore"), "--no-owner", *where, "--dbname", name,
                           str(dump)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    with psycopg.connect(f"host=127.0.0.1 port={postgres.port} user=lald dbname={name}") as c:
        assert c.execute("SELECT count(*) FROM lald_tables").fetchone() == (2,)
    again = Site(restored, ["b2"], tmp_path / "again")
    (tmp_path / "again").mkdir()
    try:
        again.start()
        player = Player(again, answer)  # the same link, on the restored site
        asyncio.run(player.play(lambda m: m["v"] >= seen + 5, 60))
        assert player.frames[0]["v"] >= seen and player.errors == []
        assert again.holder(bots) == "b2"  # the tables of bots are played on too
    finally:
        again.stop()


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


def _through(base: str) -> list[int]:
    """What a request through nginx is answered: the health, the lobby's page, a new table
    and that table (routed to its holder by name)."""
    codes = [httpx.get(base + path, timeout=10).status_code for path in ("/healthz", "/")]
    r = httpx.post(base + "/api/tables", json={"seats": [{"human": False}] * 5}, timeout=10)
    codes.append(r.status_code)
    if r.status_code == 201:
        codes.append(httpx.get(f"{base}/api/tables/{r.json()['table']['id']}", timeout=10).status_code)
    return codes


@pytest.fixture
def served(postgres: Any, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int, Path]]:
    """``lald serve --workers 2`` on a database of its own (:func:`.site.served_site`)."""
    with served_site(postgres.database(), tmp_path) as site:
        yield site


def test_lald_serve_workers_says_serving_once_nginx_answers(
        served: tuple[subprocess.Popen[str], int, Path]) -> None:
    _, port, err = served
    assert _through(f"http://127.0.0.1:{port}") == [200, 200, 201, 200], err.read_text()


def test_lald_serve_workers_starts_nginx_again_when_it_stops(
        served: tuple[subprocess.Popen[str], int, Path]) -> None:
    proc, port, err = served
    base = f"http://127.0.0.1:{port}"
    for kill in range(2):
        [master] = [p for p in _children(proc.pid) if _cmdline(p).startswith("nginx: master")]
        os.kill(master, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while err.read_text().count("nginx stopped") < kill + 1:
            assert proc.poll() is None, err.read_text()
            assert time.monotonic() < deadline, err.read_text()
            time.sleep(0.1)
        while True:
            assert proc.poll() is None, err.read_text()  # the site serves on
            assert time.monotonic() < deadline, err.read_text()
            try:
                if _through(base) == [200, 200, 201, 200]:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        assert "starting it again" in err.read_text()
