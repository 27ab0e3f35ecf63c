"""The refusals a person can meet through the pages are worded in the page's language:
the server's answer keeps its English ``error`` (for programs) and adds a ``code`` and the
numbers its sentence names, and the pages' ``refusal()`` (``static/js/i18n.js``, run here
in Node) turns that into the catalog's sentence. Seen before: a German lobby showed
"too many tables opened from your address: try again in a few minutes"."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import lald.web
from lald.i18n import LANGUAGES, Catalog, messages
from lald.web.server.app import create_app
from lald.web.settings import Settings

from ..conftest import FAST, create

JS = Path(lald.web.__file__).parent / "static" / "js" / "i18n.js"

RUNNER = """
import { readFileSync } from "node:fs";
import { useCatalog, refusal } from "./i18n.mjs";
const [catalogs, bodies] = JSON.parse(readFileSync("data.json", "utf8"));
const out = {};
for (const [lang, messages] of Object.entries(catalogs)) {
  useCatalog(lang, messages);
  out[lang] = bodies.map(refusal);
}
console.log(JSON.stringify(out));
"""

#: Each code, and the catalog sentence the page shows for it.
KEYS = {"other_site": "web_refused_other_site", "too_many_tables": "web_refused_too_many_tables",
        "name": "web_refused_name", "table_closed": "web_refused_table_closed",
        "host_link": "web_refused_host_link", "server_error": "web_refused_server_error",
        "no_table": "web_no_such_table", "no_deal": "web_refused_no_deal"}
#: Those of the lobby and accounts (issue 24; each met in tests/web/people/test_lobby.py,
#: test_accounts.py and test_ratings.py), worded by the same map.
KEYS |= {"private_table": "web_refused_private_table", "rated_login": "web_refused_rated_login",
         "seated": "web_refused_seated", "no_free_seat": "web_refused_no_free_seat",
         "guest_name": "web_refused_guest_name", "title": "web_refused_title",
         "too_many_seats": "web_refused_too_many_seats", "login": "web_refused_login",
         "login_limit": "web_refused_login_limit", "name_taken": "web_refused_name_taken",
         "name_rules": "web_refused_name_rules", "name_refused": "web_refused_name_refused",
         "password_rules": "web_refused_password_rules", "password_wrong": "web_refused_password_wrong",
         "csrf": "web_refused_csrf", "register_limit": "web_refused_register_limit",
         "not_logged_in": "web_refused_not_logged_in", "rated_public": "web_refused_rated_public",
         "rated_rules": "web_refused_rated_rules", "no_player": "web_player_missing"}
#: Those that defend accounts (issue 30), met below.
KEYS |= {"name_character": "web_refused_name_character", "name_marks": "web_refused_name_marks",
         "password_limit": "web_refused_password_limit",
         "password_logged_out": "web_refused_password_logged_out"}
#: A title refused for a character names it (issue 30, item 8).
KEYS |= {"title_character": "web_refused_title_character"}


def refusals(tmp_path: Path) -> list[dict[str, Any]]:
    """One real answer of the server for each code, made as a page would meet it."""
    # One table at once: the refusals before it spend none (only a table opened counts).
    settings = Settings(**{**FAST.__dict__, "create_burst": 1, "create_rate": 1 / 3600})
    app = create_app(f"sqlite:///{tmp_path / 'r.db'}", settings)
    bodies = []
    with TestClient(app) as client:
        seats = [{"human": True}, {}, {}]
        r = client.post("/api/tables", json={"players": 3, "seats": seats},
                        headers={"Origin": "https://evil.example"})
        bodies.append((r.status_code, r.json()))
        long = [{"human": True, "name": "x" * 41}, {}, {}]
        r = client.post("/api/tables", json={"players": 3, "seats": long})
        bodies.append((r.status_code, r.json()))
        host = create(client, 1, players=3)["host"]["token"]
        assert client.post("/api/host/close", json={"token": host}).status_code == 200
        r = client.post("/api/host/reissue", json={"token": host, "seat": 0})
        bodies.append((r.status_code, r.json()))
        r = client.post("/api/host", json={"token": "x" * 32})
        bodies.append((r.status_code, r.json()))
        r = client.post("/api/tables", json={"players": 3, "seats": seats})
        bodies.append((r.status_code, r.json()))
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}", FAST),
                    raise_server_exceptions=False) as client:
        # the replay viewer's link to a deal: of a table that is not, and of a deal not over
        r = client.get("/api/tables/nosuch/deals/0/record")
        bodies.append((r.status_code, r.json()))
        table = create(client, 1, players=3)["table"]["id"]
        r = client.get(f"/api/tables/{table}/deals/99/record")
        bodies.append((r.status_code, r.json()))

        def broken(*args: Any) -> None:
            raise RuntimeError("a defect")

        client.app.state.hub.create = broken  # type: ignore[attr-defined]
        r = client.post("/api/tables", json={"players": 3, "seats": seats})
        bodies.append((r.status_code, r.json()))
    quick = replace(FAST, password_memory=1024)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", quick)) as client:
        for name in ("Alice\u034f", "Zal" + "\u0301" * 9 + "go"):
            r = client.post("/api/account/register", json={"name": name, "password": "correct horse"})
            bodies.append((r.status_code, r.json()))
        made = client.post("/api/account/register", json={"name": "Ann", "password": "correct horse"}).json()
        for _ in range(5):  # five wrong passwords through the session: it ends
            r = client.post("/api/account/delete", json={"password": "not hers!"},
                            headers={"X-CSRF-Token": made["csrf"]})
        bodies.append((r.status_code, r.json()))
        client.cookies.clear()
        for i in range(6):  # five more failed logins from this address; its limit is spent
            r = client.post("/api/account/login", json={"name": f"Bob{i}", "password": "not his!"})
        made = client.post("/api/account/register", json={"name": "Cy Young", "password": "correct horse"})
        r = client.post("/api/account/password", json={"old": "not his!", "new": "correct horse 2"},
                        headers={"X-CSRF-Token": made.json()["csrf"]})
        bodies.append((r.status_code, r.json()))
        client.cookies.clear()
        r = client.post("/api/tables", json={"players": 3, "public": True, "title": "Friday\u202enight"})
        bodies.append((r.status_code, r.json()))
    assert [(status, body.get("code")) for status, body in bodies] == [
        (403, "other_site"), (400, "name"), (409, "table_closed"), (403, "host_link"),
        (429, "too_many_tables"), (404, "no_table"), (404, "no_deal"), (500, "server_error"),
        (400, "name_character"), (400, "name_marks"), (401, "password_logged_out"), (429, "password_limit"),
        (400, "title_character")]
    assert bodies[8][1]["char"] == "U+034F" and bodies[9][1]["most"] == 4
    assert bodies[10][1]["most"] == 5 and bodies[11][1]["count"] >= 1
    assert bodies[12][1]["char"] == "U+202E"
    for _status, body in bodies:
        assert isinstance(body["error"], str) and body["error"].isascii()
    assert bodies[1][1] | {"error": ""} == {"error": "", "code": "name", "seat": 0, "most": 40}
    return [body for _status, body in bodies]


def test_the_server_names_each_refusal_a_person_can_meet(tmp_path: Path) -> None:
    bodies = refusals(tmp_path)
    for body in bodies:
        for lang in LANGUAGES:
            key = KEYS[body["code"]]
            assert key in messages(lang), (lang, key)
    # The page's map and this test's agree, entry for entry.
    block = JS.read_text(encoding="utf-8").split("const REFUSALS = {")[1].split("};")[0]
    assert dict(re.findall(r'(\w+): "(\w+)"', block)) == KEYS


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the page's module")
def test_the_pages_word_each_refusal_in_their_language(tmp_path: Path) -> None:
    bodies = refusals(tmp_path)
    unknown = {"error": "'players' must be 3, 4 or 5"}
    (tmp_path / "i18n.mjs").write_text(JS.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(RUNNER, encoding="utf-8")
    catalogs = {lang: messages("en") | messages(lang) for lang in LANGUAGES}
    (tmp_path / "data.json").write_text(json.dumps([catalogs, [*bodies, unknown]]), encoding="utf-8")
    out = subprocess.run(["node", "run.mjs"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60, check=True)
    page = json.loads(out.stdout)
    for lang in LANGUAGES:
        catalog = Catalog(lang)
        said = page[lang]
        assert said[:-1] == [catalog.t(KEYS[b["code"]], **{k: v for k, v in b.items()
                                                           if k not in ("error", "code")})
                             for b in bodies], lang
        assert said[-1] == unknown["error"]  # a refusal only programs meet: the API's words
    assert page["de"][1] == ("Platz 0: Ein Name hat höchstens 40 Zeichen aus Buchstaben, Ziffern "
                             "und Satzzeichen.")
    assert len({page[lang][4] for lang in LANGUAGES}) == 4
