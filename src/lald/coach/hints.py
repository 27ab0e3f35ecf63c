"""The hint: what the strongest bot would do at one seat's decision, and why, as data.

Shared by the terminal's hint key (:mod:`lald.tui.hints`) and the web table's Hint button
(:mod:`lald.web.table.hints`). :func:`advise` reads only what the seat may know, its
:class:`~lald.core.PlayerView` and its legal actions, never a :class:`~lald.core.State`,
so a hint cannot tell anything of another seat's hand: two deals that look the same from
the seat give the same hint for the same seed (while the expert's time budget is not
what stops it: ``worlds`` is).

The expert (``lald.bots``' strongest level) is asked as the review asks it: the hint is
the review's own rating of the same decision (:func:`lald.coach.review.rate`: the claim
window's choices, letting the claims pass among them, then the turn's moves), over the
same worlds, so the review of the deal with the hint's seed (the faces review with it)
names the hint's move best, and no review faults it (:func:`lald.coach.review.review_decision`).
The :class:`Hint` holds the move, its expected chips for the deal (antes included, as the
review counts them: :func:`lald.coach.review.ante`) and its margin over the next best, and the reason as a
catalog key and its values. Without the expert, the strongest level there is names its
choice and the reason says what it does. :func:`hint_text` puts it in a catalog's words.

>>> from lald.core import Rules, State
>>> from lald.i18n import Catalog
>>> state = State.deal(Rules.make(), seed=3)
>>> seat = state.to_move
>>> hint = advise(state.view(seat), state.legal_actions(seat), seed=1, worlds=8, time_limit=60)
>>> hint.action in state.legal_actions(seat), hint.reason.key.startswith("why_")
(True, True)
>>> hint_text(hint, "put 2♠ on the table", Catalog("en")).startswith("Hint: put 2♠ on the table. ")
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from ..bots import MENU_LEVELS, make_bot
from ..core import Action, Capture, CaptureKind, Claim, LieDown, PlayerView, Scoring
from ..core.cards import mask_of
from ..core.codes import code_of
from ..i18n import Catalog
from .review import HINT_SEED, HINT_WORLDS, DecisionKind, choices_of, rate

#: Bot levels from the strongest down; the first one that exists gives the hints.
LEVEL_ORDER = ("expert", "pimc", "learned", "heuristic", "greedy", "random")


def playable_levels() -> tuple[str, ...]:
    """The bot levels a person may play against (never one that sees every hand),
    strongest first."""
    ordered = [lv for lv in LEVEL_ORDER if lv in MENU_LEVELS]
    return tuple(ordered + [lv for lv in MENU_LEVELS if lv not in ordered])


def best_level() -> str:
    """The strongest bot level there is."""
    return playable_levels()[0]


@dataclasses.dataclass(frozen=True, slots=True)
class Reason:
    """Why, as a catalog key (``why_*``) and the values its sentence takes."""

    key: str
    values: Mapping[str, Any] = dataclasses.field(default_factory=lambda: MappingProxyType({}))

    def text(self, catalog: Catalog) -> str:
        """The sentence in ``catalog``'s language."""
        return catalog.t(self.key, **self.values)


@dataclasses.dataclass(frozen=True, slots=True)
class Hint:
    """The move the strongest bot would make (None: let the open claims pass), what the
    expert expects of it and why."""

    seat: int
    action: Action | None
    reason: Reason
    level: str
    """The bot level that chose it."""
    worth: float | None = None
    """The seat's expected chips for the deal after this move (antes included), when
    the expert weighed two or more moves under chip scoring."""
    margin: float | None = None
    """How many chips more than the next best move, on average (with :attr:`worth`)."""
    weighed: bool = False
    """Whether the expert played out two or more moves to choose (under card-count
    scoring there is no :attr:`worth`: the move does best at winning cards)."""
    only: bool = False
    """Whether it is the only thing the seat can do."""


def outcome(action: Action, view: PlayerView) -> int:
    """The engine's code for what ``action`` does in play: actions that differ only in
    suits share it (:func:`lald.core.codes.code_of`)."""
    return code_of(action, mask_of(view.table))


def _what(action: Action | None) -> Reason:
    """What the move does, as a reason."""
    if action is None:
        return Reason("why_pass")
    if isinstance(action, Claim):
        return Reason("why_claim", MappingProxyType({"count": len(action.cards)}))
    if isinstance(action, LieDown):
        return Reason("why_lie_down")
    if isinstance(action, Capture):
        count = len(action.play) + len(action.take)
        key = "why_sweep" if action.kind is CaptureKind.SWEEP else "why_capture"
        return Reason(key, MappingProxyType({"count": count}))
    return Reason("why_trail")


