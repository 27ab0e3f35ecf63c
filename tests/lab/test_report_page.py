"""report.html fit to read (issue 33, item 7), in Chromium at a desktop's and a phone's
width: a table of contents whose links resolve, titles in italics, no page-wide sideways
scroll (tables and plots scroll in their own box), plots shown at their own size on a phone,
overlapping lines said in the captions, measures named in words."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lald.lab.experiment import run
from lald.lab.reading import STANDARD
from lald.lab.report import build, to_html, write_report

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small report of the standard set: whole sessions, a hero table, every plot."""
    out = tmp_path_factory.mktemp("report")
    res = run(list(STANDARD), bots=["random", "heuristic,random"], deals=15, seed=2, sessions=True)
    write_report(res.summary, out, {"command": "lald readings --standard (test)", "seconds": 1.0})
    return out / "report.html"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    assert chromium, "the report's browser test needs Debian's chromium: apt-get install chromium"
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, args=ARGS)
        yield b
        b.close()


def test_titles_are_in_italics_and_no_star_is_left_around_them(report: Path) -> None:
    page = report.read_text()
    assert "<em>Book of Games</em>" in page and "<em>Why Come Ye Nat to Courte?</em>" in page
    text = re.sub(r"<[^>]+>", "", page.split("<body>", 1)[1])
    assert not re.search(r"\*[A-Z][^*<]{0,80}\*", text), re.search(r"\*[A-Z][^*<]{0,80}\*", text)


def test_a_lone_star_stays_a_star() -> None:
    page = to_html([("h", 1, "t"), ("p", "real after Holm's correction are marked *; see *Book of Games*"),
                    ("table", ["a"], [["+0.12 [0.1, 0.2] *"]])])
    assert "marked *;" in page and "<em>Book of Games</em>" in page and "0.2] *</td>" in page


def test_measures_are_named_in_words_where_they_are_first_met(report: Path) -> None:
    md = (report.parent / "report.md").read_text()
    glossary = md.index("## What the measurements mean")
    for raw, words in (("survivor_last", "deals whose survivor made the last capture"),
                       ("chips_3", "the 4th hand's chips")):
        first = md.find(raw)
        if first == -1 or first > glossary:
            continue
        assert md.rfind(words, 0, first) != -1 and md.rfind(words, 0, first) > first - 80, raw


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_page_reads_at_a_desktops_and_a_phones_width(browser: Any, report: Path,
                                                         size: dict[str, int]) -> None:
    context = browser.new_context(viewport=size)
    try:
        page = context.new_page()
        page.goto(report.as_uri())
        # no page-wide sideways scroll: what is wider scrolls in its own box
        overflow = page.evaluate("document.documentElement.scrollWidth"
                                 " - document.documentElement.clientWidth")
        assert overflow <= 0, overflow
        wide = page.evaluate("""Array.from(document.querySelectorAll('body > *')).filter(
            e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).length""")
        assert wide == 0
        # a table of contents, every link to a heading that exists
        links = page.evaluate("Array.from(document.querySelectorAll('nav.toc a')).map(a => a.hash.slice(1))")
        assert len(links) >= 10 and len(set(links)) == len(links)
        missing = page.evaluate("ids => ids.filter(i => !document.getElementById(i))", links)
        assert missing == []
        page.click(f"nav.toc a[href='#{links[-1]}']")
        assert page.evaluate("location.hash") == f"#{links[-1]}"
        top = page.evaluate(f"document.getElementById('{links[-1]}').getBoundingClientRect().top")
        assert abs(top) < size["height"]
        # the plots: at a desktop's width they fit; on a phone they keep their own size (their
        # legends stay readable) and scroll inside their box
        sizes = page.evaluate("""Array.from(document.querySelectorAll('figure img')).map(
            i => [i.clientWidth, i.naturalWidth, i.parentElement.clientWidth])""")
        assert len(sizes) >= 9
        for shown, natural, box in sizes:
            if size is PHONE:
                assert shown == natural and box <= size["width"]
            else:
                assert shown == min(natural, box)
        # the tables scroll inside their own box
        boxes = page.evaluate("""Array.from(document.querySelectorAll('table')).map(
            t => [t.parentElement.className, t.parentElement.clientWidth, t.scrollWidth])""")
        assert boxes and all(cls == "scroll" and width <= size["width"] for cls, width, _ in boxes)
        if size is PHONE:
            assert any(inner > width for _, width, inner in boxes)  # some do scroll there
    finally:
        context.close()


def test_legends_are_big_enough_to_read_on_a_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from lald.lab.report import plots

    figures: list[Any] = []
    monkeypatch.setattr(plots, "_figure", lambda fig: figures.append(fig) or b"")
    res = run(["survivor/3", "last-capture/3"], bots=["random"], deals=9, seed=1, sessions=True)
    plots.figures(res.summary["tables"][0], True)
    for fig in figures:
        for ax in fig.axes:
            legend = ax.get_legend()
            if legend is not None:
                assert all(t.get_fontsize() >= plots.LEGEND >= 9 for t in legend.get_texts())


def test_a_line_hidden_under_another_is_said_in_the_caption() -> None:
    res = run(["survivor/3", "last-capture/3"], bots=["random"], deals=30, seed=1, sessions=True)
    captions = [b[3] for b in build(res.summary, {}) if b[0] == "img"]
    pot = next(c for c in captions if c.startswith("The pot after each deal"))
    pots = [[x["mean"] for x in e["session"]["pot_after_deal"]] for e in res.summary["tables"][0]["readings"]]
    height = max(max(p) for p in pots) - min(min(p) for p in pots)
    if all(abs(a - b) <= 0.02 * height for a, b in zip(*pots, strict=True)):
        assert "lie on one another, each group showing as one line: survivor/3 and last-capture/3" in pot
    else:
        assert "lie on one another" not in pot
