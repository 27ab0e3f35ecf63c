"""No input breaks the server, shown by fuzzing: Hypothesis writes arbitrary JSON (deep
nesting, wrong types, huge and non-finite numbers, long and odd Unicode, surrogates
included) into every websocket message type and every API body.

Over the websocket: every message is answered, the socket stays open, no answer is an
``internal`` error, and a message refused with an ``error`` changed nothing at the table.
Over HTTP (the lobby, lessons, hosts, records, reviews): no 5xx (but a review's 503 when the
expert is busy), every 4xx a one-line reason, and a refusal changes nothing.

The number of examples is fixed here (not by the Hypothesis profile), so the suite's time
stays a few seconds whatever the profile.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient, WebSocketTestSession

from lald.web.server.app import create_app
from lald.web.settings import Settings

from ..conftest import create, hub_of, recv

FUZZ = Settings(bot_delay=0.0, claim_window=0.0, deal_pause=0.0, threaded_bots=False,
                create_burst=1e9, ws_burst=1e9, ws_rate=1e9, review_worlds=2)
EXAMPLES = 200
CHARS = st.characters(codec=None, categories=None)  # every code point, surrogates included
ODD = st.sampled_from(["\u202e", "\x00", "\ud800", "\udfff", "\uffff", "𝔘", "🂡", "\u0301", "Q" * 2000, ""])
TEXT = st.one_of(st.text(CHARS, max_size=30), ODD)
NUMBERS = st.one_of(st.integers(), st.integers(min_value=-(10**40), max_value=10**40),
                    st.sampled_from([0, -1, 1, 5, 2**62, 2**63, 2**64, 10**300]),
                    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([5.0, 1e308, -0.0]))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT)
JSONS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(TEXT, inner, max_size=4), max_leaves=12)


@st.composite
def deep(draw: st.DrawFn) -> Any:
    """A value under many levels of arrays and objects."""
    value = draw(SCALARS)
    for _ in range(draw(st.integers(1, 60))):
        value = [value] if draw(st.booleans()) else {draw(TEXT): value}
    return value


ANY = st.one_of(JSONS, deep())
SMALL = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(TEXT, SCALARS, max_size=3))
#: Values of a known field: mostly small and of any type, sometimes anything at all.
VALUE = st.one_of(SMALL, SMALL, SMALL, ANY)
#: Values of the right kind (or nearly) for some fields, so the checks behind are reached.
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "players": st.sampled_from([3, 4, 5, 5.0, "5", True, 6, -1, [5], 10**20]),
    "preset": st.sampled_from(["survivor", "last-capture", "", "classic", ["survivor"], {"x": 1}]),
    "variants": st.lists(st.sampled_from(["silent", "low-stakes", "modern-laugh", "x", 3, [], None]),
                         max_size=4),
    "seat": st.sampled_from([0, 1, 4, 5, -1, 1.0, True, "0", 10**30]),
    "v": st.sampled_from([0, 1, 2, -1, 1.0, True, 10**30]),
    "lang": st.sampled_from(["en", "de", "pt", "es", "xx", "", 1]),
    "type": st.sampled_from(["capture", "claim", "lie_down", "trail", "x", ""]),
    "play": st.lists(st.sampled_from(["QS", "10D", "AH", "ZZ", "", 1, "q♠"]), max_size=3),
    "take": st.lists(st.sampled_from(["QH", "QD", "2C", "KC", "X"]), max_size=3),
    "card": st.sampled_from(["QS", "2H", "AS", "", "11H", "10♦"]),
    "cards": st.lists(st.sampled_from(["7S", "7H", "7D", "7C", "JS"]), max_size=4),
    "format": st.sampled_from(["lald-record/1", "lald-record/2", "", 1]),
    "dealer": st.sampled_from([0, 4, 5, -1, 1.5, "0"]),
    "pot": st.sampled_from([0, 1, -5, 10**30, 2.5]),
    "turn_seconds": st.sampled_from([0, 4.99, 5, 600, 600.5, -0.0, 1e-9, "30"]),
    "human": st.sampled_from([True, False, 1, 0, "yes", None]),
    "level": st.sampled_from(["random", "greedy", "oracle", "", None, 1]),
    "name": st.one_of(TEXT, st.sampled_from([None, "Zoë", " ", "x" * 41])),
}


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each as often as its weight says."""
    pool = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(pool) - 1).flatmap(lambda i: pool[i])


