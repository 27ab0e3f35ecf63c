"""The random play-out kernel of :class:`~lald.core.fast.FastState`: one deal on rank states.

Roll-outs spend their time in :meth:`FastState.random_outcome` (and
:meth:`FastState.random_playout`), so they run here on a second, denser encoding, made for
one tight loop:

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
* Precomputed per rules, for each mover and rank state: the capture (or, where several
  kinds are open, every capture, each repeated as often as the concrete captures it stands
  for, so a uniform pick over the tuple is a uniform pick over concrete captures), the
  state after lying down or trailing, and every concrete claim.  A turn reads tables and
  adds integers; it builds no list and makes no object but integers.

:func:`scored_outcome` plays the same deal by the same rules with a policy given as tables
(a preferred capture per mover and rank state, a claim chooser): the search bots' roll-out
with the heuristic (:mod:`lald.bots.kernel`) runs on it.  Both have a compiled twin in
``_kernel.c`` (played when it is built and its self-check passed; :func:`random_outcome_py`
and :func:`scored_outcome_py` are the reference it is held to).

Turns, claims and the end of the deal follow :meth:`FastState.apply` (and so
:class:`~lald.core.state.State`) exactly; ``tests/core/test_fast.py`` replays every
play-out through the checked engine and checks the first move's probabilities.  Claims are
picked uniformly among all concrete open claims, as :meth:`FastState.open_claim_options`
weighs them; only the order in which the kernel lists them differs, which leaves every
claim's probability the same.

>>> import random
>>> from lald.core import Rules, State
>>> from lald.core.fast import FastState
>>> fs = FastState.from_state(State.deal(Rules.make(), seed=1))
>>> won, survivor, last_capture, last_actor, foreplay, lain = random_outcome(fs, random.Random(2), 0.5, None)
>>> sum(won), fs.over
(52, False)
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import product
from math import comb, floor, inf
from operator import getitem
from struct import calcsize, pack
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from .cards import NUM_RANKS
from .codes import HAND_CLAIM, LIE, PAIR, PRIAL, RANKS_OF, SHAPES, SINGLE, SWEEP, TABLE_CLAIM, TRAIL
from .rules import DeadClaims, HandSetTiming, NoCapture, Rules, SingleTakesThree

if TYPE_CHECKING:
    from random import Random


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
Outcome = tuple[list[int], int, int, int, bool, list[int]]
"""A finished play-out: won-pile sizes (residue included), survivor, last turn capture
(-1: none), last actor, whether it ended in foreplay, and the seats that lay down."""

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
        "held", "fore", "base", "won_mask", "full", "ring", "orders", "lie_down",
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
    j, d = k.trail[m][rs[r]]
    rs[r] = j
    f += d
    return f, m << 7 | r << 3 | TRAIL, not f >> k.held[m] & FIELD


def _claims(
    k: Tables, rs: list[int], f: int, x: int, m: int, holders: int, foreplay: bool,
    rnd: Callable[[], float], claim_p: float, trace: list[int] | None,
) -> tuple[int, int, int, int, int]:
    """Claims, one at a time, uniformly among all concrete claims open, while one is open
    and a draw below ``claim_p`` says take it (the caller made the first draw).  ``x`` is
    the loop's capture and claim bits of the seat to move, ``holders`` the bit mask of the
    seats holding cards.  Returns ``(F, seat to move, last actor, holders, survivor)``;
    the survivor is -1 while the deal goes on."""
    held, base, fore, rings = k.held, k.base, k.fore, k.ring
    claims = k.claims[foreplay]
    while True:
        rank_list = RANKS_OF[x >> NUM_RANKS]
        if len(rank_list) == 1:
            options = claims[m][rs[rank_list[0]]]
        else:
            gathered: list[ClaimStep] = []
            for r in rank_list:
                gathered.extend(claims[m][rs[r]])
            options = tuple(gathered)
        code, r, j, d, emptied = options[floor(rnd() * len(options))]
        rs[r] = j
        f += d
        seat = code >> 7
        if trace is not None:
            trace.append(code)
        if emptied and not f >> held[seat] & FIELD:
            holders ^= 1 << seat
            if not holders & holders - 1:
                return f, m, seat, holders, holders.bit_length() - 1
            if seat == m:
                m = rings[holders][m]
        x = f >> base[m] & BOTH
        if foreplay:
            x |= (f >> fore & FIELD) << NUM_RANKS
        if not (x > FIELD and rnd() < claim_p):
            return f, m, seat, holders, -1


def _begin(k: Tables, fs: Deal) -> tuple[list[int], int, int]:
    """The rank states of ``fs``, its F (with the won piles), and the bit mask of the
    seats that hold cards."""
    rs = list(map(getitem, k.local, zip(*fs.hc, fs.tc, strict=True)))
    f = sum(map(k.bits.__getitem__, rs)) + int.from_bytes(bytes(fs.won), "little")
    hs = fs.hs
    return rs, f, k.full if 0 not in hs else sum(1 << s for s, size in enumerate(hs) if size)


def _lie_down(k: Tables, rs: list[int], f: int, m: int, lain: list[int], trace: list[int] | None) -> int:
    """``m`` lies down: its whole hand goes to the table.  Returns F after."""
    lie_m = k.lie[m]
    for q in RANKS_OF[f >> k.held[m] & FIELD]:
        j, d = lie_m[rs[q]]
        rs[q] = j
        f += d
    lain.append(m)
    if trace is not None:
        trace.append(m << 7 | LIE)
    return f


def _won(k: Tables, f: int, fs: Deal) -> list[int]:
    """The won piles at the end of a play-out of ``fs`` whose F is ``f``: the survivor's
    hand and the table (every card not yet won) go to the dealer."""
    won = list((f & k.won_mask).to_bytes(k.n, "little"))
    won[fs.dealer] += sum(fs.won) + sum(fs.lc) - sum(won)
    return won


def random_outcome_py(fs: Deal, rng: Random, claim_p: float, trace: list[int] | None) -> Outcome:
    """Play the deal ``fs`` (which stays unchanged) to its end as
    :meth:`FastState.random_playout` documents; ``fs`` must not be over.  The pure path:
    the reference the compiled kernel (:func:`random_outcome`) is held to."""
    k = tables_for(fs.rules)
    rnd, bits = rng.random, rng.getrandbits
    rs, f, holders = _begin(k, fs)
    holding = holders.bit_count()
    rings = k.ring
    nxt = rings[holders]
    m, la, lcap, foreplay = fs.to_move, fs.last_actor, fs.last_capture, fs.foreplay
    lain: list[int] = []
    turn, multi, base, held = k.turn, k.multi, k.base, k.held
    pick, pick_bits, field, both = pick_table(), PICK_BITS, FIELD, BOTH
    lie_down = k.lie_down
    if holding > 1:
        # x: the ranks the seat to move can capture, and above them the ranks some seat
        # may claim now (in foreplay, hand sets of every seat too)
        x = f >> base[m] & both
        if foreplay:
            x |= (f >> k.fore & field) << NUM_RANKS
            foreplay = x > field  # with no claim open, foreplay ends at the coming turn anyway
        while True:
            if x > field:
                if rnd() < claim_p:
                    f, m, la, holders, survivor = _claims(
                        k, rs, f, x, m, holders, foreplay, rnd, claim_p, trace)
                    nxt = rings[holders]
                    if survivor >= 0:
                        break
                    holding = holders.bit_count()
                    x = f >> base[m] & both
                foreplay = False
                x &= field
            if x:
                r = pick[x][bits(pick_bits)]
                while r < 0:
                    r = pick[x][bits(pick_bits)]
                g = rs[r]
                capture = turn[m][g]
                if capture is None:
                    options = multi[m][g]
                    capture = options[floor(rnd() * len(options))]
                j, d, out, code = capture
                rs[r] = j
                f += d
                lcap = m
                if trace is not None:
                    trace.append(m << 7 | code)
                out = out and not f >> held[m] & field
            elif lie_down:
                f = _lie_down(k, rs, f, m, lain, trace)
                out = True
            else:
                f, code, out = _trail(k, rs, f, m, rnd)
                if trace is not None:
                    trace.append(code)
            if out:  # the seat to move holds no card now: it leaves the turn ring
                holding -= 1
                if holding <= 1:
                    la = m
                    break
                holders ^= 1 << m
                nxt = rings[holders]
            m = nxt[m]
            x = f >> base[m] & both
    # the one seat still holding cards (the next after m among the holders, or m itself
    # if it alone holds) survives; its hand and the table go to the dealer
    return _won(k, f, fs), nxt[m], lcap, la, foreplay, lain



# -- the compiled kernel ------------------------------------------------------------------

KernelFunction = Callable[["Deal", "Random", float, "list[int] | None"], "Outcome | None"]
"""The compiled play-out: :func:`random_outcome_py`'s answer, or None for an input it
leaves to the pure path (before any draw)."""

_compiled: KernelFunction | None = None
ScoredFunction = Callable[
    ["Deal", "Best", "list[list[int]]", "ClaimChooser", "list[int] | None"], "Outcome | None"]
"""The compiled :func:`scored_outcome`: :func:`scored_outcome_py`'s answer, or None for an
input it leaves to the pure path (before any move)."""
_scored: ScoredFunction | None = None
_status: str | None = None  # None until the first use loads (or refuses) the kernel
SampleFunction = Callable[[bytes, "Random", int], "tuple[tuple[list[list[int]], list[int]], bool] | None"]
"""The compiled draw of a search world (``lald.bots.kernel.compiled_sample``)."""
_sample: SampleFunction | None = None
DrawWorldFunction = Callable[[bytes, "Random", int, int, int, bool],
                             "tuple[list[list[int]], list[int]] | None"]
"""The compiled draw of the expert's world (``lald.bots.kernel.compiled_draw_world``)."""
_draw_world: DrawWorldFunction | None = None
PlausibleFunction = Callable[[bytes, "list[list[int]]", int, int, bool], "bool | None"]
"""The compiled opponent model's test of a world (``lald.bots.kernel.compiled_plausible``)."""
_plausible: PlausibleFunction | None = None
ShuffleFunction = Callable[[object, "list[Any]"], bool]
"""The compiled deal shuffle (:meth:`lald.core.rng.PortableRandom.shuffle`)."""
_shuffle: ShuffleFunction | None = None
SearchFunctions = tuple[Callable[..., object], Callable[..., "list[float] | None"]]
"""The compiled search in one world: ``search_context`` and ``world_values``
(``lald.bots.kernel.search_context``)."""
_search: SearchFunctions | None = None
_PACKED: dict[int, object] = {}
_M64 = (1 << 64) - 1
_CAPTURE, _STEP, _CLAIM = "=4Q4i", "=4Qi4x", "=4Q4i"  # the C structs, item by item


