"""Time as a parameter: the one clock the server, its tables, leases, the lobby's waits and
rate limits, and the terminal's online client read, so that a test can drive it.

Code that waits, expires or times out takes a :class:`Clock` and reads time only through
it: :meth:`~Clock.now` (seconds since the epoch, for what is stored or shown),
:meth:`~Clock.monotonic` (for intervals), and, inside an event loop,
:meth:`~Clock.sleep`, :meth:`~Clock.call_later` and :meth:`~Clock.wait_for`.
:data:`SYSTEM` is the machine's clock; a :class:`ManualClock` moves only when told to
(:meth:`ManualClock.advance`), and runs each timer that falls due then, in order, on the
event loop that set it, even from another thread (a test beside a server run in a thread
of its own). So a test of "the bots wait 2 s" advances the clock by 2 s instead of
sleeping, and proves that nothing happens before by advancing it less: no timer falls due,
so nothing can run.

>>> clock = ManualClock(start=100.0)
>>> fired = []
>>> _ = clock.call_soon_at(2.0, lambda: fired.append(clock.monotonic()))
>>> clock.advance(1.5); fired
[]
>>> clock.advance(0.5); fired
[2.0]
>>> clock.now()
102.0

Standard library only, below everything that waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol, TypeVar

__all__ = ["SYSTEM", "Clock", "ManualClock", "SystemClock", "Timer"]

T = TypeVar("T")

#: How many rounds of another thread's event loop :meth:`ManualClock.advance` lets run
#: after a timer's callback there before it goes on: what the callback woke takes its
#: steps meanwhile (a cancelled block's clean-up takes three: a timeout is due, it cancels
#: the task, the task runs).
HANDOFF_ROUNDS = 4

#: How long :meth:`ManualClock.advance` waits for another thread's event loop to run the
#: timers that fell due (seconds of real time): a loop that is stuck fails the test.
HANDOFF_SECONDS = 30.0


class Timer(Protocol):
    """A callback set to run later; :meth:`cancel` stops it if it has not run."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """What code that waits asks of time."""

    def now(self) -> float:
        """Seconds since the epoch (what is stored, or shown to people)."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going back (for intervals)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (in the running event loop)."""
        ...

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        """Run ``callback`` in the running event loop in ``seconds``."""
        ...

    async def wait_for(self, awaitable: Awaitable[T], seconds: float) -> T:
        """``awaitable``'s result, or :class:`TimeoutError` after ``seconds`` (it is then
        cancelled)."""
        ...

    def timeout(self, seconds: float) -> contextlib.AbstractAsyncContextManager[object]:
        """A block that is cancelled, and raises :class:`TimeoutError`, if it runs longer
        than ``seconds`` (as :func:`asyncio.timeout`, no task of its own)."""
        ...


