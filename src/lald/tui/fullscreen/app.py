"""The terminal card table's app: :class:`TableApp`, the Textual app of ``lald play``.

It holds the :class:`~lald.tui.game.Game` and opens the screens in turn: setup, the
:class:`~lald.tui.fullscreen.table.TableScreen` (which draws the deal and drives the turn loop),
each deal's settlement, the expert's review, help; it saves and exports the session.

Keys typed faster than the screens change are dropped, not sent to a screen they were
not typed at: :meth:`TableApp.on_event` ignores a key stamped before the active screen
was shown (and, after a hot-seat hand-over, for :data:`~lald.tui.fullscreen.table.HANDOVER_QUIET`
seconds more), every screen acts only while it is the active one, and a dialog closes once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events
from textual.app import App
from textual.binding import Binding

from ...coach.review import DEFAULT_WORLDS, Review
from ...i18n import Catalog
from ...narrate import explain_settlement
from ..game import Game, TableSettings
from ..lesson import NEXT, LessonGame
from ..store import SaveError, Store
from ..words import ledger, note_text, outcome_lines
from .menu import TableHost, event_time
from .review import ReviewScreen, SeatChoiceScreen
from .screens import HelpScreen, SettlementScreen, SetupScreen
from .table import TableScreen
from .widgets import TooSmall

#: The smallest terminal the table takes (columns, rows): below it, the screen says so.
MIN_SIZE = (50, 15)


class TableApp(App[str]):
    """``lald play``: setup, then the table, settlements between deals, to the final ledger.

    The app's return value is what the command prints when the table closes: where the
    session was saved and how to resume it, or the session's outcome.

    Given a :class:`~lald.tui.lesson.LessonGame` (``lald play --learn``, or "Learn to
    play" on the setup screen), the app plays the lesson, never saved, and then offers
    ``after_lesson``, a normal session, with hints on.  After each deal's settlement the
    people at the table may open the expert's review of their play, ``review_worlds``
    sampled deals per decision.  ``clock`` tells the time on the clock keys are stamped with
    (Textual's, unless a test gives its own): the key fence is set on it.
    """

    CSS_PATH = "lald.tcss"
    BINDINGS = [Binding("ctrl+q", "save_quit", show=False),
                Binding("ctrl+c", "save_quit", show=False, priority=True)]

    def __init__(self, game: Game, catalog: Catalog, store: Store, *, pace: float = 0.8,
                 claim_window: float = 5.0, setup: bool = True, export: bool = False,
                 hints: bool = False, after_lesson: Game | None = None,
                 review_worlds: int = DEFAULT_WORLDS, clock: Callable[[], float] = event_time) -> None:
        super().__init__()
        self.clock = clock
        """Now, on the clock the keys are stamped with: the table's key fence reads it."""
        self.game, self.catalog, self.store = game, catalog, store
        self.pace, self.claim_window, self.setup, self.export = pace, claim_window, setup, export
        self.hints, self.after_lesson, self.review_worlds = hints, after_lesson, review_worlds
        self.reviews: dict[tuple[int, int], Review] = {}
        """Reviews made, by deal number and seat (the same deal always gives the same)."""
        self.title = catalog.t("game_title")
        self.fence = 0.0
        """Keys stamped before this moment are dropped (typed before the screen showed)."""
        self.started = not setup
        self.too_small = False
        """The terminal is smaller than :data:`MIN_SIZE`: the screen says so, keys wait."""

    async def _on_key(self, event: events.Key) -> None:
        # a key comes back here for the bindings after its widget: drop it if it was typed
        # before the screen or prompt it would act on was shown (preventing the default
        # stops Textual's own handler, which runs after this one)
        if event.time < self.fence:
            event.prevent_default()

    async def on_event(self, event: events.Event) -> None:
        """Drop keys typed before the active screen was shown, and while the terminal is
        too small to show it (but q, which saves and quits, and Ctrl+C)."""
        if isinstance(event, events.Key) and event.time < self.fence:
            return
        if isinstance(event, events.Key) and self.too_small and event.key not in ("ctrl+c", "ctrl+q"):
            if event.key == "q":
                self.action_save_quit()
            return
        if isinstance(event, events.ScreenResume):
            self.fence = max(self.fence, event.time)
        await super().on_event(event)

    def on_resize(self, event: events.Resize) -> None:
        """Say so when the terminal is too small for the table (:meth:`fit_size`)."""
        self.fit_size(event.size.width, event.size.height)

    def fit_size(self, width: int, height: int) -> None:
        """Below :data:`MIN_SIZE` the screen shows, over everything, that the terminal is
        too small and what it needs (seen before: under about 50×15 the choices vanished
        and nothing said why); at a size that fits, the screen is as it was."""
        columns, rows = MIN_SIZE
        self.too_small = width < columns or height < rows
        self.set_class(self.too_small, "-too-small")  # (the key bars hide: their keys wait)
        for screen in self.screen_stack:
            if not self.too_small or screen is not self.screen:
                screen.query(TooSmall).remove()
        if self.too_small:
            said = self.catalog.t("too_small", columns=columns, rows=rows, width=width, height=height)
            shown = self.screen.query(TooSmall)
            if shown:
                shown.first().update(said)
            else:
                self.screen.mount(TooSmall(said))

    def _screen_changed(self, screen: object) -> None:
        self.fit_size(self.size.width, self.size.height)

    def on_mount(self) -> None:
        """Setup first, unless the flags said to start at once."""
        self.screen_change_signal.subscribe(self, self._screen_changed)
        if self.setup:
            self.push_screen(SetupScreen(self.game, self.catalog), self._set_up)
        else:
            self._open_table()

    def _set_up(self, game: Game | None) -> None:
        if isinstance(game, LessonGame):
            self.after_lesson = self.after_lesson or self.game
        if game is not None:
            self.game = game
        self.started = True
        self._open_table()

    @property
    def teaching(self) -> bool:
        """Whether the lesson is being played."""
        return isinstance(self.game, LessonGame)

    def _table(self) -> TableScreen:
        # the lesson waits for every claim: its script needs the learner's answer
        window = 0.0 if self.teaching else self.claim_window
        return TableScreen(self.game, self.catalog, self.pace, window,
                           hints=self.hints and not self.teaching, clock=self.clock)

    def _open_table(self) -> None:
        self.table = self._table()
        self.push_screen(self.table)

    def settle(self) -> None:
        """Book the finished deal and show its settlement and the ledger."""
        game, catalog = self.game, self.catalog
        status: list[str] = []
        result = game.finish_deal()
        deal = game.last_deal
        assert deal is not None
        lines = explain_settlement(game.rules, result, deal.dealer, game.names,
                                   game.session.balances, catalog)
        if isinstance(game, LessonGame):
            # the lesson is no session: nothing saved or exported, and no ledger
            notes = game.lesson.notes(deal)
            words = [note_text(n, deal, game.names, catalog) for n in notes]
            after = [w for n, w in zip(notes, words, strict=True) if n.key == NEXT]
            told = [w for n, w in zip(notes, words, strict=True) if n.key != NEXT]
            self.push_screen(SettlementScreen(lines, ledger(game, catalog), (), catalog, True,
                                              lesson=told, after=after), self._lesson_done)
            return
        try:
            if self.export:
                status.append(catalog.t("exported_to", path=str(self.store.export(game, deal))))
            if game.session.over:
                status.append(catalog.t("session_closed", path=str(self.store.close(game))))
            else:
                self._save(game)
        except SaveError as e:
            status.append(catalog.t("save_failed", reason=e.words(catalog)))
        screen = SettlementScreen(lines, ledger(game, catalog), outcome_lines(game, catalog),
                                  catalog, game.session.over, status, review=bool(game.humans))
        self.push_screen(screen, self._settled)

    def _lesson_done(self, _: None) -> None:
        """After the lesson's settlement: a normal session, with hints on."""
        game = self.after_lesson
        assert game is not None
        self.game, self.after_lesson, self.hints = game, None, True
        self.table = self._table()
        self.table.say(self.catalog.t("hints_on"), 8)
        self.switch_screen(self.table)

    def open_review(self) -> None:
        """The expert's review of a person's play in the deal just settled (whose, asked
        when several people play)."""
        humans = self.game.humans
        if len(humans) == 1:
            self._review(humans[0])
        elif humans:
            self.push_screen(SeatChoiceScreen(humans, self.game.names, self.catalog),
                             lambda seat: None if seat is None else self._review(seat))

    def _review(self, seat: int) -> None:
        game = self.game
        deal = game.last_deal
        assert deal is not None and deal.over
        key = (game.session.deals.index(deal), seat)

        def keep(review: Review | None) -> None:
            if review is not None:
                self.reviews[key] = review

        self.push_screen(ReviewScreen(deal, seat, game.names, self.catalog, self.review_worlds,
                                      self.reviews.get(key)), keep)

    def _settled(self, _: None) -> None:
        if self.game.session.over:
            self.exit("\n".join(outcome_lines(self.game, self.catalog)))
            return
        self.game.start_deal()
        self.table.viewer = self.table._idle_viewer()
        self.table.revision += 1
        self.table.advance()

    def action_help(self) -> None:
        """The rules and the active options."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.game.rules, self.catalog, lesson=self.teaching))

    def save_game(self) -> str:
        """Save the session; a line saying where and how to resume (or why not: the
        lesson is never saved)."""
        if self.teaching:
            return self.catalog.t("lesson_not_saved")
        try:
            path = self._save(self.game)
        except SaveError as e:
            return self.catalog.t("save_failed", reason=e.words(self.catalog))
        return self.store.saved_words(path, self.catalog)

    def _save(self, game: Game) -> Path:
        """Save ``game`` with the table's language and hints, so that it resumes in them."""
        game.settings = TableSettings(self.catalog.lang, self.hints)
        return self.store.save(game)

    def action_save_quit(self) -> None:
        """Save and leave, saying where the session was saved and how to resume it (the
        lesson is left unsaved, saying how to start it again)."""
        if not self.started:
            self.exit("")
        elif self.teaching:
            self.exit(self.catalog.t("lesson_left"))
        elif self.game.session.over:
            self.exit("\n".join(outcome_lines(self.game, self.catalog)))
        else:
            self.exit(self.save_game())

    def export_last(self) -> str:
        """Write the last finished deal as a game record; a line saying where."""
        deal = self.game.last_deal
        assert deal is not None
        try:
            return self.catalog.t("exported_to", path=str(self.store.export(self.game, deal)))
        except SaveError as e:
            return self.catalog.t("save_failed", reason=e.words(self.catalog))


if TYPE_CHECKING:  # the table screen's needs of its app, checked against the app
    _HOST: type[TableHost] = TableApp
