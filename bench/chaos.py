"""Faults, tried continuously (issue 31): a site of two ``lald worker`` processes over one
PostgreSQL server, behind nginx, under bots' load for MINUTES, while a driver, at moments
drawn from SEED, kills a worker (kill -9; started again a second later, as systemd would),
restarts PostgreSQL (``pg_ctl restart -m fast``), reloads nginx (SIGHUP), restarts nginx,
and pauses a worker (SIGSTOP past its leases' life, then SIGCONT).

Every table has one person, played by a page of this program that pings and reconnects as
the browser's page does (a connection without a pong within the welcome's wait is lost),
and four bots; when a session ends, the page
opens another table. Afterwards it checks, and prints beside the figures:

- every action a page was told of is stored, once: each table replays from the database
  through the engine (an illegal or doubled action fails), to at least the version its
  page was shown, and no page was ever shown a version going back;
- every table played again within 5 s of the end of each fault (p99 over the tables that
  were playing), the end being the moment the fault is over (the worker started again,
  PostgreSQL accepting connections, nginx back, the worker continued);
- ``/readyz`` was honest: while PostgreSQL was down no worker said ready for longer than
  the check's bound (3 s), and every worker said ready again within 15 s of each fault's
  end.

It exits 1 when one of these fails (so ``tests/web/site/test_chaos.py`` runs a short one), 0
otherwise.

    .venv/bin/python bench/chaos.py --minutes 30 --seed 1 --tables 100
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import pwd
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

import machine  # noqa: E402
import serve  # noqa: E402

FAULTS = ("kill", "postgres", "nginx-reload", "nginx-restart", "pause")
RECOVERY = 5.0
"""Seconds within which every table plays again after a fault's end (p99)."""
READY_BOUND = 3.0
"""Seconds a worker may still say ready once PostgreSQL is down (its check's time)."""


class Postgres:
    """A throw-away PostgreSQL server on 127.0.0.1 that the driver may restart."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
        if not found:
            raise SystemExit("the chaos run needs PostgreSQL (apt-get install postgresql)")
        self.bin = Path(found[-1]).parent
        self.user = "postgres" if os.geteuid() == 0 else None
        self.dir = Path(tempfile.mkdtemp(prefix="lald-chaos-pg-"))
        if self.user is not None:
            pw = pwd.getpwnam(self.user)
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
        self.port = serve.free_port()
        self.data = self.dir / "data"

    def run(self, *args: str) -> None:
        done = subprocess.run([str(self.bin / args[0]), *args[1:]], cwd=self.dir, user=self.user,
                              capture_output=True, text=True, timeout=120,
                              env=os.environ | {"LC_ALL": "C", "LANG": "C"})
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> str:
        self.run("initdb", "-D", str(self.data), "-U", "lald", "--auth=trust", "-E", "UTF8", "--no-sync",
                 "--no-instructions")
        self.run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data), "-l",
                 str(self.dir / "server.log"), "-o",
                 f"-h 127.0.0.1 -p {self.port} -k {self.dir} -F -c max_connections=100")
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=lald dbname=postgres",
                             autocommit=True) as conn:
            conn.execute("CREATE DATABASE chaos")
        return f"postgresql+psycopg://lald@127.0.0.1:{self.port}/chaos"

    def restart(self) -> None:
        self.run("pg_ctl", "restart", "-m", "fast", "-w", "-t", "60", "-D", str(self.data), "-l",
                 str(self.dir / "server.log"))

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
            self.run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")
        shutil.rmtree(self.dir, ignore_errors=True)


class Site(serve.Site):
    """bench/serve.py's site, with nginx restartable and the leases' life set."""

    def __init__(self, db: str, bot_delay: float, logs: str | None, ttl: float) -> None:
        self.worker_args = ("--lease-seconds", str(ttl))
        super().__init__(db, 2, bot_delay, logs)
        self.nginx_args = list(self.nginx.args)  # type: ignore[arg-type]

    def restart_nginx(self) -> None:
        self.nginx.send_signal(signal.SIGQUIT)
        try:
            self.nginx.wait(10)
        except subprocess.TimeoutExpired:
            self.nginx.kill()
            self.nginx.wait()
        self.nginx = subprocess.Popen(self.nginx_args, stderr=subprocess.DEVNULL)
        for _ in range(100):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.05)


@dataclass
class Record:
    """What the pages, the driver and the monitor saw."""

    progress: dict[str, list[float]] = field(default_factory=dict)
    """Each table's moments of a new version shown to its page."""
    told: dict[str, int] = field(default_factory=dict)
    """The highest version each table's page was shown."""
    over: dict[str, float] = field(default_factory=dict)
    """When each finished table's page saw its session end."""
    backwards: list[str] = field(default_factory=list)
    faults: list[tuple[str, str, float, float]] = field(default_factory=list)
    """(kind, whom, start, end)."""
    ready: list[tuple[float, str, int]] = field(default_factory=list)
    """(when, worker, status: 200, 503, or 0 for no answer)."""
    errors: list[str] = field(default_factory=list)


