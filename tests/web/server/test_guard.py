"""Bounds and abuse over HTTP and the websocket: bodies over 64 KiB refused before they are
read whole, JSON only, other sites' pages refused, table creation limited per address,
the security headers, and every request seen to break the server, kept as a regression
test (each answers a 4xx with one line in words, nothing changes)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from lald.clock import ManualClock
from lald.i18n import Catalog, messages
from lald.web.server.app import create_app
from lald.web.server.guard import MAX_BODY
from lald.web.settings import Settings

from ..conftest import FAST, Server, create, hub_of, recv, state_at

JSON = {"Content-Type": "application/json"}


def one_line(r: Any, status: int) -> str:
    """The refusal's sentence, checked: the status, JSON, one line, no Python in it."""
    assert r.status_code == status, (r.status_code, r.text)
    error = r.json()["error"]
    assert isinstance(error, str) and error and "\n" not in error and len(error) < 300
    for python in ("Traceback", "unhashable", "object has no attribute", "Error:", "not subscriptable"):
        assert python not in error, error
    return str(error)


def snapshot(client: TestClient) -> Any:
    """Everything the lobby says, to show that a refusal changed nothing."""
    return client.get("/api/tables").json()


# -- seen on main: each of these was a 500, a Python message or a frozen server -------------


@pytest.mark.parametrize("body", [
    {"players": 5.5}, {"preset": []}, {"preset": {}}, {"variants": [[]]}, {"variants": "silent"},
    {"options": []}, {"options": {"deals": 100_000_000}}, {"options": {"prize": 10**30}},
    {"options": {"ante_dealer": 10**30}}, {"options": {"max_tie_cycles": 10**9}},
    {"turn_seconds": 0.001}, {"turn_seconds": 4}, {"turn_seconds": 601}, {"turn_seconds": 1e308},
    {"seats": [{"human": True, "name": "\ud800"}] * 5}, {"seats": [{"name": "a\u202eb"}] * 5},
    {"seats": [{"name": "nul\u0000"}] * 5}, {"seats": [{"level": []}] * 5}, {"seed": 2**64},
    {"seed": 1.5}, {"players": 10**400}, {"players": 1e300}, [], "table", None, 3,
])
def test_bad_table_requests_are_refused_in_words(client: TestClient, body: Any) -> None:
    before = snapshot(client)
    one_line(client.post("/api/tables", content=json.dumps(body).encode(), headers=JSON), 400)
    assert snapshot(client) == before


@pytest.mark.parametrize("body", [
    {"players": 5.0}, {"players": "4"}, {"options": {"deals": "7"}}, {"options": {"prize": 7e0}},
    {"options": {"max_tie_cycles": " 2"}}, {"seed": 5.0}, {"seed": "5"},
])
def test_a_whole_number_is_written_as_one(client: TestClient, body: Any) -> None:
    """One rule for the lobby's numbers, as records have it: a whole number is written as
    one. ``{"players": 5.0}`` (once a 500) and ``"deals": "7"`` opened tables while
    ``"players": "4"`` was refused."""
    text = json.dumps(body).replace("7.0", "7e0")
    error = one_line(client.post("/api/tables", content=text.encode(), headers=JSON), 400)
    assert "whole number" in error or "choose 3, 4 or 5" in error, error
    assert snapshot(client) == []


def test_a_host_names_a_seat_by_a_whole_number(client: TestClient) -> None:
    token = create(client, [True, True, False, False, False])["host"]["token"]
    for seat in ('"1"', "1.0", "1e0"):
        text = f'{{"token": "{token}", "seat": {seat}}}'
        one_line(client.post("/api/host/reissue", content=text.encode(), headers=JSON), 400)
    assert client.post("/api/host/reissue", json={"token": token, "seat": 1}).status_code == 200


def test_a_deep_record_is_refused_before_the_reader_sees_it(client: TestClient) -> None:
    deep = "[" * 5000 + "]" * 5000
    for text in (deep, '{"format": "lald-record/1", "actions": ' + deep + "}"):
        r = client.post("/api/replay", content=text, headers=JSON)
        assert one_line(r, 400) == "the record is nested too deeply"


