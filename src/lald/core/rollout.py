"""The random play-out kernel of :class:`~lald.core.fast.FastState`: one deal on rank states.

Roll-outs spend their time in :meth:`FastState.random_outcome`, so it runs here on a
second, denser encoding, made for one tight loop:

* Each rank is one small integer, its *state*: how many of its cards each hand and the
  table hold (counts of 0..4 adding up to at most 4), numbered once per player count.
* Everything the loop asks about is one integer ``F`` of bit fields, the sum over ranks of
  ``bits[rank][state]``: in the lowest bits the won-pile sizes (8 bits a seat); per seat the
  ranks it holds (``HELD``); the ranks some seat holds three or four of (``FORE``, for hand
  sets in foreplay); and per seat, side by side, the ranks it can capture (``CAP``) and the
  ranks on which some seat may claim when it is that seat's turn (``CLAIM``).  A move of
  rank ``r`` from state ``a`` to ``b`` adds ``bits[r][b] - bits[r][a]``, plus the cards
  won, to ``F``: one addition keeps every field right, since each bit of a field belongs
  to one rank and no field overflows.
* Precomputed per rules, for each mover, rank and rank state: the captures, each repeated
  as often as the concrete captures it stands for (so a uniform pick over the tuple is a
  uniform pick over concrete captures), and the state after lying down or trailing; per
  seat to move, made on first use, every concrete claim on a rank state.  A turn reads
  tables and adds integers; it builds no list.

Turns, claims and the end of the deal follow :meth:`FastState.apply` (and so
:class:`~lald.core.state.State`) exactly; ``tests/core/test_fast.py`` replays every
play-out through the checked engine.  Claims are picked uniformly among all concrete open
claims, as :meth:`FastState.open_claim_options` weighs them; only the order in which the
kernel lists them differs, which leaves every claim's probability the same.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from math import comb, floor
from operator import getitem
from typing import TYPE_CHECKING

from .cards import NUM_RANKS
from .rules import DeadClaims, HandSetTiming, NoCapture, Rules, SingleTakesThree

if TYPE_CHECKING:
    from random import Random

    from .fast import FastState

SINGLE, SWEEP, PAIR, PRIAL, LIE, TRAIL, HAND_CLAIM, TABLE_CLAIM = range(8)
SHAPES = ((1, 1), (1, 3), (2, 2), (3, 1))
RANKS_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(NUM_RANKS) if m >> r & 1) for m in range(1 << NUM_RANKS))
FIELD = (1 << NUM_RANKS) - 1
#: ``PICK[mask][byte]``: for a uniformly random byte, the index of a rank among the ranks of
#: ``mask`` (uniformly), or -1 for the few bytes past the largest multiple of their number,
#: which are drawn again: an exact uniform choice from one cheap draw of 8 bits.
_INDEX = [tuple(b % k if b < 256 - 256 % k else -1 for b in range(256)) for k in range(1, NUM_RANKS + 1)]
PICK: tuple[tuple[int, ...], ...] = ((),) + tuple(
    _INDEX[len(RANKS_OF[m]) - 1] for m in range(1, 1 << NUM_RANKS))
BOTH = (1 << 2 * NUM_RANKS) - 1
WON_BITS = 8

Capture = tuple[int, int, bool, int]
"""(rank state after, addition to F, whether the mover's rank ran out, code without seat)."""
Step = tuple[int, int]
"""A lie-down or trail on one rank: (rank state after, addition to F)."""
ClaimStep = tuple[int, int, int, int, bool]
"""(code, rank, rank state after, addition to F, whether the claimer's rank ran out)."""
Outcome = tuple[list[int], int, int, int, bool, list[int]]
"""A finished play-out: won-pile sizes (residue included), survivor, last turn capture
(-1: none), last actor, whether it ended in foreplay, and the seats that lay down."""


class Tables:
    """The rank states of one player count and the moves on them under one set of rules."""

    __slots__ = (
        "n", "ns", "local", "counts", "live", "bits", "turn", "lie", "trail", "held", "fore",
        "base", "won_shift", "won_mask", "ring", "lie_down", "claims", "full",
    )

    def __init__(self, rules: Rules) -> None:
        n = self.n = rules.players
        sweep, pairs, prials = rules.single_takes_three, rules.pair_on_pair, rules.prial_on_single
        sets_on = rules.hand_sets
        own_sets = sets_on and rules.hand_set_timing is HandSetTiming.FOREPLAY_OR_OWN_TURN
        dead_all = rules.dead_claims is DeadClaims.ANY_TIME
        dead_own = rules.dead_claims is DeadClaims.OWN_TURN
        spotter = rules.spotter_claims
        self.lie_down = rules.no_capture is NoCapture.LIE_DOWN
        states = [c for c in product(range(5), repeat=n + 1) if sum(c) <= 4]
        self.ns = len(states)
        self.local = {c: i for i, c in enumerate(states)}
        self.counts = states
        self.live = [sum(c) for c in states]
        self.won_shift = [WON_BITS * s for s in range(n)]
        self.held = [WON_BITS * n + NUM_RANKS * s for s in range(n)]
        self.fore = WON_BITS * n + NUM_RANKS * n
        self.base = [self.fore + NUM_RANKS * (1 + 2 * s) for s in range(n)]
        self.won_mask = (1 << WON_BITS * n) - 1
        self.full = (1 << n) - 1
        # ring[holders][seat]: the next seat clockwise after ``seat`` among the seats of
        # the bit mask ``holders`` (those that still hold cards)
        self.ring = [tuple(next(((s + i) % n for i in range(1, n + 1) if hm >> (s + i) % n & 1), s)
                           for s in range(n)) for hm in range(1 << n)]

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
        self.bits = [[b << r for b in local_bits] for r in range(NUM_RANKS)]

        self.turn: list[list[list[tuple[Capture, ...]]]] = []
        self.lie: list[list[list[Step]]] = []
        self.trail: list[list[list[Step]]] = []
        none: Step = (-1, 0)
        for m in range(n):
            turn_m, lie_m, trail_m = [], [], []
            for r in range(NUM_RANKS):
                turn: list[tuple[Capture, ...]] = []
                lie: list[Step] = []
                trail: list[Step] = []
                for c in states:
                    h, t = c[m], c[n]
                    outs: list[Capture] = []
                    for kind, mult in captures(h, t):
                        play, take = SHAPES[kind]
                        j, d = self.step(r, c, m, -play, -take, play + take)
                        outs.extend([(j, d, h == play, r << 3 | kind)] * mult)
                    if len(set(outs)) == 1:
                        outs = outs[:1]
                    turn.append(tuple(outs))
                    lie.append(self.step(r, c, m, -h, h, 0) if h else none)
                    trail.append(self.step(r, c, m, -1, 1, 0) if h else none)
                turn_m.append(turn)
                lie_m.append(lie)
                trail_m.append(trail)
            self.turn.append(turn_m)
            self.lie.append(lie_m)
            self.trail.append(trail_m)
        # claims[foreplay][m][r][g]: every concrete claim on rank r in state g when m is to
        # move, each listed as often as the concrete claims it stands for
        self.claims: list[list[list[list[tuple[ClaimStep, ...]]]]] = []
        for foreplay in (False, True):
            per_mover = []
            for m in range(n):
                per_rank: list[list[tuple[ClaimStep, ...]]] = [[] for _ in range(NUM_RANKS)]
                for c in states:
                    rule = claim_rule(c, m, foreplay)
                    for r in range(NUM_RANKS):
                        per_rank[r].append(tuple(self._claim_steps(r, c, rule)) if rule else ())
                per_mover.append(per_rank)
            self.claims.append(per_mover)

    def step(self, r: int, c: tuple[int, ...], seat: int, dh: int, dt: int, won: int) -> Step:
        """Rank ``r`` in state ``c``: ``seat``'s count changes by ``dh``, the table's by
        ``dt``, ``seat`` wins ``won`` cards; the state after and the addition to F."""
        a = list(c)
        a[seat] += dh
        a[self.n] += dt
        j = self.local[tuple(a)]
        return j, self.bits[r][j] - self.bits[r][self.local[c]] + (won << WON_BITS * seat)

    def _claim_steps(self, r: int, c: tuple[int, ...], rule: list[tuple[int, int, int]]) -> list[ClaimStep]:
        """The claims ``rule`` allows on rank ``r`` in state ``c``, one entry per concrete claim."""
        out: list[ClaimStep] = []
        for s, kind, mult in rule:
            if kind == HAND_CLAIM:
                took = 2 if c[s] == 3 else c[s]
                j, d = self.step(r, c, s, -took, 0, took)
                out.extend([(s << 7 | r << 3 | kind, r, j, d, took == c[s])] * mult)
            else:
                j, d = self.step(r, c, s, 0, -c[self.n], c[self.n])
                out.append((s << 7 | r << 3 | kind, r, j, d, False))
        return out


_TABLES: dict[tuple[object, ...], Tables] = {}
_BY_RULES: dict[int, tuple[Rules, Tables]] = {}


def tables_for(rules: Rules) -> Tables:
    """The tables of ``rules`` (made once per player count and move options)."""
    known = _BY_RULES.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    key = (rules.players, rules.single_takes_three, rules.pair_on_pair, rules.prial_on_single,
           rules.hand_sets, rules.hand_set_timing, rules.dead_claims, rules.spotter_claims,
           rules.no_capture)
    t = _TABLES.get(key)
    if t is None:
        t = _TABLES[key] = Tables(rules)
    if len(_BY_RULES) > 256:
        _BY_RULES.clear()
    _BY_RULES[id(rules)] = (rules, t)  # holding ``rules`` keeps its id from being reused
    return t


def _trail(k: Tables, rs: list[int], f: int, m: int, rnd: Callable[[], float]) -> tuple[int, int, bool]:
    """``m`` trails a card of its hand chosen uniformly: F after, the code, whether its
    hand ran out."""
    counts = k.counts
    held = RANKS_OF[f >> k.held[m] & FIELD]
    x = rnd() * sum(counts[rs[r]][m] for r in held)
    for r in held:  # noqa: B007 - the loop finds the rank
        x -= counts[rs[r]][m]
        if x < 0:
            break
    j, d = k.trail[m][r][rs[r]]
    rs[r] = j
    f += d
    return f, m << 7 | r << 3 | TRAIL, not f >> k.held[m] & FIELD


def random_outcome(fs: FastState, rng: Random, claim_p: float, trace: list[int] | None) -> Outcome:
    """Play the deal ``fs`` (which stays unchanged) to its end as
    :meth:`FastState.random_playout` documents; ``fs`` must not be over."""
    k = tables_for(fs.rules)
    n = k.n
    rnd, bits8 = rng.random, rng.getrandbits
    rs = list(map(k.local.__getitem__, zip(*fs.hc, fs.tc, strict=True)))
    won = fs.won
    f = sum(map(getitem, k.bits, rs)) + int.from_bytes(bytes(won), "little")
    total = sum(won) + sum(fs.lc)
    hs = fs.hs
    holders = k.full if 0 not in hs else sum(1 << s for s in range(n) if hs[s])
    holding = holders.bit_count()
    rings = k.ring
    nxt = rings[holders]
    m, la, lcap, foreplay = fs.to_move, fs.last_actor, fs.last_capture, fs.foreplay
    lain: list[int] = []
    turn, lie_t, base, held, fore, ranks_of, pick = k.turn, k.lie, k.base, k.held, k.fore, RANKS_OF, PICK
    lie_down = k.lie_down
    survivor = -1 if holding > 1 else nxt[m]
    # x: the ranks the seat to move can capture, and above them the ranks some seat may
    # claim now (in foreplay, hand sets of every seat too)
    x = f >> base[m] & BOTH
    if foreplay:
        x |= (f >> fore & FIELD) << NUM_RANKS
        foreplay = x > FIELD  # with no claim open, foreplay ends at the coming turn anyway
    while survivor < 0:
        if x > FIELD:
            if rnd() < claim_p:
                # claims, one at a time, while one is open and the draw says take it
                while True:
                    claims = k.claims[foreplay][m]
                    rank_list = ranks_of[x >> NUM_RANKS]
                    if len(rank_list) == 1:
                        r = rank_list[0]
                        options = claims[r][rs[r]]
                    else:
                        options = tuple(o for r in rank_list for o in claims[r][rs[r]])
                    code, r, j, d, emptied = options[floor(rnd() * len(options))]
                    rs[r] = j
                    f += d
                    la = code >> 7
                    if trace is not None:
                        trace.append(code)
                    if emptied and not f >> held[la] & FIELD:
                        holding -= 1
                        if holding <= 1:
                            survivor = nxt[la]
                            break
                        holders ^= 1 << la
                        nxt = rings[holders]
                        if la == m:
                            m = nxt[m]
                    x = f >> base[m] & BOTH
                    if foreplay:
                        x |= (f >> fore & FIELD) << NUM_RANKS
                    if not (x > FIELD and rnd() < claim_p):
                        break
                if survivor >= 0:
                    break
            foreplay = False
            x &= FIELD
        if x:
            i = pick[x][bits8(8)]
            while i < 0:
                i = pick[x][bits8(8)]
            r = ranks_of[x][i]
            options_t = turn[m][r][rs[r]]
            j, d, out, code = options_t[floor(rnd() * len(options_t))] if len(options_t) > 1 else options_t[0]
            rs[r] = j
            f += d
            lcap = m
            if trace is not None:
                trace.append(m << 7 | code)
            if out and not f >> held[m] & FIELD:
                holding -= 1
                if holding <= 1:
                    survivor, la = nxt[m], m
                    break
                holders ^= 1 << m
                nxt = rings[holders]
        elif lie_down:
            lie_m = lie_t[m]
            for q in ranks_of[f >> held[m] & FIELD]:
                j, d = lie_m[q][rs[q]]
                rs[q] = j
                f += d
            lain.append(m)
            if trace is not None:
                trace.append(m << 7 | LIE)
            holding -= 1
            if holding <= 1:
                survivor, la = nxt[m], m
                break
            holders ^= 1 << m
            nxt = rings[holders]
        else:
            f, code, out = _trail(k, rs, f, m, rnd)
            if trace is not None:
                trace.append(code)
            if out:
                holding -= 1
                if holding <= 1:
                    survivor, la = nxt[m], m
                    break
                holders ^= 1 << m
                nxt = rings[holders]
        la = m
        m = nxt[m]
        x = f >> base[m] & BOTH
    won = list((f & k.won_mask).to_bytes(n, "little"))
    won[fs.dealer] += total - sum(won)
    return won, survivor, lcap, la, foreplay, lain
