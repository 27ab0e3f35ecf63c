"""The machine a benchmark ran on, printed beside its figures: the speed of one core as the
time ``sum(range(1000))`` takes (the yardstick docs/research.md and docs/performance.md
scale figures by), the cores and the load. Figures from different machines, or from one
machine at different loads, compare only through it."""

from __future__ import annotations

import os
import platform
import time
import timeit


def reference_us(cpu: bool = False) -> float:
    """Microseconds one ``sum(range(1000))`` takes here: the best of five timings (``cpu``:
    in this process's processor time, which a shared machine's other work does not add to)."""
    timer = time.process_time if cpu else time.perf_counter
    return min(timeit.repeat("sum(range(1000))", number=2000, repeat=5, timer=timer)) / 2000 * 1e6


def line(reference: float | None = None) -> str:
    """One line that says what machine this is and how busy: print it with the figures."""
    us = reference_us() if reference is None else reference
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"machine: sum(range(1000)) takes {us:.1f} µs here; {os.cpu_count()} cores, load average "
            f"{load}; Python {platform.python_version()}")
