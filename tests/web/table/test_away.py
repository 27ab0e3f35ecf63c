"""A person who drops without pressing Leave: after ``away_seconds`` the seat's stand-in
(the bot of its level) plays for them while another person is at the table, the others'
frames say whom the table waits for and for how long, and the seat is theirs again the
moment they are back. A stand-in never acts for a connected person, and a move its person
made is never lost to it. (Seen before: with no turn timer, a closed tab on that person's
turn left everyone else at "<name> to move." for good.)"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from lald.clock import ManualClock
from lald.store import Store
from lald.web.server.app import create_app
from lald.web.settings import Settings
from lald.web.table import tables

from ..conftest import FAST, create, hub_of, poll, recv

AWAY = Settings(**{**FAST.__dict__, "away_seconds": 0.3})


class Player:
    """One person's page: keeps its latest frame and log, and plays its first turn move
    on its turn (unless told not to)."""

    def __init__(self, ws: WebSocketTestSession, seat: int, auto: bool = True) -> None:
        self.ws, self.seat, self.auto = ws, seat, auto
        self.frame: dict[str, Any] | None = None
        self.frames: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.acted = -1

    def pump(self) -> None:
        while (m := poll(self.ws)) is not None:
            if m["type"] == "state":
                self.frame = m
                self.frames.append(m)
                self.log = m["log"] if m["reset"] else self.log + m["log"]
            elif m["type"] == "error":
                assert m["code"] == "stale", m  # a frame behind a move already made
        if self.auto and self.my_turn():
            self.play()

    def my_turn(self) -> bool:
        f = self.frame
        return (f is not None and f["view"] is not None and not f["view"]["over"]
                and f["view"]["to_move"] == self.seat and bool(self.turn_moves()) and f["v"] != self.acted)

    def turn_moves(self) -> list[dict[str, Any]]:
        assert self.frame is not None
        return [a for a in self.frame["legal"] if a["type"] != "claim"]

    def play(self) -> None:
        assert self.frame is not None
        self.ws.send_json({"type": "act", "v": self.frame["v"], "action": self.turn_moves()[0]})
        self.acted = self.frame["v"]


def join(ws: WebSocketTestSession, token: str) -> None:
    ws.send_json({"type": "join", "token": token})
    assert recv(ws)["type"] == "welcome"


def wait(players: list[Player], pred: Callable[[], bool], timeout: float = 20.0,
         clock: ManualClock | None = None) -> None:
    """Pump every page until ``pred()`` holds (moving ``clock``, if given, 50 ms a round)."""
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "waited in vain"
        for p in players:
            p.pump()
        if clock is not None:
            clock.advance(0.05)
        time.sleep(0.005)


def over(p: Player) -> bool:
    return p.frame is not None and p.frame["view"] is not None and p.frame["view"]["over"]


def sources(client: TestClient, table_id: str, seat: int) -> list[str]:
    store: Store = hub_of(client).store
    stored = store.load_tables(ids=[table_id])[0]
    return [src for deal in stored.actions for action, src in deal if action["seat"] == seat]


@pytest.fixture
def away(tmp_path: Path) -> Any:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'away.db'}", AWAY)) as c:
        yield c


@pytest.fixture
def away_clock(tmp_path: Path) -> Any:
    """The app of :func:`away` on a clock that moves only when the test moves it."""
    clock = ManualClock()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'away.db'}", AWAY, clock=clock)) as c:
        yield c, clock


def test_a_person_who_drops_is_played_for_after_the_grace_and_the_others_are_told(
        away: TestClient) -> None:
    data = create(away, [True, True, False], players=3, seed=5)
    table_id = data["table"]["id"]
    with away.websocket_connect("/ws") as wa:
        join(wa, data["seats"][0]["token"])
        with away.websocket_connect("/ws") as wb:
            join(wb, data["seats"][1]["token"])
        a = Player(wa, 0)
        wait([a], lambda: a.frame is not None and a.frame["waiting_for"] is not None)
        assert a.frame is not None
        waiting = a.frame["waiting_for"]
        assert waiting["seat"] == 1 and a.frame["view"]["to_move"] == 1
        assert not a.frame["table"]["seats"][1]["online"]
        assert 0 <= waiting["away"] and 0 < waiting["stand_in"] <= AWAY.away_seconds
        assert a.frame["stand_ins"] == []
        wait([a], lambda: over(a))
        line = next(e for e in a.log if e["kind"] == "away")
        assert line["seat"] == 1 and "Seat 1" in line["text"]
        assert "beginner" in line["text"] and "random" not in line["text"]
        assert sum(e["kind"] == "away" for e in a.log) == 1  # said once, not at every move
        assert any(f["stand_ins"] == [1] for f in a.frames)
    said = sources(away, table_id, 1)
    assert said and set(said) == {"away"}


def test_the_table_waits_while_nobody_else_is_there_and_before_the_grace(tmp_path: Path) -> None:
    slow = Settings(**{**FAST.__dict__, "away_seconds": 45.0})
    clock = ManualClock()
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}", slow, clock=clock)) as client:
        data = create(client, [True, True, False], players=3, seed=5)
        table = hub_of(client).tables[data["table"]["id"]]
        with client.websocket_connect("/ws") as wa:
            join(wa, data["seats"][0]["token"])
            with client.websocket_connect("/ws") as wb:
                join(wb, data["seats"][1]["token"])
            a = Player(wa, 0)
            wait([a], lambda: a.frame is not None and a.frame["waiting_for"] is not None)
            assert a.frame is not None and a.frame["waiting_for"]["stand_in"] == 45  # the clock stands
            version = table.version
            clock.advance(44.9)
            assert table.version == version  # the grace is not over
            assert pytest.approx(0.1) in clock.pending()  # the stand-in's timer: due in 0.1 s
        # Nobody else at the table: nobody waits, so no stand-in plays, grace or not.
        table.settings = AWAY
        client.portal.call(table.notify)
        clock.advance(600)
        assert table.version == version and table.state is not None and table.state.to_move == 1


def test_coming_back_gives_the_seat_back_at_once(away_clock: tuple[TestClient, ManualClock]) -> None:
    away, clock = away_clock
    data = create(away, [True, True, False], players=3, seed=5)
    table = hub_of(away).tables[data["table"]["id"]]
    with away.websocket_connect("/ws") as wa:
        join(wa, data["seats"][0]["token"])
        with away.websocket_connect("/ws") as wb:
            join(wb, data["seats"][1]["token"])
        a = Player(wa, 0)
        wait([a], lambda: any(e["kind"] == "away" for e in a.log), clock=clock)
        with away.websocket_connect("/ws") as again:
            join(again, data["seats"][1]["token"])
            b = Player(again, 1, auto=False)
            wait([a, b], lambda: b.my_turn() or over(b))
            if over(b):
                pytest.skip("the deal ended before seat 1 was to move again")
            assert b.frame is not None and b.frame["waiting_for"] is None and b.frame["stand_ins"] == []
            before = len(moves(table))
            clock.advance(3 * AWAY.away_seconds)
            wait([a, b], lambda: True)
            assert moves(table)[before:] == [] and b.my_turn()  # nobody played for B
            b.play()
            wait([a, b], lambda: len(moves(table)) > before)
            assert moves(table)[before] == (1, "human")
            assert (1, "away") in moves(table)[:before]


@pytest.mark.parametrize("moves_first", [True, False])
def test_a_stand_in_thinking_when_its_person_comes_back_does_not_act(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moves_first: bool) -> None:
    """The stand-in thinks in a worker thread; its person comes back meanwhile (and, or
    not, plays at once): the stand-in's move is dropped, the person's kept."""
    monkeypatch.setattr(tables.THINK_TIMES, "quick", lambda kind: False)
    threaded = Settings(**{**AWAY.__dict__, "threaded_bots": True})
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", threaded)) as client:
        data = create(client, [True, True, False], players=3, seed=5)
        table = hub_of(client).tables[data["table"]["id"]]
        thinking, release = threading.Event(), threading.Event()
        act = table.bots[1].act

        def slow(view: Any, legal: Any) -> Any:
            thinking.set()
            assert release.wait(20)
            return act(view, legal)

        table.bots[1].act = slow  # type: ignore[method-assign]
        with client.websocket_connect("/ws") as wa:
            join(wa, data["seats"][0]["token"])
            with client.websocket_connect("/ws") as wb:
                join(wb, data["seats"][1]["token"])
            a = Player(wa, 0)
            wait([a], thinking.is_set)
            before = len(moves(table))
            with client.websocket_connect("/ws") as again:
                join(again, data["seats"][1]["token"])
                b = Player(again, 1, auto=False)
                wait([a, b], b.my_turn)
                if moves_first:
                    b.play()
                    wait([a, b], lambda: len(moves(table)) > before)
                release.set()
                time.sleep(0.3)
                wait([a, b], lambda: True)
                if not moves_first:
                    assert moves(table)[before:] == [] and b.my_turn()
                    b.play()
                    wait([a, b], lambda: len(moves(table)) > before)
                after = moves(table)[before:]
                assert after[0] == (1, "human") and (1, "away") not in after


def moves(table: tables.Table) -> list[tuple[int, str]]:
    """Who made each move of the deal in play, and from where (the table's memory)."""
    state = table.state
    assert state is not None
    return [(action.seat, source) for action, source in zip(state.actions, table.sources[-1], strict=True)]
