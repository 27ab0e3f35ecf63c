"""The browser laboratory's comparisons: a bounded queue, one worker process at a time,
results kept and named by their request (:class:`Laboratory`).

A comparison takes seconds to minutes of a core, so it never runs in the event loop: each
is played in a worker process of its own (:func:`.work.child`, the compiled kernel doing
the play), one at a time, whose messages a thread hands to the loop. What one visitor may
ask is bounded, each refusal one line (:class:`Refused`): at most :attr:`Laboratory.queue`
comparisons wait, a request asks for at most :data:`.work.MAX_DEALS` deals, an address for
at most :attr:`Laboratory.per_hour` deals an hour, and a comparison that runs longer than
:attr:`Laboratory.time_limit` seconds (by the injected clock) is stopped. A comparison made
is kept (the last :attr:`Laboratory.keep`) under its id, a digest of its request: asking
again for the same comparison, or opening its link, costs nothing.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import multiprocessing
import threading
from typing import Any

from ...clock import SYSTEM, Clock, Timer
from .work import Request, child

log = logging.getLogger("lald.web")

__all__ = ["ADDRESSES", "Comparison", "Laboratory", "Refused"]

#: Addresses remembered before those that asked for nothing in the last hour are forgotten.
ADDRESSES = 1000


class Refused(Exception):
    """A request the laboratory will not take now: its HTTP status, its sentence (English,
    for programs) and a code the page words in its own language, with the numbers it names."""

    def __init__(self, status: int, message: str, code: str, **values: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.values = status, code, values


@dataclasses.dataclass
class Comparison:
    """One comparison asked for: ``queued``, ``running``, ``done`` or ``failed``."""

    request: Request
    status: str = "queued"
    done: int = 0
    total: int = 0
    brief: dict[str, Any] | None = None
    """The main figures so far (:func:`.work.brief`)."""
    report: list[dict[str, Any]] | None = None
    """The report's blocks, once done (:func:`.work.report_blocks`)."""
    reason: str = ""
    """Why it failed (English, one line)."""
    code: str = ""
    """The failure's code, for the page's words."""
    process: Any = None
    listener: threading.Thread | None = None
    """The thread that hands the worker's messages to the loop."""
    timer: Timer | None = None

    def to_json(self, ahead: int = 0) -> dict[str, Any]:
        """What the page is told of it."""
        out: dict[str, Any] = {"request": self.request.to_json(), "status": self.status,
                               "done": self.done, "total": self.total or 2 * self.request.deals,
                               "brief": self.brief}
        if self.status == "done":
            out["report"] = self.report
        if self.status == "queued":
            out["ahead"] = ahead
        if self.status == "failed":
            out |= {"error": self.reason, "code": self.code}
        return out


