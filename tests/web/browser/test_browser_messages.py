"""The page's websocket messages are the ones :mod:`lald.messages` defines: a page plays a
deal (a hint asked, a chat line said, its moves clicked, the next deal dealt) while every
frame it sends and receives is recorded (Playwright's ``framesent`` and
``framereceived``) and checked against the checked-in JSON Schema,
``docs/messages.schema.json``."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from jsonschema import Draft202012Validator
from playwright.sync_api import WebSocket, expect

from ..conftest import Server, create
from .pages import Opener, shown, wait_my_turn_or_over, wait_version

SCHEMA_FILE = Path(__file__).resolve().parents[3] / "docs" / "messages.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def validator(direction: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/$defs/{direction}", "$defs": SCHEMA["$defs"]})


def test_every_message_a_page_sends_and_receives_playing_a_deal_is_in_the_schema(
        server: Server, open_page: Opener) -> None:
    with httpx.Client(base_url=server.base) as http:
        data = create(http, 1, hints=True)
    sent: list[str] = []
    received: list[str] = []

    def record(ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: sent.append(str(payload)))
        ws.on("framereceived", lambda payload: received.append(str(payload)))

    page = open_page(data["seats"][0]["url"])
    page.on("websocket", record)
    page.reload()  # the socket opened with the page, now recorded from its first frame
    wait_my_turn_or_over(page)
    page.locator("#hint").click()
    expect(page.locator("#hint-text")).to_be_visible()
    page.locator("#chat-text").fill("good luck")
    page.locator("#chat-text").press("Enter")
    expect(page.locator("#chat-log")).to_contain_text("good luck")
    turns = 0
    while not shown(page)["over"]:
        v = shown(page)["v"]
        page.locator("#moves button.move.turn").first.click()
        page.wait_for_function(f"() => Number(document.body.dataset.v) > {v}", timeout=10_000)
        turns += 1
        assert turns < 60
        wait_my_turn_or_over(page)
    v = shown(page)["v"]
    page.keyboard.press("n")
    wait_version(page, v + 1)

    to_server, to_page = validator("ToServer"), validator("ToPage")
    kinds = []
    for text in sent:
        message = json.loads(text)
        errors = [e.message for e in to_server.iter_errors(message)]
        assert not errors, (message, errors)
        kinds.append(message["type"])
    assert {"join", "hint", "chat", "act", "next_deal"} <= set(kinds), kinds
    got = []
    for text in received:
        message = json.loads(text)
        errors = [e.message for e in to_page.iter_errors(message)]
        assert not errors, (message["type"], errors[:3])
        got.append(message["type"])
    assert {"welcome", "state", "hint"} <= set(got), got
    # and what the schema refuses is what the page never sends
    assert not to_server.is_valid({"type": "act", "v": v, "action": {"seat": 0, "type": "pass"}})
