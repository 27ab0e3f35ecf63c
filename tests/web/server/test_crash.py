"""A real ``lald serve`` on 127.0.0.1 is killed with SIGKILL mid-deal and restarted on
the same database (a SQLite file, then a real PostgreSQL server): every table continues
exactly where its players last saw it."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from lald.record import load

from ..conftest import Server, create


class Page:
    """One page's socket, keeping what it was told."""

    def __init__(self, stack: contextlib.ExitStack, server: Server, hello: dict[str, Any]) -> None:
        self.stack, self.server, self.hello = stack, server, hello
        self.log: list[str] = []
        self.frame: dict[str, Any] = {}
        self.ws: ClientConnection = self.connect()

    def connect(self) -> ClientConnection:
        ws = self.stack.enter_context(connect(f"ws://127.0.0.1:{self.server.port}/ws"))
        ws.send(json.dumps(self.hello))
        assert json.loads(ws.recv(10))["type"] == "welcome"
        self.ws = ws
        return ws

    def read(self, pred: Any = lambda f: True, timeout: float = 10) -> dict[str, Any]:
        """Frames until one satisfies ``pred``."""
        deadline = time.monotonic() + timeout
        while True:
            m = json.loads(self.ws.recv(max(0.01, deadline - time.monotonic())))
            assert m["type"] != "error", m
            if m["type"] != "state":
                continue
            if m["reset"]:
                self.log = []
            self.log += [e["text"] for e in m["log"]]
            self.frame = m
            if pred(m):
                return m

    def act(self, action: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"type": "act", "v": self.frame["v"], "action": action}))


def _turn(pages: list[Page]) -> bool:
    """The seat to move plays its first turn action; False once the deal is over."""
    view = pages[0].frame["view"]
    if view["over"]:
        return False
    mover = view["to_move"]
    page = pages[mover]
    v = page.frame["v"]
    page.act(next(a for a in page.frame["legal"] if a["type"] != "claim"))
    for p in pages:
        p.read(lambda f: f["v"] > v)
    return True


def test_sigkill_mid_deal_then_restart_loses_nothing(tmp_path: Path, db_url: str) -> None:
    server = Server(db_url,
                    "--bot-delay", "0.02", "--claim-window", "0.02", "--deal-pause", "0.05",
                    log=tmp_path / "server.log")
    server.start()
    with contextlib.ExitStack() as stack:
        stack.callback(server.stop)
        with httpx.Client(base_url=server.base) as http:
            people = create(http, 5, seed=31)
            mixed = create(http, 1, seed=32)
            bots = create(http, [False] * 5, seed=33)
        tables = [people, mixed, bots]
        seats = [Page(stack, server, {"type": "join", "token": s["token"]}) for s in people["seats"]]
        for p in seats:
            p.read(lambda f: f["v"] >= 1)
        me = Page(stack, server, {"type": "join", "token": mixed["seats"][0]["token"]})
        watchers = [Page(stack, server, {"type": "watch", "table": t["table"]["id"]}) for t in tables]
        for _ in range(9):
            assert _turn(seats)
        for _ in range(4):  # the person at the mixed table plays a few turns among the bots
            f = me.read(lambda f: f["view"] is not None and (f["view"]["over"] or any(
                a["type"] != "claim" for a in f["legal"])))
            if f["view"]["over"]:
                break
            me.act(next(a for a in f["legal"] if a["type"] != "claim"))
        # A language change makes the server resend everything: the picture to compare with.
        for p in [*seats, me, *watchers]:
            p.ws.send(json.dumps({"type": "lang", "lang": "en"}))
            p.read(lambda f: f["reset"])
        before = {id(p): (list(p.log), p.frame) for p in [*seats, me, *watchers]}
        assert not seats[0].frame["view"]["over"]

        server.kill()
        for p in [*seats, me, *watchers]:
            try:
                while True:
                    p.ws.recv(5)
            except (ConnectionClosed, TimeoutError):
                pass
        server.start()

        for p in [*seats, me, *watchers]:
            p.connect()
            f = p.read()
            log, old = before[id(p)]
            assert f["reset"] and p.log[:len(log)] == log
            assert f["v"] >= old["v"]
        for p in seats:  # nobody moves at the table of people: it is exactly as it was
            log, old = before[id(p)]
            assert p.frame["v"] == old["v"] and p.frame["view"] == old["view"]
            assert p.frame["legal"] == old["legal"] and p.log == log
        watchers[2].read(lambda f: len(watchers[2].log) > len(before[id(watchers[2])][0]), 20)

        while _turn(seats):
            pass
        with httpx.Client(base_url=server.base) as http:
            record = http.get(f"/api/tables/{people['table']['id']}/deals/0/record").text
        _, state = load(record)
        assert state.over and len(state.actions) == seats[0].frame["v"] - 1
        assert seats[0].frame["view"]["won_sizes"] == list(state.result.won)  # type: ignore[union-attr]
    assert "Traceback" not in (tmp_path / "server.log").read_text()

