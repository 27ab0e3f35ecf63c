"""Batches of work on many processes or a Ray cluster: the one mechanism behind
``lald tournament`` and ``lald readings``.

A *job* is a picklable object whose ``run(batch)`` plays one batch and returns its result
as plain JSON data; a batch names its work by deal numbers (a tuple such as
``(reading, table, first, stop)``), and the result depends on those numbers alone, so the
order in which batches finish, the number of workers and the backend never change what
is computed. :func:`run_batches` yields results as they finish, in any order; the caller
keys them by batch.

Backends:

- ``process``: a pool of ``jobs`` worker processes on this machine (``jobs = 1``: in this
  process). Workers are started by a fork server, not forked from the caller, whose
  threads (a progress bar's) would be copied mid-flight.
- ``ray``: tasks on a Ray cluster, joined at ``address`` (or the ``RAY_ADDRESS``
  environment variable), else on a local instance with ``jobs`` CPUs started for the
  run and stopped after it. Ray is imported only here, only when asked for; a Ray
  already initialised by the caller (a notebook, a test) is used as it is.

On Ray, ``jobs`` batches are in flight at once (the workers), so ``jobs`` means the same on
both backends, and Ctrl-C and an early close stop the work quickly with little lost.

>>> list(run_batches(_Square(), [(1,), (2,), (3,)], backend="process", jobs=1))
[1, 4, 9]
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

BACKENDS = ("process", "ray")
#: The most deals one command plays (its results resume, so a longer study runs again).
MAX_DEALS = 1_000_000

#: What to tell someone whose Python has no Ray.
RAY_MISSING = "the ray backend needs Ray, which is not installed: pip install 'lald[ray]'"

Batch = tuple[Any, ...]
T = TypeVar("T")


class Job(Protocol):
    """Work that can be cut into batches."""

    def run(self, batch: Batch) -> Any:
        """Do one batch; return plain data."""
        ...  # pragma: no cover


class BackendError(RuntimeError):
    """A backend that cannot run: Ray missing, a cluster that cannot be reached."""


class _Square:
    """A job for the doctest."""

    def run(self, batch: Batch) -> int:
        return int(batch[0]) ** 2


# -- processes --------------------------------------------------------------------------

_WORKER: Any = None


def _worker_init(job: Any) -> None:
    """Set up a worker process: Ctrl-C is the parent's to handle; the job may want setting
    up once per process (``setup()``)."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = job
    setup: Callable[[], None] | None = getattr(job, "setup", None)
    if setup is not None:
        setup()


def _worker_run(batch: Batch) -> Any:
    assert _WORKER is not None, "the worker was not initialised"
    return _WORKER.run(batch)


def _process_batches(job: Job, todo: Sequence[Batch], jobs: int) -> Iterator[Any]:
    if jobs <= 1 or len(todo) <= 1:
        for batch in todo:
            yield job.run(batch)
        return
    ctx = multiprocessing.get_context("forkserver")
    pool = ctx.Pool(min(jobs, len(todo)), initializer=_worker_init, initargs=(job,))
    try:
        yield from pool.imap_unordered(_worker_run, todo)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


# -- Ray --------------------------------------------------------------------------------


def _ray_module() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError(RAY_MISSING) from None
    return ray


_SET_UP: set[str] = set()
"""The kinds of job already set up in this Ray worker process (``setup`` runs once each)."""


def _ray_task(job: Any, batch: Batch) -> Any:
    kind = type(job).__qualname__
    setup: Callable[[], None] | None = getattr(job, "setup", None)
    if setup is not None and kind not in _SET_UP:
        setup()
        _SET_UP.add(kind)
    return job.run(batch)


def ray_address(address: str | None) -> str | None:
    """The cluster to join: ``address``, else ``RAY_ADDRESS``, else None (a local instance)."""
    return address or os.environ.get("RAY_ADDRESS") or None


