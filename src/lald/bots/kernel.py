"""The heuristic's play-out on rank states: the search bots' roll-outs without a call per move.

``pimc`` and the ``expert`` spend their time playing sampled deals to the end with the
heuristic (:class:`~lald.bots.heuristic.RolloutPolicy`, habits of the ``heuristic``
level).  :func:`heuristic_outcome` plays the same deal to the same end, move for move, on
the dense encoding of :mod:`lald.core.fast.tables` (its :func:`~lald.core.fast.playout.scored_outcome`
plays by the rules; this module gives it the heuristic's choices as tables), where a turn
reads a table per rank instead of building lists and scores:

* **Turns.**  A capture's score is :func:`score_of` of its kind and the rank's counts
  (the mover's cards, the table's, the other hands' total): the cards it takes, a bonus
  per kind, a ``deny`` bonus or ``spread`` malus when others hold the rank, a ``safe``
  malus when nobody else does, a ``keep`` bonus per card of the rank left in the hand.
  The level plays :data:`TUNED` (version 3 played :data:`HEURISTIC`, where ``deny`` adds
  ``0.6`` per card others hold, at most two, for taking the table's last, and a safe
  capture loses ``2``).  The first best move in the engine's order (ranks upwards, kinds
  in :data:`~lald.core.codes.SHAPES` order) is played.  The score depends on the mover and
  the rank's state alone, so it is precomputed per (mover, rank state); the heuristic
  takes the ``safe`` malus off only when an unsafe capture is open, but taking it off
  every safe capture orders the moves the same, since with no unsafe capture open every
  capture loses it.
* **Claims**, each time claims are open: the seats in claim order, each taking its claim
  from the hand of the lowest rank (the heuristic sets every prial and mournival aside
  and banks every dead rank at once), the seat to move also the spotter pair of the
  lowest rank; the first seat with such a claim makes it, and the window opens again.
* With no capture: lie down, or (``no_capture = trail``) trail the rank fewest others hold.

It plays the heuristic level's habits only (those of
:data:`~lald.bots.heuristic.DROPPED` off; :attr:`RolloutPolicy.kernel
<lald.bots.heuristic.RolloutPolicy.kernel>` says when a policy is that one);
``tests/bots/test_kernel.py`` plays thousands of positions both ways and compares every
move and the end.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..core.cards import NUM_RANKS
from ..core.codes import SHAPES
from ..core.compiled import KERNEL
from ..core.fast.playout import first_claim, scored_outcome
from ..core.fast.tables import Capture, Outcome, Tables, tables_for
from ..core.rules import PotRule, PrizeRule, Rounding, Scoring

if TYPE_CHECKING:
    from random import Random

    from ..core.fast import FastState
    from ..core.rules import Rules
    from .knowledge import Knowledge


Score = Callable[[int, int, int, int], float]
"""A capture's score from its kind, the mover's cards of the rank, the table's, and the
other hands' (their total, as the mover can count it)."""


Params = dict[str, float]
"""The terms of :func:`score_of`, by name."""

#: The scores of heuristic version 3 (chosen by hand) as :func:`score_of` parameters.
HEURISTIC: Params = {"single": 0.0, "sweep": 0.0, "pair": 0.0, "prial": 0.0, "deny": 0.6, "spread": 0.3,
                     "safe": 2.0, "keep": 0.0, "leave": 0.0}

#: The scores of the ``heuristic`` level (version 4), per prize rule: version 3's
#: (:data:`HEURISTIC`) tuned by ``experiments/tune_rollout.py``, a coordinate search in
#: duplicate deals on this kernel, one seat against four of version 3 and then against
#: the best so far; ``experiments/tune_table.py`` finds no single capture (kind and the
#: rank's counts) whose place in the order gains when moved (docs/strength.md §3).
TUNED: dict[PrizeRule, Params] = {
    PrizeRule.SURVIVOR: {**HEURISTIC, "single": 2.0, "sweep": 2.0, "deny": 0.0, "safe": 2.25, "keep": 0.25},
    PrizeRule.LAST_CAPTURE: {**HEURISTIC, "single": 2.0, "deny": 0.0},
    # not tuned on its own: the last capture's scores, the rule nearest it (a claim counts too)
    PrizeRule.LAST_CARD: {**HEURISTIC, "single": 2.0, "deny": 0.0},
}


def score_of(p: Params) -> Score:
    """A capture score with the terms ``p`` (:data:`HEURISTIC` gives the heuristic's):
    the cards taken now, plus a bonus per kind (``single``, ``sweep``, ``pair``,
    ``prial``); when others hold cards of the rank, ``deny`` per such card (at most two)
    for taking the table's last, else ``spread`` off, and ``leave`` off per table card
    left; for a rank nobody else holds, ``safe`` off; and ``keep`` per card of the rank
    the mover keeps in its hand."""
    bonus = [p["single"], p["sweep"], p["pair"], p["prial"]]
    deny, spread, safe, keep, leave = p["deny"], p["spread"], p["safe"], p["keep"], p["leave"]

    def score(kind: int, h: int, t: int, out: int) -> float:
        play, take = SHAPES[kind]
        value = float(play + take) + bonus[kind]
        if out > 0:
            value += deny * min(out, 2) if t == take else -spread
            value -= leave * (t - take)
        else:
            value -= safe
        return value + keep * (h - play)

    return score


