"""The lesson at a web table, through Starlette's test client: ``POST /api/lessons``, the
learner's frames carrying each note at its moment, every other move refused with the
lesson's sentence and nothing changed, play held for a note until ``go_on``, the
settlement explained and the offer after it; lessons listed nowhere, limited as tables
are, closed when idle, and resumed after a restart."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from lald.clock import ManualClock
from lald.coach.lesson import Lesson
from lald.core import action_from_json
from lald.i18n import LANGUAGES, Catalog
from lald.web.server.app import create_app
from lald.web.settings import Settings
from lald.web.table.lesson import default_names, note_words

from ..conftest import FAST, create, hub_of, poll, recv

EN = Catalog("en")
#: The moments (actions made) at which play stands still for the learner to read: another
#: seat lay down; the learner lay down; a dead-rank claim; a seat out of cards.
HELD = (5, 16, 17, 19)


def open_lesson(client: TestClient) -> dict[str, Any]:
    r = client.post("/api/lessons", json={})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


class Learner:
    """The learner's page over the websocket."""

    def __init__(self, ws: WebSocketTestSession, token: str, lang: str = "en") -> None:
        self.ws = ws
        ws.send_json({"type": "join", "token": token, "lang": lang})
        welcome = recv(ws)
        assert welcome["type"] == "welcome" and welcome["lesson"] is True and welcome["seat"] == 0
        self.frame: dict[str, Any] = {}

    def at(self, moment: int | None = None, over: bool = False) -> dict[str, Any]:
        """The first frame of the deal at ``moment`` (or over); fail on an error."""
        deadline = time.monotonic() + 10
        while True:
            m = recv(self.ws, max(0.01, deadline - time.monotonic()))
            assert m["type"] != "error", m
            if m["type"] == "state" and m["lesson"] is not None:
                self.frame = m
                lesson = m["lesson"]
                if (over and lesson["over"]) or (not over and lesson["moment"] == moment):
                    return m

    def refused(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message``: it must be refused, with no newer picture of the table."""
        self.ws.send_json(message)
        while (reply := recv(self.ws))["type"] == "state":
            assert reply["v"] == self.frame["v"], reply
        assert reply["type"] == "error", reply
        return reply


def texts(lesson: Lesson, moment: int, catalog: Catalog) -> dict[str, list[str]]:
    """What the lesson says at ``moment`` of its script, by note key, in words."""
    state = lesson.start()
    for action in lesson.script[:moment]:
        state.apply(action)
    names = default_names(catalog, 5)
    return {n.key: [note_words(n, state, names, catalog)] for n in lesson.notes(state)}


def test_the_whole_lesson_each_note_at_its_moment_other_moves_refused(client: TestClient) -> None:
    lesson = Lesson()
    data = open_lesson(client)
    table = hub_of(client).tables[data["table"]["id"]]
    with client.websocket_connect("/ws") as ws:
        me = Learner(ws, data["token"])
        told_at: dict[int, set[str]] = {}
        refusals = 0
        for moment, action in enumerate(lesson.script):
            if action.seat != 0 and moment not in HELD:
                continue
            frame = me.at(moment)
            said = texts(lesson, moment, EN)
            part = frame["lesson"]
            shown = part["welcome"] + part["told"] + ([part["do"]] if part["do"] else [])
            # Every note of this moment is on the learner's screen.
            for key, words in said.items():
                assert words[0] in shown, (moment, key, shown)
            told_at[moment] = set(said)
            if moment in HELD:
                # Play stands still for the note: no bot moves, no other move is taken; the
                # table's driver has nothing to do but wait for a change.
                assert part["held"] and part["do"] is None
                assert client.portal.call(table.plan) == (0.0, None)
                assert poll(ws) is None and table.version == frame["v"]
                legal = frame["legal"]
                if legal:
                    assert me.refused({"type": "act", "v": frame["v"], "action": legal[0]})["message"] \
                        == EN.t("lesson_wait")
                ws.send_json({"type": "go_on"})
                continue
            assert not part["held"]
            expected = frame["legal"][part["expected"]]
            assert action_from_json(expected).seat == 0
            assert table.state is not None and lesson.refusal(table.state, action_from_json(expected)) is None
            # Any other move is refused with the lesson's sentence, and nothing changes.
            before = (table.version, len(table.entries))
            for other in [a for i, a in enumerate(frame["legal"]) if i != part["expected"]][:2]:
                reply = me.refused({"type": "act", "v": frame["v"], "action": other})
                assert reply["code"] == "lesson"
                refusals += 1
                assert reply["message"] == texts(lesson, moment, EN)["lesson_do"][0].replace(
                    EN.t("lesson_do", move=""), EN.t("lesson_try", move=""))
            assert (table.version, len(table.entries)) == before
            assert me.refused({"type": "go_on"})["code"] == "not_now"
            ws.send_json({"type": "act", "v": frame["v"], "action": expected})
        assert sorted(told_at) == [0, 1, 3, 5, 7, 11, 15, 16, 17, 19] and refusals >= 4
        # Each of the lesson's rules was explained when it first became possible.
        explained = set().union(*told_at.values())
        for key in ("lesson_welcome", "lesson_single", "lesson_hand_set", "lesson_spotter",
                    "lesson_lay_down_seen", "lesson_sweep", "lesson_pair_later", "lesson_lie_down",
                    "lesson_lain_down", "lesson_dead_seen", "lesson_out_of_cards"):
            assert key in explained, key
        end = me.at(over=True)
        part = end["lesson"]
        assert part["end"] == [EN.t("lesson_settlement"), EN.t("lesson_next")]
        assert end["session"]["over"] and not end["can_next"] and end["legal"] == []
        assert [e["kind"] for e in end["log"]].count("winner") == 0
    assert table.status == "over"
    # The lesson's deal is a deal like any other: its record replays.
    record = client.get(f"/api/tables/{table.id}/deals/0/record")
    assert record.status_code == 200
    assert client.post("/api/replay", content=record.content,
                       headers={"Content-Type": "application/json"}).status_code == 200


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lesson_speaks_the_pages_language(client: TestClient, lang: str) -> None:
    lesson = Lesson()
    data = open_lesson(client)
    catalog = Catalog(lang)
    with client.websocket_connect("/ws") as ws:
        me = Learner(ws, data["token"], lang)
        part = me.at(0)["lesson"]
        said = texts(lesson, 0, catalog)
        assert part["welcome"] == said["lesson_welcome"]
        assert part["told"] == said["lesson_single"] + said["lesson_hand_set"]
        assert part["do"] == said["lesson_do"][0]
        assert me.frame["table"]["names"] == default_names(catalog, 5)
        if lang != "en":
            ws.send_json({"type": "lang", "lang": "en"})
            assert me.at(0)["lesson"]["do"] == texts(lesson, 0, EN)["lesson_do"][0]


def test_only_the_learner_is_told_the_lesson_and_lessons_are_listed_nowhere(client: TestClient) -> None:
    data = open_lesson(client)
    table_id = data["table"]["id"]
    normal = create(client, 1)
    assert [t["id"] for t in client.get("/api/tables").json()] == [normal["table"]["id"]]
    summary = client.get(f"/api/tables/{table_id}").json()
    assert summary["lesson"] is True and summary["practice"] is False
    assert client.get(f"/api/tables/{normal['table']['id']}").json()["lesson"] is False
    assert "host" not in data and data["url"].endswith("/play#t=" + data["token"])
    with client.websocket_connect("/ws") as learner, client.websocket_connect("/ws") as spectator:
        Learner(learner, data["token"]).at(0)
        spectator.send_json({"type": "watch", "table": table_id})
        assert recv(spectator)["lesson"] is True
        frame = recv(spectator)
        assert frame["lesson"] is None and frame["legal"] == []
        spectator.send_json({"type": "go_on"})
        assert recv(spectator)["code"] == "spectator"
    with client.websocket_connect("/ws") as other:
        other.send_json({"type": "join", "token": normal["seats"][0]["token"]})
        recv(other)
        other.send_json({"type": "go_on"})
        while (m := recv(other))["type"] == "state":
            pass
        assert m["code"] == "not_now" and m["message"] == EN.t("web_error_no_lesson")


@pytest.mark.parametrize("body", [b"[]", b'{"name": "Anne"}', b'"lesson"', b"null", b"{", b'{"seats": []}'])
def test_bad_lesson_requests_are_refused_in_words(client: TestClient, body: bytes) -> None:
    before = len(hub_of(client).tables)
    r = client.post("/api/lessons", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "\n" not in r.json()["error"], r.text
    assert len(hub_of(client).tables) == before
    plain = client.post("/api/lessons", content=b"{}", headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415
    assert client.get("/api/lessons").status_code == 405


def test_lessons_count_against_the_limit_tables_have(tmp_path: Path) -> None:
    settings = Settings(**{**FAST.__dict__, "create_burst": 3, "create_rate": 1 / 3600})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'r.db'}", settings)) as client:
        open_lesson(client)
        create(client, 1)
        open_lesson(client)
        for path in ("/api/lessons", "/api/tables"):
            r = client.post(path, json={})
            assert r.status_code == 429 and r.headers["Retry-After"], r.text
        assert len(hub_of(client).tables) == 3


def test_an_idle_lesson_is_closed(tmp_path: Path) -> None:
    settings = Settings(**{**FAST.__dict__, "idle_seconds": 300, "reap_every": 60})
    clock = ManualClock()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'idle.db'}", settings, clock=clock)) as client:
        data = open_lesson(client)
        with client.websocket_connect("/ws") as ws:
            Learner(ws, data["token"]).at(0)
        clock.advance(240)
        assert client.get(f"/api/tables/{data['table']['id']}").json()["status"] != "closed"
        clock.advance(120)  # idle for 360 s: the reaper, every 60 s, closes it
        deadline = time.monotonic() + 10
        while client.get(f"/api/tables/{data['table']['id']}").json()["status"] != "closed":
            assert time.monotonic() < deadline, "the idle lesson was not closed"
            time.sleep(0.05)


def test_a_lesson_resumes_where_it_was_after_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'lesson.db'}"
    lesson = Lesson()
    with TestClient(create_app(db, FAST)) as client:
        data = open_lesson(client)
        with client.websocket_connect("/ws") as ws:
            me = Learner(ws, data["token"])
            for moment in (0, 1):
                frame = me.at(moment)
                expected = frame["legal"][frame["lesson"]["expected"]]
                ws.send_json({"type": "act", "v": frame["v"], "action": expected})
            me.at(3)
    with TestClient(create_app(db, FAST)) as client, client.websocket_connect("/ws") as ws:
        me = Learner(ws, data["token"])
        frame = me.at(3)
        assert frame["lesson"]["do"] == texts(lesson, 3, EN)["lesson_do"][0]
        assert client.get("/api/tables").json() == []


def test_the_pair_turn_is_not_told_to_wait_for_the_next_turn() -> None:
    """On the learner's turn of the pair on a pair, the page's panel said "Keep that for
    your next turn" (the sweep's note, still standing): on that turn it says to take it."""
    from lald.web.table.lesson import lesson_part

    lesson = Lesson()
    state = lesson.start()
    names = default_names(EN, 5)
    for action in lesson.script:
        if action.seat == 0 and action == lesson.expected(state) and "pair" in str(
                lesson_part(lesson, state, EN, names, state.legal_actions(0), False)["do"]):
            part = lesson_part(lesson, state, EN, names, state.legal_actions(0), False)
            assert not any("next turn" in words for words in part["told"]), part["told"]
            pair = next(n for n in lesson.notes(state) if n.key == "lesson_pair")
            assert note_words(pair, state, names, EN) in part["told"]
            return
        state.apply(action)
    raise AssertionError("no turn of a pair on a pair")

