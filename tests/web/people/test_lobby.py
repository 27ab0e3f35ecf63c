"""The public lobby: public tables and their open seats, Play now, the live list on every
lobby page, and the bots that fill a public table's empty seats after its wait."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from lald.clock import ManualClock
from lald.web.people.lobby import LocalChannel, reading_of

from ..conftest import create, hub_of, recv, state_at, timer_set


def public(client: TestClient, players: int = 3, **extra: Any) -> dict[str, Any]:
    """A public table: seat 0 the host's person, the others open to strangers."""
    r = client.post("/api/tables", json={"players": players, "public": True} | extra)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def play_now(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/play-now", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def lobby_message(ws: WebSocketTestSession, pred: Any = None) -> dict[str, Any]:
    while True:
        m = recv(ws)
        if pred is None or pred(m):
            return m


def test_a_public_tables_open_seats_are_for_strangers_and_the_host_holds_no_link_to_them(
        client: TestClient) -> None:
    data = public(client)
    assert data["table"]["public"] and data["table"]["free"] == 2
    assert [s["open"] for s in data["seats"]] == [False, True, True]
    assert "url" in data["seats"][0] and "url" not in data["seats"][1] and "url" not in data["seats"][2]
    r = client.post("/api/sit", json={"table": data["table"]["id"], "name": "Ben"})
    assert r.status_code == 201 and r.json()["seat"] == 1
    ben = r.json()["token"]
    # The host's view brings back no link of Ben's, nor can it replace his.
    seats = client.post("/api/host", json={"token": data["host"]["token"]}).json()["seats"]
    assert ben not in str(seats) and seats[1]["name"] == "Ben"
    r = client.post("/api/host/reissue", json={"token": data["host"]["token"], "seat": 1})
    assert r.status_code == 400 and "open to strangers" in r.json()["error"]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": ben})
        welcome = recv(ws)
        assert (welcome["type"], welcome["seat"]) == ("welcome", 1)


def test_a_private_tables_seats_are_taken_only_by_their_links(client: TestClient) -> None:
    data = create(client, 2)
    r = client.post("/api/sit", json={"table": data["table"]["id"]})
    assert r.status_code == 400 and r.json()["code"] == "private_table"
    r = client.post("/api/tables", json={"players": 3, "seats": [{"human": True}, {"open": True}, {}]})
    assert r.status_code == 400 and "only a public table" in r.json()["error"]
    r = client.post("/api/tables", json={"players": 3, "fill_seconds": 30})
    assert r.status_code == 400 and "public tables" in r.json()["error"]


@pytest.mark.parametrize("body, words", [
    ({"public": "yes"}, "'public' must be true"),
    ({"public": True, "fill_seconds": 3}, "'fill_seconds' must be 0"),
    ({"public": True, "fill_seconds": 30.0}, "'fill_seconds' must be 0"),
    ({"public": True, "lang": "fr"}, "'lang' must be one of"),
    ({"public": True, "title": "x" * 61}, "a title is text of at most 60"),
    ({"public": True, "title": "a\u202eb"}, "a title may not hold the invisible or control character U+202E"),
    ({"public": True, "seats": [{"human": True}, {"open": True, "name": "Cis"}, {}]}, "named when taken"),
])
def test_bad_lobby_fields_are_refused_in_one_line(client: TestClient, body: dict[str, Any],
                                                 words: str) -> None:
    r = client.post("/api/tables", json={"players": 3} | body)
    assert r.status_code == 400 and words in r.json()["error"] and "\n" not in r.json()["error"]
    assert hub_of(client).tables == {}


def test_play_now_opens_a_table_then_seats_the_next_people_there_until_it_is_full(client: TestClient) -> None:
    first = play_now(client, players=3, name="Ann")
    assert first["seat"] == 0 and "host" in first and first["table"]["public"]
    table_id = first["table"]["id"]
    second = play_now(client, players=3, name="Ben")
    third = play_now(client, players=3, name="Cis")
    assert [second["table"]["id"], third["table"]["id"]] == [table_id, table_id]
    assert [second["seat"], third["seat"]] == [1, 2] and "host" not in second
    fourth = play_now(client, players=3, name="Dai")
    assert fourth["table"]["id"] != table_id and fourth["seat"] == 0
    # Another reading is another table.
    other = play_now(client, players=3, variants=["modern-laugh"])
    assert other["table"]["id"] not in (table_id, fourth["table"]["id"])


def test_play_now_chooses_the_table_that_most_needs_a_player(client: TestClient) -> None:
    roomy = public(client, players=5)          # 4 seats free
    nearly = public(client, players=5)         # 4, then 1 after three strangers
    for _ in range(3):
        client.post("/api/sit", json={"table": nearly["table"]["id"]})
    older = public(client, players=5)
    assert play_now(client)["table"]["id"] == nearly["table"]["id"]
    # With none nearly full, the one that has waited longest.
    assert play_now(client)["table"]["id"] == roomy["table"]["id"]
    assert older["table"]["free"] == 4
    # A table whose rules differ in an option is another reading: never chosen by Play now.
    odd = client.post("/api/tables", json={"players": 4, "public": True, "options": {"prize": 9}}).json()
    assert play_now(client, players=4)["table"]["id"] != odd["table"]["id"]


def test_play_now_refuses_what_it_cannot_do_in_one_line(client: TestClient) -> None:
    for body, words in [({"players": 6}, "unknown player count"), ({"seats": []}, "unknown field"),
                        ({"name": "a" * 41}, "at most 40"),
                        ({"variants": "silent"}, "list of names"), ({"preset": None}, "is null")]:
        r = client.post("/api/play-now", json=body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.json())
    assert hub_of(client).tables == {}


def test_the_lobby_page_is_sent_the_list_then_each_change_as_it_is_committed(client: TestClient) -> None:
    private = create(client, 1)
    with client.websocket_connect("/ws/lobby") as lobby:
        first = lobby_message(lobby)
        assert first["type"] == "lobby" and [t["id"] for t in first["tables"]] == [private["table"]["id"]]
        assert first["tables"][0]["public"] is False
        data = public(client)
        table_id = data["table"]["id"]
        put = lobby_message(lobby, lambda m: any(t["id"] == table_id for t in m.get("put", ())))
        row = next(t for t in put["put"] if t["id"] == table_id)
        assert (row["free"], row["public"], row["lang"], row["rated"]) == (2, True, "en", False)
        assert "online" not in row["seats"][0]  # who is connected is not the lobby's news
        # The row is sent once its write is committed: the table is in the database by then.
        assert hub_of(client).store.load_tables(ids=[table_id])
        client.post("/api/sit", json={"table": table_id, "name": "<b>Ben</b>"})
        put = lobby_message(lobby, lambda m: any(t["id"] == table_id for t in m.get("put", ())))
        row = next(t for t in put["put"] if t["id"] == table_id)
        assert row["free"] == 1 and row["seats"][1]["name"] == "<b>Ben</b>"  # text: the page shows it as text
        client.post("/api/host/close", json={"token": data["host"]["token"]})
        dropped = lobby_message(lobby, lambda m: table_id in m.get("drop", ()))
        assert dropped["type"] == "lobby_update"
        client.post("/api/lessons", json={})
        lobby.send_json({"type": "ping"})
        assert lobby_message(lobby, lambda m: m["type"] != "lobby_update") == {"type": "pong"}  # no lesson


def test_a_lobby_page_that_floods_is_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as lobby:
        recv(lobby)
        with pytest.raises(WebSocketDisconnect):
            for _ in range(200):
                lobby.send_text("x")
            recv(lobby)


def test_a_public_tables_bots_take_the_empty_seats_after_its_wait_once_someone_joined(
        clocked: TestClient, clock: ManualClock) -> None:
    client = clocked
    data = public(client, players=3, fill_seconds=5)
    hub = hub_of(client)
    table = hub.tables[data["table"]["id"]]
    assert table.fill_at() is None  # nobody has joined: no table of bots alone
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"]})
        recv(ws)
        assert table.fill_at() == clock.now() + 5 and table.status == "waiting"
        timer_set(clock, 5)
        clock.advance(4.9)
        assert table.status == "waiting" and table.free_seats() == [1, 2]  # the wait is not over
        clock.advance(0.1)
        frame = state_at(ws, 1)
        assert [s["human"] for s in frame["table"]["seats"]] == [True, False, False]
        assert table.status == "playing" and table.free_seats() == []
    r = client.post("/api/sit", json={"table": data["table"]["id"]})
    assert r.status_code == 409 and r.json()["code"] == "no_free_seat"


def test_a_public_table_with_no_wait_waits_for_people(client: TestClient) -> None:
    data = public(client, players=3, fill_seconds=0)
    table = hub_of(client).tables[data["table"]["id"]]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"]})
        recv(ws)
        assert table.fill_at() is None and table.plan() == (0.0, None)


def test_the_channel_hands_each_subscriber_every_message_and_a_slow_one_starts_again() -> None:
    channel = LocalChannel()
    fast, slow = channel.subscribe("lobby"), channel.subscribe("lobby")
    for i in range(300):
        channel.publish("lobby", {"n": i})
        assert fast.poll() == {"n": i}
    assert slow.lost and slow.poll() is not None  # it lost the first 256 and must read the list again
    slow.close()
    channel.publish("lobby", {"n": -1})
    assert slow.poll() is None or slow.poll() != {"n": -1}


def test_a_reading_names_the_rules_people_pick() -> None:
    assert reading_of({"preset": "last-capture", "players": 4, "variants": ["modern-laugh", "silent"],
                       "options": {}}) == "last-capture/4/modern-laugh"


def test_a_public_table_nobody_waits_at_leaves_the_lobby_after_ten_minutes(client: TestClient) -> None:
    hub = hub_of(client)
    public(client)  # nobody ever opens it
    private = create(client, 1)
    kept = public(client)
    hub.tables[kept["table"]["id"]].active_at += 10_000  # someone was there a moment ago
    closed = client.portal.call(lambda: hub.reap(time.time() + 601))  # type: ignore[union-attr]
    assert closed == 1
    listed = {t["id"] for t in client.get("/api/tables").json()}
    assert listed == {private["table"]["id"], kept["table"]["id"]}
