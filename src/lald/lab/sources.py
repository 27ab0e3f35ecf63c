"""The source map: for every option value, preset, variant and player count, which of the
four modern rules texts gives it (language and section), which secondary work, and which
values are lald's own choice because the texts are silent.

One table, :data:`SOURCES`, says it; the report's "Source:" lines (:func:`source_line`),
the sources part of ``lald readings --help`` (:func:`help_text`) and the sources section of
docs/rules.md#14-where-the-readings-come-from (:func:`rules_section`) are all written from
it, so they cannot drift apart.

The four texts are cited by language and section as they head them: the German text's
``Spielablauf`` step 4, the English text's ``THE PLAY``, the Spanish text's section ``03``.
The works that are not among the four texts (Parlett's web page, Porges) are
:data:`WORKS`, each saying where lald read it.

>>> str(Cite(GERMAN, "Spielablauf", 4)), str(Cite(SPANISH, "03"))
('German text, Spielablauf step 4', 'Spanish text, section 03')
>>> attribution("spotter_claims", "off", 5).choice is not None
True
>>> attribution("prize", "3", 4).secondary
('porges',)
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections.abc import Sequence
from enum import StrEnum, unique

from ..core import OPTION_NAMES, VARIANT_NAMES, Rules


@unique
class Text(StrEnum):
    """The four modern rules texts the readings come from."""

    GERMAN = "German"
    """A German "how to play" page (author, title and date not known): the prize to the last capture."""
    PORTUGUESE = "Portuguese"
    """The same text in Portuguese."""
    ENGLISH = "English"
    """An English rules page in Parlett's terms ("foreplay", "won pile"; author and date not known)."""
    SPANISH = "Spanish"
    """A Spanish reconstruction that says (section 01) it follows Parlett."""


GERMAN, PORTUGUESE, ENGLISH, SPANISH = Text.GERMAN, Text.PORTUGUESE, Text.ENGLISH, Text.SPANISH

#: Every section heading the map cites, as it stands in each text (the Spanish text
#: numbers its sections ``01 /`` to ``06 /``; its headings' words follow the number).
HEADINGS: dict[Text, tuple[str, ...]] = {
    GERMAN: ("Ziel", "Vorbereitung und Austeilen", "Spielablauf", "Punktewertung", "Gewinnen",
             "Varianten", "Tipps und Strategien"),
    PORTUGUESE: ("Objetivo", "Preparação e distribuição", "Jogabilidade", "Pontuação", "Vitória",
                 "Variações Comuns", "Dicas e estratégias"),
    ENGLISH: ("INTRODUCTION TO LAUGH AND LIE DOWN", "THE DEAL", "THE FOREPLAY", "THE PLAY", "PAYOUT"),
    SPANISH: ("01", "02", "03", "04", "05", "06"),
}


@dataclasses.dataclass(frozen=True, slots=True)
class Cite:
    """One place in one of the four texts: a section, and a numbered step in it."""

    text: Text
    section: str
    step: int | None = None

    def __str__(self) -> str:
        if self.text is SPANISH:
            return f"Spanish text, section {self.section}"
        return f"{self.text} text, {self.section}" + (f" step {self.step}" if self.step else "")


@dataclasses.dataclass(frozen=True, slots=True)
class Work:
    """A work that is not among the four texts, and where lald read it."""

    name: str
    """How the map names it in a line: ``Parlett``."""
    reference: str
    """Author, title, date and place, as far as they are known."""


