"""The dense encoding the play-outs run on: one deal as rank states and bit fields.

Roll-outs spend their time in :meth:`FastState.random_outcome
<lald.core.fast.state.FastState.random_outcome>` (and ``random_playout``), so they run on a
second, denser encoding than :class:`~lald.core.fast.state.FastState`'s, made for one tight
loop (:mod:`lald.core.fast.playout`):

* Each rank is one small integer, its *state*: how many of its cards each hand and the
  table hold (counts of 0..4 adding up to at most 4), numbered ``rank * ns + i`` so that
  every table is indexed by the state alone.
* Everything the loop asks about is one integer ``F`` of bit fields, the sum over ranks of
  ``bits[state]``: in the lowest bits the won-pile sizes (8 bits a seat); per seat the
  ranks it holds (``HELD``); the ranks some seat holds three or four of (``FORE``, for hand
  sets in foreplay); and per seat, side by side, the ranks it can capture (``CAP``) and the
  ranks on which some seat may claim when it is that seat's turn (``CLAIM``).  A move from
  state ``a`` to ``b`` adds ``bits[b] - bits[a]``, plus the cards won, to ``F``: one
  addition keeps every field right, since each bit of a field belongs to one rank and no
  field overflows.
* Precomputed per rules (:class:`Tables`, :func:`tables_for`), for each mover and rank
  state: the capture (or, where several kinds are open, every capture, each repeated as
  often as the concrete captures it stands for, so a uniform pick over the tuple is a
  uniform pick over concrete captures), the state after lying down or trailing, and every
  concrete claim.  A turn reads tables and adds integers; it builds no list and makes no
  object but integers.

>>> from lald.core import Rules
>>> k = tables_for(Rules.make("survivor", players=4))
>>> k.n, tables_for(Rules.make("survivor", players=4)) is k
(4, True)
"""

from __future__ import annotations

from itertools import product
from math import comb
from typing import Protocol

from ..cards import NUM_RANKS
from ..codes import HAND_CLAIM, PAIR, PRIAL, RANKS_OF, SHAPES, SINGLE, SWEEP, TABLE_CLAIM
from ..rules import DeadClaims, HandSetTiming, NoCapture, Rules, SingleTakesThree


class Deal(Protocol):
    """What a play-out starts from: the fields of :class:`~lald.core.fast.FastState` it
    reads (the kernel never changes them; the caller applies the outcome)."""

    rules: Rules
    dealer: int
    eldest: int
    hc: list[list[int]]
    tc: list[int]
    lc: list[int]
    hs: list[int]
    won: list[int]
    to_move: int
    foreplay: bool
    over: bool
    last_capture: int
    last_take: int
    last_actor: int


FIELD = (1 << NUM_RANKS) - 1
BOTH = (1 << 2 * NUM_RANKS) - 1
WON_BITS = 8
PICK_BITS = 5

Capture = tuple[int, int, bool, int]
"""(rank state after, addition to F, whether the mover's rank ran out, code without seat)."""
Step = tuple[int, int]
"""A lie-down or trail on one rank: (rank state after, addition to F)."""
ClaimStep = tuple[int, int, int, int, bool]
"""(code, rank, rank state after, addition to F, whether the claimer's rank ran out)."""
Outcome = tuple[list[int], int, int, int, bool, list[int], int]
"""A finished play-out: won-pile sizes (residue included), survivor, last turn capture
(-1: none), last actor, whether it ended in foreplay, the seats that lay down, and the
seat that last took cards by a capture or a claim (-1: none)."""
Best = list[list[tuple[float, Capture] | None]]
"""``best[m][g]``: for the mover ``m`` and rank state ``g``, the capture a policy prefers
on that rank and its score (None where ``m`` cannot capture)."""

_PICK: list[tuple[int, ...]] = []


