"""Load figure for ``lald serve`` (a figure, not a test).

Starts ``lald serve`` on 127.0.0.1 with a fresh SQLite file, opens TABLES tables of one
person and four server-side bots, and connects one websocket client per table that plays
the person's seat: on its turn it sends its first turn action at once and measures the
time until the frame showing that action arrives (the latency of a human's action: the
engine's check, the commit to the database, the bots' views, the frame). The clients
join over the first second (tables are opened at different moments, not in lock-step);
latencies and actions are counted after WARMUP seconds, while deals follow one another
until DURATION seconds. Prints, per run, actions/s (all seats), the p50/p99 latency, the
server's CPU use, its processor time per action (the server's CPU seconds over the actions
the database holds from the measured window: the server's own cost, whatever else shares
the machine) and the load average; then the medians of RUNS runs, for a baseline of
one table and for the loaded server, and the ratio of the loaded p99 to the baseline p99.
The clients run in this process (on uvloop when it is installed), on the same machine.

With ``--before DIR`` (a checkout of an older lald), each loaded run is preceded by the
same run of the server from ``DIR/src``, back to back, and the medians of both and their
ratio are printed: the cost of what changed, measured in the same hour.

With ``--community`` (issue 24), each loaded run is followed, back to back, by the same run
with the lobby live and the chat on: LOBBY_PAGES lobby pages hold ``/ws/lobby`` open, every
player says a chat line once a minute (each at its own moment), and once a second a public
table is opened; the time from sending that request to each lobby page's receiving the
table's row is the lobby's update latency (p50/p99 over every page and every table). The
medians of both, the ratio of the players' p99, and the lobby's p99 are printed.

    .venv/bin/python bench/serve.py --tables 200 --duration 20 --runs 5
    git archive 892399c | tar -x -C /tmp/lald-before
    nice -n 10 .venv/bin/python bench/serve.py --tables 200 --before /tmp/lald-before

With ``--proxy`` (and a PostgreSQL ``--db`` it may fill), the site's figures (issue 25):
TABLES tables through nginx to one ``lald worker``, then to two, run by run (the ratio
is what the second worker buys; the CPU per stored action of each; with ``--before``, the
older tree's workers too, back to back), then, with two workers under the same load, ``--kills``
workers killed with kill -9 one after another (each started again, as systemd would):
how long each page whose connection dropped took to be playing again (p50, p99, max),
every table replayed from the database afterwards (an illegal or doubled action fails),
and the pages that saw a version they had been told go back (an action lost). Beside the
servers' CPU, the time their threads waited for a CPU while runnable (Linux's schedstat):
on a machine shared with other work, what the servers could not get.

    nice -n 5 .venv/bin/python bench/serve.py --proxy --db postgresql+psycopg://lald@/bench \
        --tables 1000 --runs 3 --kills 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

import machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: str, port: int, bot_delay: float, src: str | None = None) -> subprocess.Popen[bytes]:
    """``lald serve`` (from ``src``, a source tree, if given), allowed to open every table."""
    env = os.environ | ({"PYTHONPATH": str(Path(src) / "src")} if src else {})
    command = [sys.executable, "-m", "lald", "serve", "--port", str(port), "--db", db,
               "--bot-delay", str(bot_delay), "--claim-window", str(bot_delay), "--log-level", "warning"]
    usage = subprocess.run([*command[:4], "--help"], capture_output=True, text=True, env=env).stdout
    if "--tables-at-once" in usage:  # the rate limit would refuse the bench's tables
        command += ["--tables-at-once", "100000"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/levels", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("lald serve did not start")


async def player(port: int, token: str, join: float, measure: float, stop: float,
                 latencies: list[float], actions: list[int], chat_every: float = 0.0) -> None:
    """Join at ``join`` and play seat 0 of one table until ``stop``; from ``measure`` on,
    record each own action's latency and count every action seen. With ``chat_every``,
    say a chat line every so many seconds (the first at a random moment)."""
    await asyncio.sleep(max(0.0, join - time.monotonic()))
    async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None, compression=None) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
        talking = asyncio.create_task(talk(ws, chat_every, stop)) if chat_every > 0 else None
        sent_v: int | None = None
        sent_at = 0.0
        last_v = 0
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            m: dict[str, Any] = json.loads(raw)
            if m["type"] == "error":
                sent_v = None  # a stale choice (a bot claimed first): choose again on the next frame
                continue
            if m["type"] != "state":
                continue
            counting = time.monotonic() >= measure
            if m["v"] > last_v:
                actions[0] += m["v"] - last_v if last_v and counting else 0
                last_v = m["v"]
            if sent_v is not None and m["v"] > sent_v:
                if counting:
                    latencies.append(time.perf_counter() - sent_at)
                sent_v = None
            if sent_v is not None:
                continue
            if m["session"]["over"]:
                break
            if m["can_next"]:
                await ws.send(json.dumps({"type": "next_deal"}))
                sent_v, sent_at = m["v"], time.perf_counter()
                continue
            turn = [a for a in m["legal"] if a["type"] != "claim"]
            if turn:
                await ws.send(json.dumps({"type": "act", "v": m["v"], "action": turn[0]}))
                sent_v, sent_at = m["v"], time.perf_counter()
        if talking is not None:
            talking.cancel()


async def talk(ws: Any, every: float, stop: float) -> None:
    """A chat line every ``every`` seconds until ``stop``, the first at a random moment."""
    await asyncio.sleep(random.uniform(0, every))
    n = 0
    while time.monotonic() < stop:
        n += 1
        await ws.send(json.dumps({"type": "chat", "text": f"good game, line {n}"}))
        await asyncio.sleep(every)


async def lobby_page(port: int, stop: float, probes: dict[str, float], latencies: list[float]) -> None:
    """A lobby page: the live list until ``stop``; the delay from each probe table's request
    (``probes``: its id, when it was sent) to its row's arrival here."""
    seen: set[str] = set()
    async with connect(f"ws://127.0.0.1:{port}/ws/lobby", max_size=None, compression=None) as ws:
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
            arrived = time.perf_counter()
            m = json.loads(raw)
            for row in m.get("put", m.get("tables", [])):
                sent = probes.get(row["id"])
                if sent is not None and row["id"] not in seen:
                    seen.add(row["id"])
                    latencies.append(arrived - sent)


