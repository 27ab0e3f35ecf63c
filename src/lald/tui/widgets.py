"""The table's widgets: each draws a piece of an engine view, nothing more."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..core import Card
from ..i18n import Catalog
from .words import SeatRow, rank_groups

_RED = {1, 2}  # hearts, diamonds


def card_text(card: Card) -> Text:
    """One card, red or black."""
    return Text(card.glyph, style="bold red" if card.suit in _RED else "bold")


def groups_rich(cards: Iterable[Card], mark_sets: bool) -> Text:
    """Cards grouped by rank; with ``mark_sets`` pairs, prials and mournivals stand out."""
    out = Text()
    for i, group in enumerate(rank_groups(cards)):
        if i:
            out.append("   ")
        boxed = mark_sets and len(group) > 1
        if boxed:
            out.append("[", style="dim")
        for j, card in enumerate(group):
            if j:
                out.append(" ")
            piece = card_text(card)
            if boxed:
                piece.stylize("on grey23")
            out.append_text(piece)
        if boxed:
            out.append("]", style="dim")
    return out


class CardsView(Static):
    """A row of cards grouped by rank (the table, or a hand)."""

    def show(self, cards: Sequence[Card], empty: str, mark_sets: bool = False) -> None:
        """Draw ``cards`` (``empty`` when there are none)."""
        self.cards = tuple(cards)
        self.update(groups_rich(cards, mark_sets) if cards else Text(empty, style="dim"))


class SeatsView(Static):
    """Every seat: marks, name, hand and won-pile sizes, status, balance; the seat to move
    highlighted."""

    def show(self, rows: Sequence[SeatRow], catalog: Catalog) -> None:
        """Draw the rows."""
        t = catalog.t
        table = Table(expand=True, box=None, pad_edge=False)
        for key in ("col_seat", "col_name", "col_marks", "col_hand", "col_won", "col_status",
                    "col_balance"):
            table.add_column(t(key), no_wrap=True)
        for r in rows:
            style = "bold reverse" if r.to_move else ""
            table.add_row(str(r.seat), r.name, r.marks, str(r.hand), str(r.won), r.status,
                          f"{r.balance:+d}", style=style)
        self.rows = tuple(rows)
        self.update(table)


class LogView(VerticalScroll):
    """What happened in the deal, in words, newest at the bottom."""

    def compose(self) -> ComposeResult:
        """One text body."""
        yield Static(id="log-body")

    def show(self, lines: Sequence[str]) -> None:
        """Draw the lines and scroll to the newest."""
        self.lines = tuple(lines)
        self.query_one("#log-body", Static).update(Text("\n".join(lines)))
        self.scroll_end(animate=False)


class LinesView(Static):
    """A few lines of text (the ledger, a status line)."""

    def show(self, lines: Sequence[str]) -> None:
        """Draw the lines."""
        self.lines = tuple(lines)
        self.update(Text("\n".join(lines)))
