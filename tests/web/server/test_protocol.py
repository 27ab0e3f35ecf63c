"""The websocket protocol, through Starlette's test client: joining, every action kind,
claims out of turn, refusals that change nothing, spectators, reconnecting, leaving,
turn timers, the lobby's checks, records and the replay endpoint."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from lald.bots import LEVELS, RandomBot
from lald.clock import ManualClock
from lald.core import Claim, Claimed, ClaimKind, IllegalActionError, Rules, Session, State, action_from_json
from lald.i18n import LANGUAGES, messages
from lald.record import load
from lald.store import Store

from ..conftest import create, hub_of, poll, recv, state_at, timer_set, until

JSON = {"Content-Type": "application/json"}


class Humans:
    """A table whose seats are all people, each on its own socket, driven by the test."""

    def __init__(self, client: TestClient, stack: contextlib.ExitStack, seed: int, **rules: Any) -> None:
        self.client = client
        players = rules.get("players", 5)
        data = create(client, players, seed=seed, **rules)
        self.id = data["table"]["id"]
        self.tokens = [s["token"] for s in data["seats"]]
        self.ws: list[WebSocketTestSession] = []
        self.frames: list[dict[str, Any]] = []
        self.logs: list[list[str]] = [[] for _ in range(players)]
        self.rules = Rules.make(rules.get("preset", "survivor"), players, rules.get("variants", ()))
        self.session = Session(self.rules, seed)
        for s in range(players):
            ws = stack.enter_context(client.websocket_connect("/ws"))
            ws.send_json({"type": "join", "token": self.tokens[s]})
            assert recv(ws)["type"] == "welcome"
            self.ws.append(ws)
        self.v = 1
        self.frames = [self.sync(s) for s in range(players)]
        self.state = self.session.start_deal()

    def sync(self, seat: int) -> dict[str, Any]:
        """Read seat's frames up to the current version, keeping its log."""
        while True:
            f = state_at(self.ws[seat], self.v)
            if f["reset"]:
                self.logs[seat] = []
            self.logs[seat] += [e["text"] for e in f["log"]]
            if f["v"] == self.v:
                return f

    def play(self, action: dict[str, Any]) -> None:
        """Send ``action`` from its seat and wait until every seat has seen it."""
        seat = action["seat"]
        self.ws[seat].send_json({"type": "act", "v": self.v, "action": action})
        self.state.apply(action_from_json(action))
        self.v += 1
        self.frames = [self.sync(s) for s in range(len(self.ws))]

    def next_deal(self) -> None:
        """Ask for the next deal from seat 0."""
        self.session.end_deal(self.state)
        self.ws[0].send_json({"type": "next_deal"})
        self.v += 1
        self.frames = [self.sync(s) for s in range(len(self.ws))]
        self.state = self.session.start_deal()


@pytest.fixture
def stack() -> Iterator[contextlib.ExitStack]:
    with contextlib.ExitStack() as s:
        yield s


def test_join_shows_each_seat_its_own_hand_and_no_other(client: TestClient,
                                                        stack: contextlib.ExitStack) -> None:
    t = Humans(client, stack, seed=11)
    for s, f in enumerate(t.frames):
        assert f["you"] == s and f["table"]["status"] == "playing"
        assert f["view"]["hand"] == [str(c) for c in t.state.hand(s)]
        others = {str(c) for o in range(5) if o != s for c in t.state.hand(o)}
        assert not others & set(re.findall(r'"([A2-9TJQK][SHDC])"', json.dumps(f)))
        assert (f["legal"] != []) == bool(t.state.legal_actions(s))
    assert [e["kind"] for e in t.frames[0]["log"]][:1] == ["header"]


def test_waiting_table_starts_when_every_person_has_joined(client: TestClient) -> None:
    data = create(client, [True, True, False, False, False], seed=3)
    with client.websocket_connect("/ws") as a:
        a.send_json({"type": "join", "token": data["seats"][0]["token"]})
        recv(a)
        f = recv(a)
        assert f["table"]["status"] == "waiting" and f["view"] is None and f["v"] == 0
        with client.websocket_connect("/ws") as b:
            b.send_json({"type": "join", "token": data["seats"][1]["token"]})
            f = state_at(a, 1)
            assert f["table"]["status"] == "playing" and len(f["view"]["hand"]) == 8


def _claims_first(t: Humans) -> None:
    """One action: the first open claim of any seat, else the mover's first turn action."""
    claims = t.state.open_claims()
    action = claims[0] if claims else t.state.turn_actions()[0]
    assert action.to_json() in t.frames[action.seat]["legal"]
    t.play(action.to_json())


