"""A review of one seat's decisions in a finished deal, as a chess site reviews a game.

For every decision the seat made with a real choice (a turn with two or more different
moves, and every claim window it was offered: claim now, or let the claims pass), the
expert (:class:`~lald.bots.expert.ExpertBot`) rates every legal choice: the seat's
expected chips for the deal with a 95% interval, over worlds drawn from what the seat
could know *then*, its :class:`~lald.core.PlayerView` at that moment (through
:func:`lald.bots.knowledge.read` and the expert's own draw), never the hands the record
reveals.  The decision's cost is the best choice's value minus the value of the move made,
per world (common random numbers, so the interval of a difference is narrow), and the
:func:`~lald.coach.reasons.reason` says in words why the best choice was better.

The API is plain data: :func:`review_deal` walks a finished :class:`~lald.core.State`
and returns a :class:`Review`; :func:`review_decision` rates one decision from a view.
Both are deterministic for a given ``seed`` (each decision draws from its own generator,
seeded by ``seed`` and the decision's place in the deal, never by the clock), so the
review of a decision does not depend on the rest of the deal or on hidden cards.
:mod:`lald.coach.words` turns a review into sentences of any catalog language.

How the expert is asked, so that it stays in step with the bot: an
:class:`~lald.bots.expert.ExpertBot` with ``worlds=1`` and no time limit answers
:meth:`~lald.bots.expert.ExpertBot.evaluate` with each choice's value in one world it
draws; asked ``worlds`` times, that gives the per-world values.  Without a time limit, its
exact end-position solve stops only at its node cap, so the answer never depends on the
machine's speed.
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum, unique
from statistics import fmean, stdev

from ..bots.expert import PASS, ExpertBot, Player
from ..bots.knowledge import Knowledge, read
from ..core import (
    Action,
    Claim,
    ClaimWindow,
    PlayerView,
    Rules,
    Scoring,
    State,
    cards_of,
    mask_of,
)
from ..core.codes import code_of
from ..core.fast import FastState
from .reasons import Reason, reason

FORMAT = "lald-review/1"

#: Worlds per decision by default: a standard deal is reviewed in a few seconds on one
#: core (docs/review.md has the measurement).
DEFAULT_WORLDS = 1000

#: Bounds on ``worlds`` that a command accepts.
MAX_WORLDS = 20_000

#: Seconds the expert may think per world: none in effect (see the module's text).
_NO_LIMIT = 1e9

#: Worlds drawn (at most) to find the reason for a choice.
_REASON_WORLDS = 160

Z95 = 1.959963984540054


@unique
class DecisionKind(StrEnum):
    """What the seat was deciding."""

    TURN = "turn"
    """Its turn action: which capture (or trail)."""
    CLAIM = "claim"
    """A claim window: which claim to make now, or to let the claims pass."""


@unique
class Verdict(StrEnum):
    """A decision's grade, by its estimated cost in chips."""

    BEST = "best"
    """The move made is the one the expert rates highest."""
    GOOD = "good"
    """Not the best, but the difference is within the estimate's noise (its interval
    reaches zero) or under a tenth of a chip."""
    INACCURACY = "inaccuracy"
    """Costs under half a chip."""
    MISTAKE = "mistake"
    """Costs half a chip to a chip and a half."""
    BLUNDER = "blunder"
    """Costs a chip and a half or more."""
    FORCED = "forced"
    """The only move: nothing to decide."""


#: The verdicts of a move that measurably cost chips: the summary's costliest are among them.
COSTLY = frozenset({Verdict.INACCURACY, Verdict.MISTAKE, Verdict.BLUNDER})

#: (verdict, the cost from which it applies), costliest first.
_GRADES = ((Verdict.BLUNDER, 1.5), (Verdict.MISTAKE, 0.5), (Verdict.INACCURACY, 0.1))


@dataclasses.dataclass(frozen=True, slots=True)
class Estimate:
    """A mean over sampled worlds and the half-width of its 95% interval."""

    mean: float
    half: float

    @property
    def low(self) -> float:
        """The interval's lower end."""
        return self.mean - self.half

    @property
    def high(self) -> float:
        """The interval's upper end."""
        return self.mean + self.half

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        """The mean of ``values`` and the normal 95% interval of that mean."""
        mean = fmean(values)
        half = Z95 * stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
        return cls(mean, half)

    def to_json(self) -> dict[str, float]:
        """``{"mean", "low", "high"}``, rounded to thousandths."""
        return {"mean": round(self.mean, 3), "low": round(self.low, 3), "high": round(self.high, 3)}


ZERO = Estimate(0.0, 0.0)


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """One choice and the expert's estimate of the seat's chips for the deal after it."""

    action: Action | None
    """An action standing for the choice (every choice of suits plays the same); None
    stands for letting the claims pass."""
    value: Estimate


