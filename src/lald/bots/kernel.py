"""The heuristic's play-out on rank states: the search bots' roll-outs without a call per move.

``pimc`` and the ``expert`` spend their time playing sampled deals to the end with the
heuristic (:class:`~lald.bots.heuristic.RolloutPolicy`, habits of the ``heuristic``
level).  :func:`heuristic_outcome` plays the same deal to the same end, move for move, on
the dense encoding of :mod:`lald.core.rollout`, where a turn reads a table per rank
instead of building lists and scores:

* **Turns.**  The heuristic scores a capture ``play + take``; when others hold cards of
  the rank (``deny``) it adds ``0.6`` per such card (at most two) if the capture takes
  the last table cards of the rank, else takes ``0.3`` off; a capture of a rank nobody
  else holds loses ``2`` when another capture is open (``safe_keep``).  The first best
  move in the engine's order (ranks upwards, kinds in :data:`~lald.core.fast.SHAPES`
  order) is played.  Every term but the last depends on the mover and the rank's state
  alone, and a safe capture's score is a whole number, so one precomputed score per
  (mover, rank state), the ``2`` taken off every safe capture, orders the moves as the
  heuristic does whether or not an unsafe capture is open (:func:`score_of` with
  :data:`HEURISTIC`; other parameters give other scores, as the expert's roll-outs use).
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

from collections.abc import Callable, Iterable
from math import inf
from operator import getitem
from typing import TYPE_CHECKING

from ..core.cards import NUM_RANKS
from ..core.rollout import (
    BOTH,
    FIELD,
    LIE,
    RANKS_OF,
    SHAPES,
    TABLE_CLAIM,
    TRAIL,
    Capture,
    ClaimStep,
    Outcome,
    Tables,
    tables_for,
)

if TYPE_CHECKING:
    from ..core.fast import FastState
    from ..core.rules import Rules


Score = Callable[[int, int, int, int], float]
"""A capture's score from its kind, the mover's cards of the rank, the table's, and the
other hands' (their total, as the mover can count it)."""


Params = dict[str, float]
"""The terms of :func:`score_of`, by name."""

#: The heuristic's own scores as :func:`score_of` parameters.
HEURISTIC: Params = {"single": 0.0, "sweep": 0.0, "pair": 0.0, "prial": 0.0, "deny": 0.6, "spread": 0.3,
                     "safe": 2.0, "keep": 0.0, "leave": 0.0}


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


_TABLES: dict[tuple[int, tuple[float, ...]], tuple[Tables, HeuristicTables]] = {}


def tables(rules: Rules, params: Params = HEURISTIC) -> HeuristicTables:
    """The tables of the scores ``params`` (default: the heuristic's) for ``rules``, made
    once per kernel tables and scores."""
    k = tables_for(rules)
    key = (id(k), tuple(params[name] for name in HEURISTIC))
    known = _TABLES.get(key)
    if known is None or known[0] is not k:
        if len(_TABLES) > 32:  # a tuning run makes many; bots use one or two
            _TABLES.clear()
        known = _TABLES[key] = (k, HeuristicTables(k, score_of(params)))
    return known[1]


def _claim(k: Tables, rs: list[int], x: int, m: int, first: int, foreplay: bool) -> ClaimStep | None:
    """The claim the heuristic makes now (``first`` heads the claim order), or None."""
    n = k.n
    chosen: ClaimStep | None = None
    key = (n, 2, NUM_RANKS)
    steps = k.claims[foreplay][m]
    for r in RANKS_OF[x >> NUM_RANKS]:
        for step in steps[rs[r]]:
            code = step[0]
            seat = code >> 7
            table = code & 7 == TABLE_CLAIM
            if table and seat != m:
                continue
            mine = ((seat - first) % n, table, r)
            if mine < key:
                chosen, key = step, mine
    return chosen


