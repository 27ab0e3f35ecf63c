"""One message catalog, four languages: every key in every language, the same placeholders,
and no words on screen that do not come from it."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

import lald.tui
from lald.core import OPTION_NAMES, PRESET_NAMES, VARIANT_NAMES, Rules, Status
from lald.i18n import LANGUAGES, Catalog, detect_language, messages
from lald.tui.game import playable_levels

TUI = Path(lald.tui.__file__).parent
SOURCES = sorted(TUI.glob("*.py"))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    english, other = messages("en"), messages(lang)
    assert set(other) == set(english)
    for key, template in english.items():
        assert other[key].strip(), key
        assert fields(other[key]) == fields(template), key


def test_the_games_own_words_are_used() -> None:
    # RULES.md §11: the words of the texts the game comes down to us in
    assert "Stichstapel" in messages("de")["col_won"]
    assert "deita-se" in messages("pt")["lies_down_empty"]
    assert "acuesta" in messages("es")["lies_down_empty"]
    assert "Pott" in messages("de")["pot_line"] and "bote" in messages("es")["settle_pays"]


def test_language_comes_from_the_flag_or_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    assert detect_language() == "de"
    assert detect_language("pt") == "pt"
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    assert detect_language() == "en"
    with pytest.raises(ValueError):
        detect_language("fr")


def _calls_t(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "t"]


def test_every_literal_key_the_table_asks_for_exists() -> None:
    keys = set(messages("en"))
    used = set()
    for path in SOURCES:
        for call in _calls_t(ast.parse(path.read_text())):
            arg = call.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                used.add(arg.value)
    assert used and used <= keys, used - keys
    for name in (*("HELP_KEYS",),):
        from lald.tui import plain

        assert set(getattr(plain, name)) <= keys


def test_every_computed_key_exists() -> None:
    c = Catalog("en")
    rules = Rules.make()
    wanted = [f"opt_{n}" for n in OPTION_NAMES]
    wanted += [f"status_{s.value}" for s in Status]
    wanted += [f"preset_{p.replace('-', '_')}" for p in PRESET_NAMES]
    wanted += [f"variant_{v.replace('-', '_')}" for v in VARIANT_NAMES]
    for preset in PRESET_NAMES:
        for variants in ([], list(VARIANT_NAMES)):
            for _, value in Rules.make(preset, 4, variants).describe():
                if not value.isdigit():
                    wanted.append(f"val_{value}")
    wanted += [f"{p}_{k}" for p in ("act", "grp") for k in ("single", "sweep", "pair", "prial")]
    wanted += [f"{p}_claim_{k}" for p in ("act", "grp") for k in ("set", "dead", "spot")]
    wanted += [f"level_{lv}" for lv in playable_levels()]
    assert [k for k in wanted if not c.has(k)] == []
    assert rules.describe()


_ALLOWED = {
    # separators and number formats the table puts between catalog words
    "  ·  ", "   ", " ", "\n", ", ", "[", "]", "  ", "",
}


def _docstrings(tree: ast.AST) -> set[int]:
    """Bare string statements: docstrings of modules, classes, functions and attributes."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}


#: Rich style words: two of them side by side are a style, not words on screen.
_STYLES = {"bold", "dim", "italic", "reverse", "underline", "red", "green", "on", "grey23"}


def _is_words(text: str) -> bool:
    """Text a person would read: two words of letters, or a capitalised word."""
    words = [w for w in text.replace("_", " ").split() if w.isalpha()]
    if words and all(w in _STYLES for w in words):
        return False
    if any(w[0].isupper() and w[1:].islower() and len(w) > 1 for w in words):
        return True
    return len(words) >= 2 and " " in text


def test_no_screen_text_is_hard_coded() -> None:
    """Every string literal in the table's code is a catalog key, an identifier, a style, a
    key name or punctuation: words on screen come from the catalog. Error messages for the
    command line (in English, like every ``lald`` error) are raised, not shown on screen."""
    offenders = []
    for path in SOURCES:
        tree = ast.parse(path.read_text())
        docs = _docstrings(tree)
        raised = {id(n) for r in ast.walk(tree) if isinstance(r, ast.Raise)
                  for n in ast.walk(r)}
        helps = {id(n) for c in ast.walk(tree) if isinstance(c, ast.Call)
                 and isinstance(c.func, ast.Attribute) and c.func.attr in ("add_argument", "add_parser")
                 for n in ast.walk(c)}
        classes = {id(k.value) for k in ast.walk(tree) if isinstance(k, ast.keyword)
                   and k.arg in ("classes", "id", "variant")}
        fails = {id(n) for c in ast.walk(tree) if isinstance(c, ast.Call)
                 and isinstance(c.func, ast.Name) and c.func.id == "fail" for n in ast.walk(c)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            if id(node) in docs | raised | helps | fails | classes or node.value in _ALLOWED:
                continue
            if _is_words(node.value):
                offenders.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert offenders == []


def test_the_scan_would_catch_a_hard_coded_label() -> None:
    assert _is_words("Your turn")
    assert _is_words("Quit")
    assert not _is_words("#hand")
    assert not _is_words("settle_prize_survivor")
    assert not _is_words("bold red")  # a style; two words, yet they are style names