def test_deep_and_non_finite_json_is_refused(client: TestClient) -> None:
    deep = ("[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000,
            '{"seats": ' + "[" * 17 + "]" * 17 + "}")
    for path in ("/api/tables", "/api/lessons", "/api/replay", "/api/host", "/api/host/reissue"):
        for text in (*deep, '{"players": NaN}', '{"players": Infinity}', '{"players": 1' + "0" * 5000 + "}",
                     "\xff\xfe", "{"):
            body = text.encode("utf-8", "surrogateescape")
            error = one_line(client.post(path, content=body, headers=JSON), 400)
            # deep nesting is said to be so, not "not JSON"
            assert ("nested too deeply" in error) == (text in deep), (path, text[:20], error)
    assert snapshot(client) == []


@pytest.mark.parametrize("actions", [
    [{"type": []}], [{"type": {}}], [{"seat": [], "type": "lie_down"}], [{"seat": 0, "type": "trail",
                                                                         "card": "Q" * 100_00}],
    [[]], "lie down", [{"seat": 10**300, "type": "lie_down"}],
])
def test_replay_with_bad_actions_is_a_400(client: TestClient, actions: Any) -> None:
    record = {"format": "lald-record/1", "seed": 3, "actions": actions}
    one_line(client.post("/api/replay", json=record), 400)


def test_bad_paths_are_404s_in_words(client: TestClient) -> None:
    data = create(client, 1)
    table = data["table"]["id"]
    for path in (f"/api/tables/{table}/deals/{'9' * 5000}/record", f"/api/tables/{table}/deals/-1/record",
                 f"/api/tables/{table}/deals/x/record", "/api/tables/" + "x" * 5000,
                 "/api/tables/%ED%A0%80", "/api/nothing", "/api/i18n/%00", "/static/nope.js"):
        one_line(client.get(path), 404)
    one_line(client.delete("/api/tables"), 405)
    one_line(client.get("/api/replay"), 405)


# -- the guard ------------------------------------------------------------------------------


def test_only_json_is_accepted(client: TestClient) -> None:
    body = json.dumps({"players": 4}).encode()
    for media in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                  "", "application/jsonx"):
        headers = {"Content-Type": media} if media else {}
        one_line(client.post("/api/tables", content=body, headers=headers), 415)
        one_line(client.post("/api/host", content=b'{"token": "x"}', headers=headers), 415)
    assert snapshot(client) == []
    utf8 = {"Content-Type": "application/json; charset=utf-8"}
    assert client.post("/api/tables", content=body, headers=utf8).status_code == 201
    record = '[Format "lald-text/1"]\n[Seed "4"]\n'
    text = {"Content-Type": "text/plain"}
    assert client.post("/api/replay", content=record, headers=text).status_code == 200


def test_big_bodies_are_413(client: TestClient) -> None:
    big = b'{"seats": "' + b"x" * MAX_BODY + b'"}'
    for path in ("/api/tables", "/api/replay", "/api/host"):
        one_line(client.post(path, content=big, headers=JSON), 413)
    huge = JSON | {"Content-Length": "99999999999999"}
    one_line(client.post("/api/tables", content=b"{}", headers=huge), 413)
    assert snapshot(client) == []


def test_a_big_body_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    """Against a real server: a 10 MB body announced or chunked gets its 413 while most of
    it has not been sent."""
    server = Server(f"sqlite:///{tmp_path / 'big.db'}", log=tmp_path / "server.log")
    server.start()
    try:
        heads = ((b"Content-Length: 10000000\r\n", False), (b"Transfer-Encoding: chunked\r\n", True))
        for head, chunked in heads:
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
                s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          b"Content-Type: application/json\r\n" + head + b"\r\n")
                sent = 0
                if chunked:  # 80 KiB in 1 KiB chunks, then wait: the rest never comes
                    for _ in range(80):
                        s.sendall(b"400\r\n" + b" " * 1024 + b"\r\n")
                        sent += 1024
                answer = b""
                while b"}" not in answer:  # the whole (small) answer: headers, then its JSON
                    part = s.recv(4096)
                    assert part, answer
                    answer += part
                assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
                assert b"longer than 64 KiB" in answer and sent < 10_000_000 // 100
    finally:
        server.stop()