def _words(v: int) -> tuple[int, int, int, int]:
    """``v`` modulo 2**256 as four 64-bit words, lowest first (F and its additions)."""
    return v & _M64, v >> 64 & _M64, v >> 128 & _M64, v >> 192 & _M64


def _pack(k: Tables) -> tuple[object, ...]:
    """The arguments of ``_kernel.prepare`` for the tables ``k`` (see ``_kernel.c``)."""
    n, ns = k.n, k.ns
    size = NUM_RANKS * ns

    def ints(values: list[int]) -> bytes:
        return array("i", values).tobytes()

    local = [-1] * 5 ** (n + 1)
    for i, c in enumerate(k.counts[:ns]):
        local[sum(v * 5 ** t for t, v in enumerate(c))] = i
    single: list[int] = []
    multi_off: list[int] = []
    multi_len: list[int] = []
    caps: list[bytes] = []
    lie: list[bytes] = []
    trail: list[bytes] = []
    for m in range(n):
        for g in range(size):
            options = k.multi[m][g]
            single.append(k.turn[m][g] is not None)
            multi_off.append(len(caps))
            multi_len.append(len(options))
            caps.extend(pack(_CAPTURE, *_words(d), j, out, code, 0) for j, d, out, code in options)
            j, d = k.lie[m][g]
            lie.append(pack(_STEP, *_words(d), j))
            j, d = k.trail[m][g]
            trail.append(pack(_STEP, *_words(d), j))
    claim_off: list[int] = []
    claim_len: list[int] = []
    claims: list[bytes] = []
    for by_mover in k.claims:
        for steps in by_mover:
            for claim_steps in steps:
                claim_off.append(len(claims))
                claim_len.append(len(claim_steps))
                claims.extend(pack(_CLAIM, *_words(d), code, r, j, emptied)
                              for code, r, j, d, emptied in claim_steps)
    return (
        n, ns, k.lie_down, k.fore, ints(k.held), ints(k.base),
        ints([seat for row in k.ring for seat in row]), ints([c for cs in k.counts for c in cs]),
        array("Q", [w for b in k.bits for w in _words(b)]).tobytes(), ints(local), ints(single),
        ints(multi_off), ints(multi_len), b"".join(caps), b"".join(lie), b"".join(trail),
        ints(claim_off), ints(claim_len), b"".join(claims),
    )


