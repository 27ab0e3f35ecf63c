"""Committing the tables' writes: in order, a batch per turn of the event loop, and
before anyone is told.

A table that accepts an action applies it at once (so the next message is checked
against it) and queues its write here; the connections watching the table send nothing
until the table has no write left uncommitted (:meth:`Saved.until_saved`). The writer
commits everything queued during one turn of the event loop as one transaction, in a
worker thread, so a burst of actions from many tables costs one commit, and the event
loop serves other tables while the database works.

If the database refuses a batch (it is down, say), the writer logs it and tries the same
batch again, ever more slowly: nobody is told of those actions meanwhile, and nothing is
written out of order. Every batch carries the writer's id and its number, committed with
it, so a batch whose commit went through but whose confirmation was lost (the connection
dropped at that moment) is recognised on the retry and not written twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from ...store import Store, Write

log = logging.getLogger("lald.web")

SPACING = 0.005
"""The least time between the starts of two commits (seconds): at most 200 commits a
second, however many tables play, so that a busy server commits several actions at once
(each commit costs the database and the writer's thread as much as several actions);
an action waits at most this long more for its commit, and none at an idle server."""


class Saved:
    """Something whose writes go through a :class:`Journal` (a table): how many of them
    are not yet committed, and a way to wait until none is."""

    def __init__(self) -> None:
        self.unsaved = 0
        self._saved = asyncio.Event()
        self._saved.set()

    async def until_saved(self) -> None:
        """Return once every write queued so far is committed.

        When it returns, nothing has been queued since the check: the caller may read
        and send the table's state before its next ``await``.
        """
        while self.unsaved:
            await self._saved.wait()


class Journal:
    """The single writer: batches of writes committed in the order they were queued."""

    def __init__(self, store: Store, threaded: bool = True) -> None:
        self.store = store
        self.threaded = threaded
        self._queue: list[tuple[Write, Saved]] = []
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self.writer = secrets.token_hex(8)
        """This writer's id in the database's record of committed batches."""
        self.commits = 0
        """Batches committed so far."""
        self.writes = 0
        """Writes committed so far."""
        self.observe: Callable[[Sequence[Write], float], None] | None = None
        """Called with each batch committed and the seconds its commit took (metrics)."""
        self.spacing = SPACING
        """The least time between the starts of two commits (seconds)."""
        self._thread: ThreadPoolExecutor | None = None
        """The one thread the batches are committed in: always the same thread, so always
        the same database connection, whose cache the previous batch left warm (the
        event loop's shared pool of threads handed each batch to another one, and with it
        another connection: a third of an action's CPU went to the commits, issue 31)."""

    def start(self) -> None:
        """Start the writer task."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="lald journal")

    def add(self, write: Write, owner: Saved) -> None:
        """Queue ``write``; ``owner`` counts it as unsaved until it is committed."""
        owner.unsaved += 1
        owner._saved.clear()
        self._queue.append((write, owner))
        self._idle.clear()
        self._wake.set()

    async def flush(self) -> None:
        """Return once everything queued so far is committed."""
        while not self._idle.is_set():
            await self._idle.wait()

    async def close(self) -> None:
        """Commit what is queued, then stop the writer."""
        if self._task is not None:
            if not self._task.done():
                await self.flush()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._thread is not None:
            self._thread.shutdown(wait=False)
            self._thread = None

    async def _run(self) -> None:
        began = -math.inf
        while True:
            await self._wake.wait()
            # A batch at most every ``spacing`` seconds: a busy server gathers more writes
            # per commit; one whose last commit is older than that commits at once.
            wait = began + self.spacing - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            began = time.monotonic()
            self._wake.clear()
            batch, self._queue = self._queue, []
            if not batch:
                if not self._queue:
                    self._idle.set()
                continue
            await self._commit([w for w, _ in batch])
            for _, owner in batch:
                owner.unsaved -= 1
                if owner.unsaved == 0:
                    owner._saved.set()
            self.commits += 1
            self.writes += len(batch)
            if not self._queue:
                self._idle.set()

    def write(self, writes: Sequence[Write], mark: tuple[str, int]) -> None:
        """Commit one batch (in a worker thread if :attr:`threaded`)."""
        self.store.write(writes, mark)

    async def _commit(self, writes: list[Write]) -> None:
        pause = 0.05
        mark = (self.writer, self.commits + 1)
        while True:
            try:
                start = time.perf_counter()
                if self.threaded:
                    if self._thread is None:
                        self._thread = ThreadPoolExecutor(1, thread_name_prefix="lald-journal")
                    await asyncio.get_running_loop().run_in_executor(self._thread, self.write, writes, mark)
                else:
                    self.write(writes, mark)
                if self.observe is not None:
                    self.observe(writes, time.perf_counter() - start)
                return
            except Exception:
                log.exception("the database refused %d writes; trying again in %.2f s", len(writes), pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
