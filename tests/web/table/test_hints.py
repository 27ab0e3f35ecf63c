"""Hints at a web table over the websocket: the expert's hint for a person's own seat (its
turn, or a claim it may make), the shared module's hint from the seat's view alone, in the
page's language, kept for its version; refused in words where there is none to give
(hints off, a lesson, a spectator, a bot's seat, a stale version, nothing to decide); and
bounded: one per seat at a time, a limit for the whole server, a time budget per hint."""

from __future__ import annotations

import contextlib
import itertools
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from lald.coach import hints as coach_hints
from lald.core import Action, Card, IllegalActionError, PlayerView, Rules, State, cards_of, parse_action
from lald.i18n import Catalog
from lald.web.server.app import create_app
from lald.web.settings import Settings
from lald.web.table import hints as web_hints
from lald.web.table.tables import Table
from lald.web.wire import action_kinds, action_words

from ..conftest import FAST, create, hub_of, poll, recv, until

EN, DE = Catalog("en"), Catalog("de")
#: Few worlds and a clock that never stops them: hints are quick and the same each time.
QUICK = Settings(**{**FAST.__dict__, "hint_worlds": 16, "hint_seconds": 30.0})


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'hints.db'}", QUICK)) as c:
        yield c


def joined(client: TestClient, ws: WebSocketTestSession, hints: bool = True, humans: int = 1,
           seed: int = 11, lang: str = "en") -> tuple[Table, dict[str, Any]]:
    """Seat 0 of a new table (bots elsewhere), joined: its table and welcome."""
    data = create(client, humans, seed=seed, hints=hints)
    ws.send_json({"type": "join", "token": data["seats"][0]["token"], "lang": lang})
    welcome = recv(ws)
    assert welcome["type"] == "welcome"
    return hub_of(client).tables[data["table"]["id"]], welcome


