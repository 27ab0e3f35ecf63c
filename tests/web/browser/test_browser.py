"""The browser table as people meet it: Playwright driving Debian's Chromium against a real
``lald serve`` on 127.0.0.1 (one server for the whole run, one browser per module: conftest.py).

Seats that the test plays from Python join over the websocket (:class:`Seat`), so any
seat of a table can be opened in a page at the moment it has something to show (a claim,
a seat that lay down). Screenshots go to ``artifacts/``; every page is checked by axe-core
at 1280×800 and 390×844 for serious and critical violations.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, WebSocketRoute, expect
from starlette.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from lald.core import Card
from lald.i18n import Catalog

from ..conftest import Server, create
from .pages import (
    ARTIFACTS,
    DESKTOP,
    LANDSCAPE,
    NARROW,
    PHONE,
    Opener,
    at_top,
    audit,
    on_screen,
    scroll_settled,
    settled,
    shown,
    sideways,
    wait_my_turn_or_over,
    wait_version,
)

DOCS = Path(__file__).resolve().parents[3] / "docs"
LOCALES = ["en-GB", "de-DE", "pt-PT", "es-ES", "en-US"]
EN = Catalog("en")


# -- seats played from Python ---------------------------------------------------------------


class Seat:
    """One seat of a table over the websocket, as a page would hold it."""

    def __init__(self, server: Server, token: str) -> None:
        self.server = server
        self.token = token
        self.ws: ClientConnection | None = None
        self.frame: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []

    def join(self) -> Seat:
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(
            connect(self.server.base.replace("http", "ws") + "/ws", origin=self.server.base))  # type: ignore[arg-type]
        self.ws.send(json.dumps({"type": "join", "token": self.token, "lang": "en"}))
        self.frame = {}
        return self

    def close(self) -> None:
        if self.ws is not None:
            self.stack.close()
            self.ws = None

    def read(self, timeout: float = 0.0) -> None:
        """Take in every message waiting (and wait up to ``timeout`` for the first)."""
        assert self.ws is not None
        while True:
            try:
                msg = json.loads(self.ws.recv(timeout=timeout))
            except TimeoutError:
                return
            timeout = 0.0
            if msg["type"] == "state":
                self.frame = msg
            elif msg["type"] == "error":
                self.errors.append(msg)

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while not (self.frame and pred(self.frame)):
            assert time.monotonic() < deadline, f"seat never saw what was expected: {self.frame}"
            self.read(0.2)
        return self.frame

    def act(self, action: dict[str, Any]) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps({"type": "act", "v": self.frame["v"], "action": action}))


def new_table(server: Server, humans: list[bool] | int, **rules: Any) -> dict[str, Any]:
    with httpx.Client(base_url=server.base) as http:
        return create(http, humans, **rules)


def names_table(server: Server, seats: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    with httpx.Client(base_url=server.base) as http:
        r = http.post("/api/tables", json={"seats": seats} | rules)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data


# -- 1. the phone ---------------------------------------------------------------------------


def test_on_a_phone_the_hand_the_moves_and_the_badge_stay_on_screen(server: Server,
                                                                    open_page: Opener) -> None:
    # the deal of seed 2, a crowded first turn (three claims, eight moves), rather than a deal
    # at random: one such deal can hold more claims and a lie-down than a phone's panel shows
    data = new_table(server, 1, seed=2)
    page = open_page(data["seats"][0]["url"], viewport=PHONE)
    wait_my_turn_or_over(page)
    scroll_settled(page)  # the page brings the table out from under the panel, smoothly
    page.screenshot(path=str(ARTIFACTS / "web-phone-first-screen.png"))
    assert not shown(page)["over"]
    # The first screen shows the table, and the hand and the moves below it, uncovered.
    for selector in ("#conn", "#table", "#hand", "#moves button.move.turn"):
        assert on_screen(page, selector), f"{selector} is not on the first screen"
    covered = page.evaluate("() => document.querySelector('#table').getBoundingClientRect().bottom"
                            " <= document.querySelector('#me').getBoundingClientRect().top")
    assert covered, "the player's panel covers the table"
    # Scrolled down to the log, the hand, the moves and the connection badge are still there.
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    page.screenshot(path=str(ARTIFACTS / "web-phone-scrolled.png"))
    for selector in ("#conn", "#hand", "#moves button.move.turn"):
        assert on_screen(page, selector), f"{selector} scrolled away"
    assert sideways(page) == 0
    page.set_viewport_size(NARROW)
    page.wait_for_timeout(100)
    assert sideways(page) == 0, "the table scrolls sideways at 360 px"
    assert on_screen(page, "#moves button.move.turn")

    lobby = open_page(server.base + "/", viewport=NARROW)
    expect(lobby.locator(".seatrow")).to_have_count(5)
    assert sideways(lobby) == 0, "the lobby scrolls sideways at 360 px"
    lobby.set_viewport_size(PHONE)
    assert sideways(lobby) == 0
    lobby.screenshot(path=str(ARTIFACTS / "web-lobby-phone.png"), full_page=True)


def test_on_a_phone_a_table_of_five_with_hints_shows_every_name_and_the_last_move(
        server: Server, open_page: Opener) -> None:
    """Portuguese at 390×844, five seats and hints on (the longest first screen): seen
    before, the seat of the eldest hand showed "Luga…" (two badges squeezed its name) and
    the player's panel covered the line saying what was last played. On a wide screen the
    line is back under the table. The deal of seed 2: the person is the eldest hand, with
    three claims and five captures on the first turn, below the practice table's note.
    (A deal dealt at random once gave the second turn three hand sets, a dead rank and a
    lie-down with its sentence: the lie-down came below the panel's fold, the hinted
    claim in sight.)"""
    data = new_table(server, 1, hints=True, seed=2)
    page = open_page(data["seats"][0]["url"], viewport=PHONE, locale="pt-PT")
    wait_my_turn_or_over(page)
    for turn in range(2):  # the first turn, then one after others have played
        if turn:
            v = shown(page)["v"]
            page.locator("#moves button.move.turn").first.click()
            page.wait_for_function(f"() => Number(document.body.dataset.v) > {v}")
            wait_my_turn_or_over(page)
            if shown(page)["over"]:
                break
            expect(page.locator("#last-move")).not_to_be_empty()
        page.wait_for_selector("#hint-text:not([hidden])", timeout=20_000)
        page.wait_for_function("() => !document.getElementById('hint-text').classList.contains('thinking')")
        at_top(page)  # the first screen, even where the page scrolled the table into sight
        page.screenshot(path=str(ARTIFACTS / f"web-phone-hints-pt-{turn}.png"))
        cut = page.evaluate("() => [...document.querySelectorAll('.seat .nm')]"
                            ".filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent)")
        assert cut == [], f"names cut short: {cut}"
        # The last move heads the player's panel, which sticks to the screen: never covered.
        assert page.evaluate("() => document.querySelector('#me > #last-move') !== null")
        # (Before anything is played, the line is empty and takes no room in the panel.)
        played = page.locator("#last-move").text_content() != ""
        for selector in ("#hints-note", "#last-move", "#hand", "#hint-text", "#moves button.move.turn"):
            if selector != "#last-move" or played:
                assert on_screen(page, selector), f"{selector} is not on the first screen"
        assert sideways(page) == 0
    audit(page, "a table with hints")
    page.set_viewport_size(DESKTOP)  # the page hears of the new width a moment later
    page.wait_for_function("() => document.querySelector('#table + #last-move') !== null", timeout=5_000)
    page.set_viewport_size(PHONE)
    # The note's first line says hints are on; a tap shows it whole, Enter its first line.
    note = page.locator("#hints-note")
    one_line = note.bounding_box()
    note.click()
    whole = note.bounding_box()
    assert one_line and whole and whole["height"] > 2 * one_line["height"]
    note.press("Enter")
    again = note.bounding_box()
    assert again and again["height"] == one_line["height"]
    # Only there is it a stop for the Tab key: on a wide screen it is shown whole.
    assert note.get_attribute("tabindex") == "0"
    page.set_viewport_size(DESKTOP)
    page.wait_for_function("() => !document.getElementById('hints-note').hasAttribute('tabindex')")


def test_on_a_phone_a_turn_with_claims_open_scrolls_the_table_into_sight(
        server: Server, open_page: Opener) -> None:
    """390×844, the deal of seed 2: the player is to move holding a prial, so the panel
    stuck to the bottom holds three claims and eight moves. Seen before, it covered all but
    the top edge of the table's cards; now the page scrolls the table up above it."""
    data = names_table(server, [{"human": s == 0, "level": "heuristic"} for s in range(5)], seed=2)
    page = open_page(data["seats"][0]["url"], viewport=PHONE)
    wait_my_turn_or_over(page)
    expect(page.locator("#moves button.move.claim")).to_have_count(3)
    page.wait_for_function("""() => {
      const table = document.querySelector('#table').getBoundingClientRect();
      return table.bottom <= document.querySelector('#me').getBoundingClientRect().top;
    }""", timeout=5_000)
    page.screenshot(path=str(ARTIFACTS / "web-phone-claims-and-turn.png"))
    for selector in ("#pot-label", "#table", "#hand", "#moves button.move.turn"):
        assert on_screen(page, selector), f"{selector} is not on screen"
    assert page.evaluate("() => document.querySelector('#h-table').getBoundingClientRect().top"
                         " >= document.querySelector('header.bar').getBoundingClientRect().bottom"), \
        "the table's heading went under the header"
    # Once: scrolled back up, the page stays there through a new frame of the same
    # decision (the language switched: the server sends the table again).
    page.evaluate("() => window.scrollTo({ top: 0, behavior: 'instant' })")
    v = shown(page)["v"]
    page.locator("#lang").select_option("de")
    expect(page.locator("#h-table")).to_contain_text(Catalog("de").t("web_table"))
    page.wait_for_function(f"() => document.body.dataset.v == {v}")
    page.wait_for_timeout(800)  # long enough for a smooth scroll, had one begun
    assert page.evaluate("() => window.scrollY") == 0


