"""The play-outs of :class:`~lald.core.fast.state.FastState`: one deal played to its end on
the dense encoding of :mod:`lald.core.fast.tables`.

:func:`random_outcome` plays every seat at random (the search bots' plain roll-out and
:meth:`FastState.random_outcome <lald.core.fast.state.FastState.random_outcome>`);
:func:`scored_outcome` plays the same deal by the same rules with a policy given as tables
(a preferred capture per mover and rank state, a claim chooser): the search bots' roll-out
with the heuristic (:mod:`lald.bots.kernel`) runs on it.  Both have a compiled twin in
``_kernel.c`` (played when :mod:`lald.core.compiled` loaded it and its self-checks passed;
:func:`random_outcome_py` and :func:`scored_outcome_py` are the reference it is held to).

Turns, claims and the end of the deal follow :meth:`FastState.apply
<lald.core.fast.state.FastState.apply>` (and so :class:`~lald.core.engine.state.State`)
exactly; ``tests/core/fast/test_fast.py`` replays every play-out through the checked engine
and checks the first move's probabilities.  Claims are picked uniformly among all concrete
open claims, as ``FastState.open_claim_options`` weighs them; only the order in which the
kernel lists them differs, which leaves every claim's probability the same.

>>> import random
>>> from lald.core import Rules, State
>>> from lald.core.fast import FastState
>>> fs = FastState.from_state(State.deal(Rules.make(), seed=1))
>>> won, survivor, last_capture, last_actor, foreplay, lain, last_take = random_outcome(
...     fs, random.Random(2), 0.5, None)
>>> sum(won), fs.over
(52, False)
"""

from __future__ import annotations

from collections.abc import Callable
from math import floor, inf
from operator import getitem
from typing import TYPE_CHECKING

from ..cards import NUM_RANKS
from ..codes import LIE, RANKS_OF, TABLE_CLAIM, TRAIL
from ..compiled import KERNEL
from .tables import (
    BOTH,
    FIELD,
    PICK_BITS,
    Best,
    Capture,
    ClaimStep,
    Deal,
    Outcome,
    Tables,
    pick_table,
    tables_for,
)

if TYPE_CHECKING:
    from random import Random

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
    took = fs.last_take
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
                    took = la  # the last claim's seat
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
                lcap = took = m
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
    return _won(k, f, fs), nxt[m], lcap, la, foreplay, lain, took


def random_outcome(fs: Deal, rng: Random, claim_p: float, trace: list[int] | None) -> Outcome:
    """Play the deal ``fs`` (which stays unchanged) to its end as
    :meth:`FastState.random_playout` documents; ``fs`` must not be over.  The compiled
    kernel plays it when it is loaded (the same outcome, trace and draws from ``rng`` as
    :func:`random_outcome_py`, which plays whatever the kernel leaves: a subclass of
    Random, ``LALD_KERNEL=python``, a machine with no compiler)."""
    kernel = KERNEL.playing()
    if kernel is not None:
        out: Outcome | None = kernel.random_outcome(fs, rng, claim_p, trace)
        if out is not None:
            return out
    return random_outcome_py(fs, rng, claim_p, trace)

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
    kernel = KERNEL.playing()
    if kernel is not None:
        out: Outcome | None = kernel.scored_outcome(fs, best, trail_key, choose_claim, trace)
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
    ``tests/core/fast/test_fast.py`` and ``tests/bots/test_kernel.py`` hold each to the
    engine's moves."""
    k = tables_for(fs.rules)
    n = k.n
    rs, f, holders = _begin(k, fs)
    holding = holders.bit_count()
    rings = k.ring
    nxt = rings[holders]
    m, la, lcap, foreplay = fs.to_move, fs.last_actor, fs.last_capture, fs.foreplay
    took = fs.last_take
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
                la = took = code >> 7
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
                lcap = took = m
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
    return _won(k, f, fs), nxt[m], lcap, la, foreplay, lain, took
