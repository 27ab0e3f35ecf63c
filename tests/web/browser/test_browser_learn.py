"""A newcomer in the browser: the lesson from the lobby's Learn to play to the deal after
it, by keyboard alone, in each of the four languages (each note at its moment, a wrong
move refused with nothing changed, play waiting for a note to be read, the rules one key
away, the settlement explained, the offer of a normal deal); and the expert's review in
the replay viewer of a finished deal (progress, the costliest decisions marked, each
beside its move, errors in words). Pages are checked by axe-core at 1280×800 and 390×844;
screenshots go to ``artifacts/``. The server and the browser are shared (conftest.py)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route, WebSocketRoute, expect

from lald.coach.lesson import Lesson
from lald.i18n import Catalog
from lald.web.table.lesson import default_names, note_words

from ..conftest import Server
from .pages import ARTIFACTS, DESKTOP, PHONE, Opener, audit, shown, wait_version

LOCALES = {"en": "en-GB", "de": "de-DE", "pt": "pt-PT", "es": "es-ES"}
#: The moments (actions made) at which play waits for the learner to read: another seat
#: lay down; the learner lay down; a dead-rank claim; a seat out of cards.
HELD = (5, 16, 17, 19)


def said_at(moment: int, catalog: Catalog) -> dict[str, str]:
    """The lesson's sentences at ``moment`` of its script, by note key."""
    lesson = Lesson()
    state = lesson.start()
    for action in lesson.script[:moment]:
        state.apply(action)
    names = default_names(catalog, 5)
    return {n.key: note_words(n, state, names, catalog) for n in lesson.notes(state)}


