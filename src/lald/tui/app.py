"""The terminal card table: a Textual app that plays a whole session.

:class:`TableApp` holds the :class:`~lald.tui.game.Game`; :class:`TableScreen` draws the
engine's view of the seat whose decision it is and drives the turn loop, one bot move
per ``pace`` seconds, stopping whenever a person is asked something.

Keys typed faster than the screens change are dropped, not sent to a screen they were
not typed at: :meth:`TableApp.on_event` ignores a key stamped before the active screen
was shown (and, after a hot-seat hand-over, for :data:`HANDOVER_QUIET` seconds more),
every screen acts only while it is the active one, and a dialog closes once.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from rich.text import Text
from textual import events, on
from textual._time import get_time  # the clock Textual stamps its events with
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..coach.lesson import Note
from ..coach.review import DEFAULT_WORLDS, Review
from ..core import Action, LaidDown, LieDown, Operation, State
from ..i18n import Catalog
from ..narrate import explain_settlement
from .game import Game, Prompt, PromptKind
from .hints import Hint, advise
from .lesson import DO, NEXT, WELCOME, LessonGame
from .review import ReviewScreen, SeatChoiceScreen
from .screens import (
    DIGITS,
    ConfirmScreen,
    HelpScreen,
    KeyBar,
    LessonIntroScreen,
    PassScreen,
    SettlementScreen,
    SetupScreen,
)
from .store import SaveError, Store
from .widgets import CardsView, LedgerView, LessonView, LinesView, LogView, SeatsView
from .words import (
    Choice,
    choices,
    cut_lines,
    ledger,
    lesson_menu,
    log_lines,
    note_text,
    outcome_lines,
    prompt_title,
    seat_rows,
    turn_line,
)

#: Seconds after a hot-seat hand-over during which keys are ignored (a double Enter).
HANDOVER_QUIET = 0.6

#: Seconds the end of a deal stays on the table when only bots play (people press Enter).
DEAL_END_PAUSE = 3.0

#: The most rows the choices take (lald.tcss's #menu), fewer where the screen is short.
MENU_ROWS = 12


class Menu(OptionList):
    """The action menu: a key typed before the current prompt was shown is not for it."""

    async def _on_key(self, event: events.Key) -> None:
        # Textual calls each class's handler in turn: preventing the default stops the
        # option list's own handling of a stale key.
        app = self.app
        if isinstance(app, TableApp) and event.time < app.fence:
            event.stop()
            event.prevent_default()


class TableScreen(Screen[None]):
    """The card table of one session."""

    BINDINGS = [
        *DIGITS,
        Binding("h", "hint", show=False),
        Binding("u", "undo", show=False),
        Binding("s", "save", show=False),
        Binding("enter,space", "settle", show=False),
        Binding("question_mark", "app.help", show=False),
        Binding("q", "app.save_quit", show=False),
    ]

    revision: reactive[int] = reactive(0, init=False)
    """Bumped after every change of the deal; :meth:`watch_revision` redraws."""

    def __init__(self, game: Game, catalog: Catalog, pace: float, claim_window: float,
                 hints: bool = False) -> None:
        super().__init__(classes="table-screen")
        self.game, self.catalog = game, catalog
        self.pace, self.claim_window = pace, claim_window
        self.hints = hints
        """Show the hint at every decision, unasked."""
        self.lesson = game if isinstance(game, LessonGame) else None
        self.told: list[str] = []
        """The lesson's explanations of the latest moment that had some, in words."""
        self.do: str | None = None
        """The lesson's move for the learner now, in words (None when it is not theirs)."""
        self.refused: str | None = None
        """The sentence of the learner's last refused choice, until the next move."""
        self.lesson_index: int | None = None
        """The menu line of the lesson's move."""
        self.waiting = False
        """Play stands still until Enter, for the learner to read the lesson's note."""
        self.prompt: Prompt | None = None
        self.menu: list[Choice] = []
        self.viewer: int | None = None
        self.hint: Hint | None = None
        self.deal_over = False
        self._last_human: int | None = None
        self._timer: Timer | None = None
        self._ticker: Timer | None = None
        self._deadline = 0.0
        self._asking = False  # a confirmation is open for the current prompt
        self._serial = 0  # which prompt the menu's lines belong to

    def compose(self) -> ComposeResult:
        """Seats, table, hand and choices on the left; log and ledger on the right; in the
        lesson, its notes above them."""
        yield LinesView(id="status")
        if self.lesson is not None:
            yield LessonView(id="lesson")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield SeatsView(id="seats", classes="panel")
                yield CardsView(id="table", classes="panel")
                yield CardsView(id="hand", classes="panel")
                yield Static(id="prompt-title")
                yield Menu(id="menu")
                yield LinesView(id="hint")
            with Vertical(id="right"):
                yield LogView(id="log", classes="panel")
                yield LedgerView(id="ledger", classes="panel")
        yield KeyBar(Text(self.catalog.t(self._keys())), id="table-keys", classes="keys")

    def _keys(self) -> str:
        """The key bar's message for what the keys do now: at the end of a deal and while
        the lesson waits, Enter goes on and no choice is open; with several people at the
        keyboard there is no undo."""
        if self.lesson is not None:
            return "keys_lesson_wait" if self.waiting or self.deal_over else "keys_lesson"
        if self.deal_over:
            return "keys_deal_over"
        return "keys_table" if len(self.game.humans) <= 1 else "keys_table_hotseat"

    def _show_keys(self) -> None:
        self.query_one("#table-keys", KeyBar).update(Text(self.catalog.t(self._keys())))

    def on_mount(self) -> None:
        """Titles, then deal (or continue a resumed deal) and play."""
        t = self.catalog.t
        if self.lesson is not None:
            self.add_class("teaching")
            self.query_one("#lesson").border_title = t("lesson_title")
        self.query_one("#seats").border_title = t("seats_title")
        self.query_one("#table").border_title = t("table_title")
        self.query_one("#log").border_title = t("log_title")
        self.query_one("#ledger").border_title = t("ledger_title")
        if self.game.state is None and not self.game.session.over:
            self.game.start_deal()
        self.viewer = self._idle_viewer()
        self.redraw()
        self.call_after_refresh(self.advance)

    def on_resize(self, event: events.Resize) -> None:
        """Small terminals (80×24) get the compact layout: no frames around the cards;
        narrow ones (under 72 columns) the log under the table instead of beside it."""
        compact = event.size.height < 34 or event.size.width < 100
        narrow = event.size.width < 72
        if compact != self.has_class("compact") or narrow != self.has_class("narrow"):
            self.set_class(compact, "compact")
            self.set_class(narrow, "narrow")
            self.redraw()
        self.call_after_refresh(self._fit_menu)

    # -- drawing ------------------------------------------------------------------------

    def _show_hint(self, lines: Sequence[str]) -> None:
        """The line under the choices (a hint, a key's answer), the choices fitted above it."""
        self.query_one("#hint", LinesView).show(lines)
        self.call_after_refresh(self._fit_menu)

    def _fit_menu(self) -> None:
        """Where the left column does not scroll, the choices give up rows (and scroll
        themselves) so that the line under them stays on the screen: at 80×24 with 13
        cards in hand, ten choices pushed a hint's last line off it."""
        menu = self.query_one("#menu", Menu)
        if self.has_class("narrow"):  # the column scrolls
            menu.styles.max_height = MENU_ROWS
            return
        left = self.query_one("#left")
        taken = sum(w.outer_size.height for w in left.children if w is not menu and w.display)
        menu.styles.max_height = max(3, min(MENU_ROWS, left.content_size.height - taken))

    def _idle_viewer(self) -> int | None:
        humans = self.game.humans
        return humans[0] if len(humans) == 1 else None

    def watch_revision(self) -> None:
        """The deal changed: redraw."""
        self.redraw()

    def current(self) -> State | None:
        """The deal on the table (the last one, once it is over)."""
        return self.game.state or self.game.last_deal

    def redraw(self) -> None:
        """Draw everything from the engine's view of the seat whose decision it is."""
        state = self.current()
        if state is None:
            return
        game, catalog, t = self.game, self.catalog, self.catalog.t
        view = state.view(self.viewer)
        number = game.session.deal_number
        self.query_one("#status", LinesView).show([turn_line(
            view, game.names, catalog, number, len(game.session.schedule))])
        self.query_one("#seats", SeatsView).show(seat_rows(view, game.names, catalog), catalog)
        self.query_one("#table", CardsView).show(view.table, t("empty"), label=t("table_title"))
        hand = self.query_one("#hand", CardsView)
        if self.viewer is None:
            hand.border_title = t("hand_hidden")
            hand.show((), t("hand_hidden_text"), label=t("hand_hidden"))
        else:
            hand.border_title = t("hand_title", name=game.names[self.viewer])
            hand.show(view.hand, t("empty"), mark_sets=True,
                      label=t("hand_title", name=game.names[self.viewer]))
        lines = log_lines(view, game.names, catalog, number)
        if number == 1:
            lines = cut_lines(game, catalog) + lines
        self.query_one("#log", LogView).show(lines)
        self.query_one("#ledger", LedgerView).show(ledger(game, catalog))

    def _title(self) -> Text:
        prompt = self.prompt
        assert prompt is not None
        title = prompt_title(prompt, self.game.names, self.catalog)
        if self._ticker is not None:
            left = max(0, math.ceil(self._deadline - get_time()))
            title += " " + self.catalog.t("claim_seconds_left", count=left)
        return Text(title, style="bold")

    def _show_menu(self) -> None:
        menu = self.query_one("#menu", OptionList)
        highlighted = menu.highlighted
        best = self.hint.index if self.hint is not None else None
        menu.clear_options()
        options = []
        for i, choice in enumerate(self.menu, start=1):
            key = str(i) if i < 10 else ("0" if i == 10 else " ")
            label = Text(f"{key}. {choice.label}")
            if i - 1 == self.lesson_index:
                label.append("  ◀ " + self.catalog.t("lesson_mark"), style="bold")
            elif i - 1 == best:
                label.append("  ◀ " + self.catalog.t("hint_mark"), style="bold")
            options.append(Option(label, id=f"p{self._serial}-{i}"))
        menu.add_options(options)
        menu.highlighted = highlighted if highlighted is not None and highlighted < len(options) else 0

    def _show_prompt(self, prompt: Prompt) -> None:
        state = self.game.state
        assert state is not None
        self.prompt = prompt
        self.hint = None
        self._asking = False
        self._serial += 1
        app: TableApp = self.app  # type: ignore[assignment]
        app.fence = max(app.fence, get_time())
        self.viewer = self._last_human = prompt.seat
        self.menu = choices(prompt, state, self.catalog)
        if self.lesson is not None:
            self.menu, self.lesson_index = lesson_menu(self.menu, self.lesson.expected(), state)
        self.redraw()
        if prompt.kind is PromptKind.CLAIM and self.claim_window > 0:
            self._deadline = get_time() + self.claim_window
            self._timer = self.set_timer(self.claim_window, self._claim_window_closed)
            self._ticker = self.set_interval(0.25, self._tick)
        self.query_one("#prompt-title", Static).update(self._title())
        menu = self.query_one("#menu", OptionList)
        menu.disabled = False
        menu.highlighted = None
        self._show_menu()
        self.call_after_refresh(self._fit_menu)
        menu.highlighted = self.lesson_index or 0
        menu.focus()
        if self.hints and self.lesson is None:
            self.action_hint()

    def _tick(self) -> None:
        if self.prompt is not None and self._ticker is not None:
            self.query_one("#prompt-title", Static).update(self._title())

    def _clear_prompt(self) -> None:
        self.prompt = None
        self.menu = []
        self.lesson_index = None
        self.hint = None
        self._asking = False
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        self.query_one("#prompt-title", Static).update("")
        self.query_one("#menu", OptionList).clear_options()
        self._show_hint([])

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # -- the turn loop ------------------------------------------------------------------

    def advance(self) -> None:
        """Let bots move until a person is asked something or the deal ends (in the
        lesson, or until a note asks the learner to read it first)."""
        self._timer = None
        game = self.game
        while True:
            if self.lesson is not None and self._lesson_news():
                return
            event = game.advance()
            if event is None:
                self._show_deal_over()
                return
            if isinstance(event, Prompt):
                if len(game.humans) > 1 and event.seat != self._last_human:
                    self.viewer = None
                    self.redraw()
                    self.app.push_screen(PassScreen(game.names[event.seat], self.catalog),
                                         functools.partial(self._after_pass, event))
                else:
                    self._show_prompt(event)
                return
            self._moved(event)
            if self.pace > 0:
                self._timer = self.set_timer(self.pace, self.advance)
                return

    # -- the lesson ---------------------------------------------------------------------

    def _lesson_news(self) -> bool:
        """Show the lesson's notes of this moment; True if play waits (the welcome on its
        own screen first, or a note to read while another seat is to move)."""
        lesson = self.lesson
        assert lesson is not None
        notes = lesson.news()
        state = self.current()
        assert state is not None
        words = functools.partial(note_text, state=state, names=lesson.names, catalog=self.catalog)
        self.told = [words(n) for n in lesson.standing()]
        if notes:
            self.do = next((words(n) for n in notes if n.key == DO), None)
            self.refused = None
        self._show_lesson()
        if not notes:
            return False
        welcome = [words(n) for n in notes if n.key == WELCOME]
        if welcome:
            self.app.push_screen(LessonIntroScreen(welcome, self.catalog),
                                 lambda _: self._go_on(lesson.waits(notes)))
            return True
        if lesson.waits(notes):
            self._wait()
            return True
        return False

    def _go_on(self, wait: bool) -> None:
        if wait:
            self._wait()
        else:
            self.advance()

    def _show_lesson(self) -> None:
        self.query_one("#lesson", LessonView).show(self.told, self.do, self.refused)

    def _wait(self) -> None:
        """Stand still until Enter: the note is the learner's to read."""
        self.waiting = True
        self._show_keys()
        menu = self.query_one("#menu", OptionList)
        menu.clear_options()
        menu.disabled = True
        self.set_focus(None)
        self.query_one("#prompt-title", Static).update(
            Text(self.catalog.t("lesson_go_on"), style="bold"))

    def _refuse(self, note: Note) -> None:
        """The learner chose another move than the lesson's: say which, change nothing."""
        state = self.game.state
        assert state is not None and self.lesson is not None
        self.refused = note_text(note, state, self.lesson.names, self.catalog)
        self._show_lesson()
        self.app.bell()

    def _after_pass(self, prompt: Prompt, _: None) -> None:
        app: TableApp = self.app  # type: ignore[assignment]
        app.fence = max(app.fence, get_time() + HANDOVER_QUIET)
        self._show_prompt(prompt)

    def _moved(self, op: Operation) -> None:
        if isinstance(op, LaidDown) and self.game.rules.laugh:
            self.notify(self.catalog.t("laugh"), timeout=max(self.pace * 3, 1.5))
        self.revision += 1

    def _show_deal_over(self) -> None:
        """The deal is over: its last moves stay on the table until a person presses
        Enter (or, with bots only, for a few seconds), then the settlement."""
        self.deal_over = True
        self._show_keys()
        self.viewer = self._idle_viewer()
        self.revision += 1
        menu = self.query_one("#menu", OptionList)
        menu.clear_options()
        menu.disabled = True
        self.set_focus(None)
        key = "deal_over_press" if self.game.humans else "deal_over_wait"
        self.query_one("#prompt-title", Static).update(Text(self.catalog.t(key), style="bold"))
        if not self.game.humans:
            self._timer = self.set_timer(max(min(DEAL_END_PAUSE, self.pace * 4), 0.001),
                                         self.action_settle)

    def action_settle(self) -> None:
        """On to the settlement of the finished deal (in the lesson, Enter also goes on
        after a note)."""
        if self.waiting and self.is_active:
            self.waiting = False
            self._show_keys()
            self.query_one("#prompt-title", Static).update("")
            self.advance()
            return
        if not self.deal_over or not self.is_active:
            return
        self._cancel_timer()
        self.deal_over = False
        self._show_keys()
        self.query_one("#prompt-title", Static).update("")
        self.app.settle()  # type: ignore[attr-defined]

    def _claim_window_closed(self) -> None:
        self._timer = None
        prompt = self.prompt
        if prompt is not None and prompt.kind is PromptKind.CLAIM and not self._asking:
            self._clear_prompt()
            self.game.decline(prompt)
            self.advance()

    # -- the person's choices -----------------------------------------------------------

    @on(OptionList.OptionSelected, "#menu")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        # an Enter queued behind other keys may arrive after its prompt is gone
        if event.option.id is not None and event.option.id.startswith(f"p{self._serial}-"):
            self.action_pick(event.option_index)

    def action_pick(self, index: int) -> None:
        """Choose menu line ``index``."""
        if (self.prompt is None or self._asking or not self.is_active
                or not 0 <= index < len(self.menu)):
            return
        choice = self.menu[index]
        refusal = self.game.refusal(choice.action)
        if refusal is not None:
            self._refuse(refusal)
            return
        if choice.action is None:
            self._cancel_timer()
            prompt = self.prompt
            self._clear_prompt()
            self.game.decline(prompt)
            self.advance()
        elif choice.confirm:
            self._confirm(choice.action)
        else:
            self._do(choice.action)

    def _confirm(self, action: Action) -> None:
        """Ask before lying down; Enter lies down when nothing else is possible."""
        t = self.catalog.t
        prompt = self.prompt
        forced = all(isinstance(c.action, LieDown) for c in self.menu if c.action is not None)
        self._asking = True
        keys = t("keys_confirm_yes") if forced else t("keys_confirm_no")

        def answered(yes: bool | None) -> None:
            self._asking = False
            if yes and self.prompt is prompt:
                self._do(action)

        self.app.push_screen(ConfirmScreen(t("confirm_lie_down"), t("yes_lie_down"),
                                           t("no_go_back"), keys, default=forced), answered)

    def _do(self, action: Action) -> None:
        prompt = self.prompt
        if prompt is None:
            return
        self._cancel_timer()
        self._clear_prompt()
        if self.lesson is not None:
            self.do = self.refused = None
            self._show_lesson()
        op = self.game.act(prompt, action)
        self.viewer = self._idle_viewer() if len(self.game.humans) == 1 else None
        self._moved(op)
        if self.pace > 0:
            self._timer = self.set_timer(self.pace, self.advance)
        else:
            self.advance()

    def action_hint(self) -> None:
        """What the best bot would do here, and why: the line is marked in the menu (in
        the lesson: the lesson's move)."""
        state = self.game.state
        if self.prompt is None or state is None or not self.is_active:
            return
        if self.lesson is not None:
            self._show_hint([self.do] if self.do else [])
            return
        self.hint = advise(state, self.prompt, self.menu, self.catalog)
        self._show_menu()
        self._show_hint([self.hint.text])

    def action_undo(self) -> None:
        """Take back the person's last action (only against bots)."""
        t = self.catalog.t
        if not self.is_active or self.deal_over:
            return
        if not self.game.undo_allowed:
            key = "lesson_no_undo" if self.lesson is not None else "undo_not_allowed"
            self._show_hint([t(key)])
            return
        if not self.game.can_undo:
            self._show_hint([t("undo_nothing")])
            return
        self._cancel_timer()
        self.game.undo()
        self._clear_prompt()
        self.revision += 1
        self.advance()
        self._show_hint([t("undone")])

    def action_save(self) -> None:
        """Save the session to resume later."""
        if self.is_active:
            self._show_hint([self.app.save_game()])  # type: ignore[attr-defined]


