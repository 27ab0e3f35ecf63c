"""Heartbeats: the welcome tells a page how often to ping and how long to wait for the
pong, and a page that has sent nothing (no message, no ping) for ``silent_seconds`` is
dropped, so the host sees it offline and its seat counts as away (a silent network loss
is not "connected")."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from lald.clock import ManualClock
from lald.web.server.app import create_app
from lald.web.server.protocol import SILENT

from ..conftest import FAST, create, hub_of, recv

QUICK = dataclasses.replace(FAST, ping_seconds=0.1, pong_seconds=0.2, silent_seconds=0.6)


def online(client: TestClient, host: str) -> list[bool]:
    seats = client.post("/api/host", json={"token": host}).json()["seats"]
    return [s["online"] for s in seats]


def test_the_welcome_tells_the_page_its_ping_interval_and_wait(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hb.db'}", QUICK)) as client:
        data = create(client, 1)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "token": data["seats"][0]["token"]})
            welcome = recv(ws)
            assert welcome["type"] == "welcome" and welcome["ping"] == {"every": 0.1, "wait": 0.2}


def test_a_silent_page_is_dropped_after_the_timeout_and_the_host_sees_it_offline(tmp_path: Path) -> None:
    clock = ManualClock()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hb.db'}", QUICK, clock=clock)) as client:
        data = create(client, 2)
        host = data["host"]["token"]
        table = hub_of(client).tables[data["table"]["id"]]
        with client.websocket_connect("/ws") as pinging, client.websocket_connect("/ws") as silent:
            pinging.send_json({"type": "join", "token": data["seats"][0]["token"]})
            silent.send_json({"type": "join", "token": data["seats"][1]["token"]})
            assert recv(pinging)["type"] == "welcome" and recv(silent)["type"] == "welcome"
            assert online(client, host)[:2] == [True, True]
            pongs = 0
            # Seat 0's page pings as a page does, every 0.1 s of the clock; seat 1's says
            # nothing at all.
            for step in range(15):
                pinging.send_json({"type": "ping", "id": step})
                while (m := recv(pinging))["type"] != "pong":
                    assert m["type"] != "error", m
                pongs += 1
                if step < 5:
                    assert online(client, host)[1] is True  # not before the timeout (0.6 s)
                clock.advance(0.1)
            assert pongs == 15
            assert online(client, host)[:2] == [True, False]
            assert table.online(0) and not table.online(1)
            assert table.away(1, clock.monotonic()) is not None  # its stand-in's clock runs
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    recv(silent, 2.0)
            assert closed.value.code == SILENT