def _self_check(kernel: ModuleType) -> bool:
    """Whether the kernel's draws, read from a Random's state, are the object's own:
    ``random()`` and ``getrandbits`` from fresh generators, across the state's refills, and
    the same state after."""
    import random

    fresh = random.Random()
    for seed in (0, 20260502, None):
        a, b = random.Random(seed), random.Random(seed)
        if seed is None:
            a.setstate(fresh.getstate())
            b.setstate(fresh.getstate())
        for _ in range(300):
            if a.random() != kernel.draw_random(b):
                return False
            for width in (1, PICK_BITS, 31, 32):
                if a.getrandbits(width) != kernel.draw_bits(b, width):
                    return False
        if a.getstate() != b.getstate():
            return False
    return _draws_check(kernel)


def _draws_check(kernel: ModuleType) -> bool:
    """Whether the kernel's integer draws, shuffles, choices and weighted choices (the
    search's worlds) are ``random.Random``'s own, read from its state."""
    import random

    if not kernel.configure_draws():
        return False
    for seed in (1, 20260502):
        a, b = random.Random(seed), random.Random(seed)
        below = a._randbelow  # type: ignore[attr-defined]
        for n in [*range(1, 70), 1000, 2**31 - 1, 2**31 + 5, 2**32 - 1]:
            for _ in range(3):
                if below(n) != kernel.draw_below(b, n) or a.choice(range(n)) != kernel.draw_below(b, n):
                    return False
        for length in range(53):
            x = list(range(length))
            a.shuffle(x)
            if x != kernel.shuffled(b, length):
                return False
        pick = random.Random(seed)
        for length in (1, 2, 3, 5, 13, 52):
            for _ in range(20):
                weights = [pick.randint(1, 4) for _ in range(length)]
                if a.choices(range(length), weights=weights)[0] != kernel.draw_weighted(b, weights):
                    return False
        if a.getstate() != b.getstate():
            return False
    return True