class Laboratory:
    """The comparisons of one server."""

    def __init__(self, clock: Clock = SYSTEM, *, queue: int = 3, per_hour: int = 20_000,
                 time_limit: float = 600.0, keep: int = 32, context: str = "forkserver") -> None:
        self.clock = clock
        self.queue = queue
        """Comparisons that may wait (besides the one running)."""
        self.per_hour = per_hour
        """Deals one client address may ask for in an hour."""
        self.time_limit = time_limit
        """Seconds a comparison may run before it is stopped."""
        self.keep = keep
        """Comparisons kept, done or failed (the least recently asked for goes first)."""
        self.context: Any = multiprocessing.get_context(context)
        self.kept: collections.OrderedDict[str, Comparison] = collections.OrderedDict()
        self.waiting: collections.deque[Comparison] = collections.deque()
        self.running: Comparison | None = None
        self.asked: dict[str, collections.deque[tuple[float, int]]] = {}
        """Each address's requests of the last hour: (when, deals)."""
        self.loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Serve from the running event loop."""
        self.loop = asyncio.get_running_loop()

    async def close(self) -> None:
        """Stop the comparison running; forget those waiting."""
        self.waiting.clear()
        job = self.running
        if job is not None:
            self._stop(job, "the server stopped", "lab_stopped")
        for kept in [job, *self.kept.values()]:
            if kept is not None and kept.listener is not None and kept.listener.is_alive():
                await asyncio.to_thread(kept.listener.join, 5)

    # -- asking -------------------------------------------------------------------------

    def find(self, ident: str) -> tuple[Comparison, int] | None:
        """The comparison named ``ident`` and how many are ahead of it, if it is known."""
        if self.running is not None and self.running.request.id == ident:
            return self.running, 0
        for i, job in enumerate(self.waiting):
            if job.request.id == ident:
                return job, i + (self.running is not None)
        kept = self.kept.get(ident)
        if kept is None:
            return None
        self.kept.move_to_end(ident)
        return kept, 0

    def submit(self, request: Request, address: str) -> tuple[Comparison, int]:
        """The comparison of ``request`` and how many are ahead of it: the one known (done,
        waiting or running) at no cost, else a new one queued; raise :class:`Refused`."""
        found = self.find(request.id)
        if found is not None and found[0].status != "failed":
            return found
        now = self.clock.monotonic()
        if len(self.asked) > ADDRESSES:  # forget the addresses that asked nothing this hour
            self.asked = {a: r for a, r in self.asked.items() if r and r[-1][0] > now - 3600}
        recent = self.asked.setdefault(address, collections.deque())
        while recent and recent[0][0] <= now - 3600:
            recent.popleft()
        used = sum(deals for _when, deals in recent)
        if used + request.deals > self.per_hour:
            raise Refused(429, f"your address has asked for {used:,} deals in the last hour, and may ask for "
                               f"{self.per_hour:,}: ask for fewer deals, or come back later", "lab_hourly",
                          used=used, most=self.per_hour)
        if len(self.waiting) >= self.queue:
            raise Refused(503, f"the laboratory is busy: {len(self.waiting)} comparisons are waiting; try "
                               "again in a few minutes", "lab_busy", waiting=len(self.waiting))
        recent.append((now, request.deals))
        self.kept.pop(request.id, None)
        job = Comparison(request, total=2 * request.deals)
        self.waiting.append(job)
        self._next()
        found = self.find(request.id)
        assert found is not None
        return found

    # -- the worker ---------------------------------------------------------------------

    def _next(self) -> None:
        """Start the next comparison waiting, if none runs."""
        if self.running is not None or not self.waiting or self.loop is None:
            return
        job = self.waiting.popleft()
        self.running = job
        job.status = "running"
        receiving, sending = self.context.Pipe(duplex=False)
        job.process = self.context.Process(target=child, args=(job.request.to_json(), sending),
                                           name=f"lald lab {job.request.id}", daemon=True)
        job.process.start()
        sending.close()
        job.timer = self.clock.call_later(self.time_limit, lambda: self._time_out(job))
        job.listener = threading.Thread(target=self._listen, args=(job, receiving), daemon=True,
                                        name=f"lald lab {job.request.id}")
        job.listener.start()

    def _listen(self, job: Comparison, conn: Any) -> None:
        """In a thread: hand the worker's messages to the loop until its pipe closes."""
        loop = self.loop
        assert loop is not None
        with contextlib.closing(conn):
            while True:
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    break
                self._tell(loop, self._heard, job, message)
        job.process.join()
        self._tell(loop, self._ended, job)

    @staticmethod
    def _tell(loop: asyncio.AbstractEventLoop, callback: Any, *args: Any) -> None:
        """Hand ``callback`` to the loop, unless the loop has closed (the server stopped,
        its comparisons with it: there is nobody left to tell)."""
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(callback, *args)

    def _heard(self, job: Comparison, message: tuple[Any, ...]) -> None:
        if job.status != "running":  # stopped meanwhile: what it still says is dropped
            return
        kind = message[0]
        if kind == "progress":
            job.done, job.total = message[1], message[2]
        elif kind == "partial":
            job.brief = message[1]
        elif kind == "done":
            result = message[1]
            job.brief, job.report = result["brief"], result["report"]
            job.done = job.total
            self._finish(job, "done")
        else:
            log.error("the comparison %s failed: %s", job.request.id, message[1])
            job.reason, job.code = str(message[1]), "lab_failed"
            self._finish(job, "failed")

    def _ended(self, job: Comparison) -> None:
        if job.status == "running":  # the worker ended without a word
            job.reason, job.code = "the comparison's worker stopped without a result", "lab_failed"
            self._finish(job, "failed")

    def _time_out(self, job: Comparison) -> None:
        if job.status == "running":
            self._stop(job, f"the comparison took longer than {self.time_limit:.0f} seconds, the most one "
                            "may take: ask for fewer deals, or quicker bots", "lab_time")

    def _stop(self, job: Comparison, reason: str, code: str) -> None:
        job.reason, job.code = reason, code
        self._finish(job, "failed")
        with contextlib.suppress(Exception):
            job.process.terminate()

    def _finish(self, job: Comparison, status: str) -> None:
        job.status = status
        if job.timer is not None:
            job.timer.cancel()
            job.timer = None
        if self.running is job:
            self.running = None
        self.kept[job.request.id] = job
        self.kept.move_to_end(job.request.id)
        while len(self.kept) > self.keep:
            self.kept.popitem(last=False)
        self._next()
