"""The terminal card table: a Textual app that plays a whole session.

:class:`TableApp` holds the :class:`~lald.tui.game.Game`; :class:`TableScreen` draws the
engine's view of the seat whose decision it is and drives the turn loop, one bot move
per ``pace`` seconds, stopping whenever a person is asked something.
"""

from __future__ import annotations

import functools
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..core import Action, LaidDown, Operation, State
from ..i18n import Catalog
from ..narrate import explain_settlement
from .game import Game, Prompt, PromptKind
from .hints import hint_line
from .screens import (
    _DIGITS,
    ChoiceScreen,
    ConfirmScreen,
    HelpScreen,
    KeyBar,
    PassScreen,
    SettlementScreen,
    SetupScreen,
)
from .store import Store
from .widgets import CardsView, LinesView, LogView, SeatsView
from .words import (
    Choice,
    action_label,
    choices,
    cut_lines,
    ledger_lines,
    log_lines,
    outcome_lines,
    prompt_title,
    seat_rows,
    turn_line,
)


class TableScreen(Screen[None]):
    """The card table of one session."""

    BINDINGS = [
        *_DIGITS,
        Binding("h", "hint", show=False),
        Binding("u", "undo", show=False),
        Binding("s", "save", show=False),
        Binding("question_mark", "app.help", show=False),
        Binding("q", "quit_table", show=False),
    ]

    revision: reactive[int] = reactive(0, init=False)
    """Bumped after every change of the deal; :meth:`watch_revision` redraws."""

    def __init__(self, game: Game, catalog: Catalog, pace: float, claim_window: float) -> None:
        super().__init__(id="table-screen")
        self.game, self.catalog = game, catalog
        self.pace, self.claim_window = pace, claim_window
        self.prompt: Prompt | None = None
        self.menu: list[Choice] = []
        self.viewer: int | None = None
        self._last_human: int | None = None
        self._timer: Timer | None = None
        self._busy = False

    def compose(self) -> ComposeResult:
        """Seats, table, hand and choices on the left; log and ledger on the right."""
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield SeatsView(id="seats", classes="panel")
                yield CardsView(id="table", classes="panel")
                yield CardsView(id="hand", classes="panel")
                yield Static(id="prompt-title")
                yield OptionList(id="menu")
                yield LinesView(id="hint")
            with Vertical(id="right"):
                yield LogView(id="log", classes="panel")
                yield LinesView(id="ledger", classes="panel")
        yield KeyBar(Text(self.catalog.t("keys_table")), classes="keys")

    def on_mount(self) -> None:
        """Titles, then deal (or continue a resumed deal) and play."""
        t = self.catalog.t
        self.query_one("#seats").border_title = t("seats_title")
        self.query_one("#table").border_title = t("table_title")
        self.query_one("#log").border_title = t("log_title")
        self.query_one("#ledger").border_title = t("ledger_title")
        if self.game.state is None and not self.game.session.over:
            self.game.start_deal()
        self.viewer = self._idle_viewer()
        self.redraw()
        self.call_after_refresh(self.advance)

    # -- drawing ------------------------------------------------------------------------

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
        self.query_one("#status", Static).update(Text(turn_line(
            view, game.names, catalog, number, len(game.session.schedule))))
        self.query_one("#seats", SeatsView).show(seat_rows(view, game.names, catalog), catalog)
        self.query_one("#table", CardsView).show(view.table, t("empty"))
        hand = self.query_one("#hand", CardsView)
        if self.viewer is None:
            hand.border_title = t("hand_hidden")
            hand.show((), t("hand_hidden_text"))
        else:
            hand.border_title = t("hand_title", name=game.names[self.viewer])
            hand.show(view.hand, t("empty"), mark_sets=True)
        lines = log_lines(view, game.names, catalog, number)
        if number == 1:
            lines = cut_lines(game, catalog) + lines
        self.query_one("#log", LogView).show(lines)
        self.query_one("#ledger", LinesView).show(ledger_lines(game, catalog))

    def _show_prompt(self, prompt: Prompt) -> None:
        state = self.game.state
        assert state is not None
        self.prompt = prompt
        self.viewer = self._last_human = prompt.seat
        self.menu = choices(prompt, state, self.catalog)
        self.redraw()
        self.query_one("#prompt-title", Static).update(
            Text(prompt_title(prompt, self.game.names, self.catalog), style="bold"))
        menu = self.query_one("#menu", OptionList)
        menu.clear_options()
        menu.add_options([Option(Text(f"{i}. {c.label}")) for i, c in enumerate(self.menu, start=1)])
        menu.highlighted = 0
        menu.focus()
        if prompt.kind is PromptKind.CLAIM and self.claim_window > 0:
            self._timer = self.set_timer(self.claim_window, self._claim_window_closed)

    def _clear_prompt(self) -> None:
        self.prompt = None
        self.menu = []
        self.query_one("#prompt-title", Static).update("")
        self.query_one("#menu", OptionList).clear_options()
        self.query_one("#hint", LinesView).show([])

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # -- the turn loop ------------------------------------------------------------------

    def advance(self) -> None:
        """Let bots move until a person is asked something or the deal ends."""
        self._timer = None
        game = self.game
        while True:
            event = game.advance()
            if event is None:
                self.revision += 1
                if self.pace > 0:
                    self._timer = self.set_timer(self.pace, self._deal_over)
                else:
                    self._deal_over()
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

    def _after_pass(self, prompt: Prompt, _: None) -> None:
        self._show_prompt(prompt)

    def _moved(self, op: Operation) -> None:
        if isinstance(op, LaidDown) and self.game.rules.laugh:
            self.notify(self.catalog.t("laugh"), timeout=max(self.pace * 3, 1.5))
        self.revision += 1

    def _deal_over(self) -> None:
        self._timer = None
        self.app.settle()  # type: ignore[attr-defined]

    def _claim_window_closed(self) -> None:
        self._timer = None
        prompt = self.prompt
        if prompt is not None and prompt.kind is PromptKind.CLAIM and self.app.screen is self:
            self._clear_prompt()
            self.game.decline(prompt)
            self.advance()

    # -- the person's choices -----------------------------------------------------------

    @on(OptionList.OptionSelected, "#menu")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.action_pick(event.option_index)

    def action_pick(self, index: int) -> None:
        """Choose menu line ``index``."""
        if self.prompt is None or not 0 <= index < len(self.menu):
            return
        self._cancel_timer()
        choice = self.menu[index]
        state = self.game.state
        assert state is not None
        if not choice.actions:
            prompt = self.prompt
            self._clear_prompt()
            self.game.decline(prompt)
            self.advance()
        elif len(choice.actions) > 1:
            labels = [action_label(a, state, self.catalog) for a in choice.actions]
            self.app.push_screen(ChoiceScreen(self.catalog.t("which_cards"), labels, self.catalog),
                                 lambda i: self._chosen(choice, i))
        else:
            self._chosen(choice, 0)

    def _chosen(self, choice: Choice, index: int | None) -> None:
        if index is None:
            return
        action = choice.actions[index]
        if choice.confirm:
            t = self.catalog.t
            self.app.push_screen(ConfirmScreen(t("confirm_lie_down"), t("yes_lie_down"), t("no_go_back")),
                                 lambda yes: self._do(action) if yes else None)
        else:
            self._do(action)

    def _do(self, action: Action) -> None:
        prompt = self.prompt
        if prompt is None:
            return
        self._clear_prompt()
        op = self.game.act(prompt, action)
        self.viewer = self._idle_viewer() if len(self.game.humans) == 1 else None
        self._moved(op)
        if self.pace > 0:
            self._timer = self.set_timer(self.pace, self.advance)
        else:
            self.advance()

    def action_hint(self) -> None:
        """What the best bot would do here, and why."""
        state = self.game.state
        if self.prompt is None or state is None:
            return
        self.query_one("#hint", LinesView).show([hint_line(state, self.prompt, self.catalog)])

    def action_undo(self) -> None:
        """Take back the person's last action (only against bots)."""
        t = self.catalog.t
        if not self.game.undo_allowed:
            self.query_one("#hint", LinesView).show([t("undo_not_allowed")])
            return
        self._cancel_timer()
        if not self.game.undo():
            self.query_one("#hint", LinesView).show([t("undo_nothing")])
            return
        self._clear_prompt()
        self.revision += 1
        self.query_one("#hint", LinesView).show([t("undone")])
        self.advance()

    def action_save(self) -> None:
        """Save the session to resume later."""
        path = self.app.save_game()  # type: ignore[attr-defined]
        self.query_one("#hint", LinesView).show([self.catalog.t("saved_to", path=str(path))])

    def action_quit_table(self) -> None:
        """Save and leave."""
        self.app.save_game()  # type: ignore[attr-defined]
        self.app.exit()