@dataclasses.dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the seat and what the expert thinks of it."""

    at: int
    """How many of the record's actions came before it (its position in the deal)."""
    kind: DecisionKind
    made: Action | None
    """The action taken; None: the seat let the claims pass."""
    best: Action | None
    """The choice the expert rates highest (None: letting the claims pass)."""
    options: tuple[Option, ...]
    """Every distinct choice, best first (empty for a forced move)."""
    cost: Estimate
    """The best choice's value minus the made move's, per world: chips lost here."""
    verdict: Verdict
    reason: Reason | None
    """Why the best choice was better (None when the move made was the best or forced;
    ``review_why_close`` when the difference is within the estimate's noise)."""

    @property
    def action_index(self) -> int | None:
        """The index in the record of the action made here (None for a pass)."""
        return None if self.made is None else self.at

    @property
    def made_value(self) -> Estimate | None:
        """The estimate of the move made (None for a forced move)."""
        return next((o.value for o in self.options if o.action == self.made), None)


@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """A seat's decisions in one deal and the summary."""

    seat: int
    rules: Rules
    seed: int
    worlds: int
    decisions: tuple[Decision, ...]
    """Every decision in the deal's order, forced turn moves included."""
    lost: Estimate
    """The estimated chips lost over the deal: the sum of the costs (independent
    estimates, so the interval's half-widths add in quadrature)."""
    costliest: tuple[int, ...]
    """Indices into :attr:`decisions` of the (at most) three costliest, costliest first,
    among the moves that measurably cost chips (:data:`COSTLY`)."""
    result: float
    """What the deal gave the seat: its chips, antes included (card-count scoring: its
    share of the win)."""

    @property
    def unit(self) -> str:
        """``chips``, or ``wins`` under card-count scoring (a win's share per deal)."""
        return "wins" if self.rules.scoring is Scoring.CARD_COUNT else "chips"

    @property
    def choices(self) -> list[Decision]:
        """The decisions that had a real choice."""
        return [d for d in self.decisions if d.verdict is not Verdict.FORCED]


Progress = Callable[[int, int], None]
"""Hears ``(decisions done, decisions to do)`` as the review goes."""