_SHUFFLE_CHECKED: dict[object, bool] = {}


def check_shuffle(portable: type, reference: Callable[[Any, list[Any]], None]) -> bool:
    """Let the compiled deal shuffle play for exactly the type ``portable``
    (:class:`lald.core.rng.PortableRandom`) if it shuffles as ``reference`` (its pure
    path) does, the same permutation and the same state after, on a few seeds and lengths
    (checked once per loaded kernel; :mod:`lald.core.rng` asks)."""
    kernel = compiled_shuffle()
    if kernel is None:
        return False
    known = _SHUFFLE_CHECKED.get(kernel)
    if known is None:
        from . import _kernel

        known = False
        if _kernel.configure_portable(portable):
            known = True
            for seed in (0, 1, 12345, 2**64 - 1):
                for length in (0, 1, 2, 5, 13, 21, 22, 52, 60):
                    p, q = portable(seed), portable(seed)
                    x, y = list(range(length)), list(range(length))
                    reference(p, x)
                    if not kernel(q, y) or x != y or p.next64() != q.next64():
                        known = False
        if not known:
            _kernel.configure_portable(None)
        _SHUFFLE_CHECKED[kernel] = known
    return known


def _load() -> None:
    """Load the compiled kernel, unless ``LALD_KERNEL=python`` says not to, it is not
    built, or its self-check fails; then :func:`random_outcome` plays the pure path."""
    global _compiled, _scored, _status, _sample, _plausible, _shuffle, _search, _draw_world
    _compiled = _scored = _sample = _plausible = _shuffle = _search = _draw_world = None
    if os.environ.get("LALD_KERNEL", "").strip().lower() == "python":
        _status = "python (LALD_KERNEL=python)"
        return
    try:
        from . import _kernel
    except ImportError:
        _status = "python (the compiled kernel is not built)"
        return
    try:
        import _random
        import random

        sizes = _kernel.layout()
        if sizes != tuple(calcsize(f) for f in (_CAPTURE, _STEP, _CLAIM)):
            _status = "python (self-check failed: table layout)"
        elif not _kernel.configure(random.Random, _random.Random, _prepare):
            _status = "python (self-check failed: Random's layout)"
        elif not _self_check(_kernel):
            _status = "python (self-check failed: random draws)"
        elif _kernel.enable(True):
            _kernel.configure_scored(first_claim, _pack_policy)
            _compiled = _kernel.random_outcome
            _scored = _kernel.scored_outcome
            _sample = _kernel.sample
            _plausible = _kernel.plausible
            _shuffle = _kernel.portable_shuffle
            _draw_world = _kernel.draw_world
            _search = (_kernel.search_context, _kernel.world_values)
            for cls in _DEAL_CLASSES:
                _kernel.configure_deal(cls)
            _status = "compiled"
    except Exception as e:  # never fail: the pure path plays
        _status = f"python (self-check failed: {type(e).__name__})"
        _compiled = _scored = _sample = _plausible = _shuffle = _search = _draw_world = None