class SystemClock:
    """The machine's clock and asyncio's timers."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        return asyncio.get_running_loop().call_later(seconds, callback)

    async def wait_for(self, awaitable: Awaitable[T], seconds: float) -> T:
        return await asyncio.wait_for(awaitable, seconds)

    def timeout(self, seconds: float) -> contextlib.AbstractAsyncContextManager[object]:
        return asyncio.timeout(seconds)

    def __repr__(self) -> str:
        return "SystemClock()"


SYSTEM = SystemClock()
"""The machine's clock: every clock parameter's default."""


def _settle(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class _Timer:
    """One timer of a :class:`ManualClock`: due at a monotonic moment, run on its loop."""

    __slots__ = ("callback", "cancelled", "due", "loop")

    def __init__(self, due: float, callback: Callable[[], object],
                 loop: asyncio.AbstractEventLoop | None) -> None:
        self.due, self.callback, self.loop, self.cancelled = due, callback, loop, False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that stands still until :meth:`advance` moves it; thread-safe.

    ``start`` is its epoch time at monotonic 0 (by default the machine's time when it is
    made, so stored times look like real ones)."""

    def __init__(self, start: float | None = None) -> None:
        self._start = time.time() if start is None else start
        self._elapsed = 0.0
        self._timers: list[tuple[float, int, _Timer]] = []
        self._order = itertools.count()
        self._lock = threading.RLock()

    def __repr__(self) -> str:
        return f"ManualClock(start={self._start!r}) at +{self._elapsed!r}s"

    def now(self) -> float:
        with self._lock:
            return self._start + self._elapsed

    def monotonic(self) -> float:
        with self._lock:
            return self._elapsed

    def _add(self, seconds: float, callback: Callable[[], object],
             loop: asyncio.AbstractEventLoop | None) -> _Timer:
        with self._lock:
            timer = _Timer(self._elapsed + max(0.0, seconds), callback, loop)
            heapq.heappush(self._timers, (timer.due, next(self._order), timer))
            return timer

    def call_later(self, seconds: float, callback: Callable[[], object]) -> Timer:
        """Run ``callback`` in the running event loop once the clock has moved ``seconds``
        on (at once, in the loop's next round, if ``seconds`` <= 0)."""
        loop = asyncio.get_running_loop()
        if seconds <= 0:
            return loop.call_soon(callback)
        return self._add(seconds, callback, loop)

    def call_soon_at(self, seconds: float, callback: Callable[[], object]) -> Timer:
        """Run ``callback`` in the thread that moves the clock, when it has moved
        ``seconds`` on: for code with no event loop (and for the examples above)."""
        return self._add(seconds, callback, None)

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        timer = self.call_later(seconds, lambda: _settle(future))
        try:
            await future
        finally:
            timer.cancel()

    async def wait_for(self, awaitable: Awaitable[T], seconds: float) -> T:
        task = asyncio.ensure_future(awaitable)
        rang: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        timer = self.call_later(seconds, lambda: _settle(rang))
        try:
            racers: set[asyncio.Future[Any]] = {task, rang}
            await asyncio.wait(racers, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            task.cancel()
            raise
        finally:
            timer.cancel()
        if not task.done():
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            raise TimeoutError(f"not done in {seconds} s of the clock")
        return task.result()

    @contextlib.asynccontextmanager
    async def timeout(self, seconds: float) -> AsyncIterator[object]:
        # asyncio's own timeout, never due by the loop's clock, made due at once by a
        # timer of this one
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(None) as scope:
            timer = self.call_later(seconds, lambda: scope.reschedule(loop.time()))
            try:
                yield scope
            finally:
                timer.cancel()

    def pending(self) -> list[float]:
        """When the timers not yet run are due (seconds from now), soonest first."""
        with self._lock:
            return sorted(t.due - self._elapsed for _, _, t in self._timers if not t.cancelled)

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, running each timer that falls due on the way, in
        the order they fall due, at its own moment (the clock reads that moment while it
        runs). A timer of an event loop in another thread is handed to that loop, and this
        waits until the loop has run it; one of the loop in this thread runs here and now.
        A timer a callback sets runs too if it falls due within ``seconds``. A task that a
        timer of another thread's loop wakes (a coroutine waiting on an event) has taken its
        next steps when this returns (:data:`HANDOFF_ROUNDS` rounds of its loop), up to a
        wait on something else than the loop (a thread, a socket); what it does after that
        reads the clock at its new time: to see each step of a chain of waits, advance step
        by step."""
        if seconds < 0:
            raise ValueError(f"a clock does not go back ({seconds} s)")
        with self._lock:
            end = self._elapsed + seconds
        while True:
            with self._lock:
                while self._timers and self._timers[0][2].cancelled:
                    heapq.heappop(self._timers)
                if not self._timers or self._timers[0][0] > end:
                    self._elapsed = end
                    return
                _, _, timer = heapq.heappop(self._timers)
                self._elapsed = max(self._elapsed, timer.due)
            self._run(timer)

    def _run(self, timer: _Timer) -> None:
        loop = timer.loop
        here = loop is None
        if loop is not None:
            try:
                here = asyncio.get_running_loop() is loop
            except RuntimeError:
                here = False
        if here:
            timer.callback()
            return
        assert loop is not None
        if loop.is_closed():
            return
        done = threading.Event()

        def run() -> None:
            try:
                if not timer.cancelled:
                    timer.callback()
            finally:
                after(HANDOFF_ROUNDS)

        def after(rounds: int) -> None:
            # what the callback woke was scheduled first: it has its rounds before this ends
            if rounds:
                loop.call_soon(after, rounds - 1)
            else:
                done.set()

        loop.call_soon_threadsafe(run)
        if not done.wait(HANDOFF_SECONDS):
            raise TimeoutError(f"the event loop did not run a timer in {HANDOFF_SECONDS} s")