def pick_table() -> list[tuple[int, ...]]:
    """``pick_table()[mask][bits]``: for ``PICK_BITS`` uniformly random bits, a rank of the
    13-bit ``mask``, every rank of it equally often, or -1 for the few values past the
    largest multiple of their number, which are drawn again: an exact uniform choice of a
    rank from one cheap draw."""
    if not _PICK:
        size = 1 << PICK_BITS
        _PICK.extend(ranks * (size // len(ranks)) + (-1,) * (size % len(ranks)) if ranks else ()
                     for ranks in RANKS_OF)
    return _PICK


class Tables:
    """The rank states of one player count and the moves on them under one set of rules.

    A rank state is numbered ``rank * ns + i``, ``i`` the number of the counts (one per
    hand, then the table's) among the ``ns`` count tuples with at most 4 cards, so that
    every table is indexed by the state alone."""

    __slots__ = (
        "n", "ns", "local", "counts", "live", "bits", "turn", "multi", "lie", "trail", "claims",
        "held", "fore", "base", "won_mask", "full", "ring", "orders", "lie_down", "key",
    )

    def __init__(self, rules: Rules) -> None:
        self.key = key_of(rules)
        n = self.n = rules.players
        sweep, pairs, prials = rules.single_takes_three, rules.pair_on_pair, rules.prial_on_single
        sets_on = rules.hand_sets
        own_sets = sets_on and rules.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN
        dead_all = rules.dead_claims is DeadClaims.ANY_TIME
        dead_own = rules.dead_claims is DeadClaims.OWN_TURN
        spotter = rules.spotter_claims
        self.lie_down = rules.no_capture is NoCapture.LIE_DOWN
        states = [c for c in product(range(5), repeat=n + 1) if sum(c) <= 4]
        ns = self.ns = len(states)
        self.local = [{c: r * ns + i for i, c in enumerate(states)} for r in range(NUM_RANKS)]
        self.counts = states * NUM_RANKS
        self.live = [sum(c) for c in self.counts]
        self.won_mask = (1 << WON_BITS * n) - 1
        self.full = (1 << n) - 1
        self.held = [WON_BITS * n + NUM_RANKS * s for s in range(n)]
        self.fore = WON_BITS * n + NUM_RANKS * n
        self.base = [self.fore + NUM_RANKS * (1 + 2 * s) for s in range(n)]
        # ring[holders][seat]: the next seat clockwise after ``seat`` among the seats of
        # the bit mask ``holders`` (those that still hold cards)
        self.ring = [tuple(next(((s + i) % n for i in range(1, n + 1) if hm >> (s + i) % n & 1), s)
                           for s in range(n)) for hm in range(1 << n)]
        # orders[first]: the seats in the order claims are offered, ``first`` first
        self.orders = [tuple((first + i) % n for i in range(n)) for first in range(n)]

        def captures(h: int, t: int) -> list[tuple[int, int]]:
            """(kind, concrete captures) of one rank, as :mod:`lald.core.fast` lists them."""
            out: list[tuple[int, int]] = []
            if h and t:
                if not (t == 3 and sweep is SingleTakesThree.FORCED):
                    out.append((SINGLE, h * t))
                if t == 3 and sweep is not SingleTakesThree.OFF:
                    out.append((SWEEP, h))
                if pairs and h >= 2 and t >= 2:
                    out.append((PAIR, comb(h, 2) * comb(t, 2)))
                if prials and h >= 3:
                    out.append((PRIAL, comb(h, 3) * t))
            return out

        def claim_rule(c: tuple[int, ...], m: int, foreplay: bool) -> list[tuple[int, int, int]]:
            """(seat, kind, concrete claims) on a rank in state ``c`` when ``m`` is to move."""
            live, t = sum(c), c[n]
            out: list[tuple[int, int, int]] = []
            for s in range(n):
                h, own = c[s], s == m
                if h and (sets_on and h >= 3 and (foreplay or own and own_sets)
                          or h == live and (dead_all or own and dead_own)):
                    out.append((s, HAND_CLAIM, 3 if h == 3 else 1))
                if spotter and live and t == live:
                    out.append((s, TABLE_CLAIM, 1))
            return out

        local_bits = []
        for c in states:
            b = 0
            for s in range(n):
                h = c[s]
                if h:
                    b |= 1 << self.held[s]
                    if captures(h, c[n]):
                        b |= 1 << self.base[s]
                    if sets_on and h >= 3:
                        b |= 1 << self.fore
                if claim_rule(c, s, False):
                    b |= 1 << self.base[s] + NUM_RANKS
            local_bits.append(b)
        self.bits = [b << r for r in range(NUM_RANKS) for b in local_bits]

        # turn[m][g]: the capture of the mover m on state g when it is the only kind there,
        # else None and multi[m][g] lists them, each as often as its concrete captures
        self.turn: list[list[Capture | None]] = []
        self.multi: list[list[tuple[Capture, ...]]] = []
        self.lie: list[list[Step]] = []
        self.trail: list[list[Step]] = []
        none: Step = (-1, 0)
        for m in range(n):
            turn: list[Capture | None] = []
            multi: list[tuple[Capture, ...]] = []
            lie: list[Step] = []
            trail: list[Step] = []
            for g, c in enumerate(self.counts):
                h, t, r = c[m], c[n], g // ns
                outs: list[Capture] = []
                for kind, mult in captures(h, t):
                    play, take = SHAPES[kind]
                    j, d = self.step(g, m, -play, -take, play + take)
                    outs.extend([(j, d, h == play, r << 3 | kind)] * mult)
                turn.append(outs[0] if len(set(outs)) == 1 else None)
                multi.append(tuple(outs))
                lie.append(self.step(g, m, -h, h, 0) if h else none)
                trail.append(self.step(g, m, -1, 1, 0) if h else none)
            self.turn.append(turn)
            self.multi.append(multi)
            self.lie.append(lie)
            self.trail.append(trail)
        # claims[foreplay][m][g]: every concrete claim on state g when m is to move, each
        # listed as often as the concrete claims it stands for
        self.claims: list[list[list[tuple[ClaimStep, ...]]]] = [
            [[self._claim_steps(g, claim_rule(c, m, foreplay)) for g, c in enumerate(self.counts)]
             for m in range(n)] for foreplay in (False, True)]

    def step(self, g: int, seat: int, dh: int, dt: int, won: int) -> Step:
        """Rank state ``g``: ``seat``'s count changes by ``dh``, the table's by ``dt``,
        ``seat`` wins ``won`` cards; the state after and the addition to F."""
        n, ns = self.n, self.ns
        a = list(self.counts[g])
        a[seat] += dh
        a[n] += dt
        j = self.local[g // ns][tuple(a)]
        return j, self.bits[j] - self.bits[g] + (won << WON_BITS * seat)

    def _claim_steps(self, g: int, rule: list[tuple[int, int, int]]) -> tuple[ClaimStep, ...]:
        """The claims ``rule`` allows on state ``g``, one entry per concrete claim."""
        c, r, n = self.counts[g], g // self.ns, self.n
        out: list[ClaimStep] = []
        for s, kind, mult in rule:
            code = s << 7 | r << 3 | kind
            if kind == HAND_CLAIM:
                took = 2 if c[s] == 3 else c[s]
                j, d = self.step(g, s, -took, 0, took)
                out.extend([(code, r, j, d, took == c[s])] * mult)
            else:
                j, d = self.step(g, s, 0, -c[n], c[n])
                out.append((code, r, j, d, False))
        return tuple(out)


def key_of(rules: Rules) -> tuple[object, ...]:
    """What of ``rules`` the tables depend on: the player count and the move options."""
    return (rules.players, rules.single_takes_three, rules.pair_on_pair, rules.prial_on_single,
            rules.hand_sets, rules.hand_set_timing, rules.dead_claims, rules.spotter_claims,
            rules.no_capture)


_TABLES: dict[tuple[object, ...], Tables] = {}
_BY_RULES: dict[Rules, Tables] = {}
_LAST: list[tuple[Rules, Tables]] = []  # the rules asked for last: a play-out asks again and again


def tables_for(rules: Rules) -> Tables:
    """The tables of ``rules`` (made once per player count and move options)."""
    last = _LAST[0] if _LAST else None  # (one read: another thread may replace it)
    if last is not None and last[0] is rules:
        return last[1]
    t = _BY_RULES.get(rules)
    if t is None:
        key = key_of(rules)
        t = _TABLES.get(key)
        if t is None:
            t = _TABLES[key] = Tables(rules)
        if len(_BY_RULES) > 256:
            _BY_RULES.clear()
        _BY_RULES[rules] = t
    _LAST[:] = [(rules, t)]
    return t

