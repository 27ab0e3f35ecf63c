"""The Ray backend on a local instance with 2 CPUs gives the same data as worker processes
(readings and tournaments). One Ray instance serves the module: its start is slow."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lald.core import Rules
from lald.lab.experiment import BATCH_DEALS, run
from lald.play.spec import parse_specs
from lald.tournament.duplicate import Tournament
from lald.tournament.duplicate import run as tournament

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def _hashes(directory: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.iterdir()) if p.suffix in (".csv", ".json")}


def test_readings_on_ray_equal_readings_on_processes(local_ray: Any, tmp_path: Path) -> None:
    args: dict[str, Any] = {"bots": ["random", "heuristic,random"], "deals": BATCH_DEALS + 7, "seed": 3,
                            "sessions": True}
    on_ray = run(["survivor/3", "last-capture/4"], backend="ray", jobs=2, **args)
    on_processes = run(["survivor/3", "last-capture/4"], backend="process", jobs=2, **args)
    on_ray.write(tmp_path / "ray")
    on_processes.write(tmp_path / "process")
    hashes = _hashes(tmp_path / "ray")
    assert set(hashes) == {"deals.csv", "sessions.csv", "summary.json"}
    assert hashes == _hashes(tmp_path / "process")


def test_a_tournament_on_ray_equals_one_on_processes(local_ray: Any) -> None:
    t = Tournament(Rules.make(players=3), tuple(parse_specs([], ["random,heuristic"])), seed=4)
    on_ray = tournament(t, 6, jobs=2, backend="ray")
    on_processes = tournament(t, 6, jobs=2, backend="process")
    strip = {g: {**r, "times": None} for g, r in on_ray.items()}
    assert strip == {g: {**r, "times": None} for g, r in on_processes.items()}


def test_the_command_runs_on_ray(local_ray: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from lald.cli import main

    common = ["readings", "survivor/3", "--bots", "random", "--deals", "20", "--quiet", "--jobs", "2"]
    main([*common, "--backend", "ray", "--out", str(tmp_path / "ray")])
    main([*common, "--out", str(tmp_path / "process")])
    _, err = capsys.readouterr()
    assert "2 Ray worker(s)" in err and "2 process(es)" in err
    assert _hashes(tmp_path / "ray")["deals.csv"] == _hashes(tmp_path / "process")["deals.csv"]
