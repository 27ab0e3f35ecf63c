"""A site for the tests: real ``lald worker`` processes over the test PostgreSQL server,
and Debian's nginx in front of them with the configuration lald writes; and a player that
behaves as the page does (it reconnects, to the table's own address, and sends its move
again only if the table is still at the version it chose it on)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from lald.cli.host.site import nginx_binary
from lald.store import Store
from lald.web.site.proxy import nginx_standalone

from ...conftest import free_port

SRC = Path(__file__).resolve().parents[3] / "src"
FAST = ["--bot-delay", "0", "--claim-window", "0", "--deal-pause", "0", "--tables-at-once", "100000",
        "--silent-seconds", "3600", "--ping-seconds", "600"]


class Worker:
    """One ``lald worker`` process."""

    def __init__(self, name: str, db: str, log: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.name, self.db, self.log, self.extra = name, db, log, extra
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = env or {}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, env: dict[str, str] | None = None) -> None:
        """Start it (again) and wait until it is ready."""
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "lald", "worker", "--name", self.name, "--port", str(self.port),
                 "--db", self.db, "--log-level", "info", *FAST, *self.extra],
                stdout=subprocess.DEVNULL, stderr=err,
                env=os.environ | {"PYTHONPATH": str(SRC), "PYTHONWARNINGS": ""} | self.env | (env or {}))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"lald worker {self.name} exited with status {self.proc.returncode}")
            try:
                if httpx.get(self.base + "/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"lald worker {self.name} did not start in 30 s")

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """kill -9."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def wait_dead(self, seconds: float) -> bool:
        """Whether the process ends within ``seconds`` (killed by a fail point, say)."""
        assert self.proc is not None
        try:
            self.proc.wait(seconds)
            return True
        except subprocess.TimeoutExpired:
            return False

    def stop(self) -> int | None:
        """SIGTERM, and its exit status."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return None if self.proc is None else self.proc.returncode


def nginx_prefix(prefix: Path) -> str:
    """Debian's nginx, and ``prefix`` made a folder it may run in (its temporary folders
    writable by its workers' user)."""
    nginx = nginx_binary()
    assert nginx, "the site's tests need Debian's nginx: apt-get install nginx-core"
    prefix.chmod(0o755)
    for part in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / "tmp" / part).mkdir(parents=True)
        (prefix / "tmp" / part).chmod(0o777)
    return nginx


