"""The pages under the Content-Security-Policy, in Debian's Chromium (Playwright): a table
is opened from the lobby's form, the host's view shows who joined and brings the links
back after a reload, a new link stops the old one at once, a seat opened on a second
device closes the first with a notice, and a practice table says so to every seat. Any
console error (a refused script or style among them) fails the test."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect, sync_playwright

from ..conftest import Server, create

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--no-first-run"]


def test_lobby_host_view_takeover_and_practice_under_the_csp(tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    assert chromium, "the page tests need Debian's chromium: apt-get install chromium"
    server = Server(f"sqlite:///{tmp_path / 'pages.db'}", log=tmp_path / "server.log")
    server.start()
    errors: list[str] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=ARGS)

            def page() -> Page:
                p = browser.new_context(locale="en-GB").new_page()
                p.on("pageerror", lambda e: errors.append(str(e)))
                p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                return p

            lobby = page()
            lobby.goto(server.base + "/")
            expect(lobby.locator(".seatrow")).to_have_count(5)
            lobby.locator(".seatrow select.who").nth(1).select_option("human")
            lobby.locator("#create button[type=submit]").click()
            expect(lobby.locator("#created")).to_be_visible()
            links = lobby.locator("#links li a")
            expect(links).to_have_count(4)  # the host's link, two seats, the watch link
            assert "#host=" in lobby.url
            seat0 = links.nth(1).get_attribute("href")
            assert seat0 and "#t=" in seat0
            lobby.reload()  # the host link brings the links back
            expect(lobby.locator("#links li a")).to_have_count(4)
            assert lobby.locator("#links li a").nth(1).get_attribute("href") == seat0
            expect(lobby.locator("#host-note")).to_have_text("")

            first = page()
            first.goto(seat0)
            expect(first.locator("#conn")).to_have_class("conn")
            expect(lobby.locator("#links li").nth(1)).to_contain_text("connected", timeout=10_000)
            second = page()  # the same link on another device takes the seat over
            second.goto(seat0)
            expect(first.locator("#notice")).to_contain_text("This seat was opened on another device.")
            expect(second.locator("#conn")).to_have_class("conn")

            lobby.locator("#links li button.reissue").first.click()  # a new link for seat 0
            expect(second.locator("#notice")).to_contain_text("new link")
            expect(lobby.locator("#links li a").nth(1)).not_to_have_attribute("href", seat0)
            old = page()
            old.goto(seat0)
            expect(old.locator("#notice")).to_contain_text("This invitation link is not valid")
            lobby.locator("#close-table").click()
            expect(lobby.locator("#host-note")).to_have_text("This table is closed.")

            with httpx.Client(base_url=server.base) as http:
                practice = create(http, 1, seed=77)
            p = page()
            p.goto(practice["seats"][0]["url"])
            expect(p.locator("#practice")).to_be_visible()
            expect(p.locator("#practice")).to_contain_text("Practice table")
            lobby.goto(server.base + "/")
            row = lobby.locator(f"#tables li[data-table='{practice['table']['id']}']")
            expect(row).to_contain_text("practice")
            r = page()
            r.goto(server.base + "/replay")
            expect(r.locator("#loader")).to_be_visible()  # the paste box itself starts folded
            browser.close()
    finally:
        server.stop()
    # A refused websocket (the invalid link's page) is not an error of the page.
    assert not errors, errors
