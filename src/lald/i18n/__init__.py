"""One message catalog for every screen: the terminal and the web client share it.

Catalogs are JSON files beside this module, one per language (``en``, ``de``, ``pt``,
``es``), each mapping the same keys to ``str.format`` templates (the ``locale`` key names
the CLDR locale a catalog is written for: ``pt`` is European Portuguese, ``pt-PT``).  A
message that counts
something is a *plural entry*: an object with one template per CLDR plural category of
the language (``one`` and ``other`` in English and German; ``one``, ``many`` and ``other``
in Portuguese and Spanish), chosen by the value ``count`` through Babel's plural rules
(the browser picks with ``Intl.PluralRules``, from the same CLDR data).

>>> Catalog("en").t("plays_takes", name="Anne", play="Q♠", take="Q♥ Q♦ Q♣")
'Anne plays Q♠ and takes Q♥ Q♦ Q♣.'
>>> Catalog("en").t("n_cards", count=1), Catalog("en").t("n_cards", count=3)
('1 card', '3 cards')
>>> Catalog("de").t("n_pairs", count=-1)
'-1 Paar'

Other engineers add keys at the end of each catalog, in a block; a plain string is a
message, an object of categories a plural entry.  ``tests/i18n/test_catalog.py`` keeps
every catalog complete and every plural entry on its language's categories.
"""

from __future__ import annotations

import json
import locale
import os
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "de", "pt", "es")

Entry = str | dict[str, str]
"""A catalog value: a template, or templates by plural category."""


@cache
def messages(lang: str) -> dict[str, Entry]:
    """The whole catalog of ``lang`` (English for an unknown language)."""
    if lang not in LANGUAGES:
        lang = "en"
    text = resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, Entry] = json.loads(text)
    return data


def _english(n: Decimal) -> str:
    # CLDR's English rule ("one: i = 1 and v = 0"), for a bare install without Babel.
    return "one" if abs(n) == 1 and n.as_tuple().exponent == 0 else "other"


def locale_tag(lang: str) -> str:
    """The CLDR locale a catalog is written for (``pt-PT`` for ``pt``): its ``locale`` key."""
    tag = messages(lang).get("locale", lang)
    return tag if isinstance(tag, str) else lang


@cache
def _rule(lang: str) -> Callable[[Decimal], str]:
    try:
        from babel import Locale
    except ImportError:
        if lang == "en":
            return _english
        raise RuntimeError("lald's translations need Babel: pip install 'lald[play]'") from None
    form: Callable[[Decimal], str] = Locale.parse(locale_tag(lang), sep="-").plural_form
    return form


@cache
def plural_categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories of ``lang``'s locale (``other`` included), from Babel."""
    from babel import Locale

    return frozenset(Locale.parse(locale_tag(lang), sep="-").plural_form.tags) | {"other"}


def _number(value: Any) -> Decimal:
    """A count as CLDR reads it: ``2`` is an integer, ``"1.0"`` has a visible decimal."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise TypeError(f"a plural message needs a number for count, not {value!r}")
    return Decimal(str(value).lstrip("+"))


def detect_language(explicit: str | None = None) -> str:
    """``explicit`` if given, else the locale's language if we have it, else English."""
    if explicit:
        if explicit not in LANGUAGES:
            raise ValueError(f"unknown language {explicit!r}: choose {', '.join(LANGUAGES)}")
        return explicit
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            code = value.split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    code = (locale.getlocale()[0] or "en").split("_")[0].lower()
    return code if code in LANGUAGES else "en"


class Catalog:
    """Messages of one language, with English as the fallback for a missing key."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self._messages = messages(self.lang)
        self._fallback = messages("en")

    def has(self, key: str) -> bool:
        """Whether the catalog knows ``key``."""
        return key in self._fallback

    def plural(self, count: Any) -> str:
        """The CLDR plural category of ``count`` in this language (``one``, ``other``...)."""
        return _rule(self.lang)(_number(count))

    def decimal(self, value: float, signed: bool = False) -> str:
        """``value`` with one decimal, written the language's way (``+2,2`` in German)."""
        from babel.numbers import format_decimal

        pattern = "+0.0;-0.0" if signed else "0.0"
        return str(format_decimal(round(value, 1), format=pattern,
                                  locale=locale_tag(self.lang).replace("-", "_")))

    def t(self, key: str, **values: Any) -> str:
        """The message ``key`` filled with ``values``; a plural entry picks its form by
        ``count``."""
        entry = self._messages.get(key) or self._fallback[key]
        if isinstance(entry, dict):
            if "count" not in values:
                raise KeyError(f"{key} is a plural message: give it a count")
            entry = entry.get(self.plural(values["count"])) or entry["other"]
        return entry.format(**values)
