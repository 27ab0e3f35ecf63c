"""The screens around the table: setup, "pass to", card choice, confirmation, settlement
and help."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..core import PRESET_NAMES, VARIANT_NAMES, Rules, RulesError
from ..i18n import Catalog
from .game import HUMAN, Game, SeatSpec, best_level, playable_levels
from .plain import HELP_KEYS
from .widgets import LinesView
from .words import default_names, options_lines

_DIGITS = [Binding(str(i), f"pick({i - 1})", show=False) for i in range(1, 10)]


def level_label(level: str, catalog: Catalog) -> str:
    """A seat kind in words."""
    key = f"level_{level}"
    return catalog.t(key) if catalog.has(key) else level


class KeyBar(Static):
    """The keys a screen answers to, in the catalog's words."""


class PassScreen(Screen[None]):
    """Hides the table until the next person at the keyboard is ready."""

    BINDINGS = [Binding("enter", "ready", show=False), Binding("space", "ready", show=False)]

    def __init__(self, name_: str, catalog: Catalog) -> None:
        super().__init__(id="pass")
        self.person, self.catalog = name_, catalog

    def compose(self) -> ComposeResult:
        """The name and the key to press."""
        with Vertical(id="pass-box"):
            yield Static(Text(self.catalog.t("pass_to", name=self.person)), id="pass-title")
            yield Static(Text(self.catalog.t("pass_press")), id="pass-hint")

    def action_ready(self) -> None:
        """Show the table to the person now at the keyboard."""
        self.dismiss(None)


class ChoiceScreen(ModalScreen[int | None]):
    """Which of several card choices; a number, or escape to go back."""

    BINDINGS = [*_DIGITS, Binding("escape", "back", show=False)]

    def __init__(self, title: str, labels: Sequence[str], catalog: Catalog) -> None:
        super().__init__(id="choice")
        self.title_, self.labels, self.catalog = title, list(labels), catalog

    def compose(self) -> ComposeResult:
        """The question and the numbered choices."""
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_), classes="dialog-title")
            yield OptionList(*[Option(Text(f"{i}. {label}")) for i, label in
                               enumerate(self.labels, start=1)], id="choice-list")
            yield KeyBar(Text(self.catalog.t("keys_choice")), classes="keys")

    def on_mount(self) -> None:
        """Focus the choices."""
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_pick(self, index: int) -> None:
        """Choose by number."""
        if index < len(self.labels):
            self.dismiss(index)

    def action_back(self) -> None:
        """Choose nothing."""
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question (lying down)."""

    BINDINGS = [Binding("y", "answer(True)", show=False), Binding("n", "answer(False)", show=False),
                Binding("1", "answer(True)", show=False), Binding("2", "answer(False)", show=False),
                Binding("escape", "answer(False)", show=False)]

    def __init__(self, question: str, yes: str, no: str) -> None:
        super().__init__(id="confirm")
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        """The question and two buttons."""
        with Vertical(classes="dialog"):
            yield Static(Text(self.question), classes="dialog-title")
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="warning")
                yield Button(self.no, id="no")

    def on_mount(self) -> None:
        """Focus "no", the safe answer."""
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Answer by key."""
        self.dismiss(yes)


class SettlementScreen(Screen[None]):
    """The deal's settlement line by line, the running ledger, and the session's outcome."""

    BINDINGS = [Binding("enter", "next", show=False), Binding("space", "next", show=False),
                Binding("e", "export", show=False), Binding("s", "save", show=False),
                Binding("question_mark", "app.help", show=False)]

    def __init__(self, settlement: Sequence[str], ledger: Sequence[str], outcome: Sequence[str],
                 catalog: Catalog, over: bool, status: Sequence[str] = ()) -> None:
        super().__init__(id="settlement")
        self.status = list(status)
        self.settlement, self.ledger, self.outcome = list(settlement), list(ledger), list(outcome)
        self.catalog, self.over = catalog, over

    def compose(self) -> ComposeResult:
        """Settlement, ledger, outcome, keys."""
        t = self.catalog.t
        with VerticalScroll(id="settlement-body"):
            yield LinesView(id="settle-lines", classes="panel")
            yield LinesView(id="ledger-lines", classes="panel")
            yield LinesView(id="outcome-lines")
            yield LinesView(id="settle-status")
        key = "keys_settlement_over" if self.over else "keys_settlement"
        yield KeyBar(Text(t(key)), classes="keys")

    def on_mount(self) -> None:
        """Fill in the lines."""
        t = self.catalog.t
        settle = self.query_one("#settle-lines", LinesView)
        settle.border_title = t("settlement_title")
        settle.show(self.settlement)
        ledger = self.query_one("#ledger-lines", LinesView)
        ledger.border_title = t("ledger_title")
        ledger.show(self.ledger)
        self.query_one("#outcome-lines", LinesView).show(self.outcome)
        self.query_one("#settle-status", LinesView).show(self.status)

    def action_next(self) -> None:
        """On to the next deal (or the end)."""
        self.dismiss(None)

    def action_export(self) -> None:
        """Write the finished deal as a game record."""
        path = self.app.export_last()  # type: ignore[attr-defined]
        self.query_one("#settle-status", LinesView).show([self.catalog.t("exported_to", path=str(path))])

    def action_save(self) -> None:
        """Save the session."""
        path = self.app.save_game()  # type: ignore[attr-defined]
        self.query_one("#settle-status", LinesView).show([self.catalog.t("saved_to", path=str(path))])


