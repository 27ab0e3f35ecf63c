"""The expert's review over HTTP (``GET /api/tables/{id}/deals/{n}/review``): the same
review as ``lald review`` gives, made once and kept, one at a time per server, from a
bounded queue, only for finished deals; every bad request a 4xx in words."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from lald.coach.lesson import Lesson
from lald.coach.review import review_deal
from lald.coach.words import move_number, reason_text, review_json, review_lines
from lald.i18n import Catalog
from lald.record import load
from lald.web.server.app import create_app
from lald.web.settings import Settings
from lald.web.table import reviews as reviews_module
from lald.web.table.reviews import Reviews, review_page

from ..conftest import FAST, create
from .test_lesson import HELD, Learner, open_lesson

WORLDS = 12
SETTINGS = Settings(**{**FAST.__dict__, "review_worlds": WORLDS})


@pytest.fixture
def review_client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'review.db'}", SETTINGS)) as c:
        yield c


def finished_deal(client: TestClient, names: list[str | None] | None = None) -> str:
    """A table of bots whose first deal is over; its id."""
    seats = [{"human": False, "level": "random", "name": n} for n in (names or [None] * 5)]
    r = client.post("/api/tables", json={"seats": seats})
    assert r.status_code == 201, r.text
    table: str = r.json()["table"]["id"]
    deadline = time.monotonic() + 20
    while client.get(f"/api/tables/{table}/deals/0/record").status_code != 200:
        assert time.monotonic() < deadline, "the bots never finished a deal"
        time.sleep(0.05)
    return table


def review(client: TestClient, url: str) -> tuple[dict[str, Any], list[str]]:
    """Ask until the review is made: the answer, and the statuses seen on the way."""
    seen = []
    deadline = time.monotonic() + 60
    while True:
        r = client.get(url)
        assert r.status_code in (200, 202), r.text
        body: dict[str, Any] = r.json()
        seen.append(body["status"])
        if r.status_code == 200:
            return body, seen
        assert r.headers["Retry-After"]
        assert time.monotonic() < deadline, seen[-3:]
        time.sleep(0.02)


def test_the_review_is_the_commands_made_once_and_kept(review_client: TestClient) -> None:
    names = ["Anne Bonny", None, "Cis", None, "Eve"]
    table = finished_deal(review_client, names)
    url = f"/api/tables/{table}/deals/0/review?seat=2&lang=de"
    body, seen = review(review_client, url)
    assert seen[0] in ("queued", "working") and seen[-1] == "done"
    # The same review as the terminal's, from the deal's public record.
    state = load(review_client.get(f"/api/tables/{table}/deals/0/record").text)[1]
    expected = review_deal(state, 2, worlds=WORLDS)
    catalog = Catalog("de")
    shown = [n or catalog.t("seat_name", seat=s) for s, n in enumerate(names)]
    made = {k: v for k, v in body.items() if k not in ("status", "text")}
    assert made == review_json(expected, catalog, shown)
    lines = review_lines(expected, catalog, shown)
    text = body["text"]
    assert text["title"] == lines[0] and "Cis" in text["title"]
    assert len(text["decisions"]) == len(body["decisions"])
    flat = [line for block in text["decisions"] for line in block]
    assert [line.strip() for line in lines[3:3 + len(flat)]] == flat
    assert text["summary"] == lines[4 + len(flat):]
    # Kept: asked again, in another language too, it is answered at once, not made again.
    reviews: Reviews = review_client.app.state.reviews  # type: ignore[attr-defined]
    assert len(reviews.made) == 1
    again = review_client.get(url)
    assert again.status_code == 200 and again.json() == body
    english = review_client.get(f"/api/tables/{table}/deals/0/review?seat=2")
    assert english.status_code == 200 and english.json()["text"]["title"].startswith("Review of Cis")
    assert len(reviews.made) == 1 and not reviews.jobs


def test_a_deal_in_play_is_never_reviewed_and_bad_requests_are_refused_in_words(
        review_client: TestClient) -> None:
    playing = create(review_client, 1)["table"]["id"]
    base = f"/api/tables/{playing}/deals"
    r = review_client.get(f"{base}/0/review?seat=1")
    assert r.status_code == 404 and r.json() == {"error": "deal 0 is not over, or there is no such deal",
                                                 "code": "no_deal"}
    table = finished_deal(review_client)
    base = f"/api/tables/{table}/deals"
    for path, status in [
        (f"{base}/0/review", 400), (f"{base}/0/review?seat=5", 400), (f"{base}/0/review?seat=-1", 400),
        (f"{base}/0/review?seat=1.0", 400), (f"{base}/0/review?seat=%EF%BC%91", 400),
        (f"{base}/0/review?seat=1&lang=xx", 400), (f"{base}/99999/review?seat=1", 404),
        (f"{base}/x/review?seat=1", 404), ("/api/tables/nosuch/deals/0/review?seat=1", 404),
        ("/api/tables/" + "x" * 40 + "/deals/0/review?seat=1", 404),
    ]:
        r = review_client.get(path)
        assert r.status_code == status, (path, r.text)
        error = r.json()["error"]
        assert isinstance(error, str) and error and "\n" not in error
    reviews: Reviews = review_client.app.state.reviews  # type: ignore[attr-defined]
    assert not reviews.jobs and not reviews.made
    assert review_client.post(f"{base}/0/review?seat=1", json={}).status_code == 405


def test_one_review_at_a_time_from_a_bounded_queue(review_client: TestClient,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert is held in its first review: the next waits behind it, the queue fills,
    then is refused; once let go, each is made in turn and never two at once."""
    release = threading.Event()
    running: list[int] = []
    most = [0]
    real = reviews_module.review_deal

    def slow(state: Any, seat: int, **kwargs: Any) -> Any:
        running.append(seat)
        most[0] = max(most[0], len(running))
        try:
            release.wait(20)
            return real(state, seat, **kwargs)
        finally:
            running.remove(seat)

    monkeypatch.setattr(reviews_module, "review_deal", slow)
    reviews: Reviews = review_client.app.state.reviews  # type: ignore[attr-defined]
    reviews.size = 2
    table = finished_deal(review_client)
    url = f"/api/tables/{table}/deals/0/review?seat="
    first = review_client.get(url + "0").json()
    deadline = time.monotonic() + 10
    while review_client.get(url + "0").json()["status"] != "working":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert first["status"] in ("queued", "working")
    assert review_client.get(url + "1").json() == {"status": "queued", "ahead": 1, "done": 0, "total": None}
    assert review_client.get(url + "2").json()["ahead"] == 2
    busy = review_client.get(url + "3")
    assert busy.status_code == 503 and busy.headers["Retry-After"]
    assert busy.json() == {"error": "the expert is busy with other reviews: try again in a minute",
                           "busy": True}
    release.set()
    for seat in (0, 1, 2, 3):
        body, _ = review(review_client, url + str(seat))
        assert body["seat"] == seat
    assert most[0] == 1