def test_the_ledger_and_the_settlement_name_every_seat_whole_in_spanish(
        server: Server, open_page: Opener) -> None:
    """A finished deal in Spanish, where every seat is an "Asiento": seen before, each of
    the ledger's five columns was headed "Asie…", so none could be told from another, and
    on a phone the ledger's and the settlement's last columns were off to the side. And the
    last with cards was "out of cards" (its hand went to the dealer), at the table and in
    the replay, like the seats that had played their last card."""
    data = new_table(server, 1, levels="heuristic", seed=5)
    seat = Seat(server, data["seats"][0]["token"]).join()
    while not seat.wait(lambda f: f["view"]["over"] or bool(f["legal"]), timeout=20)["view"]["over"]:
        v = seat.frame["v"]
        seat.act(seat.frame["legal"][0])
        seat.wait(lambda f, v=v: f["v"] > v)
    survivor = seat.frame["session"]["results"][0]["survivor"]
    seat.close()
    es = Catalog("es")
    for viewport in (DESKTOP, PHONE):
        page = open_page(data["seats"][0]["url"], viewport=viewport, locale="es-ES")
        expect(page.locator("#settlement table.settle tbody tr")).to_have_count(5)
        # Next deal is brought into sight, under the settlement (seen below the screen at 1280×800).
        page.wait_for_function("() => { const b = document.getElementById('next-deal')"
                               ".getBoundingClientRect(); return b.height > 0 && b.bottom <= innerHeight; }",
                               timeout=5_000)
        states = page.locator(".seat .st")
        expect(page.locator(f'.seat[data-seat="{survivor}"] .st')).to_have_text(es.t("web_status_survivor"))
        assert states.all_text_contents().count(es.t("web_status_survivor")) == 1
        heads = page.locator("#ledger th.nm")
        expect(heads).to_have_text([f"Asiento {s}" for s in range(5)])
        # Each heading shows its whole name: no line held back, no word split.
        cut = page.evaluate("""() => [...document.querySelectorAll('#ledger th.nm')].filter((th) => {
          const box = th.querySelector('span') || th;
          if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1) return true;
          return box.textContent.split(' ').some((word) => {
            const probe = document.createElement('span');
            probe.style.whiteSpace = 'nowrap';
            probe.textContent = word;
            box.appendChild(probe);
            const wide = probe.getBoundingClientRect().width > box.clientWidth + 0.5;
            probe.remove();
            return wide;
          });
        }).map((th) => th.textContent)""")
        assert cut == [], f"{viewport}: headings cut: {cut}"
        boxes = page.evaluate("() => [...document.querySelectorAll('#ledger .scroll, #settlement .scroll')]"
                              ".map((box) => box.scrollWidth - box.clientWidth)")
        assert boxes == [0, 0], f"{viewport}: the ledger and the settlement scroll sideways by {boxes} px"
        page.locator("#ledger").screenshot(path=str(ARTIFACTS / f"web-ledger-es-{viewport['width']}.png"))
        page.close()
    replay = open_page(f"{server.base}/replay#table={data['table']['id']}&deal=0", locale="es-ES")
    expect(replay.locator(".replay-hands .row")).to_have_count(5)
    replay.locator("#step").focus()
    replay.keyboard.press("End")
    expect(replay.locator(f'.replay-hands .row[data-seat="{survivor}"]')).to_contain_text(
        es.t("web_status_survivor"))
    assert sum(es.t("web_status_survivor") in row for row in
               replay.locator(".replay-hands .row").all_text_contents()) == 1


