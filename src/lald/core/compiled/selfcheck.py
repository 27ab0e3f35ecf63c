"""The compiled kernel's self-checks: its draws, read from a ``random.Random``'s state, must
be the generator's own before it may play.

The kernel reads CPython's Mersenne Twister straight from the object (``_kernel.c``
re-declares the layout of ``_randommodule.c``'s ``RandomObject``, a private structure), so a
Python whose generator is laid out or draws otherwise would give other games.  These checks
draw from pairs of generators with the same state, one through ``random.Random`` and one
through the kernel, and compare every draw and the state after; :class:`~.loader.Kernel`
runs them on load and plays the pure path, with a warning, when one fails.
"""

from __future__ import annotations

import random
from types import ModuleType

#: The widths of ``getrandbits`` the play-outs draw (1 bit, the 5 bits of a rank's pick, 31, 32).
WIDTHS = (1, 5, 31, 32)


def random_draws_match(kernel: ModuleType) -> bool:
    """Whether the kernel's draws, read from a Random's state, are the object's own:
    ``random()`` and ``getrandbits`` from fresh generators, across the state's refills, and
    the same state after."""
    fresh = random.Random()
    for seed in (0, 20260502, None):
        a, b = random.Random(seed), random.Random(seed)
        if seed is None:
            a.setstate(fresh.getstate())
            b.setstate(fresh.getstate())
        for _ in range(300):
            if a.random() != kernel.draw_random(b):
                return False
            for width in WIDTHS:
                if a.getrandbits(width) != kernel.draw_bits(b, width):
                    return False
        if a.getstate() != b.getstate():
            return False
    return world_draws_match(kernel)


def world_draws_match(kernel: ModuleType) -> bool:
    """Whether the kernel's integer draws, shuffles, choices and weighted choices (the
    search's worlds) are ``random.Random``'s own, read from its state."""
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


def shuffles_match(kernel: ModuleType, portable: type, reference: object) -> bool:
    """Whether the kernel's deal shuffle shuffles exactly the type ``portable``
    (:class:`lald.core.rng.PortableRandom`) as ``reference`` (its pure path) does: the same
    permutation and the same state after, on a few seeds and lengths.  Leaves the kernel
    configured for ``portable`` if so, for no type if not."""
    if not kernel.configure_portable(portable):
        return False
    assert callable(reference)
    for seed in (0, 1, 12345, 2**64 - 1):
        for length in (0, 1, 2, 5, 13, 21, 22, 52, 60):
            p, q = portable(seed), portable(seed)
            x, y = list(range(length)), list(range(length))
            reference(p, x)
            if not kernel.portable_shuffle(q, y) or x != y or p.next64() != q.next64():
                kernel.configure_portable(None)
                return False
    return True
