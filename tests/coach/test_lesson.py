"""The teaching deal: a legal deal in which the learner meets every rule, each explained
when it first becomes possible."""

from __future__ import annotations

import random
from collections.abc import Sequence

from lald.bots import Bot
from lald.coach.lesson import LEARNER, Lesson, Note, ScriptedBot
from lald.core import (
    Action,
    Capture,
    CaptureKind,
    Claim,
    Claimed,
    ClaimKind,
    LaidDown,
    LieDown,
    PlayerView,
    State,
    Status,
)
from lald.i18n import LANGUAGES, Catalog
from lald.play.loop import step

#: The note that explains each kind of move, for the learner.
EXPLAINS = {
    CaptureKind.SINGLE: "lesson_single", CaptureKind.SWEEP: "lesson_sweep",
    CaptureKind.PAIR: "lesson_pair_later", ClaimKind.HAND_SET: "lesson_hand_set",
    ClaimKind.SPOTTER: "lesson_spotter", "lie_down": "lesson_lie_down",
}


def _kind(state: State, action: Action) -> object:
    if isinstance(action, Capture):
        return action.kind
    if isinstance(action, LieDown):
        return "lie_down"
    op = state.clone().apply(action)
    assert isinstance(op, Claimed)
    return op.kind


def _open_to_learner(state: State) -> set[object]:
    return {_kind(state, a) for a in state.legal_actions(LEARNER)}


def test_lesson_is_a_whole_deal_the_engine_accepts() -> None:
    lesson = Lesson()
    state = lesson.record.replay()
    assert state.over and state.result is not None
    assert len(state.actions) == len(lesson.script)
    assert state.result.chips[LEARNER] > 0, "the learner should end the lesson in profit"


def test_lesson_learner_meets_every_rule() -> None:
    lesson = Lesson()
    state = lesson.start()
    made: list[object] = []
    out_of_turn = False
    for action in lesson.script:
        if action.seat == LEARNER:
            made.append(_kind(state, action))
            out_of_turn |= isinstance(action, Claim) and state.to_move != LEARNER
        state.apply(action)
    assert set(made) >= {CaptureKind.SINGLE, CaptureKind.SWEEP, CaptureKind.PAIR,
                         ClaimKind.HAND_SET, ClaimKind.SPOTTER, "lie_down"}
    assert out_of_turn, "the learner claims out of turn"


def test_lesson_explains_each_rule_when_it_first_becomes_possible() -> None:
    lesson = Lesson()
    state = lesson.start()
    first: dict[object, int] = {}
    said: dict[str, int] = {}
    for number, action in enumerate(lesson.script):
        for kind in _open_to_learner(state):
            first.setdefault(kind, number)
        for note in lesson.notes(state):
            said.setdefault(note.key, number)
        # The learner is offered no claim but the lesson's next step, which is the
        # engine's first (canonical) choice of cards for it.
        claims = state.claims(LEARNER)
        if claims:
            assert lesson.refusal(state, claims[0]) is None, (number, claims)
            assert {c.cards[0].rank for c in claims} == {claims[0].cards[0].rank}
        state.apply(action)
    assert set(first) == set(EXPLAINS)
    for kind, number in first.items():
        assert said.get(EXPLAINS[kind]) == number, (kind, number, said)
    assert [n.key for n in lesson.notes(state)] == ["lesson_settlement", "lesson_next"]


def test_lesson_says_what_to_do_at_each_of_the_learners_steps() -> None:
    lesson = Lesson()
    state = lesson.start()
    for action in lesson.script:
        dos = [n for n in lesson.notes(state) if n.key == "lesson_do"]
        if action.seat == LEARNER:
            assert len(dos) == 1 and lesson.expected(state) == action
        else:
            assert not dos and lesson.expected(state) is None
        state.apply(action)


class _Learner(Bot):
    """A learner who does as the lesson says, through the refusals only."""

    def __init__(self, lesson: Lesson, state: State) -> None:
        super().__init__(LEARNER, lesson.rules, random.Random(0))
        self.lesson, self.state = lesson, state

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return next(a for a in legal if self.lesson.refusal(self.state, a) is None)

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        return next((c for c in claims if self.lesson.refusal(self.state, c) is None), None)


