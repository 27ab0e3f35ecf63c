"""Issue 30 in the browser: a stranger's first minutes (the bots' countdown, the way back
to one's seat, the small words) and a screen reader's and a keyboard's (move buttons named
apart from their keys, focus kept somewhere meaningful, live regions that say a change
once, the fading label's contrast, less motion when asked).

The live regions are watched by a MutationObserver the page is given before it loads:
every change of a region's text is one thing a screen reader would say."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, WebSocketRoute, expect

from lald.i18n import Catalog

from ..conftest import Server
from .pages import ARTIFACTS, PHONE, Opener, own_address, shown, wait_version
from .test_browser import Seat, names_table, new_table

EN = Catalog("en")

SAID = """
window.__said = [];
window.__leaving = [];
new MutationObserver((records) => {
  const regions = new Set();
  for (const r of records) {
    const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    const region = el && el.closest('[aria-live]:not([aria-live="off"]), [role=status], [role=alert]');
    if (region && region.id !== 'conn') regions.add(region);
    for (const node of r.addedNodes) {
      if (node.nodeType === 1 && node.classList.contains('leaving')) {
        // What the page shows as captured cards leave: its running animations, and a
        // copy beside the table that the test may stop mid-fade (the page's own goes soon).
        const running = node.getAnimations({ subtree: true }).filter((a) => a.playState === 'running');
        window.__leaving.push(running.length);
        if (!document.getElementById('probe')) {
          const copy = node.cloneNode(true);
          copy.id = 'probe';
          document.getElementById('table').after(copy);
        }
      }
    }
  }
  for (const region of regions) window.__said.push([region.id, region.textContent]);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def said(page: Page) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = [tuple(x) for x in page.evaluate("() => window.__said")]  # type: ignore[misc]
    return out


def press_first_move(page: Page) -> None:
    v = shown(page)["v"]
    page.keyboard.press(page.locator("#moves button.move.turn").first.locator("kbd").inner_text())
    wait_version(page, v + 1)


def until_turn_over_or(page: Page, js: str = "false") -> None:
    page.wait_for_function(
        "() => document.body.dataset.over === '1' || document.querySelector('#moves button.move.turn')"
        f" || ({js})", timeout=20_000)


# -- 6. the bots' countdown -------------------------------------------------------------------


def test_a_public_table_waiting_says_when_bots_come_and_what_then_in_every_language(
        server: Server, open_page: Opener) -> None:
    seats = [{"human": True, "level": "random"}] + [{"open": True, "level": "random"}] * 2
    for lang, locale in (("en", "en-GB"), ("de", "de-DE"), ("es", "es-ES"), ("pt", "pt-PT")):
        data = names_table(server, seats, players=3, public=True, fill_seconds=300)
        page = open_page(data["seats"][0]["url"], locale=locale)
        note = page.locator("#fill-note")
        expect(note).to_be_visible()
        catalog = Catalog(lang)
        first = note.inner_text()
        number = re.search(r"\d+", first)
        assert number, first
        seconds = number.group(0)
        count = int(seconds)
        assert 200 <= count <= 300, first
        assert first == catalog.t("web_fill_note", count=count, time=seconds), (lang, first)
        # It counts down, on the page's own clock set by the server's.
        expect(note).not_to_have_text(first, timeout=5_000)
        if lang == "en":
            page.screenshot(path=str(ARTIFACTS / "web-fill-countdown.png"))
            phone = open_page(data["seats"][0]["url"], viewport=PHONE)
            expect(phone.locator("#fill-note")).to_be_visible()
            phone.screenshot(path=str(ARTIFACTS / "web-fill-countdown-phone.png"))
    # A private table waits for its links: no countdown.
    private = new_table(server, [True, True, False], players=3)
    page = open_page(private["seats"][0]["url"])
    expect(page.locator("#status")).to_contain_text("Waiting for")
    expect(page.locator("#fill-note")).to_be_hidden()


# -- 7. the way back to one's seat -------------------------------------------------------------


def test_the_front_page_remembers_my_open_seats_without_sending_their_tokens(
        server: Server, open_page: Opener) -> None:
    seats = [{"human": True, "level": "random"}] + [{"open": True, "level": "random"}] * 2
    data = names_table(server, seats, players=3, public=True, fill_seconds=600, title="Back again")
    token = data["seats"][0]["token"]
    table = data["table"]["id"]
    page = open_page(data["seats"][0]["url"])
    expect(page.locator("#seats")).to_be_visible()
    # The tab is closed; the front page, opened later in the same browser, offers the way back.
    context = page.context
    page.close()
    front = context.new_page()
    sent: list[str] = []
    front.on("request", lambda r: sent.append(r.url + " " + (r.post_data or "")))
    front.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(str(f))))
    front.goto(server.base + "/")
    back = front.locator("#my-seats a.back-to-table")
    expect(back).to_have_count(1)
    expect(back).to_have_attribute("href", re.compile(r"/play#t=" + re.escape(token) + "$"))
    expect(front.locator("#my-seats")).to_contain_text("Back again")
    # ... and so does the lobby's row of that table.
    row = front.locator(f"#tables li[data-table='{table}']")
    expect(row.locator("a.back-to-table")).to_be_visible()
    front.screenshot(path=str(ARTIFACTS / "web-back-to-table.png"))
    assert not [s for s in sent if token in s], sent
    # Closed by its host, the table is forgotten.
    httpx.post(server.base + "/api/host/close", json={"token": data["host"]["token"]})
    front.reload()
    front.wait_for_function(f"() => !(localStorage.getItem('lald-seats') || '').includes({token!r})")
    expect(front.locator("#my-seats a.back-to-table")).to_have_count(0)
    expect(front.locator("#my-seats")).to_be_hidden()


