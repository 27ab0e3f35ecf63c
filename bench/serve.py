"""Load figure for ``lald serve`` (a figure, not a test).

Starts ``lald serve`` on 127.0.0.1 with a fresh SQLite file, opens TABLES tables of one
person and four server-side bots, and connects one websocket client per table that plays
the person's seat: on its turn it sends its first turn action at once and measures the
time until the frame showing that action arrives (the latency of a human's action: the
engine's check, the commit to the database, the bots' views, the frame). The clients
join over the first second (tables are opened at different moments, not in lock-step);
latencies and actions are counted after WARMUP seconds, while deals follow one another
until DURATION seconds. Prints, per run, actions/s (all seats), the p50/p99 latency, the
server's CPU use and the load average; then the medians of RUNS runs, for a baseline of
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
    loop = asyncio.get_running_loop()
    loop.call_at(measure, lambda: cpu.append(cpu_seconds(pid)))
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
    if len(latencies) < 2:
        raise SystemExit("too few samples: run longer")
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    out = {"rate": actions[0] / elapsed, "p50": q[49] * 1000, "p99": q[98] * 1000,
           "samples": len(latencies), "cpu": (cpu[-1] - cpu[0]) / elapsed * 100,
           "load": os.getloadavg()[0]}
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
        proc = start_server(args.db or f"sqlite:///{Path(tmp) / 'bench.db'}", port, args.bot_delay, src)
        try:
            return run(run_load(port, tables, args.duration, args.warmup, args.level, proc.pid,
                                community, args.lobby_pages))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


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
    parser.add_argument("--community", action="store_true",
                        help="also run each loaded run with the lobby live and the chat on (issue 24)")
    parser.add_argument("--lobby-pages", type=int, default=50,
                        help="lobby pages open in a --community run (default 50)")
    args = parser.parse_args()
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
                      f"server CPU {r['cpu']:3.0f}%  load average {r['load']:.2f}{lobby}", flush=True)
        for mode in modes:
            src, community = mode
            med = {k: statistics.median(r[k] for r in results[mode]) for k in results[mode][0]}
            name = f"{label} before" if src else f"{label} community" if community else label
            rows[name] = med
            lobby = (f"   lobby update p50 {med['lobby_p50']:6.1f} ms p99 {med['lobby_p99']:6.1f} ms"
                     if community else "")
            print(f"  {name:31} {med['rate']:8.1f} actions/s   human action p50 {med['p50']:6.1f} ms   "
                  f"p99 {med['p99']:6.1f} ms   server CPU {med['cpu']:3.0f}%   load average "
                  f"{med['load']:.2f}{lobby}", flush=True)
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
              f"server CPU {rows[loaded]['cpu'] / before['cpu']:.2f}x")


if __name__ == "__main__":
    main()
