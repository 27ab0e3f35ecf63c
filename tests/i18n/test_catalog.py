"""One message catalog, four languages: every key in every language, the same placeholders,
and no words on screen that do not come from it."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

import lald.tui
from lald.coach.hints import playable_levels
from lald.core import OPTION_NAMES, PRESET_NAMES, VARIANT_NAMES, Rules, Status
from lald.i18n import LANGUAGES, Catalog, detect_language, messages, plural_categories

TUI = Path(lald.tui.__file__).parent
SOURCES = sorted(TUI.rglob("*.py"))


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def forms(entry: str | dict[str, str]) -> list[str]:
    return list(entry.values()) if isinstance(entry, dict) else [entry]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    english, other = messages("en"), messages(lang)
    assert set(other) == set(english)
    for key, template in english.items():
        assert isinstance(other[key], dict) == isinstance(template, dict), key
        wanted = set().union(*(fields(f) for f in forms(template)))
        for form in forms(other[key]):
            assert form.strip(), key
            assert fields(form) <= wanted, key
        assert set().union(*(fields(f) for f in forms(other[key]))) == wanted, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_entry_has_exactly_its_languages_cldr_categories(lang: str) -> None:
    # Babel's CLDR data: en and de one/other; pt (European) and es one/many/other
    categories = plural_categories(lang)
    assert "other" in categories and (lang in ("en", "de")) == (categories == {"one", "other"})
    plurals = {k: v for k, v in messages(lang).items() if isinstance(v, dict)}
    assert len(plurals) >= 15
    for key, entry in plurals.items():
        assert set(entry) == categories, (key, sorted(entry))
        assert all("count" in fields(f) or "amount" in fields(f) for f in entry.values()), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_follow_the_number(lang: str) -> None:
    c = Catalog(lang)
    one, few = c.t("n_cards", count=1), c.t("n_cards", count=2)
    assert one != few and one.startswith("1 ") and few.startswith("2 ")
    assert c.t("n_pairs", count=-1) == c.t("n_pairs", count=1).replace("+1", "-1")
    assert c.t("n_pairs", count=0) == c.t("n_pairs", count=2).replace("+2", "+0")
    zero = c.t("web_waiting_count", count=0)
    # CLDR: 0 is plural in English, German, Portuguese (Portugal) and Spanish
    assert zero == c.t("web_waiting_count", count=5).replace("5", "0")
    assert c.plural(1000000) == ("many" if lang in ("pt", "es") else "other")
    with pytest.raises(KeyError):
        c.t("n_cards")


def test_the_issues_plural_mistakes_are_gone() -> None:
    en, de = Catalog("en"), Catalog("de")
    assert en.t("web_waiting_count", count=1) == "waiting for 1 player"
    assert en.t("n_pairs", count=1) == "+1 pair" and de.t("n_pairs", count=-1) == "-1 Paar"
    assert en.t("n_pairs", count=0) == "+0 pairs"


_GENDERED = {
    # role words that take a person's gender, next to a name
    "pt": ("o distribuidor", "o último", "a última com", "pronto", "jogador ", "o próximo jogador",
           "Bem-vindo", "o próximo jogar", "jogadores"),
    "de": ("der Geber", "den Geber", "als Letzter", "Letzter mit", "jeder andere", "jeder gibt",
           "nächste Spieler", "der Nächste", "Spieler"),
    "es": ("el repartidor", "al repartidor", "el último", "listo", "siguiente jugador",
           "Bienvenido", "el superviviente", "juegue el siguiente", "jugadores"),
}


@pytest.mark.parametrize("lang", ["pt", "de", "es"])
def test_sentences_hold_for_anyone(lang: str) -> None:
    for key, entry in messages(lang).items():
        if key.startswith(("preset_", "web_preset_")) or key in ("default_names",):
            continue
        for form in forms(entry):
            for word in _GENDERED[lang]:
                assert word not in form, (key, word, form)


def test_portuguese_says_tu_to_the_player() -> None:
    # the catalog addresses the player as "tu" (European Portuguese), never "você"
    pt = messages("pt")
    assert not [k for k, v in pt.items() if "você" in str(v).lower()]
    assert "Tu és" in str(pt["lesson_welcome"]) and "tens de capturar" in str(pt["lesson_single"])
    assert "tua jogada" in str(pt["lesson_do"]) and "tua jogada" in str(pt["lesson_try"])
    # (seen at the table's end: "Não tem cartas na mão", "Ainda pode fazer", said as to "você")
    assert pt["web_hand_empty"] == "Não tens cartas na mão." and "Ainda podes" in str(pt["web_out_may_claim"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lesson_speaks_the_games_words(lang: str) -> None:
    # RULES.md §11: lie down, prial, won pile and the eldest hand as the texts say them
    # (German: "sich hinlegen", and the English "Prial" as it keeps "Mournival")
    m = {k: str(v) for k, v in messages(lang).items()}
    words = {"en": ("lie down", "prial", "won pile", "eldest hand", "sweep"),
             "de": ("hinlegen", "Prial", "Stichstapel", "älteste Hand", "Vorgabe"),
             "pt": ("deitar", "prial (trinca)", "pilha de capturas", "mão mais velha", "cota normal"),
             "es": ("acostarte (entregar la mano)", "trío", "colección", "Eres mano", "cuota")}[lang]
    lesson = " ".join(v for k, v in m.items() if k.startswith("lesson_"))
    for word in words:
        assert word in lesson, (lang, word)


def test_german_words_keep_one_meaning() -> None:
    de = messages("de")
    # "Runde" is a deal: rounding is not "Runden", a tie-break is "Stechen"
    assert "Runde" not in str(de["opt_rounding"]) and "Stichrunden" not in str(de)
    assert "Stechen" in str(de["val_extra_deals"]) and "Stechen" in str(de["tie_extra_deals"])
    assert de["ledger_title"] != de["settlement_title"]
    assert de["web_ledger"] != de["web_settlement"]
    assert "Runde" in str(de["deal_of"]) and "Runde" in str(de["web_deal"])
    # a record is an "Aufzeichnung" (seen before: also "Protokoll", on the replay's button)
    assert "Protokoll" not in str(de) and "Aufzeichnung" in str(de["web_replay_load"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_terminal_and_the_page_use_the_same_words(lang: str) -> None:
    m = messages(lang)
    same = [("col_balance", "web_balance"), ("col_pot", "web_pot"), ("ledger_title", "web_ledger"),
            ("settlement_title", "web_settlement"), ("mark_dealer", "web_dealer"),
            ("mark_eldest", "web_eldest"), ("status_playing", "web_status_playing"),
            ("status_lain_down", "web_status_lain_down"), ("status_empty", "web_status_empty")]
    for a, b in same:
        assert m[a] == m[b], (a, b)
    # pot, prize and balance: each its own word, and the prize is won, not "taken"
    assert len({str(m["col_balance"]), str(m["col_pot"]), str(m["opt_prize"])}) == 3
    prize = str(m["settle_prize_survivor"])
    takes = str(m["settle_takes"])
    assert str(m["col_pot"]).lower() not in prize.split(":")[0].lower()
    assert prize.split(":")[0] != takes.split(" ")[0]


def test_the_games_own_words_are_used() -> None:
    # RULES.md §11: the words of the texts the game comes down to us in
    assert "Stichstapel" in messages("de")["col_won"] and "colección" in str(messages("es")["plain_seat"])
    assert "deita-se" in messages("pt")["lies_down_empty"]
    assert "acuesta" in messages("es")["lies_down_empty"]
    assert "Pott" in messages("de")["pot_line"] and "bote" in str(messages("es")["settle_pays"])
    assert "Prial" in str(messages("de")["act_prial"]) and "Vorgabe" in str(messages("de")["settle_won"])
    assert "superviviente" in str(messages("es")["settle_prize_survivor"])


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
        from lald.tui import words

        assert set(getattr(words, name)) <= keys


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
    wanted += [f"act_{k}" for k in ("single", "sweep", "pair", "prial")]
    wanted += [f"act_claim_{k}" for k in ("set", "dead", "spot")]
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
_STYLES = {"bold", "dim", "italic", "reverse", "underline", "red", "green", "yellow", "on", "grey23"}


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
    command line (in English, like every ``lald`` error) are raised or given to ``fail`` and
    ``warn``, not shown on screen; ``lald ...`` is a command, not words."""
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
                 and isinstance(c.func, ast.Name) and c.func.id in ("fail", "warn") for n in ast.walk(c)}
        errors = {id(n) for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
                  and c.name.endswith("Error") for n in ast.walk(c)}
        commands = {id(n) for n in ast.walk(tree) if isinstance(n, ast.Constant)
                    and isinstance(n.value, str) and n.value.startswith("lald ")}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            skipped = docs | raised | helps | fails | classes | errors | commands
            if id(node) in skipped or node.value in _ALLOWED:
                continue
            if _is_words(node.value):
                offenders.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert offenders == [], "\n".join(offenders)


