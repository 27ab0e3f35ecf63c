"""Hosts and seats: the host's link, reissued links, closing, a seat taken over by a
second device, idle tables, and tokens kept only as digests (with the migration of a
database written before)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    text,
)
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from lald.store import SCHEMA, Store, StoreError, token_hash
from lald.web.server.app import create_app
from lald.web.settings import Settings

from ..conftest import FAST, create, hub_of, recv, state_at

JSON = {"Content-Type": "application/json"}


def host(client: TestClient, path: str, **body: Any) -> Any:
    return client.post(f"/api/host{path}", json=body)


def test_the_host_link_brings_back_every_link_and_shows_who_is_there(client: TestClient) -> None:
    data = create(client, [True, True, False, False, False])
    token = data["host"]["token"]
    assert data["host"]["url"].endswith("/#host=" + token) and len(token) >= 43  # 256 bits
    r = host(client, "", token=token)
    assert r.status_code == 200
    again = r.json()
    assert [s.get("url") for s in again["seats"]] == [s.get("url") for s in data["seats"]]
    assert [s["joined"] for s in again["seats"]] == [False] * 5
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][1]["token"]})
        recv(ws)
        recv(ws)
        seats = host(client, "", token=token).json()["seats"]
        assert (seats[1]["joined"], seats[1]["online"], seats[0]["joined"]) == (True, True, False)
    assert host(client, "", token=token).json()["seats"][1]["online"] is False
    for bad in ("x" * 43, data["seats"][0]["token"], token[:-1] + ("A" if token[-1] != "A" else "B")):
        r = host(client, "", token=bad)
        assert r.status_code == 403
        assert r.json() == {"error": "this host link is not valid", "code": "host_link"}


def test_a_reissued_link_stops_the_old_one_at_once(client: TestClient) -> None:
    data = create(client, 2)
    old = data["seats"][0]["token"]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": old})
        assert recv(ws)["type"] == "welcome"
        r = host(client, "/reissue", token=data["host"]["token"], seat=0)
        assert r.status_code == 200
        new = r.json()["seats"][0]["token"]
        assert new != old
        while (m := recv(ws))["type"] != "error":
            pass
        assert m["code"] == "reissued" and "new link" in m["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            recv(ws)
        assert closed.value.code == 4002
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": old})
        assert recv(ws)["code"] == "bad_token"
        ws.send_json({"type": "join", "token": new})
        assert recv(ws)["seat"] == 0
    assert host(client, "", token=data["host"]["token"]).json()["seats"][0]["token"] == new
    for seat, status in ((2, 400), (7, 400), ("0", 400), (True, 400)):
        r = host(client, "/reissue", token=data["host"]["token"], seat=seat)
        assert r.status_code == status and r.json()["error"], seat


def test_a_second_device_takes_the_seat_over_and_the_first_is_told(client: TestClient) -> None:
    data = create(client, 2)
    token = data["seats"][1]["token"]
    with client.websocket_connect("/ws") as first:
        first.send_json({"type": "join", "token": token, "lang": "de"})
        assert recv(first)["seat"] == 1
        with client.websocket_connect("/ws") as second:
            second.send_json({"type": "join", "token": token})
            while (m := recv(first))["type"] != "error":
                pass
            assert m["code"] == "taken_over"
            assert m["message"] == "Dieser Platz wurde auf einem anderen Gerät geöffnet."
            with pytest.raises(WebSocketDisconnect) as closed:
                recv(first)
            assert closed.value.code == 4001
            assert recv(second)["seat"] == 1
            assert hub_of(client).tables[data["table"]["id"]].online(1)


def test_closing_ends_play_keeps_the_records_and_leaves_the_lobby(client: TestClient) -> None:
    data = create(client, 1)
    table_id = data["table"]["id"]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"]})
        recv(ws)
        frame = state_at(ws, 1)
        while not frame["view"]["over"]:  # the person plays deal 1 out
            if frame["view"]["to_move"] == 0:
                turn = next(a for a in frame["legal"] if a["type"] != "claim")
                ws.send_json({"type": "act", "v": frame["v"], "action": turn})
            frame = state_at(ws, frame["v"] + 1)
        r = host(client, "/close", token=data["host"]["token"])
        assert r.status_code == 200 and r.json()["table"]["status"] == "closed"
        frame = recv(ws)
        assert frame["table"]["status"] == "closed" and not frame["can_next"] and frame["legal"] == []
        ws.send_json({"type": "next_deal"})
        assert recv(ws)["code"] == "illegal"
    assert table_id not in [t["id"] for t in client.get("/api/tables").json()]
    assert client.get(f"/api/tables/{table_id}/deals/0/record").status_code == 200
    assert host(client, "/reissue", token=data["host"]["token"], seat=0).status_code == 409
    assert host(client, "/close", token=data["host"]["token"]).status_code == 200


def test_idle_tables_are_closed_and_their_records_stay(tmp_path: Path) -> None:
    settings = Settings(bot_delay=0.0, claim_window=0.0, deal_pause=0.0, threaded_bots=False,
                        idle_seconds=0.3, reap_every=0.05)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'idle.db'}", settings)) as client:
        idle = create(client, 1)
        kept = create(client, 1)
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "token": kept["seats"][0]["token"]})
            recv(ws)
            deadline = time.monotonic() + 10
            while idle["table"]["id"] in [t["id"] for t in client.get("/api/tables").json()]:
                assert time.monotonic() < deadline, "the idle table was not closed"
                time.sleep(0.05)
            assert [t["id"] for t in client.get("/api/tables").json()] == [kept["table"]["id"]]
        summary = client.get(f"/api/tables/{idle['table']['id']}").json()
        assert summary["status"] == "closed"
    # After a restart the closed table stays closed, and is not played on.
    with TestClient(create_app(f"sqlite:///{tmp_path / 'idle.db'}", FAST)) as client:
        assert idle["table"]["id"] not in [t["id"] for t in client.get("/api/tables").json()]
        assert client.get(f"/api/tables/{idle['table']['id']}").json()["status"] == "closed"


def test_tokens_are_stored_only_as_digests(tmp_path: Path) -> None:
    db = tmp_path / "digests.db"
    with TestClient(create_app(f"sqlite:///{db}", FAST)) as client:
        data = create(client, 3)
        host(client, "/reissue", token=data["host"]["token"], seat=2)
        tokens = [data["host"]["token"], *[s["token"] for s in data["seats"] if "token" in s]]
        tokens.append(host(client, "", token=tokens[0]).json()["seats"][2]["token"])
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert len(tokens) == 5 and not any(t.encode() in raw for t in tokens)
    assert token_hash(tokens[1]).encode() in raw


def _version_1(metadata: MetaData) -> None:
    """The schema as version 1 of the store declared it (before the schema had a version)."""
    Table("lald_tables", metadata, Column("id", String(32), primary_key=True), Column("created", Float),
          Column("config", Text), Column("seed", BigInteger), Column("deals_started", Integer),
          Column("status", String(16), index=True))
    Table("lald_seats", metadata, Column("table_id", ForeignKey("lald_tables.id"), primary_key=True),
          Column("seat", Integer, primary_key=True), Column("token", String(64), unique=True),
          Column("human", Boolean), Column("level", String(32)), Column("name", String(64), nullable=True),
          Column("joined", Boolean))
    Table("lald_actions", metadata, Column("id", Integer, primary_key=True, autoincrement=True),
          Column("table_id", ForeignKey("lald_tables.id"), index=True), Column("deal", Integer),
          Column("seq", Integer), Column("action", Text), Column("source", String(16)), Column("at", Float),
          UniqueConstraint("table_id", "deal", "seq"))
    Table("lald_writers", metadata, Column("id", String(32), primary_key=True), Column("batch", BigInteger))


def test_a_database_of_version_1_is_migrated_and_its_links_keep_working(db_url: str) -> None:
    """Version 1 (before this schema had a version) stored tokens in the clear."""
    engine = create_engine(db_url)
    config = {"rules": {"preset": "survivor", "players": 5, "variants": [], "options": {}},
              "turn_seconds": 0}
    metadata = MetaData()
    _version_1(metadata)
    metadata.create_all(engine)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO lald_tables VALUES ('old1', 1.0, :c, 12345, 0, 'waiting')"),
                     {"c": json.dumps(config)})
        for s in range(5):
            conn.execute(text("INSERT INTO lald_seats VALUES ('old1', :s, :t, :h, 'random', NULL, false)"),
                         {"s": s, "t": f"plain-token-number-{s}-of-the-old-table", "h": s == 0})
    engine.dispose()
    if not db_url.startswith("sqlite"):
        # A shared database is upgraded only when asked (lald db upgrade, lald serve
        # --upgrade); a SQLite file is upgraded on opening, after a backup.
        with pytest.raises(StoreError, match="older than this lald") as refused:
            Store(db_url)
        assert "\n" not in str(refused.value)
        Store(db_url, upgrade=True).close()
    with TestClient(create_app(db_url, FAST)) as client:
        [listed] = client.get("/api/tables").json()
        assert listed["id"] == "old1" and listed["practice"] is True
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "token": "plain-token-number-0-of-the-old-table"})
            assert recv(ws)["seat"] == 0
            frame = state_at(ws, 1)
            assert frame["table"]["practice"] and len(frame["view"]["hand"]) == 8
    engine = create_engine(db_url)
    with engine.connect() as conn:
        stored = {row[0] for row in conn.execute(text("SELECT token FROM lald_seats"))}
        version = conn.execute(text("SELECT value FROM lald_meta WHERE key = 'schema'")).scalar()
    engine.dispose()
    assert stored == {token_hash(f"plain-token-number-{s}-of-the-old-table") for s in range(5)}
    assert version == str(SCHEMA)
    Store(db_url).close()  # opening it again changes nothing


def test_a_database_of_a_newer_schema_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'new.db'}"
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE lald_meta SET value = :v WHERE key = 'schema'"), {"v": str(SCHEMA + 1)})
    engine.dispose()
    with pytest.raises(Exception, match=f"schema version {SCHEMA + 1}"):
        Store(url)


def test_the_reaper_forgets_finished_tables_nobody_watches(client: TestClient) -> None:
    data = create(client, [False] * 5)  # bots only: it plays itself out
    hub = hub_of(client)
    table_id = data["table"]["id"]
    deadline = time.monotonic() + 20
    while hub.tables[table_id].status != "over":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    client.portal.call(hub.reap)  # type: ignore[union-attr]
    assert table_id not in hub.tables
    assert client.get(f"/api/tables/{table_id}/deals/0/record").status_code == 200
    assert asyncio.iscoroutinefunction(hub.reap)