def play_deal_from_python(server: Server, data: dict[str, Any], seats: list[int]) -> dict[str, Any]:
    """Play the deal of a table whose people sit in ``seats`` from Python, to its end; the
    last frame."""
    players = [Seat(server, data["seats"][s]["token"]).join() for s in seats]
    try:
        for _ in range(400):
            for seat in players:
                seat.read(0.05)
            # (no view until every person has joined and the first deal is dealt)
            frames = [p.frame for p in players if p.frame and p.frame["view"] is not None]
            if frames and max(frames, key=lambda f: f["v"])["view"]["over"]:
                return max(frames, key=lambda f: f["v"])
            for seat in players:
                f = seat.frame
                if f and f["view"] is not None and f["legal"] and f["view"]["to_move"] == f["you"]:
                    seat.act(f["legal"][0])
        raise AssertionError("the deal never ended")
    finally:
        for seat in players:
            seat.close()


def test_one_persons_next_deal_leaves_the_others_settlement_until_they_go_on(
        server: Server, open_page: Opener) -> None:
    """Seen before: one person's Next deal cleared the other's settlement while they read
    it. The other page keeps it (its own numbers, not the next deal's), says that the next
    deal has begun, and lets its person close it; the next deal is on the table meanwhile."""
    data = new_table(server, [True, True, False], players=3)
    last = play_deal_from_python(server, data, [0, 1])
    result = last["session"]["results"][0]
    reader = open_page(data["seats"][0]["url"])
    goer = open_page(data["seats"][1]["url"], viewport=PHONE)
    for page in (reader, goer):
        expect(page.locator("#settlement table.settle tbody tr")).to_have_count(3)
    v = shown(goer)["v"]
    goer.locator("#next-deal").click()
    deals = last["table"]["deals"]
    for page in (reader, goer):
        wait_version(page, v + 1)
        expect(page.locator("#deal-info")).to_have_text(EN.t("deal_of", number=2, deals=deals))
    expect(goer.locator("#settlement")).to_be_hidden()
    kept = reader.locator("#settlement")
    expect(kept).to_be_visible()
    expect(kept.locator("h2")).to_contain_text(EN.t("deal_of", number=1, deals=deals))
    expect(kept.locator(".kept")).to_have_text(EN.t("web_settlement_kept"))
    # The finished deal's own numbers: its chips and the balances it left (before the antes
    # of the deal now in play).
    rows = kept.locator("table.settle tbody tr")
    for s in range(3):
        cells = rows.nth(s).locator("td").all_text_contents()
        chips = f"{result['chips'][s]:+d}".replace("-", "\u2212").replace("+0", "0")
        assert cells[-2:] == [chips, chips], (s, cells)
    # The next deal is there to be played meanwhile: the hand is dealt.
    expect(reader.locator("#hand .card")).not_to_have_count(0)
    reader.screenshot(path=str(ARTIFACTS / "web-settlement-kept.png"))
    reader.locator("#settle-close").click()
    expect(kept).to_be_hidden()
    page_v = shown(reader)["v"]
    reader.wait_for_timeout(300)
    assert shown(reader)["v"] >= page_v
    expect(kept).to_be_hidden()


def test_on_a_wide_screen_a_turn_with_claims_open_scrolls_its_moves_into_sight(
        server: Server, open_page: Opener) -> None:
    """1280×800, the deal of seed 2 (three claims and eight moves): seen before, the moves
    began at the screen's bottom edge and the page did not move, so the player saw claims
    and no move to make. Now the page scrolls to the panel's end, the table still in sight."""
    data = names_table(server, [{"human": s == 0, "level": "heuristic"} for s in range(5)], seed=2)
    page = open_page(data["seats"][0]["url"], viewport=DESKTOP)
    wait_my_turn_or_over(page)
    expect(page.locator("#moves button.move.claim")).to_have_count(3)
    page.wait_for_function("() => { const moves = document.querySelectorAll('#moves button.move.turn');"
                           " return moves[moves.length - 1].getBoundingClientRect().bottom <= innerHeight; }",
                           timeout=5_000)
    assert page.evaluate("() => document.querySelector('#h-table').getBoundingClientRect().top"
                         " >= document.querySelector('header.bar').getBoundingClientRect().bottom")


def test_on_a_phone_on_its_side_the_table_and_the_hand_are_side_by_side(
        server: Server, open_page: Opener) -> None:
    """844×390: seen before, the player's panel stuck to the bottom took the whole screen
    below the header and hid the players and the table."""
    data = new_table(server, 1, hints=True)
    page = open_page(data["seats"][0]["url"], viewport=LANDSCAPE)
    wait_my_turn_or_over(page)
    assert not shown(page)["over"]
    page.screenshot(path=str(ARTIFACTS / "web-phone-landscape.png"))
    for selector in ("#conn", "#seats", "#table .card", "#hand", "#moves button.move"):
        assert on_screen(page, selector), f"{selector} is not on the first screen"
    apart = page.evaluate("""() => {
      const me = document.querySelector('#me').getBoundingClientRect();
      return ['#seats', '#table'].every((sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return r.right <= me.left || r.bottom <= me.top;
      }); }""")
    assert apart, "the player's panel covers the players or the table"
    assert sideways(page) == 0
    audit(page, "a table on a phone on its side")