def test_lesson_plays_through_the_turn_loop_with_scripted_seats() -> None:
    lesson = Lesson()
    state = lesson.start()
    seats = lesson.bots()
    assert sorted(seats) == [1, 2, 3, 4] and all(isinstance(b, ScriptedBot) for b in seats.values())
    bots = [_Learner(lesson, state), *(seats[s] for s in range(1, 5))]
    while not state.over:
        step(state, bots)
    assert tuple(state.actions) == lesson.script


def test_lesson_refuses_other_moves_and_names_the_step() -> None:
    lesson = Lesson()
    state = lesson.start()
    capture = next(a for a in state.turn_actions() if isinstance(a, Capture))
    note = lesson.refusal(state, capture)
    assert note is not None and note.key == "lesson_try"
    assert sorted(map(str, note.cards)) == ["KH", "KS"]
    assert lesson.refusal(state, Claim(LEARNER, tuple(reversed(note.cards)))) is None
    state.apply(lesson.script[0])
    state.apply(lesson.script[1])
    wait = lesson.refusal(state, LieDown(LEARNER))
    assert wait is not None and wait.key == "lesson_wait"


def test_lesson_teaches_dead_ranks_out_of_cards_and_the_mournival() -> None:
    """The lesson never taught dead-rank claims (offered in the first real deal), a seat
    out of cards, or the word mournival: now the learner sees a dead-rank claim made, with
    a note before it; a seat run out of cards while others play on, with a note; and reads
    the word in a note, in every language."""
    lesson = Lesson()
    state = lesson.start()
    dead = empty = None
    said: dict[str, int] = {}
    for number, action in enumerate(lesson.script):
        for note in lesson.notes(state):
            said.setdefault(note.key, number)
        if isinstance(action, Claim) and dead is None:
            op = state.clone().apply(action)
            assert isinstance(op, Claimed)
            if op.kind is ClaimKind.DEAD:
                dead = number
                assert action.seat != LEARNER and state.to_move != action.seat  # out of turn
        state.apply(action)
        emptied = [s for s in range(state.n) if state.status(s) is Status.EMPTY]
        if emptied and empty is None:
            empty = number + 1
            holding = [s for s in range(state.n) if state.hand(s)]
            assert len(holding) >= 2 and not state.over, "play goes on without the empty seat"
    assert dead is not None and said.get("lesson_dead_seen") == dead
    assert empty is not None and said.get("lesson_out_of_cards") == empty
    notes = [n.key for number in range(len(lesson.script)) for n in _notes_at(lesson, number)]
    for lang in LANGUAGES:
        catalog = Catalog(lang)
        assert any("mournival" in catalog.t(key, name="", cards="", move="").lower()
                   for key in notes), lang


def test_after_the_learner_lies_down_the_lesson_says_so() -> None:
    """After lying down, the panel still said "...you must lie down" while the others played
    on: the next moment explains that the learner lay down and the others play on."""
    lesson = Lesson()
    state = lesson.start()
    for action in lesson.script:
        state.apply(action)
        if isinstance(action, LieDown) and action.seat == LEARNER:
            keys = [n.key for n in lesson.notes(state)]
            assert keys == ["lesson_lain_down"] and lesson.expected(state) is None
            laid = state.history[-1]
            assert isinstance(laid, LaidDown)
            assert [n.cards for n in lesson.notes(state)] == [laid.cards]
            break
    else:
        raise AssertionError("the learner never lies down")


def _notes_at(lesson: Lesson, number: int) -> list[Note]:
    state = lesson.start()
    for action in lesson.script[:number]:
        state.apply(action)
    return lesson.notes(state)


def test_a_note_for_a_later_turn_is_not_shown_on_that_turn() -> None:
    """The sweep's moment says of the pair on a pair "Keep that for your next turn"; on
    that very turn the lesson still said it (it was the latest explanation, its move not
    yet made). The turn of the pair has a note of its own, which says to take it now."""
    lesson = Lesson()
    state = lesson.start()
    later = None
    for number, action in enumerate(lesson.script):
        keys = [n.key for n in lesson.notes(state)]
        if "lesson_pair_later" in keys:
            later = number
        if isinstance(action, Capture) and action.kind is CaptureKind.PAIR and action.seat == LEARNER:
            assert later is not None and later < number
            assert "lesson_pair" in keys, keys  # this turn explains itself
            for lang in LANGUAGES:
                t = Catalog(lang).t
                assert t("lesson_pair", cards="") != t("lesson_pair_later", cards="")
            break
        state.apply(action)
    else:
        raise AssertionError("the learner never takes a pair with a pair")
