"""The source map (issue 33, items 1 and 2 of "What is wrong now"): every option value,
preset, variant and player count traced to the four texts, the works outside them, or
lald's own choice; the report, the help and docs/rules.md written from it."""

from __future__ import annotations

import os
import re
from enum import StrEnum
from pathlib import Path

import pytest

from lald.core import OPTION_NAMES, Rules
from lald.lab import sources
from lald.lab.reading import STANDARD, parse_reading
from lald.lab.sources import (
    AT_PLAYERS,
    FIXED,
    HEADINGS,
    LAYOUT,
    SOURCES,
    Cite,
    Text,
    attribution,
    attributions,
    source_line,
)

ROOT = Path(__file__).parents[2]
#: The four texts are not part of the project (they may not be copied into it): they lie
#: beside the repository, or where LALD_TEXTS says.
TEXTS = Path(os.environ.get("LALD_TEXTS", ROOT.parent / "shared" / "texts"))
FILES = {Text.GERMAN: "german.txt", Text.PORTUGUESE: "portuguese.txt", Text.ENGLISH: "english.txt",
         Text.SPANISH: "spanish.txt"}


def _every_cite() -> list[Cite]:
    out = []
    for a in [*SOURCES.values(), *AT_PLAYERS.values(), *LAYOUT.values(), *FIXED.values()]:
        out += [*a.texts, *a.against]
    return out


def _section(text: str, heading: str, headings: tuple[str, ...]) -> str:
    """The lines of ``text`` from the line that is ``heading`` to the next heading."""
    lines = text.splitlines()
    marks = {h: next((i for i, line in enumerate(lines) if _is_heading(line, h)), None) for h in headings}
    start = marks[heading]
    assert start is not None, heading
    stop = min((i for i in marks.values() if i is not None and i > start), default=len(lines))
    return "\n".join(lines[start:stop])


def _is_heading(line: str, heading: str) -> bool:
    line = line.strip()
    if re.fullmatch(r"\d\d", heading):  # the Spanish text's "03 /"
        return line == f"{heading} /"
    return line == heading


def test_every_cited_section_is_a_heading_of_the_map() -> None:
    for c in _every_cite():
        assert c.section in HEADINGS[c.text], c


@pytest.mark.skipif(not TEXTS.is_dir(), reason="the four rules texts are not beside the repository")
def test_every_cited_section_and_step_is_in_its_text() -> None:
    for c in set(_every_cite()):
        text = (TEXTS / FILES[c.text]).read_text(encoding="utf-8")
        section = _section(text, c.section, HEADINGS[c.text])
        if c.step is not None:
            assert re.search(rf"^{c.step}\. ", section, re.M), c


def test_every_value_of_every_option_has_its_source() -> None:
    for name in OPTION_NAMES:
        default = getattr(Rules(), name)
        if isinstance(default, bool):
            values = ["on", "off"]
        elif isinstance(default, StrEnum):
            values = [m.value for m in type(default)]
        else:
            values = []
        for value in values:
            assert (name, value) in SOURCES, (name, value)
    for preset in ("survivor", "last-capture"):
        for n in (3, 4, 5):
            for name, a in attributions(Rules.make(preset, n)):
                assert not a.by_hand, (preset, n, name)  # the presets are all sourced
                assert a.texts or a.choice, (preset, n, name)


def test_the_wrong_attributions_are_gone() -> None:
    # the table mournival, compulsory capture and the signed ledger are not the German text's
    last = source_line(Rules.make("last-capture"))
    for what in ("four of a kind dealt to the table go to the dealer",
                 "the pot and the balances may go below zero"):
        assert f"{what} (only the Spanish" in last or f"{what} (only the English" in last, what
    assert "a player who can capture must (against German text, Tipps und Strategien" in last
    # no spotter claims rests on the German text's silence, and is lald's
    spot = attribution("spotter_claims", "off")
    assert not spot.texts and spot.choice and "silent" not in spot.what
    assert "Tipps und Strategien" in spot.choice
    # survivor: the prial on a single is the German and Portuguese texts', the shared tie-break lald's
    surv = source_line(Rules.make("survivor"))
    assert "a prial takes the fourth card (only the German and Portuguese texts)" in surv
    assert "a tie for first place shares the win: lald's choice" in surv
    # the prize of 5 and the antes at 3 and 4 players: no text gives them
    for n in (3, 4):
        for name, value in (("prize", "5"), ("ante_dealer", "3"), ("ante_other", "2")):
            a = attribution(name, value, n)
            assert not a.texts and a.choice and "German" in a.choice, (name, n)
    # survivor+modern-laugh: the Spanish text rules the trail out
    assert "trails one card (the modern laugh) (against Spanish text, section 03)" in source_line(
        Rules.make("survivor", variants=["modern-laugh"]))
    # survivor:prize=5/4 does not name the prize of 3 it does not play
    line = source_line(parse_reading("survivor:prize=5/4").rules)
    assert "prize of 3" not in line and "a prize of 5" in line
    assert "prize of 3" in source_line(parse_reading("survivor/4").rules)


def test_the_works_outside_the_texts_say_where_they_were_read() -> None:
    refs = " ".join(sources.references())
    assert "*Why Come Ye Nat to Courte?*" in refs and "Why Not to Court" not in refs
    assert ("D. Cram, J. L. Forgeng and D. Johnston (eds.), *Francis Willughby's Book of Games* "
            "(Ashgate, 2003)") in refs
    assert "parlettgames.uk" in sources.WORKS["parlett"].reference
    for key in ("parlett", "porges"):
        assert "four texts" in sources.WORKS[key].reference
    for text in STANDARD:
        line = source_line(parse_reading(text).rules)
        assert "Porges (not in the four texts)" in line or "Porges" not in line


def test_docs_rules_sources_section_is_the_one_the_table_writes() -> None:
    """Regenerate with `python -m lald.lab.sources` between the markers of docs/rules.md §14."""
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    start, end = "<!-- sources: python -m lald.lab.sources -->\n", "<!-- end of sources -->"
    assert start in doc and end in doc
    block = doc[doc.index(start) + len(start):doc.index(end)]
    assert block.strip() == sources.rules_section().strip()