def tab_to(page: Page, selector: str, limit: int = 120) -> None:
    """Press Tab until ``selector`` has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement === document.querySelector(sel)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def words(page: Page) -> list[str]:
    """The lesson panel's paragraphs."""
    texts: list[str] = page.locator("#lesson-words p").all_text_contents()
    return texts


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_whole_lesson_by_keyboard(server: Server, open_page: Opener, lang: str) -> None:
    catalog = Catalog(lang)
    first = lang == "en"
    lobby = open_page(server.base + "/", viewport=DESKTOP if lang != "pt" else PHONE, locale=LOCALES[lang])
    expect(lobby.locator("#learn")).to_have_text(catalog.t("lesson_title"))
    expect(lobby.locator(".learn p").first).to_have_text(catalog.t("web_learn_intro"))
    if first:
        lobby.screenshot(path=str(ARTIFACTS / "web-lobby-learn.png"))
    tab_to(lobby, "#learn")
    lobby.keyboard.press("Enter")
    page = lobby
    page.wait_for_url("**/play#t=*")
    lesson = Lesson()
    refused = 0
    for moment, action in enumerate(lesson.script):
        if action.seat != 0 and moment not in HELD:
            continue
        said = said_at(moment, catalog)
        if moment in HELD:
            go = page.locator("#lesson-go-on")
            expect(go).to_be_visible()
            expect(go).to_be_focused()
            expect(page.locator("#lesson-go-on-help")).to_have_text(catalog.t("web_lesson_go_on_help"))
            for sentence in said.values():  # every explanation of this moment
                assert sentence in words(page), moment
            v = shown(page)["v"]
            page.wait_for_timeout(400)
            assert shown(page)["v"] == v, "the bots played on though the lesson waits for its reader"
            if first and moment == HELD[0]:
                page.screenshot(path=str(ARTIFACTS / "web-lesson-held.png"))
                audit(page, "the lesson waiting for its reader")
            page.keyboard.press("Enter")
            wait_version(page, v + 1)  # play went on
            after = moment + 1
            if after < len(lesson.script) and after not in HELD and lesson.script[after].seat == 0:
                # Play waits for the learner now, not for the reader: the button is gone. (When
                # a bot moves first, the next hold may bring it back before a check could see
                # it hidden: the next moment's checks cover that case.)
                expect(go).to_be_hidden()
            continue
        do = page.locator("#lesson-do")
        expect(do).to_have_text(said["lesson_do"])
        # Each explanation of this moment is in the lesson's panel.
        for key, sentence in said.items():
            if key != "lesson_do":
                assert sentence in words(page), (moment, key)
        marked = page.locator("#moves button.move.lesson-move")
        expect(marked).to_have_count(1)
        expect(marked.locator(".mark")).to_contain_text(catalog.t("lesson_mark"))
        if moment == 0:
            if first:
                page.screenshot(path=str(ARTIFACTS / "web-lesson-start.png"))
                page.set_viewport_size(PHONE)
                page.screenshot(path=str(ARTIFACTS / "web-lesson-start-phone.png"))
                page.set_viewport_size(DESKTOP)
                audit(page, "the lesson's table")
                # The rules, one key away: ? opens them beside the table.
                with page.context.expect_page() as opened:
                    page.keyboard.press("?")
                rules = opened.value
                rules.wait_for_load_state()
                assert rules.url.endswith("/rules")
                rules.close()
                expect(page.locator("#lesson-rules")).to_have_attribute("href", "/rules")
        others = page.locator("#moves button.move:not(.lesson-move)")
        if others.count():
            # A wrong move is refused with the lesson's sentence, and nothing changes.
            v = shown(page)["v"]
            page.keyboard.press(others.first.locator("kbd").inner_text())
            refusal = page.locator("#lesson-refused")
            expect(refusal).to_have_text(said["lesson_do"].replace(
                catalog.t("lesson_do", move=""), catalog.t("lesson_try", move="")))
            page.wait_for_timeout(150)
            assert shown(page)["v"] == v
            expect(do).to_have_text(said["lesson_do"])
            if first and refused == 0:
                page.screenshot(path=str(ARTIFACTS / "web-lesson-refused.png"))
            refused += 1
        v = shown(page)["v"]
        page.keyboard.press(marked.locator("kbd").inner_text())
        page.wait_for_function(f"() => Number(document.body.dataset.v) > {v}")
        expect(page.locator("#lesson-refused")).to_be_hidden()
    assert refused >= 3
    # The settlement, explained; then a normal deal is offered.
    expect(page.locator("#settlement")).to_be_visible(timeout=15_000)
    # The last lie-down's "Ha! Ha! Ha!" no longer covers the settlement's heading (it did
    # for two seconds: the log and the settlement say the others laugh).
    assert not page.evaluate("""() => {
        const laugh = document.querySelector('#laugh');
        if (laugh.hidden) return false;
        const a = laugh.firstElementChild.getBoundingClientRect();
        const b = document.querySelector('#h-settlement').getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }""")
    end = page.locator("#lesson-words p")
    expect(end).to_have_text([catalog.t("lesson_settlement"), catalog.t("lesson_next")])
    expect(page.locator("#settlement table.settle tbody tr")).to_have_count(5)
    expect(page.locator("#lesson-play")).to_have_text(catalog.t("web_lesson_play"))
    if first:
        page.screenshot(path=str(ARTIFACTS / "web-lesson-end.png"), full_page=True)
        audit(page, "the lesson's settlement")
        # Its replay names the lesson's players, and offers the learner's own review first.
        with page.context.expect_page() as opened:
            page.locator("#settlement a", has_text=catalog.t("web_replay")).click()
        replay = opened.value
        expect(replay.locator(".replay-hands .row .nm")).to_have_text(default_names(catalog, 5))
        expect(replay.locator("#review-seat")).to_have_value("0")
        replay.close()
    lesson_url = page.url
    tab_to(page, "#lesson-play")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => location.href !== {json.dumps(lesson_url)}")
    # A normal table: no lesson, this person in seat 0 against bots.
    expect(page.locator("#seats .seat")).to_have_count(5, timeout=15_000)
    expect(page.locator("#lesson")).to_be_hidden()
    expect(page.locator(".seat[data-seat='1'] .badge.bot")).to_be_visible()
    assert not page.locator("#lesson-do").is_visible()
    # With hints on, for all to see; on the learner's turn the hint comes by itself.
    expect(page.locator("#hints-note")).to_have_text(catalog.t("web_hints_on"))
    see_the_hint(page, catalog)
    if first:
        page.screenshot(path=str(ARTIFACTS / "web-hint.png"))
        audit(page, "a hint at the table")