async def prober(http: httpx.AsyncClient, measure: float, stop: float, probes: dict[str, float],
                 every: float = 1.0) -> None:
    """From ``measure`` on, open a public table every ``every`` seconds, noting when each
    request was sent (the lobby pages time its row)."""
    await asyncio.sleep(max(0.0, measure - time.monotonic()))
    while time.monotonic() < stop - 1.0:
        sent = time.perf_counter()
        try:
            r = await http.post("/api/tables", json={"players": 3, "public": True})
        except httpx.HTTPError:  # no answer within a minute: the next one
            await asyncio.sleep(every)
            continue
        if r.status_code == 201:
            probes[r.json()["table"]["id"]] = sent
        await asyncio.sleep(every)


def stored_actions(db: str, since: float, until: float) -> int:
    """The actions the database holds that were accepted between ``since`` and ``until``
    (seconds since the epoch): the denominator of the servers' CPU per action."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    try:
        with engine.connect() as conn:
            found = conn.execute(text("SELECT count(*) FROM lald_actions WHERE at >= :a AND at < :b"),
                                 {"a": since, "b": until}).scalar()
    finally:
        engine.dispose()
    return int(found or 0)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_load(port: int, tables: int, duration: float, warmup: float, level: str,
                   pid: int, community: bool = False, lobby_pages: int = 50) -> dict[str, float]:
    """One run: actions/s, p50 and p99 latency (ms), samples, server CPU and load average;
    with ``community``, the lobby live on ``lobby_pages`` pages and the chat on, and the
    lobby's update latency (ms)."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        tokens = []
        for _ in range(tables):
            r = await http.post("/api/tables", json={"seats": [{"human": s == 0, "level": level}
                                                                 for s in range(5)]})
            if r.status_code != 201:
                raise SystemExit(f"the server refused a table: {r.text}")
            tokens.append(r.json()["seats"][0]["token"])
    latencies: list[float] = []
    actions = [0]
    start = time.monotonic()
    measure, stop = start + warmup, start + duration
    joins = [start + i / tables for i in range(tables)]
    cpu: list[float] = []
    wall: list[float] = []
    loop = asyncio.get_running_loop()
    loop.call_at(measure, lambda: (cpu.append(cpu_seconds(pid)), wall.append(time.time())))
    probes: dict[str, float] = {}
    lobby: list[float] = []
    extra: list[Any] = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        if community:
            extra = [*(lobby_page(port, stop, probes, lobby) for _ in range(lobby_pages)),
                     prober(http, measure, stop, probes)]
        await asyncio.gather(*(player(port, tok, join, measure, stop, latencies, actions,
                                      60.0 if community else 0.0)
                               for tok, join in zip(tokens, joins, strict=True)), *extra)
    elapsed = time.monotonic() - measure
    cpu.append(cpu_seconds(pid))
    wall.append(time.time())
    if len(latencies) < 2:
        raise SystemExit("too few samples: run longer")
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    out = {"rate": actions[0] / elapsed, "p50": q[49] * 1000, "p99": q[98] * 1000,
           "samples": len(latencies), "cpu": (cpu[-1] - cpu[0]) / elapsed * 100,
           "cpu_s": cpu[-1] - cpu[0], "since": wall[0], "until": wall[-1], "load": os.getloadavg()[0]}
    if community:
        if len(lobby) < 2:
            raise SystemExit("too few lobby samples: run longer")
        lq = statistics.quantiles(lobby, n=100, method="inclusive")
        out |= {"lobby_p50": lq[49] * 1000, "lobby_p99": lq[98] * 1000, "lobby_samples": len(lobby)}
    return out