def _prepare(rules: Rules) -> object:
    """The compiled kernel's copy of the tables of ``rules`` (made once per tables)."""
    k = tables_for(rules)
    packed = _PACKED.get(id(k))  # tables live as long as the process (in _TABLES)
    if packed is None:
        from . import _kernel

        packed = _PACKED[id(k)] = _kernel.prepare(*_pack(k))
    return packed


_PURE: ContextVar[bool] = ContextVar("lald_pure_path", default=False)
"""Whether this context plays the pure path (:func:`pure_path`); the kernel stays loaded."""


@contextmanager
def pure_path() -> Iterator[None]:
    """Within the block, every dispatch of this module (and of the modules that dispatch
    through it) plays the pure path, as ``LALD_KERNEL=python`` would, in this thread or
    task only (a context variable: other threads go on playing the kernel); afterwards
    the kernel plays again.  A bot seated with ``kernel=python`` decides in it, so that one
    process can seat a bot on each path (both then see the same load)."""
    if _status is None:
        _load()
    token = _PURE.set(True)
    try:
        yield
    finally:
        _PURE.reset(token)


def compiled_kernel() -> KernelFunction | None:
    """The compiled play-out, if it is loaded and its self-check passed, and this context
    is not in :func:`pure_path` (else None)."""
    if _status is None:
        _load()
    return None if _PURE.get() else _compiled


def compiled_draws() -> tuple[SampleFunction | None, PlausibleFunction | None, ShuffleFunction | None,
                              DrawWorldFunction | None]:
    """The compiled world draw, opponent-model test, deal shuffle and expert's world draw
    (None each where the pure path plays: no kernel, ``LALD_KERNEL=python``,
    :func:`pure_path`)."""
    if _status is None:
        _load()
    if _PURE.get():
        return None, None, None, None
    return _sample, _plausible, _shuffle, _draw_world


_DEAL_CLASSES: list[type] = []


def deal_class(cls: type) -> None:
    """Let the compiled kernel read the deals of exactly ``cls``
    (:class:`~lald.core.fast.FastState`, which registers itself) from its slots instead of
    by attribute lookup; it falls back to lookups if the class changes or a field is not a
    plain slot."""
    _DEAL_CLASSES[:] = [cls]
    if _status is not None and _compiled is not None:
        from . import _kernel

        _kernel.configure_deal(cls)