# -- 2. the last move, 8. the live region and a deal by keyboard alone -----------------------


def test_the_last_move_is_shown_and_announced(server: Server, open_page: Opener) -> None:
    data = new_table(server, 1)
    page = open_page(data["seats"][0]["url"])
    wait_my_turn_or_over(page)
    v = shown(page)["v"]
    page.locator("#moves button.move.turn").first.click()
    # Our move and the bots' after it: the last is shown by the table, for a moment.
    page.wait_for_function(f"() => Number(document.body.dataset.v) > {v + 1}")
    page.wait_for_selector("#table .card.fresh, #table .leaving .card.gone", timeout=5_000)
    page.screenshot(path=str(ARTIFACTS / "web-last-move.png"))
    page.wait_for_function(
        "() => { const ops = document.querySelectorAll('#log p.op');"
        " const last = ops[ops.length - 1].textContent;"
        " return document.querySelector('#last-move').textContent.endsWith(last); }")
    live = page.locator("#announce")
    assert live.get_attribute("aria-live") == "polite"
    expect(live).not_to_be_empty()
    # The moves announced are the log's own sentences.
    page.wait_for_function(
        "() => { const said = document.querySelector('#announce').textContent;"
        " const log = [...document.querySelectorAll('#log p')].map((p) => p.textContent);"
        " return said && log.some((line) => said.includes(line)); }")
    # The marks go after a moment.
    wait_my_turn_or_over(page)
    page.wait_for_function("() => !document.querySelector('#table .card.fresh, #table .leaving .card.gone')",
                           timeout=6_000)


def one_meaning(page: Page) -> None:
    """Each number has one meaning: the seat boxes' balance is the ledger's balance row,
    the pot in the table's heading is the ledger's pot, and in a settlement the pairs, the
    prize and the antes are columns of their own that add up to the deal's chips."""
    got = page.evaluate("""() => {
      const n = document.querySelectorAll('.seat').length;
      const num = (s) => Number(s.replace('−', '-').replace('+', '').match(/-?\\d+/)[0]);
      const seat = [...Array(n).keys()].map((s) => num(
        document.querySelector(`.seat[data-seat="${s}"] .facts span[title]`).textContent));
      const total = [...document.querySelectorAll('#ledger tr.total th')].slice(1)
        .map((c) => num(c.textContent));
      const rows = [...document.querySelectorAll('#settlement table.settle tbody tr')].map(
        (tr) => [...tr.querySelectorAll('td')].map((c) => c.textContent ? num(c.textContent) : 0));
      return {seat, ledger: total.slice(0, n), pot: total[n],
              heading: num(document.querySelector('#pot-label').textContent), rows};
    }""")
    assert got["seat"] == got["ledger"], got
    assert got["heading"] == got["pot"], got
    assert sum(got["seat"]) + got["pot"] == 0, got
    for _won, pairs, prize, antes, chips, _balance in got["rows"]:
        assert pairs + prize + antes == chips, got
    if got["rows"]:
        assert [row[5] for row in got["rows"]] == got["ledger"], got


def test_a_whole_deal_by_keyboard_alone(server: Server, open_page: Opener) -> None:
    """Number and letter keys, Tab and Enter, Tab and Space on cards: no mouse at all. The
    table, the settlement and the lobby pass axe-core at both sizes on the way."""
    data = new_table(server, 1)
    page = open_page(data["seats"][0]["url"])
    wait_my_turn_or_over(page)
    one_meaning(page)
    audit(page, "the table")
    turns = 0
    while not shown(page)["over"]:
        v = shown(page)["v"]
        moves = page.locator("#moves button.move.turn")
        kind = moves.first.get_attribute("data-kind")
        if turns % 3 == 0:
            # The move's own key, as shown on its button.
            page.keyboard.press(moves.first.locator("kbd").inner_text())
        elif turns % 3 == 1 or kind != "capture":
            # Tab to the first turn move and press Enter.
            target = moves.first.get_attribute("data-focus")
            for _ in range(80):
                page.keyboard.press("Tab")
                if page.evaluate("() => document.activeElement.dataset.focus") == target:
                    break
            else:
                raise AssertionError("Tab never reached the first move")
            page.keyboard.press("Enter")
        else:
            # Tab to each card of the capture, Space to pick it, then Enter plays them.
            for card in (moves.first.get_attribute("data-cards") or "").split():
                for _ in range(80):
                    page.keyboard.press("Tab")
                    if page.evaluate("() => document.activeElement.dataset.focus") == f"card:{card}":
                        break
                else:
                    raise AssertionError(f"Tab never reached {card}")
                page.keyboard.press("Space")
                expect(page.locator(f'[data-card="{card}"]').first).to_have_attribute("aria-pressed", "true")
            page.evaluate("() => document.activeElement.blur()")
            page.keyboard.press("Enter")
        page.wait_for_function(f"() => Number(document.body.dataset.v) > {v}", timeout=10_000)
        turns += 1
        assert turns < 60
        wait_my_turn_or_over(page)
    expect(page.locator("#settlement")).to_be_visible()
    expect(page.locator("#settlement table.settle tbody tr")).to_have_count(5)
    page.screenshot(path=str(ARTIFACTS / "web-settlement.png"), full_page=True)
    one_meaning(page)
    audit(page, "the settlement")
    v = shown(page)["v"]
    page.keyboard.press("n")
    wait_version(page, v + 1)
    expect(page.locator("#settlement")).to_be_hidden()
    assert turns >= 1


# -- 3. the connection ---------------------------------------------------------------------


