"""An API fuzzer made for the job: schemathesis reads the OpenAPI description
(``/api/openapi.json``) and sends a real server on 127.0.0.1 requests that fit it and
requests that break it; every answer must be no 5xx and conform to the description (its
status, media type and schema). The cases it found are kept as regression tests below."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from starlette.testclient import TestClient

from lald.web.server.openapi import spec

from ..conftest import Server

schema = schemathesis.openapi.from_dict(spec())


@schema.hook
def map_body(context: Any, body: Any) -> Any:
    """JSON Schema cannot tell 5.0 from 5 (both are its integer 5), this API can: it takes
    a whole number written as one only (as records do; the description says so). So the
    fuzzer writes whole numbers as whole numbers; every body means to the schema what it
    meant, and a fraction like 5.5 is still sent."""
    return _written_whole(body)


def _written_whole(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_written_whole(v) for v in value]
    if isinstance(value, dict):
        return {k: _written_whole(v) for k, v in value.items()}
    return value


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = Path(tmp_path_factory.mktemp("schemathesis"))
    server = Server(f"sqlite:///{path / 'api.db'}", "--tables-at-once", "1000000",
                    log=path / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
    assert "Traceback" not in (path / "server.log").read_text()


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_answers_as_described(case: Any, live: Server) -> None:
    # What a schema cannot say: a record's actions must be legal, a host's token real. So
    # a request that fits the description may be refused there (in words, with a 4xx).
    # Nor can it say which strings are readings of the rules (/api/readings).
    unsayable = (case.path in ("/api/replay", "/api/readings")
                 or case.path.startswith(("/api/host", "/api/account")))
    excluded = [schemathesis.checks.positive_data_acceptance] if unsayable else []
    case.call_and_validate(base_url=live.base, excluded_checks=excluded)


def test_the_description_names_every_route_and_no_other(client: TestClient) -> None:
    served = client.get("/api/openapi.json").json()
    assert served == spec()
    routes = {r.path for r in client.app.routes if getattr(r, "path", "").startswith("/api")}  # type: ignore[attr-defined]
    assert set(served["paths"]) == routes


# -- cases schemathesis found, kept -----------------------------------------------------------


def test_a_method_not_allowed_says_which_are(client: TestClient) -> None:
    """Found by schemathesis: the 405 lost its ``Allow`` header (RFC 9110)."""
    r = client.request("TRACE", "/api/levels")
    assert r.status_code == 405 and set(r.headers["Allow"].split(", ")) == {"GET", "HEAD"}
    assert r.json() == {"error": "TRACE is not allowed here"}
    r = client.request("PUT", "/api/host", content=b"{}", headers={"Content-Type": "application/json"})
    assert r.status_code == 405 and r.headers["Allow"] == "POST"


def test_a_post_where_none_is_taken_is_a_405_whatever_its_body(client: TestClient) -> None:
    """Found by schemathesis: ``POST /api/levels`` was a 415 (the media type was checked
    before the method)."""
    for path in ("/api/levels", "/api/tables/x", "/api/openapi.json"):
        r = client.post(path, content=b"x")
        assert r.status_code == 405 and set(r.headers["Allow"].split(", ")) == {"GET", "HEAD"}, path


@pytest.mark.parametrize("key", ["options", "variants", "seats", "seed", "turn_seconds", "preset", "players"])
def test_a_null_field_is_refused_not_taken_for_its_default(client: TestClient, key: str) -> None:
    """Found by schemathesis: ``"options": null`` opened a table though the description
    says an object."""
    body = {"players": 3, "seats": [{"human": True}, {}, {}], key: None}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and r.json() == {"error": f"'{key}' is null: leave it out for its default"}
    assert client.get("/api/tables").json() == []