def test_an_accounts_open_seats_are_listed_on_the_front_page(server: Server, open_page: Opener) -> None:
    front = open_page(server.base + "/", viewport=PHONE)
    front.set_extra_http_headers(own_address())
    name = f"Otto {int(time.time() * 1000) % 100000}"
    form = front.locator("#login-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill("a long enough secret")
    front.locator("#register").click()
    expect(front.locator("#account-who")).to_contain_text(name)
    # A seat taken in another browser (its token is not in this one).
    seated = front.evaluate("""async () => {
      const s = await (await fetch('/api/session')).json();
      const r = await fetch('/api/play-now', {method: 'POST', headers: {'Content-Type': 'application/json',
        'X-CSRF-Token': s.csrf}, body: JSON.stringify({preset: 'last-capture', players: 3})});
      const data = await r.json();
      return {table: data.table.id, token: data.token};
    }""")
    front.evaluate("() => localStorage.removeItem('lald-seats')")
    front.reload()
    mine = front.locator(f"#my-seats li[data-table='{seated['table']}']")
    expect(mine).to_be_visible()
    expect(mine.locator("a.watch")).to_have_attribute("href", f"/play#w={seated['table']}")
    assert seated["token"] not in front.content()
    front.screenshot(path=str(ARTIFACTS / "web-account-seats-phone.png"), full_page=True)


# -- 8. the small ones ---------------------------------------------------------------------


def test_a_profile_says_whose_play_counts_sessions_and_plots_one_point(
        server: Server, open_page: Opener) -> None:
    from sqlalchemy import create_engine, text

    name = f"Uma {int(time.time() * 1000) % 100000}"
    r = httpx.post(server.base + "/api/account/register", headers=own_address(),
                   json={"name": name, "password": "a long enough secret"})
    account = r.json()["account"]["id"]
    made = new_table(server, [True, False, False], players=3)
    engine = create_engine(server.db)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO lald_rating_events (account_id, reading, table_id, rank, players, "
                          "mu, sigma, at) VALUES (:a, 'survivor/3', :t, 1, 3, 27.5, 7.9, 1.0)"),
                     {"a": account, "t": made["table"]["id"]})
        conn.execute(text("INSERT INTO lald_ratings VALUES (:a, 'survivor/3', 27.5, 7.9, 1, 1.0)"),
                     {"a": account})
        conn.execute(text("UPDATE lald_seats SET account = :a WHERE table_id = :t AND seat = 0"),
                     {"a": account, "t": made["table"]["id"]})
        conn.execute(text("UPDATE lald_tables SET deals_started = 1, status = 'over' WHERE id = :t"),
                     {"t": made["table"]["id"]})
    engine.dispose()
    page = open_page(f"{server.base}/player#{name}")
    expect(page.locator("#ratings")).to_contain_text("after 1 rated session.")
    review = page.locator("#games a.review").first
    expect(review).to_have_text(EN.t("web_review_of", name=name))
    band = page.locator("svg.history .band")
    assert page.evaluate("() => document.querySelector('svg.history .band').getBBox().width") > 0
    expect(band).to_have_count(1)
    expect(page.locator("svg.history text.axis-title")).to_have_count(2)
    page.screenshot(path=str(ARTIFACTS / "web-profile-one-point.png"))


