"""The expert's review of a finished deal, for the replay viewer (:mod:`lald.coach.review`).

A review takes a second or more of one core, so the server makes one at a time, in a
worker thread (the event loop and every table go on meanwhile), from a bounded queue:
:class:`Reviews`. A request for a review not made yet queues it and is answered at once
with where it stands (waiting, or how many decisions are weighed); the page asks again.
A review made is kept (the same deal, seat and seed always give the same review) and its
words per language, so asking again is instant.

Only a finished deal is reviewed: its record is public to anyone who may open the table,
and the review reads only what the seat could see then, so it tells nothing the record
does not. A deal in play is never reviewed (:meth:`lald.web.table.tables.Table.record`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

from ...coach.review import DEFAULT_WORLDS, Decision, Estimate, Review, Verdict, review_deal
from ...coach.words import move_number, move_text, number, reason_text, review_json, review_lines, seat_names
from ...core import State
from ...i18n import Catalog
from ...record import Record

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
    data["text"]["person"] = person_words(review, catalog, names)
    return data


MINUS = "\u2212"
"""The minus sign the pages write (the settlement's), never a hyphen."""


def signed(value: float, catalog: Catalog, sign: bool = True) -> str:
    """A review's number as the page writes it: one decimal, a true minus sign."""
    return number(value, catalog, sign=sign).replace("-", MINUS)


def _about(e: Estimate, unit: str, catalog: Catalog, key: str, sign: bool = True, **extra: str) -> str:
    """An estimate in a person's words: ``about 1.2 chips (likely between 0.8 and 1.6)``."""
    return catalog.t(f"{key}_{unit}", value=signed(e.mean, catalog, sign), low=signed(e.low, catalog, sign),
                     high=signed(e.high, catalog, sign), **extra)


def _decision_words(d: Decision, unit: str, rank: int, catalog: Catalog,
                    names: Sequence[str]) -> dict[str, Any]:
    t = catalog.t
    heading = t("review_forced" if d.verdict is Verdict.FORCED else f"review_{d.kind.value}",
                number=move_number(d), move=move_text(d.made, catalog))
    if d.verdict is Verdict.FORCED:
        sentence = ""
    elif d.verdict is Verdict.BEST:
        sentence = t("review_was_best")
    else:
        why = reason_text(d, catalog, names)
        sentence = f"{why}." if why else t("web_review_not_best")
    numbers = []
    if d.verdict is not Verdict.BEST and d.verdict is not Verdict.FORCED:
        numbers.append(_about(d.cost, unit, catalog, "web_review_cost", sign=False))
    for option in d.options:
        marks = [t("review_mark_best")] if option.action == d.best else []
        if option.action == d.made:
            marks.append(t("review_mark_made"))
        move = move_text(option.action, catalog)
        if marks:
            move = t("web_review_marked", move=move, marks=", ".join(marks))
        numbers.append(_about(option.value, unit, catalog, "web_review_option", move=move))
    return {"heading": heading.rstrip(":"), "sentence": sentence,
            "badge": t(f"web_review_badge_{d.verdict.value}"),
            "rank": t(f"web_review_rank_{rank}") if rank else "", "numbers": numbers}


def person_words(review: Review, catalog: Catalog, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The review as the page shows it, in a person's words: each decision's sentence
    first (what happened and what would have been better), its numbers after, as
    estimates ("about 1.2 chips, likely between 0.8 and 1.6") with true minus signs; a
    badge per verdict and one per costliest decision that say what they mean."""
    t = catalog.t
    who = seat_names(review.rules.players, review.seat, catalog, names)
    unit = review.unit
    decisions = [_decision_words(d, unit, review.costliest.index(i) + 1 if i in review.costliest else 0,
                                 catalog, who)
                 for i, d in enumerate(review.decisions)]
    choices = review.choices
    counts = {v: sum(1 for d in choices if d.verdict is v) for v in Verdict}
    if review.costliest:
        first = review.decisions[review.costliest[0]]
        why = reason_text(first, catalog, who) or t("web_review_not_best")
        lead = t("web_review_lead", number=move_number(first), reason=why[:1].lower() + why[1:])
    else:
        lead = t("review_none")
    result = signed(review.result, catalog) if unit == "wins" else f"{review.result:+.0f}".replace("-", MINUS)
    summary = [
        _about(review.lost, unit, catalog, "web_review_lost", sign=False),
        t("review_counts", count=len(choices), best=counts[Verdict.BEST], good=counts[Verdict.GOOD],
          inaccuracy=counts[Verdict.INACCURACY], mistake=counts[Verdict.MISTAKE],
          blunder=counts[Verdict.BLUNDER]),
        t(f"review_result_{unit}", result=result),
    ]
    return {"lead": lead, "unit": t(f"web_review_unit_{unit}"), "decisions": decisions, "summary": summary}
