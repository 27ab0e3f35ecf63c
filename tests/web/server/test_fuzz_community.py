"""Hypothesis over what issue 24 added: the chat and laugh messages at a table, and the
bodies of Play now, Sit down, the account endpoints and the host's moderation. Every
answer is in words (no 5xx, no internal error, one line), and a refusal changes nothing."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from lald.web.server.app import create_app

from ..conftest import hub_of
from .test_fuzz import ANY, FUZZ, TEXT, Seat, _answered, _refused_in_words, dumps, fields, weighted

EXAMPLES = 100
COMMUNITY = dataclasses.replace(FUZZ, password_memory=1024)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "fuzz.db"
    with TestClient(create_app(f"sqlite:///{path}", COMMUNITY)) as client:
        yield client


@pytest.fixture(scope="module")
def seat(fuzz_client: TestClient) -> Iterator[Seat]:
    with contextlib.ExitStack() as stack:
        yield Seat(fuzz_client, stack)


CHAT = weighted((3, st.builds(lambda d: d | {"type": "chat"}, fields(["text"]))),
                (2, st.builds(lambda t: {"type": "chat", "text": t}, TEXT)),
                (1, st.builds(lambda d: d | {"type": "laugh"}, fields(["text"]))),
                (1, st.just({"type": "laugh"})))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(message=CHAT)
def test_any_chat_or_laugh_is_answered_and_a_refusal_changes_nothing(seat: Seat, message: Any) -> None:
    _answered(seat, dumps(message))


PLAY_NOW = weighted((1, ANY),
                    (3, fields(["preset", "players", "variants", "rated", "name", "lang", "seats"])))
ACCOUNT = weighted((1, ANY), (3, fields(["name", "password", "old", "new"])),
                   (2, st.builds(lambda n, p: {"name": n, "password": p}, TEXT, TEXT)))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/api/play-now", "/api/sit"]), body=PLAY_NOW, table=st.booleans())
def test_any_play_now_or_sit_is_answered_in_words(fuzz_client: TestClient, path: str, body: Any,
                                                  table: bool) -> None:
    if table and isinstance(body, dict) and path == "/api/sit":
        open_ = [t for t in hub_of(fuzz_client).tables.values() if t.free_seats()]
        if open_:
            body = body | {"table": open_[0].id}
    status = _post(fuzz_client, path, body)
    assert status in (201, 400, 401, 404, 409, 415, 429), status


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/api/account/register", "/api/account/login", "/api/account/logout",
                             "/api/account/password", "/api/account/delete"]), body=ACCOUNT)
def test_any_account_request_is_answered_in_words(fuzz_client: TestClient, path: str, body: Any) -> None:
    fuzz_client.cookies.clear()
    status = _post(fuzz_client, path, body)
    assert status in (200, 201, 400, 401, 403, 409, 429), status
    fuzz_client.cookies.clear()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/api/host/mute", "/api/host/spectators"]),
       body=fields(["token", "seat", "muted", "chat"]), real=st.booleans())
def test_any_moderation_is_answered_in_words(fuzz_client: TestClient, path: str, body: dict[str, Any],
                                             real: bool) -> None:
    if real:
        made = fuzz_client.post("/api/tables", json={"players": 3}).json()
        body = body | {"token": made["host"]["token"]}
    status = _post(fuzz_client, path, body)
    assert status in (200, 400, 403), status


POSTED = ["/api/account/register", "/api/account/login", "/api/account/logout", "/api/account/password",
          "/api/account/delete", "/api/sit", "/api/play-now", "/api/tables", "/api/lessons", "/api/replay",
          "/api/host", "/api/host/mute", "/api/host/spectators", "/api/host/close", "/api/host/reissue"]


@st.composite
def nested(draw: st.DrawFn) -> str:
    """JSON text nested far deeper than any client sends (3,000 levels got a 500 from the
    account endpoints and Sit down: issue 30), sometimes inside an object's field."""
    levels = draw(st.integers(100, 6000))
    opening = draw(st.sampled_from(["[", '{"a":', '{"name":[', "[{}, "]))
    inner = '{"name": "Ann", "password": "correct horse"}' if draw(st.booleans()) else "1"
    closing = {"[": "]", '{"a":': "}", '{"name":[': "]}", "[{}, ": "]"}[opening]
    text = opening * levels + inner + closing * levels
    return '{"table": "x", "name": ' + text + "}" if draw(st.booleans()) else text


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(POSTED), text=nested(), logged_in=st.booleans())
def test_deeply_nested_json_to_any_endpoint_is_refused_in_words(fuzz_client: TestClient, path: str,
                                                                 text: str, logged_in: bool) -> None:
    fuzz_client.cookies.clear()
    headers = {"Content-Type": "application/json"}
    if logged_in:
        name = f"nest{fuzz_client.app.state.sessions.passwords.verified}"  # type: ignore[attr-defined]
        r = fuzz_client.post("/api/account/register", json={"name": name, "password": "correct horse"})
        if r.status_code == 201:
            headers["X-CSRF-Token"] = r.json()["csrf"]
    r = fuzz_client.post(path, content=text.encode(), headers=headers)
    assert r.status_code in (400, 401, 404, 413, 429), (path, r.status_code, r.text[:200])
    error = r.json()["error"]
    assert isinstance(error, str) and error and "\n" not in error, error
    fuzz_client.cookies.clear()


def test_3000_levels_to_the_account_endpoints_and_sit_down_get_a_400(fuzz_client: TestClient) -> None:
    """The issue's own reproduction, one by one."""
    text = "[" * 3000 + "]" * 3000
    for path in POSTED:
        r = fuzz_client.post(path, content=text.encode(), headers={"Content-Type": "application/json"})
        assert r.status_code == 400, (path, r.status_code, r.text[:200])
        assert "nested too deeply" in r.json()["error"], (path, r.text)


def _post(client: TestClient, path: str, body: Any) -> int:
    """Post; every refusal in words and changing nothing (the tables, the accounts)."""
    with hub_of(client).store.engine.connect() as conn:
        from sqlalchemy import text

        before = conn.execute(text("SELECT count(*) FROM lald_accounts")).scalar()
    status = _refused_in_words(client, path, dumps(body).encode())
    if status >= 400:
        with hub_of(client).store.engine.connect() as conn:
            from sqlalchemy import text

            assert conn.execute(text("SELECT count(*) FROM lald_accounts")).scalar() == before
    return status