#: The works outside the four texts. Keys are short names.
WORKS: dict[str, Work] = {
    "willughby": Work("Willughby", "Francis Willughby, *Book of Games*, a manuscript written about "
                      "1660–1672: the account behind every reading; its modern edition is D. Cram, "
                      "J. L. Forgeng and D. Johnston (eds.), *Francis Willughby's Book of Games* "
                      "(Ashgate, 2003). lald has read neither; the four texts and Parlett cite it"),
    "skelton": Work("Skelton", "John Skelton, *Why Come Ye Nat to Courte?*, a poem of 1522: the "
                    "game's first mention (the German and Portuguese texts give the year)"),
    "parlett": Work("Parlett", "David Parlett, \"Laugh and Lie Down\", a page of his *Historic Card "
                    "Games* web site (parlettgames.uk, histocs/laughand.html; date not given): his "
                    "reconstruction after Willughby for five players, and the remark that the game "
                    "is easily adapted to four, without saying how. Read there; that remark is in "
                    "none of the four texts, and the Spanish text only says (section 01) that it "
                    "follows him, the prize to the last survivor included"),
    "porges": Work("Porges", "Porges, *Ways to Play* (first name, date and publisher not known): "
                   "named in lald's notes since its first readings as an independent reading of "
                   "Willughby in which the last pair wins 5, with a four-player table of 10 cards "
                   "each, 12 face up and a prize of 3. Where it was read is not recorded and lald "
                   "has not been able to check it; it is in none of the four texts"),
}

#: The four texts, for the list of references.
TEXTS: dict[Text, str] = {
    GERMAN: "a German \"how to play\" page, *Spielanleitung* (author, title, date and place not known)",
    PORTUGUESE: "the same text in Portuguese, *Como Jogar* (author, title, date and place not known)",
    ENGLISH: "an English rules page in Parlett's terms (\"foreplay\", \"won pile\"; author, date and "
             "place not known)",
    SPANISH: "a Spanish reconstruction that says it follows Parlett (author, date and place not known)",
}


@dataclasses.dataclass(frozen=True, slots=True)
class Attribution:
    """Where one value of one option comes from."""

    what: str
    """The value in words: ``the prize to the last capture``."""
    texts: tuple[Cite, ...] = ()
    """The places in the four texts that give it."""
    secondary: tuple[str, ...] = ()
    """Keys of :data:`WORKS` outside the four texts that give it."""
    choice: str | None = None
    """When the texts are silent or unclear: lald's own choice, and why."""
    against: tuple[Cite, ...] = ()
    """Texts that say otherwise in so many words."""
    by_hand: bool = False
    """A value no text and no choice of lald's gives: an option set by hand."""

    def where(self) -> str:
        """The sources in words, without the value."""
        parts = [_cites(self.texts)] if self.texts else []
        parts += [WORKS[k].name + " (not in the four texts)" for k in self.secondary]
        if self.choice is not None:
            parts.append(("lald's choice: " if not self.texts else "lald's reading: ") + self.choice)
        if self.by_hand:
            parts.append("set by hand: no text gives it")
        if self.against:
            parts.append("against " + _cites(self.against))
        return "; ".join(parts)


def _cites(cites: Sequence[Cite]) -> str:
    """Places grouped by text: ``German text, Spielablauf steps 1 and 3; English text, THE PLAY``."""
    out: list[str] = []
    by_text: dict[Text, dict[str, list[int | None]]] = {}
    for c in cites:
        by_text.setdefault(c.text, {}).setdefault(c.section, []).append(c.step)
    for text, sections in by_text.items():
        words = []
        for section, steps in sections.items():
            numbered = [s for s in steps if s]
            if text is SPANISH:
                words.append(section)
            elif numbered:
                words.append(f"{section} step{'s' if len(numbered) > 1 else ''} "
                             + _and([str(s) for s in numbered]))
            else:
                words.append(section)
        if text is SPANISH:
            out.append(f"Spanish text, section{'s' if len(words) > 1 else ''} {_and(words)}")
        else:
            out.append(f"{text} text, {_and(words)}")
    return "; ".join(out)


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


G, P, E, S = GERMAN, PORTUGUESE, ENGLISH, SPANISH
_SETUP = (Cite(G, "Vorbereitung und Austeilen", 2), Cite(P, "Preparação e distribuição", 2),
          Cite(E, "THE DEAL"), Cite(S, "02"))
_SMALL_TABLES = (Cite(G, "Varianten"), Cite(P, "Variações Comuns"))
_SILENT_SMALL = ("the 3- and 4-player tables of the German and Portuguese texts (Varianten, "
                 "Variações Comuns) give only the cards; lald keeps the five-player {}")