def compiled_search() -> SearchFunctions | None:
    """The compiled search in one world (see :func:`compiled_draws`)."""
    if _status is None:
        _load()
    return None if _PURE.get() else _search


def compiled_shuffle() -> ShuffleFunction | None:
    """The compiled deal shuffle, or None (see :func:`compiled_draws`)."""
    if _status is None:
        _load()
    return None if _PURE.get() else _shuffle


def kernel_name() -> str:
    """Which play-out :func:`random_outcome` runs: ``"compiled"`` or ``"python"``."""
    return "compiled" if compiled_kernel() is not None else "python"


def kernel_status() -> str:
    """:func:`kernel_name`, with the reason when it is the pure path."""
    compiled_kernel()
    assert _status is not None
    return "python (pure_path in this context)" if _PURE.get() and _compiled is not None else _status


def random_outcome(fs: Deal, rng: Random, claim_p: float, trace: list[int] | None) -> Outcome:
    """Play the deal ``fs`` (which stays unchanged) to its end as
    :meth:`FastState.random_playout` documents; ``fs`` must not be over.  The compiled
    kernel plays it when it is loaded (the same outcome, trace and draws from ``rng`` as
    :func:`random_outcome_py`, which plays whatever the kernel leaves: a subclass of
    Random, ``LALD_KERNEL=python``, a machine with no compiler)."""
    if _status is None:
        _load()
    if _compiled is not None and not _PURE.get():
        out = _compiled(fs, rng, claim_p, trace)
        if out is not None:
            return out
    return random_outcome_py(fs, rng, claim_p, trace)

Best = list[list[tuple[float, Capture] | None]]
"""``best[m][g]``: for the mover ``m`` and rank state ``g``, the capture a policy prefers
on that rank and its score (None where ``m`` cannot capture)."""
ClaimChooser = Callable[[tuple[ClaimStep, ...], int, tuple[int, ...]], ClaimStep | None]
"""Given every concrete claim open now (the engine's), the seat to move and the seats in
the order claims are offered: the claim to make, or None to let them all pass."""


def first_claim(options: tuple[ClaimStep, ...], mover: int, order: tuple[int, ...]) -> ClaimStep | None:
    """A claim chooser (the heuristic's, :mod:`lald.bots.kernel`): the first seat in claim
    ``order`` that has a claim from its hand takes the one of the lowest rank; the seat to
    move also takes spotter pairs, after its hand claims; None when no seat has one.  The
    compiled :func:`scored_outcome` knows this function and plays it without a call."""
    chosen: ClaimStep | None = None
    key = (len(order), True, NUM_RANKS)
    for step in options:
        seat = step[0] >> 7
        table = step[0] & 7 == TABLE_CLAIM
        if table and seat != mover:
            continue
        mine = (order.index(seat), table, step[1])
        if mine < key:
            chosen, key = step, mine
    return chosen


def scored_outcome(
    fs: Deal, best: Best, trail_key: list[list[int]], choose_claim: ClaimChooser,
    trace: list[int] | None = None,
) -> Outcome:
    """Play the deal ``fs`` (unchanged; not over) to its end as :func:`scored_outcome_py`
    documents.  The compiled kernel plays it when it is loaded and ``choose_claim`` is
    :func:`first_claim` (the same outcome and trace as :func:`scored_outcome_py`, which
    plays whatever the kernel leaves: another chooser, tables it does not know,
    ``LALD_KERNEL=python``, a machine with no compiler).  The compiled path reads
    ``best`` and ``trail_key`` once per row objects (it keeps them): rows must not be
    changed in place once played."""
    if _status is None:
        _load()
    if _scored is not None and not _PURE.get():
        out = _scored(fs, best, trail_key, choose_claim, trace)
        if out is not None:
            return out
    return scored_outcome_py(fs, best, trail_key, choose_claim, trace)


