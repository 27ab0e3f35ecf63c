"""The browser table as new players met it (issue 26, items 17 to 19): the review found
from the settlement and worded for people, every word on screen translated, and the
layout's small things (readable replay cards, targets a finger can hit, a settlement that
stays while its person reads it)."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from lald.i18n import Catalog

from ..conftest import Server, create
from .pages import DESKTOP, PHONE, Opener, audit, sideways
from .test_browser import Seat, new_table

LANGS = {"en": "en-GB", "de": "de-DE", "es": "es-ES", "pt": "pt-PT"}


def played_deal(server: Server, seed: int = 5, humans: int = 1) -> dict[str, Any]:
    """A table whose seat 0 (a person, played from Python) has finished its first deal."""
    data = new_table(server, humans, levels="heuristic", seed=seed)
    seat = Seat(server, data["seats"][0]["token"]).join()
    while not seat.wait(lambda f: f["view"]["over"] or bool(f["legal"]), timeout=20)["view"]["over"]:
        v = seat.frame["v"]
        seat.act(seat.frame["legal"][0])
        seat.wait(lambda f, v=v: f["v"] > v)
    seat.close()
    return data


def test_the_settlement_offers_the_review_of_my_play_in_a_persons_words(
        server: Server, open_page: Opener) -> None:
    """Seen before: the settlement offered only "Record · Replay"; the review sat inside
    Replay, on a phone below every hand, and spoke in "-1.2 (-1.4 to -1.0)", "95% interval"
    and "costly 1" (pt "cara 1"), with ASCII minus signs."""
    data = played_deal(server)
    table = data["table"]["id"]
    for lang, locale in LANGS.items():
        page = open_page(data["seats"][0]["url"], viewport=PHONE, locale=locale)
        link = page.locator("#settlement a.review-mine")
        expect(link).to_have_text(Catalog(lang).t("web_review_mine"))
        assert link.get_attribute("href") == f"/replay#table={table}&deal=0&seat=0&review=1"
        page.close()
    for lang, viewport in (("pt", PHONE), ("en", DESKTOP)):
        catalog = Catalog(lang)
        page = open_page(f"{server.base}/replay#table={table}&deal=0&seat=0&review=1",
                         viewport=viewport, locale=LANGS[lang])
        expect(page.locator("#review-body")).to_be_visible(timeout=30_000)
        expect(page.locator("#review-lead")).not_to_be_empty()
        # The review first, on the first screen: above the viewer's hands on a phone, beside
        # them on a wide screen.
        top = page.evaluate("() => [document.getElementById('review').getBoundingClientRect().top,"
                            " document.getElementById('viewer').getBoundingClientRect().top]")
        assert top[0] <= top[1] and top[0] < viewport["height"] / 3, top
        if viewport is PHONE:
            assert top[0] < top[1], top
        text = page.locator("#review").inner_text()
        assert not re.search(r"-\d", text), "an ASCII minus in the review"
        assert "95" not in text and "interval" not in text.lower()
        assert not re.search(rf"{catalog.t('web_review_costly')} \d", text), "a 'costly 1' badge"
        assert page.locator("#review-decisions .badge").count() > 0
        # Each decision leads with its sentence; the numbers come after, in words.
        for item in page.locator("#review-decisions > li.decision:not(.best):not(.forced)").all():
            children = item.evaluate("(li) => [...li.children].map((c) => c.className)")
            assert children[:3] == ["head", "sentence", "options"], children
        page.screenshot(path=f"/tmp/ui/review-{lang}-{viewport['width']}.png", full_page=True)
        audit(page, "the review of my play")
        page.close()


RAW_LEVELS = re.compile(r"\b(random|greedy|heuristic|pimc)\b")


def raw_levels(text: str, catalog: Catalog) -> list[str]:
    """The levels' identifiers in ``text``, bar inside the catalog's own labels (English's
    "plays at random")."""
    for level in ("random", "greedy", "heuristic", "pimc", "expert"):
        text = text.replace(catalog.t(f"level_{level}"), "")
    return RAW_LEVELS.findall(text)


def test_the_lobby_names_bots_rules_and_tables_in_each_language(server: Server, open_page: Opener) -> None:
    """Seen before: the level selects offered "random, greedy, heuristic, pimc, expert" with
    random chosen, and the open tables said "survivor" in every language."""
    with httpx.Client(base_url=server.base) as http:
        create(http, 1, levels="heuristic", variants=["modern-laugh"])
    for lang, locale in LANGS.items():
        catalog = Catalog(lang)
        page = open_page(f"{server.base}/", viewport=PHONE, locale=locale)
        expect(page.locator("#seat-rows .seatrow")).to_have_count(5)
        level = page.locator('#seat-rows .seatrow[data-seat="1"] select.level')
        assert level.input_value() == "heuristic"  # a bot a newcomer enjoys, not a random one
        names = level.locator("option").all_text_contents()
        levels = ("random", "greedy", "heuristic", "pimc", "expert")
        # the ladder in order of strength, the learned level beside the heuristic it equals
        assert [n for n in names if n != catalog.t("level_learned")][:5] == [
            catalog.t(f"level_{lv}") for lv in levels]
        assert names.index(catalog.t("level_learned")) == names.index(catalog.t("level_heuristic")) + 1
        expect(page.locator("#tables li").first).to_contain_text(catalog.t("review_preset_survivor_name"))
        tables = page.locator("#tables").inner_text()
        assert catalog.t("variant_modern_laugh") in tables and "modern-laugh" not in tables
        if lang != "en":
            assert "survivor" not in tables, tables
        assert raw_levels(page.locator("body").inner_text(), catalog) == []
        page.screenshot(path=f"/tmp/ui/lobby-{lang}-390.png", full_page=True)
        page.close()


def test_the_table_names_its_bots_levels_and_says_lie_down_in_german(
        server: Server, open_page: Opener) -> None:
    """Seen before: "Bot · random" at the table in every language; the German pages said
    "lie down" in statuses, buttons, hints and rules."""
    data = new_table(server, 1, levels="heuristic", seed=5)
    for lang, locale in LANGS.items():
        catalog = Catalog(lang)
        page = open_page(data["seats"][0]["url"], viewport=DESKTOP, locale=locale)
        badge = page.locator('.seat[data-seat="1"] .badge.bot')
        expect(badge).to_contain_text(catalog.t("web_level_name_heuristic"))
        assert badge.get_attribute("title") == catalog.t("level_heuristic")
        assert raw_levels(page.locator("body").inner_text(), catalog) == []
        page.close()
    title = Catalog("de").t("game_title")
    for path in (data["seats"][0]["url"], f"{server.base}/rules", f"{server.base}/"):
        page = open_page(path, locale="de-DE")
        page.wait_for_timeout(800)
        text = page.locator("body").inner_text().replace(title, "")
        assert not re.search(r"lie.?down|lay down", text, re.I), path
        page.close()


def test_on_a_phone_every_target_is_at_least_24_px_and_seat_titles_stay_whole(
        server: Server, open_page: Opener) -> None:
    """Seen before (WCAG 2.5.8): the header's links 16 px tall and the checkboxes 20×20 on a
    phone; "Seat / 1" on two lines in the lobby's seat rows."""
    for lang, locale in LANGS.items():
        page = open_page(f"{server.base}/", viewport=PHONE, locale=locale)
        expect(page.locator("#seat-rows .seatrow")).to_have_count(5)
        small = page.evaluate("""() => [...document.querySelectorAll(
            'header a, input[type=checkbox], input[type=radio]')]
          .filter((e) => e.offsetParent).map((e) => {
            const r = e.getBoundingClientRect();
            return [e.textContent || e.value, Math.round(r.width), Math.round(r.height)];
          }).filter(([, w, h]) => w < 24 || h < 24)""")
        assert small == [], f"{lang}: too small to tap: {small}"
        lines = page.evaluate("() => [...document.querySelectorAll('.seat-title')]"
                              ".map((b) => b.getClientRects().length)")
        assert lines == [1] * 5, f"{lang}: a seat's title wraps: {lines}"
        assert sideways(page) == 0, f"{lang}: the lobby scrolls sideways (a level's long name)"
        if lang == "pt":
            page.screenshot(path="/tmp/ui/lobby-pt-390.png", full_page=True)
        page.close()