async def page(site: Site, rec: Record, level: str, join: float, stop: float) -> None:
    """One person's page: opens a table, plays its seat at once whenever it may, reconnects
    as the browser's page does, and opens another table when the session ends."""
    await asyncio.sleep(max(0.0, join - time.monotonic()))
    while time.monotonic() < stop:
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{site.port}", timeout=10) as http:
                r = await http.post("/api/tables", json={"seats": [{"human": s == 0, "level": level}
                                                                     for s in range(5)]})
            if r.status_code != 201:
                await asyncio.sleep(0.5)
                continue
        except httpx.HTTPError:
            await asyncio.sleep(0.5)
            continue
        token, table = r.json()["seats"][0]["token"], r.json()["table"]["id"]
        rec.progress[table], rec.told[table] = [], 0
        await play(site, rec, token, table, stop)


async def play(site: Site, rec: Record, token: str, table: str, stop: float) -> None:
    """Play one table's session to its end (or the run's)."""
    pending: tuple[int, dict[str, Any]] | None = None
    while time.monotonic() < stop:
        try:
            async with connect(f"ws://127.0.0.1:{site.port}/ws/{table}", max_size=None, compression=None,
                               open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "join", "token": token}))
                resend = pending is not None
                every, wait = 10.0, 10.0  # until the welcome says
                next_ping, awaiting = time.monotonic() + every, 0.0
                while time.monotonic() < stop:
                    now = time.monotonic()
                    if awaiting and now > awaiting + wait:
                        break  # no pong: the connection is lost, as the page counts it
                    if now >= next_ping:  # the page's heartbeat
                        await ws.send(json.dumps({"type": "ping"}))
                        awaiting, next_ping = awaiting or now, now + every
                    limit = min(stop, next_ping, awaiting + wait if awaiting else stop) - now
                    try:
                        raw = await asyncio.wait_for(ws.recv(), max(0.01, limit))
                    except TimeoutError:
                        continue
                    m: dict[str, Any] = json.loads(raw)
                    if m["type"] == "welcome" and isinstance(m.get("ping"), dict):
                        every, wait = float(m["ping"]["every"]), float(m["ping"]["wait"])
                        next_ping = time.monotonic() + every
                    if m["type"] == "pong":
                        awaiting = 0.0
                    if m["type"] == "error" and m.get("code") == "stale":
                        pending = None
                    if m["type"] != "state":
                        continue
                    if m["v"] < rec.told[table]:
                        rec.backwards.append(f"table {table}: shown version {rec.told[table]}, then {m['v']}")
                    if m["v"] > rec.told[table]:
                        rec.told[table] = m["v"]
                        rec.progress[table].append(time.monotonic())
                    if pending is not None and m["v"] > pending[0]:
                        pending = None
                    if pending is not None:
                        if resend and m["v"] == pending[0]:
                            await ws.send(json.dumps({"type": "act", "v": pending[0], "action": pending[1]}))
                            resend = False
                        continue
                    if m["session"]["over"]:
                        rec.over[table] = time.monotonic()
                        return
                    if m["can_next"]:
                        await ws.send(json.dumps({"type": "next_deal"}))
                        continue
                    turn = [a for a in m["legal"] if a["type"] != "claim"]
                    if turn:
                        pending = (m["v"], turn[0])
                        await ws.send(json.dumps({"type": "act", "v": m["v"], "action": turn[0]}))
        except Exception as e:  # a dropped connection: back, as the page is
            if type(e).__name__ not in ("ConnectionClosedError", "ConnectionClosedOK", "InvalidStatus",
                                        "ConnectionRefusedError", "TimeoutError", "InvalidMessage",
                                        "OSError", "EOFError", "ConnectionResetError"):
                rec.errors.append(f"table {table}: {type(e).__name__}: {e}")
            await asyncio.sleep(0.2)


