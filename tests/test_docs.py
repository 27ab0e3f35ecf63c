"""The project's own documents (issue 11, "In the box"): docs/rules.md names every option,
value, preset and variant the engine has; docs/record.md's examples are records that replay,
and its shuffle figures are the engine's; the README links the project's docs, not files
outside the repository; every link between them leads somewhere."""

from __future__ import annotations

import json
import re
import unicodedata
from enum import StrEnum
from pathlib import Path

import pytest

from lald.core import Rules
from lald.core.cards import CARDS
from lald.core.rng import PortableRandom
from lald.core.rules import LAYOUTS, OPTION_NAMES, PRESET_NAMES, VARIANT_NAMES
from lald.record import Record, load, replay_summary

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
RECORD = (ROOT / "docs" / "record.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
PLAYING = (ROOT / "docs" / "playing.md").read_text(encoding="utf-8")


def _blocks(text: str, language: str = "") -> list[str]:
    """The fenced blocks of ``text`` opened with ```` ```language ````."""
    blocks, current, info = [], None, ""
    for line in text.splitlines(keepends=True):
        fence = line.strip()
        if current is None and fence.startswith("```"):
            current, info = [], fence[3:].strip()
        elif current is not None and fence == "```":
            if info == language:
                blocks.append("".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def _option_row(name: str) -> str:
    rows = [line for line in RULES.splitlines() if line.startswith(f"| `{name}` |")]
    assert rows, f"docs/rules.md §11 has no row for {name}"
    return rows[-1]  # §11's table comes after the presets' table


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_rules_doc_names_every_option_and_each_of_its_values(name: str) -> None:
    row = _option_row(name)
    default = getattr(Rules(), name)
    if isinstance(default, StrEnum):
        for value in type(default):
            assert f"`{value.value}`" in row, (name, value.value)
    elif isinstance(default, bool):
        assert "on, off" in row
    else:
        assert re.search(r"whole number, \d+ to \d+", row), row


def test_rules_doc_names_every_preset_variant_and_player_count() -> None:
    for name in (*PRESET_NAMES, *VARIANT_NAMES):
        assert f"`{name}`" in RULES, name
    for players, (hand, table) in LAYOUTS.items():
        assert re.search(rf"\| {players}\b[^|]*\| {hand} \| {table} \|", RULES), players


def test_record_doc_json_example_replays_and_the_text_example_is_the_same_deal() -> None:
    example = next(b for b in _blocks(RECORD, "json") if '"format"' in b)
    record, state = load(example)
    assert len(record.actions) == len(state.actions) > 0
    text = next(b for b in _blocks(RECORD) if b.startswith('[Format "lald-text/1"]'))
    by_seed = Record.parse(text)
    assert by_seed.seed == 42 and by_seed.actions == record.actions
    assert by_seed.replay().dealt_hands == state.dealt_hands


def test_the_playing_docs_text_notation_example_replays() -> None:
    """docs/playing.md's example (the README's until issue 32). Seen before: its notes had
    no #, so its first action did not parse, and its claim was not possible in the deal of
    seed 42."""
    text = next(b for b in _blocks(PLAYING) if b.startswith('[Format "lald-text/1"]'))
    record, state = load(text)
    assert record.seed == 42 and len(state.actions) == len(record.actions) >= 4


def test_record_doc_replay_summary_has_the_engine_keys() -> None:
    shown = json.loads(next(b for b in _blocks(RECORD, "json") if '"over"' in b))
    record, state = load(next(b for b in _blocks(RECORD, "json") if '"format"' in b))
    assert list(shown) == list(replay_summary(state))


def test_record_doc_shuffle_figures_are_the_engine_s() -> None:
    rng = PortableRandom(42)
    outputs = [rng.next64() for _ in range(3)]
    assert "The first three\n   outputs of seed 42 are " in RECORD
    assert " and ".join([", ".join(map(str, outputs[:2])), str(outputs[2])]) in " ".join(RECORD.split())
    deck = list(range(52))
    PortableRandom(42).shuffle(deck)
    prefix = " ".join(str(CARDS[i]) for i in deck[:12])
    assert f"`{prefix} …`" in RECORD


def test_readme_links_the_project_s_own_docs() -> None:
    assert "(docs/rules.md)" in README and "(docs/record.md)" in README
    assert "../shared" not in README and "RULES.md" not in README and "RECORD.md" not in README


def _headings(text: str) -> list[str]:
    """The Markdown headings of ``text``, fenced code left out (a shell comment is no heading)."""
    headings, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6} (.*?)#*\s*$", line)):
            headings.append(m.group(1))
    return headings


def _plain(heading: str) -> str:
    """A heading's text as rendered: no code marks, emphasis or link targets."""
    return re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").replace("*", "")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = _plain(heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _mkdocs_slug(heading: str) -> str:
    """MkDocs' anchor for a heading (Python-Markdown's ``toc`` slugify)."""
    text = unicodedata.normalize("NFKD", _plain(heading)).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _anchors(path: Path) -> set[str]:
    """The anchors a heading of ``path`` makes both on GitHub and on the MkDocs site."""
    headings = _headings(path.read_text(encoding="utf-8"))
    return {_slug(h) for h in headings} & {_mkdocs_slug(h) for h in headings}


SOURCE = {".py", ".pyi", ".c", ".js", ".html", ".json"}
DOCS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("path", ["README.md", *DOCS])
def test_links_lead_somewhere(path: str) -> None:
    source = ROOT / path
    text = source.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (source.parent / file).resolve() if file else source
        assert linked.exists(), f"{path} links {target}"
        if anchor and linked.suffix == ".md":
            assert anchor in _anchors(linked), f"{path} links {target}"


def _cited_anchors() -> list[tuple[str, str, str]]:
    """Every ``docs/FILE.md#anchor`` cited in the source (docstrings, comments, the page's
    scripts) and in the README and the docs: (where, file, anchor)."""
    cited = []
    files = [p for p in (ROOT / "src").rglob("*") if p.suffix in SOURCE and p.is_file()]
    files += [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        for file, anchor in re.findall(r"\bdocs/([\w./-]+\.md)#([\w-]+)", text):
            cited.append((str(path.relative_to(ROOT)), file, anchor))
    return cited


def test_every_cited_docs_anchor_is_a_heading() -> None:
    """Docstrings once cited RULES.md and RECORD.md, files outside the repository, by
    section numbers that were not docs/rules.md's (issue 32): a citation names a section of a
    file in docs/ by its anchor, and the anchor must be one a heading of that file makes."""
    cited = _cited_anchors()
    assert any(where.startswith("src/") for where, _, _ in cited)
    wrong = [f"{where}: docs/{file}#{anchor}" for where, file, anchor in cited
             if not (ROOT / "docs" / file).exists() or anchor not in _anchors(ROOT / "docs" / file)]
    assert not wrong, f"these cite a section that does not exist: {wrong}"


def test_the_source_cites_no_document_outside_the_repository() -> None:
    outside = [str(p.relative_to(ROOT)) for p in (ROOT / "src").rglob("*")
               if p.suffix in SOURCE and p.is_file()
               and re.search(r"\b(RULES|RECORD)\.md\b", p.read_text(encoding="utf-8"))]
    assert not outside, f"these cite RULES.md or RECORD.md, which are not in the repository: {outside}"


def test_the_licence_is_an_spdx_expression_with_its_text() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"  # a string: setuptools >= 77 warns on a table
    assert any(r.startswith("setuptools>=") and int(r.split(">=")[1].split(".")[0]) >= 77
               for r in project["build-system"]["requires"])
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_the_research_ladder_is_the_strength_documents() -> None:
    # docs/research.md once kept figures of bots since replaced (and so said greedy loses
    # to random, which docs/strength.md measured false): every interval its ladder gives
    # must be one docs/strength.md reports, in the same row order of presets.
    research = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    strength = (ROOT / "docs" / "strength.md").read_text(encoding="utf-8")
    ladder = research[research.index("## The bot ladder"):research.index("## Baselines")]
    figures = re.findall(r"[+−-]\d+\.\d+ ± \d+\.\d+", ladder)
    assert len(figures) >= 12
    missing = [f for f in figures if f not in strength]
    assert not missing, f"docs/research.md's ladder has figures docs/strength.md does not: {missing}"
    assert "greedy` loses to `random" not in research
    # The baselines table rates each level against the heuristic: a level below it is the
    # heuristic's lead over it turned round (random −1.766 is heuristic − random +1.766).
    baselines = research[research.index("## Baselines"):research.index("## Speed")]
    figures = re.findall(r"[+−-]\d+\.\d+ ± \d+\.\d+", baselines)
    assert len(figures) >= 8
    flipped = {"−": "+", "+": "−", "-": "+"}
    missing = [f for f in figures if f not in strength and flipped[f[0]] + f[1:] not in strength]
    assert not missing, f"docs/research.md's baselines have figures docs/strength.md does not: {missing}"


def test_every_benchmark_prints_the_machine_beside_its_figures() -> None:
    # Absolute figures mean nothing without the machine's speed and load (docs/research.md's
    # speed table came out 3.1–3.4× lower on another machine, its ratios the same): every
    # script in bench/ prints bench/machine.py's line.
    scripts = sorted(p for p in (ROOT / "bench").glob("*.py") if p.name != "machine.py")
    assert scripts
    silent = [p.name for p in scripts if "machine.line(" not in p.read_text(encoding="utf-8")]
    assert not silent, f"these benchmarks print no machine line: {silent}"
