"""What the browser tests share: Debian's Chromium's flags, the page sizes, a fast server's
flags, and helpers that read what a page shows (its version, whether it is at rest, what
lies on screen) and audit it with axe-core. The fixtures (one server and one browser for
the whole run, pages that must log no error) are in ``tests/web/conftest.py``."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--no-first-run"]
PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
NARROW = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
# Bots act at once, so a deal against them takes seconds; the expert's review samples few
# deals, so it takes a fraction of a second. Every browser test opens its tables from
# 127.0.0.1: the limit per address is raised (test_guard checks the limit itself). The
# seats some tests play from Python do not ping as a page does: a silent socket is kept
# for ten minutes (test_browser_net.py checks the drop with its own server).
FAST = ("--bot-delay", "0.05", "--claim-window", "0.3", "--deal-pause", "0.5", "--review-worlds", "12",
        "--tables-at-once", "1000", "--silent-seconds", "600")

Opener = Callable[..., Page]

_ADDRESSES = itertools.count(1)


def own_address() -> dict[str, str]:
    """A header by which the test server (which trusts 127.0.0.1's ``X-Forwarded-For``)
    counts a test's requests against an address of its own (TEST-NET-2, never contacted):
    the limits per address, accounts made among them, are the whole session's otherwise,
    and a test would be refused for what the tests before it did."""
    return {"X-Forwarded-For": f"198.51.100.{next(_ADDRESSES) % 250 + 1}"}


def shown(page: Page) -> dict[str, Any]:
    """What the page says it shows: version, seat to move, deal over."""
    data: dict[str, Any] = page.evaluate(
        "() => ({v: Number(document.body.dataset.v ?? -1), mover: document.body.dataset.toMove,"
        " over: document.body.dataset.over === '1'})")
    return data


def wait_version(page: Page, v: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.v ?? -1) >= {v}", timeout=10_000)


def wait_my_turn_or_over(page: Page, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "() => document.body.dataset.over === '1' || document.querySelector('#moves button.move.turn')",
        timeout=timeout)


def at_top(page: Page) -> None:
    """Back at the top of the page, once any scroll the page began for the decision that
    came (it may bring the table above the player's panel) has started."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    # A scroll the page began later (a frame that came meanwhile) would carry it down again
    # after one scroll to the top: scroll at every poll until the top holds.
    page.wait_for_function(
        "() => { if (window.scrollY !== 0) window.scrollTo({ top: 0, behavior: 'instant' });"
        " return window.scrollY === 0; }")


def scroll_settled(page: Page, quiet: float = 0.3, seconds: float = 10.0) -> None:
    """Once a scroll the page began (smoothly, after a decision came: it may start a frame
    later) has ended: the page's scroll position unchanged for ``quiet`` seconds."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    y, since, deadline = page.evaluate("() => scrollY"), time.monotonic(), time.monotonic() + seconds
    while time.monotonic() - since < quiet and time.monotonic() < deadline:
        page.wait_for_timeout(50)
        now = page.evaluate("() => scrollY")
        if now != y:
            y, since = now, time.monotonic()


def settled(page: Page, quiet: float = 1.0) -> int:
    """The table's version once it has not changed for ``quiet`` seconds (the bots are done
    with their claims and wait for this page)."""
    v, since = shown(page)["v"], time.monotonic()
    while time.monotonic() - since < quiet:
        page.wait_for_timeout(100)
        now = shown(page)["v"]
        if now != v:
            v, since = now, time.monotonic()
    return int(v)


def audit(page: Page, what: str) -> None:
    """axe-core on the page as it is, at 1280×800 and at 390×844: no serious or critical
    violation (the viewport is put back afterwards)."""
    before = page.viewport_size
    found = []
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        # A page at rest: transient effects (the laugh, a move's marks) have played out.
        page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')",
                               timeout=6_000)
        response = Axe().run(page).response
        for v in response["violations"]:
            if v["impact"] in ("serious", "critical"):
                found.append(f"{what} at {size['width']}×{size['height']}: {v['id']} ({v['impact']}): "
                             f"{v['help']} — {[n['target'] for n in v['nodes']][:4]}")
    if before:
        page.set_viewport_size(before)
    assert not found, "\n".join(found)


def on_screen(page: Page, selector: str) -> bool:
    """Whether the element lies wholly inside the viewport and inside every scrolled box
    around it (so it can be seen without scrolling anything)."""
    result: bool = page.evaluate(
        """(sel) => {
          const el = document.querySelector(sel);
          const r = el.getBoundingClientRect();
          const inside = r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
            && r.right <= innerWidth;
          if (!inside) return false;
          for (let p = el.parentElement; p; p = p.parentElement) {
            const style = getComputedStyle(p);
            if (!/(auto|scroll|hidden)/.test(style.overflowY + style.overflowX)) continue;
            const c = p.getBoundingClientRect();
            if (r.top < c.top - 1 || r.bottom > c.bottom + 1 || r.left < c.left - 1
                || r.right > c.right + 1) return false;
          }
          return true; }""",
        selector)
    return result


def sideways(page: Page) -> int:
    """How far the page scrolls sideways (0: not at all)."""
    width: int = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    return width