def my_turn(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next frame in which seat 0 is to move."""
    frame: dict[str, Any] = until(ws, lambda m: m["type"] == "state" and m["view"] is not None
                                  and not m["view"]["over"] and m["view"]["to_move"] == 0 and m["legal"])
    return frame


def answer(ws: WebSocketTestSession, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message``; the first reply that is not a state frame."""
    ws.send_json(message)
    while True:
        reply: dict[str, Any] = recv(ws)
        if reply["type"] != "state":
            return reply


def test_a_hint_is_the_shared_modules_from_the_seats_view_in_the_pages_language(quick: TestClient) -> None:
    with quick.websocket_connect("/ws") as ws:
        table, welcome = joined(quick, ws)
        assert welcome["hints"] is True and quick.get(f"/api/tables/{table.id}").json()["hints"] is True
        frame = my_turn(ws)
        assert frame["table"]["hints"] is True
        state = table.state
        assert state is not None
        view, legal = state.view(0), state.legal_actions(0)
        hint = answer(ws, {"type": "hint", "v": frame["v"]})
        assert hint["type"] == "hint" and hint["v"] == frame["v"] and hint["deal"] == frame["deal"]
        # The hint the terminal would give from this view (the review's seed, same budget).
        expected = coach_hints.advise(view, legal, worlds=QUICK.hint_worlds,
                                    time_limit=QUICK.hint_seconds)
        assert hint["hint"] == coach_hints.hint_json(expected)
        assert expected.action is not None
        assert frame["legal"][hint["index"]] == expected.action.to_json()
        assert hint["text"].startswith("Hint: ") and "\n" not in hint["text"]
        assert expected.reason.text(EN) in hint["text"]
        # Kept for its version: asked again, in another language, the same hint in its words.
        ws.send_json({"type": "lang", "lang": "de"})
        again = answer(ws, {"type": "hint", "v": frame["v"]})
        assert again["index"] == hint["index"] and again["hint"] == hint["hint"]
        assert again["text"].startswith(DE.t("hint_do", action="").split(":")[0])
        assert expected.reason.text(DE) in again["text"]
        # Asking changed nothing at the table; the move it names is one the engine takes.
        assert table.version == frame["v"]
        ws.send_json({"type": "act", "v": frame["v"], "action": frame["legal"][hint["index"]]})
        until(ws, lambda m: m["type"] == "state" and m["v"] > frame["v"])
        assert state.actions[-1] == expected.action or table.version > frame["v"]


def _same_view_other_hands(state: State, seat: int) -> State:
    """The deal of ``state`` with a hidden card of two other seats swapped, replayed to now:
    other hands, the same view for ``seat``."""
    holders = [s for s in range(state.n) if s != seat and state.hands[s]]
    for a, b in itertools.combinations(holders, 2):
        for ca, cb in itertools.product(cards_of(state.hands[a]), cards_of(state.hands[b])):
            if ca.rank == cb.rank:
                continue
            hands = [list(cards_of(h)) for h in state.dealt_hands]
            hands[a][hands[a].index(ca)], hands[b][hands[b].index(cb)] = cb, ca
            other = State.from_layout(state.rules, hands, cards_of(state.dealt_table), state.dealer)
            try:
                for action in state.actions:
                    other.apply(action)
            except IllegalActionError:
                continue
            if other.view(seat) == state.view(seat):
                assert other.hands != state.hands
                return other
    raise AssertionError("no other deal looks the same from the seat")


def test_the_hint_frame_is_the_same_whatever_the_other_hands(quick: TestClient) -> None:
    # The same table at the same version, its deal swapped for one with other hidden hands
    # that looks the same from seat 0: the hint message is the same, byte for byte.
    with quick.websocket_connect("/ws") as ws:
        table, _ = joined(quick, ws, seed=13)
        frame = my_turn(ws)
        state = table.state
        assert state is not None and table.session.current is state
        first = answer(ws, {"type": "hint", "v": frame["v"]})
        assert first["type"] == "hint"
        other = _same_view_other_hands(state, 0)
        table.session.deals[-1] = table.session.current = other
        hub_of(quick).hints.made.clear()  # no kept hint: made again, from the other deal
        again = answer(ws, {"type": "hint", "v": frame["v"]})
        assert json.dumps(again, sort_keys=True) == json.dumps(first, sort_keys=True)
        assert table.state is other and other.hands != state.hands


def test_the_hint_is_made_from_frozen_copies_of_the_seats_view(quick: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Any, tuple[Action, ...], dict[str, Any]]] = []
    real = web_hints.advise

    def spy(view: PlayerView, legal: tuple[Action, ...], **budget: Any) -> coach_hints.Hint:
        seen.append((view, legal, budget))
        return real(view, legal, **budget)

    monkeypatch.setattr(web_hints, "advise", spy)
    with quick.websocket_connect("/ws") as ws:
        table, _ = joined(quick, ws)
        frame = my_turn(ws)
        assert table.state is not None
        truth = table.state.view(0)
        assert answer(ws, {"type": "hint", "v": frame["v"]})["type"] == "hint"
    ((view, legal, budget),) = seen
    # Never the state: the seat's own view (no other hand in it) and its legal actions.
    assert type(view) is PlayerView and view == truth and isinstance(legal, tuple)
    assert [a.to_json() for a in legal] == frame["legal"]
    assert budget["worlds"] == QUICK.hint_worlds and budget["time_limit"] == QUICK.hint_seconds


def test_a_claim_window_out_of_turn_gets_a_hint_and_letting_it_pass_is_one(quick: TestClient) -> None:
    # Five people (the test's sockets) play on until seat 0 may claim while another seat is
    # to move; nobody else moves meanwhile, so the window stays open while it is asked.
    data = create(quick, 5, seed=5, hints=True)
    table = hub_of(quick).tables[data["table"]["id"]]
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(quick.websocket_connect("/ws")) for _ in range(5)]
        for s, ws in enumerate(socks):
            ws.send_json({"type": "join", "token": data["seats"][s]["token"]})
            recv(ws)
        windows = 0
        for _ in range(400):
            state = table.state
            if state is None or state.over:
                if table.session.over:
                    break
                v = table.version
                socks[0].send_json({"type": "next_deal"})
                until(socks[0], lambda m, v=v: m["type"] == "state" and m["v"] > v)
                continue
            mover = state.to_move
            assert mover is not None
            if mover != 0 and state.claims(0):
                hint = answer(socks[0], {"type": "hint", "v": table.version})
                assert hint["type"] == "hint" and hint["v"] == table.version, hint
                if hint["index"] is None:
                    assert hint["hint"]["action"] is None
                    assert hint["text"].startswith(EN.t("hint_do", action=EN.t("act_pass")))
                    assert hint["text"].split(". ", 1)[1].startswith(EN.t("why_pass"))
                else:
                    legal = state.legal_actions(0)
                    assert legal[hint["index"]].to_json() == hint["hint"]["action"]
                    assert hint["hint"]["action"]["type"] == "claim"
                windows += 1
                if windows == 3:
                    break
            turn = state.turn_actions()
            v = table.version
            socks[mover].send_json({"type": "act", "v": v, "action": turn[-1].to_json()})
            until(socks[mover], lambda m, v=v: m["type"] == "state" and m["v"] > v)
            for ws in socks:  # nobody's frames pile up
                while poll(ws) is not None:
                    pass
        assert windows == 3


