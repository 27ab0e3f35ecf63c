"""Issue 30, a stranger's first minutes, on the server's side: the frame says the server's
clock (the page counts down to the bots' fill from it), an account lists its open seats
(no token, no hand), the leaderboard opens on the reading people play, and a chat line or
a title refused for a character names the character."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from lald.web.server.app import create_app

from ..conftest import FAST, hub_of, recv, until

QUICK = dataclasses.replace(FAST, password_memory=1024)
PASSWORD = "correct horse battery"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'seats.db'}", QUICK)) as c:
        yield c


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/session").json()["csrf"]}


def register(client: TestClient, name: str) -> dict[str, Any]:
    r = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_the_frame_carries_the_servers_clock_for_the_fill_countdown(site: TestClient) -> None:
    seated = site.post("/api/play-now", json={"preset": "survivor", "players": 3, "name": "Ada"}).json()
    table = hub_of(site).tables[seated["table"]["id"]]
    table.frames.clock = lambda: 1_000.0  # the clock the frames read is injected
    with site.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": seated["token"], "lang": "en"})
        frame = until(ws, lambda m: m["type"] == "state" and m["table"]["fill_at"] is not None)
    assert frame["now"] == 1_000.0
    assert frame["table"]["fill_at"] > 0 and frame["table"]["status"] == "waiting"


def test_an_account_lists_its_open_seats_and_nothing_of_anyone_elses(site: TestClient) -> None:
    assert site.get("/api/account/seats").status_code == 401
    register(site, "Ann Lee")
    seated = site.post("/api/play-now", json={"preset": "survivor", "players": 3},
                       headers=csrf(site)).json()
    token = seated["token"]
    answer = site.get("/api/account/seats")
    assert answer.status_code == 200, answer.text
    seats = answer.json()["seats"]
    assert [(s["table"], s["seat"]) for s in seats] == [(seated["table"]["id"], seated["seat"])]
    assert seats[0]["status"] == "waiting" and seats[0]["rules"]["players"] == 3
    assert seats[0]["watch"] == f"/play#w={seated['table']['id']}"
    text = answer.text
    assert token not in text and "token" not in text and "hand" not in text
    # Another account sees only its own (none); a guest's seat at the same table is not listed.
    site.post("/api/account/logout", json={}, headers=csrf(site))
    guest = site.post("/api/sit", json={"table": seated["table"]["id"], "name": "Ben"}).json()
    register(site, "Cid Moss")
    mine = site.get("/api/account/seats").json()
    assert mine == {"seats": []}
    assert guest["token"] not in json.dumps(mine)


def test_a_closed_tables_seat_is_no_longer_listed(site: TestClient) -> None:
    register(site, "Dee Ray")
    seated = site.post("/api/play-now", json={"preset": "survivor", "players": 4},
                       headers=csrf(site)).json()
    assert len(site.get("/api/account/seats").json()["seats"]) == 1
    hub = hub_of(site)
    table = hub.tables[seated["table"]["id"]]
    table.close()
    site.portal.call(table.until_saved)  # type: ignore[union-attr]
    assert site.get("/api/account/seats").json()["seats"] == []


def test_the_leaderboard_opens_on_the_busiest_reading(site: TestClient) -> None:
    from sqlalchemy import text

    ids = []
    for n in "ABC":
        site.cookies.clear()
        ids.append(register(site, f"Rater {n}")["account"]["id"])
    with hub_of(site).store.engine.begin() as conn:
        for i, account in enumerate(ids):
            conn.execute(text("INSERT INTO lald_ratings VALUES (:a, 'last-capture/4', 25.0, 8.0, 1, :at)"),
                         {"a": account, "at": float(i)})
        conn.execute(text("INSERT INTO lald_ratings VALUES (:a, 'survivor/3', 25.0, 8.0, 1, 9.0)"),
                     {"a": ids[0]})
    board = site.get("/api/leaderboard").json()
    assert board["reading"] == "last-capture/4"
    assert len(board["players"]) == 3
    # Asked for by name, a reading is still that reading (even an empty one).
    assert site.get("/api/leaderboard?reading=survivor/5").json()["reading"] == "survivor/5"


@pytest.mark.parametrize("bad", ["\u202e", "\x00", "\u2066"])
def test_a_chat_line_refused_for_a_character_names_it(site: TestClient, bad: str) -> None:
    made = site.post("/api/tables", json={"seats": [{"human": True, "level": "random"},
                                                    {"human": False, "level": "random"},
                                                    {"human": False, "level": "random"}],
                                          "players": 3}).json()
    with site.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": made["seats"][0]["token"], "lang": "en"})
        recv(ws)
        ws.send_json({"type": "chat", "text": f"hello {bad} there"})
        while True:
            msg = recv(ws)
            if msg["type"] == "error":
                break
    code = f"U+{ord(bad):04X}"
    assert code in msg["message"], msg
    assert "long" not in msg["message"], msg


@pytest.mark.parametrize("bad", ["\u202e", "\x00"])
def test_a_title_refused_for_a_character_names_it(site: TestClient, bad: str) -> None:
    r = site.post("/api/tables", json={"players": 3, "public": True, "title": f"Friday{bad}night"})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["code"] == "title_character" and body["char"] == f"U+{ord(bad):04X}"
    assert f"U+{ord(bad):04X}" in body["error"] and "at most" not in body["error"]
    # A title too long is still told it is too long.
    long = site.post("/api/tables", json={"players": 3, "public": True, "title": "x" * 500}).json()
    assert long["code"] == "title"