def test_the_scan_would_catch_a_hard_coded_label() -> None:
    assert _is_words("Your turn")
    assert _is_words("Quit")
    assert not _is_words("#hand")
    assert not _is_words("settle_prize_survivor")
    assert not _is_words("bold red")  # a style; two words, yet they are style names


# -- issue 26, item 13: the game's words in every language, and the footers' "save" ---------

#: The word each language saves with, as its catalog writes ``s save``.
SAVE = {"en": "save", "de": "speichern", "pt": "guardar", "es": "guardar"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalog_writes_prial_with_a_ring(lang: str) -> None:
    """Seen before: German and Portuguese wrote "Priål" (a Scandinavian å in an English word)."""
    held = [k for k, v in messages(lang).items() if any("å" in f.lower() for f in forms(v))]
    assert not held, held


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_no_translation_says_lie_down_in_english(lang: str) -> None:
    """Seen before: German said "hat „lie down“ gemacht"; the game's name may stay English."""
    held = [k for k, v in messages(lang).items()
            if any("lie down" in f.lower().replace("laugh and lie down", "") for f in forms(v))]
    assert not held, held


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_bar_that_says_save_says_it_in_each_language(lang: str) -> None:
    """Seen before: "q save and quit" became "q beenden", "q sair", "q salir" (the game is
    saved, and a person who reads "quit" fears it is lost)."""
    english, other = messages("en"), messages(lang)
    bars = [k for k in english if k.startswith("keys_")]
    assert "keys_table" in bars and "keys_pass" in bars
    for key in bars:
        ours, theirs = str(english[key]).split(" · "), str(other[key]).split(" · ")
        assert len(ours) == len(theirs), (key, theirs)
        for item, said in zip(ours, theirs, strict=True):
            if "save" in item:
                assert SAVE[lang] in said, (key, said)