def test_a_review_that_fails_is_said_in_words_and_asked_again_is_made(
        review_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    real = reviews_module.review_deal
    monkeypatch.setattr(reviews_module, "review_deal", lambda *a, **k: 1 / 0)
    table = finished_deal(review_client)
    url = f"/api/tables/{table}/deals/0/review?seat=1"
    deadline = time.monotonic() + 10
    while (r := review_client.get(url)).status_code == 202:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert r.status_code == 503 and r.json() == {
        "error": "the review could not be made: the expert failed (ZeroDivisionError)"}
    monkeypatch.setattr(reviews_module, "review_deal", real)
    assert review(review_client, url)[0]["status"] == "done"


def test_stopping_the_server_stops_the_review_at_its_next_decision() -> None:
    async def main() -> None:
        state = load(Path(__file__).parents[3].joinpath("examples", "review-deal.json").read_text())[1]
        reviews = Reviews(worlds=WORLDS)
        reviews.start()
        reviews.stopping = True  # the review's first progress report stops it
        assert reviews.ask(("t", 0, 1), state).status == "queued"
        for _ in range(200):
            await asyncio.sleep(0.01)
            if reviews.task is not None and reviews.task.done():
                break
        assert reviews.task is not None and reviews.task.done() and not reviews.made
        await reviews.close()

    asyncio.run(main())


def test_the_review_of_a_lesson_says_its_moves_were_the_lessons(review_client: TestClient) -> None:
    """Seen before: the review of the lesson's deal called a move the lesson asked for (the
    pair on a pair) the learner's costliest mistake, with no word of why."""
    lesson = Lesson()
    data = open_lesson(review_client)
    with review_client.websocket_connect("/ws") as ws:
        me = Learner(ws, data["token"])
        for moment, action in enumerate(lesson.script):
            if action.seat != 0 and moment not in HELD:
                continue
            frame = me.at(moment)
            if moment in HELD:
                ws.send_json({"type": "go_on"})
            else:
                ws.send_json({"type": "act", "v": frame["v"],
                              "action": frame["legal"][frame["lesson"]["expected"]]})
        me.at(over=True)
    table = data["table"]["id"]
    es = Catalog("es")
    body, _ = review(review_client, f"/api/tables/{table}/deals/0/review?seat=0&lang=es")
    assert body["text"]["note"] == es.t("web_review_lesson")
    other = finished_deal(review_client)
    body, _ = review(review_client, f"/api/tables/{other}/deals/0/review?seat=0&lang=es")
    assert "note" not in body["text"]


def _example_review(seat: int = 1) -> Any:
    state = load(Path(__file__).parents[3].joinpath("examples", "review-deal.json").read_text())[1]
    return review_deal(state, seat, worlds=WORLDS)


@pytest.mark.parametrize("lang", ["en", "de", "es", "pt"])
def test_the_page_review_leads_with_its_sentence_in_a_persons_words(lang: str) -> None:
    """Seen before (issue 26, item 17): the page showed the terminal's "-1.2 (-1.4 to -1.0)",
    a "95% interval" and a "costly 1" badge (pt "cara 1"), with ASCII minus signs beside
    the settlement's true ones. Each decision leads with its sentence, the numbers come
    after, in words, with true minus signs; the badges say what they mean."""
    made = _example_review()
    assert made.costliest, "the example deal should have a costly decision"
    catalog = Catalog(lang)
    page = review_page(made, catalog, [catalog.t("seat_name", seat=s) for s in range(made.rules.players)])
    words = page["text"]["person"]
    assert len(words["decisions"]) == len(made.decisions)
    shown = [words["lead"], words["unit"], *words["summary"]]
    for d, w in zip(made.decisions, words["decisions"], strict=True):
        shown += [w["heading"], w["sentence"], w["badge"], w["rank"], *w["numbers"]]
        if d.verdict.value not in ("best", "forced"):
            assert w["sentence"] and w["numbers"], w  # the sentence, then the numbers
    text = "\n".join(shown)
    assert "95" not in text and "(" + "-" not in text
    assert not any(c == "-" and (i + 1 < len(text) and text[i + 1].isdigit())
                   for i, c in enumerate(text)), "an ASCII minus before a number"
    assert "\u2212" in text  # the values a deal's choices would give: some are losses
    first = words["decisions"][made.costliest[0]]
    assert first["rank"] == catalog.t("web_review_rank_1") and not first["rank"][-1:].isdigit()
    assert catalog.t("web_review_costly") not in (first["badge"], first["rank"])
    costliest = made.decisions[made.costliest[0]]
    why = reason_text(costliest, catalog, None) or ""
    assert why and words["lead"] == catalog.t("web_review_lead", number=move_number(costliest),
                                              reason=why[:1].lower() + why[1:])


def test_portuguese_review_sentences_read_as_portuguese() -> None:
    """Seen before: "com jogar J♠ para capturar J♦ terias ficado…" (a preposition before an
    infinitive phrase)."""
    pt = Catalog("pt")
    alt = pt.t("review_alt_capture", play="J♠", take="J♦")
    messages = json.loads(Path(__file__).parents[3].joinpath("src", "lald", "i18n", "pt.json").read_text())
    for key in [k for k in messages if k.startswith("review_why_")]:
        assert "com {alt}" not in messages[key], key
    assert "com " + alt not in pt.t("review_why_survive", did="x", alt=alt, best=1, made=2)