def test_a_hint_is_refused_in_words_where_there_is_none_to_give(quick: TestClient) -> None:
    with quick.websocket_connect("/ws") as off, quick.websocket_connect("/ws") as on, \
            quick.websocket_connect("/ws") as spectator, quick.websocket_connect("/ws") as learner:
        plain, welcome = joined(quick, off, hints=False)
        assert welcome["hints"] is False
        frame = my_turn(off)
        refusal = answer(off, {"type": "hint", "v": frame["v"]})
        assert (refusal["code"], refusal["message"]) == ("hints_off", EN.t("web_error_hints_off"))
        table, _ = joined(quick, on, seed=12)
        frame = my_turn(on)
        cases: list[tuple[dict[str, Any], str, str]] = [
                ({"type": "hint"}, "malformed", "web_error_hint_fields"),
                ({"type": "hint", "v": "1"}, "malformed", "web_error_version"),
                ({"type": "hint", "v": True}, "malformed", "web_error_version"),
                ({"type": "hint", "v": frame["v"], "seat": 1}, "malformed", "web_error_fields"),
                ({"type": "hint", "v": frame["v"] - 1}, "stale", "web_error_stale")]
        for message, code, key in cases:
            refusal = answer(on, message)
            assert (refusal["code"], refusal["message"]) == (code, EN.t(key)), message
        assert table.version == frame["v"]
        # A spectator has no seat; a seat its bot plays has no decision of a person's.
        spectator.send_json({"type": "watch", "table": table.id})
        recv(spectator)
        assert answer(spectator, {"type": "hint", "v": frame["v"]})["code"] == "spectator"
        on.send_json({"type": "leave"})
        refusal = answer(on, {"type": "hint", "v": table.version})
        assert refusal["code"] == "bot_seat"
        # A lesson marks its own move: it gives no hints.
        lesson = quick.post("/api/lessons", json={}).json()
        learner.send_json({"type": "join", "token": lesson["token"]})
        assert recv(learner)["hints"] is False
        first = until(learner, lambda m: m["type"] == "state" and m["legal"])
        assert answer(learner, {"type": "hint", "v": first["v"]})["code"] == "hints_off"


def test_no_hint_while_another_person_is_to_move(quick: TestClient) -> None:
    # Two people who do not move: once one of them is to move, the other has nothing to
    # decide (no claim windows at this server), and the table waits.
    data = create(quick, 2, seed=3, hints=True)
    table = hub_of(quick).tables[data["table"]["id"]]
    with quick.websocket_connect("/ws") as zero, quick.websocket_connect("/ws") as one:
        for ws, seat in ((zero, 0), (one, 1)):
            ws.send_json({"type": "join", "token": data["seats"][seat]["token"]})
            recv(ws)
        frame = until(zero, lambda m: m["type"] == "state" and m["view"] is not None
                      and m["view"]["to_move"] in (0, 1))
        mover = frame["view"]["to_move"]
        idle = one if mover == 0 else zero
        v = table.version
        mine = (frame if idle is zero and frame["v"] == v
                else until(idle, lambda m: m["type"] == "state" and m["v"] == v))
        assert not mine["legal"]
        refusal = answer(idle, {"type": "hint", "v": v})
        assert (refusal["code"], refusal["message"]) == ("not_now", EN.t("web_error_no_decision"))
        # The person to move gets one; asking changed nothing.
        assert answer(one if mover == 1 else zero, {"type": "hint", "v": v})["type"] == "hint"
        assert table.version == v


