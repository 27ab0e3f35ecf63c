"""What the people who run a server need: ``/healthz`` and ``/readyz``, Prometheus metrics
(``/metrics``, prometheus-client), logs as one JSON object a line with no token in them,
and fail points for the tests that kill a server at a chosen moment.

``/healthz`` answers 200 while the process serves at all; ``/readyz`` answers 200 only
when the server takes new work: its database answers and, one of several servers, it is
listening to the others, its writes go through (none refused, none waiting long) and it
is not stopping (503 with the reason otherwise). The metrics are
the process's own (each server of a site has its own ``/metrics``): tables and connections
held, actions committed by source, the time from an action's acceptance to its commit, the
time of each commit, leases taken and lost.

A fail point (:func:`failpoint`) is a named moment in the code; ``LALD_FAILPOINT=NAME:N``
in a server's environment makes the process kill itself (SIGKILL, as ``kill -9``) the
N-th time it reaches NAME. Unset, it costs a dictionary lookup.
"""

from __future__ import annotations

import datetime
import json
import logging
import os
import re
import signal
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..store import NewAction, Write

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

log = logging.getLogger("lald.web")

# -- fail points ----------------------------------------------------------------------------

#: Where the process is to die: a point's name and the visit that kills (from the environment).
_POINTS: dict[str, int] = {}
_VISITS: dict[str, int] = {}


def _read_points(text: str) -> dict[str, int]:
    points = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, count = part.partition(":")
        points[name] = int(count) if count.isdigit() and int(count) > 0 else 1
    return points


_POINTS.update(_read_points(os.environ.get("LALD_FAILPOINT", "")))


def failpoint(name: str) -> None:
    """Die here (SIGKILL) if ``LALD_FAILPOINT`` names this point and this is the visit it
    counts; otherwise nothing."""
    if name not in _POINTS:
        return
    _VISITS[name] = _VISITS.get(name, 0) + 1
    if _VISITS[name] == _POINTS[name]:
        log.warning("fail point %s reached: the process kills itself", name)
        os.kill(os.getpid(), signal.SIGKILL)


def failpoints() -> frozenset[str]:
    """The fail points this process was given."""
    return frozenset(_POINTS)


# -- logs -----------------------------------------------------------------------------------

#: What a secret looks like: a seat's token (32 characters), a host's (43), a digest (64)
#: and anything as long and unbroken. A log never needs one.
_SECRET = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])")


def redact(text: str) -> str:
    """``text`` with every token-like word replaced by ``[redacted]``."""
    return _SECRET.sub("[redacted]", text)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and, if any, the exception;
    the server's name for the proxy (``worker``) when it is one of several. Token-like
    words are redacted (:func:`redact`) from the message and the exception."""

    def __init__(self, worker: str | None = None) -> None:
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name,
            "message": redact(record.getMessage())}
        if self.worker is not None:
            out["worker"] = self.worker
        event = getattr(record, "event", None)
        if isinstance(event, dict):
            out |= {k: redact(v) if isinstance(v, str) else v for k, v in event.items() if k not in out}
        if record.exc_info:
            out["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str)


def log_config(fmt: str, level: str, worker: str | None = None) -> dict[str, Any]:
    """uvicorn's ``log_config`` for lald: text as uvicorn writes it, or (``json``) one JSON
    object a line for every logger (lald's, uvicorn's, its access log's)."""
    if fmt != "json":  # uvicorn's own, lald's logger with it
        import copy

        from uvicorn.config import LOGGING_CONFIG

        config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
        config["loggers"]["lald"] = {"handlers": ["default"], "level": level.upper(), "propagate": False}
        return config
    return {
        "version": 1, "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter, "worker": worker}},
        "handlers": {"default": {"class": "logging.StreamHandler", "formatter": "json",
                                 "stream": "ext://sys.stderr"}},
        "loggers": {name: {"handlers": ["default"], "level": level.upper(), "propagate": False}
                    for name in ("lald", "uvicorn", "uvicorn.error", "uvicorn.access")},
    }


# -- metrics --------------------------------------------------------------------------------


class Metrics:
    """This process's Prometheus metrics (a registry of its own), of the tables of ``hub``
    (a :class:`~lald.web.people.hub.Hub`: its ``tables``, each with ``open`` and ``conns``)."""

    def __init__(self, hub: Any) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry: CollectorRegistry = CollectorRegistry()
        r = self.registry
        tables = Gauge("lald_tables", "Tables held in this server's memory", ["state"], registry=r)
        tables.labels("open").set_function(lambda: sum(t.open for t in hub.tables.values()))
        tables.labels("finished").set_function(lambda: sum(not t.open for t in hub.tables.values()))
        Gauge("lald_connections", "Open websockets (pages) at this server's tables",
              registry=r).set_function(lambda: sum(len(t.conns) for t in hub.tables.values()))
        self.actions = Counter("lald_actions", "Actions committed, by who chose them", ["source"],
                               registry=r)
        self.action_seconds = Histogram(
            "lald_action_seconds", "From an action's acceptance to its commit (seconds)", registry=r,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
        self.db_seconds = Histogram(
            "lald_db_commit_seconds", "The time of one commit of a batch of writes (seconds)", registry=r,
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5))
        self.claimed = Counter("lald_leases_claimed", "Tables taken from the database's leases", registry=r)
        self.lost = Counter("lald_leases_lost", "Tables whose lease another server took", registry=r)

    def observe(self, writes: Sequence[Write], seconds: float) -> None:
        """A batch was committed in ``seconds``: count its actions and their latency."""
        self.db_seconds.observe(seconds)
        now = time.time()
        for w in writes:
            if isinstance(w, NewAction):
                self.actions.labels(w.source).inc()
                if w.at:
                    self.action_seconds.observe(max(0.0, now - w.at))

    def text(self) -> bytes:
        """The metrics in Prometheus's text format."""
        from prometheus_client import generate_latest

        return generate_latest(self.registry)


# -- routes ---------------------------------------------------------------------------------


def routes() -> list[Any]:
    """``/healthz``, ``/readyz`` and ``/metrics`` (the app keeps ``state.metrics`` and
    ``state.ready``, a function that says why it is not ready, or None)."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})

    async def readyz(request: Request) -> Response:
        check: Callable[[], Any] | None = getattr(request.app.state, "ready", None)
        reason = "starting" if check is None else await check()
        if reason is not None:
            return JSONResponse({"status": "not ready", "reason": reason}, status_code=503,
                                headers={"Cache-Control": "no-store"})
        return JSONResponse({"status": "ready"}, headers={"Cache-Control": "no-store"})

    async def metrics(request: Request) -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST

        found: Metrics | None = getattr(request.app.state, "metrics", None)
        if found is None:
            return JSONResponse({"error": "the server is starting"}, status_code=503)
        return Response(found.text(), media_type=CONTENT_TYPE_LATEST)

    return [Route("/healthz", healthz), Route("/readyz", readyz), Route("/metrics", metrics)]