def test_other_sites_pages_are_refused(tmp_path: Path) -> None:
    settings = Settings(**{**FAST.__dict__, "allow_origins": ("https://cards.example.org",)})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'o.db'}", settings)) as client:
        body = {"players": 3, "seats": [{"human": True}, {}, {}]}
        for origin in ("https://evil.example", "http://testserver.evil.example", "null",
                       "http://testserver:8080", "https://cards.example.org.evil"):
            posted = client.post("/api/tables", json=body, headers={"Origin": origin})
            one_line(posted, 403)
            # The socket is refused at the handshake, with the same answer as the POST.
            with pytest.raises(WebSocketDenialResponse) as refused:
                with client.websocket_connect("/ws", headers={"Origin": origin}):
                    pass
            assert one_line(refused.value, 403) and refused.value.json() == posted.json()
        assert snapshot(client) == []
        for origin in ("http://testserver", "https://cards.example.org", None):
            headers = {"Origin": origin} if origin else {}
            assert client.post("/api/tables", json=body, headers=headers).status_code == 201
            with client.websocket_connect("/ws", headers=headers) as ws:
                ws.send_json({"type": "ping"})
                assert recv(ws)["type"] == "pong"


def test_a_browser_is_refused_a_socket_from_another_site_at_the_handshake(tmp_path: Path) -> None:
    """What a browser meets, from the real server: the handshake answers 403 with the
    refusal in words (docs/security.md said "close 1008", which no browser ever saw)."""
    server = Server(f"sqlite:///{tmp_path / 'h.db'}")
    server.start()
    try:
        upgrade = {"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
        r = httpx.get(server.base + "/ws", headers=upgrade | {"Origin": "https://evil.example"}, timeout=10)
        assert one_line(r, 403) == "requests from other sites are refused"
        assert r.json()["code"] == "other_site" and r.headers["Content-Security-Policy"]
    finally:
        server.stop()


def test_table_creation_is_limited_per_address(tmp_path: Path) -> None:
    settings = Settings(**{**FAST.__dict__, "create_burst": 3, "create_rate": 1 / 3600})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}", settings)) as client:
        for _ in range(3):
            create(client, 1)
        r = client.post("/api/tables", json={})
        assert "minutes" in one_line(r, 429) and r.headers["Retry-After"]
        assert len(snapshot(client)) == 3
        app = client.app
        app.state.buckets.take("someone else")  # type: ignore[attr-defined]
        assert app.state.buckets.take("someone else")  # type: ignore[attr-defined]


def test_a_refused_request_spends_none_of_the_limit(tmp_path: Path) -> None:
    """Only a table (or lesson) actually opened counts against the address's limit: a bad
    request spent one, so three mistakes used up a burst of three."""
    settings = Settings(**{**FAST.__dict__, "create_burst": 3, "create_rate": 1 / 3600})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}", settings)) as client:
        for bad in (b"{", b'{"players": 6}', b'{"seats": []}', b"[]"):
            one_line(client.post("/api/tables", content=bad, headers=JSON), 400)
            one_line(client.post("/api/lessons", content=bad, headers=JSON), 400)
        for _ in range(2):
            create(client, 1)
        assert client.post("/api/lessons", json={}).status_code == 201
        one_line(client.post("/api/tables", json={}), 429)
        one_line(client.post("/api/lessons", json={}), 429)
        one_line(client.post("/api/tables", content=b"{", headers=JSON), 400)  # still told why


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    data = create(client, 1)
    answers = [client.get(p) for p in ("/", "/play", "/replay", "/static/js/play.js", "/static/css/lald.css",
                                        "/api/levels", "/api/tables", "/api/nothing", "/api/openapi.json")]
    answers += [client.post("/api/tables", content=b"x", headers=JSON),
                client.post("/api/tables", content=b"x", headers={"Content-Type": "text/plain"}),
                client.get(f"/api/tables/{data['table']['id']}/deals/0/record")]
    for r in answers:
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "default-src 'self'" in csp and "unsafe" not in csp
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "no-referrer"
    for page in ("/", "/play", "/replay"):  # nothing inline for the policy to refuse
        html = client.get(page).text
        assert "<script>" not in html and "style=" not in html and " on" + "click=" not in html


# -- the websocket: every malformed message is an error frame; the socket stays open ----------