def see_the_hint(page: Page, catalog: Catalog) -> str:
    """On this seat's turn: the hint's sentence in ``catalog``'s language, its move marked
    (a turn's hint names one of the moves shown); the sentence."""
    expect(page.locator("#hint-text")).to_contain_text(catalog.t("hint_do", action="").rstrip("."),
                                                       timeout=20_000)
    # A bot's claim on the seat's turn moves the table on and the hint is asked again, so
    # the sentence and the marked move are read together, once they agree.
    seen = page.wait_for_function("""() => {
        const box = document.getElementById("hint-text");
        const marked = document.querySelectorAll("#moves button.move.hinted");
        if (box.hidden || marked.length !== 1) return null;
        const what = marked[0].querySelector(".what").textContent;
        const mark = marked[0].querySelector(".mark").textContent;
        return box.textContent.includes(what) ? [box.textContent, mark] : null;
    }""", timeout=20_000).json_value()
    sentence, mark = seen
    assert sentence.startswith(catalog.t("hint_do", action="").rstrip("."))
    assert mark == "◀ " + catalog.t("hint_mark")
    return str(sentence)


@pytest.fixture
def three_seats(server: Server) -> Iterator[Callable[..., dict[str, Any]]]:
    """Open tables of a person in seat 0 and two random bots; closed at the end (the
    server shared by the browser tests opens only so many at once)."""
    hosts: list[str] = []

    def make(server: Server, **fields: Any) -> dict[str, Any]:
        with httpx.Client(base_url=server.base) as http:
            r = http.post("/api/tables", json={"players": 3, "seats": [
                {"human": s == 0, "level": "random"} for s in range(3)]} | fields)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        hosts.append(data["host"]["token"])
        return data

    yield make
    with httpx.Client(base_url=server.base) as http:
        for token in hosts:
            assert http.post("/api/host/close", json={"token": token}).status_code == 200


def test_a_hint_by_button_and_by_key_from_the_server(server: Server, open_page: Opener,
                                                      three_seats: Callable[..., dict[str, Any]]) -> None:
    en, de = Catalog("en"), Catalog("de")
    data = three_seats(server, hints=True)
    asked: list[int] = []
    answered: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        real = ws.connect_to_server()

        def up(text: str | bytes) -> None:
            if json.loads(text)["type"] == "hint":
                asked.append(json.loads(text)["v"])
            real.send(text)

        def down(text: str | bytes) -> None:
            if json.loads(text)["type"] == "hint":
                answered.append(json.loads(text))
            ws.send(text)

        ws.on_message(up)
        real.on_message(down)

    page = open_page(data["seats"][0]["url"], route=route)
    expect(page.locator("#hints-note")).to_have_text(en.t("web_hints_on"))
    see_the_hint(page, en)
    # On the seat's turn the table may still move on once (a claim window closing): the
    # hint comes by itself once for each version the seat is to move at.
    page.wait_for_timeout(600)
    v = shown(page)["v"]
    expect(page.locator("#hint-text")).to_contain_text(en.t("hint_do", action="").rstrip("."))
    assert answered and answered[-1]["v"] == v and len(asked) == len(set(asked)) and asked[-1] == v
    sentence = see_the_hint(page, en)
    assert answered[-1]["text"] == sentence
    # The button and the key ask the server again; the same hint comes back each time,
    # and asking changes nothing at the table.
    before = len(answered)
    page.locator("#hint").click()
    deadline = time.monotonic() + 10
    while len(answered) < before + 1:
        assert time.monotonic() < deadline, "no answer to the Hint button"
        page.wait_for_timeout(50)
    page.locator("body").press("h")
    while len(answered) < before + 2:
        assert time.monotonic() < deadline, "no answer to the key h"
        page.wait_for_timeout(50)
    assert asked[-3:] == [v, v, v] and [a["text"] for a in answered[-3:]] == [sentence] * 3
    assert shown(page)["v"] == v
    expect(page.locator("#hint-text")).to_have_text(sentence)
    # In another language, the same hint in its words.
    page.locator("#lang").select_option("de")
    see_the_hint(page, de)
    assert page.locator("#hint-text").inner_text() != sentence
    # Following it plays the move it names.
    page.locator("#moves button.move.hinted").click()
    page.wait_for_function(f"() => Number(document.body.dataset.v) > {v}")


