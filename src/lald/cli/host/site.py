"""``lald serve --workers N``: a whole site on one machine: N ``lald worker`` processes over
one PostgreSQL database on 127.0.0.1 at the ports after ``--port``, and nginx on ``--port``
in front of them, with the configuration lald writes (:mod:`lald.web.site.proxy`).

nginx is started once every server is ready, and "serving" is printed once a request
through nginx is answered. A server or nginx that stops is started again (:class:`Restarts`:
at once, then after pauses that double); nginx stopping again and again (5 times in a
minute) stops the site with exit status 1. SIGTERM or Ctrl-C stops the servers (each hands
its tables over and commits what it accepted), then nginx. ``--print-proxy-config`` prints
the configuration for a site run by systemd instead (docs/deploy.md)."""

from __future__ import annotations

import argparse
import collections
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol


def _fail(message: str) -> None:
    print(f"lald serve: {message}", file=sys.stderr)
    raise SystemExit(1)


def site_servers(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The servers of ``--workers N``: their names and addresses, at the ports after ``--port``."""
    if args.port + args.workers > 65535:
        _fail(f"--port {args.port} leaves no room for {args.workers} servers at the ports after it")
    return [(f"w{i + 1}", f"127.0.0.1:{args.port + i + 1}") for i in range(args.workers)]


def nginx_binary() -> str | None:
    """Debian's nginx, if installed."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)


def _dies_with_parent() -> None:
    """In a child before it runs: SIGTERM when lald serve dies (even by kill -9), so that no
    server or nginx lives on without it (Linux's PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _local(host: str) -> str:
    """Where to reach a server listening on ``host`` from this machine, for a URL."""
    host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"[{host}]" if ":" in host else host


def answers(url: str) -> bool:
    """Whether ``url`` answers 200."""
    import httpx

    try:
        return httpx.get(url, timeout=2, trust_env=False).status_code == 200
    except httpx.HTTPError:
        return False


def run_site(args: argparse.Namespace, worker_args: list[str], shown: str) -> None:
    """Run the site until stopped: ``worker_args`` are the options each ``lald worker``
    gets besides its name, port and database (checked already: ``lald serve`` does it),
    ``shown`` the database's URL as printed. Exit status 1 if it cannot start or nginx
    keeps stopping."""
    from ...web.site.proxy import nginx_standalone

    servers = site_servers(args)
    nginx = nginx_binary()
    if nginx is None:
        _fail("--workers needs nginx in front of the servers (Debian: apt-get install nginx-core)")
        return
    prefix = Path(tempfile.mkdtemp(prefix="lald-nginx-"))
    prefix.chmod(0o755)
    for part in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (prefix / "tmp" / part).mkdir(parents=True)
        (prefix / "tmp" / part).chmod(0o777)  # nginx's workers run as nobody when started as root
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_standalone(servers, f"{args.host}:{args.port}", str(prefix)))
    nginx_args = [nginx, "-p", str(prefix), "-c", str(conf), "-e", "stderr"]
    checked = subprocess.run([*nginx_args, "-t", "-q"], capture_output=True, text=True)
    if checked.returncode != 0:
        shutil.rmtree(prefix, ignore_errors=True)
        _fail(f"nginx refused the configuration: {checked.stderr.strip().splitlines()[-1:]}")

    def start_worker(name: str, address: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "lald", "worker", "--name", name, "--port", address.rsplit(":", 1)[1],
             "--db", args.db, *worker_args], stdout=subprocess.DEVNULL, preexec_fn=_dies_with_parent)

    def start_nginx() -> subprocess.Popen[bytes]:
        # A group of its own: Ctrl-C reaches the servers, which hand their tables over, and
        # nginx stays in front of them until they have; and nginx's own workers, left behind
        # when its master dies, are found (the group) and stopped before it starts again.
        return subprocess.Popen(nginx_args, start_new_session=True, preexec_fn=_dies_with_parent)

    site = Site(servers, f"http://{_local(args.host)}:{args.port}", start_worker, start_nginx)
    names = ", ".join(f"{name} at {address}" for name, address in servers)
    site.serving = (f"lald: serving on http://{args.host}:{args.port}/ through nginx: "
                    f"{len(servers)} servers ({names}); database {shown}")
    signal.signal(signal.SIGTERM, site.stop_soon)
    signal.signal(signal.SIGINT, site.stop_soon)
    try:
        status = site.run()
    finally:
        site.stop()
        shutil.rmtree(prefix, ignore_errors=True)
    if status:
        raise SystemExit(status)


def _end_group(proc: Process) -> None:
    """Stop what is left of nginx's process group (its workers, if its master died)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Process(Protocol):
    """What the site needs of a child process (:class:`subprocess.Popen`)."""

    pid: int
    returncode: int | None

    def poll(self) -> int | None: ...

    def send_signal(self, sig: int) -> None: ...

    def wait(self, timeout: float | None = None) -> int: ...

    def kill(self) -> None: ...


class Restarts:
    """When a child that stopped starts again: at once the first time, then after a pause
    that doubles from ``first`` up to ``longest`` while it keeps stopping within ``window``
    seconds; never, once it has stopped more than ``limit`` times within ``window`` (no
    limit if None)."""

    def __init__(self, limit: int | None, window: float = 60.0, first: float = 0.5,
                 longest: float = 8.0) -> None:
        self.limit, self.window, self.first, self.longest = limit, window, first, longest
        self.stops: collections.deque[float] = collections.deque()

    def pause(self, now: float) -> float | None:
        """The pause before starting again after a stop at ``now``; None: not again."""
        while self.stops and self.stops[0] <= now - self.window:
            self.stops.popleft()
        self.stops.append(now)
        if self.limit is not None and len(self.stops) > self.limit:
            return None
        before = len(self.stops) - 1
        return 0.0 if before == 0 else min(self.longest, self.first * 2 ** (before - 1))


class Child:
    """A process of the site: a server or nginx, started again when it stops."""

    def __init__(self, name: str, start: Callable[[], Process], restarts: Restarts) -> None:
        self.name, self._start, self.restarts = name, start, restarts
        self.proc: Process | None = None
        self.due: float | None = None
        """When to start it again, if it stopped."""

    def start(self) -> None:
        self.proc, self.due = self._start(), None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


#: nginx stopping more often than this (in a minute) stops the site: something is wrong
#: that starting it again does not mend (its port taken, its configuration removed).
NGINX_RESTARTS = 5


class Site:
    """The servers and nginx, as child processes, watched: each one that stops is started
    again. ``clock`` and ``sleep`` are the time it runs by, ``ready(url)`` whether a URL
    answers, ``say`` and ``warn`` where its lines go, ``end_group`` what stops the rest of
    nginx's process group."""

    def __init__(self, servers: list[tuple[str, str]], front: str,
                 start_worker: Callable[[str, str], Process], start_nginx: Callable[[], Process], *,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 ready: Callable[[str], bool] = answers, say: Callable[[str], None] | None = None,
                 warn: Callable[[str], None] | None = None, start_seconds: float = 60.0,
                 end_group: Callable[[Process], None] | None = None) -> None:
        self.servers, self.front = servers, front
        self.workers = {name: Child(f"server {name}", functools.partial(start_worker, name, address),
                                    Restarts(None)) for name, address in servers}
        self.nginx = Child("nginx", self._nginx_starter(start_nginx), Restarts(NGINX_RESTARTS))
        self.end_group = end_group or _end_group
        self.clock, self.sleep, self.ready = clock, sleep, ready
        self.say = say or (lambda line: print(line, flush=True))
        self.warn = warn or (lambda line: print(line, file=sys.stderr, flush=True))
        self.start_seconds = start_seconds
        self.serving = f"lald: serving on {front}/"
        self.stopping = False

    def _nginx_starter(self, start: Callable[[], Process]) -> Callable[[], Process]:
        def started() -> Process:
            if self.nginx.proc is not None:
                self.end_group(self.nginx.proc)
            return start()
        return started

    def stop_soon(self, signum: int = signal.SIGTERM, frame: object = None) -> None:
        """Stop at the next look (a signal's handler)."""
        self.stopping = True

    def run(self) -> int:
        """Start the servers, then nginx once they are ready, then say "serving" once a
        request through nginx is answered; then watch until stopped. The exit status: 0
        when stopped, 1 if the site could not start or nginx kept stopping."""
        for child in self.workers.values():
            child.start()
        urls = {f"http://{address}/readyz": self.workers[name] for name, address in self.servers}
        if not self._until_ready(urls, "the servers"):
            return 0 if self.stopping else 1
        self.nginx.start()
        if not self._until_ready({f"{self.front}/healthz": self.nginx}, "nginx"):
            return 0 if self.stopping else 1
        self.say(self.serving)
        while not self.stopping:
            self.sleep(0.2)
            if not self.look():
                return 1
        return 0

    def _until_ready(self, urls: dict[str, Child], what: str) -> bool:
        """Whether every URL answers before the time to start is up (each one's child living)."""
        deadline = self.clock() + self.start_seconds
        waiting = dict(urls)
        while waiting and not self.stopping:
            for url, child in list(waiting.items()):
                if child.proc is not None and child.proc.poll() is not None:
                    self.warn(f"lald serve: {child.name} could not start (status {child.proc.returncode})")
                    return False
                if self.ready(url):
                    del waiting[url]
            if not waiting:
                break
            if self.clock() > deadline:
                self.warn(f"lald serve: {what} did not start in {self.start_seconds:g} s")
                return False
            self.sleep(0.1)
        return not self.stopping

    def look(self) -> bool:
        """Start again what stopped and whose pause is over; False if nginx stopped too often."""
        now = self.clock()
        for child in [*self.workers.values(), self.nginx]:
            if child.due is not None:
                if now >= child.due and not self.stopping:
                    child.start()
                continue
            if child.proc is None or child.proc.poll() is None or self.stopping:
                continue
            pause = child.restarts.pause(now)
            status = child.proc.returncode
            if pause is None:
                self.warn(f"lald serve: {child.name} stopped (status {status}), {len(child.restarts.stops)} "
                          f"times in {child.restarts.window:g} s; stopping the site")
                return False
            self.warn(f"lald serve: {child.name} stopped (status {status}); starting it again"
                      + (f" in {pause:g} s" if pause else ""))
            child.due = now + pause
            if not pause:
                child.start()
        return True

    def stop(self) -> None:
        """Stop the servers (each hands its tables over), then nginx."""
        self.stopping = True
        procs = [c.proc for c in self.workers.values() if c.proc is not None]
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for proc in procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        nginx = self.nginx.proc
        if nginx is not None and nginx.poll() is None:
            nginx.send_signal(signal.SIGQUIT)
            try:
                nginx.wait(10)
            except subprocess.TimeoutExpired:
                nginx.kill()
                nginx.wait()
        if nginx is not None:
            self.end_group(nginx)