def test_every_action_kind_is_accepted_and_recorded(client: TestClient,
                                                     stack: contextlib.ExitStack) -> None:
    seen: set[str] = set()
    t = Humans(client, stack, seed=7)
    for deal in range(3):
        while not t.state.over:
            _claims_first(t)
        assert t.frames[0]["view"]["over"] and t.frames[0]["can_next"]
        record = client.get(f"/api/tables/{t.id}/deals/{deal}/record").text
        _, replayed = load(record)
        assert replayed.actions == t.state.actions and replayed.result == t.state.result
        assert t.frames[1]["view"]["won_sizes"] == list(t.state.result.won)  # type: ignore[union-attr]
        for op in t.state.history:
            seen.add(op.kind.value if isinstance(op, Claimed) else type(op).__name__)
        t.next_deal()
    assert {"Capture", "LaidDown", ClaimKind.HAND_SET, ClaimKind.DEAD, ClaimKind.SPOTTER} <= seen
    m = Humans(client, stack, seed=8, variants=["modern-laugh"])
    while not m.state.over:
        _claims_first(m)
    assert any(type(op).__name__ == "Trail" for op in m.state.history)
    assert any("trails" in line for line in m.logs[2])


def _spotter_state(seed: int) -> tuple[Rules, list[dict[str, Any]], Claim] | None:
    """Turn actions from the deal's start until a spotter claim is open to every seat."""
    rules = Rules.make()
    state = Session(rules, seed).start_deal()
    script = []
    while not state.over:
        spot = [c for c in state.open_claims() if set(c.cards) <= set(state.table)]
        if len({c.seat for c in spot}) >= 2:
            return rules, script, spot[0]
        action = state.turn_actions()[0]
        script.append(action.to_json())
        state.apply(action)
    return None


def test_two_seats_claim_the_same_cards_at_once_exactly_one_wins(
        client: TestClient, stack: contextlib.ExitStack) -> None:
    seed, found = next((s, f) for s in range(1, 200) if (f := _spotter_state(s)) is not None)
    _, script, claim = found
    t = Humans(client, stack, seed=seed)
    for action in script:
        t.play(action)
    cards = [str(c) for c in claim.cards]
    a, b = claim.seat, next(s for s in range(5) if s != claim.seat and t.state.claims(s))
    mover = t.state.to_move
    # Both send before either hears back; b's claim is out of turn unless b is to move.
    assert a != mover or b != mover
    for seat in (a, b):
        t.ws[seat].send_json({"type": "act", "v": t.v,
                              "action": {"seat": seat, "type": "claim", "cards": cards}})
    errors: dict[int, list[dict[str, Any]]] = {}
    frames = {}
    for seat in (a, b):
        errors[seat] = []
        t.ws[seat].send_json({"type": "ping"})
        while True:
            m = recv(t.ws[seat])
            if m["type"] == "error":
                errors[seat].append(m)
            elif m["type"] == "state" and m["v"] == t.v + 1:
                frames[seat] = m
            elif m["type"] == "pong" and seat in frames:
                break
    losers = [s for s in (a, b) if errors[s]]
    assert len(losers) == 1 and [e["code"] for e in errors[losers[0]]] == ["stale"]
    winner = a if losers == [b] else b
    for seat in (a, b):
        claimed = [e for e in frames[seat]["log"] if (e.get("op") or {}).get("kind") == "claim"]
        assert [e["op"]["seat"] for e in claimed] == [winner]
    b = losers[0]
    # The loser, now up to date, is refused by the engine: the cards are gone.
    t.ws[b].send_json({"type": "act", "v": t.v + 1,
                       "action": {"seat": b, "type": "claim", "cards": cards}})
    err = recv(t.ws[b])
    assert err["type"] == "error" and err["code"] == "illegal"
    assert "not on the table" in err["detail"] and err["message"] == "That move is not allowed now."


def _engine_says(state: State, action: dict[str, Any]) -> str:
    try:
        state.clone().apply(action_from_json(action))
    except IllegalActionError as e:
        return str(e)
    raise AssertionError("the engine accepts it")