def test_malformed_messages_seen_to_close_the_socket_get_error_frames(client: TestClient) -> None:
    data = create(client, 2)
    table = hub_of(client).tables[data["table"]["id"]]
    with client.websocket_connect("/ws") as ws, client.websocket_connect("/ws") as other:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"], "lang": "es"})
        other.send_json({"type": "join", "token": data["seats"][1]["token"]})
        recv(ws)
        recv(other)
        frame = state_at(ws, 1)
        v = frame["v"]
        act = '{"type":"act","v":' + str(v) + ',"action":'
        seen = [act + '{"type":[]}}', '{"type":{}}', '{"type":[]}',
                "[" * 4000 + "]" * 4000, '{"type":"join","token":' + "[" * 4000 + "]" * 4000 + "}",
                act + '{"seat":[],"type":"lie_down"}}', '{"type":"watch","table":"\\ud800"}',
                '{"type":"join","token":"\\ud800' + "a" * 30 + '"}', '{"type":"lang","lang":[]}',
                '{"type":"act","v":1e999,"action":{}}', '{"type":"ping","x":NaN}', "x" * 9000,
                act + '{"seat":0,"type":"trail","card":"' + "Q" * 5000 + '"}}']
        before = (table.version, [s.human for s in table.seats], len(table.entries))
        for text in seen:
            ws.send_text(text)
            m = recv(ws)
            assert m["type"] == "error" and m["code"] in ("malformed", "unknown_type", "bad_token",
                                                          "no_table"), (text[:60], m)
            assert m["message"] and "\n" not in m["message"] and m["code"] != "internal"
            assert len(json.dumps(m)) < 1000
        assert (table.version, [s.human for s in table.seats], len(table.entries)) == before
        ws.send_json({"type": "ping"})
        while (m := recv(ws))["type"] != "pong":
            pass
        assert m == {"type": "pong"}


def test_deep_nesting_and_fractions_are_named_as_what_they_are(client: TestClient) -> None:
    """Deep nesting was called "not JSON"; it has words of its own. A version written
    with a fraction is no version, as in the lobby."""
    data = create(client, 1, seed=4)
    en, t = messages("en"), Catalog("en").t
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"]})
        recv(ws)
        v = state_at(ws, 1)["v"]
        for text in ("[" * 40 + "]" * 40, '{"type": "ping", "id": ' + '{"a":' * 20 + "1" + "}" * 21):
            ws.send_text(text)
            m = recv(ws)
            too_deep = t("web_error_too_deep", depth=16)
            assert (m["type"], m["code"], m["message"]) == ("error", "malformed", too_deep)
        ws.send_text(f'{{"type": "hint", "v": {v}.0}}')
        m = recv(ws)
        assert (m["code"], m["message"]) == ("malformed", en["web_error_version"])
        ws.send_text("{")
        assert recv(ws)["message"] == en["web_error_not_json"]


def test_a_flood_of_messages_closes_that_socket_only(tmp_path: Path) -> None:
    settings = Settings(**{**FAST.__dict__, "ws_rate": 5.0, "ws_burst": 20.0})
    clock = ManualClock()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'f.db'}", settings, clock=clock)) as client:
        with client.websocket_connect("/ws") as calm, client.websocket_connect("/ws") as flood:
            for _ in range(60):
                flood.send_json({"type": "ping"})
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    codes.append(recv(flood).get("code"))
            # the clock stands: the burst of 20, then the one that floods
            assert closed.value.code == 1008 and codes[-1] == "flooding" and codes.count(None) == 20
            for _ in range(25):  # 5 a second, for 5 s of the clock, forever within the limit
                clock.advance(0.2)
                calm.send_json({"type": "ping"})
                assert recv(calm) == {"type": "pong"}


def test_a_record_the_replay_cannot_read_carries_a_code_for_the_page(client: TestClient) -> None:
    """The reason stays English, for programs; the page words the code in its language
    (seen before: a German page framed the reader's English, "malformed JSON: ...")."""
    for text in ("{", "not a record at all", '{"format": "lald-record/1"}', "[" * 5000 + "]" * 5000):
        r = client.post("/api/replay", content=text, headers=JSON)
        assert r.status_code == 400 and r.json()["code"] == "record", (text[:20], r.json())
    record = {"format": "lald-record/1", "seed": 3, "actions": [{"seat": 0, "type": "lie_down"}] * 3}
    r = client.post("/api/replay", json=record)
    body = r.json()
    assert r.status_code == 400 and body["code"] == "record_move" and body["move"] >= 1, body
    assert body["error"].startswith(f"move {body['move']}:")