# -- walking a finished deal -------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    """A place in the deal where the seat decided: the view it had, what it could do
    (the engine's legal actions), and what it did."""

    at: int
    kind: DecisionKind
    view: PlayerView
    legal: tuple[Action, ...]
    made: Action | None


def start_of(state: State) -> State:
    """The deal of ``state`` as dealt, before any action."""
    return State.from_layout(state.rules, [cards_of(h) for h in state.dealt_hands],
                             cards_of(state.dealt_table), state.dealer, state.pot_before,
                             state.balances_before)


def decision_points(state: State, seat: int) -> Iterator[Point]:
    """Every decision ``seat`` made in the deal of ``state``, replayed from its start.

    A claim window counts where the engine's claim window (:class:`~lald.core.ClaimWindow`,
    docs/rules.md#5-claims) asked the seat: it asks the seats with open claims in claim
    order until the next action, a claim (its claimant asked last) or the turn (every seat
    asked let its claims pass).  A turn counts where the next action is the seat's own turn
    action."""
    replay = start_of(state)
    window = ClaimWindow(replay)
    for at, action in enumerate(state.actions):
        claimant = action.seat if isinstance(action, Claim) else None
        while (ask := window.asking()) is not None:
            asked, claims = ask
            if asked == seat:
                made = action if claimant == seat else None
                yield Point(at, DecisionKind.CLAIM, replay.view(seat), tuple(claims), made)
            if asked == claimant:
                break
            window.let_pass(asked)
        if claimant is None and action.seat == seat:
            yield Point(at, DecisionKind.TURN, replay.view(seat), tuple(window.turn()[1]), action)
        window.apply(action)


# -- rating one decision ----------------------------------------------------------------


class _Remembering(Player):
    """The expert's own player (every setting shared), remembering what each position
    played on is worth: late in a deal the same world is drawn again and again, and its
    exact solve is the costly part.  Playing a position on is deterministic (the
    roll-out's choices, the solve's node cap; no deadline is set), so a remembered value
    is the value the player would compute again."""

    def __init__(self, player: Player) -> None:  # no super().__init__: a copy of ``player``
        self.__dict__.update(vars(player))
        self.known: dict[tuple[object, ...], float] = {}

    def finish(self, fs: FastState, seat: int, skip_claims: bool = False, looks: int | None = None,
               passed: int = -1) -> float:
        """:meth:`Player.finish`, remembered by position."""
        key = (tuple(map(tuple, fs.hc)), tuple(fs.tc), tuple(fs.won), tuple(fs.lain), fs.to_move,
               fs.foreplay, fs.last_capture, fs.last_actor, fs.over, seat, skip_claims, looks, passed)
        value = self.known.get(key)
        if value is None:
            value = self.known[key] = super().finish(fs, seat, skip_claims, looks, passed)
        return value



def decision_seed(seed: int, at: int, kind: DecisionKind) -> int:
    """The seed of one decision's draws: the review's seed and the decision's place."""
    return (seed * 1_000_003 + at) * 2 + (kind is DecisionKind.CLAIM)


def ante(view: PlayerView) -> int:
    """The seat's ante this deal (0 under card-count scoring)."""
    rules = view.rules
    if rules.scoring is Scoring.CARD_COUNT:
        return 0
    return rules.ante_dealer if view.seat == view.dealer else rules.ante_other


#: The seed whose draws the hint weighs (:func:`lald.coach.hints.advise`): the review with
#: this seed (the faces' reviews use it) and :data:`HINT_WORLDS` worlds rates a decision
#: from the very worlds the hint weighed, so it names the hint's move best.
HINT_SEED = 0

#: The worlds a hint weighs (unless its time runs out first: then the first of them).
HINT_WORLDS = DEFAULT_WORLDS


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """The expert's values of every distinct choice of one decision, per world: the one
    evaluation the review grades and the hint chooses from."""

    codes: tuple[int, ...]
    """The choices' move codes (:data:`~lald.bots.expert.PASS`: letting the claims pass),
    in the order of the legal actions, the pass last."""
    actions: tuple[Action | None, ...]
    """An action standing for each code (the first legal one that plays it)."""
    per_world: tuple[tuple[float, ...], ...]
    """Each code's value in each world drawn, antes included (the seat's chips for the deal)."""
    estimates: tuple[Estimate, ...]
    knowledge: Knowledge
    bot: ExpertBot

    def best(self, prefer: int | None = None) -> int:
        """The index of the code with the highest mean; ties go to ``prefer`` (an index),
        else to the first."""
        return max(range(len(self.codes)), key=lambda i: (self.estimates[i].mean, i == prefer, -i))


def choices_of(view: PlayerView, legal: Sequence[Action], kind: DecisionKind) -> dict[int, Action | None]:
    """The distinct choices of a decision: each move code and the first legal action that
    plays it (the pass, None, last in a claim window)."""
    table = mask_of(view.table)
    choices: dict[int, Action | None] = {}
    for action in legal:
        choices.setdefault(code_of(action, table), action)
    if kind is DecisionKind.CLAIM:
        choices[PASS] = None
    return choices


def rate(view: PlayerView, legal: Sequence[Action], kind: DecisionKind, *, at: int | None = None,
         seed: int = HINT_SEED, worlds: int = DEFAULT_WORLDS, time_limit: float | None = None) -> Rating:
    """The expert's rating of every distinct choice of one decision, from ``view`` alone,
    over ``worlds`` worlds drawn by the decision's own generator (:func:`decision_seed`:
    ``seed`` and ``at``, by default the view's history length). ``time_limit`` (seconds)
    stops the drawing early (at least one world): the worlds drawn are then the first of
    those a rating without it draws."""
    if worlds < 1:
        raise ValueError("worlds must be at least 1")
    if at is None:
        at = len(view.history)
    choices = choices_of(view, legal, kind)
    codes = list(choices)
    rng = random.Random(decision_seed(seed, at, kind))
    bot = ExpertBot(view.seat, view.rules, rng, worlds=1, time_limit=_NO_LIMIT)
    bot.player = _Remembering(bot.player)
    k = read(view)
    acting = kind is DecisionKind.TURN
    offset = ante(view)
    per_world: list[list[float]] = [[] for _ in codes]
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    for _ in range(worlds):
        for column, value in zip(per_world, bot.evaluate(k, codes, acting), strict=True):
            column.append(value - offset)
        if deadline is not None and time.perf_counter() > deadline:
            break
    return Rating(tuple(codes), tuple(choices.values()), tuple(tuple(c) for c in per_world),
                  tuple(Estimate.of(c) for c in per_world), k, bot)


def review_decision(view: PlayerView, legal: Sequence[Action], made: Action | None,
                    kind: DecisionKind, *, at: int | None = None, seed: int = 0,
                    worlds: int = DEFAULT_WORLDS) -> Decision:
    """What the expert thinks of one decision, from ``view`` alone.

    ``legal`` is what the engine allowed then (the turn actions, or the open claims of a
    claim window), ``made`` what the seat did (None: it let the claims pass).  ``at``
    places the decision in the deal (default: the view's history length) and, with
    ``seed``, seeds its draws (:func:`rate`: the hint's own evaluation).

    A move the hint recommends is never faulted: with the hint's seed and worlds the
    rating is the hint's, so its move is the best; with others, a move their draws find
    costly but the hint's rating finds best is graded good (the draws disagree within
    their noise, ``review_why_hint``)."""
    if worlds < 1:
        raise ValueError("worlds must be at least 1")
    if at is None:
        at = len(view.history)
    choices = choices_of(view, legal, kind)
    table = mask_of(view.table)
    made_code = PASS if made is None else code_of(made, table)
    if made_code not in choices:
        raise ValueError(f"{made} is not one of the legal choices")
    if len(choices) == 1:
        return Decision(at, kind, made, made, (), ZERO, Verdict.FORCED, None)
    rating = rate(view, legal, kind, at=at, seed=seed, worlds=worlds)
    codes, estimates, per_world = rating.codes, rating.estimates, rating.per_world
    actions = [made if c == made_code else a for c, a in zip(codes, rating.actions, strict=True)]
    made_i = codes.index(made_code)
    best_i = rating.best(prefer=made_i)  # ties: the move made
    order = sorted(range(len(codes)), key=lambda i: (-estimates[i].mean, i != made_i, i))
    options = tuple(Option(actions[i], estimates[i]) for i in order)
    best = actions[best_i]
    if best_i == made_i:
        return Decision(at, kind, made, made, options, ZERO, Verdict.BEST, None)
    cost = Estimate.of([b - m for b, m in zip(per_world[best_i], per_world[made_i], strict=True)])
    verdict = grade(cost)
    if verdict in COSTLY and (seed, worlds) != (HINT_SEED, HINT_WORLDS):
        hinted = rate(view, legal, kind, at=at, seed=HINT_SEED, worlds=HINT_WORLDS)
        if hinted.best(prefer=made_i) == made_i:
            return Decision(at, kind, made, best, options, cost, Verdict.GOOD, Reason("review_why_hint"))
    if verdict is Verdict.GOOD:  # no cause to name for a difference the estimate cannot tell
        why = Reason("review_why_close")
    else:
        why = reason(rating.knowledge, codes[made_i], codes[best_i], rating.bot,
                     random.Random(decision_seed(seed, at, kind) + 1), min(worlds, _REASON_WORLDS))
    return Decision(at, kind, made, best, options, cost, verdict, why)


def grade(cost: Estimate) -> Verdict:
    """The verdict on a move that was not the best, by its cost: good while its interval
    reaches zero as the review writes it (to a tenth of a chip), or it costs under a tenth."""
    if round(cost.low, 1) <= 0 or cost.mean < _GRADES[-1][1]:
        return Verdict.GOOD
    return next(v for v, floor in _GRADES if cost.mean >= floor)


# -- a whole deal ---------------------------------------------------------------------------


def review_deal(state: State, seat: int, *, seed: int = 0, worlds: int = DEFAULT_WORLDS,
                progress: Progress | None = None) -> Review:
    """Review ``seat``'s decisions in the finished deal ``state``.

    Raises ValueError if the deal is not over or there is no such seat."""
    if not state.over or state.result is None:
        raise ValueError("the deal is not over: a review needs a finished deal")
    if not 0 <= seat < state.n:
        raise ValueError(f"there is no seat {seat}: seats are 0 to {state.n - 1}")
    points = list(decision_points(state, seat))
    todo = sum(1 for p in points if _has_choice(p))
    done = 0
    if progress is not None:
        progress(done, todo)
    decisions = []
    for p in points:
        decisions.append(review_decision(p.view, p.legal, p.made, p.kind, at=p.at, seed=seed, worlds=worlds))
        if decisions[-1].verdict is not Verdict.FORCED:
            done += 1
            if progress is not None:
                progress(done, todo)
    lost = Estimate(sum(d.cost.mean for d in decisions), math.sqrt(sum(d.cost.half ** 2 for d in decisions)))
    ranked = sorted((i for i, d in enumerate(decisions) if d.verdict in COSTLY),
                    key=lambda i: (-decisions[i].cost.mean, i))
    result = state.result
    if state.rules.scoring is Scoring.CARD_COUNT:
        best = max(result.won)
        value = 1.0 / result.won.count(best) if result.won[seat] == best else 0.0
    else:
        value = float(result.chips[seat])
    return Review(seat, state.rules, seed, worlds, tuple(decisions), lost, tuple(ranked[:3]), value)


def _has_choice(p: Point) -> bool:
    if p.kind is DecisionKind.CLAIM:
        return True
    table = mask_of(p.view.table)
    return len({code_of(a, table) for a in p.legal}) > 1


__all__ = [
    "COSTLY", "DEFAULT_WORLDS", "FORMAT", "HINT_SEED", "HINT_WORLDS", "MAX_WORLDS", "Decision",
    "DecisionKind", "Estimate", "Option", "Point", "Progress", "Rating", "Reason", "Review", "Verdict",
    "ante", "choices_of", "decision_points", "grade", "rate", "reason", "review_deal", "review_decision",
    "start_of",
]