def test_refusals_are_errors_and_change_nothing(client: TestClient, stack: contextlib.ExitStack) -> None:
    t = Humans(client, stack, seed=5)
    ws, me = t.ws[0], 0
    mover = t.state.to_move
    assert mover is not None
    other = (mover + 1) % 5

    def refused(message: Any, code: str, sock: WebSocketTestSession = ws) -> dict[str, Any]:
        if isinstance(message, str):
            sock.send_text(message)
        else:
            sock.send_json(message)
        reply = recv(sock)
        while reply["type"] == "state":  # a page joined or left: a new picture, nothing changed
            assert reply["v"] == t.v, reply
            reply = recv(sock)
        assert reply["type"] == "error" and reply["code"] == code, reply
        return reply

    refused("{not json", "malformed")
    refused("[1, 2]", "malformed")
    refused({"no": "type"}, "malformed")
    refused({"type": "dance"}, "unknown_type")
    refused({"type": "act", "action": {"seat": me, "type": "lie_down"}}, "malformed")
    refused({"type": "act", "v": t.v, "action": {"seat": me, "type": "trail", "card": "ZZ"}},
            "malformed")
    refused({"type": "act", "v": t.v, "action": {"seat": me, "type": "shout"}}, "malformed")
    refused({"type": "act", "v": t.v, "action": {"seat": (me + 1) % 5, "type": "lie_down"}},
            "wrong_seat")
    turn = t.state.turn_actions()[0].to_json()
    refused({"type": "act", "v": t.v - 1, "action": turn}, "stale", t.ws[mover])
    err = refused({"type": "act", "v": t.v, "action": {**turn, "seat": other}}, "illegal", t.ws[other])
    assert f"it is seat {mover}'s turn" in err["detail"]
    absent = next(str(c) for c in t.state.hand((mover + 2) % 5))
    err = refused({"type": "act", "v": t.v, "action": {"seat": mover, "type": "capture",
                                                        "play": [absent], "take": turn["take"]}},
                  "illegal", t.ws[mover])
    assert err["detail"] == _engine_says(t.state, {"seat": mover, "type": "capture", "play": [absent],
                                                      "take": turn["take"]})
    refused({"type": "act", "v": t.v, "action": {"seat": mover, "type": "lie_down"}}, "illegal",
            t.ws[mover])
    with client.websocket_connect("/ws") as stranger:
        refused({"type": "act", "v": t.v, "action": turn}, "not_joined", stranger)
        refused({"type": "join", "token": "A" * 32}, "bad_token", stranger)
        refused({"type": "join", "token": t.tokens[0][:-1]}, "bad_token", stranger)
        refused({"type": "join", "token": 12345}, "bad_token", stranger)
        refused({"type": "watch", "table": "nosuchtable"}, "no_table", stranger)
        stranger.send_json({"type": "watch", "table": t.id})
        assert recv(stranger)["role"] == "spectator"
        f = recv(stranger)
        assert f["you"] is None and f["view"]["hand"] == [] and f["legal"] == []
        refused({"type": "act", "v": t.v, "action": turn}, "spectator", stranger)
        refused({"type": "next_deal"}, "spectator", stranger)
        refused({"type": "leave"}, "spectator", stranger)
    # Nothing changed: no seat was sent a newer version, and the mover can still play.
    for s in range(5):
        while (m := poll(t.ws[s])) is not None:
            assert m["type"] != "state" or m["v"] == t.v
    refused({"type": "next_deal"}, "illegal", t.ws[mover])
    t.play(turn)


def test_reconnect_resumes_with_the_whole_history(client: TestClient, stack: contextlib.ExitStack) -> None:
    t = Humans(client, stack, seed=21)
    for _ in range(6):
        _claims_first(t)
    before_log, before = list(t.logs[3]), t.frames[3]
    t.ws[3].close()
    with client.websocket_connect("/ws") as again:
        again.send_json({"type": "join", "token": t.tokens[3]})
        assert recv(again)["seat"] == 3
        f = recv(again)
        assert f["reset"] and f["v"] == t.v
        assert [e["text"] for e in f["log"]] == before_log
        assert f["view"] == before["view"] and f["legal"] == before["legal"]
        again.send_json({"type": "lang", "lang": "de"})
        f = recv(again)
        assert f["reset"] and f["log"][0]["text"].startswith("Runde 1")


def test_leave_hands_the_seat_to_its_bot_and_take_brings_it_back(client: TestClient) -> None:
    data = create(client, 1, seed=4)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"]})
        recv(ws)
        ws.send_json({"type": "leave"})
        f = until(ws, lambda m: m["type"] == "state" and m["view"] is not None and m["view"]["over"])
        assert f["table"]["seats"][0]["human"] is False and f["legal"] == [] and not f["can_next"]
        ws.send_json({"type": "take"})
        # All bots now, so later deals began by themselves; the person plays on from here.
        f = until(ws, lambda m: m["type"] == "state" and m["table"]["seats"][0]["human"]
                  and (m["legal"] or m["can_next"] or m["session"]["over"]))
        assert f["session"]["over"] or f["legal"] or f["can_next"]