#: Where every option value comes from: (option, value as written) -> attribution.
SOURCES: dict[tuple[str, str], Attribution] = {
    ("prize_rule", "survivor"): Attribution(
        "the prize to the last player holding cards",
        (Cite(E, "PAYOUT"), Cite(S, "01"), Cite(S, "05")), ("parlett",)),
    ("prize_rule", "last_capture"): Attribution(
        "the prize to the last capture",
        (Cite(G, "Ziel"), Cite(G, "Spielablauf", 6), Cite(P, "Objetivo"), Cite(P, "Jogabilidade", 6)),
        ("porges",),
        choice="the last capture made on a turn; claims and the residue do not count, and nobody is "
               "paid if nobody captured (the scoring sections, Punktewertung and Pontuação, say "
               "whoever took the very last card: prize_rule last_card)"),
    ("prize_rule", "last_card"): Attribution(
        "the prize to whoever took the very last card, claims included",
        (Cite(G, "Punktewertung"), Cite(P, "Pontuação")),
        choice="the scoring sections pay whoever took the round's very last card, where step 6 "
               "of the play (Spielablauf, Jogabilidade) says the last capture; lald counts a claim "
               "as taking cards, whoever's turn it is, and the residue and a table mournival as "
               "taken by nobody"),
    ("prize", "5"): Attribution(
        "a prize of 5",
        (Cite(G, "Spielablauf", 6), Cite(P, "Jogabilidade", 6), Cite(E, "PAYOUT"), Cite(S, "05"))),
    ("single_takes_three", "choice"): Attribution(
        "one card takes one or all three of its rank",
        (Cite(E, "THE PLAY"), Cite(S, "03"), Cite(S, "04"), Cite(S, "06")),
        choice="the Spanish text has one card take all three, and calls taking one a mistake that "
               "leaves a pair for whoever spots it (sections 04 and 06); lald lets the player choose"),
    ("single_takes_three", "forced"): Attribution(
        "one card facing three of its rank must take all three",
        choice="a strict reading of the Spanish text's section 03, which its sections 04 and 06 soften"),
    ("single_takes_three", "off"): Attribution(
        "one card takes one, never three",
        (Cite(G, "Spielablauf", 1), Cite(G, "Spielablauf", 2), Cite(G, "Spielablauf", 3),
         Cite(P, "Jogabilidade", 1), Cite(P, "Jogabilidade", 2), Cite(P, "Jogabilidade", 3)),
        choice="the German and Portuguese lists of captures have no sweep; they do not forbid one",
        against=(Cite(E, "THE PLAY"), Cite(S, "03"))),
    ("pair_on_pair", "on"): Attribution(
        "a pair takes a pair",
        (Cite(G, "Spielablauf", 2), Cite(P, "Jogabilidade", 2), Cite(E, "THE PLAY"), Cite(S, "03"))),
    ("pair_on_pair", "off"): Attribution("no pair on a pair", by_hand=True),
    ("prial_on_single", "on"): Attribution(
        "a prial takes the fourth card",
        (Cite(G, "Spielablauf", 3), Cite(P, "Jogabilidade", 3))),
    ("prial_on_single", "off"): Attribution(
        "no prial on a single",
        choice="the English and Spanish lists of captures (THE PLAY, section 03) have none; they do "
               "not forbid one"),
    ("hand_sets", "on"): Attribution(
        "prials and mournivals in hand may be set aside",
        (Cite(G, "Vorbereitung und Austeilen", 5), Cite(P, "Preparação e distribuição", 5),
         Cite(E, "THE FOREPLAY"), Cite(S, "04"))),
    ("hand_sets", "off"): Attribution("no hand sets", by_hand=True),
    ("hand_set_timing", "foreplay"): Attribution(
        "hand sets before the first move only",
        (Cite(G, "Vorbereitung und Austeilen", 5), Cite(P, "Preparação e distribuição", 5))),
    ("hand_set_timing", "foreplay_or_own_turn"): Attribution(
        "hand sets before the first move or on one's own turn", (Cite(E, "THE FOREPLAY"),)),
    ("hand_sets_face_down", "on"): Attribution(
        "hand sets face down",
        (Cite(G, "Vorbereitung und Austeilen", 5), Cite(P, "Preparação e distribuição", 5)),
        choice="those texts lay every won card face down (German Spielablauf step 1); lald hides "
               "only the cards set aside from a hand and shows every capture as it is made (the "
               "whole won pile face down has no option yet)"),
    ("hand_sets_face_down", "off"): Attribution(
        "set-aside cards stay visible", (Cite(S, "02"), Cite(S, "04"), Cite(E, "THE FOREPLAY")),
        choice="the English text sets prials face up but a mournival face down (prials_face_up "
               "with hand_sets_face_down); lald shows both"),
    ("prials_face_up", "on"): Attribution(
        "a prial's set shown, only a mournival set face down", (Cite(E, "THE FOREPLAY"),),
        choice="played with hand_sets_face_down on; with it off every set is shown anyway"),
    ("prials_face_up", "off"): Attribution(
        "a prial's set shown or hidden as a mournival's",
        choice="hand_sets_face_down alone decides, as the German and Portuguese texts set both "
               "aside face down (Vorbereitung und Austeilen step 5, Preparação e distribuição step 5) "
               "and the Spanish text shows both (section 04)"),
    ("dead_claims", "any_time"): Attribution(
        "a rank whose live cards are all in one hand may be laid down at any time, even out of turn",
        (Cite(G, "Spielablauf", 4), Cite(P, "Jogabilidade", 4), Cite(S, "04"), Cite(E, "THE PLAY"))),
    ("dead_claims", "own_turn"): Attribution("dead ranks laid down on one's own turn only", by_hand=True),
    ("dead_claims", "off"): Attribution("no dead-rank claims", by_hand=True),
    ("spotter_claims", "on"): Attribution(
        "cards of a rank left on the table go to whoever spots them, even a player who lay down",
        (Cite(S, "04"), Cite(S, "06"))),
    ("spotter_claims", "off"): Attribution(
        "nobody may claim cards left on the table",
        choice="the German and Portuguese texts say nothing of such claims, and one of their own tips "
               "(Tipps und Strategien, Dicas e estratégias: read the pool) points the other way",
        against=(Cite(S, "04"),)),
    ("pot_rule", "signed"): Attribution(
        "the pot and the balances may go below zero", (Cite(S, "05"), Cite(S, "06")),
        choice="the Spanish text's reserve or signed register read as a signed ledger, paid as its "
               "worked example pays (section 06): shortfalls in, then the prize, then the surpluses; "
               "with a signed ledger the order changes no one's chips"),
    ("pot_rule", "real"): Attribution(
        "a real pot that never goes below zero, paid the prize first, then the shortfalls, then "
        "the surpluses while it lasts", (Cite(E, "PAYOUT"),),
        choice="the English text's order of payment (PAYOUT), with chips that are real: what the "
               "pot does not hold is not paid; the texts do not say who is paid first when it runs "
               "short, and lald pays the surpluses from the eldest round (the German and Portuguese "
               "texts only carry what is left in the pot: Punktewertung, Pontuação)"),
    ("table_mournival_to_dealer", "on"): Attribution(
        "four of a kind dealt to the table go to the dealer", (Cite(E, "THE DEAL"), Cite(S, "04"))),
    ("table_mournival_to_dealer", "off"): Attribution(
        "a mournival dealt to the table stays there",
        choice="the German and Portuguese texts say nothing of it; with spotter_claims on it goes "
               "to whoever claims it first, as the Spanish text gives a forgotten one (section 04), "
               "though there it is the dealer's until forgotten",
        against=(Cite(E, "THE DEAL"), Cite(S, "04"))),
    ("no_capture", "lie_down"): Attribution(
        "a player who cannot capture lies down",
        (Cite(G, "Spielablauf", 5), Cite(P, "Jogabilidade", 5), Cite(E, "THE PLAY"), Cite(S, "03"))),
    ("no_capture", "trail"): Attribution(
        "a player who cannot capture trails one card (the modern laugh)",
        (Cite(G, "Varianten"), Cite(P, "Variações Comuns")), against=(Cite(S, "03"),)),
    ("rounding", "toward_zero"): Attribution(
        "odd surpluses rounded toward zero",
        (Cite(G, "Punktewertung"), Cite(P, "Pontuação"), Cite(E, "PAYOUT"), Cite(S, "05")),
        choice="the German and Portuguese texts round odd surpluses and shortfalls down, read as "
               "fewer pairs either way; the English and Spanish count whole pairs"),
    ("rounding", "floor"): Attribution(
        "odd surpluses rounded down, so a shortfall pays the extra chip",
        choice="the other reading of the German and Portuguese \"rounded down\" (Punktewertung, "
               "Pontuação)"),
    ("scoring", "chips"): Attribution(
        "chips for pairs above and below the quota",
        (Cite(G, "Punktewertung"), Cite(P, "Pontuação"), Cite(E, "PAYOUT"), Cite(S, "05"))),
    ("scoring", "card_count"): Attribution(
        "no chips: most cards wins (low stakes)", (Cite(G, "Varianten"), Cite(P, "Variações Comuns"))),
    ("tie_break", "shared"): Attribution(
        "a tie for first place shares the win",
        choice="the English and Spanish texts say nothing of a tie"),
    ("tie_break", "extra_deals"): Attribution(
        "a tie for first place plays more deals", (Cite(G, "Gewinnen"), Cite(P, "Vitória"))),
    ("laugh", "on"): Attribution(
        "the others laugh", (Cite(G, "Spielablauf", 5), Cite(P, "Jogabilidade", 5),
                             Cite(E, "INTRODUCTION TO LAUGH AND LIE DOWN"))),
    ("laugh", "off"): Attribution(
        "nobody laughs (silent)", (Cite(G, "Varianten"), Cite(P, "Variações Comuns"))),
    ("ante_dealer", "3"): Attribution("the dealer antes 3", _SETUP),
    ("ante_other", "2"): Attribution("every other player antes 2", _SETUP),
    ("deals", "5"): Attribution(
        "a session of 5 deals, each player dealing once",
        (Cite(G, "Gewinnen"), Cite(P, "Vitória"), Cite(S, "05"))),
    ("first_dealer", "cut"): Attribution(
        "the lowest cut deals first",
        (Cite(G, "Vorbereitung und Austeilen", 1), Cite(P, "Preparação e distribuição", 1),
         Cite(E, "THE DEAL"), Cite(S, "02"))),
    ("first_dealer", "seat"): Attribution("seat 0 deals first", by_hand=True),
    ("max_tie_cycles", "3"): Attribution(
        "at most 3 rounds of tie-break deals",
        choice="the German and Portuguese texts play one more deal and say no more"),
}

