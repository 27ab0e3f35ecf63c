"""Ratings: rated tables (public, accounts only, no seed, hints or other options), the
OpenSkill update after a session checked against the package itself for worked sessions,
bots' fixed ratings, the leaderboard and the profile; and a rating farmed at a private
table (it cannot be)."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import text
from starlette.testclient import TestClient, WebSocketTestSession

from lald.web.people.ratings import BOT_RATINGS, BOT_SIGMA, session_ranks
from lald.web.server.app import create_app

from ..conftest import FAST, hub_of, poll

QUICK = dataclasses.replace(FAST, password_memory=1024)
PASSWORD = "correct horse battery"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'ratings.db'}", QUICK)) as c:
        yield c


def account(site: TestClient, name: str) -> dict[str, str]:
    """A new account, logged in on ``site``; returns its cookie and CSRF header."""
    site.cookies.clear()
    r = site.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return {"cookie": r.cookies["lald_session"], "X-CSRF-Token": r.json()["csrf"]}


def as_(site: TestClient, who: dict[str, str]) -> dict[str, str]:
    site.cookies.clear()
    site.cookies.set("lald_session", who["cookie"])
    return {"X-CSRF-Token": who["X-CSRF-Token"]}


def rows(site: TestClient, query: str) -> list[tuple[Any, ...]]:
    with hub_of(site).store.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text(query))]


def rated_table(site: TestClient, host: dict[str, str], guest: dict[str, str], level: str = "random",
                **extra: Any) -> tuple[str, list[str]]:
    """A rated table of three: the host in seat 0, the guest's account in seat 1 (taken from
    the lobby), a bot of ``level`` in seat 2. Returns its id and the two seats' tokens."""
    r = site.post("/api/tables", headers=as_(site, host), json={
        "players": 3, "public": True, "rated": True,
        "seats": [{"human": True}, {"open": True}, {"human": False, "level": level}]} | extra)
    assert r.status_code == 201, r.text
    made = r.json()
    r = site.post("/api/sit", headers=as_(site, guest), json={"table": made["table"]["id"]})
    assert r.status_code == 201, r.text
    return made["table"]["id"], [made["seats"][0]["token"], r.json()["token"]]


def play_session(site: TestClient, tokens: list[str], timeout: float = 60.0) -> None:
    """Play each seat's first legal turn action until the session is over."""
    with contextlib.ExitStack() as stack:
        sockets: list[WebSocketTestSession] = []
        for token in tokens:
            ws = stack.enter_context(site.websocket_connect("/ws"))
            ws.send_json({"type": "join", "token": token})
            sockets.append(ws)
        frames: list[dict[str, Any] | None] = [None] * len(sockets)
        acted: list[int] = [-1] * len(sockets)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, ws in enumerate(sockets):
                while (m := poll(ws)) is not None:
                    if m["type"] == "state":
                        frames[i] = m
            if all(f is not None and f["session"]["over"] for f in frames):
                return
            for i, ws in enumerate(sockets):
                f = frames[i]
                if f is None or acted[i] == f["v"]:
                    continue
                turn = [a for a in f["legal"] if a["type"] != "claim"]
                if f["can_next"]:
                    ws.send_json({"type": "next_deal"})
                    acted[i] = f["v"]
                elif turn:
                    ws.send_json({"type": "act", "v": f["v"], "action": turn[0]})
                    acted[i] = f["v"]
            time.sleep(0.005)
        raise AssertionError("the session did not end in time")


def until_rated(site: TestClient, table_id: str) -> None:
    deadline = time.monotonic() + 10
    while not rows(site, f"SELECT 1 FROM lald_rated WHERE table_id = '{table_id}'"):
        assert time.monotonic() < deadline, "the table was never rated"
        time.sleep(0.02)


