"""The table page and the network, in Debian's Chromium: a browser gone offline is not
"Connected" and its move waits in words, then is played once; a socket that goes silent
(no pong) counts as lost and the server drops it, so the host sees the seat offline; and
a frame that leaves the hand unchanged keeps its elements, so a click pressed before a
frame and released after it still plays."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, WebSocketRoute, expect

from lald.i18n import Catalog

from ..conftest import Server, create
from .pages import FAST, Opener, settled, shown, wait_my_turn_or_over, wait_version

EN = Catalog("en")


def new_table(server: Server, humans: list[bool] | int, **rules: Any) -> dict[str, Any]:
    with httpx.Client(base_url=server.base) as http:
        return create(http, humans, **rules)


def my_moves(page: Page) -> list[str]:
    name = EN.t("seat_name", seat=0)
    return [t for t in page.locator("#log p.op").all_text_contents() if t.startswith(name + " ")]


def at_my_turn(page: Page) -> int:
    wait_my_turn_or_over(page)
    assert not shown(page)["over"]
    return settled(page)


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose pages ping every half second and wait one second for the pong, and
    which drops a page silent for three."""
    tmp = tmp_path_factory.mktemp("net")
    s = Server(f"sqlite:///{tmp / 'net.db'}", *FAST, "--ping-seconds", "0.5", "--pong-seconds", "1",
               "--silent-seconds", "3", log=tmp / "server.log")
    s.start()
    try:
        yield s
    finally:
        s.stop()


def test_an_offline_browser_is_not_connected_and_its_move_waits_then_plays_once(
        server: Server, open_page: Opener) -> None:
    data = new_table(server, 1, players=3)
    page = open_page(data["seats"][0]["url"], clock=True)
    v = at_my_turn(page)
    expect(page.locator("#conn")).to_have_text(EN.t("web_online"))
    page.context.set_offline(True)
    # Within the pong's wait (10 s by default): here at once, the browser says it is offline.
    expect(page.locator("#conn")).to_have_text(EN.t("web_reconnecting"), timeout=12_000)
    move = page.locator("#moves button.move.turn").first
    move.click()
    expect(page.locator("#moves button.move.queued .waiting")).to_have_text(EN.t("web_move_waiting"))
    expect(page.locator("#status")).to_contain_text(EN.t("web_offline_queued"))
    page.clock.run_for(30_000)  # the page's retries and its move's "slow" mark, offline
    assert shown(page)["v"] == v and my_moves(page) == []
    page.context.set_offline(False)
    expect(page.locator("#conn")).to_have_text(EN.t("web_online"), timeout=10_000)
    wait_version(page, v + 1)
    expect(page.locator("#moves .waiting")).to_have_count(0)
    assert len(my_moves(page)) == 1, page.locator("#log p").all_text_contents()


# Without the browser's offline event: only the heartbeats can tell the socket is dead.
NO_OFFLINE_EVENT = """
const add = window.addEventListener;
window.addEventListener = function (type, ...rest) {
  if (type === "offline" || type === "online") return;
  return add.call(this, type, ...rest);
};
"""


def test_a_silent_socket_is_lost_without_its_pong_and_the_host_sees_the_seat_offline(
        quick: Server, open_page: Opener) -> None:
    data = new_table(quick, 1, players=3)
    blocked = {"now": False}

    def route(ws: WebSocketRoute) -> None:
        if blocked["now"]:  # no new connection through a dead network either
            ws.close()
            return
        server = ws.connect_to_server()
        # Nothing gets through while "blocked", either way, and the socket stays open: a
        # network gone silent under it.
        ws.on_message(lambda m: None if blocked["now"] else server.send(m))
        server.on_message(lambda m: None if blocked["now"] else ws.send(m))

    page = open_page(data["seats"][0]["url"], init=NO_OFFLINE_EVENT, route=route)
    v = at_my_turn(page)
    host = {"token": data["host"]["token"]}

    def online() -> bool:
        seats = httpx.post(quick.base + "/api/host", json=host).json()["seats"]
        return bool(seats[0]["online"])

    page.wait_for_timeout(1500)  # pings came and went: still connected on both ends
    expect(page.locator("#conn")).to_have_text(EN.t("web_online"))
    assert online()
    blocked["now"] = True
    start = time.monotonic()
    page.locator("#moves button.move.turn").first.click()
    expect(page.locator("#moves button.move.queued")).to_have_count(1)
    # The pong does not come within its wait (a ping every 0.5 s, a wait of 1 s).
    expect(page.locator("#conn")).to_have_text(EN.t("web_reconnecting"), timeout=4_000)
    assert time.monotonic() - start < 4
    expect(page.locator("#moves button.move.queued .waiting")).to_have_text(EN.t("web_move_waiting"))
    # The server heard nothing for 3 s: the seat is offline to the host.
    deadline = time.monotonic() + 8
    while online():
        assert time.monotonic() < deadline, "the host still sees the silent page as connected"
        time.sleep(0.2)
    blocked["now"] = False
    expect(page.locator("#conn")).to_have_text(EN.t("web_online"), timeout=10_000)
    wait_version(page, v + 1)
    assert len(my_moves(page)) == 1, page.locator("#log p").all_text_contents()