@pytest.mark.parametrize("body", [{"hints": "yes"}, {"hints": 1}, {"hints": None}])
def test_the_hints_setting_is_true_or_false(quick: TestClient, body: dict[str, Any]) -> None:
    before = len(hub_of(quick).tables)
    r = quick.post("/api/tables", json=body)
    assert r.status_code == 400 and "\n" not in r.json()["error"] and len(hub_of(quick).tables) == before


class Gate:
    """A hint that waits until it is let go (to hold the expert busy)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.go = threading.Event()
        self.started = threading.Semaphore(0)
        real = web_hints.advise

        def held(view: PlayerView, legal: tuple[Action, ...], **budget: Any) -> coach_hints.Hint:
            self.started.release()
            assert self.go.wait(20)
            return real(view, legal, **budget)

        monkeypatch.setattr(web_hints, "advise", held)


def test_one_hint_per_seat_at_a_time_and_a_bound_for_the_server(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate(monkeypatch)
    settings = Settings(**{**QUICK.__dict__, "hint_queue": 2})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", settings)) as client:
        with contextlib.ExitStack() as stack:
            stack.callback(gate.go.set)
            socks = [stack.enter_context(client.websocket_connect("/ws")) for _ in range(3)]
            frames = []
            for i, ws in enumerate(socks):
                joined(client, ws, seed=20 + i)
                frames.append(my_turn(ws))
            socks[0].send_json({"type": "hint", "v": frames[0]["v"]})
            assert gate.started.acquire(timeout=10)
            refusal = answer(socks[0], {"type": "hint", "v": frames[0]["v"]})
            assert (refusal["code"], refusal["message"]) == ("hint_pending", EN.t("web_error_hint_pending"))
            socks[1].send_json({"type": "hint", "v": frames[1]["v"]})
            time.sleep(0.05)
            # Two hints wait or are made: a third is refused until one is done.
            refusal = answer(socks[2], {"type": "hint", "v": frames[2]["v"]})
            assert (refusal["code"], refusal["message"]) == ("busy", EN.t("web_error_hint_busy"))
            gate.go.set()
            assert answer(socks[0], {"type": "ping"})["type"] in ("hint", "pong")
            for ws, frame in zip(socks[:2], frames[:2], strict=True):
                until(ws, lambda m, v=frame["v"]: m["type"] == "hint" and m["v"] == v)
            assert answer(socks[2], {"type": "hint", "v": frames[2]["v"]})["type"] == "hint"


def test_a_hint_asked_as_the_table_moves_on_is_made_once_the_older_one_is_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's claim can move the table on during the seat's turn while its hint is being
    made; the page asks again at the new version. That hint comes once the older one is
    done (seen before: refused as 'still weighing your moves', and no hint came)."""
    gate = Gate(monkeypatch)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'm.db'}", QUICK)) as client, \
            client.websocket_connect("/ws") as ws:
        try:
            table, _ = joined(client, ws)
            frame = my_turn(ws)
            ws.send_json({"type": "hint", "v": frame["v"]})
            assert gate.started.acquire(timeout=10)
            table.version += 1  # the table moves on; the seat still has its decision
            ws.send_json({"type": "hint", "v": frame["v"] + 1})
            gate.go.set()
            newer = until(ws, lambda m: m["type"] == "hint" and m["v"] == frame["v"] + 1)
            assert newer["text"].startswith("Hint: ")
        finally:
            gate.go.set()


def test_a_hint_past_its_time_is_given_up_in_words_and_its_seat_waits_for_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate(monkeypatch)
    settings = Settings(**{**QUICK.__dict__, "hint_seconds": 0.01})  # the guard: 1 second
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", settings)) as client, \
            client.websocket_connect("/ws") as ws:
        try:
            joined(client, ws)
            frame = my_turn(ws)
            started = time.monotonic()
            refusal = answer(ws, {"type": "hint", "v": frame["v"]})
            assert (refusal["code"], refusal["message"]) == ("hint_failed", EN.t("web_error_hint_failed"))
            assert 0.9 < time.monotonic() - started < 5
            # The thread is still at work: the seat's next hint waits for it, not beside it.
            assert answer(ws, {"type": "hint", "v": frame["v"]})["code"] == "hint_pending"
            gate.go.set()
            deadline = time.monotonic() + 10
            while (reply := answer(ws, {"type": "hint", "v": frame["v"]}))["type"] != "hint":
                assert reply["code"] == "hint_pending" and time.monotonic() < deadline
                time.sleep(0.05)
        finally:
            gate.go.set()