def expected(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The update as the openskill package makes it, written out here on its own."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def test_two_worked_rated_sessions_update_as_openskill_does_and_the_bot_keeps_its_rating(
        site: TestClient) -> None:
    ann, ben = account(site, "Ann"), account(site, "Ben")
    model = PlackettLuce()
    before = [(model.mu, model.sigma), (model.mu, model.sigma), (BOT_RATINGS["random"], BOT_SIGMA)]
    for _session in range(2):
        table_id, tokens = rated_table(site, ann, ben)
        play_session(site, tokens)
        until_rated(site, table_id)
        table = hub_of(site).tables[table_id]
        ranks = session_ranks(table.session)
        assert sorted(ranks)[0] == 1 and set(ranks) <= {1, 2, 3}
        want = expected(before, ranks)
        assert want[0] != before[0] and want[1] != before[1]  # the session moved both ratings
        got = dict(((n, (mu, sigma)) for n, mu, sigma in rows(
            site, "SELECT name, mu, sigma FROM lald_ratings JOIN lald_accounts ON id = account_id "
                  "WHERE reading = 'survivor/3'")))
        assert got["Ann"] == pytest.approx(want[0], abs=1e-9)
        assert got["Ben"] == pytest.approx(want[1], abs=1e-9)
        assert len(got) == 2  # the bot's rating is fixed: nothing of it is kept
        before = [want[0], want[1], (BOT_RATINGS["random"], BOT_SIGMA)]
        assert hub_of(site).ratings.apply(table) is False  # rated once
    assert rows(site, "SELECT games FROM lald_ratings") == [(2,), (2,)]
    board = site.get("/api/leaderboard", params={"reading": "survivor/3"}).json()
    ordinals = {"Ann": before[0][0] - 3 * before[0][1], "Ben": before[1][0] - 3 * before[1][1]}
    assert [p["name"] for p in board["players"]] == sorted(ordinals, key=lambda n: -ordinals[n])
    assert [p["ordinal"] for p in board["players"]] == pytest.approx(sorted(ordinals.values(), reverse=True),
                                                                      abs=1e-3)
    assert {"level": "expert", "mu": BOT_RATINGS["expert"], "sigma": BOT_SIGMA} in board["bots"]
    profile = site.get("/api/players/ann").json()  # a name is found as it is shown, or like it
    assert profile["name"] == "Ann" and len(profile["history"]) == 2 and len(profile["tables"]) == 2
    assert profile["ratings"][0]["mu"] == pytest.approx(before[0][0])
    assert site.get("/api/players/Nobody").status_code == 404


def test_a_rating_cannot_be_farmed_at_a_private_table(site: TestClient) -> None:
    """Two accounts of one person at a table of their own: private tables are never rated,
    and a rated table is public (anyone from the lobby may take its open seats)."""
    ann = account(site, "Ann")
    r = site.post("/api/tables", headers=as_(site, ann), json={"players": 3, "rated": True})
    assert r.status_code == 400 and r.json()["code"] == "rated_public"
    # Played at a private table, a session changes no rating.
    r = site.post("/api/tables", headers=as_(site, ann), json={
        "players": 3, "seats": [{"human": True, "name": "Ann"}, {"human": True, "name": "Ann two"},
                                {"human": False}]})
    made = r.json()
    play_session(site, [made["seats"][0]["token"], made["seats"][1]["token"]])
    assert hub_of(site).ratings.apply(hub_of(site).tables[made["table"]["id"]]) is False
    assert rows(site, "SELECT * FROM lald_ratings") == [] and rows(site, "SELECT * FROM lald_rated") == []


def test_rated_tables_are_for_accounts_without_seeds_hints_or_options(site: TestClient) -> None:
    site.cookies.clear()
    r = site.post("/api/tables", json={"players": 3, "public": True, "rated": True})
    assert r.status_code == 401 and r.json()["code"] == "rated_login"
    ann, ben = account(site, "Ann"), account(site, "Ben")
    for extra in ({"seed": 5}, {"hints": True}, {"options": {"prize": 7}},
                  {"seats": [{"human": True}, {"human": True}, {}]}):
        body = {"players": 3, "public": True, "rated": True} | extra
        r = site.post("/api/tables", headers=as_(site, ann), json=body)
        assert r.status_code == 400 and r.json()["code"] == "rated_rules", (extra, r.text)
    table_id, _ = rated_table(site, ann, ben)
    site.cookies.clear()
    r = site.post("/api/sit", json={"table": table_id})
    assert r.status_code in (401, 409)
    r = site.post("/api/play-now", json={"players": 3, "rated": True})
    assert r.status_code == 401 and r.json()["code"] == "rated_login"
    # Play now, rated: an account is seated at the rated table of its reading that needs one.
    carl = account(site, "Carl")
    r = site.post("/api/play-now", headers=as_(site, carl), json={"players": 3, "rated": True})
    assert r.status_code == 201 and r.json()["table"]["rated"]
    again = site.post("/api/play-now", headers=as_(site, carl), json={"players": 3, "rated": True})
    assert again.json()["table"]["id"] != r.json()["table"]["id"]  # never twice at one table


def test_a_session_that_ended_while_the_server_stopped_is_rated_at_the_next_start(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'ratings.db'}"
    with TestClient(create_app(db, QUICK)) as site:
        ann, ben = account(site, "Ann"), account(site, "Ben")
        table_id, tokens = rated_table(site, ann, ben)
        play_session(site, tokens)
        until_rated(site, table_id)
        done = rows(site, "SELECT account_id, mu, sigma FROM lald_ratings ORDER BY account_id")
        with hub_of(site).store.engine.begin() as conn:  # as if the server had stopped before rating
            for table in ("lald_rated", "lald_ratings", "lald_rating_events"):
                conn.execute(text(f"DELETE FROM {table}"))
    with TestClient(create_app(db, QUICK)) as site:
        assert rows(site, "SELECT account_id, mu, sigma FROM lald_ratings ORDER BY account_id") == done