def scored_outcome_py(
    fs: Deal, best: Best, trail_key: list[list[int]], choose_claim: ClaimChooser,
    trace: list[int] | None = None,
) -> Outcome:
    """The pure path of :func:`scored_outcome`, the reference its compiled kernel is held
    to.  Play a copy of the deal ``fs`` (unchanged; not over) to its end with a policy given
    as tables, and return the end as :func:`random_outcome` does.  Whenever claims are
    open, ``choose_claim`` is offered them (again after each claim made); each turn the
    mover plays, among the ranks it can capture, the capture of ``best`` with the highest
    score (the lowest rank on a tie); with no capture it lies down, or trails a card of
    the rank it holds with the lowest ``trail_key[m][g]`` (the lowest rank on a tie).
    ``trace`` receives every code played.  The rules (turn order, claims, the end of the
    deal and its residue) are the same as :func:`random_outcome`'s; the two loops are
    written out apart so that neither pays a call per move, and
    ``tests/core/test_fast.py`` and ``tests/bots/test_kernel.py`` hold each to the
    engine's moves."""
    k = tables_for(fs.rules)
    n = k.n
    rs, f, holders = _begin(k, fs)
    holding = holders.bit_count()
    rings = k.ring
    nxt = rings[holders]
    m, la, lcap, foreplay = fs.to_move, fs.last_actor, fs.last_capture, fs.foreplay
    lain: list[int] = []
    held, base, claims, orders = k.held, k.base, k.claims, k.orders
    lie_down = k.lie_down
    if holding > 1:
        x = f >> base[m] & BOTH
        if foreplay:
            x |= (f >> k.fore & FIELD) << NUM_RANKS
            foreplay = x > FIELD
        while True:
            while x > FIELD:  # claims may be open
                steps = claims[foreplay][m]
                ranks = RANKS_OF[x >> NUM_RANKS]
                if len(ranks) == 1:
                    open_claims = steps[rs[ranks[0]]]
                else:
                    open_claims = tuple(step for r in ranks for step in steps[rs[r]])
                step = choose_claim(open_claims, m, orders[fs.eldest if la < 0 else (la + 1) % n])
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
                f = _lie_down(k, rs, f, m, lain, trace)
                out = True
            else:
                key = trail_key[m]
                rank = min(RANKS_OF[f >> held[m] & FIELD], key=lambda q: key[rs[q]])
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
    return _won(k, f, fs), nxt[m], lcap, la, foreplay, lain


_OFFSETS: dict[int, list[int]] = {}


def _pack_policy(rules: Rules, best: Best, trail_key: list[list[int]]) -> tuple[bytes, bytes, bytes] | None:
    """The compiled :func:`scored_outcome`'s copy of a policy's tables (see ``_kernel.c``):
    per mover and rank state the index of its preferred capture among the packed
    captures (-1: none), its score, and the trail key; None for tables it leaves to the
    pure path (a capture that is not one of the state's own, a missing one, a score that
    is no finite float or -inf-free, a trail key that is no 32-bit int)."""
    k = tables_for(rules)
    n, size = k.n, NUM_RANKS * k.ns
    offsets = _OFFSETS.get(id(k))
    if offsets is None:  # where _pack puts each (mover, state)'s captures
        offsets = _OFFSETS[id(k)] = []
        at = 0
        for m in range(n):
            for g in range(size):
                offsets.append(at)
                at += len(k.multi[m][g])
    caps: list[int] = []
    scores: list[float] = []
    keys: list[int] = []
    try:
        if len(best) < n or len(trail_key) < n:
            return None
        for m in range(n):
            row, key_row, multi = best[m], trail_key[m], k.multi[m]
            if len(row) < size or len(key_row) < size:
                return None
            for g in range(size):
                entry, options = row[g], multi[g]
                if entry is None:
                    if options:
                        return None  # the pure path would skip the rank: left to it
                    caps.append(-1)
                    scores.append(0.0)
                else:
                    if type(entry) is not tuple or len(entry) != 2:
                        return None
                    score, capture = entry
                    if type(score) is not float or not -inf < score < inf or capture not in options:
                        return None
                    caps.append(offsets[m * size + g] + options.index(capture))
                    scores.append(score)
                v = key_row[g]
                if type(v) is not int or not -(2**31) <= v < 2**31:
                    return None
                keys.append(v)
    except (TypeError, ValueError, IndexError):
        return None
    return array("i", caps).tobytes(), array("d", scores).tobytes(), array("i", keys).tobytes()