def test_a_failing_expert_is_said_in_words_and_the_table_plays_on(quick: TestClient,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(view: PlayerView, legal: tuple[Action, ...], **budget: Any) -> coach_hints.Hint:
        raise RuntimeError("a defect")

    monkeypatch.setattr(web_hints, "advise", broken)
    with quick.websocket_connect("/ws") as ws:
        table, _ = joined(quick, ws)
        frame = my_turn(ws)
        refusal = answer(ws, {"type": "hint", "v": frame["v"]})
        assert (refusal["code"], refusal["message"]) == ("hint_failed", EN.t("web_error_hint_failed"))
        turn = [a for a in frame["legal"] if a["type"] != "claim"]
        ws.send_json({"type": "act", "v": frame["v"], "action": turn[0]})
        until(ws, lambda m: m["type"] == "state" and m["v"] > frame["v"])
        assert table.version > frame["v"]


# -- the message and its words, without a server ------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de", "es", "pt"])
def test_the_hint_message_is_the_move_in_the_buttons_words_and_the_reason(lang: str) -> None:
    catalog = Catalog(lang)
    state = State.deal(Rules.make(), seed=4)
    seat = state.to_move
    assert seat is not None
    legal = state.legal_actions(seat)
    kinds = action_kinds(state, legal)
    for index, (action, kind) in enumerate(zip(legal, kinds, strict=True)):
        hint = coach_hints.Hint(seat, action, coach_hints.Reason("why_trail"), "expert", worth=0.5,
                              margin=0.25, weighed=True)
        made = web_hints.Made(7, 2, hint, index, kind, state.hand(seat))
        message = made.message(catalog)
        words = action_words(action, kind, state.hand(seat), catalog)
        assert set(message) == {"type", "v", "deal", "index", "text", "hint"}
        assert (message["type"], message["v"], message["deal"], message["index"]) == ("hint", 7, 2, index)
        assert message["text"] == coach_hints.hint_text(hint, words, catalog)
        assert message["text"].startswith(catalog.t("hint_do", action=words))
        assert catalog.t("why_trail") in message["text"] and "\n" not in message["text"]
        assert message["hint"] == coach_hints.hint_json(hint)
        assert json.loads(json.dumps(message)) == message
    # Letting the claims pass: no move, no index.
    passing = coach_hints.Hint(seat, None, coach_hints.Reason("why_pass"), "expert")
    message = web_hints.Made(7, 2, passing, None, None, state.hand(seat)).message(catalog)
    assert message["index"] is None and message["hint"]["action"] is None
    assert message["text"].startswith(catalog.t("hint_do", action=catalog.t("act_pass")))


def test_a_moves_words_are_the_buttons_for_every_kind() -> None:
    hand = [Card.parse(c) for c in ("7S", "7H", "QC")]
    cases = [
        (parse_action("1: 7S x 7D"), "single", EN.t("act_single", play="7♠", take="7♦")),
        (parse_action("1: QC x QD QH QS"), "sweep", EN.t("act_sweep", play="Q♣", take="Q♦ Q♥ Q♠")),
        (parse_action("1: 7S 7H x 7D 7C"), "pair", EN.t("act_pair", play="7♠ 7♥", take="7♦ 7♣")),
        (parse_action("1: trail QC"), None, EN.t("act_trail", card="Q♣")),
        (parse_action("1: claim 7S 7H"), "hand_set", EN.t("act_claim_set", cards="7♠ 7♥")),
        (parse_action("1: claim 9D 9C"), "dead", EN.t("act_claim_dead", cards="9♦ 9♣")),
        (parse_action("1: claim 9D 9C"), None, EN.t("act_claim_spot", cards="9♦ 9♣")),
        (parse_action("1: lie down"), None, EN.t("act_lie_down_count", cards="7♠ 7♥ Q♣", count=3)),
    ]
    for action, kind, words in cases:
        assert action_words(action, kind, hand, EN) == words, action