def measure(tables: int, args: argparse.Namespace, src: str | None = None,
            community: bool = False) -> dict[str, float]:
    """A fresh server and database, one run."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        proc = start_server(db, port, args.bot_delay, src)
        try:
            r: dict[str, float] = run(run_load(port, tables, args.duration, args.warmup, args.level, proc.pid,
                                               community, args.lobby_pages))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return with_cost(r, db)


def with_cost(r: dict[str, Any], db: str) -> dict[str, Any]:
    """``r`` with the actions stored during its measured window and the servers' CPU per
    stored action (ms): the server's own cost, whatever shares the machine."""
    stored = stored_actions(db, r.pop("since"), r.pop("until"))
    cpu_s = r.pop("cpu_s")
    return r | {"stored": stored, "ms": cpu_s / stored * 1000 if stored else float("nan")}


def run(coro: Any) -> Any:
    """Run the clients on uvloop if it is installed (it costs them less CPU)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per run")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bot-delay", type=float, default=0.5,
                        help="seconds a bot waits before acting (the server's pace; default 0.5)")
    parser.add_argument("--level", default="random", help="the bots' level (default random)")
    parser.add_argument("--db", help="a database URL (default: a fresh SQLite file per run; "
                                     "a given database is shared by the runs)")
    parser.add_argument("--before", metavar="DIR",
                        help="also run the server of this source tree before each loaded run")
    parser.add_argument("--proxy", action="store_true",
                        help="the site's figures: --tables through nginx to 1 worker, then 2 (needs a "
                             "PostgreSQL --db), then --kills")
    parser.add_argument("--kills", type=int, default=10, help="with --proxy: workers killed (default 10)")
    parser.add_argument("--logs", metavar="DIR", help="with --proxy: the workers' logs of the kills, there")
    parser.add_argument("--community", action="store_true",
                        help="also run each loaded run with the lobby live and the chat on (issue 24)")
    parser.add_argument("--lobby-pages", type=int, default=50,
                        help="lobby pages open in a --community run (default 50)")
    args = parser.parse_args()
    if args.proxy:
        proxy_main(args)
        return
    print(machine.line())
    print(f"lald serve load: tables of 1 person + 4 {args.level} bots, bot delay {args.bot_delay} s, "
          f"{args.duration:.0f} s per run ({args.warmup:.0f} s warm-up), median of {args.runs} runs; "
          f"{os.cpu_count()} cores; database {args.db or 'SQLite file'}")
    rows: dict[str, dict[str, float]] = {}
    loaded_modes: list[tuple[str | None, bool]] = [(args.before, False)] if args.before else []
    loaded_modes.append((None, False))
    if args.community:
        loaded_modes.append((None, True))
    plans = [("baseline (1 table)", 1, [(None, False)]), (f"loaded ({args.tables} tables)", args.tables,
                                                        loaded_modes)]
    for label, tables, modes in plans:
        results: dict[tuple[str | None, bool], list[dict[str, float]]] = {m: [] for m in modes}
        for i in range(args.runs):
            for mode in modes:  # before, after, and with the lobby and chat, back to back, run by run
                src, community = mode
                r = measure(tables, args, src, community)
                results[mode].append(r)
                tag = " (before)" if src else " (lobby live, chat on)" if community else ""
                lobby = (f"  lobby update p50 {r['lobby_p50']:6.1f} ms p99 {r['lobby_p99']:6.1f} ms "
                         f"({r['lobby_samples']:.0f})" if community else "")
                print(f"    run {i + 1}{tag}: {r['rate']:7.1f} actions/s  "
                      f"p50 {r['p50']:6.1f} ms  p99 {r['p99']:6.1f} ms  ({r['samples']:.0f} samples)  "
                      f"server CPU {r['cpu']:3.0f}%, {r['ms']:.3f} ms per stored action "
                      f"({r['stored']:.0f})  load average {r['load']:.2f}{lobby}", flush=True)
        for mode in modes:
            src, community = mode
            med = {k: statistics.median(r[k] for r in results[mode]) for k in results[mode][0]}
            name = f"{label} before" if src else f"{label} community" if community else label
            rows[name] = med
            lobby = (f"   lobby update p50 {med['lobby_p50']:6.1f} ms p99 {med['lobby_p99']:6.1f} ms"
                     if community else "")
            print(f"  {name:31} {med['rate']:8.1f} actions/s   human action p50 {med['p50']:6.1f} ms   "
                  f"p99 {med['p99']:6.1f} ms   server CPU {med['cpu']:3.0f}%, {med['ms']:.3f} ms per action"
                  f"   load average {med['load']:.2f}{lobby}", flush=True)
    loaded = f"loaded ({args.tables} tables)"
    print(f"  p99 loaded / baseline: {rows[loaded]['p99'] / rows['baseline (1 table)']['p99']:.2f}x")
    if args.community:
        with_it = rows[f"{loaded} community"]
        print(f"  lobby live and chat on / off: p50 {with_it['p50'] / rows[loaded]['p50']:.2f}x, "
              f"p99 {with_it['p99'] / rows[loaded]['p99']:.2f}x, server CPU "
              f"{with_it['cpu'] / rows[loaded]['cpu']:.2f}x; lobby update p99 {with_it['lobby_p99']:.1f} ms")
    if args.before:
        before = rows[f"{loaded} before"]
        print(f"  after / before: p50 {rows[loaded]['p50'] / before['p50']:.2f}x, "
              f"p99 {rows[loaded]['p99'] / before['p99']:.2f}x, "
              f"server CPU {rows[loaded]['cpu'] / before['cpu']:.2f}x, "
              f"CPU per action {rows[loaded]['ms'] / before['ms']:.2f}x")


# -- several servers behind nginx (issue 25) ---------------------------------------------------


class Site:
    """``lald worker`` processes over one PostgreSQL database and nginx in front of them,
    with the configuration lald writes."""

    def __init__(self, db: str, workers: int, bot_delay: float, logs: str | None = None,
                 src: str | None = None) -> None:
        import shutil

        from lald.cli.host.site import nginx_binary
        from lald.web.site.proxy import nginx_standalone

        self.db, self.bot_delay, self.logs = db, bot_delay, logs
        self.env = os.environ | ({"PYTHONPATH": str(Path(src) / "src")} if src else {})
        self.port = free_port()
        self.names = [f"w{i + 1}" for i in range(workers)]
        self.ports = {n: free_port() for n in self.names}
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.prefix = Path(tempfile.mkdtemp(prefix="lald-bench-nginx-"))
        self.prefix.chmod(0o755)
        for part in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.prefix / "tmp" / part).mkdir(parents=True)
            (self.prefix / "tmp" / part).chmod(0o777)
        conf = self.prefix / "nginx.conf"
        conf.write_text(nginx_standalone([(n, f"127.0.0.1:{p}") for n, p in self.ports.items()],
                                         f"127.0.0.1:{self.port}", str(self.prefix)))
        nginx = nginx_binary()
        if nginx is None:
            raise SystemExit("the proxy's figures need nginx (apt-get install nginx-core)")
        for n in self.names:
            self.start(n)
        self.nginx = subprocess.Popen([nginx, "-p", str(self.prefix), "-c", str(conf), "-e", "stderr"],
                                      stderr=subprocess.DEVNULL)  # it says each connection a kill refused
        self._rm = lambda: shutil.rmtree(self.prefix, ignore_errors=True)
        for _ in range(300):  # on a loaded machine nginx may listen only after a while
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)

    worker_args: tuple[str, ...] = ()
    """More of ``lald worker``'s options, for every worker (bench/chaos.py sets the leases' life)."""

    def start(self, name: str) -> None:
        d = str(self.bot_delay)
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-m", "lald", "worker", "--name", name, "--port", str(self.ports[name]),
             "--db", self.db, "--bot-delay", d, "--claim-window", d, "--tables-at-once", "1000000",
             *self.worker_args, "--log-level", "info" if self.logs else "warning"], stdout=subprocess.DEVNULL,
            env=self.env,
            stderr=open(Path(self.logs) / f"{name}.log", "ab") if self.logs else None)  # noqa: SIM115
        for _ in range(300):
            try:
                if httpx.get(f"http://127.0.0.1:{self.ports[name]}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise SystemExit(f"lald worker {name} did not start")

    def cpu(self) -> float:
        return sum(cpu_seconds(p.pid) for p in self.procs.values() if p.poll() is None)

    def waited(self) -> float:
        """Seconds the servers' threads have waited for a CPU, runnable (Linux's schedstat)."""
        total = 0.0
        for p in self.procs.values():
            if p.poll() is None:
                for task in Path(f"/proc/{p.pid}/task").iterdir():
                    try:
                        total += int((task / "schedstat").read_text().split()[1]) / 1e9
                    except (OSError, IndexError, ValueError):
                        pass
        return total

    def stop(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs.values():
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
        self.nginx.send_signal(signal.SIGQUIT)
        self.nginx.wait(10)
        self._rm()


def fresh(db: str) -> None:
    """Close every table left by an earlier run, so no server takes them up."""
    from sqlalchemy import create_engine, text

    from lald.store import Store

    Store(db, upgrade=True).close()
    engine = create_engine(db)
    with engine.begin() as conn:
        conn.execute(text("UPDATE lald_tables SET status = 'closed' WHERE status IN ('waiting', 'playing')"))
        conn.execute(text("DELETE FROM lald_leases"))
    engine.dispose()


async def site_player(port: int, token: str, table: str, join: float, measure: float, stop: float,
                      latencies: list[float], actions: list[int], gaps: list[tuple[float, float]],
                      faults: list[str]) -> None:
    """As :func:`player`, through the proxy to the table's address, reconnecting as the page
    does; ``gaps`` gets (when the connection dropped, when a frame came again)."""
    await asyncio.sleep(max(0.0, join - time.monotonic()))
    last_v, seen = 0, 0
    pending: tuple[int, dict[str, Any]] | None = None
    dropped: float | None = None
    while time.monotonic() < stop:
        try:
            async with connect(f"ws://127.0.0.1:{port}/ws/{table}", max_size=None, compression=None,
                               open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "join", "token": token}))
                resend = pending is not None
                sent_at = 0.0
                while time.monotonic() < stop:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                    except TimeoutError:
                        return
                    m: dict[str, Any] = json.loads(raw)
                    if m["type"] == "error":
                        if m.get("code") == "stale":
                            pending = None
                        continue
                    if m["type"] != "state":
                        continue
                    now = time.monotonic()
                    if dropped is not None:
                        gaps.append((dropped, now))
                        dropped = None
                    if m["reset"] and m["v"] < seen:
                        faults.append(f"table {table}: told version {seen}, then {m['v']}")
                    seen = max(seen, m["v"])
                    counting = now >= measure
                    if m["v"] > last_v:
                        actions[0] += m["v"] - last_v if last_v and counting else 0
                        last_v = m["v"]
                    if pending is not None and m["v"] > pending[0]:
                        if counting and sent_at:
                            latencies.append(time.perf_counter() - sent_at)
                        pending, sent_at = None, 0.0
                    if pending is not None:
                        if resend and m["v"] == pending[0]:
                            await ws.send(json.dumps({"type": "act", "v": pending[0], "action": pending[1]}))
                            resend = False
                        continue
                    if m["session"]["over"]:
                        return
                    if m["can_next"]:
                        await ws.send(json.dumps({"type": "next_deal"}))
                        continue
                    turn = [a for a in m["legal"] if a["type"] != "claim"]
                    if turn:
                        pending, sent_at = (m["v"], turn[0]), time.perf_counter()
                        await ws.send(json.dumps({"type": "act", "v": m["v"], "action": turn[0]}))
        except (OSError, TimeoutError, Exception) as e:  # a dropped connection: back, as the page is
            if type(e).__name__ not in ("ConnectionClosedError", "ConnectionClosedOK", "InvalidStatus",
                                        "ConnectionRefusedError", "TimeoutError", "InvalidMessage",
                                        "OSError", "EOFError"):
                faults.append(f"table {table}: {type(e).__name__}: {e}")
            if dropped is None:
                dropped = time.monotonic()
            await asyncio.sleep(0.2)


async def site_load(site: Site, tables: int, duration: float, warmup: float, level: str,
                    kills: int = 0) -> dict[str, Any]:
    """One run through the proxy; with ``kills``, one worker is killed (kill -9) that many
    times, at even intervals, and started again, as systemd would."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{site.port}", timeout=30) as http:
        made = []
        for _ in range(tables):
            r = await http.post("/api/tables", json={"seats": [{"human": s == 0, "level": level}
                                                                 for s in range(5)]})
            if r.status_code != 201:
                raise SystemExit(f"the site refused a table: {r.text}")
            made.append((r.json()["seats"][0]["token"], r.json()["table"]["id"]))
    latencies: list[float] = []
    actions = [0]
    gaps: list[tuple[float, float]] = []
    faults: list[str] = []
    start = time.monotonic()
    measure, stop = start + warmup, start + duration
    cpu: list[float] = []
    loop = asyncio.get_running_loop()
    waited: list[float] = []
    wall: list[float] = []
    loop.call_at(measure, lambda: (cpu.append(site.cpu()), waited.append(site.waited()),
                                   wall.append(time.time())))
    killed: list[float] = []

    async def killer() -> None:
        every = (duration - warmup - 2) / max(1, kills)
        for i in range(kills):
            await asyncio.sleep(max(0.0, measure + i * every - time.monotonic()))
            victim = site.names[i % len(site.names)]
            site.procs[victim].send_signal(signal.SIGKILL)
            killed.append(time.monotonic())
            site.procs[victim].wait()
            await asyncio.to_thread(site.start, victim)

    players = [site_player(site.port, tok, tid, start + i / tables, measure, stop, latencies, actions, gaps,
                           faults) for i, (tok, tid) in enumerate(made)]
    await asyncio.gather(*players, *([killer()] if kills else []))
    elapsed = time.monotonic() - measure
    cpu.append(site.cpu())
    waited.append(site.waited())
    wall.append(time.time())
    out: dict[str, Any] = {"rate": actions[0] / elapsed, "samples": len(latencies), "faults": faults,
                           "cpu_s": cpu[-1] - cpu[0], "since": wall[0], "until": wall[-1],
                           "cpu": (cpu[-1] - cpu[0]) / elapsed * 100 if not kills else float("nan"),
                           "waited": (waited[-1] - waited[0]) / elapsed * 100 if not kills else float("nan"),
                           "load": os.getloadavg()[0]}
    if len(latencies) >= 2:
        q = statistics.quantiles(latencies, n=100, method="inclusive")
        out |= {"p50": q[49] * 1000, "p99": q[98] * 1000}
    if kills:
        # Each dropped connection's time back, from the kill before it.
        back = [again - max(k for k in killed if k <= lost + 0.05) for lost, again in gaps
                if any(k <= lost + 0.05 for k in killed)]
        out["recovery"] = back
        out["tables"] = [t for _, t in made]
    return out