class TableApp(App[None]):
    """``lald play``: setup, then the table, settlements between deals, to the final ledger."""

    CSS_PATH = "lald.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", show=False)]

    def __init__(self, game: Game, catalog: Catalog, store: Store, *, pace: float = 0.8,
                 claim_window: float = 5.0, setup: bool = True, export: bool = False) -> None:
        super().__init__()
        self.game, self.catalog, self.store = game, catalog, store
        self.pace, self.claim_window, self.setup, self.export = pace, claim_window, setup, export
        self.title = catalog.t("game_title")

    def on_mount(self) -> None:
        """Setup first, unless the flags said to start at once."""
        if self.setup:
            self.push_screen(SetupScreen(self.game, self.catalog), self._set_up)
        else:
            self._open_table()

    def _set_up(self, game: Game | None) -> None:
        if game is not None:
            self.game = game
        self._open_table()

    def _open_table(self) -> None:
        if self.game.session.over:
            self.settle(booked=True)
            return
        self.table = TableScreen(self.game, self.catalog, self.pace, self.claim_window)
        self.push_screen(self.table)

    def settle(self, booked: bool = False) -> None:
        """Book the finished deal and show its settlement and the ledger."""
        game, catalog = self.game, self.catalog
        lines: list[str] = []
        status: list[str] = []
        if not booked:
            result = game.finish_deal()
            deal = game.last_deal
            assert deal is not None
            lines = explain_settlement(game.rules, result, deal.dealer, game.names,
                                       game.session.balances, catalog)
            if self.export:
                status.append(catalog.t("exported_to", path=str(self.store.export(game, deal))))
        screen = SettlementScreen(lines, ledger_lines(game, catalog), outcome_lines(game, catalog),
                                  catalog, game.session.over, status)
        self.push_screen(screen, self._settled)

    def _settled(self, _: None) -> None:
        if self.game.session.over:
            self.exit()
            return
        self.game.start_deal()
        self.table.viewer = self.table._idle_viewer()
        self.table.revision += 1
        self.table.advance()

    def action_help(self) -> None:
        """The rules and the active options."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.game.rules, self.catalog))

    def save_game(self) -> Path:
        """Save the session; the file's path."""
        return self.store.save(self.game)

    def export_last(self) -> Path:
        """Write the last finished deal as a game record; the file's path."""
        deal = self.game.last_deal
        assert deal is not None
        return self.store.export(self.game, deal)
