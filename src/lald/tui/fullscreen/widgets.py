"""The table's widgets: each draws a piece of an engine view, nothing more."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...core import Card
from ...i18n import Catalog
from ..words import Ledger, SeatRow, rank_groups

_RED = {1, 2}  # hearts, diamonds


def card_text(card: Card) -> Text:
    """One card, red or black."""
    return Text(card.glyph, style="bold red" if card.suit in _RED else "bold")


class Pieces:
    """Pieces of text laid out in lines as wide as they are given, a line broken only
    between two pieces, never inside one (a piece wider than the line is folded): a
    group of cards, or a short phrase such as "◀ the lesson's move", moves to the next
    line whole. Each piece comes with the separator put before it on the same line.

    >>> from rich.console import Console
    >>> console = Console(width=12)
    >>> with console.capture() as shown:
    ...     console.print(Pieces([("", Text("a b c")), (" ", Text("(2 left)"))]))
    >>> shown.get().splitlines()
    ['a b c', '(2 left)']
    """

    def __init__(self, pieces: Sequence[tuple[str, Text]]) -> None:
        self.pieces = tuple(pieces)

    @property
    def plain(self) -> str:
        """The text on one line."""
        return "".join(sep + piece.plain for sep, piece in self.pieces)

    def __str__(self) -> str:
        return self.plain

    def lines(self, width: int) -> Text:
        """The pieces in lines of at most ``width`` cells (but for a piece wider)."""
        out = Text()
        used = 0
        for sep, piece in self.pieces:
            size = piece.cell_len
            if used and used + cell_len(sep) + size > width:
                out.append("\n")
                used = 0
            if used:
                out.append(sep)
                used += cell_len(sep)
            out.append_text(piece)
            used += size
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.lines(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((piece.cell_len for _, piece in self.pieces), default=0)
        return Measurement(widest, cell_len(self.plain)).clamp(max_width=options.max_width)


def words_pieces(text: Text, sep: str = " ") -> list[tuple[str, Text]]:
    """``text`` as pieces that break between its words, as text does."""
    out: list[tuple[str, Text]] = []
    start = 0
    for word in text.plain.split(" "):
        if word:
            out.append((sep if out else "", text[start:start + len(word)]))
        start += len(word) + 1
    return out


def group_pieces(cards: Iterable[Card], mark_sets: bool) -> list[Text]:
    """Cards grouped by rank, one piece a rank (never broken across lines); with
    ``mark_sets`` pairs, prials and mournivals stand out."""
    out = []
    for group in rank_groups(cards):
        piece = Text()
        boxed = mark_sets and len(group) > 1
        if boxed:
            piece.append("[", style="dim")
        for j, card in enumerate(group):
            if j:
                piece.append(" ")
            face = card_text(card)
            if boxed:
                face.stylize("on grey23")
            piece.append_text(face)
        if boxed:
            piece.append("]", style="dim")
        out.append(piece)
    return out


class CardsView(Static):
    """A row of cards grouped by rank (the table, or a hand); in the compact layout, where
    panels have no frame to carry their title, the ``label`` leads the line."""

    def show(self, cards: Sequence[Card], empty: str, mark_sets: bool = False, label: str = "") -> None:
        """Draw ``cards`` (``empty`` when there are none)."""
        self.cards = tuple(cards)
        pieces = ([("   ", g) for g in group_pieces(cards, mark_sets)] if cards
                  else words_pieces(Text(empty, style="dim")))
        if label and self.screen.has_class("compact"):
            pieces = [("", Text(label + ":", style="bold")), (" ", pieces[0][1]), *pieces[1:]]
        self.update(Pieces(pieces))


class SeatsTable:
    """The seats as a table in the width it is given: a column of roles (dealer, eldest)
    where it fits; where it does not (80 columns, in some languages 100), a seat still
    playing says its role in the status column instead, so the roles are said at every
    size (seen before: only from 100 columns and 34 rows)."""

    def __init__(self, rows: Sequence[SeatRow], catalog: Catalog) -> None:
        self.rows, self.catalog = tuple(rows), catalog

    def table(self, roles: bool, gap: int, expand: bool = True) -> Table:
        """The table, with a column of roles or with the roles in the status column, its
        columns ``gap`` apart at least."""
        t = self.catalog.t
        table = Table(expand=expand, box=None, pad_edge=False, padding=(0, gap, 0, 0))
        keys = ["col_name", "col_marks", "col_hand", "col_won", "col_status", "col_balance"]
        if not roles:
            keys.remove("col_marks")
        for key in keys:
            table.add_column(t(key), no_wrap=True, justify="right" if key in (
                "col_hand", "col_won", "col_balance") else "left")
        for r in self.rows:
            style = "bold reverse" if r.to_move else ""
            status = r.status if roles or not r.playing or not r.marks else r.marks
            cells = [r.name, r.marks, str(r.hand), str(r.won), status, f"{r.balance:+d}"]
            if not roles:
                del cells[1]
            table.add_row(*cells, style=style)
        return table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        wide = options.update(width=10_000)
        for roles, gap in ((True, 2), (True, 1), (False, 2)):
            whole = Measurement.get(console, wide, self.table(roles, gap, expand=False))
            if whole.maximum <= options.max_width:
                yield self.table(roles, gap)
                return
        yield self.table(False, 1)


class SeatsView(Static):
    """Every seat: marks, name, hand and won-pile sizes, status, balance; the seat to move
    highlighted (:class:`SeatsTable`)."""

    def show(self, rows: Sequence[SeatRow], catalog: Catalog) -> None:
        """Draw the rows."""
        self.rows = tuple(rows)
        self.update(SeatsTable(rows, catalog))


#: Columns between two of the ledger's columns.
LEDGER_GAP = 2


class FittedLedger:
    """The ledger drawn in the width it is given: the names and the totals whole, then as
    many of the most recent deals as fit, whole, and a line saying how many earlier deals
    are left out (seen before: at 80×24 every cell was cut to "…" from the fifth deal on).
    Only when even the totals do not fit are the names cut."""

    def __init__(self, ledger: Ledger, catalog: Catalog) -> None:
        self.ledger, self.catalog = ledger, catalog

    def _widths(self) -> list[int]:
        ledger = self.ledger
        body = [ledger.header, *ledger.rows] + ([ledger.pot] if ledger.pot is not None else [])
        return [max(cell_len(row[i]) for row in body) for i in range(len(ledger.header))]

    def fit(self, width: int) -> int:
        """How many of the most recent deals fit in ``width`` columns."""
        widths = self._widths()
        deals = self.ledger.deals
        used = widths[0] + sum(w + LEDGER_GAP for w in widths[1 + deals:])
        shown = 0
        for w in reversed(widths[1:1 + deals]):
            if used + w + LEDGER_GAP > width:
                break
            used += w + LEDGER_GAP
            shown += 1
        return shown

    def table(self, width: int) -> tuple[Table, int]:
        """The table that fits ``width``, and how many deals it leaves out."""
        shown = self.fit(width)
        ledger = self.ledger.recent(shown)
        widths = self._widths()
        widths = [widths[0], *widths[1 + self.ledger.deals - shown:]]
        rest = sum(w + LEDGER_GAP for w in widths[1:])
        table = Table(expand=False, box=None, pad_edge=False, padding=(0, 1), show_edge=False)
        for i, (head, w) in enumerate(zip(ledger.header, widths, strict=True)):
            if i == 0:  # the names give way only when the totals alone do not fit
                table.add_column(head, no_wrap=True, overflow="ellipsis",
                                 width=max(1, min(w, width - rest)))
            else:
                table.add_column(head, no_wrap=True, justify="right", min_width=w)
        for row in ledger.rows:
            table.add_row(*row)
        if ledger.pot is not None:
            table.add_row(*ledger.pot, style="dim")
        return table, self.ledger.deals - shown

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table, hidden = self.table(options.max_width)
        yield table
        if hidden:
            yield Text(self.catalog.t("ledger_hidden", count=hidden), style="dim italic")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = self._widths()
        whole = sum(widths) + LEDGER_GAP * (len(widths) - 1)
        least = widths[0] + sum(w + LEDGER_GAP for w in widths[1 + self.ledger.deals:])
        return Measurement(min(least, whole), whole).clamp(max_width=options.max_width)


class LedgerView(Static):
    """The running ledger: one row per seat, one column per deal, then the totals; where
    the deals do not all fit, the most recent ones (:class:`FittedLedger`)."""

    def show(self, ledger: Ledger, catalog: Catalog) -> None:
        """Draw the ledger."""
        self.ledger = ledger
        self.lines = tuple("  ".join(row) for row in ledger.rows)
        self.update(FittedLedger(ledger, catalog))


class LogView(VerticalScroll):
    """What happened in the deal, in words, newest at the bottom."""

    def compose(self) -> ComposeResult:
        """One text body."""
        yield Static(id="log-body")

    def show(self, lines: Sequence[str]) -> None:
        """Draw the lines and scroll to the newest."""
        self.lines = tuple(lines)
        self.query_one("#log-body", Static).update(Text("\n".join(lines)))
        self.call_after_refresh(self.scroll_end, animate=False)  # once the new height is known

    def on_resize(self, event: events.Resize) -> None:
        """The newest line kept in view when the log grows shorter (a line above it wraps)."""
        self.call_after_refresh(self.scroll_end, animate=False)


class LinesView(Static):
    """A few lines of text (the ledger, a status line)."""

    lines: tuple[str, ...] = ()

    def show(self, lines: Sequence[str]) -> None:
        """Draw the lines."""
        self.lines = tuple(lines)
        self.update(Text("\n".join(lines)))

    def on_resize(self, event: events.Resize) -> None:
        """Drawn again at a new width, once laid out: Textual keeps the height a text was
        first measured at, so a long line shown during a change of layout (a narrow
        terminal's hint, the status line at 60 columns) stayed cut to one line."""
        if self.lines:
            self.call_after_refresh(self._redraw)

    def _redraw(self) -> None:
        # the lines as they are then: others may have been shown since the resize (taken at
        # the resize, a status line went back to the seat that moved before)
        self.update(Text("\n".join(self.lines)))


class LessonView(VerticalScroll):
    """The lesson's panel: what the latest moment explained, the learner's move now, and
    why a choice was refused. Where they do not all fit (a small terminal), a refusal is
    the line kept in view."""

    def compose(self) -> ComposeResult:
        """One text body."""
        yield Static(id="lesson-body")

    def show(self, told: Sequence[str], do: str | None = None, refused: str | None = None) -> None:
        """Draw the notes: explanations, then the move (bold), then a refusal (bold, in
        the warning colour)."""
        self.told, self.do, self.refused = tuple(told), do, refused
        body = Text("\n".join(told))
        for line, style in ((do, "bold"), (refused, "bold yellow")):
            if line:
                if body:
                    body.append("\n")
                body.append(line, style=style)
        self.query_one("#lesson-body", Static).update(body)
        # (once laid out: the body's new height is not known before)
        self.call_after_refresh(self.scroll_end if refused else self.scroll_home, animate=False)


class IndentedLinesView(Static):
    """Lines of text whose leading spaces are an indent that wrapped lines keep (the
    review's choices and reasons under each decision)."""

    def show(self, lines: Sequence[str]) -> None:
        """Draw the lines."""
        self.lines = tuple(lines)
        self.update(Group(*(Padding(Text(line.lstrip()), (0, 0, 0, len(line) - len(line.lstrip())))
                            for line in lines)))


class TooSmall(Static):
    """Over the whole screen, where the terminal is smaller than the table needs: says
    so, and the size it needs (:meth:`lald.tui.fullscreen.app.TableApp.fit_size`)."""