class HelpScreen(ModalScreen[None]):
    """The rules for a first-time player, and the options in force."""

    BINDINGS = [Binding("escape", "close", show=False), Binding("question_mark", "close", show=False),
                Binding("q", "close", show=False)]

    def __init__(self, rules: Rules, catalog: Catalog) -> None:
        super().__init__(id="help")
        self.rules, self.catalog = rules, catalog

    def compose(self) -> ComposeResult:
        """Rules paragraphs, then the options."""
        t = self.catalog.t
        with VerticalScroll(classes="dialog", id="help-body"):
            yield LinesView(id="help-rules")
            yield LinesView(id="help-options")
            yield KeyBar(Text(t("keys_help")), classes="keys")

    def on_mount(self) -> None:
        """Fill in the text."""
        t = self.catalog.t
        self.query_one("#help-rules", LinesView).show([t(k) + "\n" for k in HELP_KEYS[:-1]])
        self.query_one("#help-options", LinesView).show(
            [t(HELP_KEYS[-1]), *("  " + line for line in options_lines(self.rules, self.catalog))])

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class SetupScreen(Screen[Game]):
    """Preset, players, variants, and who sits where; starts the session."""

    BINDINGS = [Binding("ctrl+s", "start", show=False)]

    def __init__(self, game: Game, catalog: Catalog) -> None:
        super().__init__(id="setup")
        self.game, self.catalog = game, catalog

    def _kinds(self) -> list[tuple[str, str]]:
        levels = playable_levels()
        return [(self.catalog.t("level_human"), HUMAN)] + [(level_label(lv, self.catalog), lv)
                                                           for lv in levels]

    def compose(self) -> ComposeResult:
        """The form."""
        t, rules = self.catalog.t, self.game.rules
        with VerticalScroll(id="setup-body"):
            yield Static(Text(t("setup_title")), classes="dialog-title")
            with Horizontal(classes="row"):
                yield Static(Text(t("setup_preset")), classes="label")
                yield Select([(t(f"preset_{p.replace('-', '_')}"), p) for p in PRESET_NAMES],
                             value=rules.preset, allow_blank=False, id="preset")
                yield Static(Text(t("setup_players")), classes="label")
                yield Select([(str(n), n) for n in (3, 4, 5)], value=rules.players,
                             allow_blank=False, id="players")
            with Vertical(classes="row variants"):
                for v in VARIANT_NAMES:
                    yield Checkbox(t(f"variant_{v.replace('-', '_')}"), v in rules.variants,
                                   id=f"variant-{v}")
            for s in range(5):
                spec = self.game.seats[s] if s < rules.players else SeatSpec(best_level(), "")
                with Horizontal(classes="row seat-row", id=f"seat-row-{s}"):
                    yield Static(Text(t("seat_name", seat=s)), classes="label")
                    yield Select(self._kinds(), value=spec.kind, allow_blank=False, id=f"kind-{s}")
                    yield Input(spec.name, placeholder=t("setup_name"), id=f"name-{s}")
            yield Static(id="setup-error")
            yield Button(t("setup_start"), id="start", variant="primary")
        yield KeyBar(Text(t("keys_setup")), classes="keys")

    def on_mount(self) -> None:
        """Show the seats of the chosen player count; focus the start button."""
        self._show_seats(self.game.rules.players)
        self.query_one("#start", Button).focus()

    def _show_seats(self, players: int) -> None:
        for s in range(5):
            self.query_one(f"#seat-row-{s}").display = s < players

    @on(Select.Changed, "#players")
    def _players(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self._show_seats(event.value)

    @on(Button.Pressed, "#start")
    def _start(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        """Build the session from the form and go to the table."""
        players = self.query_one("#players", Select).value
        preset = self.query_one("#preset", Select).value
        assert isinstance(players, int) and isinstance(preset, str)
        variants = [v for v in VARIANT_NAMES if self.query_one(f"#variant-{v}", Checkbox).value]
        names = default_names(self.catalog, players)
        seats = []
        for s in range(players):
            kind = self.query_one(f"#kind-{s}", Select).value
            name = self.query_one(f"#name-{s}", Input).value.strip() or names[s]
            seats.append(SeatSpec(str(kind), name))
        old = self.game.rules
        try:
            rules = Rules.make(preset, players, variants, old.spec()["options"])
        except RulesError as e:
            self.query_one("#setup-error", Static).update(Text(str(e)))
            return
        same = rules == old and seats == list(self.game.seats)
        self.dismiss(self.game if same else Game.new(rules, seats, self.game.session.seed))