def test_replay_cards_are_readable_on_a_desktop(server: Server, open_page: Opener) -> None:
    """Seen before: the replay's hands 28 px wide with 7 px corner ranks at 1280×800."""
    data = played_deal(server, seed=6)
    page = open_page(f"{server.base}/replay#table={data['table']['id']}&deal=0", viewport=DESKTOP)
    expect(page.locator(".replay-hands .row")).to_have_count(5)
    widths = page.evaluate("() => [...document.querySelectorAll('.replay-hands .pile .card')]"
                           ".map((c) => c.getBoundingClientRect().width)")
    assert widths and min(widths) >= 40, min(widths)
    page.screenshot(path="/tmp/ui/replay-1280.png")


def test_a_closed_table_offers_no_leave(server: Server, open_page: Opener) -> None:
    """Seen before: a closed table still offered "Leave (a bot plays on)"."""
    data = new_table(server, 2, levels="heuristic", seed=7)
    page = open_page(data["seats"][0]["url"], viewport=PHONE)
    expect(page.locator("#leave")).to_be_visible()
    r = httpx.post(f"{server.base}/api/host/close", json={"token": data["host"]["token"]})
    assert r.status_code == 200, r.text
    expect(page.locator("#status")).to_contain_text(Catalog("en").t("web_table_closed"))
    expect(page.locator("#leave")).to_be_hidden()
