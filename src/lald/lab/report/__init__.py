"""The readings report, for a reader who is not a programmer: what each reading is, the
tables, the plots (matplotlib, each with one sentence of what it shows), in a
self-contained HTML page and in Markdown beside its plots.

- :mod:`.blocks`: the document, built once as blocks from a summary;
- :mod:`.plots`: its figures (matplotlib, imported when a report is drawn);
- :mod:`.page`: the blocks written as HTML and as Markdown.
"""

from __future__ import annotations

from .blocks import build, cell, p_text, players
from .page import machine, slug, to_html, to_markdown, write_report

__all__ = ["build", "cell", "machine", "p_text", "players", "slug", "to_html", "to_markdown", "write_report"]
