"""``lald play --plain``: the whole session as lines of text and numbered choices on
standard input, for screen readers, pipes and scripts.

Every question is answered by a number (``1`` is always a valid answer) or a letter
command: ``h`` hint, ``u`` undo, ``s`` save, ``?`` help, ``q`` save and quit.  After each
deal's settlement, ``r`` prints the expert's review of one's play.

Given a :class:`~lald.tui.lesson.LessonGame` (``lald play --learn --plain``), the table
plays the lesson: its notes as ``Lesson:`` lines when they come, the lesson's move marked
in the menu, any other answer refused with the move to make; then, if the learner wants,
``after_lesson`` with hints on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from ...coach.review import DEFAULT_WORLDS, Review, review_deal
from ...coach.words import review_lines
from ...core import Action, Operation, State
from ...i18n import Catalog
from ...narrate import explain_settlement
from ..game import Game, Prompt, TableSettings
from ..hints import advise
from ..lesson import DO, NEXT, LessonGame
from ..store import SaveError, Store
from ..words import (
    HELP_KEYS,
    RULES_DOC,
    Choice,
    answer_words,
    choices,
    cut_lines,
    groups_text,
    ledger_lines,
    lesson_menu,
    log_lines,
    note_text,
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
                 export: bool = False, *, hints: bool = False,
                 review_worlds: int = DEFAULT_WORLDS) -> None:
        self.game, self.catalog, self.inp, self.out = game, catalog, inp, out
        self.store, self.export = store, export
        self.hints, self.review_worlds = hints, review_worlds
        self.t = catalog.t
        self._printed = 0
        self._last_human: int | None = None
        self.lesson = game if isinstance(game, LessonGame) else None
        self.go_on = False
        """After the lesson: the learner asked for the normal deal."""
        self._move_words: str | None = None
        """The lesson's move now, in words."""
        self.reviews: dict[tuple[int, int], Review] = {}

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
        self.say(self.t("lesson_title") if self.lesson is not None else self.t("game_title"))
        if not game.session.deals:
            for line in cut_lines(game, self.catalog):
                self.say(line)
        if self.hints and self.lesson is None:
            self.say(self.t("hints_on"))
        try:
            while not game.session.over:
                state = game.state or game.start_deal()
                self._play_deal(state)
                self._settle()
        except (_Quit, KeyboardInterrupt):
            self.say()
            self.say(self.t("lesson_left") if self.lesson is not None else self._save())
            return 0
        if self.lesson is None:
            for line in outcome_lines(game, self.catalog):
                self.say(line)
        return 0

    def _save(self) -> str:
        """Save the session: where, and how to resume (or why it could not be saved; the
        lesson is never saved)."""
        if self.lesson is not None:
            return self.t("lesson_not_saved")
        try:
            path = self._keep(self.game)
        except SaveError as e:
            return self.t("save_failed", reason=e.words(self.catalog))
        return self.store.saved_words(path, self.catalog)

    def _keep(self, game: Game) -> Path:
        """Save ``game`` with the table's language and hints, so that it resumes in them."""
        game.settings = TableSettings(self.catalog.lang, self.hints)
        return self.store.save(game)

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
            if self.lesson is not None:
                self._lesson_news(state)
            event = self.game.advance()
            if event is None:
                return
            if isinstance(event, Prompt):
                self._prompt(event)

    # -- the lesson ---------------------------------------------------------------------

    def _note(self, text: str) -> None:
        self.say(self.t("plain_lesson_note", text=text))

    def _lesson_news(self, state: State) -> None:
        """Say the lesson's notes of this moment; wait for Enter when they are for reading
        while another seat is to move."""
        lesson = self.lesson
        assert lesson is not None
        notes = lesson.news()
        if not notes or state.over:  # the settlement's notes go with the settlement
            return
        for note in notes:
            text = note_text(note, state, lesson.names, self.catalog)
            if note.key == DO:
                self._move_words = text
            self._note(text)
        if lesson.waits(notes):
            self.say(self.t("plain_lesson_go_on"))
            if self.ask().lower() == "q":
                raise _Quit

    def _settle_lesson(self) -> None:
        """The lesson's settlement, explained; then the offer of a normal deal."""
        game, t = self.game, self.t
        assert isinstance(game, LessonGame)
        result = game.finish_deal()
        deal = game.last_deal
        assert deal is not None
        self._log(deal)
        self.say()
        notes = game.lesson.notes(deal)
        for note in notes:
            if note.key != NEXT:
                self._note(note_text(note, deal, game.names, self.catalog))
        for line in explain_settlement(game.rules, result, deal.dealer, game.names,
                                       game.session.balances, self.catalog):
            self.say(line)
        for note in notes:
            if note.key == NEXT:
                self._note(note_text(note, deal, game.names, self.catalog))
        self.say(t("plain_lesson_next"))
        if self.ask().lower() == "q":
            raise _Quit
        self.go_on = True

    # -- after a deal ---------------------------------------------------------------------

    def _settle(self) -> None:
        if self.lesson is not None:
            self._settle_lesson()
            return
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
                self._keep(game)
        except SaveError as e:
            self.say(t("save_failed", reason=e.words(self.catalog)))
        if not game.session.over:
            for line in outcome_lines(game, self.catalog):
                self.say(line)
        if not game.humans:
            if not game.session.over:
                self.say(t("plain_next_deal"))
                if self.ask().lower() == "q":
                    raise _Quit
            return
        while True:
            self.say(t("plain_after_session" if game.session.over else "plain_after_deal"))
            try:
                answer = self.ask().lower()
            except _Quit:
                if game.session.over:  # the input ended: the session is over and kept
                    return
                raise
            if answer == "r":
                self._review(deal)
            elif answer == "q" and not game.session.over:
                raise _Quit
            elif answer == "":
                return
            else:  # (a stray letter used to start the next deal)
                self.say(t("plain_not_an_answer"))

    def _review(self, deal: State) -> None:
        """The expert's review of a person's play in ``deal`` (whose, asked when several
        people play)."""
        game, t = self.game, self.t
        humans = game.humans
        seat = humans[0]
        if len(humans) > 1:
            self.say(t("plain_review_whose"))
            seat = humans[self._pick([game.names[s] for s in humans])]
        key = (game.session.deals.index(deal), seat)
        review = self.reviews.get(key)
        if review is None:
            def progress(done: int, total: int) -> None:
                if done == 0:
                    self.say(t("plain_review_start", name=game.names[seat], total=total))

            review = self.reviews[key] = review_deal(deal, seat, worlds=self.review_worlds,
                                                     progress=progress)
        self.say()
        for line in review_lines(review, self.catalog, game.names):
            self.say(line)
        self.say()

    def _pick(self, labels: Sequence[str]) -> int:
        """A numbered question with no commands: the index chosen."""
        answer = self._numbered(labels)
        assert isinstance(answer, int)
        return answer

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
        labels = [c.label for c in menu]
        if self.lesson is not None:
            menu, index = lesson_menu(menu, self.lesson.expected(), state)
            if index is not None:
                labels[index] += "  ◀ " + t("lesson_mark")
        elif self.hints:
            self.say(self._hint(state, prompt, menu))
        while True:
            self.say(prompt_title(prompt, game.names, self.catalog, state))
            answer = self._numbered(labels, commands=True)
            if isinstance(answer, str):
                if self._command(answer, state, prompt, menu):
                    return
                continue
            choice = menu[answer]
            refusal = game.refusal(choice.action)
            if refusal is not None:
                self._note(note_text(refusal, state, game.names, self.catalog))
                continue
            if choice.action is None:
                game.decline(prompt)
            elif self._confirmed(choice, menu):
                self._do(prompt, choice.action)
            else:
                continue
            return

    def _confirmed(self, choice: Choice, menu: Sequence[Choice]) -> bool:
        """Whether the choice stands: a lie-down is asked again, "1" always lies down
        when nothing else is possible and goes back when a claim could come first; a yes
        or a no in words (``y``, ``n``, the language's own: ``j`` in German) answers too."""
        t = self.t
        if not choice.confirm:
            return True
        forced = all(c.confirm for c in menu if c.action is not None)
        self.say(t("confirm_lie_down"))
        answers = [t("yes_lie_down"), t("no_go_back")] if forced else [t("no_go_back"), t("yes_lie_down")]
        answer = self._numbered(answers, yes_no=answer_words(self.catalog))
        if isinstance(answer, bool):
            return answer
        return answer == (0 if forced else 1)

    def _do(self, prompt: Prompt, action: Action) -> Operation:
        self._move_words = None
        op = self.game.act(prompt, action)
        return op

    def _numbered(self, labels: Sequence[str], commands: bool = False,
                  yes_no: tuple[frozenset[str], frozenset[str]] | None = None) -> int | str | bool:
        """The index of the label answered by its number; a letter command (``commands``);
        or True or False for a word of ``yes_no`` (the yes words, the no words)."""
        for i, label in enumerate(labels, start=1):
            self.say(f"{i:>3}. {label}")
        if commands:
            self.say(self.t("plain_lesson_commands" if self.lesson is not None else "plain_commands"))
        while True:
            answer = self.ask()
            if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= len(labels):
                return int(answer) - 1
            if yes_no is not None and answer.casefold() in yes_no[0] | yes_no[1]:
                return answer.casefold() in yes_no[0]
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
        if self.lesson is not None and key in ("h", "u"):
            self.say((self._move_words or "") if key == "h" else t("lesson_no_undo"))
            return False
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


def run_plain(game: Game, catalog: Catalog, inp: TextIO, out: TextIO, save_dir: Path | Store,
              export: bool = False, *, hints: bool = False, after_lesson: Game | None = None,
              review_worlds: int = DEFAULT_WORLDS) -> int:
    """Play ``game`` on text streams, saving in ``save_dir`` (a folder, or a store); the
    exit status.  After a lesson the learner asked to go on from, ``after_lesson`` is
    played with hints on."""
    store = save_dir if isinstance(save_dir, Store) else Store(save_dir)
    table = PlainTable(game, catalog, inp, out, store, export, hints=hints,
                       review_worlds=review_worlds)
    status = table.run()
    if table.go_on and after_lesson is not None:
        return PlainTable(after_lesson, catalog, inp, out, store, export, hints=True,
                          review_worlds=review_worlds).run()
    return status
