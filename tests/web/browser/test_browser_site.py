"""The table page on a site of several servers, in Debian's Chromium, through nginx: the
page reaches its table's server, and when that server is killed (kill -9) it reconnects
through the proxy to the server that takes the table over and plays on, its move made
once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from lald.i18n import Catalog
from lald.store import Store

from ..site.sites import Site
from .pages import Opener, settled, shown, wait_my_turn_or_over, wait_version

EN = Catalog("en")


@pytest.fixture(scope="module")
def site(postgres: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    db: str = postgres.database()
    Store(db).close()
    s = Site(db, ["p1", "p2"], Path(tmp_path_factory.mktemp("browser-site")), "--bot-delay", "0.05")
    try:
        s.start()
        yield s
    finally:
        s.stop()


def my_moves(page: Any) -> list[str]:
    name = EN.t("seat_name", seat=0)
    return [t for t in page.locator("#log p.op").all_text_contents() if t.startswith(name + " ")]


def test_a_page_whose_server_is_killed_reconnects_through_the_proxy_and_plays_on(
        site: Site, open_page: Opener) -> None:
    answer = site.create(via="p1", deals=3)
    token = answer["seats"][0]["token"]
    page = open_page(f"{site.base}/play#t={token}")
    wait_my_turn_or_over(page)
    assert not shown(page)["over"]
    v = settled(page)
    before = my_moves(page)
    expect(page.locator("#conn")).to_have_text(EN.t("web_online"))
    site.workers["p1"].kill()
    # The page notices, reconnects through nginx, and p2 takes the table over.
    expect(page.locator("#conn")).to_have_text(EN.t("web_online"), timeout=15_000)
    wait_my_turn_or_over(page)
    assert site.holder(answer["table"]["id"]) == "p2"
    assert shown(page)["v"] >= v and my_moves(page)[:len(before)] == before
    v = settled(page)
    page.locator("#moves button.move.turn").first.click()
    wait_version(page, v + 1)
    assert len(my_moves(page)) == len(before) + 1, page.locator("#log p").all_text_contents()
    site.workers["p1"].start()