#: Values that depend on the number of players: (option, value, players) -> attribution,
#: before :data:`SOURCES`.
AT_PLAYERS: dict[tuple[str, str, int], Attribution] = {
    **{("prize", "5", n): Attribution("a prize of 5", choice=_SILENT_SMALL.format("prize of 5"))
       for n in (3, 4)},
    ("prize", "3", 4): Attribution(
        "a prize of 3", secondary=("porges",),
        choice="so that the pot balances (antes 9 = the prize and 6 pairs); the texts keep silent"),
    **{("ante_dealer", "3", n): Attribution("the dealer antes 3", choice=_SILENT_SMALL.format("antes"))
       for n in (3, 4)},
    **{("ante_other", "2", n): Attribution("every other player antes 2",
                                           choice=_SILENT_SMALL.format("antes")) for n in (3, 4)},
    **{("deals", str(n), n): Attribution(
        f"a session of {n} deals, each player dealing once", (Cite(G, "Gewinnen"), Cite(P, "Vitória")),
        choice="those texts' five deals, one per player, at this table") for n in (3, 4)},
}

#: The table and the hands at each number of players.
LAYOUT: dict[int, Attribution] = {
    5: Attribution("five players, 8 cards each and 12 face up",
                   (Cite(G, "Vorbereitung und Austeilen", 3), Cite(P, "Preparação e distribuição", 3),
                    Cite(E, "THE DEAL"), Cite(S, "02"))),
    4: Attribution("four players, 10 cards each and 12 face up", _SMALL_TABLES),
    3: Attribution("three players, 13 cards each and 13 face up", _SMALL_TABLES),
}