def fields(keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with some of the expected keys (values of the right kind or of any kind)
    and now and then another key."""
    values = {k: weighted((1, PLAUSIBLE[k]), (1, VALUE)) if k in PLAUSIBLE else VALUE for k in keys}
    known = st.fixed_dictionaries({}, optional=values)
    extra = st.one_of(st.just({}), st.just({}), st.dictionaries(TEXT, VALUE, max_size=2))
    return st.builds(lambda a, b: b | a, known, extra)


def one_wrong(valid: st.SearchStrategy[dict[str, Any]], keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """A valid object with one field made wrong (or left out, or one more added)."""
    def spoil(base: dict[str, Any], key: str, value: Any, how: int) -> dict[str, Any]:
        out = dict(base)
        if how == 0:
            out.pop(key, None)
        else:
            out[key] = value
        return out
    keys_ = st.sampled_from(keys)
    return st.builds(spoil, valid, keys_, weighted((1, VALUE), (1, st.one_of(*PLAUSIBLE.values()))),
                     st.integers(0, 4))


ACTION = weighted((1, ANY), (3, fields(["seat", "type", "play", "take", "cards", "card"])))
MESSAGES = {
    "join": fields(["token", "lang"]), "watch": fields(["table", "lang"]),
    "act": weighted((1, st.builds(lambda d, a: d | {"action": a}, fields(["v"]), ACTION)),
                    (2, st.builds(lambda a: {"v": 1, "action": a}, one_wrong(
                        st.just({"seat": 0, "type": "trail", "card": "QS"}),
                        ["seat", "type", "card", "play", "take", "cards"])))),
    "next_deal": fields([]), "take": fields([]), "leave": fields([]), "lang": fields(["lang"]),
    "ping": fields([]), "go_on": fields([]), "hint": fields(["v"]),
}
MESSAGE = weighted(
    *[(2, st.builds(lambda d, k=kind: d | {"type": k}, s)) for kind, s in MESSAGES.items()],
    (1, ANY), (1, fields(["type"])))


def dumps(value: Any) -> str:
    """JSON text (NaN and Infinity as Python writes them, surrogates escaped)."""
    return json.dumps(value, ensure_ascii=True)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "fuzz.db"
    with TestClient(create_app(f"sqlite:///{path}", FUZZ)) as client:
        yield client


class Seat:
    """A person's page at a table of people and bots (or the learner's, at a lesson), kept
    open across the examples."""

    def __init__(self, client: TestClient, stack: contextlib.ExitStack, lesson: bool = False) -> None:
        if lesson:
            made = client.post("/api/lessons", json={}).json()
            table_id, token = made["table"]["id"], made["token"]
        else:
            data = create(client, 2)
            table_id, token = data["table"]["id"], data["seats"][0]["token"]
        self.table = hub_of(client).tables[table_id]
        self.ws: WebSocketTestSession = stack.enter_context(client.websocket_connect("/ws"))
        self.ws.send_json({"type": "join", "token": token})
        assert recv(self.ws)["type"] == "welcome"
        self.client = client
        self.pings = 0

    def snapshot(self) -> Any:
        t = self.table
        return (t.version, t.status, len(t.entries), [(s.human, s.joined, s.name) for s in t.seats],
                [s.token_hash for s in t.seats], len(t.conns))

    def send(self, text: str) -> list[dict[str, Any]]:
        """Send ``text``, then a ping of a new id; every message until its pong."""
        self.pings += 1
        mark = f"fuzz-{self.pings}"
        self.ws.send_text(text)
        self.ws.send_json({"type": "ping", "id": mark})
        out = []
        while (m := recv(self.ws)) != {"type": "pong", "id": mark}:
            out.append(m)
        return out


@pytest.fixture(scope="module")
def seat(fuzz_client: TestClient) -> Iterator[Seat]:
    with contextlib.ExitStack() as stack:
        yield Seat(fuzz_client, stack)


@pytest.fixture(scope="module")
def learner(fuzz_client: TestClient) -> Iterator[Seat]:
    with contextlib.ExitStack() as stack:
        yield Seat(fuzz_client, stack, lesson=True)


def _answered(seat: Seat, text: str) -> None:
    before = seat.snapshot()
    replies = seat.send(text)
    errors = [m for m in replies if m["type"] == "error"]
    for e in errors:
        assert e["code"] != "internal", (text[:200], e)
        assert isinstance(e["message"], str) and e["message"] and "\n" not in e["message"]
    if errors:
        assert seat.snapshot()[:5] == before[:5], (text[:300], replies)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(message=MESSAGE)
def test_any_websocket_message_is_answered_and_the_socket_stays_open(seat: Seat, message: Any) -> None:
    _answered(seat, dumps(message))


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(message=weighted((3, MESSAGE), (1, st.just({"type": "go_on"})),
                        (2, st.builds(lambda a: {"type": "act", "v": 1, "action": a}, ACTION))))
def test_any_message_at_a_lesson_is_answered_and_a_refusal_changes_nothing(learner: Seat,
                                                                            message: Any) -> None:
    _answered(learner, dumps(message))


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.one_of(st.text(CHARS, max_size=200), st.builds(
    lambda n, c: c * n, st.integers(1, 9000), st.sampled_from(["[", "{", '{"a":', '"', "\\"]))))
def test_any_websocket_text_is_answered(seat: Seat, text: str) -> None:
    _answered(seat, text)


def _refused_in_words(client: TestClient, path: str, body: bytes, media: str = "application/json") -> int:
    before = client.get("/api/tables").json(), len(hub_of(client).tables)
    r = client.post(path, content=body, headers={"Content-Type": media})
    assert r.status_code < 500, (path, body[:200], r.text)
    if r.status_code >= 400:
        error = r.json()["error"]
        assert isinstance(error, str) and error and "\n" not in error, error
        assert (client.get("/api/tables").json(), len(hub_of(client).tables)) == before
    return r.status_code


OPTIONS = st.dictionaries(st.sampled_from(["prize", "deals", "ante_dealer", "max_tie_cycles", "laugh",
                                           "scoring", "tie_break", "x"]),
                          weighted((2, st.sampled_from([0, 1, 50, 51, 100, 101, 10**30, "7", "on", 2.0])),
                                   (1, VALUE)), max_size=3)
SEATS = st.lists(fields(["human", "level", "name"]), min_size=3, max_size=5)
VALID_TABLE = st.fixed_dictionaries({
    "preset": st.sampled_from(["survivor", "last-capture"]), "players": st.sampled_from([3, 4, 5]),
    "variants": st.sets(st.sampled_from(["silent", "low-stakes", "modern-laugh"])).map(sorted),
    "options": st.just({"prize": 7}), "turn_seconds": st.sampled_from([0, 5, 600])})


TABLE_BODY = weighted(
    (1, ANY),
    (4, one_wrong(VALID_TABLE, ["preset", "players", "variants", "options", "turn_seconds", "seats", "seed",
                                "color"])),
    (4, fields(["preset", "players", "variants", "options", "seats", "turn_seconds", "seed"])),
    (2, st.builds(lambda o, d: d | {"options": o}, OPTIONS, fields(["preset", "players"]))),
    (2, st.builds(lambda seats, d: d | {"seats": seats}, SEATS, fields(["players", "turn_seconds"]))))
VALID_RECORD = st.fixed_dictionaries({"format": st.just("lald-record/1"), "seed": st.integers(0, 99),
                                      "dealer": st.integers(0, 4), "pot": st.integers(0, 9),
                                      "actions": st.just([])})
RECORD_BODY = weighted(
    (1, ANY),
    (3, one_wrong(VALID_RECORD, ["format", "rules", "dealer", "hands", "table", "seed", "pot", "actions"])),
    (2, fields(["format", "rules", "dealer", "hands", "table", "seed", "pot", "actions"])
     .map(lambda d: {"format": "lald-record/1"} | d)),
    (3, st.builds(lambda a, r: {"format": "lald-record/1", "seed": 3, "actions": a} | r,
                  st.lists(ACTION, max_size=4), fields(["dealer", "pot"]))))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=TABLE_BODY)
def test_any_table_request_is_answered_in_words(fuzz_client: TestClient, body: Any) -> None:
    _refused_in_words(fuzz_client, "/api/tables", dumps(body).encode())


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=RECORD_BODY)
def test_any_record_to_replay_is_answered_in_words(fuzz_client: TestClient, body: Any) -> None:
    _refused_in_words(fuzz_client, "/api/replay", dumps(body).encode())


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=weighted((2, ANY), (2, fields(["name", "lang", "seats", "preset"])), (1, st.just({}))))
def test_any_lesson_request_is_answered_in_words(fuzz_client: TestClient, body: Any) -> None:
    status = _refused_in_words(fuzz_client, "/api/lessons", dumps(body).encode())
    assert (status == 201) == (body == {}), (body, status)


_FINISHED: list[str] = []


def _finished_table(client: TestClient) -> str:
    """A table of bots whose first deal is over."""
    if not _FINISHED:
        seats = [{"human": False, "level": "random"}] * 3
        table = client.post("/api/tables", json={"players": 3, "seats": seats}).json()["table"]["id"]
        while client.get(f"/api/tables/{table}/deals/0/record").status_code != 200:
            time.sleep(0.02)
        _FINISHED.append(table)
    return _FINISHED[0]


QUERY = st.one_of(TEXT, st.sampled_from(["0", "1", "2", "3", "01", "-1", "1.0", " 1", "١", "99"]))


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(deal=st.one_of(TEXT, st.sampled_from(["0", "1", "00", "99999", "-1"])),
       seat=st.one_of(st.none(), QUERY),
       lang=st.one_of(st.none(), st.sampled_from(["en", "de", "pt", "es", "xx", ""]), TEXT),
       real=st.booleans())
def test_any_review_request_is_answered_in_words(fuzz_client: TestClient, deal: str, seat: str | None,
                                                 lang: str | None, real: bool) -> None:
    table = _finished_table(fuzz_client) if real else "nosuchtable"
    params = {k: v for k, v in (("seat", seat), ("lang", lang)) if v is not None}
    try:
        r = fuzz_client.get(f"/api/tables/{table}/deals/{quote(deal, safe='')}/review", params=params)
    except UnicodeEncodeError:  # a lone surrogate cannot be sent in a URL at all
        return
    assert r.status_code in (200, 202, 400, 404, 503), (deal, params, r.status_code, r.text)
    if r.status_code >= 400:
        error = r.json()["error"]
        assert isinstance(error, str) and error and "\n" not in error, error


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/api/host", "/api/host/reissue", "/api/host/close"]),
       body=fields(["token", "seat"]), real=st.booleans())
def test_any_host_request_is_answered_in_words(fuzz_client: TestClient, path: str,
                                               body: dict[str, Any], real: bool) -> None:
    if real and path != "/api/host/close":  # the right token, anything else wrong
        body["token"] = _host_token(fuzz_client)
    _refused_in_words(fuzz_client, path, dumps(body).encode())


_HOSTS: list[str] = []


def _host_token(client: TestClient) -> str:
    if not _HOSTS:
        _HOSTS.append(create(client, 2)["host"]["token"])
    return _HOSTS[0]


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(["/api/tables", "/api/replay", "/api/host", "/api/lessons"]),
       body=st.one_of(st.binary(max_size=300), st.text(CHARS, max_size=200).map(
           lambda t: t.encode("utf-8", "surrogatepass"))),
       media=st.sampled_from(["application/json", "text/plain", "application/json; charset=latin-1"]))
def test_any_bytes_are_answered_in_words(fuzz_client: TestClient, path: str, body: bytes, media: str) -> None:
    _refused_in_words(fuzz_client, path, body, media)