def test_a_frame_leaves_an_unchanged_hand_as_it_is_and_a_click_across_it_plays(
        server: Server, open_page: Opener) -> None:
    data = new_table(server, 1, players=3)
    routes: list[WebSocketRoute] = []
    frames: list[dict[str, Any]] = []
    ups: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        server_side = ws.connect_to_server()

        def down(m: str | bytes) -> None:
            frames.append(json.loads(m))
            ws.send(m)
        server_side.on_message(down)

        def up(m: str | bytes) -> None:
            ups.append(json.loads(m)["type"])
            server_side.send(m)
        ws.on_message(up)
        routes.append(server_side)

    page = open_page(data["seats"][0]["url"], route=route)
    v = at_my_turn(page)

    def frame_comes() -> None:
        """The server sends a frame of the table as it is (a page's language, again)."""
        n = len(frames)
        routes[-1].send(json.dumps({"type": "lang", "lang": "en"}))
        deadline = time.monotonic() + 10
        while not any(f["type"] == "state" for f in frames[n:]):
            assert time.monotonic() < deadline
            page.wait_for_timeout(20)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")

    page.evaluate("""() => {
        document.querySelector('#hand button.card').__kept = 1;
        document.querySelector('#moves button.move.turn').__kept = 1; }""")
    frame_comes()
    assert shown(page)["v"] == v
    assert page.evaluate("() => document.querySelector('#hand button.card').__kept === 1")
    assert page.evaluate("() => document.querySelector('#moves button.move.turn').__kept === 1")

    def press_across_a_frame(selector: str) -> None:
        # In view first: a long list of moves (a claim open, sixteen moves) puts the first
        # turn move below the window, where a press at its place meets nothing.
        page.locator(selector).first.scroll_into_view_if_needed()
        box = page.locator(selector).first.bounding_box()
        assert box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        # (nothing over it: the press meets this button)
        assert page.locator(selector).first.evaluate(
            "(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y]), box
        page.mouse.move(x, y)
        page.mouse.down()
        frame_comes()
        page.mouse.up()

    # A card pressed before a frame and released after it is picked.
    press_across_a_frame("#hand button.card")
    expect(page.locator("#hand button.card").first).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(page.locator("#hand button.card[aria-pressed=true]")).to_have_count(0)
    # A move pressed before a frame and released after it is played, once.
    n, m = len(frames), len(ups)
    press_across_a_frame("#moves button.move.turn")
    try:
        wait_version(page, v + 1)
    except PlaywrightError:  # what the page sent, was told and showed: why, in the message
        told = [(f["type"], f.get("v"), f.get("code")) for f in frames[n:]]
        raise AssertionError(f"the move was not played: sent {ups[m:]}, told {told}, "
                             f"page {page.evaluate(_STATE)}") from None
    page.wait_for_timeout(300)
    assert len(my_moves(page)) == 1, page.locator("#log p").all_text_contents()


_STATE = """() => ({ v: document.body.dataset.v, conn: document.querySelector('#conn').textContent,
    focused: document.activeElement && document.activeElement.dataset.focus,
    moves: [...document.querySelectorAll('#moves button.move')].map((b) => b.textContent),
    status: document.querySelector('#status').textContent })"""


def test_the_host_page_says_in_words_that_the_server_cannot_be_reached(
        server: Server, open_page: Opener) -> None:
    data = new_table(server, [True, True, False], players=3)
    page = open_page(data["host"]["url"])
    links = page.locator("#links li[data-seat]")
    expect(links).to_have_count(2)
    expect(links.first).to_contain_text(EN.t("web_host_not_joined"))
    page.context.set_offline(True)
    # The host page asks again every 5 s: no "Failed to fetch", a sentence, and no seat
    # said to be connected or not while nobody can know.
    expect(page.locator("#host-down")).to_have_text(EN.t("web_host_unreachable"), timeout=8_000)
    expect(links.first).to_contain_text(EN.t("web_host_unknown"))
    assert "Failed to fetch" not in page.locator("body").inner_text()
    # Another language cannot be fetched meanwhile: said in words, the page as it was
    # (seen: an unhandled "Failed to fetch", and the list naming a language not shown).
    page.locator("#lang").select_option("de")
    expect(page.locator("#toast")).to_have_text(EN.t("web_server_unreachable"))
    expect(page.locator("#lang")).to_have_value("en")
    expect(page.locator("#host-down")).to_have_text(EN.t("web_host_unreachable"))
    page.context.set_offline(False)
    expect(page.locator("#host-down")).to_be_hidden(timeout=8_000)
    expect(links.first).to_contain_text(EN.t("web_host_not_joined"))


def test_a_move_sent_that_the_table_has_not_shown_says_so_in_words(server: Server, open_page: Opener) -> None:
    data = new_table(server, 1, players=3)
    swallow = {"now": False}

    def route(ws: WebSocketRoute) -> None:
        server_side = ws.connect_to_server()
        # The page's move is lost on the way (its pings are not): the page stays connected.
        ws.on_message(lambda m: None if swallow["now"] and json.loads(m)["type"] == "act"
                      else server_side.send(m))

    page = open_page(data["seats"][0]["url"], route=route)
    v = at_my_turn(page)
    swallow["now"] = True
    page.locator("#moves button.move.turn").first.click()
    expect(page.locator("#moves button.move.queued .waiting")).to_have_text(EN.t("web_move_sent"))
    expect(page.locator("#conn")).to_have_text(EN.t("web_online"))
    assert shown(page)["v"] == v