def test_a_click_while_disconnected_is_sent_on_reconnection_once(server: Server, open_page: Opener) -> None:
    data = new_table(server, 1, players=3)
    down = {"now": False}
    routes: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        if down["now"]:
            ws.close()
            return
        routes.append(ws)
        routes.append(ws.connect_to_server())

    page = open_page(data["seats"][0]["url"], route=route)
    wait_my_turn_or_over(page)
    assert not shown(page)["over"]
    v = settled(page)
    # The connection drops: the badge says so, and a click is kept, not lost.
    down["now"] = True
    for ws in routes:
        ws.close()
    expect(page.locator("#conn")).to_have_text(EN.t("web_reconnecting"))
    move = page.locator("#moves button.move.turn").first
    label = move.locator(".what").inner_text()
    move.click()
    expect(page.locator("#status")).to_contain_text(EN.t("web_offline_queued"))
    expect(page.locator("#moves button.move.queued")).to_have_count(1)
    page.screenshot(path=str(ARTIFACTS / "web-offline.png"))
    assert shown(page)["v"] == v
    # Back again: the move is sent once, and the table moves on.
    down["now"] = False
    expect(page.locator("#conn")).to_have_text(EN.t("web_online"), timeout=10_000)
    wait_version(page, v + 1)
    name = EN.t("seat_name", seat=0)
    mine = [t for t in page.locator("#log p.op").all_text_contents() if t.startswith(name + " ")]
    assert len(mine) == 1, (label, mine, page.locator("#log p").all_text_contents())
    expect(page.locator("#status")).not_to_contain_text(EN.t("web_offline_queued"))


def test_the_page_says_whom_the_table_waits_for_and_when_their_bot_plays(
        server: Server, open_page: Opener) -> None:
    """A person who drops on their turn without Leave: the others' status says who is
    away, since when, and in how many seconds their bot plays (the server's grace, 30 s)."""
    data = new_table(server, [True, True, False], players=3)
    page = open_page(data["seats"][0]["url"])
    other = Seat(server, data["seats"][1]["token"]).join()
    deadline = time.monotonic() + 30
    while not (other.frame.get("view") and other.frame["view"]["to_move"] == 1):
        assert time.monotonic() < deadline and not (other.frame.get("view") or {}).get("over")
        other.read(0.1)
        mine = page.locator("#moves button.move.turn")
        if shown(page)["mover"] == "0" and mine.count():
            v = shown(page)["v"]
            mine.first.click()
            wait_version(page, v + 1)
    other.close()
    name = EN.t("seat_name", seat=1)
    status = page.locator("#status")
    # (the away sentence says they are to move: the name once, issue 30)
    said = re.compile(re.escape(EN.t("web_away_waiting", name=name, gone="GONE", seconds=99))
                      .replace("GONE", r"0:0\d").replace("99", r"(\d+)"))
    expect(status).to_have_text(said, timeout=10_000)
    match = said.search(status.inner_text())
    assert match and 20 <= int(match.group(1)) <= 30, status.inner_text()
    page.screenshot(path=str(ARTIFACTS / "web-away.png"))


def test_a_bad_link_and_no_link_say_what_to_do(server: Server, open_page: Opener) -> None:
    page = open_page(server.base + "/play#t=not-a-seat", clock=True)
    expect(page.locator("#notice")).to_contain_text(EN.t("web_bad_link"))
    expect(page.locator("#notice a[href='/']")).to_be_visible()
    expect(page.locator("#conn")).to_have_text(EN.t("web_not_connected"))
    page.clock.run_for(60_000)  # a minute of the page's timers: no reconnecting, ever
    expect(page.locator("#conn")).to_have_text(EN.t("web_not_connected"))
    audit(page, "a bad link")
    watch = open_page(server.base + "/play#w=nosuchtable")
    expect(watch.locator("#notice")).to_contain_text(EN.t("web_no_such_table"))
    bare = open_page(server.base + "/play")
    expect(bare.locator("#notice")).to_contain_text(EN.t("web_no_link"))
    expect(bare.locator("#conn")).to_have_text(EN.t("web_not_connected"))
    expect(bare.locator("#board")).to_be_hidden()


def test_a_link_pasted_over_an_open_table_opens_its_own_table(server: Server, open_page: Opener) -> None:
    """Seen before: a second table's link pasted into the address bar of a tab showing a
    first one (the two differ after the #) left the page playing the first, under the
    second's address; a bad link pasted so went unsaid."""
    five = new_table(server, 1)
    three = new_table(server, 1, players=3)
    page = open_page(five["seats"][0]["url"])
    expect(page.locator("#seats .seat")).to_have_count(5)
    page.goto(three["seats"][0]["url"])
    expect(page.locator("#seats .seat")).to_have_count(3)
    page.goto(server.base + "/play#t=not-a-seat")
    expect(page.locator("#notice")).to_contain_text(EN.t("web_bad_link"))


# -- 5. claims in words, keys past the ninth, a seat that lay down ---------------------------


def glyphs(codes: list[str]) -> str:
    return " ".join(Card.parse(c).glyph for c in codes)


CLAIM_WORDS = {"hand_set": "act_claim_set", "dead": "act_claim_dead", "spotter": "act_claim_spot"}


