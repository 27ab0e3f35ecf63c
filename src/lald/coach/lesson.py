"""The teaching deal: a prepared layout in which a newcomer meets each rule once.

The learner sits in seat 0, the eldest hand, against four seats that play a fixed script.
Step by step the learner sets a prial aside, makes a single capture, claims a spotted pair
out of turn, watches another seat lie down, sweeps three cards with one (told that a pair on
a pair comes next turn), takes a pair with a pair (told so on that turn), has to lie down
(and is told so once it has: the others play on), watches a seat lay a dead rank into its
won pile out of turn (where the word mournival is met) and so run out of cards while two
others play on, and sees the settlement. Each rule is explained (a
:class:`Note`, a catalog key the faces translate) when it first becomes possible for the
learner, and each moment of another seat's worth reading when it comes.

The deal is an ordinary record replayed by the engine, so every step is checked by the
rules; :class:`Lesson` only says which action comes next and what to tell the learner.
The faces drive it with their usual turn loop (:func:`lald.play.loop.step` offers claims in
the engine's claim order, then the turn): the other seats are :class:`ScriptedBot` s, and
an action of the learner's other than the script's is refused with :meth:`Lesson.refusal`.

>>> lesson = Lesson()
>>> state = lesson.start()
>>> [n.key for n in lesson.notes(state)]
['lesson_welcome', 'lesson_single', 'lesson_hand_set', 'lesson_do']
>>> str(lesson.expected(state))
'0: claim KS KH'
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from ..bots import Bot
from ..core import (
    Action,
    Capture,
    Card,
    Claim,
    LaidDown,
    LieDown,
    Operation,
    PlayerView,
    Rules,
    State,
    Trail,
    mask_of,
)
from ..core.actions import TURN_ACTIONS, DealEnded, TableMournival
from ..record import Record

LEARNER = 0

#: The deal, in lald's text notation: survivor rules, five players, seat 4 deals.
SCRIPT = """\
[Format "lald-text/1"]
[Preset "survivor"]
[Players "5"]
[Dealer "4"]
[Hand0 "KS KH KD 5S 9S 7S 7H 2S"]
[Hand1 "QS 2D 2H 2C 8S 6C 8H TH"]
[Hand2 "9H 9D 9C 7D 7C 4D JS JH"]
[Hand3 "3H JD TD 6H 4S 5C 4H 3S"]
[Hand4 "KC 6S 5D 8C AS 4C JC 3C"]
[Table "5H QH QD QC AH TC 8D TS AC 3D 6D AD"]