def check_stored(db: str, ids: list[str]) -> int:
    """Replay every table from the database (an illegal or doubled action fails); the count."""
    from lald.store import Store
    from lald.web.settings import Settings
    from lald.web.table.tables import Table

    store = Store(db)
    try:
        datas = store.load_tables(ids=ids)
    finally:
        store.close()

    async def replay() -> None:
        for data in datas:
            Table(data, None, Settings())  # type: ignore[arg-type]

    asyncio.run(replay())
    return len(datas)


def medians(rows: dict[tuple[str, int], list[dict[str, Any]]]) -> None:
    """The medians of the runs of 1 worker and of 2 (of each source tree), their ratio, and
    the ratio of after to before."""
    keys = ("rate", "p50", "p99", "cpu", "waited", "load", "ms")
    med = {m: {k: statistics.median(r.get(k, float("nan")) for r in rows[m]) for k in keys} for m in rows}
    for tag in dict.fromkeys(t for t, _ in rows):
        for w in (1, 2):
            m = med[tag, w]
            print(f"  {w} worker{'s' if w > 1 else ' '}{tag}: {m['rate']:8.1f} actions/s   person's action "
                  f"p50 {m['p50']:6.1f} ms   p99 {m['p99']:6.1f} ms   servers' CPU {m['cpu']:3.0f}%, "
                  f"{m['ms']:.3f} ms per stored action, waiting for a CPU {m['waited']:3.0f}%   "
                  f"load average {m['load']:.2f}", flush=True)
        one, two = med[tag, 1], med[tag, 2]
        print(f"  2 workers / 1 worker{tag}: actions/s {two['rate'] / one['rate']:.2f}x, p50 "
              f"{two['p50'] / one['p50']:.2f}x, p99 {two['p99'] / one['p99']:.2f}x, CPU per action "
              f"{two['ms'] / one['ms']:.2f}x")
    if ("", 1) in med and (" (before)", 1) in med:
        for w in (1, 2):
            print(f"  after / before, {w} worker{'s' if w > 1 else ''}: CPU per action "
                  f"{med['', w]['ms'] / med[' (before)', w]['ms']:.2f}x, p50 "
                  f"{med['', w]['p50'] / med[' (before)', w]['p50']:.2f}x, p99 "
                  f"{med['', w]['p99'] / med[' (before)', w]['p99']:.2f}x")


