"""The clock code waits on (:mod:`lald.clock`): a manual clock moves only when told, runs
each timer at its moment and in order, on the event loop that set it, even when that loop
runs in another thread, as a test's server does."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from lald.clock import SYSTEM, Clock, ManualClock, SystemClock


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a thread of its own, as a test server's does."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


def test_both_clocks_are_clocks() -> None:
    clocks: list[Clock] = [SYSTEM, ManualClock()]
    assert isinstance(clocks[0], SystemClock) and repr(SYSTEM) == "SystemClock()"


def test_a_manual_clock_stands_still_until_advanced() -> None:
    clock = ManualClock(start=1_000.0)
    assert (clock.now(), clock.monotonic()) == (1_000.0, 0.0) == (clock.now(), clock.monotonic())
    clock.advance(2.5)
    assert (clock.now(), clock.monotonic()) == (1_002.5, 2.5)
    with pytest.raises(ValueError, match="does not go back"):
        clock.advance(-1)
    assert abs(ManualClock().now() - time.time()) < 60  # by default it starts at the machine's time


def test_timers_run_in_the_order_they_fall_due_each_at_its_moment() -> None:
    clock = ManualClock(start=0.0)
    ran: list[tuple[str, float]] = []
    def mark(name: str) -> Callable[[], None]:
        return lambda: ran.append((name, clock.monotonic()))

    for name, due in [("c", 3.0), ("a", 1.0), ("b", 2.0), ("a2", 1.0)]:
        clock.call_soon_at(due, mark(name))
    dropped = clock.call_soon_at(1.5, lambda: ran.append(("dropped", clock.monotonic())))
    dropped.cancel()
    assert clock.pending() == [1.0, 1.0, 2.0, 3.0]
    clock.advance(0.999)
    assert ran == []
    clock.advance(1.5)
    assert ran == [("a", 1.0), ("a2", 1.0), ("b", 2.0)] and clock.monotonic() == 2.499
    clock.advance(10)
    assert ran[-1] == ("c", 3.0) and clock.pending() == [] and clock.monotonic() == 12.499


def test_a_timer_set_by_a_timer_runs_in_the_same_advance_if_it_falls_due() -> None:
    clock = ManualClock(start=0.0)
    ran: list[float] = []

    def again() -> None:
        ran.append(clock.monotonic())
        clock.call_soon_at(1.0, again)

    clock.call_soon_at(1.0, again)
    clock.advance(3.5)
    assert ran == [1.0, 2.0, 3.0] and clock.pending() == [0.5]


def test_a_sleep_in_another_threads_loop_ends_when_the_clock_passes(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)
    woke: list[float] = []

    async def nap() -> None:
        await clock.sleep(5)
        woke.append(clock.monotonic())

    done = asyncio.run_coroutine_threadsafe(nap(), loop)
    deadline = time.monotonic() + 10
    while clock.pending() != [5.0]:  # the loop has set its timer
        assert time.monotonic() < deadline
        time.sleep(0.001)
    clock.advance(4.9)
    assert not done.done() and woke == [] and clock.pending() == pytest.approx([0.1])
    clock.advance(0.1)
    done.result(10)
    assert woke == [5.0]


def test_wait_for_times_out_by_the_clock_and_cancels_the_awaited(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)
    never = asyncio.Event()
    cancelled: list[bool] = []

    async def forever() -> None:
        try:
            await never.wait()
        except asyncio.CancelledError:
            cancelled.append(True)
            raise

    async def quick() -> int:
        return 7

    assert asyncio.run_coroutine_threadsafe(clock.wait_for(quick(), 1.0), loop).result(10) == 7
    assert clock.pending() == []  # its timer went with it
    waiting = asyncio.run_coroutine_threadsafe(clock.wait_for(forever(), 2.0), loop)
    deadline = time.monotonic() + 10
    while clock.pending() != [2.0]:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    clock.advance(1.0)
    assert not waiting.done()
    clock.advance(1.0)
    with pytest.raises(TimeoutError, match="2.0 s of the clock"):
        waiting.result(10)
    assert cancelled == [True]


def test_in_its_own_loop_a_manual_clock_runs_timers_in_place() -> None:
    async def main() -> list[str]:
        clock = ManualClock(start=0.0)
        ran: list[str] = []
        clock.call_later(0, lambda: ran.append("soon"))
        clock.call_later(3, lambda: ran.append("later"))
        sleeper = asyncio.create_task(clock.sleep(1))
        await asyncio.sleep(0)
        clock.advance(1)
        await sleeper
        assert ran == ["soon"]
        clock.advance(2)
        return ran

    assert asyncio.run(main()) == ["soon", "later"]


def test_the_system_clock_is_the_machines() -> None:
    assert abs(SYSTEM.now() - time.time()) < 1 and abs(SYSTEM.monotonic() - time.monotonic()) < 1

    async def main() -> list[str]:
        ran: list[str] = []
        SYSTEM.call_later(0.001, lambda: ran.append("rang"))
        await SYSTEM.sleep(0.01)
        with pytest.raises(TimeoutError):
            await SYSTEM.wait_for(asyncio.Event().wait(), 0.001)
        return ran

    assert asyncio.run(main()) == ["rang"]


def test_a_task_a_timer_wakes_has_stepped_when_advance_returns(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)
    steps: list[float] = []

    async def ticker() -> None:
        for _ in range(3):
            await clock.sleep(1)
            steps.append(clock.monotonic())  # what the wake-up does, before its next wait

    asyncio.run_coroutine_threadsafe(ticker(), loop)
    deadline = time.monotonic() + 10
    while clock.pending() != [1.0]:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    for n in (1, 2, 3):
        clock.advance(1)
        assert steps == [float(i) for i in range(1, n + 1)]


def test_a_timeout_ends_a_block_when_the_clock_passes_it(loop: asyncio.AbstractEventLoop) -> None:
    clock = ManualClock(start=0.0)

    async def block(seconds: float, wait: asyncio.Event) -> str:
        try:
            async with clock.timeout(seconds):
                await wait.wait()
                return "done"
        except TimeoutError:
            return f"timed out at {clock.monotonic()}"

    stuck, freed = asyncio.Event(), asyncio.Event()
    late = asyncio.run_coroutine_threadsafe(block(30, stuck), loop)
    deadline = time.monotonic() + 10
    while clock.pending() != [30.0]:
        assert time.monotonic() < deadline
        time.sleep(0.001)
    clock.advance(29)
    assert not late.done()
    clock.advance(1)
    assert late.done() and late.result() == "timed out at 30.0"  # done by the time advance returns
    loop.call_soon_threadsafe(freed.set)
    assert asyncio.run_coroutine_threadsafe(block(30, freed), loop).result(10) == "done"
    assert clock.pending() == []

    async def system() -> bool:
        with pytest.raises(TimeoutError):
            async with SYSTEM.timeout(0.001):
                await asyncio.Event().wait()
        return True

    assert asyncio.run(system())