def test_claims_are_said_in_words_and_a_seat_that_lay_down_is_told(server: Server, open_page: Opener) -> None:
    """Five seats played from Python with random moves; the moment a seat has a claim, and
    the moment a seat has lain down, that seat is opened in a page."""
    data = new_table(server, 5)
    seats = [Seat(server, s["token"]).join() for s in data["seats"]]
    rng = random.Random(5)

    def settle() -> dict[str, Any]:
        """Every seat's frame at the table's latest version."""
        for seat in seats:
            seat.wait(lambda f: f["view"] is not None)
        v = max(seat.frame["v"] for seat in seats)
        for seat in seats:
            seat.wait(lambda f: f["v"] >= v)
        return seats[0].frame

    def in_page(s: int, viewport: dict[str, int]) -> Page:
        seats[s].close()
        page = open_page(data["seats"][s]["url"], viewport=viewport)
        wait_version(page, seats[0].frame["v"])
        return page

    def back(page: Page, s: int) -> None:
        page.context.close()
        seats[s].join()

    claimed = out = False
    for _ in range(600):
        frame = settle()
        view = frame["view"]
        if view["over"]:
            seats[0].ws.send(json.dumps({"type": "next_deal"}))  # type: ignore[union-attr]
            seats[0].wait(lambda f, v=frame["v"]: f["v"] > v)
            continue
        with_claim = [s for s, seat in enumerate(seats)
                      if any(a["type"] == "claim" for a in seat.frame["legal"])]
        lain = [s for s in range(5) if view["statuses"][s] != "playing"]
        if with_claim and not claimed:
            s = with_claim[0]
            legal, kinds = seats[s].frame["legal"], seats[s].frame["kinds"]
            page = in_page(s, DESKTOP)
            group = page.locator("#moves .move-group.claims")
            expect(group.locator(".move-title")).to_have_text(EN.t("web_claims_title"))
            buttons = group.locator("button.move.claim")
            claims = [(a, k) for a, k in zip(legal, kinds, strict=True) if a["type"] == "claim"]
            expect(buttons).to_have_count(len(claims))
            for i, (a, kind) in enumerate(claims):
                button = buttons.nth(i)
                words = EN.t(CLAIM_WORDS[kind], cards=glyphs(a["cards"]))
                expect(button.locator(".what")).to_have_text(words)
                help_id = button.get_attribute("aria-describedby")
                words = page.locator(f"#{help_id}").inner_text()
                if kind == "hand_set":
                    key = "web_claim_help_prial" if len(a["cards"]) == 2 else "web_claim_help_mournival"
                else:
                    key = {"dead": "web_claim_help_dead", "spotter": "web_claim_help_spot"}[kind]
                assert words == EN.t(key)
            page.screenshot(path=str(ARTIFACTS / "web-claim.png"))
            audit(page, "a claim")
            # The claim is made from the page, by its key.
            v = shown(page)["v"]
            page.keyboard.press(buttons.first.locator("kbd").inner_text())
            wait_version(page, v + 1)
            expect(page.locator("#last-move")).to_contain_text(glyphs(claims[0][0]["cards"]).split()[0])
            back(page, s)
            claimed = True
            continue
        if lain and not out:
            s = lain[0]
            page = in_page(s, PHONE)
            key = "web_out_lain_down" if view["statuses"][s] == "lain_down" else "web_out_empty"
            expect(page.locator("#status")).to_contain_text(EN.t(key))
            expect(page.locator("#play-sel")).to_be_hidden()
            expect(page.locator("#clear-sel")).to_be_hidden()
            status = EN.t("web_status_" + view["statuses"][s])
            expect(page.locator(f'.seat[data-seat="{s}"]')).to_contain_text(status)
            page.screenshot(path=str(ARTIFACTS / "web-lain-down.png"))
            back(page, s)
            out = True
            continue
        if claimed and out:
            break
        mover = seats[view["to_move"]]
        mover.act(rng.choice([a for a in mover.frame["legal"] if a["type"] != "claim"]))
        mover.wait(lambda f, v=frame["v"]: f["v"] > v)
    assert claimed and out
    for seat in seats:
        assert not [e for e in seat.errors if e["code"] != "stale"], seat.errors
        seat.close()


def test_moves_past_the_ninth_have_keys(server: Server, open_page: Opener) -> None:
    """A real frame of a real table, given twelve moves (a mock websocket serves it), so the
    keys of the tenth to the twelfth can be pressed: 0, a, b; the page sends each back in
    the record's form."""
    data = new_table(server, 1)
    seat = Seat(server, data["seats"][0]["token"]).join()
    frame = seat.wait(lambda f: f["view"] is not None)
    seat.close()
    view = frame["view"]
    hand, table = view["hand"], view["table"]
    legal = [{"seat": 0, "type": "capture", "play": [hand[i % len(hand)]], "take": [table[i % len(table)]]}
             for i in range(12)]
    frame = frame | {"reset": True, "legal": legal, "kinds": ["single"] * 12,
                     "view": view | {"to_move": 0, "over": False}}
    sent: list[dict[str, Any]] = []

    def route(ws: WebSocketRoute) -> None:
        def message(text: str | bytes) -> None:
            msg = json.loads(text)
            if msg["type"] == "join":
                ws.send(json.dumps(frame))
            else:
                sent.append(msg)
        ws.on_message(message)

    page = open_page(data["seats"][0]["url"], route=route)
    buttons = page.locator("#moves button.move.turn")
    expect(buttons).to_have_count(12)
    assert [buttons.nth(i).locator("kbd").inner_text() for i in (8, 9, 10, 11)] == ["9", "0", "a", "b"]
    page.keyboard.press("b")
    page.keyboard.press("0")
    for _ in range(100):  # the page's two messages, however loaded the machine
        if len([m for m in sent if m["type"] == "act"]) >= 2:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(200)  # and no third
    acts = [m for m in sent if m["type"] == "act"]
    assert [m["action"] for m in acts] == [legal[11], legal[9]]
    assert all(m["v"] == frame["v"] for m in acts)


# -- 6. the lobby --------------------------------------------------------------------------

LONG_NAME = "Bartholomew-Maximilian-Featherstonehaughs"[:40]
NO_CLIPBOARD = """
Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});
document.addEventListener('copy', (e) => {
  window.__copied = (e.target && e.target.value) || String(getSelection());
}, true);
"""


