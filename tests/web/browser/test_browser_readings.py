"""The readings laboratory in Chromium (issue 33, item 5): pick two readings, who plays and
the deals, run, watch the progress and the figures fill in, see the report with its plots;
reload its link and see it again; the caps refuse in words; play a reading at a practice
table. On a server of its own, whose hourly deals per address are few."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page

from ..conftest import Server
from .pages import FAST, PHONE, Opener


@pytest.fixture(scope="module")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("lab")
    s = Server(f"sqlite:///{tmp / 'lab.db'}", *FAST, "--lab-deals-per-hour", "700", log=tmp / "server.log")
    s.start()
    try:
        yield s
    finally:
        s.stop()


STATUS = "document.querySelector('#lab-status').textContent"


def status(page: Page) -> str:
    return page.inner_text("#lab-status")


def pick(page: Page, deals: int, seed: int = 1) -> None:
    """survivor/3 against last-capture/3 with its sweep forced, random bots."""
    page.select_option("select[name=a-players]", "3")
    page.select_option("select[name=b-players]", "3")
    page.fill("input[name=b-options]", "single_takes_three=forced")
    page.select_option("#lab-players", "random")
    page.fill("#lab-deals", str(deals))
    page.fill("#lab-seed", str(seed))


def test_pick_run_watch_reload_and_play(lab_server: Server, open_page: Opener) -> None:
    page = open_page(f"{lab_server.base}/readings", viewport=PHONE)
    page.wait_for_selector("select[name=a-preset]")
    pick(page, 300)
    page.click("#lab-run")
    # The progress shows while the worker plays, then the figures fill in, then the report.
    page.wait_for_function(f"() => /Playing|Waiting|drawing/.test({STATUS})")
    page.wait_for_function(f"() => {STATUS}.startsWith('Done')", timeout=120_000)
    link = page.url.split("#")[1]
    assert link.startswith("r=") and "&a=survivor%2F3&" in link
    head = page.locator("#lab-figures thead").inner_text()
    assert "survivor/3" in head and "last-capture:single_takes_three=forced/3" in head
    rows = page.locator("#lab-figures tbody tr")
    assert rows.count() == 8
    turns = rows.nth(0).inner_text()
    assert turns.startswith("Turns per deal") and "[" in turns
    assert page.eval_on_selector("#lab-progress", "p => p.value === p.max && p.max === 600")
    plots = page.locator(".lab-report img.lab-plot")
    assert plots.count() >= 3
    assert plots.first.get_attribute("src").startswith("data:image/png;base64,")  # type: ignore[union-attr]
    assert page.locator(".lab-report table").count() >= 5
    # On a phone the page never scrolls sideways: the report's tables scroll in their box.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # The link shows the same comparison to whoever opens it, without playing it again.
    again = open_page(f"{lab_server.base}/readings#{link}")
    again.wait_for_function("() => document.querySelector('#lab-status').textContent.startsWith('Done')")
    assert again.locator("#lab-figures tbody tr").nth(0).inner_text() == turns
    page.reload()
    page.wait_for_selector(".lab-report img.lab-plot")
    assert status(page).startswith("Done: 300 deals")
    # Play this reading: a practice table under its rules, the visitor in seat 0.
    page.click("#lab-play-b")
    page.wait_for_url("**/play#t=*")
    page.wait_for_selector("#seats")
    page.wait_for_function("() => !document.querySelector('#practice').hidden")


def test_the_caps_refuse_in_words(lab_server: Server, open_page: Opener) -> None:
    page = open_page(f"{lab_server.base}/readings")
    page.wait_for_selector("select[name=a-preset]")
    pick(page, 5000)  # more than random bots may play in one request
    page.click("#lab-run")
    page.wait_for_function("() => document.querySelector('#lab-status').textContent.includes('cannot')")
    assert status(page) == ("That comparison cannot be made: deals: give a whole number from 1 to 4,000 "
                            "(with random players)")
    page.fill("input[name=a-options]", "prize=700")
    page.fill("#lab-deals", "10")
    page.click("#lab-run")
    page.wait_for_function("() => document.querySelector('#lab-status').textContent.includes('prize')")
    assert status(page).startswith("That comparison cannot be made:") and "700" in status(page)
    page.fill("input[name=a-options]", "")
    # The address's deals this hour: 300 above, 700 at most.
    pick(page, 500, seed=2)
    page.click("#lab-run")
    page.wait_for_function("() => document.querySelector('#lab-status').textContent.includes('last hour')")
    assert status(page) == ("Your address has asked for 300 deals in the last hour, and may ask for 700: "
                            "ask for fewer deals, or come back later.")
    # In German too.
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.querySelector('#lab-run').textContent === 'Vergleichen'")
    pick(page, 500, seed=3)
    page.click("#lab-run")
    page.wait_for_function("() => document.querySelector('#lab-status').textContent.includes('Stunde')")
    assert "300 Runden" in status(page) and "700" in status(page)


def test_an_unknown_comparison_is_said_in_words(lab_server: Server, open_page: Opener) -> None:
    page = open_page(f"{lab_server.base}/readings#r=0123456789abcdef")
    page.wait_for_function("() => document.querySelector('#lab-status').textContent.includes('no such')")
    assert status(page).startswith("There is no such comparison")


def test_a_link_the_server_does_not_keep_asks_for_its_comparison_again(lab_server: Server,
                                                                      open_page: Opener) -> None:
    # A server restarted, or another of a site, does not know the comparison: the link holds
    # its request, so the page asks for it again and shows it.
    request = "a=survivor%2F3&b=last-capture%2F3&players=random&deals=4&seed=9"
    page = open_page(f"{lab_server.base}/readings#r=0000000000000000&{request}")
    page.wait_for_function(f"() => {STATUS}.startsWith('Done')", timeout=60_000)
    assert page.locator("#lab-figures tbody tr").count() == 8
    assert page.url.split("#")[1] != f"r=0000000000000000&{request}"  # its own id now