#: Rules every reading plays, which are no option.
FIXED: dict[str, Attribution] = {
    "compulsory capture": Attribution(
        "a player who can capture must", (Cite(S, "03"),),
        choice="the English text lets a player lie down only once no capture is left (THE PLAY); "
               "a capture that may be declined has no option yet",
        against=(Cite(G, "Tipps und Strategien"), Cite(P, "Dicas e estratégias"))),
    "end": Attribution(
        "the deal ends when one player holds cards; the rest and the table go to the dealer",
        (Cite(G, "Spielablauf", 6), Cite(P, "Jogabilidade", 6), Cite(E, "THE PLAY"), Cite(S, "05"))),
}

#: The texts and works each preset follows.
FOLLOWS: dict[str, tuple[tuple[Text, ...], tuple[str, ...]]] = {
    "survivor": ((ENGLISH, SPANISH), ("parlett",)),
    "last-capture": ((GERMAN, PORTUGUESE), ("porges",)),
}


def _value(rules: Rules, name: str) -> str:
    from .reading import _value_text

    return _value_text(getattr(rules, name))


def attribution(name: str, value: str, players: int = 5) -> Attribution:
    """Where ``value`` of option ``name`` comes from at a table of ``players``."""
    found = AT_PLAYERS.get((name, value, players)) or SOURCES.get((name, value))
    if found is None:
        return Attribution(f"{name} = {value}", by_hand=True)
    return found