class Site:
    """Workers and nginx, on 127.0.0.1."""

    def __init__(self, db: str, names: list[str], tmp: Path, *extra: str) -> None:
        self.db = db
        self.tmp = tmp
        self.workers = {n: Worker(n, db, tmp / f"{n}.log", *extra) for n in names}
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.nginx: subprocess.Popen[bytes] | None = None
        self.prefix = Path(tempfile.mkdtemp(prefix="lald-test-nginx-"))

    def start(self) -> None:
        nginx = nginx_prefix(self.prefix)
        conf = self.prefix / "nginx.conf"
        servers = [(n, f"127.0.0.1:{w.port}") for n, w in self.workers.items()]
        conf.write_text(nginx_standalone(servers, f"127.0.0.1:{self.port}", str(self.prefix)))
        for w in self.workers.values():
            w.start()
        with open(self.tmp / "nginx.log", "ab") as err:
            self.nginx = subprocess.Popen([nginx, "-p", str(self.prefix), "-c", str(conf), "-e", "stderr"],
                                          stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start")

    def stop(self) -> None:
        for w in self.workers.values():
            w.stop()
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
        shutil.rmtree(self.prefix, ignore_errors=True)

    def holder(self, table_id: str) -> str:
        """Which worker holds the table, as the proxy would be told (asking a live one)."""
        for w in self.workers.values():
            if w.alive:
                r = httpx.get(w.base + "/_lald/route", headers={"X-Lald-Path": f"/ws/{table_id}"}, timeout=10)
                if r.status_code == 200:
                    return r.headers["x-lald-route"]
        raise AssertionError("no worker answers")

    def create(self, via: str | None = None, humans: int = 1, level: str = "random",
               deals: int | None = None) -> dict[str, Any]:
        """A table of ``humans`` people and bots (``deals`` deals, or the preset's), made at
        worker ``via`` (or through the proxy)."""
        base = self.workers[via].base if via else self.base
        body: dict[str, Any] = {"seats": [{"human": s < humans, "level": level} for s in range(5)]}
        if deals is not None:
            body["options"] = {"deals": deals}
        r = httpx.post(base + "/api/tables", json=body, timeout=10)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data


class Player:
    """Seat 0 of a table, played through the proxy as the page plays it."""

    def __init__(self, site: Site, answer: dict[str, Any]) -> None:
        self.site = site
        self.token = answer["seats"][0]["token"]
        self.table = answer["table"]["id"]
        self.frames: list[dict[str, Any]] = []
        self.log: list[str] = []
        """The log's lines as this page was told them (from the start; a reset restarts it)."""
        self.told: list[tuple[int, str]] = []
        """(version, log length) of each state frame."""
        self.sent: list[tuple[int, dict[str, Any]]] = []
        """Every action sent, with the version it was chosen on."""
        self.pending: tuple[int, dict[str, Any]] | None = None
        self.passed: set[int] = set()
        """Versions whose action was pending over a lost connection and whose table had
        moved past them by the first frame after the reconnect."""
        self.reconnects = 0
        self.elsewhere = 0
        self.errors: list[dict[str, Any]] = []
        self.last_v = 0
        self.prefixes_kept = True
        self.holding = False
        """While set, the page reads on but makes no move (the table waits for its person);
        the frame it would have answered is answered once it is unset."""

    async def play(self, until: Any, seconds: float = 60.0) -> None:
        """Play (first turn action, next deal when asked) until ``until(frame)`` or the
        session is over; reconnect as the page does when the connection is lost."""
        deadline = time.monotonic() + seconds
        path = "/ws"
        while time.monotonic() < deadline:
            try:
                async with connect(f"ws://127.0.0.1:{self.site.port}{path}", max_size=None,
                                   open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "join", "token": self.token}))
                    resend = self.pending is not None
                    held: dict[str, Any] | None = None
                    while time.monotonic() < deadline:
                        if held is not None and not self.holding:
                            m, held = held, None
                        else:
                            left = max(0.01, deadline - time.monotonic())
                            try:
                                m = json.loads(await asyncio.wait_for(ws.recv(), 0.05 if held else left))
                            except TimeoutError:
                                if held is not None:
                                    continue
                                raise
                            if m["type"] == "elsewhere":
                                self.elsewhere += 1
                                path = f"/ws/{m['table']}"
                                continue
                            if m["type"] == "welcome":
                                path = f"/ws/{m['table']}"
                                continue
                            if m["type"] == "error":
                                self.errors.append(m)
                                if m["code"] == "stale":
                                    self.pending = None
                                continue
                            if m["type"] != "state":
                                continue
                            self._frame(m)
                            if until(m) or m["session"]["over"]:
                                return
                        if self.pending is not None and m["v"] > self.pending[0]:
                            if resend:  # moved past while the page was away
                                self.passed.add(self.pending[0])
                            self.pending = None  # shown: applied (or the table moved past it)
                        resend = resend and self.pending is not None
                        if self.pending is not None:
                            v, action = self.pending
                            if resend and m["v"] == v:
                                await ws.send(json.dumps({"type": "act", "v": v, "action": action}))
                                self.sent.append((v, action))
                                resend = False
                            continue
                        if self.holding:
                            held = m  # the newest frame is the one to answer
                            continue
                        if m["can_next"]:
                            await ws.send(json.dumps({"type": "next_deal"}))
                            continue
                        turn = [a for a in m["legal"] if a["type"] != "claim"]
                        if turn:
                            self.pending = (m["v"], turn[0])
                            self.sent.append(self.pending)
                            await ws.send(json.dumps({"type": "act", "v": m["v"], "action": turn[0]}))
            except (ConnectionClosed, OSError, InvalidStatus, TimeoutError):
                self.reconnects += 1
                await asyncio.sleep(0.1)
        raise AssertionError(f"table {self.table}: not done in {seconds} s")

    def _frame(self, m: dict[str, Any]) -> None:
        texts = [e["text"] for e in m["log"]]
        if m["reset"]:
            # Everything told before must still be there, as told: nothing accepted lost.
            if texts[:len(self.log)] != self.log:
                self.prefixes_kept = False
            self.log = texts
        else:
            self.log += texts
        assert m["v"] >= self.last_v or m["reset"], (m["v"], self.last_v)
        if m["v"] < self.last_v:
            self.prefixes_kept = False
        self.last_v = m["v"]
        self.frames.append(m)
        self.told.append((m["v"], str(len(self.log))))


def busy(port: int) -> bool:
    """Whether something listens on 127.0.0.1:``port``."""
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def served_site(db: str, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int, Path]]:
    """``lald serve --workers 2`` on ``db`` (a site of its own), up to its "serving" line: the
    process, its port and its standard error's file. Stopped after, with status 0 and its
    ports free."""
    Store(db).close()
    port = free_port()
    while any(busy(p) for p in range(port + 1, port + 3)):
        port = free_port()
    err = tmp_path / "site.log"
    with open(err, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "lald", "serve", "--workers", "2", "--port", str(port), "--db", db,
             "--bot-delay", "0", "--tables-at-once", "1000", "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=out, text=True,
            env=os.environ | {"PYTHONPATH": str(SRC), "PYTHONWARNINGS": ""})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"lald: serving on http://127.0.0.1:{port}/ through nginx: 2 servers"), (
            line, err.read_text())
        yield proc, port, err
    finally:
        proc.terminate()
        status = proc.wait(60)
        if proc.stdout is not None:
            proc.stdout.close()
    assert status == 0, err.read_text()
    assert not any(busy(p) for p in range(port, port + 3))
