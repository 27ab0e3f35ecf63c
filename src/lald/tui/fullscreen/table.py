"""The card table's screen: :class:`TableScreen`.

:class:`TableScreen` draws the engine's view of the seat whose decision it is and drives
the turn loop, one bot move per ``pace`` seconds, stopping whenever a person is asked
something; in the lesson it shows the lesson's notes and holds play while one is read.

What the screen needs of the app that shows it (:class:`lald.tui.fullscreen.app.TableApp`) is the
:class:`~lald.tui.fullscreen.menu.TableHost` protocol: the key fence, booking a finished
deal, saving. This module never imports the app's; the app's imports this one.  A key
stamped before the fence is dropped; the screen moves the fence up to each new prompt,
and after a hot-seat hand-over :data:`HANDOVER_QUIET` seconds past it, on ``clock``
(Textual's, :func:`~lald.tui.fullscreen.menu.event_time`, unless a test gives another).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import cast

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import OptionList, Static

from ...coach.lesson import Note
from ...core import Action, LaidDown, LieDown, Operation, State
from ...i18n import Catalog
from ..game import Game, Prompt, PromptKind
from ..hints import Hint, advise
from ..lesson import DO, WELCOME, LessonGame
from ..words import (
    Choice,
    answer_words,
    choices,
    cut_lines,
    ledger,
    lesson_menu,
    log_lines,
    note_text,
    prompt_title,
    seat_rows,
    turn_line,
)
from .menu import MENU_ROWS, Menu, TableHost, event_time
from .screens import DIGITS, ConfirmScreen, KeyBar, LessonIntroScreen, PassScreen
from .widgets import (
    CardsView,
    LedgerView,
    LessonView,
    LinesView,
    LogView,
    Pieces,
    SeatsView,
    words_pieces,
)

#: Seconds after a hot-seat hand-over during which keys are ignored (a double Enter).
HANDOVER_QUIET = 0.6

#: Seconds the end of a deal stays on the table when only bots play (people press Enter).
DEAL_END_PAUSE = 3.0

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
                 hints: bool = False, clock: Callable[[], float] = event_time) -> None:
        super().__init__(classes="table-screen")
        self.clock = clock
        """Now, on the clock the keys are stamped with (the fence, the claim window's count)."""
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
        self._notice: tuple[str, float] | None = None  # a line to show once mounted
        self._notice_timer: Timer | None = None
        self._ready = False  # mounted: its widgets can be shown

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
        yield LinesView(id="notice")
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

    @property
    def host(self) -> TableHost:
        """The app showing the table (a :class:`TableHost`)."""
        return cast(TableHost, self.app)

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
        self._ready = True
        if self._notice is not None:
            self.say(*self._notice)
        self.call_after_refresh(self.advance)

    def say(self, line: str, seconds: float) -> None:
        """A passing word (the others laugh; hints are on) for ``seconds``, in a line of its
        own above the keys: as a toast it covered the hint and the ledger at 80×24."""
        if not self._ready:
            self._notice = (line, seconds)
            return
        self._notice = None
        if self._notice_timer is not None:
            self._notice_timer.stop()
        notice = self.query_one("#notice", LinesView)
        notice.show([line])
        notice.display = True
        self._notice_timer = self.set_timer(seconds, self._unsay)
        self.call_after_refresh(self._fit_menu)

    def _unsay(self) -> None:
        self._notice_timer = None
        notice = self.query_one("#notice", LinesView)
        notice.show([])
        notice.display = False
        self.call_after_refresh(self._fit_menu)

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

    @on(Menu.LaidOut)
    def _menu_laid_out(self) -> None:
        self.call_after_refresh(self._reveal_menu)

    def _reveal_menu(self) -> None:
        """Where the left column scrolls (under 72 columns), the question and the choices
        are scrolled into view when they are asked: at 50×15 they were below the screen."""
        if self.has_class("narrow") and self.prompt is not None:
            self.query_one("#menu").scroll_visible(animate=False)

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
        self.query_one("#ledger", LedgerView).show(ledger(game, catalog), catalog)

    def _title(self) -> Pieces:
        """The prompt's question, and the seconds left to claim (never broken across
        lines: seen at 80×24, "(2" / "seconds left)")."""
        prompt = self.prompt
        assert prompt is not None
        title = prompt_title(prompt, self.game.names, self.catalog, self.game.state)
        pieces = words_pieces(Text(title, style="bold"))
        if self._ticker is not None:
            left = max(0, math.ceil(self._deadline - self.clock()))
            pieces.append((" ", Text(self.catalog.t("claim_seconds_left", count=left), style="bold")))
        return Pieces(pieces)

    def _show_menu(self) -> None:
        best = self.hint.index if self.hint is not None else None
        self.query_one("#menu", Menu).show(self.menu, self.catalog, self._serial, best, self.lesson_index)

    def _show_prompt(self, prompt: Prompt) -> None:
        state = self.game.state
        assert state is not None
        self.prompt = prompt
        self.hint = None
        self._asking = False
        self._serial += 1
        host = self.host
        host.fence = max(host.fence, self.clock())
        self.viewer = self._last_human = prompt.seat
        self.menu = choices(prompt, state, self.catalog)
        if self.lesson is not None:
            self.menu, self.lesson_index = lesson_menu(self.menu, self.lesson.expected(), state)
        self.redraw()
        if prompt.kind is PromptKind.CLAIM and self.claim_window > 0:
            self._deadline = self.clock() + self.claim_window
            self._timer = self.set_timer(self.claim_window, self._claim_window_closed)
            self._ticker = self.set_interval(0.25, self._tick)
        self.query_one("#prompt-title", Static).update(self._title())
        menu = self.query_one("#menu", OptionList)
        menu.disabled = False
        menu.highlighted = None
        self._show_menu()
        self.call_after_refresh(self._fit_menu)
        self.call_after_refresh(self._reveal_menu)
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
        host = self.host
        host.fence = max(host.fence, self.clock() + HANDOVER_QUIET)
        self._show_prompt(prompt)

    def _moved(self, op: Operation) -> None:
        # (in the lesson its note and the log say it: the panel keeps its rows)
        if isinstance(op, LaidDown) and self.game.rules.laugh and self.lesson is None:
            self.say(self.catalog.t("laugh"), max(self.pace * 3, 1.5))
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
        self.host.settle()

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

        self.app.push_screen(ConfirmScreen(t("confirm_lie_down"), t("yes_lie_down"), t("no_go_back"), keys,
                                           default=forced, answers=answer_words(self.catalog)), answered)

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
            self._show_hint([self.host.save_game()])