def attributions(rules: Rules) -> list[tuple[str, Attribution]]:
    """Every option of ``rules`` with its attribution, after the table's layout
    (``players``) and before the rules every reading plays (:data:`FIXED`)."""
    out = [("players", LAYOUT[rules.players])]
    out += [(n, attribution(n, _value(rules, n), rules.players)) for n in OPTION_NAMES]
    out += list(FIXED.items())
    return out


def _texts_of(followed: Sequence[Text]) -> str:
    return f"the {_and([str(t) for t in followed])} text{'s' if len(followed) > 1 else ''}"


def notes(rules: Rules) -> list[str]:
    """Where the reading departs from the texts its preset follows: a value that only other
    texts give, or that a followed text contradicts in so many words."""
    followed, _ = FOLLOWS[rules.preset]
    out = []
    for _, a in attributions(rules):
        against = [c for c in a.against if c.text in followed]
        others = sorted({c.text for c in a.texts}, key=list(Text).index)
        if against:
            out.append(f"{a.what} (against {_cites(against)})")
        elif a.texts and not any(t in followed for t in others):
            out.append(f"{a.what} (only {_texts_of(others)})")
    return out


def undisputed(a: Attribution) -> bool:
    """Whether all four texts give the value in so many words, and lald reads nothing into it."""
    return {c.text for c in a.texts} == set(Text) and a.choice is None and not a.against


def source_items(rules: Rules, every: bool = True) -> tuple[str, list[str]]:
    """A reading's sources: one sentence on what its preset follows and where the reading
    departs from those texts, then its values grouped by where they come from (lald's own
    choices marked as such); ``every=False`` leaves out what all four texts give."""
    groups: dict[str, list[str]] = {}
    for _, a in attributions(rules):
        if every or not undisputed(a):
            groups.setdefault(a.where(), []).append(a.what)
    followed, works = FOLLOWS[rules.preset]
    head = (f"{rules.preset} follows {_texts_of(followed)}"
            + (f" and {_and([WORKS[w].name for w in works])} (not in the four texts)" if works else ""))
    rest = notes(rules)
    if rest:
        head += "; where it departs from them: " + "; ".join(rest)
    return head + ".", [f"{_and(whats)}: {where}." for where, whats in groups.items()]


def source_line(rules: Rules, every: bool = True) -> str:
    """:func:`source_items` in one line."""
    head, items = source_items(rules, every)
    return head + " " + " ".join(items)


def shared() -> list[str]:
    """What every reading plays as all four texts give it, with where each text says it."""
    seen: dict[str, Attribution] = {}
    for preset in FOLLOWS:
        for _, a in attributions(Rules.make(preset)):
            if undisputed(a):
                seen.setdefault(a.what, a)
    return [f"{a.what}: {a.where()}." for a in seen.values()]