def heuristic_outcome(fs: FastState, trace: list[int] | None = None,
                      policy: HeuristicTables | None = None) -> Outcome:
    """Play a copy of the deal ``fs`` (unchanged; not over) to its end with the heuristic
    for every seat, as ``fs.copy().playout(policy.turn, policy.claim)`` does for the
    :class:`~lald.bots.heuristic.RolloutPolicy` of :data:`~lald.bots.heuristic.DROPPED`;
    the end as :meth:`FastState.random_outcome` returns it.  ``trace`` receives every code;
    ``policy`` plays other capture scores (:class:`HeuristicTables`) than the heuristic's."""
    h = tables(fs.rules) if policy is None else policy
    k = h.k
    n = k.n
    rs = list(map(getitem, k.local, zip(*fs.hc, fs.tc, strict=True)))
    f = sum(map(k.bits.__getitem__, rs)) + int.from_bytes(bytes(fs.won), "little")
    total = sum(fs.won) + sum(fs.lc)
    hs = fs.hs
    holders = k.full if 0 not in hs else sum(1 << s for s, size in enumerate(hs) if size)
    holding = holders.bit_count()
    rings = k.ring
    nxt = rings[holders]
    m, la, lcap, foreplay = fs.to_move, fs.last_actor, fs.last_capture, fs.foreplay
    lain: list[int] = []
    best, held, base = h.best, k.held, k.base
    lie_down = k.lie_down
    if holding > 1:
        x = f >> base[m] & BOTH
        if foreplay:
            x |= (f >> k.fore & FIELD) << NUM_RANKS
            foreplay = x > FIELD
        while True:
            while x > FIELD:  # claims may be open: the first seat in claim order that wants one
                step = _claim(k, rs, x, m, fs.eldest if la < 0 else (la + 1) % n, foreplay)
                if step is None:
                    break
                code, r, j, d, emptied = step
                rs[r] = j
                f += d
                la = code >> 7
                if trace is not None:
                    trace.append(code)
                if emptied and not f >> held[la] & FIELD:
                    holders ^= 1 << la
                    holding -= 1
                    nxt = rings[holders]
                    if holding <= 1:
                        break
                    if la == m:
                        m = nxt[m]
                x = f >> base[m] & BOTH
                if foreplay:
                    x |= (f >> k.fore & FIELD) << NUM_RANKS
            if holding <= 1:
                break
            foreplay = False
            if x & FIELD:
                row = best[m]
                top = -inf
                capture: Capture | None = None
                for r in RANKS_OF[x & FIELD]:
                    entry = row[rs[r]]
                    if entry is not None and entry[0] > top:
                        top, capture = entry
                        rank = r
                assert capture is not None
                j, d, out, code = capture
                rs[rank] = j
                f += d
                lcap = m
                if trace is not None:
                    trace.append(m << 7 | code)
                out = out and not f >> held[m] & FIELD
            elif lie_down:
                lie_m = k.lie[m]
                for q in RANKS_OF[f >> held[m] & FIELD]:
                    j, d = lie_m[rs[q]]
                    rs[q] = j
                    f += d
                lain.append(m)
                if trace is not None:
                    trace.append(m << 7 | LIE)
                out = True
            else:
                others = h.others[m]
                rank = min(RANKS_OF[f >> held[m] & FIELD], key=lambda q: others[rs[q]])
                j, d = k.trail[m][rs[rank]]
                rs[rank] = j
                f += d
                if trace is not None:
                    trace.append(m << 7 | rank << 3 | TRAIL)
                out = not f >> held[m] & FIELD
            la = m
            if out:  # the seat to move holds no card now: it leaves the turn ring
                holding -= 1
                if holding <= 1:
                    break
                holders ^= 1 << m
                nxt = rings[holders]
            m = nxt[m]
            x = f >> base[m] & BOTH
    won = list((f & k.won_mask).to_bytes(n, "little"))
    won[fs.dealer] += total - sum(won)
    return won, nxt[m], lcap, la, foreplay, lain