def _ray_batches(job: Job, todo: Sequence[Batch], jobs: int, address: str | None) -> Iterator[Any]:
    ray = _ray_module()
    started = False
    if not ray.is_initialized():
        where = ray_address(address)
        try:
            if where:
                ray.init(address=where, logging_level=logging.ERROR, log_to_driver=False)
            else:
                ray.init(num_cpus=jobs, include_dashboard=False, logging_level=logging.ERROR,
                         log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            place = f" at {where}" if where else ""
            raise BackendError(f"cannot start or join Ray{place}: {first}") from None
        started = True
    task = ray.remote(num_cpus=1)(_ray_task)
    job_ref = ray.put(job)
    window = jobs
    pending: list[Any] = []
    queue = iter(todo)
    try:
        for batch in queue:
            pending.append(task.remote(job_ref, batch))
            if len(pending) >= window:
                break
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for batch in queue:
                pending.append(task.remote(job_ref, batch))
                break
            yield ray.get(done[0])
    finally:
        for ref in pending:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # pragma: no cover - a task that finished meanwhile
                pass
        if started:
            ray.shutdown()


def ray_cpus(address: str | None) -> int:
    """How many CPUs the Ray cluster at ``address`` (or ``RAY_ADDRESS``) offers, joining it
    for the question; raises :class:`BackendError` if Ray is missing or no cluster is named."""
    ray = _ray_module()
    where = ray_address(address)
    if not ray.is_initialized():
        if not where:
            raise BackendError("no Ray cluster named: give --address or set RAY_ADDRESS")
        try:
            ray.init(address=where, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise BackendError(f"cannot join Ray at {where}: {str(e).strip().splitlines()[0]}") from None
    return int(ray.cluster_resources().get("CPU", 1))


# -- the one entry point ----------------------------------------------------------------


def run_batches(
    job: Job, batches: Iterable[Batch], backend: str = "process", jobs: int = 1,
    address: str | None = None,
) -> Iterator[Any]:
    """Run ``job`` on every batch and yield each result as it finishes (in any order).
    Closing the iterator early, or Ctrl-C, stops the workers."""
    todo = list(batches)
    if backend == "process":
        yield from _process_batches(job, todo, jobs)
    elif backend == "ray":
        if not todo:
            return
        yield from _ray_batches(job, todo, max(1, jobs), address)
    else:
        raise BackendError(f"unknown backend {backend!r}: choose {' or '.join(BACKENDS)}")


def chunks(units: Iterable[int], size: int) -> Iterator[tuple[int, int]]:
    """Runs of consecutive numbers from ``units`` (sorted), cut at most ``size`` long, as
    ``(first, stop)`` pairs.

    >>> list(chunks([0, 1, 2, 3, 4, 7, 8], 3))
    [(0, 3), (3, 5), (7, 9)]
    """
    first = stop = None
    for u in sorted(units):
        if first is not None and stop is not None and u == stop and u - first < size:
            stop = u + 1
            continue
        if first is not None and stop is not None:
            yield first, stop
        first, stop = u, u + 1
    if first is not None and stop is not None:
        yield first, stop


# -- the command line -------------------------------------------------------------------


def backend_arguments(parser: Any) -> None:
    """The flags ``lald tournament`` and ``lald readings`` share: ``--jobs``, ``--backend``,
    ``--address``."""
    parser.add_argument("--jobs", type=int, default=None,
                        help="workers (default: every core here; with --backend ray and a cluster, its CPUs)")
    parser.add_argument("--backend", choices=BACKENDS, default="process",
                        help="process (default: worker processes on this machine) or ray (a Ray "
                             "cluster, or a local Ray instance; needs the ray extra)")
    parser.add_argument("--address", default=None, metavar="HOST:PORT",
                        help="the Ray cluster to join (default: $RAY_ADDRESS, else a local instance)")


def workers_from_args(args: Any, fail: Callable[[str], Any]) -> tuple[str, int, str | None]:
    """``(backend, jobs, address)`` from the flags of :func:`backend_arguments`; ``fail``
    is called with a one-line message (Ray missing, ``--jobs 0``, ``--address`` without Ray)."""
    backend, jobs, address = args.backend, args.jobs, args.address
    if jobs is not None and jobs < 1:
        fail(f"--jobs {jobs}: use at least one worker")
    if address and backend != "ray":
        fail("--address names a Ray cluster: add --backend ray")
    if backend == "ray":
        try:
            _ray_module()
            if jobs is None:
                jobs = ray_cpus(address) if ray_address(address) else len(os.sched_getaffinity(0))
        except BackendError as e:
            fail(str(e))
    if jobs is None:
        jobs = len(os.sched_getaffinity(0))
    return backend, jobs, address


def with_progress(work: Callable[[Callable[[int, int], None] | None], T], quiet: bool,
                  console: Any) -> T:
    """``work(update)``, showing a bar of deals with the time left that ``update(done,
    total)`` moves on; ``work(None)`` when ``quiet``. Rich is imported only to show it."""
    if quiet:
        return work(None)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("deals"), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("deals", total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return work(update)


class CheckpointError(ValueError):
    """A results directory that holds another set-up, or unreadable results."""


class ResultsDirectory:
    """A results directory: ``IDENTITY`` (the set-up, as JSON) and ``JOURNAL`` (one
    finished batch per line, appended and flushed as each finishes). A directory of another
    set-up is refused unless ``fresh``; a last line cut short by a hard kill is dropped, so
    its batch is played again. Subclasses say what a valid line is and keep it."""

    IDENTITY = "identity.json"
    JOURNAL = "batches.jsonl"
    OTHER = "another set-up"
    """How a refusal names what the directory holds instead."""

    def __init__(self, directory: Path, identity: Any, fresh: bool = False) -> None:
        self.directory = directory
        self.path = directory / self.JOURNAL
        directory.mkdir(parents=True, exist_ok=True)
        identity_path = directory / self.IDENTITY
        if identity_path.exists() and not fresh:
            try:
                stored = json.loads(identity_path.read_text(encoding="utf-8"))
            except ValueError:
                raise CheckpointError(f"{identity_path} is not JSON: use --fresh to start over") from None
            if stored != identity:
                raise CheckpointError(
                    f"{directory} holds {self.OTHER}: use another --out, or --fresh to start over")
        elif self.path.exists() and not fresh:
            raise CheckpointError(
                f"{directory} holds results without {self.IDENTITY}: use --fresh to start over")
        identity_path.write_text(json.dumps(identity, indent=2) + "\n", encoding="utf-8")
        if fresh and self.path.exists():
            self.path.unlink()
        self._load()
        self._file = self.path.open("a", encoding="utf-8")

    def valid(self, result: Any) -> bool:
        """Whether a line read back is a batch of this set-up."""
        raise NotImplementedError

    def keep(self, result: Any) -> None:
        """Hold a finished batch (read back, or just played)."""
        raise NotImplementedError

    def _load(self) -> None:
        if not self.path.exists():
            return
        good = 0
        with self.path.open("rb") as f:
            for raw in f:
                try:
                    result = json.loads(raw)
                    if not raw.endswith(b"\n") or not self.valid(result):
                        raise ValueError
                except (ValueError, KeyError, TypeError):
                    break
                self.keep(result)
                good += len(raw)
        with self.path.open("r+b") as f:
            f.truncate(good)

    def add(self, result: Any) -> None:
        """Record one finished batch."""
        self.keep(result)
        self._file.write(json.dumps(result, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Flush to disk and close."""
        if self._file.closed:
            return
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
