"""The expert's review of a finished deal, for the replay viewer (:mod:`lald.coach.review`).

A review takes a second or more of one core, so the server makes one at a time, in a
worker thread (the event loop and every table go on meanwhile), from a bounded queue:
:class:`Reviews`. A request for a review not made yet queues it and is answered at once
with where it stands (waiting, or how many decisions are weighed); the page asks again.
A review made is kept (the same deal, seat and seed always give the same review) and its
words per language, so asking again is instant.

Only a finished deal is reviewed: its record is public to anyone who may open the table,
and the review reads only what the seat could see then, so it tells nothing the record
does not. A deal in play is never reviewed (:meth:`lald.web.tables.Table.record`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

from ..coach.review import DEFAULT_WORLDS, Review, review_deal
from ..coach.words import review_json, review_lines
from ..core import State
from ..i18n import Catalog
from ..record import Record

log = logging.getLogger("lald.web")

Key = tuple[str, int, int]
"""A review's key: the table, the deal (0-based), the seat."""


class _Stopped(Exception):
    """The server is stopping: the review in hand is dropped."""


@dataclasses.dataclass
class Job:
    """A review asked for: queued, then being made."""

    key: Key
    state: State
    started: bool = False
    done: int = 0
    total: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Progress:
    """Where a review stands: ``queued`` (``ahead`` reviews before it), ``working``
    (``done`` of ``total`` decisions weighed), ``done`` (``review``), ``busy`` (the queue
    is full: not queued) or ``failed`` (``reason``, in English; asking again retries)."""

    status: str
    ahead: int = 0
    done: int = 0
    total: int | None = None
    review: Review | None = None
    reason: str = ""


class Reviews:
    """One review at a time per server, from a queue of at most ``queue`` reviews; at
    most ``keep`` reviews kept (the least recently asked for is forgotten first)."""

    def __init__(self, worlds: int = DEFAULT_WORLDS, queue: int = 16, keep: int = 512) -> None:
        self.worlds, self.size, self.keep = worlds, queue, keep
        self.made: collections.OrderedDict[Key, Review] = collections.OrderedDict()
        self.words: collections.OrderedDict[tuple[Key, str], dict[str, Any]] = collections.OrderedDict()
        self.jobs: dict[Key, Job] = {}
        self.failed: dict[Key, str] = {}
        self.waiting: collections.deque[Job] = collections.deque()
        self.wake = asyncio.Event()
        self.stopping = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the worker task."""
        if self.task is None:
            self.task = asyncio.create_task(self._work(), name="lald reviews")

    async def close(self) -> None:
        """Stop: the review being made ends at its next decision."""
        self.stopping = True
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    def ask(self, key: Key, state: State) -> Progress:
        """Where the review of ``key`` stands, queueing it if it is neither made nor
        queued (``state`` is the finished deal)."""
        review = self.made.get(key)
        if review is not None:
            self.made.move_to_end(key)
            return Progress("done", review=review)
        reason = self.failed.pop(key, None)
        if reason is not None:
            return Progress("failed", reason=reason)
        job = self.jobs.get(key)
        if job is None:
            if len(self.waiting) >= self.size:
                return Progress("busy")
            job = self.jobs[key] = Job(key, state)
            self.waiting.append(job)
            self.wake.set()
        if job.started:
            return Progress("working", done=job.done, total=job.total)
        running = sum(1 for j in self.jobs.values() if j.started)
        return Progress("queued", ahead=self.waiting.index(job) + running)

    def text(self, key: Key, review: Review, lang: str, names: Sequence[str]) -> dict[str, Any]:
        """The review in ``lang``'s words, kept per language."""
        found = self.words.get((key, lang))
        if found is None:
            found = self.words[(key, lang)] = review_page(review, Catalog(lang), names)
            while len(self.words) > self.keep * 2:
                self.words.popitem(last=False)
        return found

    async def _work(self) -> None:
        while True:
            while not self.waiting:
                self.wake.clear()
                await self.wake.wait()
            job = self.waiting.popleft()
            job.started = True
            try:
                review = await asyncio.to_thread(self._make, job)
            except asyncio.CancelledError:
                raise
            except _Stopped:
                return
            except Exception as e:  # a defect: say so to whoever asked, keep serving
                log.exception("the review of %s failed", job.key)
                self.failed[job.key] = f"the expert failed ({type(e).__name__})"
            else:
                self.made[job.key] = review
                while len(self.made) > self.keep:
                    self.made.popitem(last=False)
            finally:
                self.jobs.pop(job.key, None)

    def _make(self, job: Job) -> Review:
        """In the worker thread: the review, from the deal's record (not the table's live
        objects), reporting each decision weighed."""
        def progress(done: int, total: int) -> None:
            if self.stopping:
                raise _Stopped
            job.done, job.total = done, total

        state = Record.from_state(job.state, layout=True).replay()
        return review_deal(state, job.key[2], worlds=self.worlds, progress=progress)


def review_page(review: Review, catalog: Catalog, names: Sequence[str]) -> dict[str, Any]:
    """The review for the replay viewer: its JSON (``lald-review/1``, docs/review.md) and
    the terminal's own lines, grouped: the title and unit, each decision's lines (its
    heading first), the summary."""
    data = review_json(review, catalog, names)
    lines = review_lines(review, catalog, names)
    blocks: list[list[str]] = []
    i = 3
    while i < len(lines) and lines[i]:
        if lines[i].startswith(" "):
            blocks[-1].append(lines[i].strip())
        else:
            blocks.append([lines[i]])
        i += 1
    if len(blocks) != len(review.decisions):  # the lines' layout changed: say it, do not guess
        raise ValueError("the review's lines do not match its decisions")
    data["text"] = {"title": lines[0], "unit": lines[1], "decisions": blocks, "summary": lines[i + 1:]}
    return data
