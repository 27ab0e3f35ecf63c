"""The page's i18n (``src/lald/web/static/js/i18n.js``) picks the same plural forms as the
terminal: every plural entry of every catalog, through Node's ``Intl.PluralRules`` (the CLDR
data a browser carries) against Babel's."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import lald.web
from lald.i18n import LANGUAGES, Catalog, messages

JS = Path(lald.web.__file__).parent / "static" / "js" / "i18n.js"
COUNTS = [0, 1, 2, 3, 5, 11, 21, 100, 1000000, -1, -2, "1.0", "0.7", "2.5"]

RUNNER = """
import { readFileSync } from "node:fs";
import { useCatalog, t, plural } from "./i18n.mjs";
const [catalogs, counts] = JSON.parse(readFileSync("data.json", "utf8"));
const out = {};
for (const [lang, messages] of Object.entries(catalogs)) {
  useCatalog(lang, messages);
  out[lang] = {};
  for (const [key, entry] of Object.entries(messages)) {
    if (typeof entry !== "object") continue;
    const values = (n) => ({ count: n, amount: n, name: "Anne", names: "Anne", cards: "4♥",
                             pairs: "2 pairs" });
    out[lang][key] = counts.map((n) => t(key, values(n)));
  }
  out[lang].__plural = counts.map(plural);
  let threw = false;
  try { t("n_cards"); } catch (e) { threw = true; }
  out[lang].__threw = threw;
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js runs the page's module")
def test_the_page_and_the_terminal_choose_the_same_plural_forms(tmp_path: Path) -> None:
    (tmp_path / "i18n.mjs").write_text(JS.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(RUNNER, encoding="utf-8")
    catalogs = {lang: messages("en") | messages(lang) for lang in LANGUAGES}
    # The catalogs go through a file: together they outgrow one command-line argument.
    (tmp_path / "data.json").write_text(json.dumps([catalogs, COUNTS]), encoding="utf-8")
    out = subprocess.run(["node", "run.mjs"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60, check=True)
    page = json.loads(out.stdout)
    for lang in LANGUAGES:
        catalog = Catalog(lang)
        assert page[lang]["__plural"] == [catalog.plural(n) for n in COUNTS], lang
        assert page[lang]["__threw"]
        plurals = [k for k, v in messages(lang).items() if isinstance(v, dict)]
        assert plurals and set(plurals) <= set(page[lang])
        for key in plurals:
            expected = [_fill(catalog, key, n) for n in COUNTS]
            assert page[lang][key] == expected, (lang, key)
    assert page["en"]["web_waiting_count"][:3] == ["waiting for 0 players", "waiting for 1 player",
                                                   "waiting for 2 players"]


def _fill(catalog: Catalog, key: str, n: int | str) -> str:
    """What the terminal says for count ``n`` (the page writes numbers as they come)."""
    entry = messages(catalog.lang).get(key) or messages("en")[key]
    assert isinstance(entry, dict)
    template = entry.get(catalog.plural(n)) or entry["other"]
    shown = {"count": n, "amount": n, "name": "Anne", "names": "Anne", "cards": "4♥", "pairs": "2 pairs"}
    return template.replace("{count:+d}", ("+" if not str(n).startswith("-") else "") + str(n)) \
        .format(**shown)