0: claim KS KH
0: 5S x 5H
1: QS x QH
0: claim QD QC
2: lie down
3: 3H x 3D
4: AS x AH AD AC
0: 9S x 9H 9D 9C
1: 6C x 6D
3: 4H x 4D
4: 8C x 8D
0: 7S 7H x 7D 7C
1: TH x TC
3: JD x JH
4: JC x JS
0: lie down
1: 2D x 2S
1: claim 2H 2C
1: claim 8S 8H
3: TD x TS
4: KC x KD
3: lie down
"""


@dataclasses.dataclass(frozen=True, slots=True)
class Note:
    """Something to tell the learner: a catalog ``key``, with the seat and cards it
    names (the faces put in names and card faces)."""

    key: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    action: Action | None = None
    """The move the note asks for (``lesson_do``, ``lesson_try``), for the face to word."""


#: What to say before the action of that number: the learner's decisions, where a rule
#: first becomes possible, and the moment after another seat lay down. Each key names the
#: seat and cards of the script's action of the number beside it.
_BEFORE: dict[int, tuple[tuple[str, int], ...]] = {
    0: (("lesson_welcome", 0), ("lesson_single", 1), ("lesson_hand_set", 0)),
    3: (("lesson_spotter", 3),),
    5: (("lesson_lay_down_seen", 4),),
    7: (("lesson_sweep", 7), ("lesson_pair_later", 11)),
    11: (("lesson_pair", 11),),
    15: (("lesson_lie_down", 15),),
    16: (("lesson_lain_down", 15),),
    17: (("lesson_dead_seen", 17),),
    19: (("lesson_out_of_cards", 18),),
}
_END = ("lesson_settlement", "lesson_next")


def _actions_done(history: Sequence[Operation]) -> int:
    return sum(1 for op in history if not isinstance(op, TableMournival | DealEnded))


class Lesson:
    """The teaching deal: its rules, its script, and what to tell the learner when."""

    def __init__(self) -> None:
        self.record = Record.from_text(SCRIPT)
        self.rules: Rules = self.record.rules
        self.script: tuple[Action, ...] = self.record.actions
        self.learner = LEARNER

    def start(self) -> State:
        """The deal as dealt."""
        return self.record.start()

    def next_action(self, state: State) -> Action | None:
        """The script's next action, whoever makes it (None once the script is done)."""
        done = len(state.actions)
        return self.script[done] if done < len(self.script) else None

    def expected(self, state: State) -> Action | None:
        """The action the learner is to make now, or None if another seat acts next."""
        action = self.next_action(state)
        return action if action is not None and action.seat == self.learner else None

    def refusal(self, state: State, action: Action) -> Note | None:
        """None if ``action`` is the learner's next step; else a note naming that step."""
        want = self.expected(state)
        if want is not None and _same(action, want):
            return None
        if want is None:
            return Note("lesson_wait")
        return Note("lesson_try", want.seat, _cards(want), want)

    def notes(self, state: State) -> list[Note]:
        """What to tell the learner now, before the action about to be made, ending with
        ``lesson_do`` (the learner's next step) when it is theirs; once the deal is over,
        the settlement and what comes next."""
        if state.over:
            return [Note(key, self.learner) for key in _END]
        out = []
        for key, number in _BEFORE.get(len(state.actions), ()):
            action = self.script[number]
            cards = _cards(action)
            if isinstance(action, LieDown) and number < len(state.actions):
                cards = next(op.cards for op in state.history
                             if isinstance(op, LaidDown) and op.seat == action.seat)
            out.append(Note(key, action.seat, cards))
        want = self.expected(state)
        if want is not None:
            out.append(Note("lesson_do", want.seat, _cards(want), want))
        return out

    def bots(self) -> dict[int, Bot]:
        """The scripted players of every seat but the learner's."""
        return {s: ScriptedBot(s, self.rules, random.Random(s), self.script)
                for s in range(self.rules.players) if s != self.learner}


class ScriptedBot(Bot):
    """Plays its seat's actions of a script, in the script's order: a claim when the
    script's next action is this seat's claim, its turn action when the turn comes."""

    name = "lesson"

    def __init__(self, seat: int, rules: Rules, rng: random.Random,
                 script: Sequence[Action] = ()) -> None:
        super().__init__(seat, rules, rng)
        self.script = tuple(script)

    def _next(self, view: PlayerView) -> Action | None:
        done = _actions_done(view.history)
        action = self.script[done] if done < len(self.script) else None
        return action if action is not None and action.seat == self.seat else None

    def act(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        action = self._next(view)
        if action is None or not isinstance(action, TURN_ACTIONS):
            raise RuntimeError(f"the lesson's script has no turn action for seat {self.seat} now")
        return next(a for a in legal if _same(a, action))

    def claim(self, view: PlayerView, claims: Sequence[Claim]) -> Claim | None:
        action = self._next(view)
        if not isinstance(action, Claim):
            return None
        return next((c for c in claims if _same(c, action)), None)


def _cards(action: Action) -> tuple[Card, ...]:
    if isinstance(action, Claim):
        return action.cards
    if isinstance(action, Capture):
        return (*action.play, *action.take)
    if isinstance(action, Trail):
        return (action.card,)
    return ()


def _same(a: Action, b: Action) -> bool:
    """The same action, whatever the order its cards were named in."""
    if isinstance(a, Capture) and isinstance(b, Capture):
        return a.seat == b.seat and mask_of(a.play) == mask_of(b.play) and mask_of(a.take) == mask_of(b.take)
    return type(a) is type(b) and a.seat == b.seat and mask_of(_cards(a)) == mask_of(_cards(b))