async def monitor(site: Site, rec: Record, stop: float) -> None:
    """Ask every worker's ``/readyz`` twice a second."""
    async with httpx.AsyncClient(timeout=1.0) as http:
        while time.monotonic() < stop:
            for name, port in site.ports.items():
                try:
                    status = (await http.get(f"http://127.0.0.1:{port}/readyz")).status_code
                except httpx.HTTPError:
                    status = 0
                rec.ready.append((time.monotonic(), name, status))
            await asyncio.sleep(0.5)


async def driver(site: Site, pg: Postgres, rec: Record, rng: random.Random, first: float, stop: float,
                 ttl: float, sequence: list[str] | None = None) -> None:
    """A fault every 8 to 20 s, drawn from ``rng`` (or the faults of ``sequence``, in its
    order, until it runs out); each over before the next begins."""
    at = first
    while True:
        at += rng.uniform(8.0, 20.0)
        if at > stop - 20 or sequence == []:
            return
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        kind = sequence.pop(0) if sequence is not None else rng.choice(FAULTS)
        whom = rng.choice(site.names)
        start = time.monotonic()
        if kind == "kill":
            site.procs[whom].send_signal(signal.SIGKILL)
            await asyncio.to_thread(site.procs[whom].wait)
            await asyncio.sleep(1.0)
            await asyncio.to_thread(site.start, whom)
        elif kind == "postgres":
            whom = "postgres"
            await asyncio.to_thread(pg.restart)
        elif kind == "nginx-reload":
            whom = "nginx"
            site.nginx.send_signal(signal.SIGHUP)
        elif kind == "nginx-restart":
            whom = "nginx"
            await asyncio.to_thread(site.restart_nginx)
        else:
            site.procs[whom].send_signal(signal.SIGSTOP)
            await asyncio.sleep(ttl + 2.0)
            site.procs[whom].send_signal(signal.SIGCONT)
        rec.faults.append((kind, whom, start, time.monotonic()))


def recovery(rec: Record, kind: str | None = None) -> list[float]:
    """For each fault (of ``kind``) and each table playing before it and not finished
    before its end, the seconds from the fault's end to the table's next new version
    (infinite: never again)."""
    out: list[float] = []
    for fault, _whom, start, end in rec.faults:
        if kind is not None and fault != kind:
            continue
        for table, moments in rec.progress.items():
            if not any(start - 10 <= t < start for t in moments) or rec.over.get(table, end + 1) <= end:
                continue
            after = [t for t in moments if t >= end]
            out.append(after[0] - end if after else float("inf"))
    return out


def dishonest(rec: Record) -> list[str]:
    """The moments ``/readyz`` was not honest."""
    found = []
    for kind, _whom, start, end in rec.faults:
        if kind == "postgres":
            for when, name, status in rec.ready:
                if start + READY_BOUND < when < end - 0.5 and status == 200:
                    found.append(f"{name} said ready {when - start:.1f} s into a PostgreSQL restart")
        for name in {n for _, n, _ in rec.ready}:
            later = [s for w, n, s in rec.ready if n == name and end <= w <= end + 15]
            if later and 200 not in later:
                found.append(f"{name} did not say ready within 15 s of the end of a {kind}")
    return found