def _expert(view: PlayerView, legal: Sequence[Action], seed: int, worlds: int,
            time_limit: float | None) -> tuple[Action | None, list[float]]:
    """The expert's choice, and the mean values of the turn's moves best first (empty for
    a claim window's choice, or when there was nothing to weigh): the review's rating of
    the same decision (:func:`lald.coach.review.rate`), the claim window first, then the
    turn."""
    claims = [a for a in legal if isinstance(a, Claim)]
    turns = [a for a in legal if not isinstance(a, Claim)]
    if claims:
        rating = rate(view, claims, DecisionKind.CLAIM, seed=seed, worlds=worlds, time_limit=time_limit)
        best = rating.best()
        if rating.actions[best] is not None or not turns:
            return rating.actions[best], []
    if len(choices_of(view, turns, DecisionKind.TURN)) == 1:
        return turns[0], []
    rating = rate(view, turns, DecisionKind.TURN, seed=seed, worlds=worlds, time_limit=time_limit)
    return rating.actions[rating.best()], sorted((e.mean for e in rating.estimates), reverse=True)


def _seed(seed: int | str) -> int:
    """An integer seed (a text seed hashed, the same on every machine)."""
    if isinstance(seed, int):
        return seed
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")


def _other(level: str, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
    bot = make_bot(level, view.seat, view.rules, rng)
    claims = [a for a in legal if isinstance(a, Claim)]
    turns = [a for a in legal if not isinstance(a, Claim)]
    if claims:
        choice = bot.claim(view, claims)
        if choice is not None or not turns:
            return choice
    return bot.act(view, turns)


def advise(view: PlayerView, legal: Sequence[Action], *, seed: int | str = HINT_SEED,
           worlds: int | None = None, time_limit: float | None = None, level: str | None = None) -> Hint:
    """The hint for the seat of ``view`` choosing among ``legal`` (its turn actions and
    claims on its turn; its open claims alone in a claim window out of turn, where letting
    them pass is a choice too).

    The expert's hint is the review's evaluation of the same decision
    (:func:`lald.coach.review.rate`): ``seed`` is the review seed whose worlds it weighs
    (default :data:`~lald.coach.review.HINT_SEED`, the seed the faces review with),
    ``worlds`` how many (default :data:`~lald.coach.review.HINT_WORLDS`, the review's),
    and ``time_limit`` (seconds; default none) stops the drawing early, with the first of
    those worlds. So the review of a deal, with that seed and as many worlds, names the
    hint's move best. ``level`` names the bot (default: the strongest there is); another
    level's seed seeds its draws. Raises ``ValueError`` when there is nothing to choose."""
    if not legal:
        raise ValueError("the seat has nothing to decide")
    if any(a.seat != view.seat for a in legal):
        raise ValueError("the legal actions are another seat's")
    level = level or best_level()
    window = all(isinstance(a, Claim) for a in legal)
    means: list[float] = []
    if level == "expert":
        worlds = HINT_WORLDS if worlds is None else worlds
        action, means = _expert(view, legal, _seed(seed), worlds, time_limit)
    else:
        action = _other(level, view, legal, random.Random(seed))
    choices = len({outcome(a, view) for a in legal}) + (1 if window else 0)
    reason = _what(action)
    if choices == 1:
        return Hint(view.seat, action, reason, level, only=True)
    if len(means) < 2:
        return Hint(view.seat, action, reason, level)
    if view.rules.scoring is not Scoring.CHIPS:
        return Hint(view.seat, action, reason, level, weighed=True)
    return Hint(view.seat, action, reason, level, worth=means[0], margin=means[0] - means[1], weighed=True)


def chips(value: float, catalog: Catalog, signed: bool) -> str:
    """A number of chips with one decimal, in words (``+1.5 chips``)."""
    # the plural follows the number as written: "1.0 chips" has a visible decimal (CLDR)
    return catalog.t("n_chips", count=Decimal(f"{abs(value):.1f}"), amount=catalog.decimal(value, signed))


def hint_text(hint: Hint, what: str, catalog: Catalog) -> str:
    """The hint in ``catalog``'s sentences; ``what`` is its move in words, as the table
    shows the move (the face words its own moves)."""
    t = catalog.t
    sentences = [t("hint_do", action=what if hint.action is not None else t("act_pass")),
                 hint.reason.text(catalog)]
    if hint.only:
        sentences.append(t("hint_only"))
    elif hint.worth is not None and hint.margin is not None:
        worth = chips(hint.worth, catalog, signed=True)
        if round(hint.margin, 1) == 0:
            sentences.append(t("hint_worth_tie", worth=worth))
        else:
            sentences.append(t("hint_worth", worth=worth, margin=chips(hint.margin, catalog, signed=False)))
    elif hint.weighed:
        sentences.append(t("hint_best_cards"))
    return " ".join(sentences)


def hint_json(hint: Hint) -> dict[str, Any]:
    """The hint as plain data (the move in the record's form, docs/record.md#actions)."""
    return {
        "seat": hint.seat,
        "action": None if hint.action is None else hint.action.to_json(),
        "level": hint.level,
        "worth": None if hint.worth is None else round(hint.worth, 3),
        "margin": None if hint.margin is None else round(hint.margin, 3),
        "weighed": hint.weighed,
        "only": hint.only,
        "reason": {"key": hint.reason.key, "values": dict(hint.reason.values)},
    }
