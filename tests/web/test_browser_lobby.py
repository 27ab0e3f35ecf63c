"""The lobby where strangers meet, in the browser: the list of open tables kept live
without a reload, Play now, Sit down, names shown as text, the page whole with the keyboard
alone, on a phone, and clean under axe-core."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from .conftest import Server
from .pages import PHONE, Opener, audit, sideways


def test_the_list_updates_live_and_play_now_seats_me(server: Server, open_page: Opener) -> None:
    lobby = open_page(server.base + "/")
    expect(lobby.locator("#tables")).not_to_be_empty()
    # A public table opened elsewhere appears without a reload, its title shown as text.
    title = "<img src=x onerror=alert(1)> Friday"
    made = httpx.post(server.base + "/api/tables", json={"players": 3, "public": True, "title": title,
                                                         "lang": "de"}).json()
    row = lobby.locator(f"#tables li[data-table='{made['table']['id']}']")
    expect(row).to_contain_text(title)
    expect(row).to_contain_text("Deutsch")
    assert lobby.locator("#tables img").count() == 0
    # A stranger sits down elsewhere: the free seats go down, live.
    expect(row).to_contain_text("free seats: 2")
    httpx.post(server.base + "/api/sit", json={"table": made["table"]["id"], "name": "Ben"})
    expect(row).to_contain_text("free seats: 1")
    expect(row).to_contain_text("Ben")
    # Sit down from the list, with the keyboard alone.
    lobby.locator("#play-now input[name=name]").fill("Cis")
    row.locator("button.sit").focus()
    lobby.keyboard.press("Enter")
    lobby.wait_for_url("**/play#t=*")
    expect(lobby.locator("#seats")).to_contain_text("Cis")
    # Play now on a phone: a table of its reading, or a new one; the page goes to the seat.
    phone = open_page(server.base + "/", viewport=PHONE)
    expect(phone.locator("#tables li").first).to_be_visible()
    assert sideways(phone) == 0
    audit(phone, "the lobby with live tables")
    phone.locator("#play-now select[name=players]").select_option("4")
    phone.locator("#play-now button[type=submit]").click()
    phone.wait_for_url("**/play#t=*&host=*")
    expect(phone.locator("#seats")).to_be_visible()


def test_the_create_form_opens_a_public_table_with_open_seats(server: Server, open_page: Opener) -> None:
    lobby = open_page(server.base + "/")
    form = lobby.locator("#create")
    form.locator("select[name=players]").select_option("3")
    form.locator("input[name=public]").check()
    expect(form.locator("input[name=fill_seconds]")).to_be_visible()
    form.locator(".seatrow[data-seat='1'] select.who").select_option("open")
    form.locator(".seatrow[data-seat='2'] select.who").select_option("open")
    form.locator("input[name=title]").fill("Open house")
    form.locator("button[type=submit]").click()
    expect(lobby.locator("#links")).to_contain_text("Open seat")
    row = lobby.locator("#tables li", has_text="Open house")
    expect(row).to_contain_text("public")
    expect(row.locator("button.sit")).to_be_visible()
    audit(lobby, "the lobby with a public table opened")