class HeuristicTables:
    """Per mover and rank state: the best capture of that rank by ``score`` (the first
    best in the engine's order of kinds) with its score (or None), and how many cards of
    the rank the other hands hold; :meth:`mixed` gives seats different scores."""

    __slots__ = ("k", "best", "others")

    def __init__(self, k: Tables, score: Score) -> None:
        self.k = k
        n = k.n
        self.best: list[list[tuple[float, Capture] | None]] = []
        self.others: list[list[int]] = []
        for m in range(n):
            best: list[tuple[float, Capture] | None] = []
            others: list[int] = []
            for g, c in enumerate(k.counts):
                out = sum(c[:n]) - c[m]
                others.append(out)
                entry: tuple[float, Capture] | None = None
                for capture in dict.fromkeys(k.multi[m][g]):
                    value = score(capture[3] & 7, c[m], c[n], out)
                    if entry is None or value > entry[0]:
                        entry = (value, capture)
                best.append(entry)
            self.best.append(best)
            self.others.append(others)

    def mixed(self, other: HeuristicTables, seats: Iterable[int]) -> HeuristicTables:
        """These tables with ``other``'s for ``seats``."""
        t = HeuristicTables.__new__(HeuristicTables)
        t.k, t.others = self.k, self.others
        chosen = set(seats)
        t.best = [other.best[m] if m in chosen else self.best[m] for m in range(self.k.n)]
        return t


_TABLES: dict[tuple[tuple[object, ...], tuple[float, ...]], tuple[Tables, HeuristicTables]] = {}


def tables(rules: Rules, params: Params = HEURISTIC) -> HeuristicTables:
    """The tables of the scores ``params`` (default: the heuristic's) for ``rules``, made
    once per kernel tables and scores."""
    k = tables_for(rules)
    key = (k.key, tuple(params[name] for name in HEURISTIC))
    known = _TABLES.get(key)
    if known is None:
        if len(_TABLES) > 32:  # a tuning run makes many; bots use one or two
            _TABLES.clear()
        known = _TABLES[key] = (k, HeuristicTables(k, score_of(params)))
    return known[1]


#: The claim the heuristic makes now, or None: the first seat in claim order that has a
#: claim from its hand takes the one of the lowest rank; the seat to move also takes
#: spotter pairs, after its hand claims (:func:`lald.core.fast.playout.first_claim`, which the
#: compiled kernel plays without a call).
_claim = first_claim


def heuristic_outcome(fs: FastState, trace: list[int] | None = None,
                      policy: HeuristicTables | None = None) -> Outcome:
    """Play a copy of the deal ``fs`` (unchanged; not over) to its end with the heuristic
    for every seat, as ``fs.copy().playout(policy.turn, policy.claim)`` does for the
    :class:`~lald.bots.heuristic.RolloutPolicy` of :data:`~lald.bots.heuristic.DROPPED`;
    the end as :meth:`FastState.random_outcome` returns it.  ``trace`` receives every code;
    ``policy`` plays other capture scores (:class:`HeuristicTables`) than the heuristic's.
    The engine's :func:`~lald.core.fast.playout.scored_outcome` plays the deal by the rules;
    this module only says what the heuristic chooses."""
    h = tables(fs.rules) if policy is None else policy
    return scored_outcome(fs, h.best, h.others, _claim, trace)


# -- the search's worlds, drawn by the compiled kernel ----------------------------------

_SPEC: list[object] = [None, b""]  # the last Knowledge packed, and its spec


def sampler_spec(k: Knowledge) -> bytes:
    """What the compiled world draw (``_kernel.sample``) and opponent-model test
    (``_kernel.plausible``) read of ``k``, packed as int32 items (see ``_kernel.c``): the
    seats, sizes, the seat's hand, the unknown cards, the ranks each seat cannot hold, the
    table, and per unseen face-down set its seat, count, the ranks it cannot be (the table
    when its seat trailed before it) and the cards of each rank its seat showed leaving
    its hand after it.  The last one is kept (a decision draws many worlds)."""
    if _SPEC[0] is k:
        return _SPEC[1]  # type: ignore[return-value]
    n = k.view.players
    others = k.others
    pad = [0] * (5 - n)
    items = [n, k.seat, len(others), len(k.hidden_sets), *others, *[-1] * (5 - len(others)),
             *k.sizes, *pad, *k.hand, *k.unknown, *k.forbidden, *pad, *k.table]
    for hs in k.hidden_sets:
        trail = 0
        for seat, index, ranks in k.trail_tables:
            if seat == hs.seat and index < hs.index:
                trail |= ranks
        after = [0] * NUM_RANKS
        for x in k.removals:
            if x.seat == hs.seat and x.index > hs.index:
                after[x.rank] += x.count
        items.extend((hs.seat, hs.count, trail, *after))
    spec = array("i", items).tobytes()
    _SPEC[0], _SPEC[1] = k, spec
    return spec


