"""The guided first deal at a web table: :mod:`lald.coach.lesson`'s teaching deal, played by
the table's own driver, its notes carried by the learner's frames.

A lesson table seats the learner in seat 0 and :class:`~lald.coach.lesson.ScriptedBot` s
in the others (seat 0 too has one, should the learner hand the seat to its bot). The
driver offers claims in the engine's claim order as :func:`lald.play.loop.step` does, and
acts only when the script's next action is a bot's, so the script holds; no turn timer
and no claim window run. :class:`LessonSession` is a session of that one deal.

:func:`lesson_part` is what the learner's page is told: the explanations that still hold
(those of the latest moment that had some, less those whose move has been made), the
lesson's move in words and which legal action it is, whether play stands still for the
learner to read, and after the deal the settlement's explanation and what comes next.
It matches the terminal's lesson (:mod:`lald.tui.lesson`), its last words included: the
offer is a normal deal against the bots with hints on (:mod:`.hints`).

>>> lesson = Lesson()
>>> part = lesson_part(lesson, lesson.start(), Catalog("en"), default_names(Catalog("en"), 5),
...                    lesson.start().legal_actions(0), held=False)
>>> part["do"]
'Your move: set aside K♠ K♥ from your hand'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...bots import Bot
from ...coach.lesson import Lesson, Note, ScriptedBot
from ...core import Action, Capture, Claim, Session, State, mask_of
from ...i18n import Catalog
from ...narrate import glyphs
from ..wire import action_kinds, action_words

__all__ = ["DO", "LEARNER_KEYS", "Lesson", "LessonSession", "default_names", "held_moment",
           "lesson_bots", "lesson_part", "move_words", "note_words"]

#: The note that says what the learner is to do now.
DO = "lesson_do"
#: The welcome, shown before the first move.
WELCOME = "lesson_welcome"
#: The last words: a normal deal with hints on comes next (at the web table too).
NEXT = "lesson_next"
#: The notes that are not explanations of a rule or a moment.
LEARNER_KEYS = frozenset({DO, WELCOME, NEXT})


class LessonSession(Session):
    """A session of one deal, the lesson's: dealt by the script's dealer (no cut), over
    once that deal is booked (never extra deals for a tie)."""

    def __init__(self, lesson: Lesson) -> None:
        super().__init__(lesson.rules, seed=0)
        self.lesson = lesson
        dealt = lesson.start()
        self.first_dealer, self.cut, self.schedule = dealt.dealer, (), [dealt.dealer]

    def start_deal(self) -> State:
        """The lesson's deal, as prepared."""
        if self.deals:
            raise ValueError("the lesson has one deal")
        state = self.lesson.start()
        self.current = state
        self.deals.append(state)
        return state

    def _decide(self) -> None:
        rows = self.standings()
        best = self._key(rows[0])
        self.over = True
        self.winners = tuple(sorted(r.seat for r in rows if self._key(r) == best))


def lesson_bots(lesson: Lesson) -> list[Bot]:
    """A scripted player for every seat, the learner's included (it plays the learner's
    moves if the learner hands the seat to its bot)."""
    bots = lesson.bots()
    learner = lesson.learner
    bots[learner] = ScriptedBot(learner, lesson.rules, random.Random(learner), lesson.script)
    return [bots[s] for s in range(lesson.rules.players)]


def default_names(catalog: Catalog, players: int) -> list[str]:
    """The catalog's names for the lesson's seats (the terminal's names too)."""
    names = [n.strip() for n in catalog.t("default_names").split(",")]
    return [names[s] if s < len(names) else catalog.t("seat_name", seat=s) for s in range(players)]


def move_words(action: Action, state: State, catalog: Catalog) -> str:
    """A move as the table's buttons word it (the ``act_*`` keys)."""
    return action_words(action, action_kinds(state, [action])[0], state.hand(action.seat), catalog)


def note_words(note: Note, state: State, names: Sequence[str], catalog: Catalog) -> str:
    """A note in words: the seat's name, its cards, the move it asks for."""
    move = move_words(note.action, state, catalog) if note.action is not None else ""
    name = names[note.seat] if note.seat is not None else ""
    return catalog.t(note.key, name=name, cards=glyphs(note.cards), move=move)


def _explained(notes: Sequence[Note]) -> list[Note]:
    return [n for n in notes if n.key not in LEARNER_KEYS]


def standing(lesson: Lesson, state: State) -> list[Note]:
    """The explanations that still hold: those of the latest moment that had some, less
    those whose move the learner has made since (as :meth:`lald.tui.lesson.LessonGame.standing`)."""
    replay = lesson.start()
    latest: list[Note] = []
    for k in range(len(state.actions) + 1):
        notes = lesson.notes(state if k == len(state.actions) else replay)
        latest = _explained(notes) or latest
        if k < len(state.actions):
            replay.apply(state.actions[k])
    made = {mask_of(_cards(a)) for a in state.actions if a.seat == lesson.learner}
    return [n for n in latest if not n.cards or mask_of(n.cards) not in made]


def held_moment(lesson: Lesson, state: State) -> bool:
    """Whether play stands still here for the learner to read: a rule or a moment is
    explained while another seat moves next (the learner's own moments wait for the
    learner's move anyway), as :meth:`lald.tui.lesson.LessonGame.waits` says."""
    return (not state.over and lesson.expected(state) is None
            and any(n.key not in (DO, WELCOME) for n in lesson.notes(state)))


def lesson_part(lesson: Lesson, state: State, catalog: Catalog, names: Sequence[str],
                legal: Sequence[Action], held: bool) -> dict[str, Any]:
    """What the learner's frame says of the lesson, in ``catalog``'s language: the
    welcome (before the first move), the explanations that hold, the lesson's move in
    words and its index in ``legal``, whether play is ``held`` for the learner to read,
    and after the deal its explanation of the settlement and the offer of a normal deal."""
    def words(note: Note) -> str:
        return note_words(note, state, names, catalog)

    notes = lesson.notes(state)
    want = lesson.expected(state)
    index = None
    if want is not None:
        index = next((i for i, a in enumerate(legal) if lesson.refusal(state, a) is None), None)
    return {
        "moment": len(state.actions),
        "welcome": [words(n) for n in notes if n.key == WELCOME],
        "told": [words(n) for n in standing(lesson, state)] if not state.over else [],
        "do": next((words(n) for n in notes if n.key == DO), None),
        "expected": index,
        "held": held,
        "over": state.over,
        "end": ([words(n) for n in notes if n.key not in LEARNER_KEYS] + [catalog.t(NEXT)]
                if state.over else []),
    }


def _cards(action: Action) -> tuple[Any, ...]:
    """The cards an action names (a claim's; a capture's played and taken)."""
    if isinstance(action, Claim):
        return action.cards
    if isinstance(action, Capture):
        return (*action.play, *action.take)
    return ()
