"""Load figure for ``lald serve`` (a figure, not a test).

Starts ``lald serve`` on 127.0.0.1 with a fresh SQLite file, opens TABLES tables of one
person and four server-side bots, and connects one websocket client per table that plays
the person's seat: on its turn it sends its first turn action at once and measures the
time until the frame showing that action arrives (the latency of a human's action: the
engine's check, the commit to SQLite, the bots' views, the frame). Deals follow one
another for DURATION seconds. Prints actions/s (all seats) and the p50/p99 latency, for a
baseline of one table and for the loaded server, each the median of RUNS runs, and the
ratio of the loaded p99 to the baseline p99.

    .venv/bin/python bench/serve.py --tables 200 --duration 20 --runs 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: Path, port: int, bot_delay: float) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "lald", "serve", "--port", str(port), "--db", f"sqlite:///{db}",
         "--bot-delay", str(bot_delay), "--claim-window", str(bot_delay), "--log-level", "warning"],
        stdout=subprocess.DEVNULL)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/levels", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("lald serve did not start")


async def player(port: int, token: str, stop: float, latencies: list[float],
                 actions: list[int]) -> None:
    """Play seat 0 of one table until ``stop``; record each own action's latency."""
    async with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "join", "token": token}))
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
            if m["v"] > last_v:
                actions[0] += m["v"] - last_v if last_v else 0
                last_v = m["v"]
            if sent_v is not None and m["v"] > sent_v:
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


async def run_load(port: int, tables: int, duration: float) -> tuple[float, float, float, int]:
    """One run: returns actions/s, p50 and p99 latency (ms), and the number of samples."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        tokens = []
        for _ in range(tables):
            r = await http.post("/api/tables", json={"seats": [{"human": s == 0} for s in range(5)]})
            tokens.append(r.json()["seats"][0]["token"])
    latencies: list[float] = []
    actions = [0]
    start = time.monotonic()
    stop = start + duration
    await asyncio.gather(*(player(port, tok, stop, latencies, actions) for tok in tokens))
    elapsed = time.monotonic() - start
    if len(latencies) < 2:
        raise SystemExit("too few samples: run longer")
    q = statistics.quantiles(latencies, n=100, method="inclusive")
    return actions[0] / elapsed, q[49] * 1000, q[98] * 1000, len(latencies)


def measure(tables: int, duration: float, bot_delay: float) -> tuple[float, float, float, int]:
    """A fresh server and database, one run."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(Path(tmp) / "bench.db", port, bot_delay)
        try:
            return asyncio.run(run_load(port, tables, duration))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bot-delay", type=float, default=0.5,
                        help="seconds a bot waits before acting (the server's pace; default 0.5)")
    args = parser.parse_args()
    print(f"lald serve load: {args.tables} tables of 1 person + 4 bots, bot delay {args.bot_delay} s, "
          f"{args.duration:.0f} s per run, median of {args.runs} runs; {os.cpu_count()} cores")
    rows = {}
    for label, tables in (("baseline (1 table)", 1), (f"loaded ({args.tables} tables)", args.tables)):
        results = [measure(tables, args.duration, args.bot_delay) for _ in range(args.runs)]
        rate, p50, p99, n = (statistics.median(r[i] for r in results) for i in range(4))
        rows[tables] = p99
        print(f"  {label:24} {rate:8.1f} actions/s   human action p50 {p50:6.1f} ms   "
              f"p99 {p99:6.1f} ms   ({n:.0f} samples per run)")
    print(f"  p99 loaded / baseline: {rows[args.tables] / rows[1]:.2f}x")


if __name__ == "__main__":
    main()