def no_spill(page: Page, selector: str) -> list[str]:
    """The boxes matching ``selector`` whose content spills out of them."""
    spilled: list[str] = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter((box) => {
             const r = box.getBoundingClientRect();
             return box.scrollWidth > box.clientWidth + 1 || [...box.querySelectorAll('*')].some((e) => {
               const c = e.getBoundingClientRect();
               return c.width && (c.right > r.right + 1 || c.left < r.left - 1); });
           }).map((box) => box.outerHTML.slice(0, 120))""", selector)
    return spilled


def test_the_lobby_says_what_the_bot_is_for_copies_without_a_clipboard_and_keeps_long_names_in(
        server: Server, open_page: Opener) -> None:
    page = open_page(server.base + "/", init=NO_CLIPBOARD)
    rows = page.locator(".seatrow")
    expect(rows).to_have_count(5)
    # On a person's row the bot select picks the stand-in; on a bot's row, the bot.
    expect(rows.nth(0).locator(".level-label")).to_have_text(EN.t("web_standin"))
    expect(rows.nth(0).locator(".level-help")).to_have_text(EN.t("web_standin_help"))
    expect(rows.nth(1).locator(".level-label")).to_have_text(EN.t("web_level"))
    expect(rows.nth(1).locator(".level-help")).to_be_hidden()
    rows.nth(1).locator("select.who").select_option("human")
    expect(rows.nth(1).locator(".level-label")).to_have_text(EN.t("web_standin"))
    rows.nth(0).locator("input.name").fill(LONG_NAME)
    audit(page, "the lobby")
    page.locator("#create button[type=submit]").click()
    first = page.locator("#links li[data-seat]").first  # the host link comes before the seats
    expect(first).to_contain_text(LONG_NAME)
    url = first.locator("a").get_attribute("href")
    assert url and "#t=" in url
    # No navigator.clipboard (as on a plain-HTTP LAN address): Copy still copies, and says so.
    first.locator("button.copy").click()
    expect(first.locator("button.copy")).to_have_text(EN.t("web_copied"))
    expect(page.locator("#copied")).to_contain_text(EN.t("web_copied"))
    assert page.evaluate("() => window.__copied") == url
    page.screenshot(path=str(ARTIFACTS / "web-lobby-links.png"), full_page=True)
    audit(page, "the lobby's links")
    page.set_viewport_size(NARROW)
    assert sideways(page) == 0, "the links scroll sideways at 360 px"
    # A 40-character name stays inside its seat box, on a desktop and on a phone.
    for viewport in (DESKTOP, PHONE):
        table = open_page(url, viewport=viewport)
        expect(table.locator(".seat").first).to_contain_text(LONG_NAME[:10])
        assert not no_spill(table, ".seat"), no_spill(table, ".seat")
        assert sideways(table) == 0


# -- 7. the replay viewer ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/replay", "/learn"])
def test_on_a_small_phone_every_control_takes_a_finger_and_nothing_goes_sideways(
        server: Server, open_page: Opener, path: str) -> None:
    """360 px wide, in German: seen before, every drop-down (the language, the lobby's
    players and bots, the replay's seat) was 20–23 px high and a checkbox 13 px, and the
    replay page's file picker pushed it 8 px sideways."""
    page = open_page(server.base + path, viewport=NARROW, locale="de-DE")
    expect(page.locator("#lang")).to_be_visible()
    page.wait_for_timeout(500)  # the page's own controls, drawn once its sentences are in
    small = page.evaluate("""() => [...document.querySelectorAll('select, input, button')]
      .filter((e) => e.offsetParent && e.type !== 'hidden').map((e) => {
        const r = e.getBoundingClientRect();
        const box = e.type === 'checkbox' || e.type === 'radio';
        return [e.id || e.name || e.type, Math.round(r.width), Math.round(r.height), box];
      }).filter(([, w, h, box]) => box ? w < 20 || h < 20 : h < 32)""")
    assert small == [], f"too small to tap: {small}"
    assert sideways(page) == 0

def test_the_replay_viewer_names_players_shows_piles_and_explains_itself(
        server: Server, open_page: Opener) -> None:
    names = ["Anne Bonny", "Ben", None, "Dorothea", "Eve"]
    data = names_table(server, [{"human": False, "level": "random", "name": n} for n in names])
    table = data["table"]["id"]
    deadline = time.monotonic() + 30
    while httpx.get(f"{server.base}/api/tables/{table}/deals/0/record").status_code != 200:
        assert time.monotonic() < deadline, "the bots never finished a deal"
        time.sleep(0.2)
    page = open_page(f"{server.base}/replay#table={table}&deal=0")
    expect(page.locator("#viewer")).to_be_visible()
    expect(page.locator("#record")).to_be_hidden()  # no raw JSON box
    shown_names = page.locator(".replay-hands .row .nm").all_text_contents()
    assert shown_names == [n or EN.t("seat_name", seat=s) for s, n in enumerate(names)]
    expect(page.locator("#step")).to_contain_text("before the first move")
    page.keyboard.press("ArrowRight")
    mover = page.locator(".replay-hands .row.to-move")
    expect(mover.locator(".badge.turn")).to_have_text(EN.t("web_to_move_mark"))
    assert "◀" not in (page.locator("body").text_content() or "")
    # The first move, by the name of who made it.
    expect(page.locator("#lines")).to_contain_text(re.compile("|".join(n or "Seat 2" for n in names)))
    audit(page, "the replay")
    page.keyboard.press("End")
    # At the end every card is in a won pile, and the piles are shown as cards.
    expect(page.locator(".replay-hands .pile:nth-child(3) .card")).to_have_count(52)
    expect(page.locator("#lines")).to_contain_text("Anne Bonny")
    page.screenshot(path=str(ARTIFACTS / "web-replay.png"), full_page=True)
    page.set_viewport_size(NARROW)
    assert sideways(page) == 0, "the replay viewer scrolls sideways at 360 px"
    # The hands' and piles' cards big enough to read their corners (seen before: 22 px wide)
    widths = page.evaluate("() => [...document.querySelectorAll('.replay-hands .pile .card')]"
                           ".map((c) => c.getBoundingClientRect().width)")
    assert widths and min(widths) >= 30, min(widths)

    bare = open_page(server.base + "/replay")
    expect(bare.locator("#record")).to_be_hidden()
    expect(bare.locator("#file")).to_be_visible()
    bare.locator("#paste summary").click()
    bare.locator("#load").click()
    expect(bare.locator("#load-error")).to_have_text(EN.t("web_replay_empty"))
    bare.locator("#record").fill("{")
    bare.locator("#load").click()
    expect(bare.locator("#load-error")).to_contain_text(EN.t("web_replay_bad", reason="")[:20])
    audit(bare, "the replay's loader")


def test_a_replay_of_no_table_no_deal_or_no_record_is_said_in_the_pages_language(
        server: Server, open_page: Opener) -> None:
    """Seen before: in German, the replay of a closed table's deal said only "there is no
    such table", in English, and a deal not over "deal 99 is not over, or ..."."""
    de = Catalog("de")
    page = open_page(f"{server.base}/replay#table=nosuch&deal=0", locale="de-DE")
    expect(page.locator("#load-error")).to_have_text(de.t("web_no_such_table"))
    table = new_table(server, 1)["table"]["id"]
    page = open_page(f"{server.base}/replay#table={table}&deal=99", locale="de-DE")
    expect(page.locator("#load-error")).to_have_text(de.t("web_refused_no_deal"))
    # Pasted text that is no record: the page's own sentence (it framed "malformed JSON: ...")
    bare = open_page(server.base + "/replay", locale="de-DE")
    bare.locator("#paste summary").click()
    bare.locator("#record").fill("{")
    bare.locator("#load").click()
    expect(bare.locator("#load-error")).to_have_text(de.t("web_replay_unreadable"))
    lie_downs = [{"seat": 0, "type": "lie_down"}] * 3
    record = json.dumps({"format": "lald-record/1", "seed": 3, "actions": lie_downs})
    bare.locator("#record").fill(record)
    bare.locator("#load").click()
    expect(bare.locator("#load-error")).to_contain_text(de.t("web_replay_bad_move", move=9)[:30])


def test_the_replay_loader_waits_for_its_sentences(server: Server, browser: Browser) -> None:
    """Seen in a run: Replay clicked before the page's catalog had come showed the bare
    key "web_replay_empty"; now the loader waits for the catalog (held back here)."""
    context = browser.new_context(viewport=DESKTOP)
    try:
        held: list[Route] = []
        context.route("**/api/i18n/*", lambda route: held.append(route))
        page = context.new_page()
        page.goto(server.base + "/replay", wait_until="commit")
        for _ in range(250):  # the page asks for its catalog at once
            if held:
                break
            page.wait_for_timeout(20)
        assert held, "the replay page never asked for its catalog"
        page.locator("#paste summary").click()
        page.locator("#load").click(force=True)  # as a person would, while it cannot work
        expect(page.locator("#load-error")).to_be_empty()
        expect(page.locator("#load")).to_be_disabled()
        held[0].continue_()
        page.locator("#load").click()
        expect(page.locator("#load-error")).to_have_text(EN.t("web_replay_empty"))
    finally:
        context.close()


# -- the rules -----------------------------------------------------------------------------


def test_the_rules_page_links_the_projects_own_rules(client: TestClient) -> None:
    page = client.get("/rules")
    assert page.status_code == 200 and 'href="/docs/rules.md"' in page.text
    assert 'href="/rules"' in client.get("/play").text and 'href="/rules"' in client.get("/").text
    served = client.get("/docs/rules.md")
    if (DOCS / "rules.md").is_file():
        assert served.status_code == 200 and served.text == (DOCS / "rules.md").read_text(encoding="utf-8")
    else:
        assert served.status_code == 404 and "docs/" in served.text
    assert client.get("/docs/strength.md").status_code == 404  # only the documents meant for players
    assert client.get("/docs/..%2Fpyproject.toml").status_code == 404


# -- five people, and a server that dies (last: it restarts the module's server) ------------


def test_five_browsers_play_a_deal_to_the_settlement_and_survive_a_restart(
        server: Server, open_page: Opener) -> None:
    data = new_table(server, 5)
    pages = [open_page(seat["url"], viewport=PHONE if s == 4 else DESKTOP, locale=LOCALES[s])
             for s, seat in enumerate(data["seats"])]
    for page in pages:
        wait_version(page, 1)
    expect(pages[1].locator("#h-hand")).to_have_text("Deine Hand")
    expect(pages[3].locator("#h-hand")).to_have_text("Tu mano")
    turns = 0
    while not shown(pages[0])["over"]:
        now = shown(pages[0])
        mover = pages[int(now["mover"])]
        wait_version(mover, now["v"])
        move = mover.locator("#moves button.move.turn").first
        kind, cards = move.get_attribute("data-kind"), move.get_attribute("data-cards")
        if kind == "capture" and turns % 2 == 0:
            for card in (cards or "").split():  # pick the cards, then Play
                mover.locator(f'#hand [data-card="{card}"], #table [data-card="{card}"]').click()
            mover.locator("#play-sel").click()
        elif turns % 3 == 1:
            mover.keyboard.press("1" if not mover.locator("#moves button.move.claim").count() else
                                 move.locator("kbd").inner_text())
        else:
            move.click()
        for page in pages:
            wait_version(page, now["v"] + 1)
        turns += 1
        if turns == 6:
            pages[0].screenshot(path=str(ARTIFACTS / "web-table-midgame.png"))
            pages[4].screenshot(path=str(ARTIFACTS / "web-table-phone.png"))
        assert turns < 200
    for page in pages:
        expect(page.locator("#settlement")).to_be_visible()
        expect(page.locator("#settlement table.settle tbody tr")).to_have_count(5)
    page.screenshot(path=str(ARTIFACTS / "web-settlement-phone.png"), full_page=True)
    log = pages[0].locator("#log p")
    if pages[0].locator("#log p", has_text="lies down").count():
        expect(pages[0].locator("#log p.laugh").first).to_have_text("The others laugh!")
    assert log.count() > turns
    expect(pages[0].locator("#ledger tbody tr").first.locator("td").first).to_contain_text("1")
    expect(pages[2].locator("#next-deal")).to_be_visible()

    # The server dies and comes back: the pages reconnect by themselves.
    server.kill()
    for page in pages:
        expect(page.locator("#conn")).to_have_class("conn down", timeout=10_000)
    server.start()
    for page in pages:
        expect(page.locator("#conn")).to_have_class("conn", timeout=15_000)
        expect(page.locator("#settlement")).to_be_visible()
    v = shown(pages[2])["v"]
    pages[2].locator("#next-deal").click()
    for s, page in enumerate(pages):
        wait_version(page, v + 1)
        # The page that went on shows the new deal; the others keep their settlement until
        # their person closes it (it says that the next deal has begun).
        if s == 2:
            expect(page.locator("#settlement")).to_be_hidden()
        else:
            expect(page.locator("#settlement .kept")).to_be_visible()
            page.locator("#settle-close").click()
            expect(page.locator("#settlement")).to_be_hidden()
    pages[0].screenshot(path=str(ARTIFACTS / "web-next-deal.png"))
