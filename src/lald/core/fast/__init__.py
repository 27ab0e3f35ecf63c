"""The fast path: the deal on per-rank counts that the search bots think and play out on.

:class:`~.state.FastState` plays moves as small integers (:mod:`lald.core.codes`) without
the engine's checks; :mod:`.tables` is the denser encoding its play-outs run on and
:mod:`.playout` the play-outs themselves, the pure reference of the compiled kernel
(:mod:`lald.core.compiled`); :mod:`.pack` hands the kernel the tables.  Importing any of
them connects the kernel to them, here.  Each is held to the checked engine by a test
(docs/architecture.md#twins).
"""

from ..compiled import KERNEL
from .pack import pack_policy, prepare
from .playout import first_claim
from .state import FastState

KERNEL.connect(prepare, first_claim, pack_policy)
KERNEL.deal_class(FastState)  # the kernel reads a deal's fields from its slots

__all__ = ["FastState"]
