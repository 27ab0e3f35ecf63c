"""One message catalog for every screen: the terminal and the web client share it.

Catalogs are JSON files beside this module, one per language (``en``, ``de``, ``pt``,
``es``), each mapping the same keys to ``str.format`` templates.

>>> Catalog("en").t("plays_takes", name="Anne", play="Q♠", take="Q♥ Q♦ Q♣")
'Anne plays Q♠ and takes Q♥ Q♦ Q♣.'
"""

from __future__ import annotations

import json
import locale
import os
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("en", "de", "pt", "es")


@cache
def messages(lang: str) -> dict[str, str]:
    """The whole catalog of ``lang`` (English for an unknown language)."""
    if lang not in LANGUAGES:
        lang = "en"
    text = resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(text)
    return data


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

    def t(self, key: str, **values: Any) -> str:
        """The message ``key`` filled with ``values``."""
        template = self._messages.get(key) or self._fallback[key]
        return template.format(**values)
