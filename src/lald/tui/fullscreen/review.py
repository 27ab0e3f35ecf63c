"""The expert's review of one's own play, after a deal's settlement (``r``).

:class:`ReviewScreen` runs :func:`lald.coach.review.review_deal` in a Textual thread worker,
with a progress bar fed by the review's progress callback, then shows
:func:`lald.coach.words.review_lines` in a scrolling view.  Esc or ``q`` goes back
(and stops a review still running: the callback ends the worker at the next decision).
A finished review is kept by the app, so opening it again is instant.  In a hot-seat
game, :class:`SeatChoiceScreen` asks whose play: each person reviews their own seat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, ProgressBar, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, get_current_worker

from ...coach.review import Review, review_deal
from ...coach.words import review_lines
from ...core import State
from ...i18n import Catalog
from .screens import Closing, KeyBar
from .widgets import IndentedLinesView


class _Stopped(Exception):
    """The person left the review before it was done."""


class ReviewScreen(Closing, Screen[Review | None]):
    """One seat's review of a finished deal: a progress bar while the expert weighs every
    choice, then the review's lines.  Dismissed with the review (None if it was left
    before it was done), for the app to keep."""

    BINDINGS = [Binding("escape", "back", show=False), Binding("q", "back", show=False),
                Binding("question_mark", "app.help", show=False)]

    def __init__(self, deal: State, seat: int, names: Sequence[str], catalog: Catalog,
                 worlds: int, done: Review | None = None) -> None:
        super().__init__(id="review")
        self.deal, self.seat, self.names, self.catalog = deal, seat, list(names), catalog
        self.worlds = worlds
        self.review = done
        self.lines: list[str] = []
        self.error: str | None = None
        self._worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        """Title, the working line and bar, the review, the keys."""
        t = self.catalog.t
        yield Static(Text(t("review_screen_title", name=self.names[self.seat]), style="bold"),
                     id="review-title")
        with Vertical(id="review-working"):
            yield Static(Text(t("review_working")), id="review-working-line")
            yield ProgressBar(total=None, show_eta=False, id="review-bar")
            yield Static(id="review-count")
        with VerticalScroll(id="review-body"):
            yield IndentedLinesView(id="review-lines")
        yield KeyBar(Text(t("keys_review_working")), classes="keys", id="review-keys")

    def on_mount(self) -> None:
        """Show a review already made, or start making it."""
        if self.review is not None:
            self._show(self.review)
        else:
            self.query_one("#review-body").display = False
            self._worker = self.run_worker(self._work, thread=True, exit_on_error=False,
                                           name="review", group="review")

    def _work(self) -> None:
        """In the worker thread: the review, reporting each decision weighed."""
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Stopped
            self._call(self._progress, done, total)

        try:
            review = review_deal(self.deal, self.seat, worlds=self.worlds, progress=progress)
        except _Stopped:
            return
        except ValueError as e:
            self._call(self._failed, str(e))
            return
        if not worker.is_cancelled:
            self._call(self._show, review)

    def _call(self, callback: Callable[..., None], *args: object) -> None:
        """Run ``callback`` on the app's thread, unless the app has gone."""
        try:
            self.app.call_from_thread(callback, *args)
        except RuntimeError:
            raise _Stopped from None

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#review-bar", ProgressBar).update(total=max(total, 1), progress=done)
        self.query_one("#review-count", Static).update(
            Text(self.catalog.t("review_progress", done=done, total=total)))

    def _failed(self, reason: str) -> None:
        self.error = self.catalog.t("review_failed", reason=reason)
        self.query_one("#review-working-line", Static).update(Text(self.error))
        self.query_one("#review-bar").display = False

    def _show(self, review: Review) -> None:
        """The review's lines, scrolled to the top."""
        self.review = review
        self.lines = review_lines(review, self.catalog, self.names)
        self.query_one("#review-working").display = False
        body = self.query_one("#review-body", VerticalScroll)
        body.display = True
        self.query_one("#review-lines", IndentedLinesView).show(self.lines)
        self.query_one("#review-keys", KeyBar).update(Text(self.catalog.t("keys_review")))
        body.scroll_home(animate=False)
        body.focus()

    @property
    def done(self) -> bool:
        """Whether the review is on screen."""
        return bool(self.lines)

    def action_back(self) -> None:
        """Back to the settlement; a review still running stops."""
        if self._worker is not None and not self.done:
            self._worker.cancel()
        self.close(self.review)


class SeatChoiceScreen(Closing, ModalScreen[int | None]):
    """Whose play to review, when several people play at the table."""

    BINDINGS = [Binding("escape", "back", show=False), Binding("q", "back", show=False),
                *(Binding(str(i), f"pick({i - 1})", show=False) for i in range(1, 10))]

    def __init__(self, seats: Sequence[int], names: Sequence[str], catalog: Catalog) -> None:
        super().__init__(id="review-seat")
        self.seats, self.names, self.catalog = list(seats), list(names), catalog

    def compose(self) -> ComposeResult:
        """The question and one line per person."""
        with Vertical(classes="dialog"):
            yield Static(Text(self.catalog.t("review_whose")), classes="dialog-title")
            yield OptionList(*(Option(f"{i}. {self.names[s]}", id=f"seat-{s}")
                               for i, s in enumerate(self.seats, start=1)), id="choice-list")
            yield Static(Text(self.catalog.t("keys_whose", count=len(self.seats))), classes="dialog-keys")

    def on_mount(self) -> None:
        """Focus the list."""
        self.query_one("#choice-list", OptionList).focus()

    @on(OptionList.OptionSelected, "#choice-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.close(self.seats[event.option_index])

    def action_pick(self, index: int) -> None:
        """Choose line ``index`` by its digit."""
        if 0 <= index < len(self.seats):
            self.close(self.seats[index])

    def action_back(self) -> None:
        """No review."""
        self.close(None)
