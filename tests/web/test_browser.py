"""Five browsers (Playwright driving Debian's Chromium) each open their seat's link and
play a whole deal to the settlement by clicking; then the server is killed and restarted
and every page reconnects by itself. Screenshots go to ``artifacts/``."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect, sync_playwright

from .conftest import Server, create

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--no-first-run"]
LOCALES = ["en-GB", "de-DE", "pt-PT", "es-ES", "en-US"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def shown(page: Page) -> dict[str, Any]:
    """What the page says it shows: version, seat to move, deal over."""
    data: dict[str, Any] = page.evaluate(
        "() => ({v: Number(document.body.dataset.v ?? -1), mover: document.body.dataset.toMove,"
        " over: document.body.dataset.over === '1'})")
    return data


def wait_version(page: Page, v: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.v ?? -1) >= {v}", timeout=10_000)


def test_five_browsers_play_a_deal_to_the_settlement(tmp_path: Path) -> None:
    chromium = shutil.which("chromium")
    assert chromium, "the browser test needs Debian's chromium: apt-get install chromium"
    ARTIFACTS.mkdir(exist_ok=True)
    server = Server(f"sqlite:///{tmp_path / 'browser.db'}", log=tmp_path / "server.log")
    server.start()
    errors: list[str] = []
    try:
        with httpx.Client(base_url=server.base) as http:
            data = create(http, 5, seed=2024)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=ARGS)
            pages = []
            for s, seat in enumerate(data["seats"]):
                context = browser.new_context(locale=LOCALES[s], viewport=PHONE if s == 4 else DESKTOP)
                page = context.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.goto(seat["url"])
                pages.append(page)
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
                    mover.keyboard.press("1")  # keyboard play: the first move
                else:
                    move.click()
                for page in pages:
                    wait_version(page, now["v"] + 1)
                turns += 1
                if turns == 6:
                    pages[0].screenshot(path=str(ARTIFACTS / "web-table-midgame.png"))
                    pages[4].screenshot(path=str(ARTIFACTS / "web-table-phone.png"), full_page=True)
                assert turns < 200
            for s, page in enumerate(pages):
                expect(page.locator("#settlement")).to_be_visible()
                expect(page.locator("#settlement p").first).not_to_be_empty()
                page.screenshot(path=str(ARTIFACTS / f"web-settlement-seat{s}.png"), full_page=True)
            log = pages[0].locator("#log p")
            if pages[0].locator("#log p", has_text="lies down").count():
                expect(pages[0].locator("#log p.laugh").first).to_have_text("The others laugh!")
            assert log.count() > turns
            expect(pages[0].locator("#ledger td").first).to_have_text("1")
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
            for page in pages:
                wait_version(page, v + 1)
                expect(page.locator("#settlement")).to_be_hidden()
            pages[0].screenshot(path=str(ARTIFACTS / "web-next-deal.png"))
            browser.close()
    finally:
        server.stop()
    # While the server is down the pages' reconnection attempts are refused, as they should be.
    assert not [e for e in errors if "ERR_CONNECTION_REFUSED" not in e], errors
