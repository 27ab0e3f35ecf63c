"""Every accepted action is committed before anyone is told of it, even when the database
is slow or refuses a batch for a while: on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from lald.store import Store, Write
from lald.web.server.app import create_app

from ..conftest import FAST, create, recv


@pytest.fixture
def slow_db(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, list[int]]]:
    """The app on ``db_url`` whose every commit takes 20 ms and whose first two fail."""
    real = Store.write
    calls = [0]
    lock = threading.Lock()

    def write(self: Store, writes: Sequence[Write], mark: tuple[str, int] | None = None) -> None:
        time.sleep(0.02)
        with lock:
            calls[0] += 1
            if calls[0] in (2, 3):
                raise OperationalError("INSERT", {}, Exception("the database is away"))
        real(self, writes, mark)

    monkeypatch.setattr(Store, "write", write)
    with TestClient(create_app(db_url, FAST)) as client:
        yield client, calls


@pytest.fixture
def lost_confirmations(db_url: str,
                       monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, list[int]]]:
    """The app on ``db_url`` where the confirmation of every third commit is lost: the
    commit goes through, then the connection drops before the server hears of it."""
    real = Store.write
    calls = [0]
    lock = threading.Lock()

    def write(self: Store, writes: Sequence[Write], mark: tuple[str, int] | None = None) -> None:
        real(self, writes, mark)
        with lock:
            calls[0] += 1
            if calls[0] % 3 == 2:
                raise OperationalError("COMMIT", {}, Exception("the connection dropped"))

    monkeypatch.setattr(Store, "write", write)
    with TestClient(create_app(db_url, FAST)) as client:
        yield client, calls


def _stored_version(store: Store, table_id: str) -> int:
    (t,) = store.load_tables(ids=[table_id])
    return t.deals_started + sum(len(d) for d in t.actions)


def test_no_frame_tells_of_an_action_before_it_is_committed(slow_db: tuple[TestClient, list[int]]) -> None:
    client, calls = slow_db
    data = create(client, 2, seed=5)  # two people, three bots acting at once
    tid = data["table"]["id"]
    store: Store = client.app.state.hub.store  # type: ignore[attr-defined]
    assert _stored_version(store, tid) == 0  # the lobby answered after the table was stored
    seen: list[int] = []
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        a.send_json({"type": "join", "token": data["seats"][0]["token"]})
        b.send_json({"type": "join", "token": data["seats"][1]["token"]})
        pages = [a, b]
        deadline = time.monotonic() + 30
        while pages and len(seen) < 40:
            assert time.monotonic() < deadline, seen
            for seat, ws in enumerate(pages):
                m: dict[str, Any] = recv(ws)
                if m["type"] != "state":
                    continue
                # The frame is here: what it shows must already be in the database.
                assert _stored_version(store, tid) >= m["v"], (m["v"], seen)
                seen.append(m["v"])
                turn = [x for x in m["legal"] if x["type"] != "claim"]
                if m["view"] and m["view"]["over"]:
                    pages = []
                    break
                if turn and m["view"]["to_move"] == seat:
                    ws.send_json({"type": "act", "v": m["v"], "action": turn[0]})
    assert len(seen) >= 10 and max(seen) >= 8
    assert calls[0] >= 4  # the two refused batches were written again


def test_a_commit_whose_confirmation_is_lost_is_not_written_twice(
        lost_confirmations: tuple[TestClient, list[int]]) -> None:
    client, calls = lost_confirmations
    data = create(client, 1, seed=8)  # one person, four bots
    tid = data["table"]["id"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"]})
        deadline = time.monotonic() + 30
        while True:
            assert time.monotonic() < deadline
            m: dict[str, Any] = recv(ws)
            if m["type"] != "state":
                continue
            if m["view"] and m["view"]["over"]:
                break
            turn = [x for x in m["legal"] if x["type"] != "claim"]
            if turn and m["view"]["to_move"] == 0:
                ws.send_json({"type": "act", "v": m["v"], "action": turn[0]})
    assert calls[0] >= 6  # confirmations were lost, and the batches went out again
    (t,) = hub.store.load_tables(ids=[tid])  # every action once, none missing (a gap would raise)
    assert _stored_version(hub.store, tid) == m["v"]
    assert len(t.actions[0]) == m["v"] - t.deals_started