def compiled_sample(k: Knowledge, rng: Random,
                    tries: int) -> tuple[tuple[list[list[int]], list[int]], bool] | None:
    """:func:`lald.bots.sampler.sample` in the compiled kernel: up to ``tries`` proposals,
    else the constrained fill, and whether the world is exact; the same draws from ``rng``
    and the same world as :func:`~lald.bots.sampler.sample_py`.  None where the pure path
    plays (no kernel, a generator it does not read, knowledge it does not take: nothing
    drawn)."""
    kernel = KERNEL.playing()
    if kernel is None or len(k.hidden_sets) > 16:
        return None
    world: tuple[tuple[list[list[int]], list[int]], bool] | None = kernel.sample(sampler_spec(k), rng, tries)
    return world


def compiled_draw_world(k: Knowledge, rng: Random, tries: int, capped: list[int], dead: list[int],
                        keep_whole: bool) -> tuple[list[list[int]], list[int]] | None:
    """:meth:`lald.bots.expert.ExpertBot.draw_world` in the compiled kernel: a world drawn
    (:func:`compiled_sample`'s, 300 proposals) up to ``tries`` times until the opponent
    model (:func:`compiled_plausible`'s test) holds, the last one drawn if it never does;
    None where the pure path plays."""
    kernel = KERNEL.playing()
    if kernel is None or len(k.hidden_sets) > 16:
        return None
    if _MASKS[0] != capped or _MASKS[1] != dead:  # (a decision draws many worlds)
        _MASKS[:] = [list(capped), list(dead), _mask(capped), _mask(dead)]
    world: tuple[list[list[int]], list[int]] | None = kernel.draw_world(
        sampler_spec(k), rng, tries, _MASKS[2], _MASKS[3], keep_whole)
    return world


_MASKS: list[object] = [None, None, 0, 0]  # the last seat lists drawn with, and their masks


def _mask(seats: list[int]) -> int:
    out = 0
    for s in seats:
        out |= 1 << s
    return out


def compiled_plausible(k: Knowledge, hands: list[list[int]], capped: list[int], dead: list[int],
                       keep_whole: bool) -> bool | None:
    """The expert's opponent-model test (``ExpertBot._plausible``) in the compiled kernel,
    or None where the pure path plays."""
    kernel = KERNEL.playing()
    if kernel is None or len(k.hidden_sets) > 16:
        return None
    plausible: bool | None = kernel.plausible(sampler_spec(k), hands, _mask(capped), _mask(dead), keep_whole)
    return plausible


# -- the expert's search in one world, in the compiled kernel ---------------------------


#: The prize rules in the order the kernel numbers them (``_rules.h``'s ``lald_prize_to``).
_PRIZE_RULES = (PrizeRule.SURVIVOR, PrizeRule.LAST_CAPTURE, PrizeRule.LAST_CARD)


def search_context(template: FastState, policy: HeuristicTables, seat: int,
                   codes: list[int]) -> object | None:
    """One decision's search for the compiled kernel: the deal as ``seat`` sees it
    (``template``: a fast state of it, whose hands are not read), the roll-out policy's
    tables, the candidate ``codes`` (-1: let the open claims pass) and the rules'
    scoring; None where the pure path plays (no kernel, :func:`lald.core.compiled.pure_path`,
    tables or a deal it does not take, a real pot: docs/rules.md#7-settlement)."""
    kernel = KERNEL.playing()
    rules = template.rules
    if kernel is None or rules.pot_rule is PotRule.REAL:  # the kernel's values know no real pot
        return None
    scoring = (int(rules.scoring is Scoring.CARD_COUNT), rules.hand_size,
               int(rules.rounding is Rounding.FLOOR), rules.prize,
               _PRIZE_RULES.index(rules.prize_rule))
    context: object | None = kernel.search_context(template, policy.best, policy.others, seat, codes, scoring)
    return context


def world_values(context: object, hands: list[list[int]], solve_cards: int, node_cap: int,
                 deadline: float) -> list[float] | None:
    """For each code of ``context`` (:func:`search_context`), the seat's value in the world
    whose hands are ``hands`` after it, as :meth:`lald.bots.expert.Player.finish` gives it
    with ``solve_cards``, ``node_cap`` and the solve's ``deadline`` (a
    ``time.perf_counter()`` time); None where the pure path plays."""
    kernel = KERNEL.playing()
    if kernel is None:
        return None
    values: list[float] | None = kernel.world_values(context, hands, solve_cards, node_cap, deadline)
    return values
