"""The journal of one server of several: the tables' writes committed only while the
server still holds their leases (:mod:`lald.store.leases`), the tables lost handed over
before anyone is told, how the commits fare (for ``/readyz``), and a bounded stop.

:class:`lald.web.site.cluster.Cluster` makes one and is its :class:`Holder`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Protocol

from ...clock import SYSTEM, Clock
from ...store import NewAction, NewTable, Store, Write
from ...store.leases import Leases
from ..ops import failpoint
from ..table.journal import Journal, Saved

log = logging.getLogger("lald.web")


class Holder(Protocol):
    """The server a :class:`ClusterJournal` writes for."""

    clock: Clock
    """What its time is read on."""

    def committed(self, new: Sequence[str], lost: set[str]) -> None:
        """A batch is committed: with the tables it made (``new``) and those whose leases
        were found lost (``lost``), handed over before anyone is told of the batch."""


class ClusterJournal(Journal):
    """The journal of one server of several: a batch commits only the writes of tables
    the server still holds (:meth:`Leases.write`); the tables lost are handed over before
    anyone is told of the batch, and so are the tables whose batch could never be
    committed (another server played them meanwhile). It keeps how its commits fare, for
    ``/readyz`` (:meth:`trouble`), and its stop is bounded (:meth:`settle`)."""

    def __init__(self, store: Store, leases: Leases, stop_seconds: float = 10.0) -> None:
        super().__init__(store, threaded=True)
        self.leases = leases
        self.stop_seconds = stop_seconds
        """How long a stop waits for the database (seconds; the site's ``stop_seconds``)."""
        self.cluster: Holder | None = None
        """The server it writes for, told of what each batch committed and lost."""
        self._lost: set[str] = set()
        self.failures = 0
        """Tries in a row the database refused (0: the last one went through)."""
        self.error = ""
        """The kind of the last refusal (``OperationalError``)."""
        self.since: float | None = None
        """When the batch being committed was first tried (the cluster's clock), or None."""

    def write(self, writes: Sequence[Write], mark: tuple[str, int]) -> None:
        try:
            lost = self.leases.write(writes, mark)
        except Exception as e:
            self.failures += 1
            self.error = type(getattr(e, "orig", None) or e).__name__
            raise
        self.failures = 0
        self._lost |= lost

    def trouble(self, now: float, late: float) -> str | None:
        """Why this server cannot write now, or None: the database refuses its writes, or
        a batch has waited over ``late`` seconds for it (``now``: the cluster's clock)."""
        if self.failures:
            return f"the database refuses this server's writes ({self.failures} tries failed: {self.error})"
        if self.since is not None and now - self.since > late:
            return f"a batch of writes has waited {now - self.since:.0f} s for the database"
        return None

    def discard(self, owner: Saved) -> int:
        """Drop the writes of ``owner`` (a table handed over) still queued: they were
        accepted against a table this server no longer holds, and told to nobody."""
        kept = [(w, o) for w, o in self._queue if o is not owner]
        dropped = len(self._queue) - len(kept)
        if dropped:
            self._queue = kept
            owner.unsaved -= dropped
            if owner.unsaved == 0:
                owner._saved.set()
        return dropped

    async def settle(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for everything queued to be committed; past that, stop
        the writer and drop what it holds (told to nobody; a commit under way in its
        thread still renews its leases first, so it commits only what the server held).
        Returns whether everything was committed."""
        try:
            await asyncio.wait_for(self.flush(), seconds)
            return True
        except TimeoutError:
            pass
        dropped = len(self._queue)
        for _, owner in self._queue:
            owner.unsaved = 0
            owner._saved.set()
        self._queue = []
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._idle.set()
        log.error("the database took no writes for %.1f s: the writer stops, %d queued writes and the "
                  "batch it was trying are dropped (told to nobody)", seconds, dropped,
                  extra={"event": {"writes": dropped, "error": self.error}})
        return False

    async def close(self) -> None:
        await self.settle(self.stop_seconds)
        await super().close()

    async def _commit(self, writes: list[Write]) -> None:
        human = any(isinstance(w, NewAction) and w.source == "human" for w in writes)
        if human:
            failpoint("before_commit")  # accepted, not committed
        self.since = (self.cluster.clock if self.cluster is not None else SYSTEM).monotonic()
        try:
            await super()._commit(writes)
        finally:
            self.since = None
        lost, self._lost = self._lost, set()
        if self.cluster is not None:
            self.cluster.committed([w.data.id for w in writes if isinstance(w, NewTable)], lost)
        if human:
            failpoint("after_commit")  # committed, nobody told yet