def references() -> list[str]:
    """Every reference, one line each: the four texts, then the works outside them."""
    out = [f"{t} text: {TEXTS[t]}." for t in Text]
    out += [WORKS[k].reference + "." for k in WORKS]
    return out


# -- generated text ---------------------------------------------------------------------


def _value_rows() -> list[tuple[str, Attribution]]:
    rows = [(f"`players={n}`", LAYOUT[n]) for n in (5, 4, 3)]
    for name in OPTION_NAMES:
        rows += [(f"`{name}={value}`", a) for (n, value), a in SOURCES.items() if n == name]
        rows += [(f"`{name}={value}` at {players} players", a)
                 for (n, value, players), a in AT_PLAYERS.items() if n == name]
    rows += [(f"every reading: {key}", a) for key, a in FIXED.items()]
    return rows


def rules_section() -> str:
    """The sources part of docs/rules.md#14-where-the-readings-come-from, in Markdown."""
    lines = ["| value | the four texts | other works | lald's choice, and texts against |",
             "|---|---|---|---|"]
    for value, a in _value_rows():
        works = ", ".join(WORKS[k].name for k in a.secondary)
        own = "; ".join(x for x in (a.choice and ("lald's choice: " if not a.texts else "lald's reading: ")
                                                + a.choice,
                                    "set by hand: no text gives it" if a.by_hand else None,
                                    a.against and "against " + _cites(a.against)) if x)
        lines.append(f"| {value} | {_cites(a.texts) or '–'} | {works or '–'} | {own or '–'} |")
    presets = []
    for preset in FOLLOWS:
        head, _ = source_items(Rules.make(preset))
        presets.append(f"- {head.replace(preset, f'**`{preset}`**', 1)}")
    refs = "\n".join(f"- {r}" for r in references())
    return ("The presets, as their values' sources make them:\n\n" + "\n".join(presets)
            + "\n\nEvery value, where it comes from:\n\n" + "\n".join(lines)
            + "\n\nThe references:\n\n" + refs + "\n")


def help_text(width: int = 92) -> str:
    """The sources part of ``lald readings --help``: each preset's own values, the variants
    and the small tables, with where each comes from."""
    out = ["The readings and their sources (every value: docs/rules.md section 14):"]

    def item(head: str, body: str) -> None:
        wrapped = textwrap.wrap(body, width - 17)
        out.append(f"  {head:<14} {wrapped[0]}")
        out.extend(" " * 17 + w for w in wrapped[1:])

    from ..core.rules import PRESETS, VARIANTS

    for preset in FOLLOWS:
        rules = Rules.make(preset)
        own = [f"{a.what}: {a.where()}" for n, a in attributions(rules)[1:] if n in PRESETS[preset]]
        followed, works = FOLLOWS[preset]
        item(preset, f"follows the {_and([str(t) for t in followed])} texts and "
                     f"{_and([WORKS[w].name for w in works])}: " + " · ".join(own) + ".")
    for n in (4, 3):
        parts = [f"{LAYOUT[n].what}: {LAYOUT[n].where()}"]
        for preset in FOLLOWS:
            rules = Rules.make(preset, n)
            parts.append(f"under {preset}, {attribution('prize', str(rules.prize), n).what}: "
                         f"{attribution('prize', str(rules.prize), n).where()}")
        parts.append(f"the antes: {attribution('ante_dealer', '3', n).where()}")
        item(f"/{n}", " · ".join(parts) + ".")
    for v in VARIANT_NAMES:
        vs = [attribution(k, _value(Rules.make(variants=[v]), k)) for k in VARIANTS[v]]
        item(f"+{v}", " · ".join(f"{a.what}: {a.where()}" for a in vs) + ".")
    out.append("References:")
    for r in references():
        wrapped = textwrap.wrap(r.replace("*", ""), width - 4)
        out.append("  - " + wrapped[0])
        out.extend("    " + w for w in wrapped[1:])
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover - python -m lald.lab.sources prints the docs' section
    print(rules_section(), end="")