def hints_answered(asked: list[int],
                   answer: Callable[[dict[str, Any]], dict[str, Any] | list[dict[str, Any]] | None]
                   ) -> Callable[[WebSocketRoute], None]:
    """A websocket route between the page and the server that notes the version of each
    hint asked for in ``asked`` and answers the ask with ``answer(message)`` (one message,
    or several in turn) in the server's place, when that is not None."""

    def route(ws: WebSocketRoute) -> None:
        real = ws.connect_to_server()

        def up(text: str | bytes) -> None:
            msg = json.loads(text)
            if msg["type"] == "hint":
                asked.append(msg["v"])
                fake = answer(msg)
                if fake is not None:
                    for one in fake if isinstance(fake, list) else [fake]:
                        ws.send(json.dumps(one))
                    return
            real.send(text)

        ws.on_message(up)
        real.on_message(ws.send)

    return route


def test_a_hint_refused_as_stale_says_nothing(
        server: Server, open_page: Opener, three_seats: Callable[..., dict[str, Any]]) -> None:
    """A bot's claim can move the table on while the page's hint request is on its way:
    the server refuses it as stale. The person chose nothing, so the page says nothing
    (seen before: a toast "The table has changed since you chose"); the new version's
    frame asks by itself, and the Hint key still works."""
    en = Catalog("en")
    data = three_seats(server, hints=True)
    asked: list[int] = []

    def stale(msg: dict[str, Any]) -> dict[str, Any] | None:
        # the first answered as if the table had moved on
        return {"type": "error", "code": "stale", "v": msg["v"] + 1,
                "message": en.t("web_error_stale")} if len(asked) == 1 else None

    page = open_page(data["seats"][0]["url"], route=hints_answered(asked, stale))
    expect(page.locator("#moves button.move.turn").first).to_be_visible(timeout=15_000)
    page.wait_for_function("() => !document.getElementById('hint').disabled")
    assert asked
    page.locator("body").press("h")
    see_the_hint(page, en)
    assert len(asked) >= 2
    expect(page.locator("#toast")).not_to_have_text(en.t("web_error_stale"))


def test_a_hint_refused_as_busy_is_said_in_its_place(
        server: Server, open_page: Opener, three_seats: Callable[..., dict[str, Any]]) -> None:
    """The hint that comes by itself on the seat's turn can be refused while the expert is
    busy at other tables: the page says so where the hint goes, in the page's language
    (seen before: a toast, as though the person had done something wrong); Hint asks again."""
    en, de = Catalog("en"), Catalog("de")
    data = three_seats(server, hints=True)
    asked: list[int] = []
    busy = [True]

    def refused(msg: dict[str, Any]) -> list[dict[str, Any]] | None:
        # every ask answered as a busy server answers (the table may move on meanwhile); the
        # first twice, as when an ask made stale by a bot's claim is answered after the
        # next (seen in a CI run: that late answer came as a toast)
        one = {"type": "error", "code": "busy", "message": en.t("web_error_hint_busy")}
        return ([one, one] if not asked[:-1] else [one]) if busy[0] else None

    page = open_page(data["seats"][0]["url"], route=hints_answered(asked, refused))
    expect(page.locator("#hint-text")).to_have_text(en.t("web_error_hint_busy"), timeout=15_000)
    expect(page.locator("#hint")).to_be_enabled()
    expect(page.locator("#toast")).not_to_have_text(en.t("web_error_hint_busy"))
    page.locator("#lang").select_option("de")
    expect(page.locator("#hint-text")).to_have_text(de.t("web_error_hint_busy"))
    page.locator("#lang").select_option("en")
    busy[0] = False
    page.locator("body").press("h")
    see_the_hint(page, en)
    assert len(asked) >= 2


def test_a_table_without_hints_offers_none(server: Server, open_page: Opener,
                                           three_seats: Callable[..., dict[str, Any]]) -> None:
    en = Catalog("en")
    data = three_seats(server)
    page = open_page(data["seats"][0]["url"])
    expect(page.locator("#moves button.move.turn").first).to_be_visible(timeout=15_000)
    expect(page.locator("#hint")).to_be_hidden()
    expect(page.locator("#hints-note")).to_be_hidden()
    page.locator("body").press("h")
    expect(page.locator("#toast")).to_have_text(en.t("web_error_hints_off"))
    expect(page.locator("#hint-text")).to_be_hidden()


