"""``lald play --plain``: the whole session as lines of text and numbered choices on
standard input, for screen readers, pipes and scripts.

Every question is answered by a number (``1`` is always a valid answer) or a letter
command: ``h`` hint, ``u`` undo, ``s`` save, ``?`` help, ``q`` save and quit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from ..core import Action, Operation, State
from ..i18n import Catalog
from ..narrate import explain_settlement
from .game import Game, Prompt
from .hints import advise
from .store import SaveError, Store
from .words import (
    Choice,
    choices,
    cut_lines,
    groups_text,
    ledger_lines,
    log_lines,
    options_lines,
    outcome_lines,
    prompt_title,
    seat_rows,
    turn_line,
)


class _Quit(Exception):
    """The player asked to stop (or the input ended)."""


class PlainTable:
    """The text table: reads answers from ``inp``, writes everything to ``out``."""

    def __init__(self, game: Game, catalog: Catalog, inp: TextIO, out: TextIO, store: Store,
                 export: bool = False) -> None:
        self.game, self.catalog, self.inp, self.out = game, catalog, inp, out
        self.store, self.export = store, export
        self.t = catalog.t
        self._printed = 0
        self._last_human: int | None = None

    def say(self, line: str = "") -> None:
        """Write one line."""
        self.out.write(line + "\n")
        self.out.flush()

    def ask(self) -> str:
        """Read one answer; the end of the input stops the game."""
        line = self.inp.readline()
        if not line:
            raise _Quit
        return line.strip()

    # -- the loop ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the session ends or the player quits; the exit status."""
        game = self.game
        self.say(self.t("game_title"))
        if not game.session.deals:
            for line in cut_lines(game, self.catalog):
                self.say(line)
        try:
            while not game.session.over:
                state = game.state or game.start_deal()
                self._play_deal(state)
                self._settle()
        except (_Quit, KeyboardInterrupt):
            self.say()
            self.say(self._save())
            return 0
        for line in outcome_lines(game, self.catalog):
            self.say(line)
        return 0

    def _save(self) -> str:
        """Save the session: where, and how to resume (or why it could not be saved)."""
        try:
            path = self.store.save(self.game)
        except SaveError as e:
            return self.t("save_failed", reason=e.words(self.catalog))
        return self.store.saved_words(path, self.catalog)

    def _viewer(self, seat: int | None = None) -> int | None:
        humans = self.game.humans
        if seat is not None:
            return seat
        return humans[0] if len(humans) == 1 else None

    def _log(self, state: State, seat: int | None = None) -> None:
        lines = log_lines(state.view(self._viewer(seat)), self.game.names, self.catalog,
                          self.game.session.deal_number)
        for line in lines[self._printed:]:
            self.say(line)
        self._printed = len(lines)

    def _play_deal(self, state: State) -> None:
        self._printed = 0
        while True:
            state = self.game.state or state
            self._log(state)
            event = self.game.advance()
            if event is None:
                return
            if isinstance(event, Prompt):
                self._prompt(event)

    def _settle(self) -> None:
        game, t = self.game, self.t
        result = game.finish_deal()
        deal = game.last_deal
        assert deal is not None
        self._log(deal)
        self.say()
        for line in explain_settlement(game.rules, result, deal.dealer, game.names,
                                       game.session.balances, self.catalog):
            self.say(line)
        self.say(t("ledger_title"))
        for line in ledger_lines(game, self.catalog):
            self.say("  " + line)
        try:
            if self.export:
                self.say(t("exported_to", path=str(self.store.export(game, deal))))
            if game.session.over:
                self.say(t("session_closed", path=str(self.store.close(game))))
            else:
                self.store.save(game)
        except SaveError as e:
            self.say(t("save_failed", reason=e.words(self.catalog)))
        if not game.session.over:
            for line in outcome_lines(game, self.catalog):
                self.say(line)
            self.say(t("plain_next_deal"))
            answer = self.ask()
            if answer.lower() == "q":
                raise _Quit

    # -- a person's decision -------------------------------------------------------------

    def _show_table(self, state: State, seat: int) -> None:
        game, t = self.game, self.t
        view = state.view(seat)
        self.say(turn_line(view, game.names, self.catalog, game.session.deal_number,
                           len(game.session.schedule)))
        for row in seat_rows(view, game.names, self.catalog):
            self.say(t("plain_seat", name=row.name,
                       marks=f" ({row.marks})" if row.marks else "", hand=row.hand,
                       won=row.won, status=row.status, balance=row.balance))
        self.say(t("plain_table", cards=groups_text(view.table) or t("empty")))
        self.say(t("plain_hand", cards=groups_text(view.hand) or t("empty")))

    def _prompt(self, prompt: Prompt) -> None:
        game, t = self.game, self.t
        state = game.state
        assert state is not None
        if len(game.humans) > 1 and prompt.seat != self._last_human:
            self.say(t("pass_to", name=game.names[prompt.seat]))
            self.say(t("plain_press_enter"))
            self.ask()
        self._last_human = prompt.seat
        self._log(state, prompt.seat)
        self._show_table(state, prompt.seat)
        menu = choices(prompt, state, self.catalog)
        while True:
            self.say(prompt_title(prompt, game.names, self.catalog))
            answer = self._numbered([c.label for c in menu], commands=True)
            if isinstance(answer, str):
                if self._command(answer, state, prompt, menu):
                    return
                continue
            choice = menu[answer]
            if choice.action is None:
                game.decline(prompt)
            elif self._confirmed(choice, menu):
                self._do(prompt, choice.action)
            else:
                continue
            return

    def _confirmed(self, choice: Choice, menu: Sequence[Choice]) -> bool:
        """Whether the choice stands: a lie-down is asked again, "1" always lies down
        when nothing else is possible and goes back when a claim could come first."""
        t = self.t
        if not choice.confirm:
            return True
        forced = all(c.confirm for c in menu if c.action is not None)
        self.say(t("confirm_lie_down"))
        answers = [t("yes_lie_down"), t("no_go_back")] if forced else [t("no_go_back"), t("yes_lie_down")]
        return self._numbered(answers) == (0 if forced else 1)

    def _do(self, prompt: Prompt, action: Action) -> Operation:
        op = self.game.act(prompt, action)
        return op

    def _numbered(self, labels: Sequence[str], commands: bool = False) -> int | str:
        for i, label in enumerate(labels, start=1):
            self.say(f"{i:>3}. {label}")
        if commands:
            self.say(self.t("plain_commands"))
        while True:
            answer = self.ask()
            if answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            if answer.lower() == "q":
                raise _Quit
            if commands and answer.lower() in ("h", "u", "s", "?"):
                return answer.lower()
            self.say(self.t("plain_bad_answer", count=len(labels)))

    def _command(self, key: str, state: State, prompt: Prompt, menu: Sequence[Choice]) -> bool:
        """A letter command; True when the prompt is over (after undo)."""
        game, t = self.game, self.t
        actions: dict[str, Callable[[], bool]] = {
            "h": lambda: self._print(self._hint(state, prompt, menu)),
            "s": lambda: self._print(self._save()),
            "?": lambda: self._help(),
        }
        if key == "u":
            if game.undo():
                self.say(t("undone"))
                current = game.state
                assert current is not None
                self._printed = len(log_lines(current.view(None), game.names, self.catalog, 0))
                return True
            self.say(t("undo_not_allowed") if not game.undo_allowed else t("undo_nothing"))
            return False
        return actions[key]()

    def _hint(self, state: State, prompt: Prompt, menu: Sequence[Choice]) -> str:
        hint = advise(state, prompt, menu, self.catalog)
        if hint.index is None:
            return hint.text
        return self.t("plain_hint", number=hint.index + 1, text=hint.text)

    def _print(self, line: str) -> bool:
        self.say(line)
        return False

    def _help(self) -> bool:
        for key in HELP_KEYS:
            self.say(self.t(key))
        for line in options_lines(self.game.rules, self.catalog):
            self.say("  " + line)
        self.say(self.t("help_more", path=RULES_DOC))
        return False


#: The project's rules document, every option and preset (the ``?`` help links it).
RULES_DOC = "docs/rules.md"

#: The rules for a first-time player, paragraph by paragraph (catalog keys).
HELP_KEYS = ("help_title", "help_goal", "help_deal", "help_capture", "help_claims",
             "help_lie_down", "help_end", "help_session", "help_options")


def run_plain(game: Game, catalog: Catalog, inp: TextIO, out: TextIO, save_dir: Path,
              export: bool = False) -> int:
    """Play ``game`` on text streams; the exit status."""
    return PlainTable(game, catalog, inp, out, Store(save_dir), export).run()
