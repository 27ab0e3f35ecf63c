"""The screens around the table: setup, "pass to", confirmation, settlement and help.

Every screen takes input only while it is the active one, and a dialog closes once:
keys typed faster than the screens change (a paste, a loaded machine, a double Enter)
are dropped rather than acting on a screen they were not meant for (see
:meth:`lald.tui.fullscreen.app.TableApp.on_event`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Checkbox, Input, Select, Static

from ...coach.hints import best_level, playable_levels
from ...core import PRESET_NAMES, VARIANT_NAMES, Rules, RulesError
from ...i18n import Catalog
from ..game import HUMAN, Game, SeatSpec
from ..lesson import LessonGame
from ..words import HELP_KEYS, RULES_DOC, Ledger, default_names, level_label, levels_list, options_lines
from .widgets import LedgerView, LinesView

#: Every key of the table and of the screens over it, as the help lists them: the keys'
#: names as Textual binds them, how the help shows them (a catalog key ending in
#: ``_label`` where a language names the key: Enter, Esc), and the catalog key of what
#: they do.
HELP_TABLE_KEYS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (tuple("1234567890"), "1–9, 0", "help_key_digits"),
    (("up", "down", "enter", "space"), "help_key_enter_label", "help_key_enter"),
    (("h",), "h", "help_key_hint"),
    (("u",), "u", "help_key_undo"),
    (("s",), "s", "help_key_save"),
    (("e",), "e", "help_key_export"),
    (("r",), "r", "help_key_review"),
    (("question_mark",), "?", "help_key_help"),
    (("escape",), "help_key_back_label", "help_key_back"),
    (("q", "ctrl+q", "ctrl+c"), "q", "help_key_quit"),
)


def help_key_shown(shown: str, catalog: Catalog) -> str:
    """A key as the help shows it (:data:`HELP_TABLE_KEYS`), in ``catalog``'s words."""
    return catalog.t(shown) if shown.endswith("_label") else shown


def help_keys_lines(catalog: Catalog) -> list[str]:
    """The help's list of keys: each key, then what it does."""
    keys = [(help_key_shown(shown, catalog), key) for _, shown, key in HELP_TABLE_KEYS]
    width = max(len(shown) for shown, _ in keys)
    return [catalog.t("help_keys_title")] + [
        f"  {shown.ljust(width)}  {catalog.t(key)}" for shown, key in keys]


#: Digits choose menu lines: 1-9, then 0 for the tenth.
DIGITS = [Binding(str(i), f"pick({i - 1})", show=False) for i in range(1, 10)] + [
    Binding("0", "pick(9)", show=False)]


class KeyBar(Static):
    """The keys a screen answers to, in the catalog's words."""


class Closing:
    """A screen that answers only while it is active, and is dismissed at most once."""

    _dismissed = False

    def close(self, result: Any = None) -> None:
        """Dismiss with ``result`` unless this screen is not on top or already closed."""
        screen: Any = self
        if self._dismissed or not screen.is_active:
            return
        self._dismissed = True
        screen.dismiss(result)


class PassScreen(Closing, Screen[None]):
    """Hides the table until the next person at the keyboard is ready."""

    BINDINGS = [Binding("enter", "ready", show=False), Binding("space", "ready", show=False),
                Binding("q", "app.save_quit", show=False)]

    def __init__(self, name_: str, catalog: Catalog) -> None:
        super().__init__(id="pass")
        self.person, self.catalog = name_, catalog

    def compose(self) -> ComposeResult:
        """The name and the key to press."""
        with Vertical(id="pass-box"):
            yield Static(Text(self.catalog.t("pass_to", name=self.person)), id="pass-title")
            yield Static(Text(self.catalog.t("pass_press")), id="pass-hint")
        yield KeyBar(Text(self.catalog.t("keys_pass")), classes="keys")

    def action_ready(self) -> None:
        """Show the table to the person now at the keyboard."""
        self.close(None)


class LessonIntroScreen(Closing, Screen[None]):
    """The lesson's welcome, before its table."""

    BINDINGS = [Binding("enter", "start", show=False), Binding("space", "start", show=False),
                Binding("question_mark", "app.help", show=False),
                Binding("q", "app.save_quit", show=False)]

    def __init__(self, lines: Sequence[str], catalog: Catalog) -> None:
        super().__init__(id="lesson-intro")
        self.lines, self.catalog = list(lines), catalog

    def compose(self) -> ComposeResult:
        """The title, the welcome and the keys."""
        body = LinesView(id="lesson-welcome")
        body.show(self.lines)
        with Vertical(id="lesson-intro-box"):
            yield Static(Text(self.catalog.t("lesson_title"), style="bold"), id="lesson-intro-title")
            yield body
        yield KeyBar(Text(self.catalog.t("keys_lesson_intro")), classes="keys")

    def action_start(self) -> None:
        """On to the lesson's table."""
        self.close(None)


