"""The guided first deal at the table: :mod:`lald.coach.lesson`'s teaching deal, played
through the table's own driver.

:class:`LessonGame` is a :class:`~lald.tui.game.Game` of one deal: the lesson's layout,
the learner in seat 0 and :class:`~lald.coach.lesson.ScriptedBot` s in the others, so the
turn loop (claims in the engine's claim order, then the turn) keeps the script's order.
A choice of the learner's other than the lesson's is refused (:meth:`LessonGame.refusal`)
and changes nothing.  :meth:`LessonGame.news` hands each moment's notes to the face once;
the face words them (:func:`lald.tui.words.note_text`).

The lesson is never saved: it is no session to resume, and ``lald play --learn`` starts
it again.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..coach.lesson import Lesson, Note
from ..core import Action, Capture, Card, Claim, Session, State, mask_of
from .game import HUMAN, Game, SeatSpec

#: The seat kind of the lesson's scripted players.
SCRIPTED = "lesson"

#: The notes that say what the learner is to do now (the rest explain a rule or a moment).
DO = "lesson_do"

#: The note shown before the table, on its own screen.
WELCOME = "lesson_welcome"

#: The last note, which offers a normal deal: it goes with the settlement.
NEXT = "lesson_next"


class LessonGame(Game):
    """The lesson at the table: one prepared deal; only the lesson's moves are made."""

    PLAYERS = 5
    """The lesson's players (its names are given before the lesson is built)."""

    def __init__(self, names: Sequence[str]) -> None:
        lesson = Lesson()
        assert lesson.rules.players == self.PLAYERS
        start = lesson.start()
        session = Session(lesson.rules, seed=0)
        # one deal, dealt by the script's dealer: no cut for the first dealer
        session.first_dealer, session.cut, session.schedule = start.dealer, (), [start.dealer]
        seats = [SeatSpec(HUMAN if s == lesson.learner else SCRIPTED, names[s])
                 for s in range(lesson.rules.players)]
        super().__init__(session, seats, bots=lesson.bots())
        self.lesson = lesson
        self._told: set[int] = set()
        self._explained: list[Note] = []

    @property
    def learner(self) -> int:
        """The learner's seat."""
        return self.lesson.learner

    @property
    def undo_allowed(self) -> bool:
        """Nothing to undo: only the lesson's moves are made."""
        return False

    def start_deal(self) -> State:
        """The lesson's deal, as prepared."""
        if self.session.deals:
            raise ValueError("the lesson has one deal")
        self._reset()
        state = self.lesson.start()
        self.session.current = state
        self.session.deals.append(state)
        return state

    def expected(self) -> Action | None:
        """The learner's move now, or None when another seat moves next."""
        state = self.state
        return None if state is None else self.lesson.expected(state)

    def refusal(self, action: Action | None) -> Note | None:
        """None if ``action`` is the lesson's next move; else the note that names it.
        ``None`` (letting claims pass) is refused when the lesson's move is a claim."""
        state = self.state
        if state is None:
            return None
        if action is not None:
            return self.lesson.refusal(state, action)
        want = self.lesson.expected(state)
        return None if want is None else Note("lesson_try", want.seat, (), want)

    def news(self) -> list[Note]:
        """The notes of this moment (:meth:`lald.coach.lesson.Lesson.notes`), the first time
        they are asked for; an empty list after that."""
        state = self.state or self.last_deal
        if state is None:
            return []
        moment = len(state.actions)
        if moment in self._told:
            return []
        self._told.add(moment)
        notes = self.lesson.notes(state)
        explained = [n for n in notes if n.key not in (DO, WELCOME, NEXT)]
        if explained:
            self._explained = explained
        return notes

    def standing(self) -> list[Note]:
        """The explanations that still hold: those of the latest moment that had some,
        less those whose move the learner has made since ("set aside K♠ K♥ now" is done
        once they are set aside)."""
        state = self.state or self.last_deal
        if state is None:
            return []
        made = {mask_of(_cards(a)) for a in state.actions if a.seat == self.learner}
        return [n for n in self._explained if not n.cards or mask_of(n.cards) not in made]

    def waits(self, notes: Sequence[Note]) -> bool:
        """Whether play stops for the learner to read ``notes``: they explain something at
        a moment when another seat moves next (the learner's own moments wait for the
        learner's move anyway)."""
        state = self.state
        return (state is not None and not state.over and self.expected() is None
                and any(n.key not in (DO, WELCOME) for n in notes))


def _cards(action: Action) -> tuple[Card, ...]:
    """The cards an action names (a claim's; a capture's played and taken)."""
    if isinstance(action, Claim):
        return action.cards
    if isinstance(action, Capture):
        return (*action.play, *action.take)
    return ()
