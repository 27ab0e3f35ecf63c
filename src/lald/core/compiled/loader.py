"""The compiled kernel, ``lald.core._kernel``, loaded once, checked, and asked for.

The kernel (``src/lald/core/_kernel.c``) plays the fast path's play-outs, deals, draws the
search's worlds and searches one world, each the twin of a pure-Python reference that it is
held to draw for draw (docs/architecture.md#the-compiled-twins).  :data:`KERNEL` loads it on
first use, unless ``LALD_KERNEL=python`` says not to or it is not built, and lets it play
only once its self-checks passed (:mod:`.selfcheck`): the layout of its tables, of
CPython's ``random.Random`` object, and its draws against the generator's own.  A check that
fails is said loudly (a :class:`RuntimeWarning`, and ``lald --version``) and the pure path
plays.  :func:`pure_path` turns it off for one thread or task.

The fast path hands it what it plays on when that is imported (:meth:`Kernel.connect`): the
packing of a rules' tables and of a policy, and the claim chooser it knows natively.

>>> kernel_name() in ("compiled", "python")
True
>>> with pure_path():
...     KERNEL.playing() is None
True
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from struct import calcsize
from types import ModuleType

from .selfcheck import random_draws_match, shuffles_match

#: The C structs of a capture, a lie-down or trail, and a claim, item by item
#: (``_kernel.prepare`` reads the tables packed in them; ``layout()`` gives their sizes).
CAPTURE, STEP, CLAIM = "=4Q4i", "=4Qi4x", "=4Q4i"

_PURE: ContextVar[bool] = ContextVar("lald_pure_path", default=False)
"""Whether this context plays the pure path (:func:`pure_path`); the kernel stays loaded."""


class Kernel:
    """The compiled kernel of this process: whether it plays, and why not.

    :meth:`playing` is the extension module while it may play here (loaded, checked, and
    not within :func:`pure_path`), else None; :attr:`status` says which path plays, with
    the reason when it is the pure one."""

    def __init__(self) -> None:
        self._status: str | None = None  # None until the first use loads (or refuses) it
        self._module: ModuleType | None = None
        self._hooks: tuple[Callable[[object], object], object, object] | None = None
        self._deal_class: type | None = None
        self._shuffle: tuple[type, object, bool] | None = None

    def _load(self) -> None:
        """Load the kernel, unless ``LALD_KERNEL=python`` says not to or it is not built, and
        keep it if every self-check passes; warn when one fails."""
        self._module, self._shuffle = None, None
        if os.environ.get("LALD_KERNEL", "").strip().lower() == "python":
            self._status = "python (LALD_KERNEL=python)"
            return
        try:
            from .. import _kernel
        except ImportError:
            self._status = "python (the compiled kernel is not built)"
            return
        failed = self._check(_kernel)
        if failed is not None:
            self._status = f"python (self-check failed: {failed})"
            warnings.warn(f"lald's compiled kernel failed its self-check ({failed}); the pure-Python "
                          "path plays instead, slower, with the same games", RuntimeWarning, stacklevel=3)
            return
        self._module = _kernel
        self._status = "compiled"
        self._configure()

    def _check(self, kernel: ModuleType) -> str | None:
        """What keeps ``kernel`` from playing (None: nothing); it is configured as it goes."""
        import _random
        import random

        try:
            if kernel.layout() != tuple(calcsize(f) for f in (CAPTURE, STEP, CLAIM)):
                return "table layout"
            if not kernel.configure(random.Random, _random.Random, self._prepare):
                return "Random's layout"
            if not random_draws_match(kernel):
                return "random draws"
            if not kernel.enable(True):
                return "the kernel refused to play"
        except Exception as e:  # never fail: the pure path plays
            return type(e).__name__
        return None

    def _configure(self) -> None:
        """Hand the loaded kernel what the fast path connected."""
        if self._module is None:
            return
        if self._hooks is not None:
            self._module.configure_scored(self._hooks[1], self._hooks[2])
        if self._deal_class is not None:
            self._module.configure_deal(self._deal_class)

    def _prepare(self, rules: object) -> object:
        """The kernel's copy of the tables of ``rules`` (the fast path's packing)."""
        if self._hooks is None:
            raise RuntimeError("the fast path (lald.core.fast) has not connected its tables")
        return self._hooks[0](rules)

    def connect(self, prepare: Callable[[object], object], first_claim: object, pack_policy: object) -> None:
        """Let the kernel play the fast path's tables: ``prepare(rules)`` packs a rules'
        tables, ``first_claim`` is the claim chooser it plays without a call, and
        ``pack_policy(rules, best, trail_key)`` packs a policy (``lald.core.fast.pack``)."""
        self._hooks = (prepare, first_claim, pack_policy)
        self._configure()

    def deal_class(self, cls: type) -> None:
        """Let the kernel read the deals of exactly ``cls``
        (:class:`~lald.core.fast.state.FastState`, which registers itself) from its slots
        instead of by attribute lookup; it falls back to lookups if the class changes or a
        field is not a plain slot."""
        self._deal_class = cls
        self._configure()

    def playing(self) -> ModuleType | None:
        """The kernel, if it is loaded and its self-checks passed, and this context is not
        in :func:`pure_path` (else None)."""
        if self._status is None:
            self._load()
        return None if _PURE.get() else self._module

    @property
    def status(self) -> str:
        """``"compiled"``, or ``"python (...)"`` with the reason the pure path plays."""
        if self._status is None:
            self._load()
        assert self._status is not None
        if _PURE.get() and self._module is not None:
            return "python (pure_path in this context)"
        return self._status

    def shuffle_checked(self, portable: type, reference: object) -> bool:
        """Whether the kernel's deal shuffle may shuffle exactly the type ``portable``
        (:class:`lald.core.rng.PortableRandom`): it shuffles as ``reference``, its pure path,
        does (checked once per loaded kernel; :mod:`lald.core.rng` asks)."""
        kernel = self.playing()
        if kernel is None:
            return False
        known = self._shuffle
        if known is None or known[0] is not portable or known[1] is not reference:
            known = self._shuffle = (portable, reference, shuffles_match(kernel, portable, reference))
        return known[2]

    def reload(self) -> None:
        """Load the kernel afresh on next use (after a test has changed what it loads)."""
        self._status, self._module, self._shuffle = None, None, None


#: The compiled kernel of this process.
KERNEL = Kernel()


@contextmanager
def pure_path() -> Iterator[None]:
    """Within the block, everything the kernel plays (play-outs, dealing, the search) plays
    the pure path instead, as ``LALD_KERNEL=python`` would, in this thread or task only (a
    context variable: other threads go on playing the kernel); afterwards the kernel plays
    again.  A bot seated with ``kernel=python`` decides in it, so that one process can
    seat a bot on each path (both then see the same load)."""
    KERNEL.playing()
    token = _PURE.set(True)
    try:
        yield
    finally:
        _PURE.reset(token)


def kernel_name() -> str:
    """Which path the play-outs play here: ``"compiled"`` or ``"python"``."""
    return "compiled" if KERNEL.playing() is not None else "python"


def kernel_status() -> str:
    """:func:`kernel_name`, with the reason when it is the pure path."""
    return KERNEL.status