class ConfirmScreen(Closing, ModalScreen[bool]):
    """A yes/no question (lying down); ``default`` is the answer Enter gives."""

    BINDINGS = [Binding("y", "answer(True)", show=False), Binding("n", "answer(False)", show=False),
                Binding("escape", "answer(False)", show=False),
                Binding("left,right,up,down,tab", "other_answer", show=False),
                Binding("q", "app.save_quit", show=False)]

    def __init__(self, question: str, yes: str, no: str, keys: str, default: bool,
                 answers: tuple[frozenset[str], frozenset[str]] = (frozenset("y"), frozenset("n"))) -> None:
        """``answers``: the letters that say yes and no besides ``y`` and ``n`` (the
        language's own, ``j`` in German: :func:`lald.tui.words.answer_words`)."""
        super().__init__(id="confirm")
        self.question, self.yes, self.no, self.keys, self.default = question, yes, no, keys, default
        self.answers = answers

    def compose(self) -> ComposeResult:
        """The question, two buttons and the keys."""
        with Vertical(classes="dialog"):
            yield Static(Text(self.question), classes="dialog-title")
            with Horizontal(classes="buttons"):
                yield Button(self.yes, id="yes", variant="warning")
                yield Button(self.no, id="no")
            yield Static(Text(self.keys), classes="dialog-keys")

    def on_mount(self) -> None:
        """Focus the default answer."""
        self.query_one("#yes" if self.default else "#no", Button).focus()

    def action_other_answer(self) -> None:
        """Move between the two answers."""
        self.focus_next()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.close(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Answer by key."""
        self.close(yes)

    def on_key(self, event: events.Key) -> None:
        """The language's own letters answer too."""
        letter = (event.character or "").casefold()
        for yes, words in ((True, self.answers[0]), (False, self.answers[1])):
            if len(letter) == 1 and letter in words:
                event.stop()
                self.close(yes)
                return


class SettlementScreen(Closing, Screen[None]):
    """The deal's settlement line by line, the running ledger, and the session's outcome."""

    BINDINGS = [Binding("enter", "next", show=False), Binding("space", "next", show=False),
                Binding("e", "export", show=False), Binding("s", "save", show=False),
                Binding("r", "review", show=False),
                Binding("question_mark", "app.help", show=False),
                Binding("q", "app.save_quit", show=False)]

    def __init__(self, settlement: Sequence[str], ledger: Ledger, outcome: Sequence[str],
                 catalog: Catalog, over: bool, status: Sequence[str] = (), *,
                 review: bool = False, lesson: Sequence[str] = (), after: Sequence[str] = ()) -> None:
        """``review``: the review of one's play is offered (``r``); ``lesson`` and
        ``after``: the lesson's words before and after the settlement (the lesson's
        settlement has no ledger, no export and no save, and Enter leads to a normal deal)."""
        super().__init__(id="settlement")
        self.status = list(status)
        self.settlement, self.ledger, self.outcome = list(settlement), ledger, list(outcome)
        self.catalog, self.over = catalog, over
        self.review = review
        self.lesson, self.after = list(lesson), list(after)
        self.teaching = bool(lesson)

    def compose(self) -> ComposeResult:
        """Settlement, ledger, outcome, keys (in the lesson: its words around the
        settlement)."""
        t = self.catalog.t
        settle = LinesView(id="settle-lines", classes="panel")
        settle.border_title = t("settlement_title")
        settle.show(self.settlement)
        ledger = LedgerView(id="ledger-lines", classes="panel")
        ledger.border_title = t("ledger_title")
        ledger.show(self.ledger, self.catalog)
        outcome, status = LinesView(id="outcome-lines"), LinesView(id="settle-status")
        outcome.show(self.outcome)
        status.show(self.status)
        with VerticalScroll(id="settlement-body"):
            if self.teaching:
                told = LinesView(id="settle-lesson", classes="lesson-panel")
                told.border_title = t("lesson_title")
                told.show(self.lesson)
                yield told
            yield settle
            if self.teaching:
                after = LinesView(id="settle-after", classes="lesson-panel")
                after.show(self.after)
                yield after
            else:
                yield ledger
                if self.outcome:  # (empty, its padding was four blank lines)
                    yield outcome
            if self.review:
                offer = LinesView(id="review-offer")
                offer.show([t("review_offer")])
                yield offer
            yield status
        key = ("keys_lesson_settlement" if self.teaching else
               "keys_settlement_over" if self.over else "keys_settlement")
        yield KeyBar(Text(t(key)), classes="keys wrap")

    def action_next(self) -> None:
        """On to the next deal (or the end)."""
        self.close(None)

    def action_review(self) -> None:
        """The expert's review of one's play in this deal."""
        if self.is_active and self.review:
            self.app.open_review()  # type: ignore[attr-defined]

    def action_export(self) -> None:
        """Write the finished deal as a game record."""
        if not self.is_active or self.teaching:
            return
        self._said(self.app.export_last())  # type: ignore[attr-defined]

    def action_save(self) -> None:
        """Save the session."""
        if not self.is_active or self.over or self.teaching:
            return
        self._said(self.app.save_game())  # type: ignore[attr-defined]

    def _said(self, line: str) -> None:
        """A key's answer, at the end of the body: scrolled into view (on a small terminal
        it came below the screen, so a key seemed to do nothing)."""
        status = self.query_one("#settle-status", LinesView)
        status.show([line])
        self.call_after_refresh(status.scroll_visible, animate=False)


class HelpScreen(Closing, ModalScreen[None]):
    """The rules for a first-time player, every key, and the options in force. Shown over
    the table (or the settlement), it goes back there with Esc, ? or q, as the review does:
    saving and quitting is q at the table itself."""

    AUTO_FOCUS = "#help-body"

    BINDINGS = [Binding("escape", "close_help", show=False),
                Binding("question_mark", "close_help", show=False),
                Binding("q", "close_help", show=False)]

    def __init__(self, rules: Rules, catalog: Catalog, lesson: bool = False) -> None:
        """``lesson``: opened in the lesson (its key bar says so)."""
        super().__init__(id="help")
        self.rules, self.catalog, self.lesson = rules, catalog, lesson

    def compose(self) -> ComposeResult:
        """Rules paragraphs, the keys, then the options."""
        t = self.catalog.t
        rules, options = LinesView(id="help-rules"), LinesView(id="help-options")
        keys = LinesView(id="help-keys")
        rules.show([t(k) + "\n" for k in HELP_KEYS[:-1]] + [t("help_more", path=RULES_DOC) + "\n"])
        keys.show([*help_keys_lines(self.catalog), ""])
        options.show([t(HELP_KEYS[-1]), *("  " + line for line in options_lines(self.rules, self.catalog))])
        with VerticalScroll(classes="dialog", id="help-body"):
            yield rules
            yield keys
            yield options
        yield KeyBar(Text(t("keys_help_lesson" if self.lesson else "keys_help")), classes="keys")

    def action_close_help(self) -> None:
        """Back to the table."""
        self.close(None)


class SetupScreen(Closing, Screen[Game]):
    """Preset, players, variants, and who sits where; starts the session, or the lesson
    ("Learn to play": the result is a :class:`~lald.tui.lesson.LessonGame`)."""

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
            with Horizontal(classes="row learn-row"):
                yield Button(t("lesson_title"), id="learn", variant="success")
                yield Static(Text(t("setup_learn_note")), classes="learn-note")
            with Horizontal(classes="row"):
                yield Static(Text(t("setup_preset")), classes="label")
                yield Select([(t(f"preset_{p.replace('-', '_')}"), p) for p in PRESET_NAMES],
                             value=rules.preset, allow_blank=False, id="preset")
            with Horizontal(classes="row"):
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
            yield Static(Text(levels_list(self.catalog, playable_levels()[::-1])), classes="setup-note")
            yield Static(id="setup-error")
            yield Button(t("setup_start"), id="start", variant="primary")
        yield KeyBar(Text(t("keys_setup")), classes="keys")

    def on_mount(self) -> None:
        """Show the seats of the chosen player count; focus the start button, with the top
        of the form (and "Learn to play") in view."""
        self._show_seats(self.game.rules.players)
        self.query_one("#start", Button).focus(scroll_visible=False)

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

    @on(Button.Pressed, "#learn")
    def _learn(self) -> None:
        self.action_learn()

    def action_learn(self) -> None:
        """The guided first deal instead of a session."""
        if not self.is_active:
            return
        names = default_names(self.catalog, LessonGame.PLAYERS)
        names[0] = self.query_one("#name-0", Input).value.strip() or names[0]
        self.close(LessonGame(names))

    def action_start(self) -> None:
        """Build the session from the form and go to the table."""
        if not self.is_active:
            return
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
        self.close(self.game if same else Game.new(rules, seats, self.game.session.seed))