def test_the_lobby_rows_begin_with_words_and_the_header_covers_none_on_a_phone(
        server: Server, open_page: Opener) -> None:
    made = httpx.post(server.base + "/api/tables", json={"players": 3, "public": True}).json()
    page = open_page(server.base + "/", viewport=PHONE)
    row = page.locator(f"#tables li[data-table='{made['table']['id']}']")
    expect(row).to_be_visible()
    assert made["table"]["id"] not in row.inner_text()
    # The list brought to the top of the screen (a link to it, a Tab back up): its first
    # row is seen, not hidden under the header.
    page.evaluate("() => document.querySelector('#tables li').scrollIntoView({block: 'start'})")
    covered = page.evaluate("""() => {
      const li = document.querySelector('#tables li');
      const r = li.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + 8, r.top + 4);
      return !(hit && li.contains(hit));
    }""")
    assert not covered
    page.screenshot(path=str(ARTIFACTS / "web-lobby-phone-top.png"))


def mock_frame(server: Server, change: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A real first frame of a new table (seat 0 of three), changed by ``change``."""
    data = names_table(server, [{"human": True, "level": "random", "name": "Ada"},
                                {"human": True, "level": "random", "name": LONG},
                                {"human": False, "level": "random"}], players=3)
    seat = Seat(server, data["seats"][0]["token"]).join()
    other = Seat(server, data["seats"][1]["token"]).join()
    frame = seat.wait(lambda f: f["view"] is not None)
    seat.close()
    other.close()
    frame = change(frame | {"reset": True})
    return data, frame


LONG = "Bartholomew-Maximilian Featherstonehaugh"


def serve(frame: dict[str, Any]) -> Any:
    def route(ws: WebSocketRoute) -> None:
        def message(text: str | bytes) -> None:
            if json.loads(text)["type"] == "join":
                ws.send(json.dumps(frame))
        ws.on_message(message)
    return route


def test_one_minus_sign_and_a_long_name_said_once(server: Server, open_page: Opener) -> None:
    def change(frame: dict[str, Any]) -> dict[str, Any]:
        view = frame["view"] | {"pot": -12, "balances": [-4, 8, 8], "to_move": 1}
        return frame | {"view": view, "session": frame["session"] | {"pot": -12},
                        "stand_ins": [1], "legal": [], "kinds": []}

    data, frame = mock_frame(server, change)
    page = open_page(data["seats"][0]["url"], route=serve(frame))
    expect(page.locator("#pot-label")).to_contain_text("12")
    assert "−12" in page.locator("#pot-label").inner_text()
    total = page.locator("#ledger tr.total th").last
    expect(total).to_have_text("−12")
    assert "-" not in page.locator("#pot-label").inner_text()
    status = page.locator("#status").inner_text()
    assert status.count(LONG) == 1, status


def test_the_last_deals_settlement_does_not_carry_the_pot_on(server: Server, open_page: Opener) -> None:
    data = new_table(server, 1, players=3, options={"deals": 1})
    page = open_page(data["seats"][0]["url"])
    while True:
        until_turn_over_or(page)
        if shown(page)["over"]:
            break
        press_first_move(page)
    expect(page.locator("#settlement")).to_be_visible()
    pot = page.locator("#settlement p.small")
    expect(pot).to_be_visible()
    if page.locator("#next-deal").is_hidden():  # the last deal (a tie would add one)
        expect(pot).not_to_contain_text("carries into the next deal")
        expect(pot).to_contain_text(EN.t("web_settle_pot_last", pot=0).split("0")[-1].strip(" ;."))


# -- 9. move buttons' names ---------------------------------------------------------------------

SUIT_WORDS = re.compile(r"\b(spades|hearts|diamonds|clubs)\b")


def test_move_buttons_name_their_key_apart_and_suits_in_words(server: Server, open_page: Opener) -> None:
    data = new_table(server, 1)
    page = open_page(data["seats"][0]["url"])
    until_turn_over_or(page)
    buttons = page.locator("#moves button.move")
    assert buttons.count() >= 1
    snapshot = page.locator("#moves").aria_snapshot()
    names = re.findall(r'button "([^"]*)"', snapshot)
    assert len(names) == buttons.count(), snapshot
    for i, name in enumerate(names):
        key = buttons.nth(i).locator("kbd").inner_text()
        assert buttons.nth(i).get_attribute("aria-keyshortcuts") == key
        # The name is the move in words, the key said apart, not run into it ("4", then
        # "5 of spades takes 5 of hearts", not "45♠ takes 5♥").
        assert name == buttons.nth(i).get_attribute("aria-label"), (key, name)
        assert buttons.nth(i).locator("kbd").get_attribute("aria-hidden") == "true"
        assert not re.search("[♠♥♦♣]", name), name
        if buttons.nth(i).get_attribute("data-cards"):
            assert SUIT_WORDS.search(name), name


# -- 10. focus ----------------------------------------------------------------------------------

FOCUS_OK = ("() => { const a = document.activeElement;"
            " return a && a !== document.body && (a.id === 'status' || Boolean(a.closest('#moves'))); }")


def test_focus_stays_somewhere_meaningful_through_a_deal_and_its_settlement(
        server: Server, open_page: Opener) -> None:
    data = new_table(server, 1, players=3)
    page = open_page(data["seats"][0]["url"])
    turns = 0
    while True:
        until_turn_over_or(page)
        if shown(page)["over"]:
            break
        v = shown(page)["v"]
        page.locator("#moves button.move.turn").first.focus()
        page.keyboard.press("Enter")
        wait_version(page, v + 1)
        # The button pressed is gone: the focus is on the status or on the next moves, or, if
        # that move ended the deal (the deals are dealt from a secret: it happens), on Next deal.
        page.wait_for_function(f"() => ({FOCUS_OK})() || (document.activeElement"
                               " && document.activeElement.id === 'next-deal')", timeout=15_000)
        turns += 1
        assert turns < 60
    # The settlement: Next deal has the focus, and says what it follows.
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'next-deal'",
                           timeout=15_000)
    v = shown(page)["v"]
    page.keyboard.press("n")
    wait_version(page, v + 1)
    page.wait_for_function(FOCUS_OK, timeout=15_000)


def test_creating_an_account_puts_the_focus_on_it_and_says_so(server: Server, open_page: Opener) -> None:
    page = open_page(server.base + "/")
    page.set_extra_http_headers(own_address())
    name = f"Flo {int(time.time() * 1000) % 100000}"
    form = page.locator("#login-form")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill("a long enough secret")
    page.locator("#register").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#account-who")).to_be_visible()
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'account-who'")
    expect(page.locator("#account-said")).to_have_text(EN.t("web_account_created", name=name))


# -- 11. live regions, contrast, motion ------------------------------------------------------------


def test_the_live_regions_say_a_seat_is_out_once(server: Server, open_page: Opener) -> None:
    data = new_table(server, 1)
    page = open_page(data["seats"][0]["url"], init=SAID)
    out = EN.t("web_out_lain_down").split(":")[0]
    for _ in range(200):
        until_turn_over_or(page, f"document.querySelector('#status').textContent.includes({out!r})")
        if out in page.locator("#status").inner_text():
            break
        if shown(page)["over"]:
            v = shown(page)["v"]
            page.keyboard.press("n")
            wait_version(page, v + 1)
            page.evaluate("() => { window.__said = []; }")
            continue
        press_first_move(page)
    else:
        raise AssertionError("never out of a deal")
    v = shown(page)["v"]
    page.wait_for_function(f"() => Number(document.body.dataset.v) >= {v + 3}"
                           " || document.body.dataset.over === '1'", timeout=20_000)
    lines = [text for _, text in said(page) if out in text]
    assert len(lines) == 1, said(page)


def wait_for_leaving(page: Page) -> None:
    for _ in range(200):
        if page.evaluate("() => window.__leaving.length > 0"):
            return
        until_turn_over_or(page, "window.__leaving.length > 0")
        if page.evaluate("() => window.__leaving.length > 0"):
            return
        if shown(page)["over"]:
            v = shown(page)["v"]
            page.keyboard.press("n")
            wait_version(page, v + 1)
            continue
        press_first_move(page)
    raise AssertionError("no capture was ever shown leaving the table")


def test_the_leaving_label_keeps_its_contrast_as_it_fades(server: Server, open_page: Opener) -> None:
    data = new_table(server, 1)
    page = open_page(data["seats"][0]["url"], init=SAID)
    wait_for_leaving(page)
    expect(page.locator("#probe")).to_be_attached()
    found = []
    for at in (0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9):
        page.evaluate("(t) => document.getElementById('probe').getAnimations({subtree: true})"
                      ".forEach((a) => { a.pause(); a.currentTime = t * 2600; })", at)
        result = Axe().run(page, context="#probe", options={"runOnly": ["color-contrast"]}).response
        found += [(at, n["any"][0]["message"] if n["any"] else "")
                  for v in result["violations"] for n in v["nodes"]]
    assert not found, found


def test_less_motion_when_the_person_asks_for_it(server: Server, open_page: Opener) -> None:
    data = new_table(server, 1)
    page = open_page(data["seats"][0]["url"], init=SAID)
    page.emulate_media(reduced_motion="reduce")
    wait_for_leaving(page)
    leaving = page.evaluate("() => window.__leaving")  # once: the list grows as the page plays on
    assert leaving == [0] * len(leaving)
    label = page.locator("#probe .to")
    assert page.evaluate("() => getComputedStyle(document.getElementById('probe')).opacity") == "1"
    expect(label).to_contain_text("→")