# -- the review in the replay viewer ---------------------------------------------------------


def finished_with_a_costly_decision(server: Server) -> tuple[str, int, int, dict[str, Any]]:
    """A table of random bots, one of its finished deals and a seat whose review has a
    costly decision (random play makes some soon), and that review (in English)."""
    seats = [{"human": False, "level": "random", "name": n} for n in ["Anne Bonny", None, "Cis", "Dot", None]]
    with httpx.Client(base_url=server.base, timeout=30) as http:
        table = http.post("/api/tables", json={"seats": seats}).json()["table"]["id"]
        deadline = time.monotonic() + 60
        for deal in range(20):
            while http.get(f"/api/tables/{table}/deals/{deal}/record").status_code != 200:
                assert time.monotonic() < deadline, "the bots never finished the deals"
                time.sleep(0.1)
            for seat in range(5):
                url = f"/api/tables/{table}/deals/{deal}/review?seat={seat}"
                while (r := http.get(url)).status_code == 202:
                    time.sleep(0.05)
                assert r.status_code == 200, r.text
                if r.json()["costliest"]:
                    return table, deal, seat, r.json()
    raise AssertionError("no costly decision in twenty deals of random play")


def test_the_review_beside_the_moves_in_the_replay_viewer(server: Server, open_page: Opener) -> None:
    table, deal, seat, review = finished_with_a_costly_decision(server)
    en = Catalog("en")
    page = open_page(f"{server.base}/replay#table={table}&deal={deal}&seat={seat}")
    expect(page.locator("#review")).to_be_visible()
    expect(page.locator("#review-seat")).to_have_value(str(seat))  # the page's own seat first
    # While it waits, the page says how far the expert is (the server's answer is held back).
    progress = {"done": 1, "total": 3}

    def working(route: Route) -> None:
        if progress:
            route.fulfill(status=202, content_type="application/json", headers={"Retry-After": "1"},
                          body=json.dumps({"status": "working", "ahead": 0} | progress))
        else:
            route.continue_()

    page.route("**/review?*", working)
    tab_to(page, "#review-start")
    page.keyboard.press("Enter")
    expect(page.locator("#review-state")).to_have_text(en.t("review_progress", done=1, total=3))
    expect(page.locator("#review-bar")).to_be_visible()
    assert page.locator("#review-bar").evaluate("(b) => [b.value, b.max]") == [1, 3]
    progress.clear()
    body = page.locator("#review-body")
    expect(body).to_be_visible()
    expect(page.locator("#review-bar")).to_be_hidden()
    expect(page.locator("#review-heading")).to_have_text(review["text"]["title"])
    items = page.locator("#review-decisions > li")
    expect(items).to_have_count(len(review["decisions"]))
    # The costliest decisions are marked, costliest first.
    costly = page.locator("#review-decisions > li.costly")
    expect(costly).to_have_count(len(review["costliest"]))
    worst = review["costliest"][0]
    expect(items.nth(worst).locator(".badge.costly")).to_have_text(en.t("web_review_rank_1"))
    heading = review["text"]["person"]["decisions"][worst]["heading"]
    expect(items.nth(worst).locator(".head")).to_contain_text(heading)
    # Beside the moves: the viewer goes to the costliest decision's move and shows it there.
    items.nth(worst).locator("button.show").click()
    at = review["decisions"][worst]["at"]
    moves = len(httpx.get(f"{server.base}/api/tables/{table}/deals/{deal}/record").json()["actions"])
    expect(page.locator("#step")).to_have_text(
        en.t("web_replay_step", step=at, steps=moves) if at else en.t("web_replay_start", steps=moves))
    expect(page.locator("#step")).to_be_focused()
    step = page.locator("#r-review")
    expect(step).to_be_visible()
    # The viewer is at the table before the move, headed by the move before it ("Move 6"),
    # so the box says that what it reviews is the next move ("Move 7, your turn"): seen
    # before, it said "this move".
    assert "next move" in en.t("web_review_here")
    expect(step.locator(".title")).to_have_text(en.t("web_review_here"))
    # (the box lists every decision of that move, a claim window's before the turn's: the
    # costliest is the one marked)
    expect(step.locator("li.costly .head")).to_contain_text(heading)
    expect(step.locator("li.costly .badge.costly")).to_have_text(en.t("web_review_rank_1"))
    expect(items.nth(worst)).to_have_class(re.compile(r"\bcurrent\b"))
    page.screenshot(path=str(ARTIFACTS / "web-review.png"), full_page=True)
    audit(page, "the replay with its review")
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / "web-review-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    # Another language: the same review in its words (kept by the server, so at once).
    page.locator("#lang").select_option("de")
    de = Catalog("de")
    expect(page.locator("#review-heading")).to_contain_text(de.t("review_preset_survivor"))
    expect(items.nth(worst).locator(".badge.costly")).to_have_text(de.t("web_review_rank_1"))
    # Errors in words: a busy expert.
    page.route("**/review?*", lambda route: route.fulfill(
        status=503, content_type="application/json", headers={"Retry-After": "60"},
        body=json.dumps({"error": "the expert is busy: try again in a minute", "busy": True})))
    page.locator("#review-seat").select_option(str((seat + 1) % 5))
    page.locator("#review-start").click()
    expect(page.locator("#review-state")).to_have_text(de.t("web_review_busy"))