class TableApp(App[str]):
    """``lald play``: setup, then the table, settlements between deals, to the final ledger.

    The app's return value is what the command prints when the table closes: where the
    session was saved and how to resume it, or the session's outcome.

    Given a :class:`~lald.tui.lesson.LessonGame` (``lald play --learn``, or "Learn to
    play" on the setup screen), the app plays the lesson, never saved, and then offers
    ``after_lesson``, a normal session, with hints on.  After each deal's settlement the
    people at the table may open the expert's review of their play, ``review_worlds``
    sampled deals per decision.
    """

    CSS_PATH = "lald.tcss"
    BINDINGS = [Binding("ctrl+q", "save_quit", show=False),
                Binding("ctrl+c", "save_quit", show=False, priority=True)]

    def __init__(self, game: Game, catalog: Catalog, store: Store, *, pace: float = 0.8,
                 claim_window: float = 5.0, setup: bool = True, export: bool = False,
                 hints: bool = False, after_lesson: Game | None = None,
                 review_worlds: int = DEFAULT_WORLDS) -> None:
        super().__init__()
        self.game, self.catalog, self.store = game, catalog, store
        self.pace, self.claim_window, self.setup, self.export = pace, claim_window, setup, export
        self.hints, self.after_lesson, self.review_worlds = hints, after_lesson, review_worlds
        self.reviews: dict[tuple[int, int], Review] = {}
        """Reviews made, by deal number and seat (the same deal always gives the same)."""
        self.title = catalog.t("game_title")
        self.fence = 0.0
        """Keys stamped before this moment are dropped (typed before the screen showed)."""
        self.started = not setup

    async def _on_key(self, event: events.Key) -> None:
        # a key comes back here for the bindings after its widget: drop it if it was typed
        # before the screen or prompt it would act on was shown (preventing the default
        # stops Textual's own handler, which runs after this one)
        if event.time < self.fence:
            event.prevent_default()

    async def on_event(self, event: events.Event) -> None:
        """Drop keys typed before the active screen was shown."""
        if isinstance(event, events.Key) and event.time < self.fence:
            return
        if isinstance(event, events.ScreenResume):
            self.fence = max(self.fence, event.time)
        await super().on_event(event)

    def on_mount(self) -> None:
        """Setup first, unless the flags said to start at once."""
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
                           hints=self.hints and not self.teaching)

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
                self.store.save(game)
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
        self.switch_screen(self.table)
        self.notify(self.catalog.t("hints_on"), timeout=8)

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
            path = self.store.save(self.game)
        except SaveError as e:
            return self.catalog.t("save_failed", reason=e.words(self.catalog))
        return self.store.saved_words(path, self.catalog)

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