def proxy_main(args: argparse.Namespace) -> None:
    """1,000 tables through nginx: one worker, then two, run by run (with ``--before``, the
    older tree's too, back to back); then kills."""
    if not args.db or not args.db.startswith("postgresql"):
        raise SystemExit("--proxy needs --db postgresql+psycopg://... (a database the bench may fill)")
    print(machine.line())
    print(f"lald worker behind nginx: {args.tables} tables of 1 person + 4 {args.level} bots, bot delay "
          f"{args.bot_delay} s, {args.duration:.0f} s per run ({args.warmup:.0f} s warm-up), median of "
          f"{args.runs} runs; {os.cpu_count()} cores; clients, nginx, PostgreSQL and the servers on this "
          "machine")
    trees: list[tuple[str, str | None]] = [(" (before)", args.before)] if args.before else []
    trees.append(("", None))
    rows: dict[tuple[str, int], list[dict[str, Any]]] = {(t, w): [] for t, _ in trees for w in (1, 2)}
    for i in range(args.runs):
        for workers in (1, 2):
            for tag, src in trees:
                fresh(args.db)
                site = Site(args.db, workers, args.bot_delay, src=src)
                try:
                    r = run(site_load(site, args.tables, args.duration, args.warmup, args.level))
                finally:
                    site.stop()
                r = with_cost(r, args.db)
                rows[tag, workers].append(r)
                plural = "s" if workers > 1 else ""
                print(f"    run {i + 1}, {workers} worker{plural}{tag}: {r['rate']:7.1f} actions/s  "
                      f"p50 {r.get('p50', float('nan')):6.1f} ms  p99 {r.get('p99', float('nan')):6.1f} ms  "
                      f"({r['samples']} samples, {len(r['faults'])} faults)  servers' CPU {r['cpu']:3.0f}%, "
                      f"{r['ms']:.3f} ms per stored action ({r['stored']}), waiting for a CPU "
                      f"{r['waited']:3.0f}%  load average {r['load']:.2f}", flush=True)
    if args.runs:
        medians(rows)
    if args.kills:
        fresh(args.db)
        site = Site(args.db, 2, args.bot_delay, args.logs)
        try:
            r = run(site_load(site, args.tables, max(args.duration, args.kills * 6.0 + 10), args.warmup,
                              args.level, kills=args.kills))
        finally:
            site.stop()
        back = sorted(r["recovery"])
        stored = check_stored(args.db, r["tables"])
        q = statistics.quantiles(back, n=100, method="inclusive") if len(back) >= 2 else [float("nan")] * 99
        print(f"  {args.kills} kills (kill -9 of a worker under load, started again): {len(back)} pages "
              f"reconnected; playing again after p50 {q[49]:.2f} s, p99 {q[98]:.2f} s, max "
              f"{max(back, default=float('nan')):.2f} s; {stored} tables replayed from the database "
              f"without an illegal or doubled action; {len(r['faults'])} pages saw a told action lost; "
              f"load average {r['load']:.2f}")
        for fault in r["faults"][:5]:
            print(f"    {fault}")


if __name__ == "__main__":
    main()