def test_an_expired_turn_is_played_by_the_seats_bot_and_the_log_says_so(
        clocked: TestClient, clock: ManualClock) -> None:
    client = clocked
    data = create(client, 1, seed=9, turn_seconds=5)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"]})
        recv(ws)
        turn = until(ws, lambda m: m["type"] == "state" and m["turn_deadline"] is not None)
        assert turn["turn_deadline"] == 5.0  # the clock stands
        timer_set(clock, 5)
        clock.advance(4.9)
        assert poll(ws) is None and hub_of(client).tables[data["table"]["id"]].version == turn["v"]
        clock.advance(0.1)
        f = until(ws, lambda m: m["type"] == "state" and any(e["kind"] == "timer" for e in m["log"]))
        line = next(e for e in f["log"] if e["kind"] == "timer")
        assert line["seat"] == 0 and "Seat 0" in line["text"]
        assert "beginner" in line["text"] and "random" not in line["text"]
    store: Store = client.app.state.hub.store  # type: ignore[attr-defined]
    table = store.load_tables(ids=[data["table"]["id"]])[0]
    assert any(
        src == "timer" and a["seat"] == 0 for deal in table.actions for a, src in deal)


def test_lobby_refuses_bad_tables_hides_the_oracle_and_keeps_tokens_secret(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "oracle", RandomBot)
    assert "oracle" not in client.get("/api/levels").json()
    for body in ({"preset": "classic"}, {"players": 6}, {"variants": ["loud"]},
                 {"seats": [{"human": True}] * 4}, {"seats": [{"level": "oracle"}] * 5},
                 {"turn_seconds": -1}, {"seed": "x"}, {"options": {"prize": -2}}, {"color": 1}):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["error"], body
    assert client.post("/api/tables", content=b"{", headers=JSON).status_code == 400
    tokens = []
    for _ in range(3):
        data = create(client, 2, players=4, preset="last-capture", variants=["silent"])
        people = [s for s in data["seats"] if s["human"]]
        assert len(people) == 2 and all("token" not in s and "url" not in s
                                        for s in data["seats"] if not s["human"])  # bots: no link
        tokens += [s["token"] for s in people] + [data["host"]["token"]]
        assert all(s["url"].endswith("#t=" + s["token"]) for s in people)
    assert len(set(tokens)) == len(tokens) and all(len(tok) >= 22 for tok in tokens)  # ≥ 128 bits
    listing = client.get("/api/tables").text
    assert not any(tok in listing for tok in tokens)
    assert len(json.loads(listing)) == 3


def test_records_of_finished_deals_only_and_the_replay_viewer(client: TestClient,
                                                              stack: contextlib.ExitStack) -> None:
    t = Humans(client, stack, seed=13)
    assert client.get(f"/api/tables/{t.id}/deals/0/record").status_code == 404
    while not t.state.over:
        _claims_first(t)
    text = client.get(f"/api/tables/{t.id}/deals/0/record?format=text").text
    assert text.startswith('[Format "lald-text/1"]')
    record = client.get(f"/api/tables/{t.id}/deals/0/record").text
    r = client.post("/api/replay?lang=es", content=record, headers=JSON)
    steps = r.json()["steps"]
    assert len(steps) == len(t.state.actions) + 1 and steps[-1]["over"]
    assert steps[0]["hands"] == [[str(c) for c in h] for h in
                                 (State.deal(t.rules, t.state.seed or 0, t.state.dealer).hand(s)
                                  for s in range(5))]
    bad = client.post("/api/replay", content=record.replace('"capture"', '"lie_down"', 1), headers=JSON)
    assert bad.status_code == 400 and bad.json()["error"].startswith("move ")


def test_pages_and_catalogs_are_served(client: TestClient) -> None:
    for path in ("/", "/play", "/replay", "/static/js/play.js", "/static/css/lald.css"):
        assert client.get(path).status_code == 200, path
    web_keys = {k for k in messages("en") if k.startswith("web_")}
    for lang in LANGUAGES:
        catalog = client.get(f"/api/i18n/{lang}").json()
        assert catalog["game_title"] and web_keys <= set(messages(lang)), lang
    assert client.get("/api/i18n/xx").status_code == 404
    used = set(re.findall(r"web_[a-z_]+", "".join(
        client.get(p).text for p in ("/", "/play", "/replay", "/static/js/play.js",
                                     "/static/js/lobby.js", "/static/js/replay.js"))))
    used = {k for k in used if not k.endswith("_")} | {f"web_status_{s}" for s in
                                                       ("playing", "lain_down", "empty")}
    assert used <= web_keys, used - web_keys
