"""Bot levels in people's words on the server's side (issue 26, item 18): the table's
log names a stand-in bot as the terminal's setup screen does (medium, not heuristic), in
every language."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from lald.bots import FRIENDLY
from lald.clock import ManualClock
from lald.i18n import Catalog
from lald.web.table.frames import level_name

from ..conftest import create, recv, timer_set, until

LANGS = ["en", "de", "es", "pt"]


@pytest.mark.parametrize("lang", LANGS)
def test_an_expired_turn_names_the_stand_in_bot_by_its_friendly_level(
        clocked: TestClient, clock: ManualClock, lang: str) -> None:
    """Seen before: "the heuristic bot played for Seat 0" ("der Bot (heuristic)")."""
    client = clocked
    data = create(client, 1, levels="heuristic", seed=9, turn_seconds=5)
    catalog = Catalog(lang)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "token": data["seats"][0]["token"], "lang": lang})
        recv(ws)
        until(ws, lambda m: m["type"] == "state" and m["turn_deadline"] is not None)
        timer_set(clock, 5)
        clock.advance(5)
        f = until(ws, lambda m: m["type"] == "state" and any(e["kind"] == "timer" for e in m["log"]))
        line = next(e for e in f["log"] if e["kind"] == "timer")["text"]
    assert "heuristic" not in line and catalog.t("web_level_name_heuristic") in line, line


@pytest.mark.parametrize("lang", LANGS)
def test_every_level_has_its_friendly_name_as_the_terminal_says_it(lang: str) -> None:
    catalog = Catalog(lang)
    for friendly, level in FRIENDLY.items():
        assert level_name(level, catalog) != level
        # the setup screen's label for the level holds the same name
        assert level_name(level, catalog).lower() in catalog.t(f"level_{level}").lower(), friendly
    assert level_name("oracle", catalog) == "oracle"