def stored(db: str, rec: Record) -> list[str]:
    """Tables whose stored actions replay to less than their page was shown (or not at all)."""
    from lald.store import Store
    from lald.web.settings import Settings
    from lald.web.table.tables import Table

    store = Store(db)
    try:
        datas = {d.id: d for d in store.load_tables(ids=list(rec.told))}
    finally:
        store.close()
    problems: list[str] = []

    async def replay() -> None:
        for table, told in rec.told.items():
            data = datas.get(table)
            if data is None:
                if told:
                    problems.append(f"table {table}: shown version {told}, not stored")
                continue
            try:
                version = Table(data, None, Settings()).version  # type: ignore[arg-type]
            except Exception as e:
                problems.append(f"table {table}: its stored actions do not replay ({e})")
                continue
            if version < told:
                problems.append(f"table {table}: shown version {told}, stored {version}")

    asyncio.run(replay())
    return problems


async def chaos(site: Site, pg: Postgres, rec: Record, args: argparse.Namespace) -> None:
    start = time.monotonic()
    stop = start + args.minutes * 60
    rng = random.Random(args.seed)
    pages = [page(site, rec, args.level, start + i * 2.0 / args.tables, stop) for i in range(args.tables)]
    sequence = args.faults.split(",") if args.faults else None
    await asyncio.gather(*pages, monitor(site, rec, stop),
                         driver(site, pg, rec, rng, start + 10, stop, args.ttl, sequence))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--level", default="random")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--ttl", type=float, default=10.0,
                        help="the workers' lease life, seconds (--lease-seconds; their default 10)")
    parser.add_argument("--logs", help="keep the workers' logs in this folder")
    parser.add_argument("--faults", help="these faults in this order (comma-separated), not drawn: "
                        + ", ".join(FAULTS))
    args = parser.parse_args(argv)
    if args.faults and not set(args.faults.split(",")) <= set(FAULTS):
        parser.error(f"--faults: choose among {', '.join(FAULTS)}")
    print(machine.line(), flush=True)
    print(f"chaos: {args.tables} tables of 1 person + 4 {args.level} bots on 2 workers behind nginx, "
          f"{args.minutes:g} minutes, seed {args.seed}", flush=True)
    pg = Postgres()
    rec = Record()
    try:
        db = pg.start()
        serve.fresh(db)
        if args.logs:
            Path(args.logs).mkdir(parents=True, exist_ok=True)
        site = Site(db, args.bot_delay, args.logs, args.ttl)
        try:
            asyncio.run(chaos(site, pg, rec, args))
        finally:
            site.stop()
        lost = stored(db, rec)
    finally:
        pg.stop()
    back = recovery(rec)
    finite = sorted(b for b in back if b != float("inf"))
    q = statistics.quantiles(back, n=100, method="inclusive") if len(back) >= 2 else [float("nan")] * 99
    kinds = {k: sum(1 for f in rec.faults if f[0] == k) for k in FAULTS}
    actions = sum(rec.told.values())
    print(f"  faults: {len(rec.faults)} ({', '.join(f'{n} {k}' for k, n in kinds.items())}); "
          f"{len(rec.told)} tables, {actions} actions shown to pages")
    print(f"  playing again after a fault's end: p50 {q[49]:.2f} s, p99 {q[98]:.2f} s, max "
          f"{max(finite, default=float('nan')):.2f} s over {len(back)} table-faults; "
          f"{sum(1 for b in back if b == float('inf'))} never again")
    for kind in FAULTS:
        some = sorted(recovery(rec, kind))
        if some:
            print(f"    after {kind}: median {statistics.median(some):.2f} s, max {some[-1]:.2f} s "
                  f"({len(some)} table-faults)")
    unready = dishonest(rec)
    print(f"  stored: {len(rec.told) - len(lost)} of {len(rec.told)} tables replay to what their pages "
          f"were shown; {len(rec.backwards)} versions shown going back; /readyz dishonest {len(unready)} "
          f"times; {len(rec.errors)} page errors")
    for line in [*lost, *rec.backwards, *unready, *rec.errors][:10]:
        print(f"    {line}")
    failed = bool(lost or rec.backwards or unready or rec.errors or not back or q[98] > RECOVERY)
    print("  verdict:", "FAILED" if failed else "held")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
