"""The table's action menu (:class:`Menu`) and the key fence it keeps: a key typed before
the question it would answer was shown is not for it.

What the table needs of the app that shows it is the :class:`TableHost` protocol (the
key fence, booking a finished deal, saving). Keys are stamped by Textual (``event.time``);
the fence is set on the same clock, read through Textual's public API by
:func:`event_time`, or on a clock a test gives the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...i18n import Catalog
from ..words import Choice
from .widgets import Pieces, words_pieces

#: The most rows the choices take (lald.tcss's #menu), fewer where the screen is short.
MENU_ROWS = 12


def event_time() -> float:
    """Now, on the clock Textual stamps its events with: a new message's ``time``."""
    return Message().time


@runtime_checkable
class TableHost(Protocol):
    """What a :class:`~lald.tui.fullscreen.table.TableScreen` needs of the app that shows
    it (the table's app, :class:`lald.tui.fullscreen.app.TableApp`, is one)."""

    fence: float
    """Keys stamped before this moment are dropped (typed before the screen showed)."""

    def settle(self) -> None:
        """Book the finished deal and show its settlement and the ledger."""

    def save_game(self) -> str:
        """Save the session; a line saying where and how to resume (or why not)."""


class Menu(OptionList):
    """The action menu: a key typed before the current prompt was shown is not for it."""

    class LaidOut(Message):
        """The choices are laid out: their height is known, the screen may scroll them
        into view."""

    async def _on_key(self, event: events.Key) -> None:
        # Textual calls each class's handler in turn: preventing the default stops the
        # option list's own handling of a stale key.
        app = self.app
        if isinstance(app, TableHost) and event.time < app.fence:
            event.stop()
            event.prevent_default()

    def on_resize(self, event: events.Resize) -> None:
        """Tell the screen that the choices' height is known (:class:`LaidOut`)."""
        self.post_message(self.LaidOut())

    def show(self, menu: Sequence[Choice], catalog: Catalog, serial: int, best: int | None,
             lesson_index: int | None) -> None:
        """The choices, numbered by their keys, the lesson's move or the hint's marked;
        ``serial`` names the prompt they answer (a line's id), and the highlighted line
        stays where it was when it still exists."""
        highlighted = self.highlighted
        self.clear_options()
        options = []
        for i, choice in enumerate(menu, start=1):
            key = str(i) if i < 10 else ("0" if i == 10 else " ")
            label = words_pieces(Text(f"{key}. {choice.label}"))
            # the mark moves to the next line whole (seen at 80×24: "◀ the" / "lesson's move")
            if i - 1 == lesson_index:
                label.append(("  ", Text("◀ " + catalog.t("lesson_mark"), style="bold")))
            elif i - 1 == best:
                label.append(("  ", Text("◀ " + catalog.t("hint_mark"), style="bold")))
            options.append(Option(Pieces(label), id=f"p{serial}-{i}"))
        self.add_options(options)
        self.highlighted = highlighted if highlighted is not None and highlighted < len(options) else 0
