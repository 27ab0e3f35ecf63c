"""The portable shuffle: a seed names a deal on every machine and Python version.

The generator is SplitMix64 (Steele, Lea and Flood, 2014), written out so that any
program can reproduce it:

- state ``s`` starts as ``seed mod 2**64``;
- each draw: ``s = (s + 0x9E3779B97F4A7C15) mod 2**64``, then ``z = s``,
  ``z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2**64``,
  ``z = (z ^ (z >> 27)) * 0x94D049BB133111EB mod 2**64``, and the draw is ``z ^ (z >> 31)``;
- a number below ``n`` draws until the value is below ``2**64 - (2**64 mod n)``
  and returns it ``mod n`` (no bias);
- a shuffle is Fisher–Yates from the top: for ``i`` from ``len - 1`` down to 1, swap
  item ``i`` with item ``j``, a uniform number in ``[0, i]``. The ``j`` are drawn several
  from one 64-bit output: take the moduli ``m = i + 1, i, i - 1, ...`` while their product
  ``P`` stays at most ``2**64``; draw ``x`` until ``x < 2**64 - (2**64 mod P)``; then each
  ``j`` in turn is ``x mod m`` and ``x`` becomes ``x // m`` (a mixed-radix reading of a
  uniform number below ``P``, so every ``j`` is uniform and independent).

The deck before shuffling is in card order ``AS AH AD AC 2S .. KC`` (card ``i`` is rank
``i // 4``, suit ``i % 4`` of ``S H D C``).

>>> r = PortableRandom(1)
>>> r.next64()
10451216379200822465
>>> PortableRandom(7).below(10) == PortableRandom(7).below(10)
True

A seed names a deal, so whoever knows it knows every hand, and SplitMix64's outputs give
away its state: a session's seeds follow one another. Online play deals instead with
:class:`KeyedRandom`, whose draws come from a secret through HMAC-SHA256, one stream per
purpose and number; no draw of one stream tells anything of another without the secret.

>>> secret = bytes(range(16))
>>> KeyedRandom(secret, "deal", 1).next64() == KeyedRandom(secret, "deal", 1).next64()
True
>>> KeyedRandom(secret, "deal", 1).next64() == KeyedRandom(secret, "deal", 2).next64()
False
"""

from __future__ import annotations

import hmac
from functools import cache
from typing import TypeVar

from .compiled import KERNEL

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class PortableRandom:
    """SplitMix64 with unbiased bounded draws and a Fisher–Yates shuffle."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK64

    def next64(self) -> int:
        """The next 64-bit output."""
        s = (self._state + _GOLDEN) & _MASK64
        self._state = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (several swaps per 64-bit draw, as documented above).
        The compiled kernel shuffles when it is loaded and this is exactly a
        :class:`PortableRandom` (the same permutation and state after as
        :func:`shuffle_py`, the pure path, which plays everything else)."""
        kernel = KERNEL.playing()
        if (kernel is None or not KERNEL.shuffle_checked(PortableRandom, shuffle_py)
                or not kernel.portable_shuffle(self, items)):
            shuffle_py(self, items)


def shuffle_py(rng: PortableRandom, items: list[T]) -> None:
    """:meth:`PortableRandom.shuffle`'s pure path, the reference its compiled twin is held
    to: Fisher–Yates from the top, the ``j`` read from ``rng.next64()`` as documented above."""
    i = len(items) - 1
    for moduli, limit in _plan(len(items)):
        x = rng.next64()
        while x >= limit:
            x = rng.next64()
        for m in moduli:
            x, j = divmod(x, m)
            items[i], items[j] = items[j], items[i]
            i -= 1


#: The shortest secret :class:`KeyedRandom` takes (bytes): 128 bits.
MIN_SECRET = 16


class KeyedRandom(PortableRandom):
    """Draws from a secret: the 64-bit words of HMAC-SHA256(secret, label || counter), with
    label ``lald/<purpose>/<number>/`` and the counter as 8 bytes big-endian, counting from
    0; each digest gives four words, read from its first eight bytes on. Bounded draws and
    the shuffle are :class:`PortableRandom`'s, so a keyed deal is dealt as a seeded one."""

    __slots__ = ("_key", "_label", "_counter", "_words")

    def __init__(self, secret: bytes, purpose: str, number: int = 0) -> None:
        if len(secret) < MIN_SECRET:
            raise ValueError(f"a secret has at least {MIN_SECRET} bytes")
        self._key = bytes(secret)
        self._label = f"lald/{purpose}/{number}/".encode()
        self._counter = 0
        self._words: list[int] = []

    def next64(self) -> int:
        """The next 64-bit word of the stream."""
        if not self._words:
            block = hmac.digest(self._key, self._label + self._counter.to_bytes(8, "big"), "sha256")
            self._counter += 1
            self._words = [int.from_bytes(block[i:i + 8], "big") for i in (24, 16, 8, 0)]
        return self._words.pop()


def keyed_number(secret: bytes, purpose: str, number: int = 0) -> int:
    """A 256-bit number drawn from ``secret`` for ``purpose`` and ``number`` (to seed a
    bot's generator, say); the same inputs give the same number."""
    return int.from_bytes(hmac.digest(bytes(secret), f"lald/{purpose}/{number}".encode(), "sha256"), "big")


@cache
def _plan(length: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The moduli read from each draw when shuffling ``length`` items, with the draw limit."""
    plan = []
    m = length
    while m > 1:
        product, moduli = 1, []
        while m > 1 and product * m <= 1 << 64:
            product *= m
            moduli.append(m)
            m -= 1
        plan.append((tuple(moduli), (1 << 64) - ((1 << 64) % product)))
    return tuple(plan)