def test_hints_are_a_table_setting_in_the_lobby_for_all_to_see(server: Server, open_page: Opener) -> None:
    en = Catalog("en")
    page = open_page(server.base + "/")
    box = page.get_by_label(en.t("web_hints_field"))
    expect(box).not_to_be_checked()
    box.check()
    page.locator("#create button[type=submit]").click()
    expect(page.locator("#host-note")).to_contain_text(en.t("web_hints_on"))
    table = page.locator("#links a").last.get_attribute("href")
    assert table and "#w=" in table
    listed = page.locator(f"#tables li[data-table='{table.split('#w=')[1]}']")  # (rows show no id)
    expect(listed.locator(".badge", has_text=en.t("web_hints_badge"))).to_be_visible()
    # A spectator is told too: hints are on for everybody seated at the table.
    watcher = open_page(table)
    expect(watcher.locator("#hints-note")).to_have_text(en.t("web_hints_on"))
    expect(watcher.locator("#hint")).to_be_hidden()


def test_on_a_phone_the_lessons_notes_are_never_under_the_players_panel(
        server: Server, open_page: Opener) -> None:
    """390×844: seen before, the player's panel, stuck to the bottom of the screen and tall
    with the first turn's three claims, covered every note but the welcome, and no scroll
    could bring them out. Now the lesson reads from the top down, and the notes of a new
    moment are brought into sight."""
    page = open_page(server.base + "/learn", viewport=PHONE)
    expect(page.locator("#lesson-do")).to_be_visible(timeout=15_000)
    notes = page.locator("#lesson-words p")
    assert notes.count() >= 3
    for i in range(notes.count()):
        note = notes.nth(i)
        note.evaluate("(p) => p.scrollIntoView({ block: 'center', behavior: 'instant' })")
        assert note.evaluate("""(p) => {
          const r = p.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return p.contains(top);
        }"""), f"note {i} is covered: {note.text_content()}"
    # The learner goes down to the moves and makes the lesson's, until the bots have played
    # to a new note, which is shown from its top.
    marked = page.locator("#moves button.move.lesson-move")
    for _ in range(6):
        seen = set(notes.all_text_contents())
        marked.scroll_into_view_if_needed()
        v = shown(page)["v"]
        marked.click()
        page.wait_for_function(f"() => Number(document.body.dataset.v) > {v}")
        page.wait_for_function("() => document.querySelector('#lesson-do:not([hidden])')"
                               " || !document.querySelector('#lesson-go-on').hidden", timeout=15_000)
        if set(notes.all_text_contents()) - seen:
            break
    else:
        raise AssertionError("the lesson never came to a new note")
    page.wait_for_timeout(800)  # a smooth scroll's time
    header = page.evaluate("() => document.querySelector('header.bar').getBoundingClientRect().bottom")
    top = page.evaluate("() => document.querySelector('#lesson').getBoundingClientRect().top")
    assert header <= top < PHONE["height"] / 2, (header, top)
