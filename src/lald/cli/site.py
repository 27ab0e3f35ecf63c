"""``lald serve --workers N``: a whole site on one machine: N ``lald worker`` processes over
one PostgreSQL database on 127.0.0.1 at the ports after ``--port``, and nginx on ``--port``
in front of them, with the configuration lald writes (:mod:`lald.web.proxy`). A server
that dies is started again; SIGTERM or Ctrl-C stops the servers (each hands its tables
over and commits what it accepted), then nginx. ``--print-proxy-config`` prints the
configuration for a site run by systemd instead (docs/deploy.md)."""

from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


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


def run_site(args: argparse.Namespace, worker_args: list[str], shown: str) -> None:
    """Run the site until stopped: ``worker_args`` are the options each ``lald worker``
    gets besides its name, port and database (checked already: ``lald serve`` does it),
    ``shown`` the database's URL as printed."""
    from ..web.proxy import nginx_standalone

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
    checked = subprocess.run([nginx, "-t", "-q", "-p", str(prefix), "-c", str(conf), "-e", "stderr"],
                             capture_output=True, text=True)
    if checked.returncode != 0:
        shutil.rmtree(prefix, ignore_errors=True)
        _fail(f"nginx refused the configuration: {checked.stderr.strip().splitlines()[-1:]}")
    site = Site(args, servers, nginx, prefix, conf, worker_args, shown)
    try:
        site.run()
    finally:
        site.stop()
        shutil.rmtree(prefix, ignore_errors=True)


class Site:
    """The servers and nginx, as child processes."""

    def __init__(self, args: argparse.Namespace, servers: list[tuple[str, str]], nginx: str, prefix: Path,
                 conf: Path, worker_args: list[str], shown: str) -> None:
        self.args, self.servers, self.nginx_path, self.prefix, self.conf = args, servers, nginx, prefix, conf
        self.worker_args, self.shown = worker_args, shown
        self.workers: dict[str, subprocess.Popen[bytes]] = {}
        self.nginx: subprocess.Popen[bytes] | None = None
        self.stopping = False

    def start_worker(self, name: str, address: str) -> None:
        args = self.args
        self.workers[name] = subprocess.Popen(
            [sys.executable, "-m", "lald", "worker", "--name", name, "--port", address.rsplit(":", 1)[1],
             "--db", args.db, *self.worker_args], stdout=subprocess.DEVNULL)

    def run(self) -> None:
        """Start everything, then watch: a server that dies is started again."""
        def stop(signum: int, frame: object) -> None:
            self.stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        for name, address in self.servers:
            self.start_worker(name, address)
        self.nginx = subprocess.Popen([self.nginx_path, "-p", str(self.prefix), "-c", str(self.conf),
                                       "-e", "stderr"])
        if not self._ready(60):
            return
        names = ", ".join(f"{name} at {address}" for name, address in self.servers)
        print(f"lald: serving on http://{self.args.host}:{self.args.port}/ through nginx: "
              f"{len(self.servers)} servers ({names}); database {self.shown}", flush=True)
        while not self.stopping:
            time.sleep(0.2)
            if self.nginx.poll() is not None and not self.stopping:
                print(f"lald serve: nginx stopped (status {self.nginx.returncode}); stopping the site",
                      file=sys.stderr, flush=True)
                return
            for name, address in self.servers:
                proc = self.workers[name]
                if proc.poll() is not None and not self.stopping:
                    print(f"lald: server {name} stopped (status {proc.returncode}); starting it again",
                          file=sys.stderr, flush=True)
                    self.start_worker(name, address)

    def _ready(self, seconds: float) -> bool:
        import httpx

        deadline = time.monotonic() + seconds
        waiting = {address for _, address in self.servers}
        while waiting and not self.stopping:
            if time.monotonic() > deadline:
                print("lald serve: the servers did not start in time", file=sys.stderr)
                return False
            for name, proc in self.workers.items():
                if proc.poll() is not None:
                    print(f"lald serve: server {name} could not start (status {proc.returncode})",
                          file=sys.stderr)
                    return False
            for address in list(waiting):
                try:
                    if httpx.get(f"http://{address}/readyz", timeout=1).status_code == 200:
                        waiting.discard(address)
                except httpx.HTTPError:
                    pass
            time.sleep(0.1)
        return not self.stopping

    def stop(self) -> None:
        """Stop the servers (each hands its tables over), then nginx."""
        self.stopping = True
        for proc in self.workers.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 30
        for proc in self.workers.values():
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)
            try:
                self.nginx.wait(10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait()
