"""The lobby where strangers meet, in the browser: the list of open tables kept live
without a reload, Play now, Sit down, names shown as text, the page whole with the keyboard
alone, on a phone, and clean under axe-core."""

from __future__ import annotations

import time

import httpx
from playwright.sync_api import expect

from ..conftest import Server
from .pages import PHONE, Opener, audit, own_address, sideways
from .test_browser import new_table


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


def test_the_chat_at_the_table_with_the_keyboard_spectators_marked_and_a_replay_shows_it(
        server: Server, open_page: Opener) -> None:
    data = new_table(server, [True, False, False], players=3, levels="random", seed=8)
    page = open_page(data["seats"][0]["url"] + "&host=" + data["host"]["token"])
    expect(page.locator("#chat-log")).to_contain_text("Nobody has said anything yet.")
    guest = open_page(data["watch"], viewport=PHONE)
    expect(guest.locator("#seats")).to_be_visible()
    # Keyboard alone: Tab to the line, type (the move keys stay quiet in it), Enter.
    field = page.locator("#chat-text")
    field.focus()
    page.keyboard.type("<b>1 hi</b> https://x.example")
    page.keyboard.press("Enter")
    for p in (page, guest):
        expect(p.locator("#chat-log")).to_contain_text("<b>1 hi</b> https://x.example")
        assert p.locator("#chat-log b b, #chat-log a").count() == 0  # text, no markup, no link
    guest.locator("#chat-text").fill("go on!")
    guest.locator("#chat-form button").click()
    expect(page.locator("#chat-log p.spectator")).to_contain_text("Spectator 1 (watching): go on!")
    # The host closes the spectators' chat from the table's page (the moderation is folded
    # away until opened, and offers no mute of the host's own seat).
    expect(page.locator("#chat-host-buttons")).to_be_hidden()
    page.locator("#chat-host summary").click()
    expect(page.locator("#chat-host button", has_text="Mute")).to_have_count(0)  # the others are bots
    page.locator("#chat-host button", has_text="Close the spectators' chat").click()
    expect(guest.locator("#chat-note")).to_have_text("The host has closed the spectators' chat.")
    expect(guest.locator("#chat-text")).to_be_disabled()
    assert sideways(guest) == 0
    audit(page, "the table with its chat")
    audit(guest, "a spectator's table with its chat closed")
    # Play the deal out from the keyboard: the replay shows the line where it was said.
    while page.evaluate("() => document.body.dataset.over") != "1":
        page.wait_for_function("() => document.body.dataset.over === '1'"
                               " || document.querySelector('#moves button.move.turn')", timeout=20_000)
        if page.evaluate("() => document.body.dataset.over") == "1":
            break
        page.locator("#moves button.move.turn").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_timeout(50)
    replay = open_page(f"{server.base}/replay#table={data['table']['id']}&deal=0")
    expect(replay.locator("#viewer")).to_be_visible()
    replay.keyboard.press("End")
    expect(replay.locator("#r-chat-lines")).to_contain_text("<b>1 hi</b> https://x.example")
    expect(replay.locator("#r-chat-lines")).to_contain_text("Spectator 1 (watching): go on!")


def test_an_account_from_the_lobby_and_every_post_of_every_page_carries_its_token(
        server: Server, open_page: Opener) -> None:
    lobby = open_page(server.base + "/")
    lobby.set_extra_http_headers(own_address())
    form = lobby.locator("#login-form")
    name = f"Tess {int(time.time() * 1000) % 100000}"
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill("a long enough secret")
    lobby.locator("#register").click()
    expect(lobby.locator("#account-who")).to_have_text(f"Logged in as {name}.")
    expect(lobby.locator("#play-now .guest-only")).to_be_hidden()
    audit(lobby, "the lobby, logged in")
    # A post of the lobby (open a table), of the table (a lesson) and of the replay viewer
    # (a record): each carries the session's CSRF token, or the server would refuse it.
    lobby.locator("#create button[type=submit]").click()
    expect(lobby.locator("#links")).to_be_visible()
    learn = open_page(server.base + "/learn")
    expect(learn.locator("#lesson")).to_be_visible()
    replay = open_page(server.base + "/replay")
    replay.locator("#paste summary").click()
    replay.locator("#record").fill('{"format": "lald-record/1", "rules": {"preset": "survivor"}, '
                                   '"seed": 1, "dealer": 0, "actions": []}')
    replay.locator("#load").click()
    expect(replay.locator("#viewer")).to_be_visible()
    # Logging out: the panel offers logging in again.
    lobby.locator("#logout").click()
    expect(lobby.locator("#login-form")).to_be_visible()


def test_the_leaderboard_and_a_profile_with_its_rating_history_plotted(server: Server,
                                                                      open_page: Opener) -> None:
    from sqlalchemy import create_engine, text

    name = f"Rita {int(time.time() * 1000) % 100000}"
    r = httpx.post(server.base + "/api/account/register", headers=own_address(),
                   json={"name": name, "password": "a long enough secret"})
    account = r.json()["account"]["id"]
    engine = create_engine(server.db)
    with engine.begin() as conn:  # three rated sessions' worth of history (the pages are under test here)
        for i, (mu, sigma) in enumerate([(27.0, 8.0), (29.5, 7.6), (28.1, 7.2)]):
            conn.execute(text("INSERT INTO lald_rating_events (account_id, reading, table_id, rank, players, "
                              "mu, sigma, at) VALUES (:a, 'survivor/5', :t, 1, 5, :mu, :sigma, :at)"),
                         {"a": account, "t": f"t{i}", "mu": mu, "sigma": sigma, "at": float(i)})
        conn.execute(text("INSERT INTO lald_ratings VALUES (:a, 'survivor/5', 28.1, 7.2, 3, 3.0)"),
                     {"a": account})
    engine.dispose()
    board = open_page(server.base + "/leaderboard#reading=survivor/5")
    expect(board.locator("#board tbody")).to_contain_text(name)
    expect(board.locator("#bots")).to_contain_text("expert")
    audit(board, "the leaderboard")
    board.locator("#board tbody a", has_text=name).click()
    expect(board.locator("#h-player")).to_have_text(name)
    expect(board.locator("svg.history circle")).to_have_count(3)
    expect(board.locator("#ratings")).to_contain_text("after 3 rated sessions")
    audit(board, "a player's profile")
    missing = open_page(server.base + "/player#Nobody%20at%20all")
    expect(missing.locator("#player-missing")).to_be_visible()


def test_an_account_agrees_to_be_named_in_the_sites_dataset_and_takes_it_back(
        server: Server, open_page: Opener) -> None:
    # issue 33: the exported games name only the accounts whose owners ticked this
    lobby = open_page(server.base + "/")
    lobby.set_extra_http_headers(own_address())
    form = lobby.locator("#login-form")
    name = f"Nell {int(time.time() * 1000) % 100000}"
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill("a long enough secret")
    lobby.locator("#register").click()
    box = lobby.locator("#share-name")
    expect(box).to_be_visible()
    expect(box).not_to_be_checked()  # off until its owner says so
    said = "() => fetch('/api/session').then((r) => r.json()).then((s) => s.account.share_name)"
    box.check()
    lobby.wait_for_function(f"async () => await ({said})() === true")
    lobby.reload()
    expect(lobby.locator("#share-name")).to_be_checked()
    lobby.locator("#share-name").uncheck()
    lobby.wait_for_function(f"async () => await ({said})() === false")
