"""What the compiled kernel is handed: the fast path's tables and a policy's, packed into
the C structs of ``_kernel.c`` (:mod:`lald.core.compiled` loads the kernel and checks the
structs' sizes).

>>> from lald.core import Rules
>>> packed = pack_tables(tables_for(Rules.make()))
>>> packed[0], len(packed)
(5, 19)
"""

from __future__ import annotations

from array import array
from math import inf
from struct import pack

from ..cards import NUM_RANKS
from ..compiled.loader import CAPTURE, CLAIM, STEP
from ..rules import Rules
from .tables import Best, Tables, tables_for

_M64 = (1 << 64) - 1
_PACKED: dict[tuple[object, ...], object] = {}
_OFFSETS: dict[tuple[object, ...], list[int]] = {}


def _words(v: int) -> tuple[int, int, int, int]:
    """``v`` modulo 2**256 as four 64-bit words, lowest first (F and its additions)."""
    return v & _M64, v >> 64 & _M64, v >> 128 & _M64, v >> 192 & _M64


def pack_tables(k: Tables) -> tuple[object, ...]:
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
            caps.extend(pack(CAPTURE, *_words(d), j, out, code, 0) for j, d, out, code in options)
            j, d = k.lie[m][g]
            lie.append(pack(STEP, *_words(d), j))
            j, d = k.trail[m][g]
            trail.append(pack(STEP, *_words(d), j))
    claim_off: list[int] = []
    claim_len: list[int] = []
    claims: list[bytes] = []
    for by_mover in k.claims:
        for steps in by_mover:
            for claim_steps in steps:
                claim_off.append(len(claims))
                claim_len.append(len(claim_steps))
                claims.extend(pack(CLAIM, *_words(d), code, r, j, emptied)
                              for code, r, j, d, emptied in claim_steps)
    return (
        n, ns, k.lie_down, k.fore, ints(k.held), ints(k.base),
        ints([seat for row in k.ring for seat in row]), ints([c for cs in k.counts for c in cs]),
        array("Q", [w for b in k.bits for w in _words(b)]).tobytes(), ints(local), ints(single),
        ints(multi_off), ints(multi_len), b"".join(caps), b"".join(lie), b"".join(trail),
        ints(claim_off), ints(claim_len), b"".join(claims),
    )


def prepare(rules: object) -> object:
    """The compiled kernel's copy of the tables of ``rules`` (made once per tables; the
    kernel asks, through :meth:`lald.core.compiled.Kernel.connect`)."""
    assert isinstance(rules, Rules)
    k = tables_for(rules)
    packed = _PACKED.get(k.key)
    if packed is None:
        from .. import _kernel

        packed = _PACKED[k.key] = _kernel.prepare(*pack_tables(k))
    return packed


def pack_policy(
    rules: Rules, best: Best, trail_key: list[list[int]],
) -> tuple[bytes, bytes, bytes] | None:
    """The compiled :func:`~lald.core.fast.playout.scored_outcome`'s copy of a policy's
    tables (see ``_kernel.c``): per mover and rank state the index of its preferred capture among the packed
    captures (-1: none), its score, and the trail key; None for tables it leaves to the
    pure path (a capture that is not one of the state's own, a missing one, a score that
    is no finite float or -inf-free, a trail key that is no 32-bit int)."""
    k = tables_for(rules)
    n, size = k.n, NUM_RANKS * k.ns
    offsets = _OFFSETS.get(k.key)
    if offsets is None:  # where pack_tables puts each (mover, state)'s captures
        offsets = _OFFSETS[k.key] = []
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
