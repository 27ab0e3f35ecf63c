"""Where bots think: quick kinds inline on the event loop, slow ones in a worker thread."""

from __future__ import annotations

import time
from typing import Any

from lald.web.table.tables import ThinkTimes


def _spin(seconds: float) -> Any:
    def think(view: Any, options: Any) -> Any:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass
        return options[0]
    return think


def test_a_kind_thinks_inline_only_after_a_run_of_quick_moves() -> None:
    times = ThinkTimes()
    assert not times.quick("random")  # never measured: a worker thread
    for i in range(ThinkTimes.SAMPLE):
        assert not times.quick("random")
        assert times.timed("random", _spin(0), None, [i]) == i
    assert times.quick("random")
    times.timed("random", _spin(ThinkTimes.QUICK * 2), None, [0])  # one slow move
    assert not times.quick("random")
    for _ in range(ThinkTimes.SAMPLE * 2):
        times.timed("expert", _spin(ThinkTimes.QUICK * 1.5), None, [0])
    assert not times.quick("expert") and not times.quick("greedy")
